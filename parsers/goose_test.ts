import { assert, assertEquals } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { goose, gooseRoot } from "./goose.ts";
import { materialize, parseOne, REPO, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

// ---- helpers -----------------------------------------------------------------

/** Goose's schema_version 5 tables (realdata/goose) plus the columns newer builds add. */
const SCHEMA = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    model_config_json TEXT, parent_session_id TEXT);
  CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, metadata_json TEXT);`;

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-goose-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function db(dir: string, sql: string, schema = SCHEMA): string {
  mkdirSync(join(dir, "sessions"), { recursive: true });
  const path = join(dir, "sessions", "sessions.db");
  const d = new DatabaseSync(path);
  d.exec(schema + sql);
  d.close();
  return path;
}

const q = (v: unknown) =>
  `'${(typeof v === "string" ? v : JSON.stringify(v)).replaceAll("'", "''")}'`;
const sess = (
  id: string,
  extra = "'user', '/w/app', '2026-01-02 09:00:00', '2026-01-02 09:00:00', NULL, NULL",
) =>
  `INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, model_config_json, parent_session_id)
   VALUES ('${id}', 'N ${id}', ${extra});`;
const msg = (sid: string, role: string, content: unknown, at = 1767344400, meta = "NULL") =>
  `INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json)
   VALUES ('${sid}', '${role}', ${q(content)}, ${at}, ${meta});`;
const text = (t: string) => ({ type: "text", text: t });
const req = (id: string, name: string, args: unknown) => ({
  type: "toolRequest",
  id,
  toolCall: { status: "success", value: { name, arguments: args } },
});
const res = (id: string, t: string, isError = false) => ({
  type: "toolResponse",
  id,
  toolResult: { status: "success", value: { content: [text(t)], isError } },
});

const src = (path: string, kind: SourceRef["kind"] = "sqlite"): SourceRef => ({
  harness: "goose",
  path,
  kind,
});
const parse = (path: string, since = 0) =>
  parseOne(goose, src(path), testEnv("/nohome"), { since });
const legacy = (path: string, offset = 0) =>
  parseOne(goose, src(path, "document"), testEnv("/nohome"), { offset });
const kinds = (s: Session | undefined, kind?: Event["kind"]) =>
  (s?.events ?? []).filter((e) => !kind || e.kind === kind);

// ---- discovery -----------------------------------------------------------------

Deno.test("gooseRoot follows GOOSE_PATH_ROOT, then XDG_DATA_HOME, then the default when no override is set", () => {
  assertEquals(gooseRoot(testEnv("/h", { GOOSE_PATH_ROOT: "/g" })), "/g/data");
  assertEquals(gooseRoot(testEnv("/h", { XDG_DATA_HOME: "/x" })), "/x/goose");
  assertEquals(gooseRoot(testEnv("/h")), "/h/.local/share/goose");
  assertEquals(gooseRoot(testEnv("/h", { DEJA_GOOSE_ROOT: "/d", GOOSE_PATH_ROOT: "/g" })), "/d");
});

Deno.test("discover lists the database and legacy files, leaving out files whose id is already in the database", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/goose"));
  try {
    const d = await goose.discover({
      env: testEnv("/nohome", { DEJA_GOOSE_ROOT: fx.root }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => [s.path.slice(fx.root.length + 1), s.kind]), [
      ["sessions/sessions.db", "sqlite"],
      ["sessions/20250101_120000.jsonl", "document"],
      ["sessions/20250101_130000.jsonl", "document"],
    ]);
  } finally {
    fx.cleanup();
  }
});

// ---- the SQLite store -----------------------------------------------------------

Deno.test("shell requests give commands and responses give results with isError when content_json holds blocks", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("s1") +
        msg("s1", "user", [text("run it")]) +
        msg("s1", "assistant", [
          { type: "thinking", thinking: "hidden thoughts", signature: "s" },
          text("Running."),
          req("t1", "developer__shell", { command: "cat missing.txt" }),
        ], 1767344401) +
        msg("s1", "user", [res("t1", "cat: missing.txt: No such file", true)], 1767344402),
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(s.events.map((e) => e.kind), ["user", "assistant", "tool_call", "tool_result"]);
    assertEquals(kinds(s, "tool_call")[0].tool?.command, "cat missing.txt");
    assertEquals(kinds(s, "tool_result")[0].result, { callId: "t1", isError: true });
    assertEquals(s.events[0].time, 1767344400000);
    assert(!JSON.stringify(s).includes("hidden thoughts"));
  } finally {
    t.cleanup();
  }
});

