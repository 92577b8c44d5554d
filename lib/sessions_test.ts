import { assertEquals, assertMatch, assertStringIncludes, assertThrows } from "../tests/_assert.ts";
import { indexSessions } from "../tests/_memory.ts";
import { join } from "node:path";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tempDir } from "../tests/_tmp.ts";
import { materialize, REPO, testEnv } from "../tests/_fixture.ts";
import { runIndex } from "./indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { indexPath, Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { AmbiguousSession, resolveSession, shortRef } from "./sessions.ts";
import { withMemIndex } from "../tests/_search_fixture.ts";

const PARENT = "0b5e2a10-1d2c-4e6f-8a9b-111111111111";

async function claudeIndex<T>(fn: (store: Store) => T | Promise<T>): Promise<T> {
  const fx = materialize(join(REPO, "fixtures/registry/claude"));
  try {
    const env = testEnv(join(fx.root, "home"), {
      DEJA_HOME: join(fx.root, "deja"),
      DEJA_CLAUDE_ROOT: join(fx.root, "projects"),
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(env));
    try {
      return await fn(store);
    } finally {
      store.close();
    }
  } finally {
    fx.cleanup();
  }
}

// Regression: Claude Code subagent ids start with their parent's id
// (`<parent>/agent-…`), so `show`/`resume 0b5e2a10` said "matches 4 sessions".
Deno.test("resolveSession takes the parent when a prefix also matches its own subagents", () =>
  claudeIndex((store) => {
    const kids = store.db.prepare(
      "SELECT native_id FROM sessions WHERE native_id LIKE '0b5e2a10%' AND parent IS NOT NULL",
    ).all() as Array<{ native_id: string }>;
    assertEquals(kids.length >= 2, true);
    assertEquals(resolveSession(store, "0b5e2a10").native_id, PARENT);
    assertEquals(resolveSession(store, "claude:0b5e2a10").native_id, PARENT);
    assertEquals(shortRef(store, "claude", PARENT), "0b5e2a10");
    // Each subagent still has a reference that finds it again.
    for (const k of kids) {
      const ref = shortRef(store, "claude", k.native_id);
      assertEquals(resolveSession(store, ref).native_id, k.native_id);
    }
  }));

// Regression (2026-12, user trial): `show CLAUDE:5fbf3543` failed while `show 5FBF3543` worked.
Deno.test("resolveSession takes the harness prefix in any case, as it takes the id", () =>
  claudeIndex((store) => {
    // Pasted with spaces around it too (trial 16: `--session ' 093f9963'`).
    for (const ref of ["CLAUDE:0b5e2a10", "Claude:0B5E2A10", "claude:0B5E2A10", " 0b5e2a10\n"]) {
      assertEquals(resolveSession(store, ref).native_id, PARENT, ref);
    }
    const bare = assertThrows(() => resolveSession(store, "CLAUDE:"), DejaError);
    assertStringIncludes((bare as DejaError).message, "names a harness but no session");
    // The product's name, as `--harness` takes it (trial 32: `claude-code:9eff8ccb` matched none).
    assertEquals(resolveSession(store, "claude-code:0b5e2a10").native_id, PARENT);
    assertStringIncludes(
      (assertThrows(() => resolveSession(store, "claude-code:"), DejaError) as DejaError).message,
      "names a harness but no session",
    );
    // Another harness's session is said where it is.
    const other = assertThrows(() => resolveSession(store, "codex:0b5e2a10"), DejaError);
    assertStringIncludes(
      (other as DejaError).hint ?? "",
      "it is a claude session: deja show claude:0b5e2a10",
    );
  }));

Deno.test("resolveSession still refuses a prefix several subagents share without their parent", () =>
  claudeIndex((store) => {
    const e = assertThrows(() => resolveSession(store, `${PARENT}/agent-a`), DejaError);
    assertEquals((e as DejaError).exitCode, 2);
    assertThrows(() => resolveSession(store, "zzzz"), DejaError);
  }));

// README promised `deja show deja:<day>`; only the full `deja:<hash>-<day>` or a hash prefix worked.
Deno.test("resolveSession takes deja:<day> for that day's notes, listing projects when several", async () => {
  const note = (ts: string, project: string, text: string) =>
    JSON.stringify({ ts, project, text, tags: [] });
  const ix = await indexSessions([], [
    note("2026-12-02T08:00:00.000Z", "/w/api", "the api needs node 22"),
    note("2026-12-03T08:00:00.000Z", "/w/api", "deploy from main"),
    note("2026-12-03T09:00:00.000Z", "/w/web", "web uses pnpm"),
  ]);
  try {
    const one = resolveSession(ix.store, "deja:2026-12-02");
    assertEquals([one.harness, one.project, one.native_id.endsWith("-2026-12-02")], [
      "deja",
      "/w/api",
      true,
    ]);
    const e = assertThrows(
      () => resolveSession(ix.store, "deja:2026-12-03"),
      DejaError,
    ) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "(/w/api)");
    assertStringIncludes(e.message, "(/w/web)");
    assertThrows(() => resolveSession(ix.store, "deja:2026-12-04"), DejaError);
  } finally {
    ix.cleanup();
  }
});

