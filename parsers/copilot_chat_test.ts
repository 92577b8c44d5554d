import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env, Event, Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { copilot_chat } from "./copilot_chat.ts";
import { applyEntry, chatEvents } from "./_copilot_chat_log.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/copilot_chat");
const T = 1795500000000;

async function withFixture(fn: (root: string, env: Env) => Promise<void>): Promise<void> {
  const fx = materialize(FIXTURE);
  try {
    await fn(fx.root, testEnv(join(fx.root, "__home__"), { DEJA_COPILOT_CHAT_ROOT: fx.root }));
  } finally {
    fx.cleanup();
  }
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-cchat-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

function byCall(events: Event[], id: string): { call: Event; result?: Event } {
  const call = events.find((e) => e.kind === "tool_call" && e.tool?.id === id);
  assert(call, `no call ${id}`);
  return { call, result: events.find((e) => e.kind === "tool_result" && e.result?.callId === id) };
}

const src = (path: string, project?: string): SourceRef => ({
  harness: "copilot_chat",
  path,
  kind: "document",
  ...(project ? { hint: { project } } : {}),
});

const line = (o: unknown) => JSON.stringify(o) + "\n";
const initial = (requests: unknown[] = []) => ({
  kind: 0,
  v: { version: 3, sessionId: "s9", creationDate: T, requests },
});
const request = (text: string, response: unknown[] = []) => ({
  requestId: text,
  timestamp: T + 1000,
  message: { text },
  response,
});

function logAt(dir: string, name = "s9.jsonl"): string {
  const p = join(dir, "chatSessions", name);
  mkdirSync(join(p, ".."), { recursive: true });
  return p;
}

// ---- discovery ---------------------------------------------------------------

Deno.test("discover lists chat sessions of every workspace and empty windows with the workspace folder as project", async () => {
  await withFixture(async (root, env) => {
    const d = await copilot_chat.discover({ env, knownProjects: [] });
    assertEquals(d.sources.map((s) => [s.path.replace(root, ""), s.hint?.project]), [
      ["/globalStorage/emptyWindowChatSessions/s-empty-3.jsonl", undefined],
      ["/workspaceStorage/ws-web/chatSessions/s-both-4.jsonl", "/w/web"],
      ["/workspaceStorage/ws-web/chatSessions/s-legacy-2.json", "/w/web"],
      ["/workspaceStorage/ws-web/chatSessions/s-log-1.jsonl", "/w/web"],
      ["/workspaceStorage/ws-web/chatSessions/s-noinit-5.jsonl", "/w/web"],
    ]);
    assert(
      d.sources.every((s) => s.kind === "document"),
      "a chat log must never be resumed from an offset",
    );
  });
});

Deno.test("discover looks in the User dir of VS Code, Insiders and VSCodium when no override is set", async () => {
  await withTemp(async (home) => {
    for (const app of ["Code", "Code - Insiders", "VSCodium"]) {
      const ws = join(home, ".config", app, "User", "workspaceStorage", "h1");
      mkdirSync(join(ws, "chatSessions"), { recursive: true });
      writeFileSync(
        join(ws, "workspace.json"),
        JSON.stringify({ folder: `file:///w/${app.replaceAll(" ", "")}` }),
      );
      writeFileSync(join(ws, "chatSessions", "a.jsonl"), line(initial()));
    }
    const nw = join(
      home,
      ".config",
      "Code",
      "User",
      "workspaceStorage",
      "no-workspace",
      "chatSessions",
    );
    mkdirSync(nw, { recursive: true });
    writeFileSync(join(nw, "old.json"), "{}");
    const d = await copilot_chat.discover({ env: testEnv(home), knownProjects: [] });
    assertEquals(d.sources.map((s) => s.hint?.project ?? s.path.split("/").at(-1)), [
      "/w/Code",
      "old.json",
      "/w/Code-Insiders",
      "/w/VSCodium",
    ]);
  });
});

// ---- the mutation log -----------------------------------------------------------

Deno.test("applyEntry replays set, push with truncation and delete at a path", () => {
  const ctx = new SourceCtx(testEnv("/h"));
  let st = applyEntry(undefined, { kind: 0, v: { a: { list: [1, 2, 3] }, b: 1 } }, "w", ctx);
  st = applyEntry(st, { kind: 1, k: ["a", "x"], v: "y" }, "w", ctx);
  st = applyEntry(st, { kind: 2, k: ["a", "list"], v: [9], i: 1 }, "w", ctx);
  st = applyEntry(st, { kind: 2, k: ["a", "new"], v: [1] }, "w", ctx);
  st = applyEntry(st, { kind: 3, k: ["b"] }, "w", ctx);
  assertEquals(st, { a: { list: [1, 9], x: "y", new: [1] } });
  assertEquals(ctx.counts, {});
});

Deno.test("applyEntry counts an entry before the initial state, an unknown kind and a path that does not exist", () => {
  const ctx = new SourceCtx(testEnv("/h"));
  assertEquals(applyEntry(undefined, { kind: 1, k: ["a"], v: 1 }, "w", ctx), undefined);
  const st = applyEntry(undefined, { kind: 0, v: { a: [] } }, "w", ctx);
  applyEntry(st, { kind: 9, k: ["a"] }, "w", ctx);
  applyEntry(st, { kind: 1, k: ["a", 4, "b"], v: 1 }, "w", ctx);
  applyEntry(st, { k: ["a"] }, "w", ctx);
  assertEquals(ctx.counts, { unknown_record: 2, bad_shape: 2 });
  assertEquals(st, { a: [] });
});

// ---- mapping ----------------------------------------------------------------------

Deno.test("parse rebuilds the session from the log and drops the discarded request and the input draft", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const s = session(sessions, "s-log-1");
    assertEquals(s.title, "Fix the build");
    assertEquals(s.project, "/w/web");
    assertEquals([s.started, s.updated], [T, T + 10000]);
    assertEquals(s.model, "copilot/gpt-4.1");
    const text = s.events.map((e) => e.text).join("\n");
    for (const gone of ["DISCARDED-REQUEST", "DRAFT-NOT-SENT", "SECRET-THOUGHT"]) {
      assert(!text.includes(gone), gone);
    }
    assertEquals(s.events.filter((e) => e.kind === "user").map((e) => e.text), [
      "fix the build",
      "now document the fix",
    ]);
  });
});

