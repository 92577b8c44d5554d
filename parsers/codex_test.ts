import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { codex } from "./codex.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { mergeChunks } from "../lib/merge.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/codex");
const A = "019fb79d-cd00-7a11-8a11-0000000000a1";
const E = "019fb7a2-60e0-7e11-8e11-0000000000e1";
const A_FILE = `sessions/2026/07/31/rollout-2026-07-31T12-00-00-${A}.jsonl`;
const E_FILE = `archived_sessions/rollout-2026-07-31T12-05-00-${E}.jsonl`;

/** Runs the parser over the materialised registry fixture. */
async function fixture() {
  const fx = materialize(FIXTURE);
  try {
    const run = await runParser(
      codex,
      testEnv(join(fx.root, "home"), { DEJA_CODEX_ROOT: fx.root }),
    );
    return { ...run, byId: new Map(run.sessions.map((s) => [s.id, s])) };
  } finally {
    fx.cleanup();
  }
}

function src(path: string): SourceRef {
  return { harness: "codex", path, kind: "append" };
}

/** Writes JSONL records (objects or raw lines) to `dir/name`; returns the path. */
function writeLines(dir: string, name: string, lines: Array<unknown>): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(
    path,
    lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n").join(""),
  );
  return path;
}

const env = testEnv("/nonexistent-home");
const meta = (payload: Record<string, unknown>) => ({
  timestamp: "2026-08-01T09:00:00.000Z",
  type: "session_meta",
  payload,
});
const item = (payload: Record<string, unknown>, ts = "2026-08-01T09:00:01.000Z") => ({
  timestamp: ts,
  type: "response_item",
  payload,
});
const say = (role: string, text: string, extra: Record<string, unknown> = {}) =>
  item({ type: "message", role, content: [{ type: "input_text", text }], ...extra });

const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);
const callById = (s: Session, id: string) => s.events.find((e) => e.tool?.id === id)?.tool;
const resultById = (s: Session, id: string) => s.events.find((e) => e.result?.callId === id);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "codex")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, codex), want);
});

Deno.test("discover finds sessions/ and archived_sessions/ rollouts and the prompt history", async () => {
  const fx = materialize(FIXTURE);
  try {
    const d = await codex.discover({
      env: testEnv(fx.root, { DEJA_CODEX_ROOT: fx.root }),
      knownProjects: [],
    });
    assertEquals(d.roots, [fx.root]);
    assertEquals(d.sources.length, 6);
    const rollouts = d.sources.filter((s) => !s.hint?.history);
    assertEquals(rollouts.length, 5);
    assert(rollouts.every((s) => s.kind === "append" && /\/rollout-[^/]+\.jsonl$/.test(s.path)));
    assertEquals(d.sources.filter((s) => s.hint?.history).map((s) => s.path), [
      join(fx.root, "history.jsonl"),
    ]);
    assert(d.sources.some((s) => s.path.endsWith(E_FILE)));
  } finally {
    fx.cleanup();
  }
});

Deno.test("discover falls back to CODEX_HOME, then ~/.codex, when DEJA_CODEX_ROOT is unset", async () => {
  const viaHome = await codex.discover({
    env: testEnv("/h", { CODEX_HOME: "/x/codex" }),
    knownProjects: [],
  });
  assertEquals(viaHome.roots, ["/x/codex"]);
  const dflt = await codex.discover({ env: testEnv("/h"), knownProjects: [] });
  assertEquals(dflt.roots, ["/h/.codex"]);
  assertEquals(dflt.sources, []);
});

Deno.test("session id is payload.id when session_meta has both id and session_id", async () => {
  const { byId } = await fixture();
  assert(byId.has(A));
  assert(!byId.has("019fb79d-cd00-7a00-8a00-000000000000"));
  assertEquals(byId.get(A)!.project, "/work/demo");
});

Deno.test("session id is session_id when session_meta has no id (legacy)", async () => {
  const { byId } = await fixture();
  // The file is named ...66b1; its meta only names session_id ...66b2.
  assertEquals(byId.get("5f0c2f7e-1111-4a22-8b33-4444555566b2")?.project, "/work/old");
});

