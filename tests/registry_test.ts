/**
 * Conformance: registry.json against the parser list (both directions), every
 * fixture against its golden result, every page against its registry date.
 * Each failure says how to fix it.
 */
import { assert, assertEquals } from "./_assert.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parsers } from "../parsers/mod.ts";
import { fixtureRun, loadRegistry } from "./_registry.ts";
import { REPO } from "./_fixture.ts";
import { checkInstallFacts } from "../lib/install/facts.ts";
import { readBlock, VERIFIED_BY } from "./farm/_verified.ts";
import { readWiringBlock } from "./farm/_wiring_verified.ts";

const entries = loadRegistry();

Deno.test("every parser has a registry entry", () => {
  const ids = new Set(entries.map((e) => e.id));
  for (const p of parsers) {
    assert(
      ids.has(p.id),
      `parser '${p.id}' has no registry.json entry: add one (docs/registry/README.md)`,
    );
  }
});

Deno.test("every registry entry has a parser", () => {
  const ids = new Set(parsers.map((p) => p.id));
  for (const e of entries) {
    assert(ids.has(e.id), `registry.json names '${e.id}' but parsers/mod.ts lists no such parser`);
  }
});

Deno.test("harness ids are spelled one way everywhere", () => {
  for (const e of entries) {
    assert(/^[a-z][a-z0-9_]*$/.test(e.id), `id '${e.id}' must match ^[a-z][a-z0-9_]*$`);
    assertEquals(e.parser_source, `parsers/${e.id}.ts`, `parser_source of ${e.id}`);
    assert(existsSync(join(REPO, e.parser_source)), `${e.parser_source} is missing`);
    assert(existsSync(e.fixtureDir), `fixtures/registry/${e.id}/ is missing`);
    assert(
      existsSync(join(REPO, "docs/registry", `${e.id}.md`)),
      `docs/registry/${e.id}.md is missing`,
    );
    for (const f of e.fixture_paths) {
      assert(existsSync(join(REPO, f)), `fixture path ${f} is missing`);
    }
    assert(
      e.fixture_root.startsWith(`fixtures/registry/${e.id}`),
      `fixture_root of ${e.id} must be under fixtures/registry/${e.id}`,
    );
  }
});

