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
import { trae } from "./trae.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { mergeChunks } from "../lib/merge.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const FARM_CODEX = join(REPO, "../shared/realdata/farm/codex/home/.codex");
const SID = "019fc0a1-2b00-7c11-8d22-0000000000b1";
const T1 = "019fc0a1-2b05-7000-8000-000000000001";
const T2 = "019fc0a1-3000-7000-8000-000000000002";
const env = testEnv("/nonexistent-home");

const at = (s: number) => new Date(Date.UTC(2026, 9, 8, 9, 0, s)).toISOString();
const line = (s: number, type: string, payload: Record<string, unknown>) => ({
  timestamp: at(s),
  type,
  payload,
});
const meta = line(0, "session_meta", { id: SID, timestamp: at(0), cwd: "/w/t" });
const userMsg = (s: number, message: string, turn?: string) =>
  line(s, "event_msg", { type: "user_message", message, ...(turn ? { turn_id: turn } : {}) });
const userItem = (s: number, text: string, turn: string) =>
  line(s, "event_msg", {
    type: "item_completed",
    turn_id: turn,
    item: { type: "UserMessage", content: [{ type: "text", text }] },
  });
const reply = (text: string) => ({
  type: "message",
  role: "assistant",
  content: [{ type: "output_text", text }],
});
const exec = (id: string, script: string) => ({
  type: "function_call",
  call_id: id,
  name: "exec",
  arguments: JSON.stringify({ command: ["bash", "-lc", script], workdir: "/w/t" }),
});
const output = (id: string, text: string) => ({
  type: "function_call_output",
  call_id: id,
  output: [{ type: "input_text", text }],
});
const mutation = (s: number, operation: string, items: unknown[], turn = T1) =>
  line(s, "history_mutation", { turn_id: turn, operation, items });

/** Writes a rollout of `records` (objects or raw lines) and parses it whole. */
async function parseRecords(records: unknown[], opts: { keep?: boolean } = {}) {
  const dir = tempDir("deja-trae-");
  const path = join(dir, `rollout-2026-10-08T09-00-00-${SID}.jsonl`);
  writeFileSync(
    path,
    records.map((r) => (typeof r === "string" ? r : JSON.stringify(r)) + "\n").join(""),
  );
  try {
    const out = await parseOne(trae, src(path), env);
    return { ...out, path, dir };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true });
  }
}

function src(path: string): SourceRef {
  return { harness: "trae", path, kind: "append" };
}

const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "trae")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, trae), want);
});

Deno.test("discover reads TRAECLI_HOME, then TRAE_HOME/cli, when DEJA_TRAE_ROOT is unset", async () => {
  const home = tempDir("deja-trae-");
  try {
    const cli = join(home, "t", "cli");
    mkdirSync(join(cli, "sessions/2026/10/08"), { recursive: true });
    mkdirSync(join(cli, "archived_sessions"));
    writeFileSync(join(cli, "sessions/2026/10/08", `rollout-x-${SID}.jsonl`), "");
    writeFileSync(join(cli, "archived_sessions", `rollout-y-${SID}.jsonl`), "");
    writeFileSync(join(cli, "history.jsonl"), "");
    const byTraeHome = await trae.discover({
      env: testEnv(home, { TRAE_HOME: join(home, "t") }),
      knownProjects: [],
    });
    assertEquals(byTraeHome.roots, [cli]);
    assertEquals(byTraeHome.sources.map((s) => s.path.slice(cli.length)), [
      `/sessions/2026/10/08/rollout-x-${SID}.jsonl`,
      `/archived_sessions/rollout-y-${SID}.jsonl`,
    ]);
    const byCliHome = await trae.discover({
      env: testEnv(home, { TRAECLI_HOME: cli, TRAE_HOME: "/elsewhere" }),
      knownProjects: [],
    });
    assertEquals(byCliHome.roots, [cli]);
    const byDefault = await trae.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(byDefault.roots, [join(home, ".trae", "cli")]);
  } finally {
    rmSync(home, { recursive: true });
  }
});

Deno.test("user-role response items are not prompts when TRAE writes its own injections", async () => {
  const { sessions } = await parseRecords([
    line(0, "session_meta", { id: SID, timestamp: at(0) }),
    line(1, "response_item", {
      type: "message",
      role: "user",
      content: [{
        type: "input_text",
        text: "<environment_context><cwd>/w/env</cwd></environment_context>",
      }],
    }),
    line(2, "response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "Warning: process limit notice" }],
    }),
    userMsg(3, "rename the loader", T1),
  ]);
  assertEquals(texts(sessions[0], "user"), ["rename the loader"]);
  assertEquals(sessions[0].project, "/w/env");
});