Deno.test("session id keeps the file name uuid when session_meta id is not a string", async () => {
  const { byId } = await fixture();
  assert(byId.has("019fb7b0-1c80-7d11-8d11-0000000000d1"));
});

Deno.test("session id is the file name uuid when the file has no session_meta", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(
      dir,
      "rollout-2026-08-01T09-00-00-0a0a0a0a-1111-4222-8333-444444444444.jsonl",
      [
        say("user", "hello"),
      ],
    );
    const { sessions } = await parseOne(codex, src(p), env);
    assertEquals(sessions.map((s) => s.id), ["0a0a0a0a-1111-4222-8333-444444444444"]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("second session_meta opens a copied parent history that is dropped when a thread forks", async () => {
  const { byId, sessions } = await fixture();
  const e = byId.get(E)!;
  assertEquals(e.parent, A);
  assertEquals(e.model, "gpt-5.5-mini");
  assertEquals(texts(e, "user"), ["Find every caller of greet() and report file:line."]);
  assertEquals(texts(e, "summary"), []);
  assertEquals(sessions.filter((s) => s.path.endsWith(E_FILE)).length, 1);
});

Deno.test("a forked rollout's copied parent history becomes the parent session when no rollout of the parent exists", async () => {
  // Regression (Codex Desktop 0.119, realdata 019d924b): the parent 019d9249 lived only in its
  // fork's copy, so its turns ("CrewAI setup assistant please") could not be found or shown.
  const dir = tempDir("deja-codex-");
  try {
    mkdirSync(join(dir, "archived_sessions"), { recursive: true });
    copyFileSync(join(FIXTURE, E_FILE), join(dir, E_FILE));
    const run = await runParser(codex, testEnv(join(dir, "home"), { DEJA_CODEX_ROOT: dir }));
    const byId = new Map(run.sessions.map((s) => [s.id, s]));
    assertEquals([...byId.keys()].sort(), [A, E]);
    const a = byId.get(A)!;
    assertEquals(texts(a, "user"), ["The greeting test fails; run the tests and fix greet.go."]);
    assertEquals(texts(a, "summary"), ["Inherited summary that belongs to the parent."]);
    assertEquals(a.model, "gpt-5.5");
    assertEquals(a.project, "/work/demo");
    assert(a.events.some((e) => e.tool?.command === "go test ./..."));
    assertEquals(texts(byId.get(E)!, "user"), [
      "Find every caller of greet() and report file:line.",
    ]);
    // Trial 105 F8: the copy's lines carry the time the fork wrote them, not the parent's: its
    // events are undated, the session keeps its start; the fork's own events keep theirs.
    assertEquals(a.events.filter((e) => e.time !== undefined).length, 0);
    assert(a.started !== undefined);
    assert(byId.get(E)!.events.every((e) => e.time !== undefined));
    // Resumed inside the copy: nothing of the parent before it ends, all of it once it has.
    const text = readFileSync(join(dir, E_FILE), "utf8");
    const cut = text.split("\n").slice(0, 5).join("\n").length + 1;
    const path = join(dir, "archived_sessions/rollout-x-" + E + ".jsonl");
    writeFileSync(path, text.slice(0, cut));
    const source: SourceRef = { ...src(path), hint: { index: join(dir, "session_index.jsonl") } };
    const first = await parseOne(codex, source, env);
    appendFileSync(path, text.slice(cut));
    const second = await parseOne(codex, source, env, {
      offset: cut,
      state: first.ctx.endState,
    });
    assertEquals(first.sessions.map((s) => s.id), []);
    assertEquals(second.sessions.map((s) => s.id), [A, E]);
    assertEquals(second.sessions[0].events.map((e) => e.text), a.events.map((e) => e.text));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a forked rollout's copied parent keeps its agent_message replies when the copy holds its prompts as roled items", async () => {
  // Regression (Codex Desktop 0.119, realdata 019d924b): the copy of parent 019d9249 holds the
  // user's prompt as a roled item and the parent's replies only as event_msg agent_message; the
  // file-wide "roled" rule dropped the replies, so "orient us first by reading" found nothing.
  const dir = tempDir("deja-codex-");
  try {
    const P = "019fb79d-cd00-7a11-8a11-0000000000a1";
    const F = "019fb7a2-60e0-7e11-8e11-0000000000f1";
    const ev = (payload: Record<string, unknown>) => ({
      timestamp: "2026-07-31T10:05:00.020Z",
      type: "event_msg",
      payload,
    });
    const at = "2026-07-31T10:05:00.000Z";
    writeLines(dir, `sessions/2026/07/31/rollout-2026-07-31T10-05-00-${F}.jsonl`, [
      meta({ id: F, forked_from_id: P, timestamp: at, cwd: "/work/demo" }),
      meta({ id: P, timestamp: "2026-07-31T10:00:00.000Z", cwd: "/work/demo" }),
      ev({ type: "task_started", turn_id: "t1", started_at: 1785492000 }),
      say("user", "Set the project up."),
      ev({ type: "user_message", message: "Set the project up." }),
      ev({ type: "agent_message", message: "I will orient us first by reading the docs." }),
      item({
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Both." }],
      }),
      ev({ type: "agent_message", message: "Both." }),
      ev({ type: "agent_message", message: "Done reading; splitting the work." }),
      ev({ type: "task_started", turn_id: "t2", started_at: 1785492300 }),
      say("user", "Inspect the package."),
      ev({ type: "user_message", message: "Inspect the package." }),
      item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Ok." }] }),
      ev({ type: "agent_message", message: "Ok." }),
    ]);
    const run = await runParser(codex, testEnv(join(dir, "home"), { DEJA_CODEX_ROOT: dir }));
    const byId = new Map(run.sessions.map((s) => [s.id, s]));
    const parent = byId.get(P)!;
    assertEquals(parent.events.map((e) => [e.kind, e.text]), [
      ["user", "Set the project up."],
      ["assistant", "I will orient us first by reading the docs."],
      ["assistant", "Both."],
      ["assistant", "Done reading; splitting the work."],
    ]);
    assertEquals(byId.get(F)!.events.map((e) => [e.kind, e.text]), [
      ["user", "Inspect the package."],
      ["assistant", "Ok."],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("speech comes from roled response_items once when event_msg repeats it", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(texts(a, "user"), [
    "The greeting test fails; run the tests and fix greet.go.",
    "Thanks! Also run go vet.",
  ]);
  assertEquals(texts(a, "assistant").filter((t) => t === "I will run the tests first.").length, 1);
});

Deno.test("event_msg user and agent messages are the speech when a file has no roled message", async () => {
  const { byId } = await fixture();
  const b = byId.get("5f0c2f7e-1111-4a22-8b33-4444555566b2")!;
  assertEquals(b.events.map((e) => [e.kind, e.text]), [
    ["user", "List the TODO comments."],
    ["assistant", "There are two TODOs, both in main.go."],
  ]);
});

Deno.test("harness preambles and reasoning are dropped when they use user/developer/system roles", async () => {
  const { byId } = await fixture();
  const all = JSON.stringify(byId.get(A)!.events);
  for (
    const bit of [
      "environment_context",
      "AGENTS.md",
      "turn_aborted",
      "permissions",
      "System text",
      "Reasoning",
    ]
  ) {
    assert(!all.includes(bit), bit);
  }
});

Deno.test("provenance decides a user message when Codex tags its content items", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const tag = (type: string) => ({
      internal_chat_message_metadata_passthrough: {
        content_item_metadata: [{ provenance: { type } }],
      },
    });
    const p = writeLines(dir, "rollout-x-0b0b0b0b-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "t1", cwd: "/w" }),
      say("user", "harness wrote this plain text", tag("harness")),
      say("user", "<environment_context> typed by a person", tag("user")),
    ]);
    const { sessions } = await parseOne(codex, src(p), env);
    assertEquals(texts(sessions[0], "user"), ["<environment_context> typed by a person"]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("exec_command output loses its framing and gives the exit code when the process exits", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(callById(a, "call_c1")?.command, "go test ./...");
  const r = resultById(a, "call_c1")!;
  assertEquals(r.text, "--- FAIL: TestGreet (0.00s)\nFAIL\tdemo\t0.01s");
  assertEquals(r.result, { callId: "call_c1", exit: 1, isError: true });
});

Deno.test("shell_command output gives the exit code when it starts with Exit code", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(callById(a, "call_c3")?.command, "cat missing.txt");
  assertEquals(resultById(a, "call_c3")?.result, { callId: "call_c3", exit: 1, isError: true });
  assertEquals(resultById(a, "call_c3")?.text, "cat: missing.txt: No such file or directory");
});

Deno.test("JSON-string output gives metadata.exit_code when older Codex wrote it", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(resultById(a, "call_c2")?.text, "total 8\ngreet.go\nmain.go");
  assertEquals(resultById(a, "call_c2")?.result?.exit, 0);
  const c = byId.get("3c1d9a4e-2b7f-4c11-9d22-0000000000c1")!;
  assertEquals(resultById(c, "call_l2")?.result, { callId: "call_l2", exit: 1, isError: true });
});

Deno.test("commands are joined from argv and unwrapped from bash -lc when the tool wraps them", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(callById(a, "call_c2")?.command, "ls -la");
  assertEquals(callById(a, "call_c4")?.command, "git diff --stat");
  assertEquals(callById(a, "call_c8")?.command, "go vet ./...");
  const c = byId.get("3c1d9a4e-2b7f-4c11-9d22-0000000000c1")!;
  assertEquals(callById(c, "call_l2")?.command, "python3 -c 'import util; util.bar()'");
});

Deno.test("apply_patch gives edits and writes resolved against the session cwd", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  const t = callById(a, "call_c5")!;
  assertEquals(t.edits, [{
    path: "/work/demo/greet.go",
    old: 'package main\nconst hello = "hello world"',
    new: 'package main\nconst hello = "hello there"',
  }]);
  assertEquals(t.writes, [{
    path: "/work/demo/docs/NOTES.md",
    content: "# Notes\nThe greeting now says hello there.",
  }]);
  assertEquals(callById(a, "call_c6")?.edits?.[0].path, "/work/demo/main.go");
  const c = byId.get("3c1d9a4e-2b7f-4c11-9d22-0000000000c1")!;
  const legacy = callById(c, "call_l1")!;
  assertEquals(legacy.command, undefined);
  assertEquals(legacy.edits, [{
    path: "/work/legacy/util.py",
    old: "def foo():",
    new: "def bar():",
  }]);
});

Deno.test("patch paths join with backslashes when the session cwd is a Windows path", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-0c0c0c0c-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "w1", cwd: "C:\\Users\\me\\proj" }),
      item({
        type: "custom_tool_call",
        call_id: "p1",
        name: "apply_patch",
        input: "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-x\n+y\n*** End Patch",
      }),
    ]);
    const { sessions } = await parseOne(codex, src(p), env);
    assertEquals(sessions[0].project, "C:\\Users\\me\\proj");
    assertEquals(callById(sessions[0], "p1")?.edits?.[0].path, "C:\\Users\\me\\proj\\src\\a.txt");
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a patch Codex refused is a failed result when its output is the bare verification failure", async () => {
  // Trial 94 F1: `apply_patch verification failed: ...` has no `Exit code` frame; it was a
  // success, so blame, restore and the digest counted a change that never happened.
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-0d0d0d0d-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "v1", cwd: "/w/proj" }),
      item({
        type: "custom_tool_call",
        call_id: "p1",
        name: "apply_patch",
        input: "*** Begin Patch\n*** Update File: a.py\n@@\n-nope\n+YES\n*** End Patch",
      }),
      item({
        type: "custom_tool_call_output",
        call_id: "p1",
        output: "apply_patch verification failed: Failed to find expected lines in a.py:\nnope",
      }),
    ]);
    const { sessions } = await parseOne(codex, src(p), env);
    assertEquals(resultById(sessions[0], "p1")?.result, { callId: "p1", isError: true });
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a tool output without call_id still becomes a tool_result when the id is missing", async () => {
  const { byId } = await fixture();
  const orphan = byId.get(A)!.events.find((e) => e.kind === "tool_result" && !e.result?.callId);
  assertEquals(orphan?.text, "Success. Updated the following files:\nM main.go");
});