Deno.test("every registry entry has the documented fields", () => {
  const caps = ["mcp", "auto", "skill", "command", "resume", "resume_cwd", "handoff", "prereq"];
  for (const e of entries) {
    assert(e.display_name, `${e.id}: display_name`);
    assert(e.store_paths.length > 0, `${e.id}: store_paths`);
    assert(e.format_kind, `${e.id}: format_kind`);
    assert(
      /^\d{4}-\d{2}-\d{2}$/.test(e.last_verified),
      `${e.id}: last_verified must be YYYY-MM-DD`,
    );
    for (const c of caps) assert(c in e.capabilities, `${e.id}: capabilities.${c} is missing`);
    for (const p of e.store_paths) {
      assert(!/\/home\/|\/Users\//.test(p), `${e.id}: store path ${p} must use ~ or variables`);
    }
  }
});

Deno.test("every install field has the documented shape and target names are unique", () => {
  const names = new Map<string, string>();
  for (const e of entries) {
    const raw = e as unknown as Record<string, unknown>;
    const problems = checkInstallFacts(e.id, raw.install);
    assertEquals(problems, [], `${e.id}: fix registry.json (docs/registry/README.md, 'install')`);
    const inst = raw.install as
      | { target: string; aliases?: string[]; auto?: { target: string }; mcp?: unknown }
      | undefined;
    if (inst) {
      if (inst.mcp) {
        assertEquals(e.capabilities.mcp, true, `${e.id}: has an MCP entry, so capabilities.mcp`);
      }
      if (inst.auto) assertEquals(e.capabilities.auto, true, `${e.id}: capabilities.auto`);
    }
    for (const n of [inst?.target, ...(inst?.aliases ?? []), inst?.auto?.target]) {
      if (!n) continue;
      assert(!names.has(n), `target '${n}' of ${e.id} is also ${names.get(n)}'s`);
      names.set(n, e.id);
    }
    const hc = raw.handoff_command;
    if (hc !== undefined) {
      assert(
        typeof hc === "string" && /(^|\s)\{prompt\}(\s|$)/.test(hc),
        `${e.id}: handoff_command must be a command with {prompt} as one word`,
      );
      assertEquals(e.capabilities.handoff, "exec", `${e.id}: handoff_command needs handoff "exec"`);
    }
    const resume = e.capabilities.resume;
    assert(
      resume === null || (typeof resume === "string" && /(^|\s|=)\{id\}(\s|$)/.test(resume)),
      `${e.id}: capabilities.resume must be null or a command with {id}`,
    );
    const cwd = e.capabilities.resume_cwd;
    assert(
      cwd === null || (typeof cwd === "boolean" && resume !== null),
      `${e.id}: capabilities.resume_cwd must be true, false or null, and null without a resume command`,
    );
  }
});

Deno.test("every reference page's Last verified date equals the registry's", () => {
  for (const e of entries) {
    const page = readFileSync(join(REPO, "docs/registry", `${e.id}.md`), "utf8");
    const m = /^Last verified: (\d{4}-\d{2}-\d{2})\s*$/m.exec(page);
    assert(m, `docs/registry/${e.id}.md needs a line 'Last verified: YYYY-MM-DD'`);
    assertEquals(
      m[1],
      e.last_verified,
      `docs/registry/${e.id}.md says ${
        m[1]
      }, registry.json says ${e.last_verified}: make them agree`,
    );
    for (
      const h of [
        "## Store and files",
        "## Records",
        "## Mapping",
        "## Known quirks and drift",
        "## Verified",
      ]
    ) {
      assert(page.includes(h), `docs/registry/${e.id}.md lacks the section '${h}'`);
    }
  }
});

Deno.test("every entry says how it was verified, and a farm entry's page names the same version and date", () => {
  for (const e of entries) {
    const raw = e as unknown as Record<string, unknown>;
    const by = raw.verified_by as string;
    const version = raw.verified_version;
    assert(
      (VERIFIED_BY as readonly string[]).includes(by),
      `${e.id}: verified_by must be one of ${VERIFIED_BY.join(", ")} (docs/registry/README.md)`,
    );
    assert(
      version === null || (typeof version === "string" && version !== ""),
      `${e.id}: verified_version must be a version string or null`,
    );
    const page = readFileSync(join(REPO, "docs/registry", `${e.id}.md`), "utf8");
    const block = readBlock(page);
    if (by === "farm") {
      assert(version, `${e.id}: a farm verification names the version that ran`);
      assert(
        block,
        `docs/registry/${e.id}.md has no generated farm part: run 'deno task verify:record <report.json>'`,
      );
      assertEquals(
        block,
        { version, date: e.last_verified },
        `docs/registry/${e.id}.md and registry.json disagree: rerun 'deno task verify:record' (never edit by hand)`,
      );
    } else {
      assert(
        !block,
        `docs/registry/${e.id}.md has a farm part but registry.json says ${by}: rerun 'deno task verify:record'`,
      );
    }
  }
});

for (const e of entries) {
  Deno.test(`the ${e.id} fixture parses to its golden result`, async () => {
    const parser = parsers.find((p) => p.id === e.id);
    assert(parser, `no parser ${e.id}`);
    const golden = join(e.fixtureDir, "expected.json");
    assert(
      existsSync(golden),
      `fixtures/registry/${e.id}/expected.json is missing: run 'deno task golden ${e.id}' and read it`,
    );
    const got = await fixtureRun(e, parser);
    const want = JSON.parse(readFileSync(golden, "utf8"));
    assertEquals(
      got,
      want,
      `${e.id} output differs from expected.json; if the change is intended run 'deno task golden ${e.id}' and review the diff`,
    );
    const sessions = (got as { sessions: Array<Record<string, unknown>> }).sessions;
    assert(sessions.length > 0, `${e.id} fixture yields no session`);
    for (const s of sessions) {
      assertEquals(s.harness, e.id);
      assert(typeof s.id === "string" && s.id !== "", `${e.id}: a session without id`);
      assert((s.events as unknown[]).length > 0, `${e.id}: session ${s.id} has no events`);
    }
  });
}

Deno.test("docs/registry/README.md lists every harness of the registry", () => {
  const page = readFileSync(join(REPO, "docs/registry/README.md"), "utf8");
  for (const e of entries) {
    assert(
      page.includes(`[${e.id}.md](${e.id}.md)`),
      `docs/registry/README.md has no row for ${e.id}: add one`,
    );
  }
});

Deno.test("an entry's wiring_verified and its page's generated wiring part agree", () => {
  for (const e of entries) {
    const w = (e as unknown as Record<string, unknown>).wiring_verified as
      | Record<string, unknown>
      | undefined;
    const page = readFileSync(join(REPO, "docs/registry", `${e.id}.md`), "utf8");
    const block = readWiringBlock(page);
    if (!w) {
      assert(!block, `docs/registry/${e.id}.md has a wiring part but registry.json has none`);
      continue;
    }
    assert(typeof w.mcp === "boolean", `${e.id}: wiring_verified.mcp is true or false`);
    assert(
      w.hooks === null || typeof w.hooks === "boolean",
      `${e.id}: wiring_verified.hooks is true, false or null`,
    );
    assertEquals(
      block,
      { version: w.version, date: w.date },
      `docs/registry/${e.id}.md and registry.json disagree on the wiring run: rerun 'deno task verify:record'`,
    );
  }
});
