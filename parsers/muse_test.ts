import { assertEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { muse } from "./muse.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "01a2b3c4-0000-7000-8000-0000000000d1";
const T0 = 1791450000123456; // µs
const env = testEnv("/nonexistent-home");

let seq = 0;
/** One Muse record of `payloadType`, `ms` milliseconds after T0, on `stream`. */
function rec(payloadType: string, payload: unknown, ms = 0, stream = { kind: "session", id: SID }) {
  seq++;
  return {
    schema_version: 1,
    id: `r${seq}`,
    stream,
    sequence: seq,
    recorded_at: T0 + ms * 1000,
    record_type: "event",
    payload_type: payloadType,
    payload,
  };
}
const run = (event: Record<string, unknown>, ms = 0, stream?: { kind: string; id: string }) =>
  rec("runtime.session", { kind: "run", run_id: "run-1", event }, ms, stream);
const started = (prompt: string, ms = 0) => run({ kind: "started", prompt }, ms);
const said = (text: string, ms = 0) => run({ kind: "assistant_message_committed", text }, ms);
const calls = (tool_calls: unknown[], ms = 0) =>
  run({ kind: "assistant_tool_calls_committed", tool_calls }, ms);
const results = (list: unknown[], ms = 0) =>
  run({ kind: "tool_result_batch_committed", results: list }, ms);
const metadata = (workspace_root: string) =>
  rec("runtime.session.metadata", {
    kind: "metadata",
    record: { workspace_root, model_id: "m-1" },
  });

/** `<root>/2026/10/08/<SID>/session.jsonl` holding `records` (objects or raw lines). */
function writeSession(root: string, records: unknown[], rel = `2026/10/08/${SID}`): string {
  mkdirSync(join(root, rel), { recursive: true });
  const path = join(root, rel, "session.jsonl");
  writeFileSync(
    path,
    records.map((r) => (typeof r === "string" ? r : JSON.stringify(r)) + "\n").join(""),
  );
  return path;
}

function src(path: string): SourceRef {
  return { harness: "muse", path, kind: "append" };
}

async function parseRecords(records: unknown[]) {
  const dir = tempDir("deja-muse-");
  try {
    return await parseOne(muse, src(writeSession(dir, records)), env);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "muse")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, muse), want);
});