Deno.test("text_editor and flat write/edit tools give edits, writes and paths resolved against working_dir", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("s1") + msg("s1", "assistant", [
        req("a", "developer__text_editor", {
          command: "str_replace",
          path: "README.md",
          old_str: "hello world",
          new_str: "hello zebrafinch",
        }),
        req("b", "developer__text_editor", {
          command: "write",
          path: "/w/app/new.txt",
          file_text: "x",
        }),
        req("c", "developer__text_editor", { command: "view", path: "src/a.ts" }),
        req("d", "write", { path: "notes.md", content: "n" }),
        req("e", "edit", { path: "b.ts", old_string: "1", new_string: "2" }),
        req("f", "memory__remember", { text: "x" }),
      ]),
    );
    const calls = kinds((await parse(path)).sessions[0], "tool_call").map((e) => e.tool);
    assertEquals(calls[0]?.edits, [{
      path: "/w/app/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(calls[1]?.writes, [{ path: "/w/app/new.txt", content: "x" }]);
    assertEquals(calls[2]?.paths, ["/w/app/src/a.ts"]);
    assertEquals(calls[3]?.writes, [{ path: "/w/app/notes.md", content: "n" }]);
    assertEquals(calls[4]?.edits, [{ path: "/w/app/b.ts", old: "1", new: "2" }]);
    assertEquals(calls[5]?.name, "memory__remember");
  } finally {
    t.cleanup();
  }
});

Deno.test("a failed tool request is counted and its error response still becomes a result", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("s1") +
        msg("s1", "assistant", [{
          type: "toolRequest",
          id: "x",
          toolCall: { status: "error", error: "bad params" },
        }]) +
        msg("s1", "user", [{
          type: "toolResponse",
          id: "x",
          toolResult: { status: "error", error: "-32602: bad params" },
        }]),
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(kinds(sessions[0], "tool_result").map((e) => [e.text, e.result?.isError]), [[
      "-32602: bad params",
      true,
    ]]);
    assertEquals(ctx.counts, { bad_shape: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("hidden sessions are skipped and sub_agent sessions keep their parent when session_type says so", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("p") +
        sess(
          "c",
          "'sub_agent', '/w/app', '2026-01-02 09:01:00', '2026-01-02 09:01:00', NULL, 'p'",
        ) +
        sess("h", "'hidden', '/w/app', '2026-01-02 09:01:00', '2026-01-02 09:01:00', NULL, NULL") +
        msg("p", "user", [text("a")]) + msg("c", "user", [text("b")]) +
        msg("h", "user", [text("c")]),
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions.map((s) => [s.id, s.parent]), [["p", undefined], ["c", "p"]]);
    assertEquals(ctx.counts, {});
  } finally {
    t.cleanup();
  }
});

