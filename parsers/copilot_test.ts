import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { mergeChunks } from "../lib/merge.ts";
import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { copilot, parseFlatYaml } from "./copilot.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "5e55a000-0000-4000-8000-000000000001";
const CWD = "/work/demo";

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-copilot-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

let seq = 0;
/** One events.jsonl record. */
function rec(type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  seq++;
  const ts = new Date(Date.UTC(2026, 9, 5, 9, 0, seq)).toISOString();
  return { type, data, id: `ev-${seq}`, timestamp: ts, parentId: null, ...extra };
}
const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const start = (id = SID, cwd: string | undefined = CWD) =>
  rec("session.start", {
    sessionId: id,
    version: 1,
    producer: "copilot-agent",
    copilotVersion: "1.0.102",
    startTime: "2026-10-05T08:59:00.000Z",
    selectedModel: "gpt-4.1",
    ...(cwd ? { context: { cwd } } : {}),
  });
const user = (
  content: string,
  extra: Record<string, unknown> = {},
  envelope: Record<string, unknown> = {},
) => rec("user.message", { content, ...extra }, envelope);
const say = (
  content: string,
  toolRequests: unknown[] = [],
  extra: Record<string, unknown> = {},
  envelope: Record<string, unknown> = {},
) => rec("assistant.message", { messageId: `m${seq}`, content, toolRequests, ...extra }, envelope);
const begin = (id: string, toolName: string, args: unknown, extra: Record<string, unknown> = {}) =>
  rec("tool.execution_start", { toolCallId: id, toolName, arguments: args }, extra);
const done = (id: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  rec("tool.execution_complete", { toolCallId: id, success: true, ...data }, extra);

const EV = `session-state/${SID}/events.jsonl`;
const src = (path: string, kind: SourceRef["kind"] = "append"): SourceRef => ({
  harness: "copilot",
  path,
  kind,
});
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);
const call = (s: Session, id: string) =>
  s.events.find((e) => e.kind === "tool_call" && e.tool?.id === id);
const result = (s: Session, id: string) =>
  s.events.find((e) => e.kind === "tool_result" && e.result?.callId === id);

async function parseFile(root: string, rel = EV, opts: { offset?: number; state?: unknown } = {}) {
  return await parseOne(copilot, src(join(root, rel)), testEnv(root), opts);
}