Deno.test("arguments that are not valid JSON stay raw when function_call.arguments is broken", async () => {
  const { byId } = await fixture();
  assertEquals(callById(byId.get(A)!, "call_c7")?.input, '{"plan": [');
});

Deno.test("compacted message becomes a summary and the latest turn_context names the model", async () => {
  const { byId } = await fixture();
  const a = byId.get(A)!;
  assertEquals(texts(a, "summary").length, 1);
  assertStringIncludes(texts(a, "summary")[0], "now says hello there");
  assertEquals(a.model, "gpt-5.6");
});

Deno.test("title comes from the last session_index.jsonl line for the id", async () => {
  const { byId } = await fixture();
  assertEquals(byId.get(A)!.title, "Fix the greeting test");
  assertEquals(byId.get(E)!.title, undefined);
});

Deno.test("cwd comes from environment_context when a bare 2025 rollout has no cwd in its header", async () => {
  const { byId } = await fixture();
  const c = byId.get("3c1d9a4e-2b7f-4c11-9d22-0000000000c1")!;
  assertEquals(c.project, "/work/legacy");
  assertEquals(c.started, Date.parse("2025-08-01T09:00:00.000Z"));
  assertEquals(texts(c, "user"), ["Rename foo to bar in util.py"]);
});

Deno.test("an empty file yields no session and counts as empty", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-empty.jsonl", []);
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
    assertEquals(ctx.endOffset, 0);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a truncated last line is left for the next run and read once an append completes it", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-0d0d0d0d-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "tr1", cwd: "/w" }),
      say("user", "first"),
    ]);
    const whole = readFileSync(p).length;
    const tail = JSON.stringify(say("assistant", "second"));
    appendFileSync(p, tail.slice(0, 20));
    const first = await parseOne(codex, src(p), env);
    assertEquals(first.ctx.endOffset, whole);
    assertEquals(texts(first.sessions[0], "user"), ["first"]);
    appendFileSync(p, tail.slice(20) + "\n");
    const next = await parseOne(codex, src(p), env, { offset: whole, state: first.ctx.endState });
    assertEquals(next.sessions.map((s) => [s.id, s.project]), [["tr1", "/w"]]);
    assertEquals(next.sessions[0].events.map((e) => e.text), ["second"]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("a malformed line mid-file is counted and the rest still parses", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-0e0e0e0e-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "m1", cwd: "/w" }),
      '{"timestamp":"2026-08-01T09:00:01Z","type":"response_item","payload":{',
      say("user", "after the bad line"),
    ]);
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(ctx.counts, { malformed_json: 1 });
    assertEquals(texts(sessions[0], "user"), ["after the bad line"]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an invalid UTF-8 line is counted and skipped when bytes are not text", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-0f0f0f0f-1111-4222-8333-444444444444.jsonl", [
      meta({ id: "u1" }),
    ]);
    appendFileSync(p, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    appendFileSync(p, JSON.stringify(say("user", "still here")) + "\n");
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(ctx.counts, { malformed_json: 1 });
    assertEquals(texts(sessions[0], "user"), ["still here"]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an unknown first record or item type is counted while the session meta still names it", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const p = writeLines(dir, "rollout-x-10101010-1111-4222-8333-444444444444.jsonl", [
      { timestamp: "2026-08-01T09:00:00Z", type: "telemetry", payload: { x: 1 } },
      meta({ id: "k1", cwd: "/w" }),
      item({ type: "hologram_call", id: "h1" }),
      {
        timestamp: "2026-08-01T09:00:02Z",
        type: "event_msg",
        payload: { type: "brand_new_event" },
      },
      say("user", "known"),
    ]);
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(ctx.counts, { unknown_record: 2 });
    assertEquals(sessions.map((s) => [s.id, texts(s, "user")]), [["k1", ["known"]]]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

/** Splits a fixture rollout after `lines` lines, parses both halves as a resumed pair. */
async function resumed(rel: string, lines: number, keepState: boolean) {
  const fx = materialize(FIXTURE);
  try {
    const full = join(fx.root, rel);
    const text = readFileSync(full, "utf8");
    const cut = text.split("\n").slice(0, lines).join("\n").length + 1;
    const path = join(fx.root, "split.jsonl");
    writeFileSync(path, text.slice(0, cut));
    const source = src(path);
    const first = await parseOne(codex, source, env);
    assertEquals(first.ctx.endOffset, cut);
    appendFileSync(path, text.slice(cut));
    const second = await parseOne(codex, source, env, {
      offset: cut,
      state: keepState ? first.ctx.endState : undefined,
    });
    const whole = await parseOne(codex, src(full), env);
    return { first: first.sessions, second: second.sessions, whole: whole.sessions[0] };
  } finally {
    fx.cleanup();
  }
}

Deno.test("a resumed parse from an offset yields the same session id and cwd as a full parse", async () => {
  for (const keepState of [true, false]) {
    const { first, second, whole } = await resumed(A_FILE, 12, keepState);
    assertEquals(second.map((s) => [s.id, s.project]), [[A, "/work/demo"]]);
    const merged = mergeChunks([...first, ...second])[0];
    assertEquals(merged.events.map((e) => e.text), whole.events.map((e) => e.text));
  }
});

Deno.test("a resumed parse inside a copied parent history keeps dropping it when state is kept", async () => {
  const { first, second, whole } = await resumed(E_FILE, 5, true);
  assertEquals(first, []);
  assertEquals(second.map((s) => [s.id, s.parent]), [[E, A]]);
  assertEquals(second[0].events.map((e) => e.text), whole.events.map((e) => e.text));
});

const REAL = join(REPO, "../shared/realdata");
const FARM = join(REAL, "farm/codex/home/.codex");
const PUBLIC = join(REAL, "codex");

Deno.test({
  name: "farm store (Codex 0.171.0) yields the marker, the failed cat and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(codex, testEnv("/nonexistent-home", { DEJA_CODEX_ROOT: FARM }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project, s.model], [
      "01a228b0-e6e0-77e2-a42d-de48c9d100bb",
      "/tmp/farm/codex/proj",
      "gpt-5.5",
    ]);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-codex")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = resultById(s, cat.tool!.id!)!;
    assertEquals([res.result?.exit, res.result?.isError], [1, true]);
    assertEquals(res.text, "cat: missing.txt: No such file or directory");
    const edit = s.events.flatMap((e) => e.tool?.edits ?? []).find((e) =>
      e.path.endsWith("/README.md")
    )!;
    assertEquals(edit.path, "/tmp/farm/codex/proj/README.md");
    assertStringIncludes(edit.old, "hello world");
    assertStringIncludes(edit.new, "hello zebrafinch");
    assertEquals(texts(s, "user").length, 1);
  },
});