Deno.test("parse joins consecutive markdown parts into one assistant event per run of prose", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const said = session(sessions, "s-log-1").events.filter((e) => e.kind === "assistant").map((
      e,
    ) => e.text);
    assertEquals(said, [
      "Running the tests first.",
      "Fixed the off-by-one in `src/app.ts`. Marker: zebrafinch-copilot-chat-fixture",
      "The docs are written.",
    ]);
  });
});

Deno.test("parse takes a terminal call's command and exit from toolSpecificData and its args from the tool-call round", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const { call, result } = byCall(session(sessions, "s-log-1").events, "t1");
    assertEquals(call.tool?.command, "npm test");
    assertEquals(call.tool?.input, {
      command: "npm test",
      explanation: "run the tests",
      isBackground: false,
    });
    assertEquals(result?.result, { callId: "t1", exit: 1, isError: false });
    assertEquals(result?.text, "1 failing: expected 3, got 2");
  });
});

Deno.test("parse maps contributed tool ids to edits and paths and prefers the extension's recorded result", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const ev = session(sessions, "s-log-1").events;
    assertEquals(byCall(ev, "t2").call.tool?.edits, [
      { path: "/w/web/src/app.ts", old: "return a - 1;", new: "return a;" },
    ]);
    assertEquals(byCall(ev, "t2").result?.text, "The file was edited");
    assertEquals(byCall(ev, "t3").call.tool?.paths, ["/w/web/src/app.ts"]);
    assertEquals(byCall(ev, "t3").result?.text, "export function total(a) {\n  return a;\n}");
  });
});

Deno.test("parse files subagent tool calls in their own session whose parent is the chat", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const sub = session(sessions, "s-log-1:sub:sa1");
    assertEquals(sub.parent, "s-log-1");
    assertEquals(sub.title, "Write the docs");
    assertEquals(byCall(sub.events, "sa1-c1").call.tool?.writes, [
      { path: "/w/web/docs/fix.md", content: "# Fix\nThe total no longer subtracts one.\n" },
    ]);
    assertEquals(byCall(sub.events, "sa1-c2").call.tool?.command, "git status --short");
    const main = session(sessions, "s-log-1");
    assert(!main.events.some((e) => e.tool?.id?.startsWith("sa1-")));
    assertEquals(byCall(main.events, "sa1").result?.text, "Wrote docs/fix.md");
  });
});

Deno.test("parse reads the legacy whole-file .json and keeps an inline reference's name in the prose", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    const s = session(sessions, "s-legacy-2");
    assertEquals(s.events.map((e) => e.text), [
      "explain parse()",
      "`parse()` reads the store parse.ts and yields sessions.",
    ]);
  });
});

Deno.test("parse reads only the .jsonl when a session also has a .json beside it, and files empty-window chats without a project", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(copilot_chat, env);
    assert(!sessions.some((s) => s.events.some((e) => e.text === "STALE-JSON-COPY")));
    assertEquals(session(sessions, "s-empty-3").project, undefined);
    assert(!sessions.some((s) => s.id === "s-moved"), "transferred sessions are not read");
  });
});

