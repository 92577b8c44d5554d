import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { hermes, remoteProvider } from "./hermes.ts";
import { isCompaction, stripPreamble, toolResult } from "./_hermes_rows.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers -----------------------------------------------------------------

const SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, title TEXT, cwd TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, reasoning TEXT);`;

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-hermes-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function store(dir: string, sql: string, schema = SCHEMA): string {
  const path = join(dir, "state.db");
  const db = new DatabaseSync(path);
  db.exec(schema + sql);
  db.close();
  return path;
}

const src = (path: string): SourceRef => ({ harness: "hermes", path, kind: "sqlite" });
const parse = (path: string, since = 0) =>
  parseOne(hermes, src(path), testEnv("/nohome"), { since });
const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const call = (id: string, name: string, args: unknown) =>
  q(JSON.stringify([{
    id,
    call_id: id,
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  }]));
const kinds = (s: Session | undefined, kind?: Event["kind"]) =>
  (s?.events ?? []).filter((e) => !kind || e.kind === kind);

const ONE =
  `INSERT INTO sessions VALUES ('s1', 'cli', 'm-1', 'Title one', '/w/app', NULL, 1772355600.25, 1772355700.5);`;

// ---- discovery -----------------------------------------------------------------

Deno.test("discover lists the root store, profile stores and a remote config when the fixture root is HERMES home", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/hermes"));
  try {
    const env = testEnv(join(fx.root, "home"), { DEJA_HERMES_ROOT: fx.root });
    const d = await hermes.discover({ env, knownProjects: [] });
    const paths = d.sources.map((s) => s.path.slice(fx.root.length + 1)).sort();
    assertEquals(paths, [
      "profiles/odd/state.db",
      "profiles/remote/config.yaml",
      "profiles/work/state.db",
      "state.db",
    ]);
    // The 0-byte profiles/empty/state.db is not listed.
    assert(d.sources.every((s) => !s.path.includes("empty")));
    assertEquals(d.sources.find((s) => s.path.endsWith("config.yaml"))?.hint, {
      remote: "postgresql",
    });
  } finally {
    fx.cleanup();
  }
});

Deno.test("discover honours HERMES_HOME when no DEJA_HERMES_ROOT is set", async () => {
  const t = temp();
  try {
    store(t.dir, ONE);
    const d = await hermes.discover({
      env: testEnv("/nohome", { HERMES_HOME: t.dir }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path), [join(t.dir, "state.db")]);
    assertEquals(d.sources[0].companions, [join(t.dir, "state.db-wal")]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a remote sessiondb config yields no session and one unsupported skip when parsed", async () => {
  const t = temp();
  try {
    const cfg = join(t.dir, "config.yaml");
    writeFileSync(cfg, "sessiondb:\n  provider: postgresql\n");
    const { sessions, ctx } = await parseOne(
      hermes,
      { harness: "hermes", path: cfg, kind: "document", hint: { remote: "postgresql" } },
      testEnv("/nohome"),
    );
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unsupported: 1 });
    assert(ctx.examples[0].includes("does not connect"));
  } finally {
    t.cleanup();
  }
});

Deno.test("remoteProvider finds postgres only inside the sessiondb block", () => {
  assertEquals(remoteProvider("sessiondb:\n  provider: postgresql\n"), "postgresql");
  assertEquals(
    remoteProvider("sessiondb:  # where sessions live\n  backend: 'postgres'\n"),
    "postgres",
  );
  assertEquals(remoteProvider("sessiondb:\n  provider: sqlite\n"), undefined);
  assertEquals(
    remoteProvider("other:\n  provider: postgresql\nsessiondb:\n  path: x\n"),
    undefined,
  );
  assertEquals(remoteProvider("model: x\n"), undefined);
});

// ---- mapping -------------------------------------------------------------------

Deno.test("session and message times keep the fraction of REAL seconds as milliseconds", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE +
        `INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'hi', 1772355600.625);`,
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(s.started, 1772355600250);
    assertEquals(s.updated, 1772355700500);
    assertEquals(s.events[0].time, 1772355600625);
    assertEquals([s.title, s.project, s.model], ["Title one", "/w/app", "m-1"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("terminal calls give commands and their results the exit_code when the tool row is the JSON envelope", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE +
        `INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, reasoning) VALUES
        ('s1', 'assistant', NULL, NULL, ${
          call("c1", "terminal", { command: "cat missing.txt" })
        }, NULL, 1772355601, 'secret thoughts'),
        ('s1', 'tool', '{"output": "cat: missing.txt: No such file", "exit_code": 1, "error": null}', 'c1', NULL, 'terminal', 1772355602, NULL);`,
    );
    const s = (await parse(path)).sessions[0];
    const [c] = kinds(s, "tool_call");
    assertEquals(c.tool?.command, "cat missing.txt");
    assertEquals(c.tool?.id, "c1");
    const [r] = kinds(s, "tool_result");
    assertEquals(r.text, "cat: missing.txt: No such file");
    assertEquals(r.result, { callId: "c1", isError: false, exit: 1 });
    assert(!JSON.stringify(s).includes("secret thoughts"), "reasoning leaked into an event");
  } finally {
    t.cleanup();
  }
});

Deno.test("write_file gives writes and a replace patch gives an edit span when arguments are JSON strings", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE + `INSERT INTO messages (session_id, role, tool_calls, timestamp) VALUES
        ('s1', 'assistant', ${
        call("w", "write_file", { path: "notes.md", content: "x\n" })
      }, 1772355601),
        ('s1', 'assistant', ${
        call("p", "patch", {
          mode: "replace",
          path: "README.md",
          old_string: "hello world",
          new_string: "hello zebrafinch",
        })
      }, 1772355602),
        ('s1', 'assistant', ${
        call("v", "patch", {
          mode: "patch",
          patch: "*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n*** End Patch",
        })
      }, 1772355603);`,
    );
    const calls = kinds((await parse(path)).sessions[0], "tool_call");
    assertEquals(calls[0].tool?.writes, [{ path: "/w/app/notes.md", content: "x\n" }]);
    assertEquals(calls[1].tool?.edits, [{
      path: "/w/app/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(calls[2].tool?.edits, [{ path: "/w/app/a.txt", old: "old", new: "new" }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("tool rows become results with isError when the envelope carries an error", () => {
  assertEquals(toolResult('{"output": "", "exit_code": 0, "error": null}'), {
    text: "",
    exit: 0,
    error: false,
  });
  assertEquals(toolResult('{"output": "x", "exit_code": 2, "error": "boom"}'), {
    text: "x\nboom",
    exit: 2,
    error: true,
  });
  assertEquals(toolResult('{"success": false}').error, true);
  assertEquals(toolResult("plain text"), { text: "plain text", error: false });
  assertEquals(toolResult(null), { text: "", error: false });
});

Deno.test("a terminal result followed by Hermes's bracketed note keeps its exit code and the note", () => {
  const content = '{"output": "curl: (6) {x} \\"y\\"", "exit_code": 1, "error": null}\n\n' +
    "[Tool loop warning: same_tool_failure_warning; count=3; This looks like a loop.]";
  assertEquals(toolResult(content), {
    text:
      'curl: (6) {x} "y"\n\n[Tool loop warning: same_tool_failure_warning; count=3; This looks like a loop.]',
    exit: 1,
    error: false,
  });
  // Other text after an object is no shape Hermes writes: the content stays as it is.
  assertEquals(toolResult('{"output": "a", "exit_code": 1} and more'), {
    text: '{"output": "a", "exit_code": 1} and more',
    error: false,
  });
});

Deno.test("the cron preamble is removed from a user row when it opens with a bracket holding brackets", () => {
  const text =
    '[IMPORTANT: You are running as a scheduled cron job. Reply "[SILENT]" if nothing.]\n\nSummarise news';
  assertEquals(stripPreamble(text), "Summarise news");
  assertEquals(stripPreamble("[SYSTEM: a] [IMPORTANT: b]\nrest"), "rest");
  assertEquals(stripPreamble("[IMPORTANT: never closed"), "");
  assertEquals(stripPreamble("[link](x) typed by a person"), "[link](x) typed by a person");
  assert(isCompaction("  [CONTEXT COMPACTION - summary]"));
});

Deno.test("session_meta and system rows give nothing, compaction rows give summaries, unknown roles are counted", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE + `INSERT INTO messages (session_id, role, content, timestamp) VALUES
        ('s1', 'session_meta', NULL, 1772355601), ('s1', 'system', 'You are Hermes.', 1772355602),
        ('s1', 'assistant', '[CONTEXT COMPACTION - reference only] earlier turns', 1772355603),
        ('s1', 'user', NULL, 1772355604), ('s1', 'critic', 'x', 1772355605),
        ('s1', 'user', '[IMPORTANT: You are running as a scheduled cron job.]', 1772355606);`,
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions[0].events.map((e) => e.kind), ["summary"]);
    assertEquals(ctx.counts, { unknown_record: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a model stored as the string 'null' is dropped and parent_session_id becomes parent", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE + `INSERT INTO sessions VALUES ('s2', 'cron', 'null', NULL, NULL, 's1', 1772355800, NULL);
        INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s2', 'user', 'go', 1772355801),
        ('s1', 'user', 'hello', 1772355601);`,
    );
    const s2 = (await parse(path)).sessions.find((s) => s.id === "s2");
    assertEquals(s2?.model, undefined);
    assertEquals(s2?.parent, "s1");
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed tool_calls JSON is counted and the row's text is kept", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE + `INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES
        ('s1', 'assistant', 'Let me look.', '[{"id": "x", "function": {"name"', 1772355601);`,
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions[0].events.map((e) => e.text), ["Let me look."]);
    assertEquals(ctx.counts, { malformed_json: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("an older store with only the messages table still yields its sessions", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      `INSERT INTO messages (session_id, role, content, timestamp) VALUES ('old', 'user', 'q', 1700000000.5),
        ('old', 'assistant', 'a', 1700000001);`,
      "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);",
    );
    const s = (await parse(path)).sessions;
    assertEquals(s.map((x) => [x.id, x.started, x.updated, x.events.length]), [[
      "old",
      1700000000500,
      1700000001000,
      2,
    ]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a store whose messages lack role and timestamp is counted unknown_schema", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      "",
      "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, body TEXT);",
    );
    const { sessions, ctx } = await parse(path, 123);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_schema: 1 });
    assertEquals(ctx.endWatermark, 123);
  } finally {
    t.cleanup();
  }
});

Deno.test("a session without messages yields nothing and counts nothing", async () => {
  const t = temp();
  try {
    const { sessions, ctx } = await parse(store(t.dir, ONE));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, {});
  } finally {
    t.cleanup();
  }
});

// ---- stores that cannot be read ---------------------------------------------------

Deno.test("a 0-byte store is counted empty and never created or opened", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "state.db");
    writeFileSync(path, "");
    const { ctx } = await parse(path);
    assertEquals(ctx.counts, { empty: 1 });
    const missing = join(t.dir, "gone.db");
    assertEquals((await parse(missing)).ctx.counts, { empty: 1 });
    assert(!existsSync(missing), "parsing a missing store created it");
  } finally {
    t.cleanup();
  }
});

Deno.test("a corrupt store is reported as an error of its source, not thrown out of the run", async () => {
  const t = temp();
  try {
    writeFileSync(
      join(t.dir, "state.db"),
      "this is not a database, only text that is long enough".repeat(20),
    );
    const err = await assertRejects(() => parse(join(t.dir, "state.db")), StoreError);
    assertEquals((err as StoreError).reason, "corrupt");
    const run = await runParser(hermes, testEnv("/nohome", { DEJA_HERMES_ROOT: t.dir }));
    assertEquals(Object.keys(run.errors), [join(t.dir, "state.db")]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a store held under an exclusive lock is reported locked after the busy timeout", async () => {
  const t = temp();
  try {
    const path = store(t.dir, ONE);
    const holder = new DatabaseSync(path);
    holder.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;");
    try {
      const env = testEnv("/nohome", { DEJA_SQLITE_TIMEOUT_MS: "50" });
      const err = await assertRejects(() => parseOne(hermes, src(path), env), StoreError);
      assertEquals((err as StoreError).reason, "locked");
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  } finally {
    t.cleanup();
  }
});

// ---- incremental -------------------------------------------------------------------

Deno.test("a pass from the watermark yields only sessions active at or after it, with the same ids", async () => {
  const t = temp();
  try {
    const path = store(
      t.dir,
      ONE + `INSERT INTO sessions VALUES ('s2', 'cli', NULL, NULL, NULL, NULL, 1772400000, NULL);
        INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'a', 1772355601),
        ('s2', 'user', 'b', 1772400001.5);`,
    );
    const full = await parse(path);
    assertEquals(full.sessions.map((s) => s.id), ["s1", "s2"]);
    assertEquals(full.ctx.endWatermark, 1772400001500);
    const again = await parse(path, full.ctx.endWatermark);
    assertEquals(again.sessions.map((s) => s.id), ["s2"]);
    assertEquals(again.sessions[0].events, full.sessions[1].events);
    const later = await parse(path, 1772500000000);
    assertEquals(later.sessions, []);
    assertEquals(later.ctx.endWatermark, 1772500000000);
  } finally {
    t.cleanup();
  }
});

// ---- the real store ------------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata/hermes/state-telegram-cron.db");

Deno.test({
  name:
    "the real Hermes store yields its 3 sessions with turns, tool calls, titles and fractional times",
  ignore: !existsSync(REAL),
  async fn() {
    const t = temp();
    try {
      mkdirSync(join(t.dir, "home"));
      const { sessions, ctx } = await parse(REAL);
      assertEquals(ctx.counts, {});
      assertEquals(sessions.map((s) => s.id), [
        "20260705_112145_f8a75403",
        "cron_7d1d442b1611_20260707_001612",
        "cron_7d1d442b1611_20260707_004435",
      ]);
      const [tg, cron1, cron2] = sessions;
      assertEquals(tg.title, "Getting Started and Introductions");
      assertEquals(cron1.title, "Daily Briefing · Jul 07 00:16");
      assertEquals(tg.started, 1783250505551); // started_at 1783250505.5514 s
      assertEquals(tg.updated, 1783310913357); // ended_at 1783310913.35721 s
      assertEquals(tg.model, "gemini-flash-lite-latest");
      assertEquals(cron1.model, undefined); // stored as the string 'null'
      const count = (s: Session, k: Event["kind"]) => kinds(s, k).length;
      // 72 rows: 14 user, 34 assistant (13 with text, 21 with 23 tool calls), 23 tool, 1 session_meta.
      assertEquals([
        count(tg, "user"),
        count(tg, "assistant"),
        count(tg, "tool_call"),
        count(tg, "tool_result"),
      ], [
        14,
        13,
        23,
        23,
      ]);
      const terminal = kinds(tg, "tool_call").filter((e) => e.tool?.name === "terminal");
      assertEquals(terminal.length, 9);
      assert(terminal.every((e) => e.tool?.command));
      const writes = kinds(tg, "tool_call").filter((e) => e.tool?.name === "write_file");
      assertEquals(writes[0].tool?.writes, [{
        path: "/home/hermes/workspace/test_write.txt",
        content: "test",
      }]);
      const exits = kinds(tg, "tool_result").map((e) => e.result?.exit).filter((x) =>
        x !== undefined
      );
      // The third is followed by a "[Tool loop warning: …]" note (messages.id 24).
      assertEquals(exits, [1, 1, 1, 0, 0, 0, 130, 0, 0]);
      // Every result links to a call of the same session.
      const ids = new Set(kinds(tg, "tool_call").map((e) => e.tool?.id));
      assert(kinds(tg, "tool_result").every((e) => ids.has(e.result?.callId)));
      // The cron job's prompt without the harness preamble; one cron run never got a reply.
      assert(kinds(cron1, "user")[0].text.startsWith("Provide a concise daily summary"));
      assertEquals(cron2.events.map((e) => e.kind), ["user"]);
      assert(!JSON.stringify(sessions).includes("[IMPORTANT:"), "a cron preamble survived");
      assert(!JSON.stringify(sessions).includes("thought_signature"), "tool-call metadata leaked");
    } finally {
      t.cleanup();
    }
  },
});
