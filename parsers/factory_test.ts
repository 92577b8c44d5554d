import { assert, assertEquals } from "../tests/_assert.ts";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { factory } from "./factory.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const FARM = join(REPO, "../shared/realdata/farm/factory/home/.factory/sessions");
const SID = "9a8b7c6d-0000-4000-8000-00000000f001";
const env = testEnv("/nonexistent-home");

const start = (fields: Record<string, unknown> = {}) => ({
  type: "session_start",
  id: SID,
  title: "t",
  owner: "unknown",
  version: 2,
  cwd: "/w/fd",
  isSessionTitleManuallySet: false,
  ...fields,
});
let n = 0;
const msg = (role: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: "message",
  id: `m${++n}`,
  timestamp: new Date(Date.UTC(2026, 9, 8, 10, 0, n)).toISOString(),
  message: { role, content, ...extra },
});
const use = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const res = (id: string, content: string, is_error = false) => ({
  type: "tool_result",
  tool_use_id: id,
  is_error,
  content,
});

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
  return { harness: "factory", path, kind: "append" };
}

async function parseRecords(records: unknown[]) {
  const dir = tempDir("deja-factory-");
  try {
    return await parseOne(factory, src(write(dir, `-w-fd/${SID}.jsonl`, records)), env);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "factory")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, factory), want);
});

Deno.test("discover takes session JSONL but not settings files under ~/.factory/sessions", async () => {
  const home = tempDir("deja-factory-");
  try {
    write(home, `.factory/sessions/-w-fd/${SID}.jsonl`, []);
    write(home, `.factory/sessions/-w-fd/${SID}.settings.json`, []);
    write(home, `.factory/sessions/-w-fd/${SID}.settings.json.bak`, []);
    const d = await factory.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(d.roots, [join(home, ".factory", "sessions")]);
    assertEquals(d.sources.map((s) => s.path.slice(home.length + 1)), [
      `.factory/sessions/-w-fd/${SID}.jsonl`,
    ]);
  } finally {
    rmSync(home, { recursive: true });
  }
});

Deno.test("session_start names the session, project and title when it opens the file", async () => {
  const { sessions } = await parseRecords([
    start({ title: "Fix greeting" }),
    msg("user", [{ type: "text", text: "hi" }]),
  ]);
  const s = sessions[0];
  assertEquals([s.id, s.project, s.title], [SID, "/w/fd", "Fix greeting"]);
  assertEquals(s.started, Date.UTC(2026, 9, 8, 10, 0, n));
});

Deno.test("a hand-set title outranks a later automatic one", async () => {
  const { sessions } = await parseRecords([
    start({ title: "Mine", isSessionTitleManuallySet: true }),
    start({ title: "Auto" }),
    msg("user", "hi"),
  ]);
  assertEquals(sessions[0].title, "Mine");
});

Deno.test("the llm_only context message is dropped when Factory sends system reminders", async () => {
  const { sessions } = await parseRecords([
    start(),
    msg("user", [{ type: "text", text: "<system-reminder>tools</system-reminder>" }, {
      type: "text",
      text: "User system info (linux)",
    }], { visibility: "llm_only" }),
    msg("user", [{ type: "text", text: "<system-reminder>x</system-reminder>real prompt" }]),
  ]);
  assertEquals(texts(sessions[0], "user"), ["real prompt"]);
});

Deno.test("Execute, Read, Edit and Create give command, paths, spans and writes", async () => {
  const { sessions } = await parseRecords([
    start(),
    msg("assistant", [
      use("t1", "Execute", { command: "ls", summary: "list" }),
      use("t2", "Read", { file_path: "README.md" }),
      use("t3", "Edit", {
        file_path: "/w/fd/README.md",
        old_str: "hello world",
        new_str: "hello zebrafinch",
      }),
      use("t4", "Create", { file_path: "N.md", content: "n\n" }),
      use("t5", "MultiEdit", { file_path: "a.ts", edits: [{ old_str: "a", new_str: "b" }] }),
    ]),
  ]);
  const tools = sessions[0].events.map((e) => e.tool!);
  assertEquals(tools[0].command, "ls");
  assertEquals(tools[1].paths, ["/w/fd/README.md"]);
  assertEquals(tools[2].edits, [{
    path: "/w/fd/README.md",
    old: "hello world",
    new: "hello zebrafinch",
  }]);
  assertEquals(tools[3].writes, [{ path: "/w/fd/N.md", content: "n\n" }]);
  assertEquals(tools[4].edits, [{ path: "/w/fd/a.ts", old: "a", new: "b" }]);
});

Deno.test("a failed command's exit comes from Factory's framing and the framing is cut", async () => {
  const { sessions } = await parseRecords([
    start(),
    msg("user", [
      res(
        "t1",
        "Error: Command failed (exit code: 1)\ncat: x: No such file\n\n\n[Process exited with code 1]",
        true,
      ),
      res("t2", "ok\n\n\n[Process exited with code 0]"),
      res("t3", "# plain file text\n"),
    ]),
  ]);
  assertEquals(sessions[0].events.map((e) => [e.text, e.result?.exit, e.result?.isError]), [
    ["cat: x: No such file", 1, true],
    ["ok", 0, false],
    ["# plain file text\n", undefined, false],
  ]);
});