// User trial (2026-12): `show 019d` named five ids and nothing else; which was which?
Deno.test("resolveSession lists the sessions an ambiguous prefix matches with id, harness, date and title", async () => {
  const spec = (id: string, start: string, user: string) => ({
    id,
    cwd: "/w/app",
    start,
    turns: [{ user }, { say: "done" }],
  });
  const ix = await indexSessions([
    spec("ab12cd00-0000-4000-8000-000000000001", "2026-11-01T10:00:00Z", "fix the login redirect"),
    spec("ab12ef00-0000-4000-8000-000000000002", "2026-11-02T10:00:00Z", "add a dark theme"),
    spec("99990000-0000-4000-8000-000000000003", "2026-11-03T10:00:00Z", "unrelated"),
  ]);
  try {
    const e = assertThrows(
      () => resolveSession(ix.store, "ab12"),
      AmbiguousSession,
    ) as AmbiguousSession;
    assertEquals(e.exitCode, 2);
    assertEquals(e.candidates.map((c) => [c.ref, c.harness, c.title]), [
      ["ab12ef00", "claude", "add a dark theme"],
      ["ab12cd00", "claude", "fix the login redirect"],
    ]);
    assertEquals(e.total, 2);
    const lines = e.message.split("\n");
    assertEquals(lines[0], "'ab12' matches 2 sessions:");
    // The date is the machine's local time (as `show` prints it).
    assertMatch(
      lines[1],
      /^ {2}ab12ef00 {2}claude {2}2026-11-0[123] \d\d:\d\d {2}add a dark theme$/,
    );
    assertMatch(
      lines[2],
      /^ {2}ab12cd00 {2}claude {2}2026-1[01]-\d\d \d\d:\d\d {2}fix the login redirect$/,
    );
    assertEquals(lines.length, 3);
    // Each listed reference names its session alone.
    for (const c of e.candidates) assertEquals(resolveSession(ix.store, c.ref).native_id, c.id);
  } finally {
    ix.cleanup();
  }
});

Deno.test("resolveSession takes a subagent by its parent's short id and its own name", () =>
  claudeIndex((store) => {
    const kids = store.db.prepare(
      "SELECT native_id FROM sessions WHERE native_id LIKE '0b5e2a10%' AND parent IS NOT NULL",
    ).all() as Array<{ native_id: string }>;
    // Trial 9: `b1ea4a04/sub_8` was "no session matches"; only the full id worked.
    for (const k of kids) {
      const child = k.native_id.slice(k.native_id.indexOf("/") + 1);
      assertEquals(resolveSession(store, `0b5e2a10/${child}`).native_id, k.native_id);
    }
    // A child's name several share is still refused; an unknown one matches none.
    assertThrows(() => resolveSession(store, "0b5e2a10/agent-"), DejaError);
    assertThrows(() => resolveSession(store, "0b5e2a10/nosuch"), DejaError);
  }));

Deno.test("resolveSession takes a span id as restore lists it: the end of the session's id", () =>
  claudeIndex((store) => {
    // Trial 16: `deja show 00000004@1` (from `deja restore`) said no session matches.
    const tail = PARENT.replace(/-/g, "").slice(-8);
    assertEquals(resolveSession(store, `${tail}@3`).native_id, PARENT);
    assertEquals(resolveSession(store, `${tail.toUpperCase()}@3.2`).native_id, PARENT);
    assertThrows(() => resolveSession(store, "ffffffff@3"), DejaError);
  }));

// Trial 64: `deja show crush:01` offered `deja show codex:01`, which names four sessions.
Deno.test("another harness's prefix of several sessions is said to list them, not to name one", async () => {
  const spec = (id: string) => ({
    id,
    cwd: "/w/app",
    start: "2026-10-01T10:00:00Z",
    turns: [{ user: "hello" }, { say: "hi" }],
  });
  const ix = await indexSessions([
    spec("01aa0000-0000-4000-8000-000000000001"),
    spec("01bb0000-0000-4000-8000-000000000002"),
  ]);
  try {
    const e = assertThrows(() => resolveSession(ix.store, "codex:01"), DejaError) as DejaError;
    assertStringIncludes(e.hint ?? "", "2 claude sessions do: 'deja show claude:01' lists them");
  } finally {
    ix.cleanup();
  }
});

