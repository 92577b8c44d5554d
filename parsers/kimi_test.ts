import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { mergeChunks } from "../lib/merge.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { kimi } from "./kimi.ts";
import { INTERRUPTED } from "./_kimi_records.ts";
import { tempDir } from "../tests/_tmp.ts";

const WD = "/work/svc";
const KEY = createHash("md5").update(WD).digest("hex");
const SID = "0f0e0d0c-1111-4222-8333-444455556666";
const DIR = `sessions/${KEY}/${SID}`;
const KIMI_JSON = JSON.stringify({
  work_dirs: [{ path: WD, kaos: "local", last_session_id: null }],
});

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-kimi-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const line = (r: unknown) => JSON.stringify(r) + "\n";
const jsonl = (...recs: unknown[]) => recs.map(line).join("");
const src = (path: string): SourceRef => ({ harness: "kimi", path, kind: "append" });
const of = (s: Session, kind: Event["kind"]) => s.events.filter((e) => e.kind === kind);
const META = { type: "metadata", protocol_version: "1.3" };
let clock = 1795000000;
const w = (type: string, payload: Record<string, unknown> = {}) => ({
  timestamp: clock += 0.5,
  message: { type, payload },
});
const toolCall = (id: string, name: string, args: string) =>
  w("ToolCall", { type: "function", id, function: { name, arguments: args }, extras: null });
const toolResult = (id: string, rv: Record<string, unknown>) =>
  w("ToolResult", { tool_call_id: id, return_value: { display: [], extras: null, ...rv } });

async function parseFile(files: Record<string, string | Uint8Array>, rel: string) {
  const t = tree({ "kimi.json": KIMI_JSON, ...files });
  try {
    return await parseOne(kimi, src(join(t.root, rel)), testEnv(t.root));
  } finally {
    t.cleanup();
  }
}
const wire = (body: string | Uint8Array) =>
  parseFile({ [`${DIR}/wire.jsonl`]: body }, `${DIR}/wire.jsonl`);
const context = (body: string) =>
  parseFile({ [`${DIR}/context.jsonl`]: body }, `${DIR}/context.jsonl`);

// ---- discovery -------------------------------------------------------------------