Deno.test("a prompt is kept once when user_message and item_completed mirror it in one turn", async () => {
  const { sessions } = await parseRecords([
    meta,
    userItem(1, "fix it", T1),
    userMsg(1, "fix it", T1),
    userMsg(30, "fix it", T2),
  ]);
  assertEquals(texts(sessions[0], "user"), ["fix it", "fix it"]);
});

Deno.test("a prompt without a turn id is kept once when its mirror is within five seconds", async () => {
  const near = await parseRecords([meta, userMsg(1, "thanks"), userItem(5, "thanks", T1)]);
  assertEquals(texts(near.sessions[0], "user"), ["thanks"]);
  const far = await parseRecords([meta, userMsg(1, "thanks"), userItem(7, "thanks", T1)]);
  assertEquals(texts(far.sessions[0], "user"), ["thanks", "thanks"]);
});

Deno.test("history_mutation append gives the exec script and its output once when items repeat", async () => {
  const { sessions } = await parseRecords([
    meta,
    userMsg(1, "run the tests", T1),
    line(2, "response_item", reply("Running them.")),
    line(2, "response_item", exec("call-1", "pytest -q")),
    mutation(4, "append", [
      reply("Running them."),
      exec("call-1", "pytest -q"),
      output("call-1", "1 failed\n"),
    ]),
  ]);
  const s = sessions[0];
  const calls = s.events.filter((e) => e.kind === "tool_call");
  assertEquals(calls.map((e) => [e.tool?.name, e.tool?.command, e.key, e.time]), [
    ["exec", "pytest -q", "c:call-1", Date.parse(at(2))],
  ]);
  const results = s.events.filter((e) => e.kind === "tool_result");
  assertEquals(results.map((e) => [e.text, e.result?.callId]), [["1 failed", "call-1"]]);
  assertEquals(texts(s, "assistant"), ["Running them."]);
});

Deno.test("history_mutation replace and rollback are skipped when they re-send history", async () => {
  const { sessions, ctx } = await parseRecords([
    meta,
    userMsg(1, "vet it", T1),
    mutation(2, "replace", [exec("call-9", "go vet ./...")]),
    mutation(3, "rollback", [exec("call-8", "go build")]),
  ]);
  assertEquals(sessions[0].events.filter((e) => e.kind === "tool_call"), []);
  assertEquals(ctx.skipped, 0);
});

Deno.test("assistant text is kept once when three streams repeat it and twice in two turns", async () => {
  const { sessions } = await parseRecords([
    meta,
    userMsg(1, "go", T1),
    line(2, "response_item", reply("Done.")),
    line(3, "event_msg", {
      type: "item_completed",
      turn_id: T1,
      item: { type: "AgentMessage", content: [{ type: "Text", text: "Done." }] },
    }),
    line(3, "event_msg", { type: "agent_message", message: "Done." }),
    userMsg(10, "again", T2),
    line(11, "event_msg", { type: "agent_message", message: "Done." }),
  ]);
  assertEquals(texts(sessions[0], "assistant"), ["Done.", "Done."]);
});

Deno.test("assistant text comes from item_completed when the rollout has no assistant item", async () => {
  const { sessions } = await parseRecords([
    meta,
    userMsg(1, "go", T1),
    line(2, "event_msg", {
      type: "item_completed",
      turn_id: T1,
      item: { type: "AgentMessage", content: [{ type: "output_text", text: "All green." }] },
    }),
  ]);
  assertEquals(texts(sessions[0], "assistant"), ["All green."]);
});