// Trial 93 F8: `ctx 019d924` digested the Codex parent 019d9249, whose subagent 019d924b has an
// id of its own that shares the prefix; `show 01` listed neither as the subagent.
Deno.test("resolveSession lists a subagent with an id of its own beside its parent", () =>
  withMemIndex([
    { id: "019d9249-aaaa", events: [["user", "set up crewai"]] },
    {
      id: "019d924b-bbbb",
      parent: "019d9249-aaaa",
      events: [["user", "inspect the package"]],
    },
  ], (store) => {
    const e = assertThrows(
      () => resolveSession(store, "019d924"),
      AmbiguousSession,
    ) as AmbiguousSession;
    assertEquals(e.candidates.map((c) => c.id).sort(), ["019d9249-aaaa", "019d924b-bbbb"]);
    assertMatch(e.message, /019d924b .*subagent of 019d9249/);
    // (A subagent named under its parent's id stays the parent's: the test above.)
    assertEquals(resolveSession(store, "019d9249").native_id, "019d9249-aaaa");
    // The errors' doc says so (trial 120 M5: it said every subagent of a listed parent is
    // left out, and `show 019d` listed 019d924b beside 019d9249).
    const doc = readFileSync(new URL("../docs/json-output.md", import.meta.url), "utf8")
      .replace(/\s+/g, " ");
    assertStringIncludes(
      doc,
      "a subagent with an id of its own is listed, its title starting `subagent of <parent>`",
    );
  }));

// Trial 109 (the MCP tool's F6 counted alike): an id of emoji was "(2002 characters)".
Deno.test("resolveSession counts an id's characters in code points, an emoji one", () =>
  withMemIndex([{ id: "019d9249-aaaa", events: [["user", "set up crewai"]] }], (store) => {
    const over = assertThrows(() => resolveSession(store, "😀".repeat(1001)), DejaError);
    assertStringIncludes(over.message, "(1001 characters)");
    assertEquals(over.message.split("'")[1], "😀".repeat(40));
    // 1000 emoji are within the bound it states: looked for, and not found.
    const within = assertThrows(() => resolveSession(store, "😀".repeat(1000)), DejaError);
    assertEquals(within.message.includes("characters)"), false, within.message);
  }));

Deno.test("resolveSession names a listed subagent's parent the index does not hold as not indexed", () =>
  withMemIndex([
    { id: "box:abc1", parent: "box:unknown", events: [["user", "extract the skills"]] },
    { id: "box:abc2", events: [["user", "tidy the ledger"]] },
  ], (store) => {
    const e = assertThrows(() => resolveSession(store, "box:abc"), AmbiguousSession);
    // Trial 112 F10: `subagent of gemini:cda4b925:unknown`, a reference that names nothing.
    assertStringIncludes(e.message, "subagent of box:unknown (not indexed): extract the skills");
  }));

// Trial 120 L7: `deja show` of a session Claude Code wrote only as a cache warm-up said
// "no session matches" and nothing of why; the warm-up's skip note names the session.
Deno.test("resolveSession says why a session left out as a cache warm-up is not there", async () => {
  const root = tempDir();
  try {
    const dir = join(root, "projects", "-work-demo");
    mkdirSync(dir, { recursive: true });
    // The fixture's warm-up file, its session id changed to one no other file holds.
    const warm = readFileSync(
      join(REPO, "fixtures/registry/claude/projects/-work-demo/agent-a227a46.jsonl"),
      "utf8",
    ).replaceAll("7d1e0c55-9a0b-4c2d-8e3f-222222222222", "5eed0001-9a0b-4c2d-8e3f-222222222222");
    writeFileSync(join(dir, "agent-a227a46.jsonl"), warm);
    const env = testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_CLAUDE_ROOT: join(root, "projects"),
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(env));
    try {
      const e = assertThrows(() => resolveSession(store, "5eed0001"), DejaError) as DejaError;
      assertStringIncludes(e.hint ?? "", "left out of the index on purpose: a cache warm-up");
      assertStringIncludes(e.hint ?? "", "agent-a227a46.jsonl");
      // An id no note names keeps the plain hint.
      const other = assertThrows(() => resolveSession(store, "5eed0002"), DejaError) as DejaError;
      assertEquals(other.hint, "search first: deja <words>");
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Trial 137 L1: a session whose messages hold no text was "no session matches" with "search
// first", though `deja sources --verbose` named its file as left out for that.
Deno.test("resolveSession says a session of messages with no text was left out, and its file", async () => {
  const root = tempDir();
  try {
    const dir = join(root, "projects", "-work-demo");
    mkdirSync(dir, { recursive: true });
    const id = "eeee0000-3333-4333-8333-333333333333";
    const at = (s: number) => `2026-12-03T08:00:0${s}.000Z`;
    const file = join(dir, `${id}.jsonl`);
    writeFileSync(
      file,
      [
        { type: "user", message: { role: "user", content: "" }, uuid: "x1", timestamp: at(1) },
        {
          type: "assistant",
          message: { id: "m1", role: "assistant", content: [{ type: "text", text: "" }] },
          uuid: "y1",
          parentUuid: "x1",
          timestamp: at(2),
        },
      ].map((r) => JSON.stringify({ ...r, sessionId: id, cwd: "/work/demo" }) + "\n").join(""),
    );
    const env = testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_CLAUDE_ROOT: join(root, "projects"),
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const store = Store.open(indexPath(env));
    try {
      const e = assertThrows(() => resolveSession(store, "eeee0000"), DejaError) as DejaError;
      assertEquals(e.exitCode, 1);
      assertStringIncludes(
        e.hint ?? "",
        `it was left out of the index, its store holding only messages with no text to index (${file})`,
      );
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