Deno.test("parse counts the bad entries of the fixture log and keeps the good ones", async () => {
  await withFixture(async (root, env) => {
    const run = await runParser(copilot_chat, env);
    assertEquals(run.skips[join(root, "workspaceStorage/ws-web/chatSessions/s-log-1.jsonl")], {
      bad_shape: 1,
      malformed_json: 1,
      unknown_record: 2,
    });
    assertEquals(run.skips[join(root, "workspaceStorage/ws-web/chatSessions/s-noinit-5.jsonl")], {
      unknown_record: 1,
    });
    assert(!run.sessions.some((s) => s.id === "s-noinit-5"));
  });
});

// ---- hostile inputs ------------------------------------------------------------------

Deno.test("parse counts an empty log file as empty and yields nothing", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    writeFileSync(p, "");
    const { sessions, ctx } = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
  });
});

Deno.test("parse reads every complete entry and passes over a truncated last line when the log is mid-write", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    writeFileSync(
      p,
      line(initial([request("kept")])) + '{"kind":2,"k":["requests"],"v":[{"message":{"text":"cut',
    );
    const { sessions, ctx } = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(sessions[0].events.map((e) => e.text), ["kept"]);
    // The tail is not a bad record, only an unfinished one (counted pending, not lost).
    assertEquals(ctx.counts, { partial_line: 1 });
  });
});

Deno.test("parse skips a malformed line and an invalid UTF-8 line mid-log and applies the entries after them", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    const enc = new TextEncoder();
    writeFileSync(
      p,
      new Uint8Array([
        ...enc.encode(line(initial())),
        ...enc.encode("{oops\n"),
        ...new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]),
        ...enc.encode(
          line({ kind: 2, k: ["requests"], v: [request("after the damage", [{ value: "ok" }])] }),
        ),
      ]),
    );
    const { sessions, ctx } = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(ctx.counts, { malformed_json: 2 });
    assertEquals(sessions[0].events.map((e) => e.text), ["after the damage", "ok"]);
  });
});

Deno.test("parse yields nothing and counts it when the first entry is not the initial state", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    writeFileSync(p, line({ kind: 2, k: ["requests"], v: [request("orphan")] }));
    const { sessions, ctx } = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_record: 1 });
  });
});

Deno.test("parse gives the same session id when the log is compacted into one initial entry", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    writeFileSync(
      p,
      line(initial()) + line({ kind: 2, k: ["requests"], v: [request("one", [{ value: "a" }])] }),
    );
    const before = await parseOne(copilot_chat, src(p), testEnv(dir));
    writeFileSync(p, line(initial([request("one", [{ value: "a" }])])));
    const after = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(
      after.sessions.map((s) => [s.id, s.events.map((e) => e.text)]),
      before.sessions.map((s) => [s.id, s.events.map((e) => e.text)]),
    );
  });
});

Deno.test("parse counts an unknown response part kind and a legacy .json that is not an object", async () => {
  await withTemp(async (dir) => {
    const p = logAt(dir);
    writeFileSync(p, line(initial([request("q", [{ kind: "telepathy" }, { value: "a" }])])));
    const a = await parseOne(copilot_chat, src(p), testEnv(dir));
    assertEquals(a.ctx.counts, { unknown_record: 1 });
    const j = logAt(dir, "list.json");
    writeFileSync(j, "[1, 2]");
    const b = await parseOne(copilot_chat, src(j), testEnv(dir));
    assertEquals([b.sessions.length, b.ctx.counts], [0, { bad_shape: 1 }]);
  });
});

Deno.test("fixture run equals expected.json when DEJA_COPILOT_CHAT_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "copilot_chat");
  assert(entry);
  const want = JSON.parse(await Deno.readTextFile(join(FIXTURE, "expected.json")));
  assertEquals(await fixtureRun(entry, copilot_chat), want);
});

Deno.test("a list_dir call (copilot_listDirectory) names a directory listed, not a file read", () => {
  const part = (id: string, toolId: string, path: string) => ({
    kind: "toolInvocationSerialized",
    toolId,
    toolCallId: id,
    isComplete: true,
    toolSpecificData: { kind: "input", rawInput: { path } },
  });
  const state = {
    requests: [{
      message: { text: "look" },
      response: [
        part("l1", "copilot_listDirectory", "src"),
        part("r1", "copilot_readFile", "src/a.ts"),
      ],
    }],
  };
  const ctx = new SourceCtx(testEnv("/h"));
  const ev = chatEvents(state, "/w/web", "w", ctx).byOwner.get("")!;
  const calls = ev.filter((e) => e.kind === "tool_call").map((e) => e.tool);
  assertEquals(calls.map((t) => [t?.id, t?.paths, t?.input]), [
    ["l1", undefined, { path: "src" }],
    ["r1", ["/w/web/src/a.ts"], { path: "src/a.ts" }],
  ]);
});
