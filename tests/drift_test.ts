/**
 * `deja drift` end to end in-process: stores laid out in a temp dir with an
 * unknown record type (Claude Code), an unknown field and an unknown role
 * (Codex), an unknown column (Crush, opencode); indexed, then reported.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { DriftChange, HarnessDrift } from "../lib/drift/report.ts";
import { SAMPLE_LIMITS } from "../lib/drift/sample.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const SECRET = "sk-ant-" + "Zq7".repeat(12);
const SID = "11111111-2222-4333-8444-555555555555";
const THREAD = "019a0000-0000-7000-8000-000000000001";

async function run(args: string[], vars: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: testEnv(vars.HOME, vars),
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  const code = await main(io);
  return { code, out: out.join(""), err: err.join("") };
}

function jsonl(path: string, records: unknown[]): void {
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

/**
 * Lays out the four stores. With `drift` false every record, field and column
 * is one the parsers know.
 */
function stores(drift: boolean): { vars: Record<string, string>; root: string } {
  const root = tempDir("deja-drift-");
  const home = join(root, "home");
  mkdirSync(home);

  const base = { sessionId: SID, cwd: join(home, "app"), timestamp: "2026-11-01T10:00:00Z" };
  const claudeDir = join(root, "claude", "-w-app");
  mkdirSync(claudeDir, { recursive: true });
  jsonl(join(claudeDir, `${SID}.jsonl`), [
    {
      ...base,
      version: "2.1.90",
      type: "user",
      uuid: "u1",
      message: { role: "user", content: "hi" },
    },
    ...(drift
      ? [{
        ...base,
        version: "2.1.91",
        type: "mystery-record",
        uuid: "m1",
        note: `the key is ${SECRET} for now`,
        blob: "x".repeat(10_000),
        list: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      }]
      : []),
  ]);

  const codexDir = join(root, "codex", "sessions", "2026", "11", "01");
  mkdirSync(codexDir, { recursive: true });
  const meta: Record<string, unknown> = {
    id: THREAD,
    timestamp: "2026-11-01T10:00:00.000Z",
    cwd: "/w/app",
    originator: "codex_cli_rs",
    cli_version: "0.999.0",
  };
  if (drift) meta.shiny_new_field = { enabled: true };
  const t = (s: number) => `2026-11-01T10:00:0${s}.000Z`;
  jsonl(join(codexDir, `rollout-2026-11-01T10-00-00-${THREAD}.jsonl`), [
    { timestamp: t(0), type: "session_meta", payload: meta },
    {
      timestamp: t(1),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "fix" }] },
    },
    ...(drift
      ? [{
        timestamp: t(2),
        type: "response_item",
        payload: {
          type: "message",
          role: "critic",
          content: [{ type: "output_text", text: "no" }],
        },
      }]
      : []),
  ]);

  const proj = join(root, "proj");
  mkdirSync(join(proj, ".crush"), { recursive: true });
  mkdirSync(join(root, "crush"));
  writeFileSync(
    join(root, "crush", "projects.json"),
    JSON.stringify({ projects: [{ path: proj, data_dir: ".crush" }] }),
  );
  const crush = new DatabaseSync(join(proj, ".crush", "crush.db"));
  crush.exec(`
    CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL,
      is_applied INTEGER NOT NULL);
    INSERT INTO goose_db_version (version_id, is_applied) VALUES (0, 1), (20250812000000, 1);
    CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
      updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL ${drift ? ", mood TEXT" : ""});
    CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
      parts TEXT NOT NULL DEFAULT '[]', model TEXT, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL);
    INSERT INTO messages VALUES ('m1', 's1', 'user',
      '[{"type":"text","data":{"text":"tidy the notes"}}]', NULL, 1790000000, 1790000000);
  `);
  crush.prepare(
    `INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at${
      drift ? ", mood" : ""
    }) VALUES (?, NULL, 'tidy', 1790000000, 1790000000${drift ? ", ?" : ""})`,
  ).run(
    "s1",
    ...(drift ? [`DB_PASSWORD="${"hunter2".repeat(3)}" and more`] : []),
  );
  crush.close();

  mkdirSync(join(root, "opencode"));
  const oc = new DatabaseSync(join(root, "opencode", "opencode.db"));
  oc.exec(`
    CREATE TABLE session (id text PRIMARY KEY, directory text NOT NULL, title text NOT NULL,
      version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL
      ${drift ? ", hologram text" : ""});
    INSERT INTO session VALUES ('ses_1', '/w/app', 'tidy', '1.99.0', 1795000000000, 1795000001000);
    INSERT INTO message VALUES ('msg_1', 'ses_1', 1795000000000, 1795000000000,
      '{"role":"user","time":{"created":1795000000000}}');
    INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES
      ('prt_1', 'msg_1', 'ses_1', 1795000000000, 1795000000000, '{"type":"text","text":"tidy"}');
  `);
  oc.close();

  return {
    root,
    vars: {
      HOME: home,
      DEJA_HOME: join(root, "deja"),
      DEJA_CLAUDE_ROOT: join(root, "claude"),
      DEJA_CODEX_ROOT: join(root, "codex"),
      DEJA_CRUSH_ROOT: join(root, "crush"),
      DEJA_OPENCODE_ROOT: join(root, "opencode"),
    },
  };
}

const ONLY = ["--harness", "claude", "--harness", "codex", "--harness", "crush", "--harness"];
const INDEX = ["index", "--quiet", ...ONLY, "opencode"];

async function report(vars: Record<string, string>): Promise<HarnessDrift[]> {
  const r = await run(["drift", "--json"], vars);
  assertEquals(r.code, 0, r.err);
  return JSON.parse(r.out).harnesses as HarnessDrift[];
}