Deno.test("the model comes from modelId, else from the settings file beside the session", async () => {
  const dir = tempDir("deja-factory-");
  try {
    const path = write(dir, `-w-fd/${SID}.jsonl`, [
      start(),
      msg("assistant", [{ type: "text", text: "a" }]),
    ]);
    writeFileSync(join(dir, `-w-fd/${SID}.settings.json`), JSON.stringify({ model: "custom:m-0" }));
    const bySettings = await parseOne(factory, src(path), env);
    assertEquals(bySettings.sessions[0].model, "custom:m-0");
    appendFileSync(path, JSON.stringify(msg("assistant", "b", { modelId: "claude-x" })) + "\n");
    const byMessage = await parseOne(factory, src(path), env);
    assertEquals(byMessage.sessions[0].model, "claude-x");
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("todo_state and agent_turn_outcome are ignored without counting", async () => {
  const { sessions, ctx } = await parseRecords([
    start(),
    { type: "todo_state", todos: [] },
    msg("user", "hi"),
    { type: "agent_turn_outcome", turnId: "m1", reason: "completed" },
  ]);
  assertEquals([ctx.skipped, texts(sessions[0], "user")], [0, ["hi"]]);
});

Deno.test("an empty file yields no session and is counted empty once", async () => {
  const { sessions, ctx } = await parseRecords([]);
  assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const dir = tempDir("deja-factory-");
  try {
    const path = write(dir, `-w-fd/${SID}.jsonl`, [start(), msg("user", "first")]);
    const whole = readFileSync(path).length;
    const tail = JSON.stringify(msg("assistant", "second"));
    appendFileSync(path, tail.slice(0, 20));
    const a = await parseOne(factory, src(path), env);
    assertEquals([a.ctx.endOffset, texts(a.sessions[0], "user")], [whole, ["first"]]);
    appendFileSync(path, tail.slice(20) + "\n");
    const b = await parseOne(factory, src(path), env, { offset: whole, state: a.ctx.endState });
    assertEquals(b.sessions.map((s) => [s.id, s.project, texts(s, "assistant")]), [[SID, "/w/fd", [
      "second",
    ]]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a malformed line mid-file is counted and the rest still parses", async () => {
  const { sessions, ctx } = await parseRecords([start(), "{bad", msg("user", "after")]);
  assertEquals([ctx.counts, texts(sessions[0], "user")], [{ malformed_json: 1 }, ["after"]]);
});

Deno.test("an invalid UTF-8 line is counted and skipped when its bytes are not text", async () => {
  const dir = tempDir("deja-factory-");
  try {
    const path = write(dir, `-w-fd/${SID}.jsonl`, [start()]);
    appendFileSync(path, new Uint8Array([0x7b, 0xf0, 0x28, 0x8c, 0x7d, 0x0a]));
    appendFileSync(path, JSON.stringify(msg("user", "after")) + "\n");
    const { sessions, ctx } = await parseOne(factory, src(path), env);
    assertEquals([ctx.counts, texts(sessions[0], "user")], [{ malformed_json: 1 }, ["after"]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an unknown first record is counted and the file name still gives the session id", async () => {
  const { sessions, ctx } = await parseRecords([
    { type: "future_record" },
    { type: "message", id: "x", message: { role: "system", content: "?" } },
    msg("user", "hi"),
  ]);
  assertEquals(ctx.counts, { unknown_record: 1, bad_shape: 1 });
  assertEquals([sessions[0].id, sessions[0].project], [SID, "/w/fd"]);
});

Deno.test("a resumed parse from an offset yields the same session id and project as a full parse", async () => {
  const dir = tempDir("deja-factory-");
  try {
    const head = [start({ cwd: "/w/my-app" }), msg("user", "one")];
    const path = write(dir, `-w-my-app/${SID}.jsonl`, [...head, msg("assistant", "two")]);
    const offset = head.map((r) => JSON.stringify(r).length + 1).reduce((a, b) => a + b);
    const full = await parseOne(factory, src(path), env);
    const resumed = await parseOne(factory, src(path), env, { offset });
    assertEquals(
      resumed.sessions.map((s) => [s.id, s.project, texts(s, "assistant")]),
      [[full.sessions[0].id, "/w/my-app", ["two"]]],
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "farm store (droid 0.225.2) yields the marker, the failed cat and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(factory, testEnv("/nonexistent-home", { DEJA_FACTORY_ROOT: FARM }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project, s.model], [
      "f0f82f11-3c61-467c-8ba8-edea21f37b93",
      "/tmp/farm/factory/proj",
      "custom:Farm-mock-0",
    ]);
    assert(s.title?.startsWith("Please run ls, then cat missing.txt"));
    assertEquals(texts(s, "user").length, 1);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-factory")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const out = s.events.find((e) => e.result?.callId === cat.tool!.id)!;
    assertEquals([out.text, out.result?.exit, out.result?.isError], [
      "cat: missing.txt: No such file or directory",
      1,
      true,
    ]);
    const edits = s.events.flatMap((e) => e.tool?.edits ?? []);
    assertEquals(edits, [{
      path: "/tmp/farm/factory/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
  },
});
