import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { mergeChunks } from "../lib/merge.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { qwen } from "./qwen.ts";
import { tempDir } from "../tests/_tmp.ts";

const SID = "9d3f0c1e-5b7a-4e2d-8c6f-00000000c0de";
const CWD = "/work/proj";
const CHAT = `projects/-work-proj/chats/${SID}.jsonl`;

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-qwen-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const line = (r: unknown) => JSON.stringify(r) + "\n";
const jsonl = (...recs: unknown[]) => recs.map(line).join("");
const src = (path: string): SourceRef => ({ harness: "qwen", path, kind: "append" });
const of = (s: Session, kind: Event["kind"]) => s.events.filter((e) => e.kind === kind);

let n = 0;
function rec(type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return {
    uuid: `u-${n}`,
    parentUuid: null,
    sessionId: SID,
    timestamp: `2026-11-20T10:00:${String(n % 60).padStart(2, "0")}.000Z`,
    type,
    cwd: CWD,
    version: "0.24.4",
    ...extra,
  };
}
const user = (text: string, extra: Record<string, unknown> = {}) =>
  rec("user", { message: { role: "user", parts: [{ text }] }, ...extra });
const model = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  rec("assistant", { model: "qwen3-coder-plus", message: { role: "model", parts }, ...extra });
const call = (id: string, name: string, args: unknown) => ({ functionCall: { id, name, args } });
const response = (id: string, name: string, resp: unknown, tcr?: unknown) =>
  rec("tool_result", {
    message: { role: "user", parts: [{ functionResponse: { id, name, response: resp } }] },
    ...(tcr ? { toolCallResult: tcr } : {}),
  });

async function parse(body: string | Uint8Array) {
  const t = tree({ [CHAT]: body });
  try {
    return await parseOne(qwen, src(join(t.root, CHAT)), testEnv(t.root));
  } finally {
    t.cleanup();
  }
}