function find(hs: HarnessDrift[], harness: string, detail: string): DriftChange {
  const h = hs.find((x) => x.harness === harness);
  const c = h?.changes.find((x) => x.detail === detail);
  assert(c, `no '${detail}' for ${harness} in ${JSON.stringify(hs, null, 1)}`);
  return c;
}

Deno.test("drift lists an unknown record type, field, role and columns when the stores show them", async () => {
  const { root, vars } = stores(true);
  try {
    assertEquals((await run(INDEX, vars)).code, 0);
    const hs = await report(vars);
    assertEquals(hs.map((h) => h.harness), ["claude", "codex", "crush", "opencode"]);

    const rec = find(hs, "claude", "type mystery-record");
    assertEquals(rec.kind, "content");
    assertEquals(rec.version, "2.1.91");
    assert(rec.offset !== null && rec.offset > 0, "the record's byte offset");
    assertStringIncludes(rec.sample ?? "", '"type":"mystery-record"');
    assertEquals(hs[0].versions, ["2.1.91"]);

    const field = find(hs, "codex", "session_meta field shiny_new_field");
    assertEquals([field.kind, field.version, field.offset], ["session_metadata", "0.999.0", 0]);
    assertStringIncludes(field.sample ?? "", '"shiny_new_field":{"enabled":true}');
    assertEquals(find(hs, "codex", "message role critic").kind, "roles");

    const col = find(hs, "crush", "column sessions.mood");
    assertEquals([col.kind, col.version, col.offset], [
      "session_metadata",
      "schema 20250812000000",
      null,
    ]);
    assertStringIncludes(col.sample ?? "", '"column":"mood"');
    const part = find(hs, "opencode", "column part.hologram");
    assertEquals([part.kind, part.version], ["content", "1.99.0"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("drift samples are redacted, cut down and home-relative when a record holds a secret", async () => {
  const { root, vars } = stores(true);
  try {
    await run(INDEX, vars);
    const hs = await report(vars);
    const rec = find(hs, "claude", "type mystery-record");
    const sample = rec.sample ?? "";
    assert(!sample.includes(SECRET) && !sample.includes("Zq7Zq7"), sample);
    assertStringIncludes(sample, "[redacted:anthropic_key]");
    assertStringIncludes(sample, `…[+${10_000 - SAMPLE_LIMITS.string} chars]`);
    assertStringIncludes(sample, '"list":[1,2,3,4,"…[+5 more]"]');
    assertStringIncludes(sample, '"cwd":"~/app"');
    assert(sample.length < 1000, `sample of ${sample.length} chars`);
    const col = find(hs, "crush", "column sessions.mood").sample ?? "";
    assert(!col.includes("hunter2"), col);
    assertStringIncludes(col, "[redacted:assignment]");

    const text = await run(["drift"], vars);
    assertEquals(text.code, 0);
    assertStringIncludes(text.out, "## claude 2.1.91 · ");
    assertStringIncludes(text.out, "- content: type mystery-record (seen 1 time in 1 store)");
    assertStringIncludes(text.out, "  ```json\n  {");
    assert(!text.out.includes(SECRET), "no secret in the text report");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("drift reports none and exits 0 when the stores hold nothing unknown", async () => {
  const { root, vars } = stores(false);
  try {
    assertEquals((await run(INDEX, vars)).code, 0);
    assertEquals(await report(vars), []);
    const text = await run(["drift"], vars);
    assertEquals(text.code, 0);
    assertEquals(text.out, "no drift seen in 4 indexed stores\n");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("drift keeps an earlier note when an append store is read on from its offset", async () => {
  const { root, vars } = stores(true);
  try {
    await run(INDEX, vars);
    const file = join(root, "claude", "-w-app", `${SID}.jsonl`);
    appendFileSync(
      file,
      JSON.stringify({
        type: "user",
        sessionId: SID,
        uuid: "u2",
        timestamp: "2026-11-01T10:05:00Z",
        message: { role: "user", content: "and again" },
      }) + "\n",
    );
    const r = await run(["index", "--json", "--harness", "claude"], vars);
    assertEquals(JSON.parse(r.out).harnesses[0].read, 1, "the store was read on");
    const rec = find(await report(vars), "claude", "type mystery-record");
    assertEquals([rec.count, rec.version], [1, "2.1.91"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("drift --harness keeps one harness, and an unknown one or a missing index is exit 2", async () => {
  const { root, vars } = stores(true);
  try {
    const none = await run(["drift"], vars);
    assertEquals(none.code, 2);
    assertStringIncludes(none.err, "hint: run 'deja index' first");
    await run(INDEX, vars);
    const one = await run(["drift", "--json", "--harness", "crush"], vars);
    assertEquals(
      (JSON.parse(one.out).harnesses as HarnessDrift[]).map((h) => h.harness),
      ["crush"],
    );
    const bad = await run(["drift", "--harness", "nope"], vars);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.err, "deja: unknown harness 'nope'");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("drift says which stores to re-read when they were indexed before drift was kept", async () => {
  const { root, vars } = stores(true);
  try {
    await run(INDEX, vars);
    // What an index written by schema 1 holds: skip counts, no drift column value.
    const db = new DatabaseSync(join(vars.DEJA_HOME, "index.db"));
    db.exec("UPDATE sources SET drift = NULL WHERE harness = 'claude'");
    db.close();
    const r = await run(["drift", "--harness", "claude"], vars);
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, "no drift seen for claude in 1 indexed store");
    assertStringIncludes(r.out, "run 'deja index --rebuild' to check them");
    assertEquals(JSON.parse((await run(["drift", "--json"], vars)).out).unchecked, 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