Deno.test("discovery takes one source per session folder when wire.jsonl and context.jsonl both exist", async () => {
  const t = tree({
    "kimi.json": KIMI_JSON,
    [`${DIR}/wire.jsonl`]: jsonl(META),
    [`${DIR}/context.jsonl`]: "",
    [`${DIR}/context_1.jsonl`]: "",
    [`${DIR}/context_sub_3.jsonl`]: "",
    [`${DIR}/state.json`]: "{}",
    [`sessions/${KEY}/s2/context.jsonl`]: "",
    [`sessions/${KEY}/legacy.jsonl`]: "",
    [`sessions/${KEY}/s2.jsonl`]: "", // superseded by the s2/ folder
    [`user-history/${KEY}.jsonl`]: "",
  });
  try {
    const d = await kimi.discover({
      env: testEnv("/nowhere", { DEJA_KIMI_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.slice(t.root.length + 1)).sort(), [
      `${DIR}/context_sub_3.jsonl`,
      `${DIR}/wire.jsonl`,
      `sessions/${KEY}/legacy.jsonl`,
      `sessions/${KEY}/s2/context.jsonl`,
      `user-history/${KEY}.jsonl`,
    ]);
    assert(d.sources.every((s) => s.kind === "append"));
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery reads KIMI_SHARE_DIR and KIMI_CODE_HOME when DEJA_KIMI_ROOT is unset", async () => {
  const share = await kimi.discover({
    env: testEnv("/h", { KIMI_SHARE_DIR: "/data/kimi", KIMI_CODE_HOME: "/data/kc" }),
    knownProjects: [],
  });
  assertEquals(share.roots, [
    "/data/kimi/sessions",
    "/data/kc/sessions",
    "/data/kimi/user-history",
  ]);
  const dflt = await kimi.discover({ env: testEnv("/h"), knownProjects: [] });
  assertEquals(dflt.roots, [
    "/h/.kimi/sessions",
    "/h/.kimi-code/sessions",
    "/h/.kimi/user-history",
  ]);
  const one = await kimi.discover({
    env: testEnv("/h", { DEJA_KIMI_ROOT: "/r" }),
    knownProjects: [],
  });
  assertEquals(one.roots, ["/r/sessions", "/r/user-history"]);
});

Deno.test("context.jsonl parsed directly yields nothing when its folder has a wire.jsonl", async () => {
  const { sessions } = await parseFile({
    [`${DIR}/wire.jsonl`]: jsonl(META),
    [`${DIR}/context.jsonl`]: jsonl({ role: "user", content: "hi" }),
  }, `${DIR}/context.jsonl`);
  assertEquals(sessions.length, 0);
});

// ---- wire.jsonl --------------------------------------------------------------------

Deno.test("wire user turns come from TurnBegin and SteerInput when input is a string or parts", async () => {
  const { sessions } = await wire(jsonl(
    META,
    w("TurnBegin", {
      user_input: [{ type: "text", text: "fix it" }, {
        type: "image_url",
        image_url: { url: "x" },
      }],
    }),
    w("SteerInput", { user_input: "only stdlib" }),
    w("TurnBegin", { user_input: "again" }),
  ));
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["fix it", "only stdlib", "again"]);
});

Deno.test("wire StepInterrupted becomes a notice between the prompts when a turn is cut before any reply", async () => {
  const prompt = { user_input: [{ type: "text", text: "fix the bridge" }] };
  const { sessions } = await wire(jsonl(
    META,
    w("TurnBegin", prompt),
    w("StepBegin", { n: 1 }),
    w("StepInterrupted"),
    w("TurnBegin", prompt),
    w("StepBegin", { n: 1 }),
    w("ContentPart", { type: "text", text: "Looking" }),
    w("StepInterrupted"),
    w("TurnBegin", prompt),
  ));
  assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
    ["user", "fix the bridge"],
    ["notice", INTERRUPTED],
    ["user", "fix the bridge"],
    ["assistant", "Looking"],
    ["notice", INTERRUPTED],
    ["user", "fix the bridge"],
  ]);
  const notices = of(sessions[0], "notice");
  assert(notices.every((e) => e.time !== undefined && e.key?.startsWith("n:")));
});

Deno.test("wire assistant text is rebuilt from ContentPart pieces when think parts sit between them", async () => {
  const { sessions } = await wire(jsonl(
    META,
    w("TurnBegin", { user_input: "q" }),
    w("StepBegin", { n: 1 }),
    w("ContentPart", { type: "think", think: "hmm", encrypted: null }),
    w("ContentPart", { type: "text", text: "Hello" }),
    w("ContentPart", { type: "text", text: ", world." }),
    w("StepBegin", { n: 2 }),
    w("ContentPart", { type: "text", text: "Second step." }),
    w("TurnEnd"),
  ));
  assertEquals(of(sessions[0], "assistant").map((e) => e.text), ["Hello, world.", "Second step."]);
  assert(!sessions[0].events.some((e) => e.text.includes("hmm")));
});

Deno.test("wire tool call joins streamed ToolCallPart pieces when another result arrives in between", async () => {
  const { sessions } = await wire(jsonl(
    META,
    toolCall("a", "ReadFile", '{"path": "a.txt"}'),
    toolCall("b", "Shell", '{"command": "go te'),
    toolResult("a", { is_error: false, output: "A", message: "" }),
    w("ToolCallPart", { arguments_part: 'st ./..."}' }),
    toolResult("b", {
      is_error: true,
      output: "FAIL\n",
      message: "Command failed with exit code: 1.",
    }),
  ));
  const calls = of(sessions[0], "tool_call");
  assertEquals(calls.map((e) => e.tool?.command ?? e.tool?.paths?.[0]), [
    `${WD}/a.txt`,
    "go test ./...",
  ]);
  assertEquals(calls[1].tool?.input, { command: "go test ./..." });
  const res = of(sessions[0], "tool_result");
  assertEquals(res[1].result, { callId: "b", exit: 1, isError: true });
  assertEquals(res[1].text, "FAIL");
});