Deno.test({
  name:
    "public rollouts (Codex 0.116-0.121) each yield one session with their id and Windows project",
  ignore: !existsSync(PUBLIC),
  async fn() {
    const home = tempDir("deja-codex-");
    try {
      // Lay the public files out as a Codex home: one archived, two under sessions/.
      mkdirSync(join(home, "archived_sessions"));
      mkdirSync(join(home, "sessions/2026/04/15"), { recursive: true });
      const names: Record<string, string> = {
        "rollout-vscode-0.116.0-alpha.jsonl":
          "archived_sessions/rollout-2026-03-23T01-39-29-019d19a2-6ff2-7cf3-a8e7-16f38b9dee35.jsonl",
        "rollout-desktop-0.119.0-alpha.cut.jsonl":
          "sessions/2026/04/15/rollout-2026-04-15T11-58-29-019d924b-6bc1-7fa2-aa36-5e5a0e068c59.jsonl",
        "rollout-tui-0.121.0-ollama-error.jsonl":
          "sessions/2026/04/15/rollout-2026-04-19T21-56-39-019da908-7d99-77e2-8d7b-8797ad28f198.jsonl",
      };
      for (const [from, to] of Object.entries(names)) {
        copyFileSync(join(PUBLIC, from), join(home, to));
      }
      copyFileSync(join(PUBLIC, "session_index.jsonl"), join(home, "session_index.jsonl"));
      const run = await runParser(codex, testEnv("/nonexistent-home", { DEJA_CODEX_ROOT: home }));
      assertEquals([run.errors, run.skips], [{}, {}]);
      const byId = new Map(run.sessions.map((s) => [s.id, s]));
      // Three files, four sessions: the fork 019d924b's copy of its parent, which no file holds.
      assertEquals(run.sessions.length, 4);
      const parent = byId.get("019d9249-e0ee-7020-a305-b6369cd02251")!;
      assert(texts(parent, "user")[0].startsWith("CrewAI setup assistant please"));
      assert(parent.path.endsWith("019d924b-6bc1-7fa2-aa36-5e5a0e068c59.jsonl"));
      for (const s of run.sessions) {
        if (s !== parent) assert(s.path.endsWith(`${s.id}.jsonl`), s.id);
        assert(/^[A-Za-z]:\\Users\\user\\Documents\\IDAHO-VAULT$/.test(s.project ?? ""), s.project);
        assert(s.events.length > 0 && s.started! > 0 && s.updated! >= s.started!);
      }
      const vscode = byId.get("019d19a2-6ff2-7cf3-a8e7-16f38b9dee35")!;
      assertEquals(vscode.title, "List available tools");
      assertEquals(texts(vscode, "user"), [
        "What tools do you have available?",
        "I am trying to set up a localhost MCP server for you to interact with Obsidian.",
      ]);
      const desk = byId.get("019d924b-6bc1-7fa2-aa36-5e5a0e068c59")!;
      assertEquals([desk.parent, desk.model], [
        "019d9249-e0ee-7020-a305-b6369cd02251",
        "gpt-5.4-mini",
      ]);
      assert(texts(desk, "user")[0].startsWith("Inspect the CrewAI Python package"));
      assert(!texts(desk, "user").some((t) => t.startsWith("CrewAI setup assistant")));
      const rg = desk.events.find((e) => e.tool?.id === "call_0ztXD11wMb1JFRzwBlVmImuZ")!;
      assert(rg.tool?.command?.startsWith("rg --files"));
      assertEquals(resultById(desk, "call_0ztXD11wMb1JFRzwBlVmImuZ")?.result?.exit, 1);
      const tui = byId.get("019da908-7d99-77e2-8d7b-8797ad28f198")!;
      // The provider refused the request: the harness says so; the model never replied.
      assertEquals(tui.events.map((e) => e.kind), ["user", "notice"]);
      assert(texts(tui, "notice")[0].startsWith("Error: developer is not one of ['system'"));
      assertEquals(tui.model, "qwen3.5:cloud");
      assertEquals(readdirSync(home).includes("history.jsonl"), false);
    } finally {
      rmSync(home, { recursive: true });
    }
  },
});