Deno.test("a copy read in a later pass carries the same key so the store folds it", async () => {
  const dir = tempDir("deja-trae-");
  try {
    const p = join(dir, `rollout-2026-10-08T09-00-00-${SID}.jsonl`);
    const first = [meta, userMsg(1, "run", T1), line(2, "response_item", exec("call-1", "ls"))];
    writeFileSync(p, first.map((r) => JSON.stringify(r) + "\n").join(""));
    const a = await parseOne(trae, src(p), env);
    appendFileSync(p, JSON.stringify(mutation(4, "append", [exec("call-1", "ls")])) + "\n");
    const b = await parseOne(trae, src(p), env, {
      offset: a.ctx.endOffset!,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions[0].events.map((e) => e.key), ["c:call-1"]);
    const merged = mergeChunks([...a.sessions, ...b.sessions]);
    assertEquals(merged[0].events.filter((e) => e.kind === "tool_call").length, 1);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an empty file yields no session and counts as empty", async () => {
  const { sessions, ctx } = await parseRecords([]);
  assertEquals(sessions, []);
  assertEquals(ctx.counts, { empty: 1 });
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const dir = tempDir("deja-trae-");
  try {
    const p = join(dir, `rollout-2026-10-08T09-00-00-${SID}.jsonl`);
    writeFileSync(p, [meta, userMsg(1, "first", T1)].map((r) => JSON.stringify(r) + "\n").join(""));
    const whole = readFileSync(p).length;
    const tail = JSON.stringify(userMsg(9, "second", T2));
    appendFileSync(p, tail.slice(0, 25));
    const a = await parseOne(trae, src(p), env);
    assertEquals([a.ctx.endOffset, texts(a.sessions[0], "user")], [whole, ["first"]]);
    appendFileSync(p, tail.slice(25) + "\n");
    const b = await parseOne(trae, src(p), env, { offset: whole, state: a.ctx.endState });
    assertEquals(b.sessions.map((s) => [s.id, s.project, texts(s, "user")]), [[SID, "/w/t", [
      "second",
    ]]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a malformed line mid-file is counted and the rest still parses", async () => {
  const { sessions, ctx } = await parseRecords([meta, "{not json", userMsg(2, "after", T1)]);
  assertEquals(ctx.counts, { malformed_json: 1 });
  assertEquals(texts(sessions[0], "user"), ["after"]);
});

Deno.test("an invalid UTF-8 line is counted and skipped when its bytes are not text", async () => {
  const out = await parseRecords([meta], { keep: true });
  try {
    appendFileSync(out.path, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    appendFileSync(out.path, JSON.stringify(userMsg(2, "after", T1)) + "\n");
    const { sessions, ctx } = await parseOne(trae, src(out.path), env);
    assertEquals(ctx.counts, { malformed_json: 1 });
    assertEquals(texts(sessions[0], "user"), ["after"]);
  } finally {
    rmSync(out.dir, { recursive: true });
  }
});

Deno.test("an unknown first record is counted while the session meta still names the session", async () => {
  const { sessions, ctx } = await parseRecords([
    line(0, "traex_future_record", { x: 1 }),
    meta,
    userMsg(1, "hello", T1),
  ]);
  assertEquals(ctx.counts, { unknown_record: 1 });
  assertEquals([sessions[0].id, texts(sessions[0], "user")], [SID, ["hello"]]);
});

Deno.test("a resumed parse from an offset yields the same session id and cwd as a full parse", async () => {
  const out = await parseRecords([meta, userMsg(1, "one", T1), userMsg(9, "two", T2)], {
    keep: true,
  });
  try {
    const offset = JSON.stringify(meta).length + 1 + JSON.stringify(userMsg(1, "one", T1)).length +
      1;
    const resumed = await parseOne(trae, src(out.path), env, { offset });
    assertEquals(
      resumed.sessions.map((s) => [s.id, s.project, texts(s, "user")]),
      [[out.sessions[0].id, out.sessions[0].project, ["two"]]],
    );
    assertEquals(out.sessions[0].id, SID);
  } finally {
    rmSync(out.dir, { recursive: true });
  }
});

Deno.test({
  name: "farm Codex 0.171 rollout, the format TRAE forks, reads through the TRAE dialect",
  ignore: !existsSync(FARM_CODEX),
  async fn() {
    const run = await runParser(trae, testEnv("/nonexistent-home", { DEJA_TRAE_ROOT: FARM_CODEX }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.harness, s.project], ["trae", "/tmp/farm/codex/proj"]);
    assertEquals(texts(s, "user").length, 1);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-codex")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) => e.result?.callId === cat.tool!.id)!;
    assertEquals([res.result?.exit, res.result?.isError], [1, true]);
    const edit = s.events.flatMap((e) => e.tool?.edits ?? []).find((e) =>
      e.path.endsWith("README.md")
    )!;
    assert(edit.old.includes("hello world") && edit.new.includes("hello zebrafinch"));
  },
});