Deno.test("wire result whose call only the context holds gets that call back when the wire starts mid-step", async () => {
  // Regression (Kimi CLI 1.17, realdata 0be84c98): the wire opened with the ToolResult of a
  // Shell call recorded only in context.jsonl, and the command was lost from show and search.
  const ctxCall = {
    role: "assistant",
    content: [{ type: "think", think: "force it", encrypted: null }],
    tool_calls: [{
      type: "function",
      id: "t1",
      function: { name: "Shell", arguments: '{"command": "git checkout -f work"}' },
    }],
  };
  const { sessions } = await parseFile({
    [`${DIR}/context.jsonl`]: jsonl(ctxCall, { role: "tool", content: "ok", tool_call_id: "t1" }),
    [`${DIR}/wire.jsonl`]: jsonl(
      META,
      toolResult("t1", { is_error: false, output: "Switched to branch 'work'", message: "" }),
      w("TurnBegin", { user_input: "next" }),
    ),
  }, `${DIR}/wire.jsonl`);
  const ev = sessions[0].events;
  assertEquals(ev.map((e) => e.kind), ["tool_call", "tool_result", "user"]);
  assertEquals(ev[0].tool?.command, "git checkout -f work");
  assertEquals(ev[0].time, ev[1].time);
});

Deno.test("wire Shell result records exit 0 when the status says the command executed successfully", async () => {
  const { sessions } = await wire(jsonl(
    META,
    toolCall("s", "Shell", '{"command": "ls"}'),
    toolResult("s", {
      is_error: false,
      output: "a\nb\n",
      message: "Command executed successfully.",
    }),
    toolCall("t", "Shell", '{"command": "sleep 99"}'),
    toolResult("t", { is_error: true, output: "", message: "Command killed by timeout (60s)" }),
  ));
  const res = of(sessions[0], "tool_result");
  assertEquals(res[0].result, { callId: "s", exit: 0 });
  assertEquals(res[1].result, { callId: "t", isError: true });
  assertEquals(res[1].text, "Command killed by timeout (60s)");
});

Deno.test("wire times are epoch seconds turned into milliseconds when the record has a fraction", async () => {
  const { sessions } = await wire(jsonl(
    META,
    { timestamp: 1772667726.79187, message: { type: "TurnBegin", payload: { user_input: "hi" } } },
    { timestamp: 1772667730.7545526, message: { type: "TurnEnd", payload: {} } },
  ));
  assertEquals(sessions[0].events[0].time, 1772667726791);
  assertEquals([sessions[0].started, sessions[0].updated], [1772667726791, 1772667730754]);
});

Deno.test("wire bookkeeping and sub-agent copies are ignored silently while unknown messages are counted", async () => {
  const { sessions, ctx } = await wire(jsonl(
    META,
    w("TurnBegin", { user_input: "go" }),
    w("StatusUpdate", { context_usage: 0.1 }),
    w("ApprovalRequest", {
      id: "r",
      tool_call_id: "x",
      sender: "Shell",
      action: "run command",
      description: "d",
    }),
    w("ApprovalResponse", { request_id: "r", response: "approve" }),
    w("SubagentEvent", {
      task_tool_call_id: "x",
      event: { type: "ContentPart", payload: { type: "text", text: "sub" } },
    }),
    w("CompactionBegin"),
    w("CompactionEnd"),
    w("FutureThing", {}),
    { something: "else" },
  ));
  assertEquals(sessions[0].events.map((e) => e.text), ["go"]);
  assertEquals(ctx.counts.unknown_record, 2);
});

