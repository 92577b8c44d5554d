import { assert, assertEquals } from "../tests/_assert.ts";
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Env, Event, Session, SourceRef } from "../core/model.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { kiro, kiroUserDir } from "./kiro.ts";
import { decodeWorkspace } from "./_kiro_ide.ts";
import { kiroToolCall } from "./_kiro_tools.ts";
import { tempDir } from "../tests/_tmp.ts";

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-kiro-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const T0 = 1793527200;
const SID = "f2946a26-0000-4000-8000-0000000000aa";
const CLI = `sessions/cli/${SID}.jsonl`;
const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const rec = (kind: string, data: Record<string, unknown>) => ({ version: "v1", kind, data });
const text = (t: string) => ({ kind: "text", data: t });
const prompt = (t: string, ts = T0, id?: string) =>
  rec("Prompt", { ...(id ? { message_id: id } : {}), content: [text(t)], meta: { timestamp: ts } });
const reply = (t: string, mid?: string) =>
  rec("AssistantMessage", { ...(mid ? { message_id: mid } : {}), content: [text(t)] });
const use = (id: string, name: string, input: unknown) =>
  rec("AssistantMessage", {
    message_id: `u-${id}`,
    content: [{ kind: "toolUse", data: { toolUseId: id, name, input } }],
  });
const result = (id: string, content: unknown[], status = "success") =>
  rec("ToolResults", {
    content: [{ kind: "toolResult", data: { toolUseId: id, content, status } }],
  });
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);
const src = (path: string, layout = "cli"): SourceRef => ({
  harness: "kiro",
  path,
  kind: "append",
  hint: { layout },
});

async function parseCli(root: string, opts: { offset?: number; state?: unknown } = {}) {
  return await parseOne(kiro, src(join(root, CLI)), testEnv(root), opts);
}

