import { assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codebuddy } from "./codebuddy.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "7e1d0c2b-1111-4222-8333-444455556666";
const T = 1791450000000;
const env = testEnv("/nonexistent-home");

let n = 0;
/** One item `s` seconds after T with the session's id and cwd. */
function item(s: number, fields: Record<string, unknown>) {
  return { id: `i${++n}`, timestamp: T + s * 1000, sessionId: SID, cwd: "/w/cb", ...fields };
}
const user = (s: number, content: unknown, providerData: Record<string, unknown> = {}) =>
  item(s, { type: "message", role: "user", content, providerData });
const said = (s: number, text: string, providerData: Record<string, unknown> = {}) =>
  item(s, {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text }],
    providerData,
  });
const call = (s: number, callId: string, name: string, args: unknown) =>
  item(s, {
    type: "function_call",
    callId,
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  });
const result = (s: number, callId: string, output: unknown, status = "completed") =>
  item(s, { type: "function_call_result", callId, status, output });
const input = (text: string) => ({ type: "input_text", text });

function write(root: string, rel: string, records: unknown[]): string {
  const path = join(root, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(
    path,
    records.map((r) => (typeof r === "string" ? r : JSON.stringify(r)) + "\n").join(""),
  );
  return path;
}

function src(path: string): SourceRef {
  return { harness: "codebuddy", path, kind: "append" };
}

async function parseRecords(records: unknown[], rel = `w-cb/${SID}.jsonl`) {
  const dir = tempDir("deja-codebuddy-");
  try {
    return await parseOne(codebuddy, src(write(dir, rel, records)), env);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "codebuddy")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, codebuddy), want);
});