Deno.test("messages hidden from the user drop user text and turn assistant text into a summary", async () => {
  const t = temp();
  try {
    const hidden = `'{"userVisible":false,"agentVisible":true}'`;
    const path = db(
      t.dir,
      sess("s1") + msg("s1", "user", [text("continue from the summary")], 1767344400, hidden) +
        msg("s1", "assistant", [text("Summary: done.")], 1767344401, hidden) +
        msg("s1", "user", [text("thanks")], 1767344402, `'{"userVisible":true}'`),
    );
    const s = (await parse(path)).sessions[0];
    assertEquals(s.events.map((e) => [e.kind, e.text]), [["summary", "Summary: done."], [
      "user",
      "thanks",
    ]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("plain-text content_json is read as text and malformed JSON or unknown blocks are counted", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("s1") + msg("s1", "user", "typed plainly") +
        msg("s1", "assistant", '[{"type":"text","text":"cut') +
        msg("s1", "assistant", [{ type: "widget" }, { no: "type" }]) +
        msg("s1", "tool", [text("x")]),
    );
    const { sessions, ctx } = await parse(path);
    assertEquals(sessions[0].events.map((e) => e.text), ["typed plainly"]);
    assertEquals(ctx.counts, { malformed_json: 1, unknown_record: 2, bad_shape: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("session metadata comes from name, working_dir, model_config_json and both timestamp spellings", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      `INSERT INTO sessions (id, name, description, working_dir, created_at, updated_at, model_config_json) VALUES
        ('s1', '', 'from description', '/w/app', '2026-01-02 09:00:00', '2026-01-02T09:30:00.500+00:00',
         '{"model_name":"gpt-5"}');` + msg("s1", "user", [text("x")], 1767344400),
    );
    const s = (await parse(path)).sessions[0];
    assertEquals([s.title, s.project, s.model, s.started, s.updated], [
      "from description",
      "/w/app",
      "gpt-5",
      Date.UTC(2026, 0, 2, 9),
      Date.UTC(2026, 0, 2, 9, 30, 0, 500),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty session yields nothing and no error, counted left out with its reason", async () => {
  const t = temp();
  try {
    const { sessions, ctx } = await parse(db(t.dir, sess("s1")));
    assertEquals(sessions, []);
    // Counted, as other readers count what is no conversation, so `deja sources` says why.
    assertEquals(ctx.counts, { not_session: 1 });
    assertEquals(ctx.examples.map((x) => x.replace(/ at .*@/, " at @")), [
      "not_session at @s1: no messages",
    ]);
    assertEquals(ctx.endWatermark, Date.UTC(2026, 0, 2, 9));
  } finally {
    t.cleanup();
  }
});

Deno.test("a store without content_json is counted unknown_schema and a 0-byte store empty", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      "",
      "CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER, session_id TEXT, role TEXT);",
    );
    assertEquals((await parse(path)).ctx.counts, { unknown_schema: 1 });
    writeFileSync(path, "");
    assertEquals((await parse(path)).ctx.counts, { empty: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a pass from the watermark re-reads only sessions whose updated_at or messages are newer", async () => {
  const t = temp();
  try {
    const path = db(
      t.dir,
      sess("old", "'user', '/w', '2026-01-01 00:00:00', '2026-01-01 00:00:00', NULL, NULL") +
        sess("new", "'user', '/w', '2026-01-02 00:00:00', '2026-01-02 00:00:00', NULL, NULL") +
        msg("old", "user", [text("a")], 1767225600) + msg("new", "user", [text("b")], 1767312000),
    );
    const full = await parse(path);
    assertEquals(full.sessions.map((s) => s.id), ["old", "new"]);
    const again = await parse(path, full.ctx.endWatermark);
    assertEquals(again.sessions.map((s) => s.id), ["new"]);
    // A message added to the old session (Goose need not touch updated_at) brings it back.
    const d = new DatabaseSync(path);
    d.exec(msg("old", "assistant", [text("late")], 1767400000));
    d.close();
    assertEquals((await parse(path, full.ctx.endWatermark)).sessions.map((s) => s.id), [
      "old",
      "new",
    ]);
  } finally {
    t.cleanup();
  }
});

// ---- legacy JSONL --------------------------------------------------------------------

const META = JSON.stringify({
  working_dir: "/w/legacy",
  description: "Legacy chat",
  message_count: 2,
});
const line = (id: string, role: string, content: unknown, created = 1735732800) =>
  JSON.stringify({ id, role, created, content });

Deno.test("a legacy file gives one session named by its stem with metadata from the first line", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "20250101_120000.jsonl");
    writeFileSync(
      path,
      [
        META,
        line("1", "user", [text("deploy?")]),
        line("2", "assistant", [text("make deploy")], 1735732805),
      ].join("\n") + "\n",
    );
    const s = (await legacy(path)).sessions[0];
    assertEquals([s.id, s.project, s.title, s.started, s.updated], [
      "20250101_120000",
      "/w/legacy",
      "Legacy chat",
      1735732800000,
      1735732805000,
    ]);
    assertEquals(s.events.map((e) => e.text), ["deploy?", "make deploy"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a legacy file that is empty is counted empty and yields nothing", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "e.jsonl");
    writeFileSync(path, "");
    const { sessions, ctx } = await legacy(path);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a truncated last legacy line is left for the next read and counted once an append completes it", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "s.jsonl");
    const last = line("2", "assistant", [text("done")], 1735732805);
    writeFileSync(path, META + "\n" + line("1", "user", [text("q")]) + "\n" + last.slice(0, 30));
    const first = await legacy(path);
    assertEquals(first.sessions[0].events.map((e) => e.text), ["q"]);
    assertEquals(first.ctx.endOffset, META.length + 1 + line("1", "user", [text("q")]).length + 1);
    appendFileSync(path, last.slice(30) + "\n");
    assertEquals((await legacy(path)).sessions[0].events.map((e) => e.text), ["q", "done"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed and invalid UTF-8 legacy lines mid-file are counted and the rest is read", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "s.jsonl");
    const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
    writeFileSync(path, META + "\n{not json\n");
    appendFileSync(path, bad);
    appendFileSync(path, line("1", "user", [text("still read")]) + "\n");
    const { sessions, ctx } = await legacy(path);
    assertEquals(sessions[0].events.map((e) => e.text), ["still read"]);
    assertEquals(ctx.counts, { malformed_json: 2 });
  } finally {
    t.cleanup();
  }
});

Deno.test("an unknown first legacy record is counted and the messages after it are read under the stem id", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "abc.jsonl");
    writeFileSync(
      path,
      JSON.stringify({ kind: "mystery" }) + "\n" + line("1", "user", [text("hi")]) + "\n",
    );
    const { sessions, ctx } = await legacy(path);
    assertEquals(ctx.counts, { unknown_record: 1 });
    assertEquals([sessions[0].id, sessions[0].project], ["abc", undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a legacy parse resumed from an offset yields the same session id as a full parse", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "20250101_120000.jsonl");
    const first = META + "\n" + line("1", "user", [text("q")]) + "\n";
    writeFileSync(path, first + line("2", "assistant", [text("a")]) + "\n");
    const full = await legacy(path);
    const resumed = await legacy(path, Buffer.byteLength(first));
    assertEquals(resumed.sessions.map((s) => s.id), full.sessions.map((s) => s.id));
    assertEquals(resumed.sessions[0].events.map((e) => e.text), ["a"]);
  } finally {
    t.cleanup();
  }
});

// ---- the real store --------------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata/goose/sessions-v5-one-empty-session.db");

Deno.test({
  name: "the real Goose store with one empty CLI session yields no session and says why",
  ignore: !existsSync(REAL),
  async fn() {
    const { sessions, ctx } = await parse(REAL);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { not_session: 1 });
    // updated_at 2025-12-02 16:58:55 (SQLite CURRENT_TIMESTAMP, UTC) is the watermark.
    assertEquals(ctx.endWatermark, Date.UTC(2025, 11, 2, 16, 58, 55));
  },
});