Deno.test("discovery lists CLI logs, IDE messages.jsonl and .chat files when DEJA_KIRO_ROOT is set", async () => {
  const t = tree({
    [CLI]: jsonl(prompt("hi")),
    [`sessions/cli/${SID}.json`]: "{}",
    [`sessions/cli/${SID}.lock`]: "1",
    [`sessions/cli/${SID}.history`]: "hi",
    "sessions/ws/sess_1/messages.jsonl": "",
    "sessions/ws/sess_1/session.json": "{}",
    "sessions/ws/notes/messages.jsonl": "",
    "globalStorage/kiro.kiroagent/L3c=/e1.chat": "{}",
    "globalStorage/kiro.kiroagent/L3c=/abc123": "{}",
  });
  try {
    const d = await kiro.discover({
      env: testEnv("/nowhere", { DEJA_KIRO_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.roots, [join(t.root, "sessions"), join(t.root, "globalStorage/kiro.kiroagent")]);
    assertEquals(d.sources.map((s) => [s.path.slice(t.root.length + 1), s.kind, s.hint?.layout]), [
      [CLI, "append", "cli"],
      ["sessions/ws/sess_1/messages.jsonl", "append", "ide"],
      ["globalStorage/kiro.kiroagent/L3c=/e1.chat", "document", "chat"],
    ]);
    assertEquals(d.sources[0].companions, [join(t.root, `sessions/cli/${SID}.json`)]);
  } finally {
    t.cleanup();
  }
});

Deno.test("IDE storage root follows XDG_CONFIG_HOME on Linux, Application Support on macOS and APPDATA on Windows", () => {
  const env = (platform: string, vars: Record<string, string> = {}): Env => ({
    home: "/h",
    platform,
    get: (n) => vars[n],
  });
  assertEquals(kiroUserDir(env("linux")), "/h/.config/Kiro/User");
  assertEquals(kiroUserDir(env("linux", { XDG_CONFIG_HOME: "/x" })), "/x/Kiro/User");
  assertEquals(kiroUserDir(env("darwin")), "/h/Library/Application Support/Kiro/User");
  assertEquals(kiroUserDir(env("win32", { APPDATA: "/h/roam" })), "/h/roam/Kiro/User");
  assertEquals(kiroUserDir(env("linux", { DEJA_KIRO_ROOT: "/r" })), "/r");
});

Deno.test("discovery reads KIRO_HOME for the .kiro directory when DEJA_KIRO_ROOT is unset", async () => {
  const t = tree({ [`kh/${CLI}`]: jsonl(prompt("a")), [`home/.kiro/${CLI}`]: jsonl(prompt("b")) });
  try {
    const a = await kiro.discover({
      env: testEnv(join(t.root, "home"), { KIRO_HOME: join(t.root, "kh") }),
      knownProjects: [],
    });
    assertEquals(a.sources.map((s) => s.path), [join(t.root, "kh", CLI)]);
    const b = await kiro.discover({ env: testEnv(join(t.root, "home")), knownProjects: [] });
    assertEquals(b.sources.map((s) => s.path), [join(t.root, "home/.kiro", CLI)]);
  } finally {
    t.cleanup();
  }
});

Deno.test("Prompt times are epoch seconds carried to later records, and the sidecar's created_at comes first", async () => {
  const t = tree({
    [`sessions/cli/${SID}.json`]: JSON.stringify({ created_at: "2026-11-01T09:00:00Z" }),
    [CLI]: jsonl(reply("before any prompt"), prompt("p", T0), reply("a"), result("x", [text("o")])),
  });
  try {
    const { sessions } = await parseCli(t.root);
    assertEquals(sessions[0].events.map((e) => e.time), [
      Date.parse("2026-11-01T09:00:00Z"),
      T0 * 1000,
      T0 * 1000,
      T0 * 1000,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("AssistantMessage records sharing a message_id join into one turn and thinking is dropped", async () => {
  const t = tree({
    [CLI]: jsonl(
      prompt("go"),
      rec("AssistantMessage", {
        message_id: "m1",
        content: [{ kind: "thinking", data: { text: "secret", signature: "s" } }, text("Hel")],
      }),
      reply("lo ", "m1"),
      reply("world.", "m1"),
      reply("Second turn.", "m2"),
      reply("No id."),
      reply("No id again."),
    ),
  });
  try {
    const { sessions } = await parseCli(t.root);
    assertEquals(texts(sessions[0], "assistant"), [
      "Hello world.",
      "Second turn.",
      "No id.",
      "No id again.",
    ]);
    assert(!JSON.stringify(sessions).includes("secret"));
  } finally {
    t.cleanup();
  }
});

Deno.test("tool uses become calls with command, paths, edits and writes, and results carry exit and error status", async () => {
  const t = tree({
    [`sessions/cli/${SID}.json`]: JSON.stringify({ cwd: "/w/api" }),
    [CLI]: jsonl(
      prompt("go"),
      use("t1", "execute_bash", { command: "make test" }),
      result("t1", [{
        kind: "json",
        data: { exit_status: "2", stdout: "", stderr: "make: *** [test] Error 2" },
      }]),
      use("t2", "fs_read", { path: "a.rs" }),
      use("t3", "write", { command: "insert", path: "b.rs", content: "// note\n" }),
      use("t4", "fs_write", {
        command: "str_replace",
        path: "/abs/c.rs",
        old_str: "x",
        new_str: "y",
      }),
      use("t5", "write", { command: "create", path: "d.md", content: "hi\n" }),
      use("t6", "@git/status", { repo: "." }),
      result("t6", [text("no such server")], "error"),
    ),
  });
  try {
    const { sessions } = await parseCli(t.root);
    const calls = sessions[0].events.filter((e) => e.kind === "tool_call").map((e) => e.tool!);
    assertEquals(calls[0].command, "make test");
    assertEquals(calls[1].paths, ["/w/api/a.rs"]);
    assertEquals(calls[2].edits, [{ path: "/w/api/b.rs", old: "", new: "// note\n" }]);
    assertEquals(calls[3].edits, [{ path: "/abs/c.rs", old: "x", new: "y" }]);
    assertEquals(calls[4].writes, [{ path: "/w/api/d.md", content: "hi\n" }]);
    assertEquals([calls[5].name, calls[5].command, calls[5].paths], [
      "@git/status",
      undefined,
      undefined,
    ]);
    const res = sessions[0].events.filter((e) => e.kind === "tool_result");
    assertEquals([res[0].text, res[0].result], ["make: *** [test] Error 2", {
      callId: "t1",
      exit: 2,
      isError: false,
    }]);
    assertEquals(res[1].result, { callId: "t6", isError: true });
  } finally {
    t.cleanup();
  }
});

Deno.test("the sidecar gives id, cwd, title, model and parent, and a missing sidecar leaves the file stem", async () => {
  const t = tree({
    [`sessions/cli/${SID}.json`]: JSON.stringify({
      session_id: "kiro-session-1",
      cwd: "/w/api",
      title: "Fix it",
      parent_session_id: "kiro-parent",
      session_state: { rts_model_state: { model_info: { model_id: "claude-sonnet-4.5" } } },
    }),
    [CLI]: jsonl(prompt("a")),
    "sessions/cli/bare.jsonl": jsonl(prompt("b")),
  });
  try {
    const run = await runParser(kiro, testEnv("/nowhere", { DEJA_KIRO_ROOT: t.root }));
    const a = run.sessions.find((s) => texts(s, "user")[0] === "a")!;
    assertEquals([a.id, a.project, a.title, a.model, a.parent], [
      "kiro-session-1",
      "/w/api",
      "Fix it",
      "claude-sonnet-4.5",
      "kiro-parent",
    ]);
    const b = run.sessions.find((s) => texts(s, "user")[0] === "b")!;
    assertEquals([b.id, b.project], ["bare", undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("IDE messages.jsonl reads payload and flat lines, ignores bookkeeping and counts unknown types", async () => {
  const dir = "sessions/ws/sess_9";
  const t = tree({
    [`${dir}/session.json`]: JSON.stringify({
      id: "sess_9",
      workspacePaths: ["/w/web"],
      createdAt: "2026-11-03T08:00:00Z",
    }),
    [`${dir}/messages.jsonl`]: jsonl(
      { timestamp: "2026-11-03T08:00:01Z", payload: { type: "user", content: "make it blue" } },
      { timestamp: "2026-11-03T08:00:02Z", payload: { type: "turn_end" } },
      { timestamp: "2026-11-03T08:00:03Z", role: "assistant", content: "done" },
      { timestamp: "2026-11-03T08:00:04Z", payload: { type: "telepathy", content: "?" } },
    ),
  });
  try {
    const { sessions, ctx } = await parseOne(
      kiro,
      src(join(t.root, dir, "messages.jsonl"), "ide"),
      testEnv(t.root),
    );
    assertEquals([sessions[0].id, sessions[0].project], ["sess_9", "/w/web"]);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [["user", "make it blue"], [
      "assistant",
      "done",
    ]]);
    assertEquals(ctx.counts, { unknown_record: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test(".chat files drop the <identity> preamble, keep inline tool uses as calls and decode the workspace folder", async () => {
  const ws = btoa("/w/site");
  const t = tree({
    [`s/${ws}/e1.chat`]: JSON.stringify({
      executionId: "e1",
      chat: [
        { role: "human", content: "<identity>You are Kiro</identity>" },
        { role: "human", content: "add a footer" },
        {
          role: "bot",
          content: "On it.<tool_use><name>fsWrite</name><path>f.html</path></tool_use>",
        },
      ],
      metadata: { modelId: "auto", startTime: 1793700000, endTime: 1793700060 },
    }),
    "s/x/bad.chat": "{not json",
    "s/x/empty.chat": "",
  });
  try {
    const env = testEnv(t.root);
    const chatSrc = (p: string): SourceRef => ({
      harness: "kiro",
      path: join(t.root, p),
      kind: "document",
      hint: { layout: "chat" },
    });
    const { sessions } = await parseOne(kiro, chatSrc(`s/${ws}/e1.chat`), env);
    const s = sessions[0];
    assertEquals([s.id, s.project, s.started, s.updated], [
      "e1",
      "/w/site",
      1793700000000,
      1793700060000,
    ]);
    assertEquals(s.events.map((e) => [e.kind, e.text, e.tool?.name]), [
      ["user", "add a footer", undefined],
      ["assistant", "On it.", undefined],
      ["tool_call", "", "fsWrite"],
    ]);
    assertEquals((await parseOne(kiro, chatSrc("s/x/bad.chat"), env)).ctx.counts, {
      malformed_json: 1,
    });
    assertEquals((await parseOne(kiro, chatSrc("s/x/empty.chat"), env)).ctx.counts, { empty: 1 });
    assertEquals(decodeWorkspace("not base64!"), undefined);
    assertEquals(decodeWorkspace(btoa("relative/path")), undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty CLI log yields no session and no error", async () => {
  const t = tree({ [CLI]: "" });
  try {
    const { sessions, ctx } = await parseCli(t.root);
    assertEquals([sessions.length, ctx.endOffset], [0, 0]);
  } finally {
    t.cleanup();
  }
});

Deno.test("truncated last line is left for the next run and a later append completes it", async () => {
  const head = jsonl(prompt("first"));
  const tail = JSON.stringify(reply("second", "m1"));
  const t = tree({ [CLI]: head + tail.slice(0, 25) });
  try {
    const a = await parseCli(t.root);
    assertEquals(a.ctx.endOffset, Buffer.byteLength(head));
    appendFileSync(join(t.root, CLI), tail.slice(25) + "\n");
    const b = await parseCli(t.root, { offset: a.ctx.endOffset, state: a.ctx.endState });
    assertEquals(texts(b.sessions[0], "assistant"), ["second"]);
    assertEquals(b.sessions[0].events[0].time, T0 * 1000);
    assertEquals(b.ctx.endOffset, statSync(join(t.root, CLI)).size);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and unknown lines are counted and the rest still parses", async () => {
  const enc = new TextEncoder();
  const t = tree({
    [CLI]: Buffer.concat([
      enc.encode(jsonl({ mystery: true })),
      enc.encode(jsonl(prompt("before"))),
      enc.encode("{not json\n"),
      new Uint8Array([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      enc.encode(jsonl(rec("Checkpoint", {}), reply("after"))),
    ]),
  });
  try {
    const { sessions, ctx } = await parseCli(t.root);
    assertEquals(sessions[0].events.map((e) => e.text), ["before", "after"]);
    assertEquals(ctx.counts, { unknown_record: 3, malformed_json: 1, invalid_utf8: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed parse keeps the session id and grows a streamed reply in place when it continues", async () => {
  const t = tree({
    [`sessions/cli/${SID}.json`]: JSON.stringify({ session_id: "kiro-s" }),
    [CLI]: jsonl(prompt("go"), reply("Part one, ", "m1")),
  });
  try {
    const a = await parseCli(t.root);
    appendFileSync(join(t.root, CLI), jsonl(reply("part two.", "m1")));
    const b = await parseCli(t.root, {
      offset: a.ctx.endOffset,
      state: JSON.parse(JSON.stringify(a.ctx.endState)),
    });
    const full = await parseCli(t.root);
    assertEquals(b.sessions[0].id, full.sessions[0].id);
    const [re, wh] = [b.sessions[0].events[0], full.sessions[0].events[1]];
    assertEquals([re.key, re.text, re.time], [wh.key, "Part one, part two.", T0 * 1000]);
  } finally {
    t.cleanup();
  }
});

const REAL = join(REPO, "../shared/realdata/kiro");

Deno.test({
  name: "public Kiro stores parse into sessions without errors when realdata holds one",
  ignore: !existsSync(REAL),
  fn: async () => {
    const run = await runParser(kiro, testEnv("/nowhere", { DEJA_KIRO_ROOT: REAL }));
    assertEquals(run.errors, {});
    assert(run.sessions.length > 0);
  },
});

Deno.test("kiro ls, glob and grep name a directory searched, not a file read", () => {
  for (const name of ["ls", "glob", "grep"]) {
    const input = { path: "src", pattern: "*.ts" };
    const tool = kiroToolCall({ name, toolUseId: "t1", input }, "/w/app");
    assertEquals(tool.paths, undefined, name);
    assertEquals(tool.input, input);
  }
  assertEquals(kiroToolCall({ name: "read", input: { path: "a.ts" } }, "/w/app").paths, [
    "/w/app/a.ts",
  ]);
});