Deno.test("mid-stream assistant text is emitted at the end and replaced when a resumed pass completes it", async () => {
  const t = tree({ "kimi.json": KIMI_JSON });
  try {
    const path = join(t.root, DIR, "wire.jsonl");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      path,
      jsonl(
        META,
        w("TurnBegin", { user_input: "q" }),
        w("StepBegin", { n: 1 }),
        w("ContentPart", { type: "text", text: "Half" }),
      ),
    );
    const a = await parseOne(kimi, src(path), testEnv(t.root));
    assertEquals(of(a.sessions[0], "assistant").map((e) => e.text), ["Half"]);
    appendFileSync(
      path,
      jsonl(w("ContentPart", { type: "text", text: " and whole." }), w("TurnEnd")),
    );
    const b = await parseOne(kimi, src(path), testEnv(t.root), {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions[0].id, a.sessions[0].id);
    const merged = mergeChunks([...a.sessions, ...b.sessions]);
    assertEquals(of(merged[0], "assistant").map((e) => e.text), ["Half and whole."]);
    const full = await parseOne(kimi, src(path), testEnv(t.root));
    assertEquals(
      merged[0].events.map((e) => [e.kind, e.text, e.key]),
      full.sessions[0].events.map((e) => [e.kind, e.text, e.key]),
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("a tool call cut mid-arguments is completed when a resumed pass brings its ToolCallPart", async () => {
  const t = tree({ "kimi.json": KIMI_JSON });
  try {
    const path = join(t.root, DIR, "wire.jsonl");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, jsonl(META, toolCall("c", "Shell", '{"command": "make')));
    const a = await parseOne(kimi, src(path), testEnv(t.root));
    assertEquals(of(a.sessions[0], "tool_call")[0].tool?.command, undefined);
    appendFileSync(path, jsonl(w("ToolCallPart", { arguments_part: ' lint"}' })));
    const b = await parseOne(kimi, src(path), testEnv(t.root), {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    const merged = mergeChunks([...a.sessions, ...b.sessions]);
    const calls = of(merged[0], "tool_call");
    assertEquals(calls.length, 1);
    assertEquals(calls[0].tool?.command, "make lint");
  } finally {
    t.cleanup();
  }
});

// ---- context.jsonl -------------------------------------------------------------------

Deno.test("context user turns drop <system> parts and checkpoints when the harness injected them", async () => {
  const { sessions, ctx } = await context(jsonl(
    { role: "_system_prompt", content: "You are Kimi." },
    { role: "_checkpoint", id: 0 },
    { role: "user", content: "typed by a person" },
    { role: "user", content: [{ type: "text", text: "<system>CHECKPOINT 1</system>" }] },
    {
      role: "user",
      content: [{ type: "text", text: "<system>Plan mode on.</system>" }, {
        type: "text",
        text: "and this",
      }],
    },
    { role: "system", content: "harness note" },
    { role: "_usage", token_count: 10 },
  ));
  assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [["user", "typed by a person"], [
    "user",
    "and this",
  ]]);
  assertEquals(ctx.skipped, 0);
});

Deno.test("context compaction output becomes a summary when the system marker opens the turn", async () => {
  const { sessions } = await context(jsonl({
    role: "user",
    content: [
      {
        type: "text",
        text:
          "<system>Previous context has been compacted. Here is the compaction output:</system>",
      },
      { type: "text", text: "## Summary\nDid things." },
    ],
  }));
  assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [[
    "summary",
    "## Summary\nDid things.",
  ]]);
});

Deno.test("context tool results strip the status line and read error and exit from it", async () => {
  const { sessions } = await context(jsonl(
    {
      role: "assistant",
      content: [{ type: "think", think: "x" }, { type: "text", text: "Building." }],
      tool_calls: [{
        type: "function",
        id: "t1",
        function: { name: "Shell", arguments: '{"command": "make"}' },
      }],
    },
    {
      role: "tool",
      content: [
        { type: "text", text: "<system>ERROR: Command failed with exit code: 2.</system>" },
        { type: "text", text: "make: *** [all] Error 2\n" },
      ],
      tool_call_id: "t1",
    },
    { role: "tool", content: "<system>Todo list updated</system>", tool_call_id: "t2" },
    {
      role: "tool",
      content: [{ type: "text", text: "<system>Command executed successfully.</system>" }, {
        type: "text",
        text: "ok\n",
      }],
      tool_call_id: "t3",
    },
  ));
  const s = sessions[0];
  assertEquals(of(s, "assistant").map((e) => e.text), ["Building."]);
  assertEquals(of(s, "tool_call")[0].tool?.command, "make");
  assertEquals(of(s, "tool_result").map((e) => [e.text, e.result]), [
    ["make: *** [all] Error 2", { callId: "t1", exit: 2, isError: true }],
    ["Todo list updated", { callId: "t2" }],
    ["ok", { callId: "t3", exit: 0 }],
  ]);
  assert(s.events.every((e) => e.time === undefined));
});

Deno.test("context unknown roles are counted when the record is not a Kimi CLI message", async () => {
  const { sessions, ctx } = await context(
    jsonl({ role: "critic", content: "x" }, { role: "user", content: "y" }),
  );
  assertEquals(ctx.counts.unknown_record, 1);
  assertEquals(of(sessions[0], "user").length, 1);
});

Deno.test("StrReplaceFile gives one edit per span when edit is an object or a list", async () => {
  const { sessions } = await context(jsonl({
    role: "assistant",
    content: "",
    tool_calls: [
      {
        type: "function",
        id: "e1",
        function: {
          name: "StrReplaceFile",
          arguments: JSON.stringify({ path: "/work/svc/a.py", edit: { old: "1", new: "2" } }),
        },
      },
      {
        type: "function",
        id: "e2",
        function: {
          name: "StrReplaceFile",
          arguments: JSON.stringify({
            path: "b.py",
            edit: [{ old: "x", new: "y" }, { old: "p", new: "q", replace_all: true }],
          }),
        },
      },
      {
        type: "function",
        id: "w1",
        function: {
          name: "WriteFile",
          arguments: JSON.stringify({ path: "c.py", content: "print()\n" }),
        },
      },
      {
        type: "function",
        id: "g1",
        function: {
          name: "Glob",
          arguments: JSON.stringify({ pattern: "*.py", directory: "/work/svc/src" }),
        },
      },
      {
        type: "function",
        id: "g2",
        function: { name: "Grep", arguments: JSON.stringify({ pattern: "db", path: "app" }) },
      },
      {
        type: "function",
        id: "m1",
        function: { name: "ReadMediaFile", arguments: JSON.stringify({ path: "shot.png" }) },
      },
    ],
  }));
  const tools = of(sessions[0], "tool_call").map((e) => e.tool!);
  assertEquals(tools[0].edits, [{ path: "/work/svc/a.py", old: "1", new: "2" }]);
  assertEquals(tools[1].edits, [
    { path: `${WD}/b.py`, old: "x", new: "y" },
    { path: `${WD}/b.py`, old: "p", new: "q" },
  ]);
  assertEquals(tools[2].writes, [{ path: `${WD}/c.py`, content: "print()\n" }]);
  // Glob and Grep search: a pattern or directory is no file read.
  assertEquals(tools[3].paths, undefined);
  assertEquals(tools[3].input, { pattern: "*.py", directory: "/work/svc/src" });
  assertEquals(tools[4].paths, undefined);
  assertEquals(tools[5].paths, [`${WD}/shot.png`]);
});

Deno.test("sub-agent context becomes its own session under the parent when named context_sub_N", async () => {
  const { sessions } = await parseFile({
    [`${DIR}/context_sub_2.jsonl`]: jsonl({ role: "_checkpoint", id: 0 }, {
      role: "user",
      content: "task prompt",
    }, { role: "assistant", content: "done" }),
  }, `${DIR}/context_sub_2.jsonl`);
  assertEquals(sessions[0].id, `${SID}/sub_2`);
  assertEquals(sessions[0].parent, SID);
  assertEquals(sessions[0].project, WD);
});

Deno.test("project and title come from kimi.json and state.json when the folder hash matches", async () => {
  const { sessions } = await parseFile({
    [`${DIR}/context.jsonl`]: jsonl({ role: "user", content: "hi" }),
    [`${DIR}/state.json`]: JSON.stringify({ version: 1, custom_title: "My title" }),
  }, `${DIR}/context.jsonl`);
  assertEquals([sessions[0].project, sessions[0].title], [WD, "My title"]);
});

Deno.test("project falls back to session_to_workdir and then to unknown when no work dir hashes to the folder", async () => {
  const t = tree({
    "kimi.json": JSON.stringify({
      work_dirs: [{ path: "/home/user" }],
      session_to_workdir: { s1: "/srv/app" },
    }),
    "sessions/697a0ebec3147bb421a9dd6a0531906f/s1/context.jsonl": jsonl({
      role: "user",
      content: "a",
    }),
    "sessions/697a0ebec3147bb421a9dd6a0531906f/s2/context.jsonl": jsonl({
      role: "assistant",
      content: "",
      tool_calls: [{
        type: "function",
        id: "r",
        function: { name: "ReadFile", arguments: '{"path": "rel/x.py"}' },
      }],
    }),
  });
  try {
    const run = await runParser(kimi, testEnv("/nowhere", { DEJA_KIMI_ROOT: t.root }));
    assertEquals(run.errors, {});
    const by = (id: string) => run.sessions.find((s) => s.id === id)!;
    assertEquals(by("s1").project, "/srv/app");
    assertEquals(by("s2").project, undefined);
    assertEquals(of(by("s2"), "tool_call")[0].tool?.paths, ["rel/x.py"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("project matches a work dir on another KAOS when the folder is named <kaos>_<md5>", async () => {
  const t = tree({
    "kimi.json": JSON.stringify({ work_dirs: [{ path: "/box/app", kaos: "ssh" }] }),
    [`sessions/ssh_${createHash("md5").update("/box/app").digest("hex")}/s1/context.jsonl`]: jsonl({
      role: "user",
      content: "a",
    }),
  });
  try {
    const run = await runParser(kimi, testEnv("/nowhere", { DEJA_KIMI_ROOT: t.root }));
    assertEquals(run.sessions.map((s) => s.project), ["/box/app"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("project comes from the system prompt's work dir line when kimi.json names no work dir of the folder", async () => {
  const prompt = {
    role: "_system_prompt",
    content: "You are Kimi.\n\n## Working Directory\n\nThe current working directory is " +
      "`/home/ana/shop`. This should be considered as the project root.\n",
  };
  const other = "sessions/697a0ebec3147bb421a9dd6a0531906f";
  const t = tree({
    "kimi.json": JSON.stringify({ work_dirs: [{ path: "/home/user", kaos: "local" }] }),
    [`${other}/s1/context.jsonl`]: jsonl(prompt, { role: "user", content: "a" }),
    [`${other}/s1/wire.jsonl`]: jsonl(META, w("TurnBegin", { user_input: "a" })),
    [`${other}/s1/context_sub_1.jsonl`]: jsonl({ role: "user", content: "task" }),
    [`${other}/s2/context.jsonl`]: jsonl({ role: "user", content: "b" }),
    [`user-history/697a0ebec3147bb421a9dd6a0531906f.jsonl`]: jsonl({ content: "c" }),
  });
  try {
    const run = await runParser(kimi, testEnv("/nowhere", { DEJA_KIMI_ROOT: t.root }));
    const by = (id: string) => run.sessions.find((s) => s.id === id)?.project;
    assertEquals(
      ["s1", "s1/sub_1", "s2", "prompt-history-697a0ebec3147bb421a9dd6a0531906f"].map(by),
      ["/home/ana/shop", "/home/ana/shop", undefined, "/home/ana/shop"],
    );
  } finally {
    t.cleanup();
  }
});

// ---- hostile input -------------------------------------------------------------------

Deno.test("empty wire file yields no session and counts empty when nothing was written", async () => {
  const { sessions, ctx } = await wire("");
  assertEquals(sessions.length, 0);
  assertEquals(ctx.counts.empty, 1);
});

Deno.test("truncated last wire line is left for the next run when Kimi is still writing it", async () => {
  const t = tree({ "kimi.json": KIMI_JSON });
  try {
    const path = join(t.root, DIR, "wire.jsonl");
    mkdirSync(dirname(path), { recursive: true });
    const head = jsonl(META, w("TurnBegin", { user_input: "first" }));
    const tail = line(w("TurnBegin", { user_input: "second" }));
    writeFileSync(path, head + tail.slice(0, 25));
    const a = await parseOne(kimi, src(path), testEnv(t.root));
    assertEquals(a.ctx.endOffset, Buffer.byteLength(head));
    assertEquals(of(a.sessions[0], "user").map((e) => e.text), ["first"]);
    appendFileSync(path, tail.slice(25));
    const b = await parseOne(kimi, src(path), testEnv(t.root), {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions[0].id, SID);
    assertEquals(of(b.sessions[0], "user").map((e) => e.text), ["second"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed and invalid UTF-8 context lines are counted and skipped when they sit mid-file", async () => {
  const enc = new TextEncoder();
  const body = new Uint8Array([
    ...enc.encode(line({ role: "user", content: "one" }) + "{oops\n"),
    0x7b,
    0x22,
    0xc3,
    0x28,
    0x22,
    0x7d,
    0x0a,
    ...enc.encode(line({ role: "user", content: "two" })),
  ]);
  const { sessions, ctx } = await parseFile(
    { [`${DIR}/context.jsonl`]: body },
    `${DIR}/context.jsonl`,
  );
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["one", "two"]);
  assertEquals([ctx.counts.malformed_json, ctx.counts.invalid_utf8], [2, undefined]);
});

Deno.test("unknown first wire record is counted and the rest still parses when it has no message", async () => {
  const { sessions, ctx } = await wire(
    jsonl({ kind: "header-v9" }, w("TurnBegin", { user_input: "after" })),
  );
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["after"]);
  assertEquals(ctx.counts.unknown_record, 1);
});

Deno.test("resumed context parse from an offset yields the same session id as a full parse", async () => {
  const t = tree({ "kimi.json": KIMI_JSON });
  try {
    const path = join(t.root, DIR, "context.jsonl");
    mkdirSync(dirname(path), { recursive: true });
    const head = line({ role: "user", content: "one" });
    writeFileSync(path, head + line({ role: "assistant", content: "two" }));
    const full = await parseOne(kimi, src(path), testEnv(t.root));
    const resumed = await parseOne(kimi, src(path), testEnv(t.root), {
      offset: Buffer.byteLength(head),
    });
    assertEquals(resumed.sessions[0].id, full.sessions[0].id);
    assertEquals(resumed.sessions[0].events.map((e) => e.text), ["two"]);
  } finally {
    t.cleanup();
  }
});

// ---- real store ------------------------------------------------------------------------

const PUBLIC = join(REPO, "../shared/realdata/kimi");

Deno.test({
  name:
    "public Kimi CLI 1.17 store yields all three sessions and both sub-agents when read in place",
  ignore: !existsSync(PUBLIC),
  fn: async () => {
    const run = await runParser(kimi, testEnv("/nowhere", { DEJA_KIMI_ROOT: PUBLIC }));
    assertEquals(run.errors, {});
    assertEquals(run.skips, {});
    const ids = run.sessions.map((s) => s.id).sort();
    assertEquals(ids, [
      "0be84c98-0aeb-48c3-aa42-0fb8330914ef",
      "3951a8af-d393-44a8-a19f-057bbdf8cb1c",
      "b1ea4a04-95d9-43a8-98ce-189f553b08ca",
      "b1ea4a04-95d9-43a8-98ce-189f553b08ca/sub_8",
      "b1ea4a04-95d9-43a8-98ce-189f553b08ca/sub_9",
      "prompt-history-697a0ebec3147bb421a9dd6a0531906f",
    ]);
    // 23 of the history's 43 prompts are in no transcript, among them the paperclip question
    const hist = run.sessions.find((s) => s.id.startsWith("prompt-history-"))!;
    assertEquals(of(hist, "user").length, 23);
    assert(hist.events.some((e) => e.text.includes("paperclipai/paperclip")));
    // the Shell call that only context.jsonl line 1 holds opens 0be84c98's wire session
    assert(
      run.sessions.find((s) => s.id.startsWith("0be84c98"))!.events[0].tool?.command
        ?.includes("git checkout -f work"),
    );
    const by = (id: string) => run.sessions.find((s) => s.id.startsWith(id))!;
    // the folder hash is md5 of the original home dir; kimi.json was redacted to /home/user
    assert(run.sessions.every((s) => s.project === undefined));
    assertEquals(of(by("0be84c98"), "user").length, 5);
    assertEquals(of(by("3951a8af"), "user").length, 5);
    assertEquals(of(by("b1ea4a04-95d9-43a8-98ce-189f553b08ca"), "user").length, 11);
    assert(of(by("0be84c98"), "assistant")[0].text.includes("PinchTab"));
    // its five repeated prompts were each cut by a StepInterrupted: one notice after each
    const tail = by("0be84c98").events.slice(-10).map((e) => e.kind);
    assertEquals(tail, Array(5).fill(["user", "notice"]).flat());
    const main = by("3951a8af");
    assert(main.started! > 1.7e12 && main.updated! >= main.started!);
    assert(
      main.events.some((e) =>
        e.tool?.name === "Shell" && e.tool.command?.startsWith("which railway")
      ),
    );
    const failed = main.events.filter((e) => e.kind === "tool_result" && e.result?.exit === 128);
    assertEquals(failed.length, 1);
    assert(failed[0].result?.isError);
    const edits = main.events.flatMap((
      e,
    ) => (e.tool?.name === "StrReplaceFile" ? e.tool.edits ?? [] : []));
    assertEquals(edits.length, 4);
    assert(edits.some((x) => x.path === "backend/.env" && x.old.includes("MONGODB_URL")));
    for (const n of [8, 9]) {
      const sub = run.sessions.find((s) => s.id.endsWith(`/sub_${n}`))!;
      assertEquals(sub.parent, "b1ea4a04-95d9-43a8-98ce-189f553b08ca");
      assert(
        sub.events.some((e) =>
          e.tool?.name === "StrReplaceFile" && (e.tool.edits?.length ?? 0) > 0
        ),
      );
    }
    const ctxOnly = by("b1ea4a04-95d9-43a8-98ce-189f553b08ca");
    assert(!ctxOnly.events.some((e) => e.text.startsWith("<system>")));
  },
});

Deno.test("user-history prompts no transcript of the work dir holds become one session when the file is read", async () => {
  // Issue 15 (Kimi CLI 1.17, realdata): user-history/<md5>.jsonl was not read, and 21 of its
  // 43 prompts ("…paperclipai/paperclip…") were in no transcript.
  const hist = `user-history/${KEY}.jsonl`;
  const t = tree({
    "kimi.json": KIMI_JSON,
    [`${DIR}/wire.jsonl`]: jsonl(META, w("TurnBegin", { user_input: "typed in the wire" })),
    [`sessions/${KEY}/other/context.jsonl`]: jsonl({ role: "user", content: "in a context" }),
    [hist]: jsonl(
      { content: "typed in the wire" },
      { content: "in a context " },
      { content: "only in the history" },
      { nope: 1 },
    ),
  });
  try {
    const env = testEnv("/nowhere", { DEJA_KIMI_ROOT: t.root });
    const d = await kimi.discover({ env, knownProjects: [] });
    const src = d.sources.find((s) => s.path === join(t.root, hist));
    assert(src, "user-history not discovered");
    const { sessions, ctx } = await parseOne(kimi, src, env);
    assertEquals(sessions.map((s) => [s.id, s.project]), [[`prompt-history-${KEY}`, WD]]);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "only in the history"],
    ]);
    // Dated by the history file's mtime, the newest prompt's: a shared file's (undated).
    assertEquals(sessions[0].timeFromFile, "shared");
    assertEquals(typeof sessions[0].updated, "number");
    assertEquals(ctx.counts, { bad_shape: 1 });
  } finally {
    t.cleanup();
  }
});