Deno.test("discovery lists only chats/*.jsonl under projects when DEJA_QWEN_ROOT is set", async () => {
  const t = tree({
    [CHAT]: jsonl(user("hi")),
    "projects/-work-proj/notes.jsonl": "{}\n",
    "projects/-work-proj/chats/deeper/x.jsonl": "{}\n",
    "tmp/abc/chats/y.jsonl": "{}\n",
  });
  try {
    const d = await qwen.discover({
      env: testEnv("/nowhere", { DEJA_QWEN_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.slice(t.root.length + 1)), [CHAT]);
    assert(d.sources.every((s) => s.kind === "append"));
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery prefers QWEN_RUNTIME_DIR over QWEN_HOME when both are set", async () => {
  const t = tree({ [`runtime/${CHAT}`]: jsonl(user("a")), [`home/${CHAT}`]: jsonl(user("b")) });
  try {
    const both = await qwen.discover({
      env: testEnv("/nowhere", {
        QWEN_RUNTIME_DIR: join(t.root, "runtime"),
        QWEN_HOME: join(t.root, "home"),
      }),
      knownProjects: [],
    });
    assertEquals(both.roots, [join(t.root, "runtime", "projects")]);
    const home = await qwen.discover({
      env: testEnv("/nowhere", { QWEN_HOME: join(t.root, "home") }),
      knownProjects: [],
    });
    assertEquals(home.roots, [join(t.root, "home", "projects")]);
    const dflt = await qwen.discover({ env: testEnv(join(t.root, "h")), knownProjects: [] });
    assertEquals(dflt.roots, [join(t.root, "h", ".qwen", "projects")]);
  } finally {
    t.cleanup();
  }
});

Deno.test("user turn is the typed displayText when the parts carry harness hook context", async () => {
  const { sessions } = await parse(jsonl(
    rec("user", {
      message: { role: "user", parts: [{ text: "tidy imports" }, { text: "<hook>ctx</hook>" }] },
      systemPayload: { displayText: "tidy imports", hookContext: "ctx" },
    }),
    user("two parts", { message: { role: "user", parts: [{ text: "a" }, { text: "b" }] } }),
  ));
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["tidy imports", "a\nb"]);
  assertEquals(sessions[0].project, CWD);
});

Deno.test("harness-authored user records are dropped when their subtype is notification, cron or goal_runtime", async () => {
  const { sessions, ctx } = await parse(jsonl(
    user("typed"),
    user("agent done", { subtype: "notification", provenance: "system" }),
    user("cron fired", { subtype: "cron" }),
    user("goal step", { subtype: "goal_runtime" }),
    user("while tools ran", { subtype: "mid_turn_user_message" }),
  ));
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["typed", "while tools ran"]);
  assertEquals(ctx.skipped, 0);
});

Deno.test("assistant text drops thought parts and keeps the model name when a record mixes them", async () => {
  const { sessions } = await parse(
    jsonl(model([{ text: "pondering", thought: true }, { text: "Answer." }])),
  );
  assertEquals(of(sessions[0], "assistant").map((e) => e.text), ["Answer."]);
  assertEquals(sessions[0].model, "qwen3-coder-plus");
});

Deno.test("shell result takes exit code and clean output from resultDisplay when it is a shell_result", async () => {
  const { sessions } = await parse(jsonl(
    model([call("c1", "run_shell_command", { command: "cat missing.txt" })]),
    response("c1", "run_shell_command", {
      error:
        "Command: cat missing.txt\nDirectory: (root)\nOutput: cat: missing.txt: No such file\nError: (none)\nExit Code: 1",
    }, {
      callId: "c1",
      status: "error",
      resultDisplay: {
        type: "shell_result",
        exitCode: 1,
        output: "cat: missing.txt: No such file",
      },
    }),
  ));
  const [c] = of(sessions[0], "tool_call");
  assertEquals(c.tool?.command, "cat missing.txt");
  const [r] = of(sessions[0], "tool_result");
  assertEquals(r.text, "cat: missing.txt: No such file");
  assertEquals(r.result, { callId: "c1", exit: 1, isError: true });
});

Deno.test("shell result reads exit code and output from the framing when no resultDisplay exists", async () => {
  const { sessions } = await parse(jsonl(
    model([call("c2", "run_shell_command", { command: "make" })]),
    response("c2", "run_shell_command", {
      output:
        "Command: make\nDirectory: (root)\nOutput: line one\nline two\nError: (none)\nExit Code: 2\nSignal: (none)\nProcess Group PGID: 77",
    }),
    response("c3", "run_shell_command", {
      output: "Command: true\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0",
    }),
  ));
  const res = of(sessions[0], "tool_result");
  assertEquals(res[0].text, "line one\nline two");
  assertEquals(res[0].result, { callId: "c2", exit: 2 });
  assertEquals(res[1].text, "");
  assertEquals(res[1].result?.exit, 0);
});

Deno.test("file tools map to edits, writes and absolute paths when relative paths name the cwd", async () => {
  const { sessions } = await parse(jsonl(model([
    call("e1", "edit", {
      file_path: "README.md",
      old_string: "hello world",
      new_string: "hello zebrafinch",
    }),
    call("e2", "replace", { file_path: "/abs/a.go", old_string: "x", new_string: "y" }),
    call("w1", "write_file", { file_path: "NEW.md", content: "new\n" }),
    call("r1", "read_file", { file_path: "main.go" }),
    call("r2", "read_many_files", { paths: ["docs/a.md", "/abs/b.md"] }),
    call("x1", "web_fetch", { url: "https://example.com" }),
  ])));
  const tools = of(sessions[0], "tool_call").map((e) => e.tool!);
  assertEquals(tools[0].edits, [{
    path: `${CWD}/README.md`,
    old: "hello world",
    new: "hello zebrafinch",
  }]);
  assertEquals(tools[1].edits, [{ path: "/abs/a.go", old: "x", new: "y" }]);
  assertEquals(tools[2].writes, [{ path: `${CWD}/NEW.md`, content: "new\n" }]);
  assertEquals(tools[3].paths, [`${CWD}/main.go`]);
  assertEquals(tools[4].paths, [`${CWD}/docs/a.md`, "/abs/b.md"]);
  assertEquals([tools[5].command, tools[5].paths, tools[5].edits], [
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("a record written twice replaces its first copy when the uuid repeats", async () => {
  const first = model([{ text: "draft" }, call("c9", "run_shell_command", { command: "ls" })]);
  const again = {
    ...first,
    message: {
      role: "model",
      parts: [{ text: "final" }, call("c9", "run_shell_command", { command: "ls" })],
    },
  };
  const { sessions } = await parse(jsonl(first, user("next"), again));
  assertEquals(of(sessions[0], "assistant").map((e) => e.text), ["final"]);
  assertEquals(of(sessions[0], "tool_call").length, 1);
  assertEquals(sessions[0].events.map((e) => e.kind), ["assistant", "tool_call", "user"]);
});

Deno.test("system records give summary, title, parent and slash commands when their subtypes say so", async () => {
  const { sessions, ctx } = await parse(jsonl(
    rec("system", { subtype: "ui_telemetry", systemPayload: { uiEvent: {} } }),
    rec("system", { subtype: "attribution_snapshot", systemPayload: {} }),
    rec("system", { subtype: "parent_session", systemPayload: { parentSessionId: "p-1" } }),
    rec("system", {
      subtype: "slash_command",
      systemPayload: { phase: "invocation", rawCommand: "/compress" },
    }),
    rec("system", {
      subtype: "slash_command",
      systemPayload: { phase: "result", rawCommand: "/compress" },
    }),
    rec("system", {
      subtype: "chat_compression",
      systemPayload: {
        compressedHistory: [
          { role: "user", parts: [{ text: "<state_snapshot>so far</state_snapshot>" }] },
          { role: "model", parts: [{ text: "Got it." }] },
        ],
      },
    }),
    rec("system", { subtype: "custom_title", systemPayload: { customTitle: "Old" } }),
    rec("system", { subtype: "custom_title", systemPayload: { customTitle: "New title" } }),
    rec("system", { subtype: "some_future_subtype" }),
  ));
  const s = sessions[0];
  assertEquals(s.title, "New title");
  assertEquals(s.parent, "p-1");
  assertEquals(of(s, "user").map((e) => e.text), ["/compress"]);
  assertEquals(of(s, "summary").map((e) => e.text), ["<state_snapshot>so far</state_snapshot>"]);
  assertEquals(ctx.skipped, 0);
});

Deno.test("sidechain records become a subagent session when they carry an agentId", async () => {
  const { sessions } = await parse(jsonl(
    user("main turn"),
    user("sub task", { isSidechain: true, agentId: "explore-1" }),
    model([{ text: "sub answer" }], { isSidechain: true, agentId: "explore-1" }),
  ));
  assertEquals(sessions.map((s) => s.id), [SID, `${SID}/explore-1`]);
  assertEquals(sessions[1].parent, SID);
  assertEquals(of(sessions[0], "assistant").length, 0);
  assertEquals(of(sessions[1], "assistant").map((e) => e.text), ["sub answer"]);
});

Deno.test("function responses under a user record become tool results when an older build wrote them", async () => {
  const { sessions } = await parse(jsonl(rec("user", {
    message: {
      role: "user",
      parts: [{ functionResponse: { id: "o1", name: "read_file", response: { output: "body" } } }],
    },
  })));
  assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [["tool_result", "body"]]);
});

// ---- hostile input -------------------------------------------------------------

Deno.test("empty file yields no session and counts empty when nothing was written", async () => {
  const { sessions, ctx } = await parse("");
  assertEquals(sessions.length, 0);
  assertEquals(ctx.counts.empty, 1);
});

Deno.test("truncated last line is left for the next run when the harness is still writing it", async () => {
  const t = tree({});
  try {
    const path = join(t.root, CHAT);
    mkdirSync(dirname(path), { recursive: true });
    const head = line(user("first"));
    const tail = line(model([{ text: "second" }]));
    writeFileSync(path, head + tail.slice(0, 20));
    const a = await parseOne(qwen, src(path), testEnv(t.root));
    assertEquals(a.ctx.endOffset, Buffer.byteLength(head));
    assertEquals(of(a.sessions[0], "assistant").length, 0);
    appendFileSync(path, tail.slice(20));
    const b = await parseOne(qwen, src(path), testEnv(t.root), {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions[0].id, a.sessions[0].id);
    assertEquals(of(b.sessions[0], "assistant").map((e) => e.text), ["second"]);
    assertEquals(b.sessions[0].project, CWD);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed and invalid UTF-8 lines are counted and skipped when they sit mid-file", async () => {
  const enc = new TextEncoder();
  const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
  const body = new Uint8Array([
    ...enc.encode(line(user("one")) + "{not json\n"),
    ...bad,
    ...enc.encode(line(user("two"))),
  ]);
  const { sessions, ctx } = await parse(body);
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["one", "two"]);
  assertEquals(ctx.counts.malformed_json, 2); // the bad bytes sit where JSON needs a key
  assertEquals(ctx.counts.invalid_utf8, undefined);
});

Deno.test("unknown first record is counted and the rest still parses when the type is new", async () => {
  const { sessions, ctx } = await parse(jsonl(rec("branch_marker"), [1, 2], user("after")));
  assertEquals(of(sessions[0], "user").map((e) => e.text), ["after"]);
  assertEquals(ctx.counts.unknown_record, 2);
});

Deno.test("resumed parse from an offset yields the same session id when later records lack it", async () => {
  const t = tree({});
  try {
    const path = join(t.root, "projects/-work-proj/chats/renamed.jsonl");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, line(user("first")));
    const first = await parseOne(qwen, src(path), testEnv(t.root));
    const { sessionId: _drop, cwd: _cwd, ...bare } = model([{ text: "second" }]);
    appendFileSync(path, line(bare));
    const resumed = await parseOne(qwen, src(path), testEnv(t.root), {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    const full = await parseOne(qwen, src(path), testEnv(t.root));
    assertEquals(first.sessions[0].id, SID);
    assertEquals(resumed.sessions[0].id, SID);
    assertEquals(resumed.sessions[0].project, CWD);
    assertEquals(full.sessions[0].id, SID);
    const merged = mergeChunks([...first.sessions, ...resumed.sessions]);
    assertEquals(merged.length, 1);
    assertEquals(merged[0].events.map((e) => e.text), full.sessions[0].events.map((e) => e.text));
  } finally {
    t.cleanup();
  }
});

// ---- real store ------------------------------------------------------------------

const FARM = join(REPO, "../shared/realdata/farm/qwen/home/.qwen");

Deno.test({
  name:
    "farm store yields the marker, the failing cat and the README edit when Qwen Code 0.24.4 wrote it",
  ignore: !existsSync(FARM),
  fn: async () => {
    const run = await runParser(qwen, testEnv("/nowhere", { DEJA_QWEN_ROOT: FARM }));
    assertEquals(run.errors, {});
    assertEquals(run.skips, {});
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals(s.id, "5576c313-d3b9-4db5-8cf0-15815d6e8cf6");
    assertEquals(s.project, "/tmp/farm/qwen/proj");
    assert(s.events.some((e) => e.kind === "assistant" && e.text.includes("zebrafinch-qwen")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt");
    assert(cat, "no cat missing.txt call");
    const res = s.events.find((e) => e.kind === "tool_result" && e.result?.callId === cat.tool?.id);
    assertEquals(res?.result?.exit, 1);
    assertEquals(res?.result?.isError, true);
    assertEquals(s.events.flatMap((e) => e.tool?.edits ?? []), [{
      path: "/tmp/farm/qwen/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(of(s, "user").length, 1);
  },
});

Deno.test("a subagent's rounds are found and filed under the parent when they sit in subagents/<session>/", async () => {
  // Regression, Qwen Code 0.24.4 (farm run): the `agent` tool's rounds are written to
  // projects/<slug>/subagents/<parent session>/agent-<type>-<call>.jsonl, which discovery missed.
  const sub = `projects/-work-proj/subagents/${SID}/agent-general-purpose-call_1.jsonl`;
  const side = {
    isSidechain: true,
    agentId: "general-purpose-call_1",
    agentName: "general-purpose",
  };
  const t = tree({
    [CHAT]: jsonl(user("parent turn")),
    [sub]: jsonl(user("helper prompt", side), model([{ text: "helper answer" }], side)),
    [`projects/-work-proj/subagents/${SID}/agent-general-purpose-call_1.meta.json`]: "{}\n",
  });
  try {
    const run = await runParser(qwen, testEnv("/nowhere", { DEJA_QWEN_ROOT: t.root }));
    assertEquals(
      run.discovery.sources.map((s) => s.path.slice(t.root.length + 1)).sort(),
      [CHAT, sub].sort(),
    );
    const child = run.sessions.find((s) => s.parent === SID);
    assert(child, "no session filed under the parent");
    assertEquals(child.id, `${SID}/general-purpose-call_1`);
    assertEquals(of(child, "assistant").map((e) => e.text), ["helper answer"]);
  } finally {
    t.cleanup();
  }
});