Deno.test("discover takes day-sharded session dirs and subagents but not hidden or tool dirs", async () => {
  const root = tempDir("deja-muse-");
  try {
    writeSession(root, []);
    writeSession(root, [], `2026/10/09/${SID}-b`);
    writeSession(root, [], `2026/10/08/${SID}/subagent/child-1`);
    writeSession(root, [], `.msp-view-v1/${SID}`);
    writeSession(root, [], `2026/10/08/${SID}/tool-outputs/x`);
    writeFileSync(join(root, "2026/10/08", SID, "cron.db"), "");
    const d = await muse.discover({
      env: testEnv(root, { DEJA_MUSE_ROOT: root }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.slice(root.length + 1)), [
      `2026/10/08/${SID}/session.jsonl`,
      `2026/10/08/${SID}/subagent/child-1/session.jsonl`,
      `2026/10/09/${SID}-b/session.jsonl`,
    ]);
    const byXdg = await muse.discover({
      env: testEnv(root, { XDG_DATA_HOME: "/x" }),
      knownProjects: [],
    });
    assertEquals(byXdg.roots, ["/x/muse/sessions"]);
  } finally {
    rmSync(root, { recursive: true });
  }
});

Deno.test("microsecond recorded_at becomes epoch milliseconds when events are folded", async () => {
  const { sessions } = await parseRecords([
    metadata("/w/m"),
    started("hi", 250),
    said("hello", 1500),
  ]);
  const s = sessions[0];
  assertEquals(s.events.map((e) => [e.kind, e.text, e.time]), [
    ["user", "hi", 1791450000373],
    ["assistant", "hello", 1791450001623],
  ]);
  assertEquals([s.id, s.project, s.model, s.started, s.updated], [
    SID,
    "/w/m",
    "m-1",
    1791450000373,
    1791450001623,
  ]);
});

Deno.test("bash args and result JSON give the command, its output and exit when a call fails", async () => {
  const { sessions } = await parseRecords([
    calls([{ call_id: "c1", name: "bash", args: JSON.stringify({ command: "cat missing.txt" }) }]),
    results([{
      tool_call_id: "c1",
      text: JSON.stringify({
        command: "cat missing.txt",
        exit_code: 1,
        output: "cat: missing.txt: nope\n",
      }),
    }]),
  ]);
  const [call, res] = sessions[0].events;
  assertEquals([call.tool?.command, call.tool?.id, call.tool?.input], [
    "cat missing.txt",
    "c1",
    { command: "cat missing.txt" },
  ]);
  assertEquals([res.text, res.result], ["cat: missing.txt: nope", {
    isError: true,
    callId: "c1",
    exit: 1,
  }]);
});

Deno.test("file tools give paths, writes and edit spans resolved against the workspace", async () => {
  const { sessions } = await parseRecords([
    metadata("/w/m"),
    calls([
      { call_id: "r", name: "read_file", args: JSON.stringify({ path: "src/a.ts" }) },
      {
        call_id: "w",
        name: "write_file",
        args: JSON.stringify({ path: "/abs/b.md", content: "x\n" }),
      },
      {
        call_id: "e",
        name: "edit_file",
        args: JSON.stringify({
          path: "README.md",
          find: "hello world",
          replace: "hello zebrafinch",
        }),
      },
      { call_id: "bad", name: "edit_file", args: "{broken" },
    ]),
  ]);
  const tools = sessions[0].events.map((e) => e.tool!);
  assertEquals(tools[0].paths, ["/w/m/src/a.ts"]);
  assertEquals(tools[1].writes, [{ path: "/abs/b.md", content: "x\n" }]);
  assertEquals(tools[2].edits, [{
    path: "/w/m/README.md",
    old: "hello world",
    new: "hello zebrafinch",
  }]);
  assertEquals([tools[3].input, tools[3].edits], ["{broken", undefined]);
});

Deno.test("records of another stream are skipped when a subagent task writes into the parent log", async () => {
  const task = { kind: "task", id: "task-9" };
  const { sessions, ctx } = await parseRecords([
    metadata("/w/m"),
    started("mine"),
    run({ kind: "started", prompt: "objective of the subagent" }, 10, task),
    run({ kind: "assistant_message_committed", text: "subagent says" }, 11, task),
  ]);
  assertEquals([texts(sessions[0], "user"), texts(sessions[0], "assistant"), ctx.skipped], [
    ["mine"],
    [],
    0,
  ]);
});

Deno.test("a task start without a prompt is not a user turn", async () => {
  const { sessions } = await parseRecords([
    started("real"),
    run({ kind: "started" }),
    started("  "),
  ]);
  assertEquals(texts(sessions[0], "user"), ["real"]);
});

Deno.test("retained_frame children and record_json lines are unwrapped and read as records", async () => {
  const child = rec("session.name.changed", { new_name: "Named" });
  const { sessions, ctx } = await parseRecords([
    {
      retained_frame: "session_permission_transaction",
      children: [{ record_json: JSON.stringify(said("in frame")) }, {
        record_json: JSON.stringify(child),
      }, { record_json: "{torn" }],
    },
    { record_json: JSON.stringify(started("wrapped")) },
  ]);
  assertEquals([texts(sessions[0], "assistant"), texts(sessions[0], "user"), sessions[0].title], [
    ["in frame"],
    ["wrapped"],
    "Named",
  ]);
  assertEquals(ctx.counts, { malformed_json: 1 });
});

Deno.test("the workspace falls back to route facts, then the workspace branch, when metadata lacks it", async () => {
  const route = await parseRecords([
    rec("session.workspace_branch.observed", { workspace_root: "/w/branch" }),
    rec("runtime.session", { kind: "route_facts", record: { cwd: "/w/route" } }),
    started("x"),
  ]);
  assertEquals(route.sessions[0].project, "/w/route");
  const branch = await parseRecords([
    rec("session.workspace_branch.observed", { workspace_root: "/w/branch" }),
    started("x"),
  ]);
  assertEquals(branch.sessions[0].project, "/w/branch");
});

Deno.test("the title is the latest session.name.changed when a session is renamed", async () => {
  const { sessions } = await parseRecords([
    rec("session.name.changed", { new_name: "first" }),
    started("x"),
    rec("session.name.changed", { new_name: "second" }),
  ]);
  assertEquals(sessions[0].title, "second");
});

Deno.test("a subagent log gets a child id and the parent's id when it sits under subagent/", async () => {
  const dir = tempDir("deja-muse-");
  try {
    const path = writeSession(dir, [{
      record_json: JSON.stringify(
        rec("runtime.session", { kind: "run", event: { kind: "started", prompt: "survey" } }, 0, {
          kind: "session",
          id: "child-1",
        }),
      ),
    }], `2026/10/08/${SID}/subagent/child-1`);
    const { sessions } = await parseOne(muse, src(path), env);
    assertEquals(sessions.map((s) => [s.id, s.parent, texts(s, "user")]), [[
      `${SID}/subagent/child-1`,
      SID,
      ["survey"],
    ]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an empty file yields no session and counts as empty", async () => {
  const { sessions, ctx } = await parseRecords([]);
  assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const dir = tempDir("deja-muse-");
  try {
    const path = writeSession(dir, [metadata("/w/m"), started("first")]);
    const whole = readFileSync(path).length;
    const tail = JSON.stringify(said("second", 5));
    appendFileSync(path, tail.slice(0, 30));
    const a = await parseOne(muse, src(path), env);
    assertEquals([a.ctx.endOffset, texts(a.sessions[0], "user")], [whole, ["first"]]);
    appendFileSync(path, tail.slice(30) + "\n");
    const b = await parseOne(muse, src(path), env, { offset: whole, state: a.ctx.endState });
    assertEquals(b.sessions.map((s) => [s.id, s.project, texts(s, "assistant")]), [[SID, "/w/m", [
      "second",
    ]]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a malformed line mid-file is counted and the rest still parses", async () => {
  const { sessions, ctx } = await parseRecords([started("a"), "{nope", said("b")]);
  assertEquals([ctx.counts, texts(sessions[0], "assistant")], [{ malformed_json: 1 }, ["b"]]);
});

Deno.test("an invalid UTF-8 line is counted and skipped when its bytes are not text", async () => {
  const dir = tempDir("deja-muse-");
  try {
    const path = writeSession(dir, [started("a")]);
    appendFileSync(path, new Uint8Array([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
    appendFileSync(path, JSON.stringify(said("b")) + "\n");
    const { sessions, ctx } = await parseOne(muse, src(path), env);
    assertEquals([ctx.counts, texts(sessions[0], "assistant")], [{ malformed_json: 1 }, ["b"]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an unknown first record is counted while later records still fold", async () => {
  const { sessions, ctx } = await parseRecords([
    { hello: "not a muse record" },
    rec("telemetry.future.thing", {}),
    rec("runtime.future_kind", {}),
    started("a"),
  ]);
  assertEquals(ctx.counts, { unknown_record: 2 });
  assertEquals(texts(sessions[0], "user"), ["a"]);
});

Deno.test("a resumed parse from an offset yields the same session id, workspace and stream filter", async () => {
  const dir = tempDir("deja-muse-");
  try {
    const head = [metadata("/w/m"), started("one")];
    const path = writeSession(dir, [
      ...head,
      run({ kind: "assistant_message_committed", text: "foreign" }, 5, {
        kind: "task",
        id: "task-1",
      }),
      said("two", 6),
    ]);
    const offset = head.map((r) => JSON.stringify(r).length + 1).reduce((a, b) => a + b);
    const full = await parseOne(muse, src(path), env);
    const resumed = await parseOne(muse, src(path), env, { offset });
    assertEquals(
      resumed.sessions.map((s) => [s.id, s.project, texts(s, "assistant")]),
      [[full.sessions[0].id, full.sessions[0].project, ["two"]]],
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a later pass with only a rename yields the title when no new event comes", async () => {
  const dir = tempDir("deja-muse-");
  try {
    const path = writeSession(dir, [metadata("/w/m"), started("one")]);
    const a = await parseOne(muse, src(path), env);
    appendFileSync(
      path,
      JSON.stringify(rec("session.name.changed", { new_name: "Renamed" })) + "\n",
    );
    const b = await parseOne(muse, src(path), env, {
      offset: a.ctx.endOffset!,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions.map((s) => [s.id, s.title, s.events.length]), [[SID, "Renamed", 0]]);
    const c = await parseOne(muse, src(path), env, {
      offset: b.ctx.endOffset!,
      state: b.ctx.endState,
    });
    assertEquals(c.sessions, []);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