Deno.test("discover reads CODEBUDDY_CONFIG_DIR/projects, else ~/.codebuddy/projects", async () => {
  const home = tempDir("deja-codebuddy-");
  try {
    write(home, `cfg/projects/w-cb/${SID}.jsonl`, []);
    write(home, `cfg/projects/w-cb/${SID}/subagents/agent-1.jsonl`, []);
    const d = await codebuddy.discover({
      env: testEnv(home, { CODEBUDDY_CONFIG_DIR: join(home, "cfg") }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.slice(home.length + 1)), [
      `cfg/projects/w-cb/${SID}/subagents/agent-1.jsonl`,
      `cfg/projects/w-cb/${SID}.jsonl`,
    ]);
    const byDefault = await codebuddy.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(byDefault.roots, [join(home, ".codebuddy", "projects")]);
  } finally {
    rmSync(home, { recursive: true });
  }
});

Deno.test("ms timestamps, sessionId and cwd name the session when items carry them", async () => {
  const { sessions } = await parseRecords([user(1, [input("hi")]), said(2, "hello")]);
  const s = sessions[0];
  assertEquals([s.id, s.project, s.started, s.updated], [SID, "/w/cb", T + 1000, T + 2000]);
});

Deno.test("client plumbing is dropped when providerData flags a user item", async () => {
  const flags = [
    { skipRun: true },
    { isMeta: true },
    { isCompactInternal: true },
    { isCompacted: true },
    { compactType: "auto" },
    { agent: "compact" },
    { teammateMessage: true },
  ];
  const { sessions } = await parseRecords([
    ...flags.map((pd, i) => user(i, [input(`plumbing ${i}`)], pd)),
    user(9, [input("typed")]),
  ]);
  assertEquals(texts(sessions[0], "user"), ["typed"]);
});

Deno.test("text items opening with the client's tags are dropped from the turn they ride in", async () => {
  const { sessions } = await parseRecords([
    user(1, [input("<system-reminder>plan mode</system-reminder>"), input("keep it small")]),
    user(2, [input("<command-name>/model</command-name>")]),
    user(3, [input("<local-command-stdout>ok</local-command-stdout>")]),
    user(4, [input("<teammate-message from=x>hi</teammate-message>")]),
    user(5, "plain string prompt"),
  ]);
  assertEquals(texts(sessions[0], "user"), ["keep it small", "plain string prompt"]);
});

Deno.test("function_call arguments are decoded into Claude tool meanings when they are a JSON string", async () => {
  const { sessions } = await parseRecords([
    call(1, "c1", "Bash", { command: "go test ./..." }),
    call(2, "c2", "Edit", {
      file_path: "/w/cb/README.md",
      old_string: "hello world",
      new_string: "hello zebrafinch",
    }),
    call(3, "c3", "Read", { file_path: "docs/a.md" }),
    call(4, "c4", "Write", { file_path: "b.txt", content: "x" }),
    call(5, "c5", "Bash", "{not json"),
  ]);
  const tools = sessions[0].events.map((e) => e.tool!);
  assertEquals(tools[0].command, "go test ./...");
  assertEquals(tools[1].edits, [{
    path: "/w/cb/README.md",
    old: "hello world",
    new: "hello zebrafinch",
  }]);
  assertEquals(tools[2].paths, ["/w/cb/docs/a.md"]);
  assertEquals(tools[3].writes, [{ path: "/w/cb/b.txt", content: "x" }]);
  assertEquals([tools[4].input, tools[4].command], ["{not json", undefined]);
  assertEquals(tools.map((t) => t.id), ["c1", "c2", "c3", "c4", "c5"]);
});

Deno.test("Exit Code N closing a shell result gives exit and is cut from the text", async () => {
  const { sessions } = await parseRecords([
    call(1, "c1", "Bash", { command: "false" }),
    result(2, "c1", { type: "text", text: "boom\nExit Code: 2" }),
    call(3, "c2", "Bash", { command: "sleep 9" }),
    result(4, "c2", { type: "text", text: "killed\nExit Code: (none)" }),
    call(5, "c3", "Bash", { command: "true" }),
    result(6, "c3", "fine\nExit Code: 0"),
  ]);
  const res = sessions[0].events.filter((e) => e.kind === "tool_result");
  assertEquals(res.map((e) => [e.text, e.result?.exit, e.result?.isError]), [
    ["boom", 2, true],
    ["killed", undefined, false],
    ["fine", 0, false],
  ]);
});

Deno.test("a result is an error when its status is incomplete or its JSON envelope says so", async () => {
  const { sessions } = await parseRecords([
    result(1, "c1", { type: "text", text: "file does not exist" }, "incomplete"),
    result(2, "c2", JSON.stringify({ isError: true, content: [{ type: "text", text: "denied" }] })),
    item(3, {
      type: "function_call_result",
      callId: "c3",
      output: { type: "text", text: "" },
      providerData: { toolResult: { content: "from providerData" } },
    }),
  ]);
  assertEquals(sessions[0].events.map((e) => [e.text, e.result?.isError, e.result?.callId]), [
    ["file does not exist", true, "c1"],
    ["denied", true, "c2"],
    ["from providerData", false, "c3"],
  ]);
});

Deno.test("assistant text and model come from output_text and providerData when reasoning is beside it", async () => {
  const { sessions } = await parseRecords([
    item(1, { type: "reasoning", content: [{ type: "reasoning", text: "secret" }] }),
    said(2, "visible", { messageId: "m1", model: "hunyuan-t1" }),
  ]);
  assertEquals([texts(sessions[0], "assistant"), sessions[0].model], [["visible"], "hunyuan-t1"]);
});

Deno.test("compaction digests become summaries when marked isSummary or written as summary items", async () => {
  const { sessions } = await parseRecords([
    user(1, [input("Summarize.")], { agent: "compact" }),
    user(2, [
      input("<conversation_history_summary>Fixed the greeting.</conversation_history_summary>"),
    ], {
      isSummary: true,
      isCompacted: true,
      compactType: "manual",
    }),
    user(3, "Please continue.", { isCompactInternal: true }),
    item(4, { type: "summary", summary: "Periodic digest." }),
  ]);
  assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
    ["summary", "Fixed the greeting."],
    ["summary", "Periodic digest."],
  ]);
});