Deno.test("an event_msg error is kept as a notice that says Error: when the harness reports it", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const err = (message: string) => ({
      timestamp: "2026-08-01T09:00:03Z",
      type: "event_msg",
      payload: { type: "error", message, codex_error_info: "other" },
    });
    const p = writeLines(dir, "rollout-x-10101010-1111-4222-8333-444444444445.jsonl", [
      meta({ id: "e1", cwd: "/w" }),
      say("user", "Hello?"),
      err('{"error":"role \'developer\' is not accepted (ref: 42)"}\n'),
      err("stream disconnected before completion"),
      err("   "),
    ]);
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(ctx.counts, {});
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "Hello?"],
      ["notice", "Error: role 'developer' is not accepted (ref: 42)"],
      ["notice", "Error: stream disconnected before completion"],
    ]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("an event_msg turn_aborted is kept as a notice that names its reason", async () => {
  const dir = tempDir("deja-codex-");
  try {
    const aborted = (reason?: string) => ({
      timestamp: "2026-08-01T09:00:04Z",
      type: "event_msg",
      payload: { type: "turn_aborted", ...(reason ? { reason } : {}) },
    });
    const p = writeLines(dir, "rollout-x-10101010-1111-4222-8333-444444444446.jsonl", [
      meta({ id: "a1", cwd: "/w" }),
      say("user", "Refactor the parser"),
      aborted("interrupted"),
      aborted("replaced"),
      aborted(),
    ]);
    const { sessions, ctx } = await parseOne(codex, src(p), env);
    assertEquals(ctx.counts, {});
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "Refactor the parser"],
      ["notice", "[Turn aborted: interrupted]"],
      ["notice", "[Turn aborted: replaced]"],
      ["notice", "[Turn aborted]"],
    ]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