Deno.test("discovery lists events files, legacy files and the session store when DEJA_COPILOT_ROOT is set", async () => {
  const t = tree({
    [EV]: jsonl(start()),
    "session-state/other/workspace.yaml": "id: x\n",
    "session-state/other/checkpoints/index.md": "# none\n",
    "history-session-state/session_a1b2c3d4-0000-4000-8000-00000000a001_1759669955294.json": "{}",
    "history-session-state/notes.json": "{}",
    "session-store.db": "not opened by discovery",
  });
  try {
    const d = await copilot.discover({
      env: testEnv("/nowhere", { DEJA_COPILOT_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.roots, [t.root]);
    assertEquals(d.sources.map((s) => [s.kind, s.path.slice(t.root.length + 1)]), [
      ["append", EV],
      [
        "document",
        "history-session-state/session_a1b2c3d4-0000-4000-8000-00000000a001_1759669955294.json",
      ],
      ["sqlite", "session-store.db"],
    ]);
    assertEquals(d.sources[2].companions, [join(t.root, "session-store.db-wal")]);
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery uses COPILOT_HOME, else ~/.copilot, when DEJA_COPILOT_ROOT is unset", async () => {
  const home = "/home/nobody-here";
  const viaVar = await copilot.discover({
    env: testEnv(home, { COPILOT_HOME: "/opt/copilot-home" }),
    knownProjects: [],
  });
  assertEquals(viaVar.roots, ["/opt/copilot-home"]);
  const byDefault = await copilot.discover({ env: testEnv(home), knownProjects: [] });
  assertEquals([byDefault.roots, byDefault.sources], [[join(home, ".copilot")], []]);
});

Deno.test("session id comes from session.start when the directory name differs", async () => {
  const t = tree({ "session-state/renamed-dir/events.jsonl": jsonl(start(), user("hello")) });
  try {
    const { sessions } = await parseFile(t.root, "session-state/renamed-dir/events.jsonl");
    assertEquals(sessions.map((s) => [s.id, s.project]), [[SID, CWD]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("session id falls back to workspace.yaml id, then the directory name, when there is no session.start", async () => {
  const t = tree({
    "session-state/dir-a/events.jsonl": jsonl(user("first")),
    "session-state/dir-a/workspace.yaml": "id: from-yaml\ncwd: /work/yaml-cwd\n",
    "session-state/dir-b/events.jsonl": jsonl(user("second")),
  });
  try {
    const a = (await parseFile(t.root, "session-state/dir-a/events.jsonl")).sessions[0];
    const b = (await parseFile(t.root, "session-state/dir-b/events.jsonl")).sessions[0];
    assertEquals([a.id, a.project, b.id, b.project], [
      "from-yaml",
      "/work/yaml-cwd",
      "dir-b",
      undefined,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("workspace.yaml name is the title and is read again on every pass when it changes", async () => {
  const t = tree({
    [EV]: jsonl(start(), user("fix it")),
    [`session-state/${SID}/workspace.yaml`]:
      "id: x\nname: First name\ncreated_at: 2026-10-05T08:00:00.000Z\nupdated_at: 2026-10-05T10:00:00.000Z\n",
  });
  try {
    const first = await parseFile(t.root);
    const s1 = first.sessions[0];
    assertEquals([s1.title, s1.started, s1.updated], [
      "First name",
      Date.parse("2026-10-05T08:00:00.000Z"),
      Date.parse("2026-10-05T10:00:00.000Z"),
    ]);
    writeFileSync(
      join(t.root, `session-state/${SID}/workspace.yaml`),
      "name: 'Renamed: it''s new'\n",
    );
    appendFileSync(join(t.root, EV), jsonl(say("done")));
    const second = await parseFile(t.root, EV, {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    assertEquals(second.sessions.map((s) => [s.id, s.title]), [[SID, "Renamed: it's new"]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("the flat YAML reader unquotes, drops comments and reads block scalars when values need it", () => {
  const y = parseFlatYaml(
    '\uFEFFid: abc\nname: "Fix: the #1 bug"\nnote: plain # a comment\nsummary: |\n  line one\n  line two\n' +
      "nested:\n  child: ignored\nempty:\n",
  );
  assertEquals(y, {
    id: "abc",
    name: "Fix: the #1 bug",
    note: "plain",
    summary: "line one\nline two",
  });
});

Deno.test("harness prompts, injected user messages and reasoning are dropped when a turn is read", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      rec("system.message", { role: "system", content: "You are the GitHub Copilot CLI." }),
      user("what I typed", {
        transformedContent: "<current_datetime>x</current_datetime> what I typed",
      }),
      user("Skill instructions follow.", { source: "skill-pdf" }),
      user("Continue working.", { isAutopilotContinuation: true }),
      user("/init", { source: "command" }),
      say("the answer", [], { reasoningText: "SECRET-THINKING", model: "claude-sonnet-4.6" }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals(s.events.map((e) => [e.kind, e.text]), [
      ["user", "what I typed"],
      ["user", "/init"],
      ["assistant", "the answer"],
    ]);
    assertEquals(s.model, "claude-sonnet-4.6");
  } finally {
    t.cleanup();
  }
});

Deno.test("a bash call carries its command and its result the exit code when shellExecution records it", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      say("running", [{ toolCallId: "c1", name: "bash", arguments: { command: "go test ./..." } }]),
      begin("c1", "bash", { command: "go test ./...", description: "tests" }),
      done("c1", {
        shellExecution: { exitCode: 1 },
        result: { content: "FAIL\n<shellId: 0 completed with exit code 1>" },
      }),
      begin("c2", "bash", { command: "npm run lint" }),
      done("c2", { result: { content: "1 problem\n<exited with exit code 2>" } }),
      begin("c3", "bash", { command: "true" }),
      done("c3", { toolTelemetry: { metrics: { exit_code: 0.0 } }, result: { content: "" } }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals(call(s, "c1")?.tool?.command, "go test ./...");
    assertEquals(s.events.filter((e) => e.tool?.id === "c1").length, 1);
    assertEquals([result(s, "c1")?.text, result(s, "c1")?.result], ["FAIL", {
      callId: "c1",
      exit: 1,
      isError: true,
    }]);
    assertEquals([result(s, "c2")?.text, result(s, "c2")?.result?.exit], ["1 problem", 2]);
    assertEquals(result(s, "c3")?.result, { callId: "c3", exit: 0, isError: false });
  } finally {
    t.cleanup();
  }
});

Deno.test("file tools give paths, edits and writes with paths resolved against the cwd", async () => {
  const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old line\n+new line\n*** End Patch";
  const t = tree({
    [EV]: jsonl(
      start(),
      begin("v", "view", { path: "src/main.go" }),
      begin("e", "edit", {
        path: "/work/demo/README.md",
        old_str: "hello world",
        new_str: "hello you",
      }),
      begin("c", "create", { path: "new.txt", file_text: "fresh\n" }),
      begin("r", "str_replace_editor", {
        command: "str_replace",
        path: "b.go",
        old_str: "x := 1",
        new_str: "x := 2",
      }),
      begin("rv", "str_replace_editor", { command: "view", path: "/etc/hosts" }),
      begin("p", "apply_patch", patch),
      begin("g", "glob", { pattern: "**/*.go" }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals(call(s, "v")?.tool?.paths, ["/work/demo/src/main.go"]);
    assertEquals(call(s, "e")?.tool?.edits, [
      { path: "/work/demo/README.md", old: "hello world", new: "hello you" },
    ]);
    assertEquals(call(s, "c")?.tool?.writes, [{ path: "/work/demo/new.txt", content: "fresh\n" }]);
    assertEquals(call(s, "r")?.tool?.edits, [
      { path: "/work/demo/b.go", old: "x := 1", new: "x := 2" },
    ]);
    assertEquals(call(s, "rv")?.tool?.paths, ["/etc/hosts"]);
    assertEquals(call(s, "p")?.tool?.edits, [
      { path: "/work/demo/a.txt", old: "old line", new: "new line" },
    ]);
    const g = call(s, "g")?.tool;
    assertEquals([g?.paths, g?.edits, g?.command, g?.input], [undefined, undefined, undefined, {
      pattern: "**/*.go",
    }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a tool request and its execution start fold into one call when both are written", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      say("", [{ toolCallId: "c1", name: "bash", arguments: { command: "ls" } }]),
      user("in between"),
      begin("c1", "bash", { command: "ls -la" }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals(s.events.map((e) => e.kind), ["tool_call", "user"]);
    assertEquals(s.events[0].tool?.command, "ls -la");
  } finally {
    t.cleanup();
  }
});

Deno.test("a started tool with no completion stays a call without a result when the session was aborted", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      begin("late", "bash", { command: "mkdir -p out" }),
      rec("permission.completed", { result: { kind: "denied-interactively-by-user" } }),
      rec("abort", { reason: "user_initiated" }),
    ),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.tool?.command]), [
      ["tool_call", "mkdir -p out"],
    ]);
    assertEquals(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("a failed tool gives an error result with the error message when success is false", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      begin("c", "create", { path: "x", file_text: "y" }),
      done("c", { success: false, error: { message: "Path already exists", code: "failure" } }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals([result(s, "c")?.text, result(s, "c")?.result?.isError], [
      "Path already exists",
      true,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a compaction summary becomes a summary event when summaryContent is written", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      rec("session.compaction_start", {}),
      rec("session.compaction_complete", { success: true, summaryContent: "We fixed the loop." }),
      rec("session.compaction_complete", { success: false, error: "too small" }),
    ),
  });
  try {
    const s = (await parseFile(t.root)).sessions[0];
    assertEquals(s.events.map((e) => [e.kind, e.text]), [["summary", "We fixed the loop."]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("sub-agent events form their own session with the parent id when they carry agentId", async () => {
  const t = tree({
    [EV]: jsonl(
      start(),
      user("look around"),
      begin("task1", "task", { description: "explore" }),
      user("Find the config loader.", {}, { agentId: "ag-7" }),
      say("It is in config.go.", [], {}, { agentId: "ag-7" }),
      rec("assistant.message", {
        messageId: "old",
        content: "older builds tag the parent call",
        parentToolCallId: "task1",
      }),
      done("task1", { result: { content: "It is in config.go." } }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(sessions.map((s) => [s.id, s.parent]), [
      [SID, undefined],
      [`${SID}/agent-ag-7`, SID],
      [`${SID}/agent-task1`, SID],
    ]);
    assertEquals(texts(sessions[1], "user"), ["Find the config loader."]);
    assertEquals(texts(sessions[0], "tool_result"), ["It is in config.go."]);
    assert(sessions.every((s) => s.id !== SID || !s.parent));
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty events file is counted and yields no session", async () => {
  const t = tree({ [EV]: "" });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const whole = JSON.stringify(say("finished answer")) + "\n";
  const t = tree({ [EV]: jsonl(start(), user("go")) + whole.slice(0, 20) });
  try {
    const first = await parseFile(t.root);
    const size = statSync(join(t.root, EV)).size;
    assertEquals(first.ctx.endOffset, size - 20);
    assertEquals(texts(first.sessions[0], "assistant"), []);
    appendFileSync(join(t.root, EV), whole.slice(20));
    const second = await parseFile(t.root, EV, {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    assertEquals(second.sessions.map((s) => [s.id, texts(s, "assistant")]), [[SID, [
      "finished answer",
    ]]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a malformed line mid-file and an invalid UTF-8 line are counted and skipped when the rest parses", async () => {
  const t = tree({ [EV]: jsonl(start()) + "{not json\n" + jsonl(user("still here")) });
  try {
    appendFileSync(join(t.root, EV), new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    appendFileSync(join(t.root, EV), jsonl(say("and this")));
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(ctx.counts, { malformed_json: 2 });
    assertEquals(sessions[0].events.map((e) => e.text), ["still here", "and this"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an unknown first record is counted and the session still parses when later records are known", async () => {
  const t = tree({
    [EV]: jsonl(
      { type: "mystery.thing", data: {} },
      { no: "type" },
      start(),
      rec("session.usage_record", { usage: {} }),
      rec("hook.start", {}),
      user("hi"),
    ),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(ctx.counts, { unknown_record: 2 });
    assertEquals(sessions.map((s) => [s.id, texts(s, "user")]), [[SID, ["hi"]]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed parse from an offset gives the same session id and cwd with or without saved state", async () => {
  const t = tree({
    "session-state/not-the-id/events.jsonl": jsonl(start(), user("one"), say("two")),
  });
  const rel = "session-state/not-the-id/events.jsonl";
  try {
    const whole = await parseFile(t.root, rel);
    appendFileSync(
      join(t.root, rel),
      jsonl(begin("c9", "view", { path: "late.txt" }), user("three")),
    );
    for (const state of [whole.ctx.endState, undefined]) {
      const next = await parseFile(t.root, rel, { offset: whole.ctx.endOffset, state });
      assertEquals(next.sessions.map((s) => [s.id, s.project, s.model]), [[SID, CWD, "gpt-4.1"]]);
      assertEquals(call(next.sessions[0], "c9")?.tool?.paths, ["/work/demo/late.txt"]);
      const merged = mergeChunks([...whole.sessions, ...next.sessions]);
      assertEquals(merged.length, 1);
      assertEquals(texts(merged[0], "user"), ["one", "three"]);
    }
  } finally {
    t.cleanup();
  }
});

/** A session-store.db with the public store's schema (schema_version 4). */
function storeDb(path: string, extra = ""): void {
  const db = new DatabaseSync(path);
  db.exec(`
    CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (4);
    CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT,
      branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
    CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
      turn_index INTEGER NOT NULL, user_message TEXT, assistant_response TEXT, timestamp TEXT);
    INSERT INTO sessions VALUES ('${SID}', '${CWD}', NULL, NULL, NULL, 'has a file',
      '2026-10-01T10:00:00Z', '2026-10-01T10:10:00Z');
    INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp)
      VALUES ('${SID}', 0, 'duplicate of the events file', 'x', '2026-10-01T10:05:00Z');
    INSERT INTO sessions VALUES ('db-only', '/work/gone', NULL, NULL, NULL, 'Only in the store',
      '2026-10-02T10:00:00Z', '2026-10-02T10:01:00Z');
    INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp)
      VALUES ('db-only', 0, 'what is left', 'the answer', '2026-10-02T10:02:00Z');
    ${extra}
  `);
  db.close();
}

Deno.test("the session store yields only sessions without an events file, then nothing past the watermark", async () => {
  const t = tree({ [EV]: jsonl(start(), user("from the file")) });
  const db = join(t.root, "session-store.db");
  try {
    storeDb(db);
    const env = testEnv(t.root);
    const dbSrc: SourceRef = { ...src(db, "sqlite"), hint: { root: t.root } };
    const first = await parseOne(copilot, dbSrc, env);
    assertEquals(
      first.sessions.map((s) => [s.id, s.project, s.title, s.events.map((e) => e.text)]),
      [
        ["db-only", "/work/gone", "Only in the store", ["what is left", "the answer"]],
      ],
    );
    assertEquals(first.ctx.endWatermark, Date.parse("2026-10-02T10:02:00Z"));
    const again = await parseOne(copilot, dbSrc, env, { since: first.ctx.endWatermark });
    assertEquals([again.sessions, again.ctx.endWatermark], [[], first.ctx.endWatermark]);
    const w = new DatabaseSync(db);
    w.exec(`INSERT INTO turns (session_id, turn_index, user_message, timestamp)
      VALUES ('db-only', 1, 'a later prompt', '2026-10-03T09:00:00Z')`);
    w.close();
    const later = await parseOne(copilot, dbSrc, env, { since: first.ctx.endWatermark });
    assertEquals(later.sessions.map((s) => texts(s, "user")), [["what is left", "a later prompt"]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("store checkpoints become summaries and session_files file touches when those tables have rows", async () => {
  const t = tree({});
  const db = join(t.root, "session-store.db");
  try {
    storeDb(
      db,
      `CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, session_id TEXT, checkpoint_number INTEGER,
        title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT,
        important_files TEXT, next_steps TEXT, created_at TEXT);
       INSERT INTO checkpoints (session_id, checkpoint_number, title, overview, next_steps, created_at)
         VALUES ('db-only', 1, 'Totals', 'Summed per invoice.', 'Round.', '2026-10-02T10:01:30Z');
       CREATE TABLE session_files (id INTEGER PRIMARY KEY, session_id TEXT, file_path TEXT,
         tool_name TEXT, turn_index INTEGER, first_seen_at TEXT);
       INSERT INTO session_files (session_id, file_path, tool_name, turn_index, first_seen_at)
         VALUES ('db-only', '/work/gone/a.py', 'edit', 0, '2026-10-02T10:01:00Z');`,
    );
    const { sessions } = await parseOne(copilot, src(db, "sqlite"), testEnv(t.root));
    const s = sessions.find((x) => x.id === "db-only")!;
    assertEquals(s.events.map((e) => e.kind), ["tool_call", "summary", "user", "assistant"]);
    assertEquals(s.events[0].tool, { name: "edit", paths: ["/work/gone/a.py"] });
    assertEquals(
      s.events[1].text,
      "Totals\n\nOverview:\nSummed per invoice.\n\nNext steps:\nRound.",
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("a missing or 0-byte store is counted empty and never created, and a foreign schema is unknown_schema", async () => {
  const t = tree({ "session-store.db": "" });
  try {
    const zero = await parseOne(
      copilot,
      src(join(t.root, "session-store.db"), "sqlite"),
      testEnv(t.root),
    );
    assertEquals([zero.sessions, zero.ctx.counts], [[], { empty: 1 }]);
    assertEquals(statSync(join(t.root, "session-store.db")).size, 0);
    const missing = join(t.root, "nope.db");
    const gone = await parseOne(copilot, src(missing, "sqlite"), testEnv(t.root));
    assertEquals([gone.ctx.counts, existsSync(missing)], [{ empty: 1 }, false]);
    const foreign = join(t.root, "foreign", "session-store.db");
    mkdirSync(dirname(foreign));
    const db = new DatabaseSync(foreign);
    db.exec("CREATE TABLE things (id TEXT)");
    db.close();
    const odd = await parseOne(copilot, src(foreign, "sqlite"), testEnv(t.root));
    assertEquals([odd.sessions, odd.ctx.counts], [[], { unknown_schema: 1 }]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a legacy history file gives turns, tool calls and exit codes with times from its timeline", async () => {
  const rel =
    "history-session-state/session_a1b2c3d4-0000-4000-8000-00000000a001_1759669955294.json";
  const t = tree({
    [rel]: JSON.stringify({
      sessionId: "a1b2c3d4-0000-4000-8000-00000000a001",
      startTime: "2025-10-05T13:12:35.294Z",
      chatMessages: [
        { role: "system", content: "You are an agent." },
        { role: "user", content: "build it\n\n<reminder>\nuse tools\n</reminder>" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{
            id: "k1",
            type: "function",
            function: { name: "bash", arguments: '{"command":"make","async":false}' },
          }],
        },
        { role: "tool", tool_call_id: "k1", content: "error\n<exited with exit code 2>" },
        { role: "assistant", content: "It failed." },
      ],
      timeline: [
        { id: "t1", timestamp: "2025-10-05T13:12:40.000Z", type: "user", text: "build it" },
        { id: "t2", timestamp: "2025-10-05T13:13:00.000Z", type: "copilot", text: "It failed." },
      ],
    }),
  });
  try {
    const { sessions } = await parseOne(
      copilot,
      src(join(t.root, rel), "document"),
      testEnv(t.root),
    );
    const s = sessions[0];
    assertEquals(s.id, "a1b2c3d4-0000-4000-8000-00000000a001");
    assertEquals(s.events.map((e) => [e.kind, e.text]), [
      ["user", "build it"],
      ["tool_call", ""],
      ["tool_result", "error"],
      ["assistant", "It failed."],
    ]);
    assertEquals([s.events[1].tool?.command, s.events[2].result], ["make", {
      callId: "k1",
      exit: 2,
      isError: true,
    }]);
    assertEquals(s.events[0].time, Date.parse("2025-10-05T13:12:40.000Z"));
    assertEquals([s.started, s.updated], [
      Date.parse("2025-10-05T13:12:35.294Z"),
      Date.parse("2025-10-05T13:13:00.000Z"),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a legacy history file that is not a chat is counted and yields nothing", async () => {
  const rel = "history-session-state/session_a1b2c3d4-0000-4000-8000-00000000a009_1.json";
  const t = tree({ [rel]: '{"unexpected": true}' });
  try {
    const { sessions, ctx } = await parseOne(
      copilot,
      src(join(t.root, rel), "document"),
      testEnv(t.root),
    );
    assertEquals([sessions, ctx.counts], [[], { unknown_record: 1 }]);
  } finally {
    t.cleanup();
  }
});

const REAL = join(REPO, "../shared/realdata");
const FARM = join(REAL, "farm/copilot/home/.copilot");
const PUBLIC = join(REAL, "copilot-cli");

Deno.test({
  name:
    "farm store (Copilot CLI 1.0.102) yields the marker, the failed cat with exit 1 and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(copilot, testEnv("/nonexistent-home", { DEJA_COPILOT_ROOT: FARM }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project, s.model], [
      "b77a35b7-3f43-4745-a083-d98594d894fa",
      "/tmp/farm/copilot/proj",
      "gpt-4.1",
    ]);
    assert(s.title?.startsWith("Please run ls"));
    assert(texts(s, "assistant").some((x) => x.includes("zebrafinch-copilot")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    assertEquals(result(s, cat.tool!.id!)?.result, {
      callId: cat.tool!.id!,
      exit: 1,
      isError: true,
    });
    assertEquals(result(s, cat.tool!.id!)?.text, "cat: missing.txt: No such file or directory");
    const edit = s.events.flatMap((e) => e.tool?.edits ?? []).find((e) =>
      e.path.endsWith("/README.md")
    )!;
    assertEquals(edit, {
      path: "/tmp/farm/copilot/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    });
    assertEquals(texts(s, "user").length, 1);
    assert(!s.events.some((e) => e.text.includes("You are the GitHub Copilot CLI")));
  },
});

Deno.test({
  name:
    "public store (Copilot CLI 1.0.59 / 1.0.60) yields both sessions and two store-only sessions",
  ignore: !existsSync(PUBLIC),
  async fn() {
    {
      const run = await runParser(
        copilot,
        testEnv("/nonexistent-home", { DEJA_COPILOT_ROOT: PUBLIC }),
      );
      assertEquals([run.errors, run.skips], [{}, {}]);
      const byId = new Map(run.sessions.map((s) => [s.id, s]));
      assertEquals([...byId.keys()].sort(), [
        "3cc3555e-5462-44f9-95de-c67b1cb220b9",
        "9a493a94-a307-489e-8bc7-d16f4afcd992",
        "b87feda8-379e-4f8c-aa42-b4f7d12f253a",
        "feeb765c-b05d-456f-bb55-ff2504dad88b",
      ]);
      const hi = byId.get("9a493a94-a307-489e-8bc7-d16f4afcd992")!;
      assertEquals([hi.project, hi.title, hi.model], [
        "/Users/user/.dotfiles/.config",
        "hi",
        "claude-sonnet-4.6",
      ]);
      // The harness's own errors (`session.error`) are notices: the harness speaking, not the model.
      const mcp = "Error (mcp): Failed to start MCP Servers: Error: Failed to read configuration " +
        "from /Users/user/.copilot/mcp-config.json: Error: Invalid MCP server configuration: " +
        "mcpServers: Required";
      assertEquals(hi.events.map((e) => [e.kind, e.text]), [
        ["notice", mcp],
        ["notice", mcp],
        ["user", "hi"],
        ["assistant", "Hi! How can I help you today?"],
        ["notice", "Error (model): Error loading model list: Error: Not authenticated"],
        ["notice", mcp],
      ]);
      const init = byId.get("b87feda8-379e-4f8c-aa42-b4f7d12f253a")!;
      assertEquals([init.project, init.title, init.model], [
        "/Users/user/.dotfiles/.copilot",
        "Initialize Project Setup",
        "claude-sonnet-4.6",
      ]);
      const calls = init.events.filter((e) => e.kind === "tool_call");
      assertEquals(calls.length, 32);
      // 31 completions, and the mkdir the person refused (then aborted): denied, not run.
      assertEquals(init.events.filter((e) => e.kind === "tool_result").length, 32);
      const last = calls[calls.length - 1];
      assertEquals(last.tool?.command, "mkdir -p /Users/user/.dotfiles/.github");
      const refused = result(init, last.tool!.id!)!;
      assertEquals([refused.text, refused.result?.isError], [
        "Permission denied by the user: not run.",
        true,
      ]);
      assert(calls.some((e) => e.tool?.paths?.[0] === "/Users/user/.dotfiles/README.md"));
      const storeOnly = byId.get("feeb765c-b05d-456f-bb55-ff2504dad88b")!;
      assertEquals([storeOnly.project, storeOnly.path.endsWith("session-store.db")], [
        "/Users/user/.dotfiles/.copilot",
        true,
      ]);
      assertStringIncludes(texts(storeOnly, "assistant")[0], "copilot-instructions.md");
    }
  },
});

Deno.test("a call the person denied reads as denied and not run when permission.completed refuses it", async () => {
  // Regression (Copilot CLI 1.0.60, realdata b87feda8): `mkdir -p …` was denied, then the turn
  // aborted; with no completion the call read as "exit unknown".
  const perm = (id: string, kind: string) =>
    rec("permission.completed", { requestId: `q-${id}`, toolCallId: id, result: { kind } });
  const t = tree({
    [EV]: jsonl(
      start(),
      user("make the dir"),
      begin("c1", "bash", { command: "mkdir -p x" }),
      perm("c1", "denied-interactively-by-user"),
      rec("abort", { reason: "user_initiated" }),
      begin("c2", "bash", { command: "ls" }),
      perm("c2", "approved"),
      done("c2", { result: { content: "x" } }),
      begin("c3", "bash", { command: "rm -rf x" }),
      perm("c3", "denied-by-rules"),
      done("c3", { success: false, error: { message: "rejected by rule" } }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const s = sessions[0];
    assertEquals([result(s, "c1")?.text, result(s, "c1")?.result], [
      "Permission denied by the user: not run.",
      { callId: "c1", isError: true, notRun: true },
    ]);
    assertEquals(result(s, "c2")?.text, "x");
    // A completion written after the denial replaces it.
    const c3 = s.events.filter((e) => e.kind === "tool_result" && e.result?.callId === "c3");
    assertEquals(c3.map((e) => e.text), ["rejected by rule"]);
  } finally {
    t.cleanup();
  }
});