Deno.test("the title is the newest custom-title, then ai-title, then topic", async () => {
  const one = await parseRecords([
    item(1, { type: "topic", topic: "t" }),
    item(2, { type: "ai-title", aiTitle: "ai" }),
    item(3, { type: "custom-title", customTitle: "mine" }),
    item(4, { type: "ai-title", aiTitle: "ai later" }),
    user(5, [input("x")]),
  ]);
  assertEquals(one.sessions[0].title, "mine");
  const two = await parseRecords([
    item(1, { type: "ai-title", title: "first" }),
    item(2, { type: "ai-title", title: "second" }),
    item(3, { type: "topic", topic: "t" }),
    user(4, [input("x")]),
  ]);
  assertEquals(two.sessions[0].title, "second");
});

Deno.test("a subagent is filed under the session its directory names when its items carry another id", async () => {
  const { sessions } = await parseRecords(
    [{ ...user(1, [input("survey")]), sessionId: "agent-own-id" }],
    `w-cb/${SID}/subagents/agent-9f.jsonl`,
  );
  assertEquals(sessions.map((s) => [s.id, s.parent]), [[`${SID}/agent-9f`, SID]]);
});

Deno.test("the project is decoded from the directory name when no item carries a cwd", async () => {
  const { sessions } = await parseRecords(
    [{ type: "message", role: "user", content: [input("x")], sessionId: SID }],
    `home-x-app/${SID}.jsonl`,
  );
  assertEquals(sessions[0].project, "/home/x/app");
});

Deno.test("an empty file yields no session and is counted empty once", async () => {
  const { sessions, ctx } = await parseRecords([]);
  assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const dir = tempDir("deja-codebuddy-");
  try {
    const path = write(dir, `w-cb/${SID}.jsonl`, [user(1, [input("first")])]);
    const whole = readFileSync(path).length;
    const tail = JSON.stringify(said(2, "second"));
    appendFileSync(path, tail.slice(0, 20));
    const a = await parseOne(codebuddy, src(path), env);
    assertEquals([a.ctx.endOffset, texts(a.sessions[0], "user")], [whole, ["first"]]);
    appendFileSync(path, tail.slice(20) + "\n");
    const b = await parseOne(codebuddy, src(path), env, { offset: whole, state: a.ctx.endState });
    assertEquals(b.sessions.map((s) => [s.id, texts(s, "assistant")]), [[SID, ["second"]]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a malformed line mid-file is counted and the rest still parses", async () => {
  const { sessions, ctx } = await parseRecords([user(1, [input("a")]), "{oops", said(2, "b")]);
  assertEquals([ctx.counts, texts(sessions[0], "assistant")], [{ malformed_json: 1 }, ["b"]]);
});

Deno.test("an invalid UTF-8 line is counted and skipped when its bytes are not text", async () => {
  const dir = tempDir("deja-codebuddy-");
  try {
    const path = write(dir, `w-cb/${SID}.jsonl`, [user(1, [input("a")])]);
    appendFileSync(path, new Uint8Array([0x7b, 0xe2, 0x28, 0xa1, 0x7d, 0x0a]));
    appendFileSync(path, JSON.stringify(said(2, "b")) + "\n");
    const { sessions, ctx } = await parseOne(codebuddy, src(path), env);
    assertEquals([ctx.counts, texts(sessions[0], "assistant")], [{ malformed_json: 1 }, ["b"]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an unknown first record is counted while later items still parse", async () => {
  const { sessions, ctx } = await parseRecords([
    item(0, { type: "future-item" }),
    item(1, { type: "turn-metrics" }),
    item(1, { type: "file-history-snapshot" }),
    item(1, { type: "session-meta" }),
    user(2, [input("a")]),
  ]);
  assertEquals([ctx.counts, texts(sessions[0], "user")], [{ unknown_record: 1 }, ["a"]]);
});

Deno.test("a resumed parse from an offset yields the same session id as a full parse", async () => {
  const dir = tempDir("deja-codebuddy-");
  try {
    const first = user(1, [input("one")]);
    const path = write(dir, `w-cb/${SID}.jsonl`, [first, said(2, "two")]);
    const full = await parseOne(codebuddy, src(path), env);
    const resumed = await parseOne(codebuddy, src(path), env, {
      offset: JSON.stringify(first).length + 1,
    });
    assertEquals(resumed.sessions.map((s) => [s.id, texts(s, "assistant")]), [[
      full.sessions[0].id,
      ["two"],
    ]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
