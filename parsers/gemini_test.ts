import assert from "node:assert/strict";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { gemini } from "./gemini.ts";
import { tempDir } from "../tests/_tmp.ts";

const S = "11111111-2222-4333-8444-555555555555";
const META = {
  sessionId: S,
  projectHash: "ab",
  startTime: "2026-11-01T10:00:00.000Z",
  lastUpdated: "2026-11-01T10:00:00.000Z",
  kind: "main",
};

/** Writes `files` (relative path -> text) under a new temp dir. */
function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-gemini-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const src = (path: string): SourceRef => ({ harness: "gemini", path, kind: "document" });
const kinds = (s: Session) => s.events.map((e) => e.kind).join(",");
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

async function parseFile(root: string, rel: string) {
  return await parseOne(gemini, src(join(root, rel)), testEnv(root));
}

const CHAT = "tmp/proj/chats/session-2026-11-01T10-00-11111111.jsonl";
const user = (id: string, text: string, ts = "2026-11-01T10:00:01.000Z") => ({
  id,
  timestamp: ts,
  type: "user",
  content: [{ text }],
});
const model = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  timestamp: "2026-11-01T10:00:02.000Z",
  type: "gemini",
  content: text,
  model: "gemini-2.5-flash",
  ...extra,
});

Deno.test("discovery lists json and jsonl chats under tmp/*/chats and each project's prompt log when DEJA_GEMINI_ROOT is set", async () => {
  const t = tree({
    [CHAT]: jsonl(META),
    "tmp/proj/chats/sub-uuid/abc123.json": "{}",
    "tmp/proj/logs.json": "[]",
    "tmp/proj/checkpoints/c.json": "{}",
    "tmp/proj/chats/notes.txt": "x",
  });
  try {
    const d = await gemini.discover({
      env: testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root }),
      knownProjects: [],
    });
    assert.deepEqual(d.sources.map((s) => s.path.slice(t.root.length + 1)).sort(), [
      "tmp/proj/chats/session-2026-11-01T10-00-11111111.jsonl",
      "tmp/proj/chats/sub-uuid/abc123.json",
      "tmp/proj/logs.json",
    ]);
    assert.ok(d.sources.every((s) => s.kind === "document" && s.hint?.projectId === "proj"));
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery reads GEMINI_CLI_HOME/.gemini when GEMINI_CLI_HOME is set, else ~/.gemini", async () => {
  const t = tree({ [`cli/.gemini/${CHAT}`]: jsonl(META), [`home/.gemini/${CHAT}`]: jsonl(META) });
  try {
    const a = await gemini.discover({
      env: testEnv(join(t.root, "home"), { GEMINI_CLI_HOME: join(t.root, "cli") }),
      knownProjects: [],
    });
    assert.deepEqual(a.roots, [join(t.root, "cli/.gemini/tmp")]);
    assert.equal(a.sources.length, 1);
    const b = await gemini.discover({ env: testEnv(join(t.root, "home")), knownProjects: [] });
    assert.deepEqual(b.roots, [join(t.root, "home/.gemini/tmp")]);
    assert.equal(b.sources.length, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery drops the .json chat when a .jsonl holds the same sessionId", async () => {
  const doc = JSON.stringify({ ...META, messages: [user("u", "old json text")] });
  const t = tree({
    "tmp/p/chats/session-2026-11-01T10-00-11111111.json": doc,
    "tmp/p/chats/session-2026-11-01T10-00-11111111.jsonl": jsonl(META, user("u", "new jsonl text")),
    // resumed under another minute stamp, same short id and sessionId
    "tmp/q/chats/session-2026-11-01T10-00-11111111.json": doc,
    "tmp/q/chats/session-2026-11-02T09-00-11111111.jsonl": jsonl(META, user("u", "new jsonl text")),
    // same short id, different session: both kept
    "tmp/r/chats/session-2026-11-01T10-00-11111111.json": JSON.stringify({
      ...META,
      sessionId: "11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
      messages: [user("u", "r json text")],
    }),
    "tmp/r/chats/session-2026-11-02T09-00-11111111.jsonl": jsonl({
      ...META,
      sessionId: "11111111-0000-4000-8000-000000000000",
    }),
  });
  try {
    const env = testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root });
    const run = await runParser(gemini, env);
    const rel = run.discovery.sources.map((s) => s.path.slice(t.root.length + 1)).sort();
    assert.deepEqual(rel, [
      "tmp/p/chats/session-2026-11-01T10-00-11111111.jsonl",
      "tmp/q/chats/session-2026-11-02T09-00-11111111.jsonl",
      "tmp/r/chats/session-2026-11-01T10-00-11111111.json",
      "tmp/r/chats/session-2026-11-02T09-00-11111111.jsonl",
    ]);
    const s = run.sessions.find((x) => x.id === S)!;
    assert.ok(!JSON.stringify(run.sessions).includes("old json text"));
    assert.deepEqual(texts(s, "user"), ["new jsonl text"]);
    assert.ok(run.sessions.some((x) => texts(x, "user").includes("r json text")));
  } finally {
    t.cleanup();
  }
});

Deno.test("parse of a .json chat yields nothing when its .jsonl twin exists", async () => {
  const t = tree({
    "tmp/p/chats/session-x-11111111.json": JSON.stringify({
      ...META,
      messages: [user("u", "old")],
    }),
    "tmp/p/chats/session-x-11111111.jsonl": jsonl(META, user("u", "new")),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root, "tmp/p/chats/session-x-11111111.json");
    assert.equal(sessions.length, 0);
    assert.equal(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("roles map user to user, gemini/model to assistant, and info, error and warning to notices", async () => {
  const t = tree({
    "tmp/p/chats/a.json": JSON.stringify({
      ...META,
      messages: [
        { id: "i", type: "info", content: "Update successful!" },
        user("u", "question?"),
        model("g", "answer one"),
        {
          id: "m",
          timestamp: "2026-11-01T10:00:03.000Z",
          type: "model",
          content: [{ text: "answer two" }],
        },
        { id: "e", type: "error", content: "quota" },
        { id: "w", type: "warning", content: "slow" },
      ],
    }),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root, "tmp/p/chats/a.json");
    assert.equal(kinds(sessions[0]), "notice,user,assistant,assistant,notice,notice");
    assert.deepEqual(texts(sessions[0], "assistant"), ["answer one", "answer two"]);
    assert.deepEqual(texts(sessions[0], "notice"), [
      "Update successful!",
      "error: quota",
      "warning: slow",
    ]);
    assert.equal(ctx.skipped, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("unknown message type is counted as unknown_record when it appears", async () => {
  const t = tree({
    [CHAT]: jsonl(META, user("u", "hi"), { id: "z", type: "compression", content: "x" }),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root, CHAT);
    assert.equal(kinds(sessions[0]), "user");
    assert.equal(ctx.counts.unknown_record, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("user turns are dropped when they are the session_context preamble or only function responses", async () => {
  const fr = [{
    functionResponse: { id: "c1", name: "run_shell_command", response: { output: "ok" } },
  }];
  const t = tree({
    [CHAT]: jsonl(
      META,
      user("ctx", "<session_context>\nThis is the Gemini CLI.\n</session_context>"),
      user("u", "real prompt"),
      { id: "fr", timestamp: "2026-11-01T10:00:03.000Z", type: "user", content: fr },
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.deepEqual(texts(sessions[0], "user"), ["real prompt"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("thoughts are not indexed when a gemini message carries them", async () => {
  const t = tree({
    [CHAT]: jsonl(
      META,
      model("g", "visible", { thoughts: [{ subject: "s", description: "hidden-thought" }] }),
      {
        id: "g2",
        type: "gemini",
        content: [{ text: "hidden-part", thought: true }, { text: "shown-part" }],
      },
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    const all = JSON.stringify(sessions[0].events);
    assert.ok(!all.includes("hidden-thought") && !all.includes("hidden-part"));
    assert.deepEqual(texts(sessions[0], "assistant"), ["visible", "shown-part"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("jsonl replay replaces a message in place when its id is written again", async () => {
  const t = tree({
    [CHAT]: jsonl(META, model("g", "first draft"), user("u", "later"), model("g", "final text")),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.equal(kinds(sessions[0]), "assistant,user");
    assert.deepEqual(texts(sessions[0], "assistant"), ["final text"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("jsonl $set replaces the accumulated messages when it carries a messages list", async () => {
  const t = tree({
    [CHAT]: jsonl(
      META,
      user("u0", "dropped by snapshot"),
      {
        $set: { messages: [user("u1", "from snapshot")], lastUpdated: "2026-11-01T11:00:00.000Z" },
      },
      model("g1", "after snapshot"),
      { $set: { messages: [{ id: "x", note: "no type" }] } },
      { $set: { lastUpdated: "2026-11-01T12:00:00.000Z", summary: "Snapshot test" } },
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    const s = sessions[0];
    assert.deepEqual(s.events.map((e) => e.text), ["from snapshot", "after snapshot"]);
    assert.equal(s.updated, Date.parse("2026-11-01T12:00:00.000Z"));
    assert.equal(s.title, "Snapshot test");
  } finally {
    t.cleanup();
  }
});

Deno.test("jsonl $set with an empty messages list clears the session when nothing follows", async () => {
  const t = tree({ [CHAT]: jsonl(META, user("u", "gone"), { $set: { messages: [] } }) });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.equal(sessions.length, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("jsonl $rewindTo drops that message and everything after it when the id is known", async () => {
  const t = tree({
    [CHAT]: jsonl(
      META,
      user("u1", "keep"),
      model("g1", "rewound"),
      user("u2", "rewound too"),
      { $rewindTo: "g1" },
      { $rewindTo: "never-written" },
      model("g2", "replacement"),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.deepEqual(sessions[0].events.map((e) => e.text), ["keep", "replacement"]);
  } finally {
    t.cleanup();
  }
});

const shell = (id: string, command: string, output: string, status = "success") => ({
  id,
  name: "run_shell_command",
  args: { command },
  result: [{ functionResponse: { id, name: "run_shell_command", response: { output } } }],
  status,
  timestamp: "2026-11-01T10:00:05.000Z",
});

Deno.test("run_shell_command maps to a command with the exit code the output records, 0 for a success without one", async () => {
  const t = tree({
    [CHAT]: jsonl(
      META,
      model("g", "", {
        toolCalls: [
          shell(
            "c1",
            "cat missing.txt",
            "<untrusted_context>\nOutput: cat: missing.txt: No such file\nExit Code: 1\nProcess Group PGID: 9\n</untrusted_context>",
          ),
          shell("c2", "ls", "Output: a.txt\nError: (none)\nExit Code: (none)\nSignal: (none)"),
          // 0.61.0 writes no Exit Code line for 0 (shell.ts): a success is exit 0 ...
          shell(
            "c3",
            "ls",
            "<untrusted_context>\nOutput: b.txt\nProcess Group PGID: 7\n</untrusted_context>",
          ),
          // ... but not a signal, an error, a call that went to the background, or one not a success.
          shell("c4", "sleep 9", "Output: (empty)\nSignal: 15"),
          shell("c5", "npm start &", "Output: ready\nBackground PIDs: 4242"),
          shell("c6", "ls", "Output: b.txt", "error"),
        ],
      }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    const ev = sessions[0].events;
    assert.equal(kinds(sessions[0]), "tool_call,tool_result,".repeat(6).slice(0, -1));
    assert.equal(ev[0].tool?.command, "cat missing.txt");
    assert.equal(ev[0].tool?.id, "c1");
    assert.deepEqual(ev[1].result, { callId: "c1", exit: 1 });
    assert.equal(ev[1].text, "cat: missing.txt: No such file\nExit Code: 1");
    assert.deepEqual(ev[3].result, { callId: "c2" });
    assert.equal(ev[3].text, "a.txt");
    assert.deepEqual(ev[5].result, { callId: "c3", exit: 0 });
    assert.equal(ev[5].text, "b.txt");
    assert.equal(ev[7].result?.exit, undefined);
    assert.equal(ev[9].result?.exit, undefined);
    assert.equal(ev[11].result?.exit, undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("file tools map to edits, writes and paths resolved against the project when paths are relative", async () => {
  const call = (id: string, name: string, args: Record<string, unknown>, status = "success") => ({
    id,
    name,
    args,
    status,
    result: [{
      functionResponse: {
        id,
        name,
        response: status === "error" ? { error: "denied" } : { output: "ok" },
      },
    }],
  });
  const t = tree({
    "projects.json": JSON.stringify({ projects: { "/home/dev/app": "proj" } }),
    [CHAT]: jsonl(
      META,
      model("g", "editing", {
        toolCalls: [
          call("e1", "replace", {
            file_path: "README.md",
            old_string: "hello world",
            new_string: "hello there",
          }),
          call(
            "w1",
            "write_file",
            { file_path: "/home/dev/app/new.txt", content: "body\n" },
            "error",
          ),
          call("r1", "read_file", { absolute_path: "src/a.ts" }),
          call("x1", "edit", { file_path: "C:\\work\\b.ts", old_string: "a", new_string: "b" }),
        ],
      }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    const calls = sessions[0].events.filter((e) => e.kind === "tool_call").map((e) => e.tool!);
    assert.deepEqual(calls[0].edits, [{
      path: "/home/dev/app/README.md",
      old: "hello world",
      new: "hello there",
    }]);
    assert.deepEqual(calls[1].writes, [{ path: "/home/dev/app/new.txt", content: "body\n" }]);
    assert.deepEqual(calls[2].paths, ["/home/dev/app/src/a.ts"]);
    assert.deepEqual(calls[3].edits, [{ path: "C:\\work\\b.ts", old: "a", new: "b" }]);
    const errs = sessions[0].events.filter((e) => e.kind === "tool_result" && e.result?.isError);
    assert.deepEqual(errs.map((e) => e.result?.callId), ["w1"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("project comes from projects.json by slug, by sha256 or from .project_root, else stays unknown", async () => {
  const hash = "1ecde324149502bcde83580d4699e94971661cbe38a590df5841c99c26aed3e9"; // sha256("/home/dev/hashed-app")
  const chat = (
    dir: string,
  ) => [`tmp/${dir}/chats/session-x-11111111.jsonl`, jsonl(META, user("u", "hi"))];
  const t = tree(Object.fromEntries([
    [
      "projects.json",
      JSON.stringify({
        projects: { "/home/dev/slug-app": "slug", "/home/dev/hashed-app": "hashed-app" },
      }),
    ],
    chat("slug"),
    chat(hash),
    chat("marked"),
    ["tmp/marked/.project_root", "/home/dev/marked-app\n"],
    chat("nothing"),
  ]));
  try {
    const want: Record<string, string | undefined> = {
      slug: "/home/dev/slug-app",
      [hash]: "/home/dev/hashed-app",
      marked: "/home/dev/marked-app",
      nothing: undefined,
    };
    for (const [dir, project] of Object.entries(want)) {
      const { sessions } = await parseFile(t.root, `tmp/${dir}/chats/session-x-11111111.jsonl`);
      assert.equal(sessions[0].project, project, dir);
    }
  } finally {
    t.cleanup();
  }
});

// Trial 51 (realdata twynek): the subagent runner's out-of-turns message was quoted by the
// digest as the user's last request.
Deno.test("a subagent's out-of-turns message from the runner is a notice, not the user's", async () => {
  const grace = "You have exceeded the maximum number of turns. You have one final chance to " +
    "complete the task with a short grace period. You MUST call `complete_task` immediately.";
  const quoted = "Explain why it said: You have exceeded the maximum number of turns.";
  const t = tree({
    [`tmp/p/chats/${S}/twynek.json`]: JSON.stringify({
      ...META,
      sessionId: "twynek",
      kind: "subagent",
      messages: [
        user("u1", "Investigate failing dependencies."),
        user("u2", grace),
        user("u3", quoted),
      ],
    }),
  });
  try {
    const s = (await parseFile(t.root, `tmp/p/chats/${S}/twynek.json`)).sessions[0];
    assert.deepEqual(texts(s, "user"), ["Investigate failing dependencies.", quoted]);
    assert.deepEqual(texts(s, "notice"), [grace]);
  } finally {
    t.cleanup();
  }
});

Deno.test("subagent chat gets the folder's session id as parent when the folder is a UUID", async () => {
  const sub = (sid: string) =>
    JSON.stringify({ ...META, sessionId: sid, kind: "subagent", messages: [user("u", "task")] });
  const t = tree({
    [`tmp/p/chats/${S}/twynek.json`]: sub("twynek"),
    [`tmp/p/chats/${S}/same.json`]: sub(S),
    "tmp/p/chats/skill-extraction-67084600/mrp1k5.json": sub("mrp1k5"),
  });
  try {
    const a = (await parseFile(t.root, `tmp/p/chats/${S}/twynek.json`)).sessions[0];
    assert.equal(a.parent, S);
    assert.equal(a.id, "twynek");
    const b = (await parseFile(t.root, `tmp/p/chats/${S}/same.json`)).sessions[0];
    assert.equal(b.parent, S);
    assert.notEqual(b.id, S);
    // Gemini's background skill extraction names no session: filed under its folder's name.
    const c =
      (await parseFile(t.root, "tmp/p/chats/skill-extraction-67084600/mrp1k5.json")).sessions[0];
    assert.equal(c.parent, "skill-extraction-67084600");
  } finally {
    t.cleanup();
  }
});

Deno.test("message time falls back to the session start when the record has no timestamp", async () => {
  const t = tree({ [CHAT]: jsonl(META, { id: "u", type: "user", content: "no time" }) });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.equal(sessions[0].events[0].time, Date.parse(META.startTime));
    assert.equal(sessions[0].started, Date.parse(META.startTime));
  } finally {
    t.cleanup();
  }
});

Deno.test("non-chat JSON yields nothing when it is logs.json or a checkpoint, and is counted when unknown", async () => {
  const t = tree({
    "tmp/p/chats/logs.json": JSON.stringify([{
      sessionId: S,
      messageId: 0,
      type: "user",
      message: "x",
    }]),
    "tmp/p/chats/ckpt.json": JSON.stringify({
      clientHistory: [],
      toolCall: { name: "write_file" },
      commitHash: "a",
    }),
    "tmp/p/chats/other.json": JSON.stringify({ hello: "world" }),
  });
  try {
    for (const [f, counts] of [["logs.json", {}], ["ckpt.json", { not_session: 1 }]] as const) {
      const { sessions, ctx } = await parseFile(t.root, `tmp/p/chats/${f}`);
      assert.equal(sessions.length, 0);
      assert.deepEqual({ ...ctx.counts }, counts, f);
    }
    const { ctx } = await parseFile(t.root, "tmp/p/chats/other.json");
    assert.equal(ctx.counts.unknown_record, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("empty chat files yield no session and count empty when the file has no bytes", async () => {
  const t = tree({ "tmp/p/chats/a.json": "", [CHAT]: "" });
  try {
    for (const f of ["tmp/p/chats/a.json", CHAT]) {
      const { sessions, ctx } = await parseFile(t.root, f);
      assert.equal(sessions.length, 0);
      assert.equal(ctx.counts.empty, 1, f);
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("truncated last line is left for the next run when the harness is still writing it", async () => {
  const head = jsonl(META, user("u", "first"));
  const tail = JSON.stringify(model("g", "second"));
  const t = tree({ [CHAT]: head + tail.slice(0, 20) });
  try {
    const a = await parseFile(t.root, CHAT);
    assert.equal(kinds(a.sessions[0]), "user");
    assert.equal(a.ctx.endOffset, Buffer.byteLength(head));
    appendFileSync(join(t.root, CHAT), tail.slice(20) + "\n");
    const b = await parseFile(t.root, CHAT);
    assert.equal(kinds(b.sessions[0]), "user,assistant");
    assert.equal(b.ctx.endOffset, statSync(join(t.root, CHAT)).size);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and unknown lines are counted when the rest still parses", async () => {
  const bad = new Uint8Array([
    0x7b,
    0x22,
    0x69,
    0x64,
    0x22,
    0x3a,
    0x22,
    0xff,
    0xfe,
    0x22,
    0x7d,
    0x0a,
  ]); // {"id":"\xff\xfe"}
  const enc = new TextEncoder();
  const body = [
    enc.encode(jsonl({ mystery: true })), // unknown first record
    enc.encode(jsonl(META, user("u", "before"))),
    enc.encode("{not json\n"),
    bad,
    enc.encode(jsonl(model("g", "after"))),
  ];
  const t = tree({ [CHAT]: Buffer.concat(body) });
  try {
    const { sessions, ctx } = await parseFile(t.root, CHAT);
    assert.equal(sessions[0].id, S);
    assert.deepEqual(sessions[0].events.map((e) => e.text), ["before", "after"]);
    assert.equal(ctx.counts.unknown_record, 2); // the repaired line is kept
    assert.equal(ctx.counts.malformed_json, 1);
    assert.equal(ctx.counts.invalid_utf8, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("a parse given a resume offset replays the whole file when the chat is a document", async () => {
  const t = tree({ [CHAT]: jsonl(META, user("u", "one"), model("g", "two")) });
  try {
    const env = testEnv(t.root);
    const full = await parseOne(gemini, src(join(t.root, CHAT)), env);
    const resumed = await parseOne(gemini, src(join(t.root, CHAT)), env, { offset: 200 });
    assert.equal(resumed.sessions[0].id, full.sessions[0].id);
    assert.deepEqual(resumed.sessions[0].events, full.sessions[0].events);
  } finally {
    t.cleanup();
  }
});

// ---- real stores -------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata");
const FARM = join(REAL, "farm/gemini/home/.gemini");
const PUBLIC = join(REAL, "gemini-cli");

Deno.test({
  name:
    "farm store yields the marker, the failing cat and the README edit when Gemini CLI 0.61.0 wrote it",
  ignore: !existsSync(FARM),
  fn: async () => {
    const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: FARM }));
    assert.deepEqual(run.errors, {});
    assert.deepEqual(run.skips, {});
    assert.equal(run.sessions.length, 1);
    const s = run.sessions[0];
    assert.equal(s.project, "/tmp/farm/gemini/proj");
    assert.ok(s.events.some((e) => e.kind === "assistant" && e.text.includes("zebrafinch-gemini")));
    assert.ok(!s.events.some((e) => e.text.includes("<session_context>")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) =>
      e.kind === "tool_result" && e.result?.callId === cat.tool?.id
    )!;
    assert.equal(res.result?.exit, 1);
    const edits = s.events.flatMap((e) => e.tool?.edits ?? []);
    assert.deepEqual(edits, [{
      path: "/tmp/farm/gemini/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
  },
});

Deno.test({
  name: "public chats parse into sessions when laid out as a Gemini CLI store",
  ignore: !existsSync(PUBLIC),
  fn: async () => {
    const root = tempDir("deja-gemini-real-");
    const hash = "f528f00f72f21423df709bb5104dfe181c28474fac473cf1028c3bfd64be534a";
    const place: Record<string, string> = {
      "chat-hashed-projectdir-2.5-flash.json":
        `tmp/${hash}/chats/session-2026-03-29T01-22-5b6234f8.json`,
      "chat-named-projectdir-kind-main.json":
        "tmp/idaho-vault/chats/session-2026-03-30T20-25-f3bcbc84.json",
      "chat-tiny-with-info-message.json":
        "tmp/idaho-vault/chats/session-2026-04-13T17-57-b9d28477.json",
      "chat-subagent-kind-subagent.json":
        "tmp/idaho-vault/chats/f328310d-05ea-45ce-b9cb-fe2717bebe12/twynek.json",
      "chat-skill-extraction-subagent.json":
        "tmp/idaho-vault/chats/skill-extraction-67084600/mrp1k5.json",
      // not chats: placed under chats/ on purpose, they must yield nothing: logs.json without
      // a count, the checkpoint counted as not a session (sources says why)
      "logs.json": "tmp/idaho-vault/chats/logs.json",
      "checkpoint-write_file.json": `tmp/${hash}/chats/checkpoint-write_file.json`,
    };
    try {
      for (const [from, to] of Object.entries(place)) {
        mkdirSync(dirname(join(root, to)), { recursive: true });
        copyFileSync(join(PUBLIC, from), join(root, to));
      }
      const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: root }));
      assert.deepEqual(run.errors, {});
      assert.deepEqual(run.skips, {
        [join(root, place["checkpoint-write_file.json"])]: { not_session: 1 },
      });
      const ids = run.sessions.map((s) => s.id).sort();
      assert.deepEqual(ids, [
        "5b6234f8-0315-4733-a3be-ee67d6712014",
        "b9d28477-6950-4d22-838c-2380d35ff50c",
        "f3bcbc84-0a3c-4852-b805-a0112b261a7b",
        "mrp1k5",
        "twynek",
      ]);
      const by = (id: string) => run.sessions.find((s) => s.id === id)!;
      assert.equal(by("twynek").parent, "f328310d-05ea-45ce-b9cb-fe2717bebe12");
      assert.equal(by("mrp1k5").parent, "skill-extraction-67084600");
      assert.deepEqual(texts(by("b9d28477-6950-4d22-838c-2380d35ff50c"), "user"), ["restart"]);
      // No projects.json or .project_root copied: only the subagents' own `directories` name one,
      // and the chats of their projectHash take it (trial 103 F4); 5b6234f8's hash is another.
      const vault = "C:\\Users\\user\\Documents\\IDAHO-VAULT";
      assert.deepEqual(
        run.sessions.map((s) => [s.id, s.project]).sort(),
        [
          ["5b6234f8-0315-4733-a3be-ee67d6712014", undefined],
          ["b9d28477-6950-4d22-838c-2380d35ff50c", vault],
          ["f3bcbc84-0a3c-4852-b805-a0112b261a7b", vault],
          ["mrp1k5", "C:\\Users\\user\\Documents\\IDAHO-VAULT"],
          ["twynek", "C:\\Users\\user\\Documents\\IDAHO-VAULT"],
        ],
      );
      const main = by("f3bcbc84-0a3c-4852-b805-a0112b261a7b");
      assert.equal(main.model, "gemini-3-flash-preview");
      assert.ok(main.events.some((e) => e.tool?.name === "glob"));
      assert.ok(
        by("twynek").events.some((e) =>
          // Made whole against the project its `directories` name.
          e.tool?.paths?.[0] ===
            "C:\\Users\\user\\Documents\\IDAHO-VAULT\\.github\\scripts\\requirements-scraper.txt"
        ),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test({
  name: "the public prompt log makes sessions of the prompts whose chat is gone, and only those",
  ignore: !existsSync(PUBLIC),
  fn: async () => {
    // realdata/gemini-cli logs.json: 350 prompts of 17 sessions, beside one of their chats.
    const root = tempDir("deja-gemini-logs-");
    try {
      const chats = join(root, "tmp/idaho-vault/chats");
      mkdirSync(chats, { recursive: true });
      copyFileSync(join(PUBLIC, "logs.json"), join(root, "tmp/idaho-vault/logs.json"));
      copyFileSync(
        join(PUBLIC, "chat-tiny-with-info-message.json"),
        join(chats, "session-2026-04-13T17-57-b9d28477.json"),
      );
      const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: root }));
      assert.deepEqual(run.errors, {});
      const fromLog = run.sessions.filter((s) => s.path?.endsWith("logs.json"));
      assert.equal(fromLog.length, 16); // 17 sessions, one of them read from its chat
      assert.ok(!fromLog.some((s) => s.id.startsWith("b9d28477")));
      const quiet = fromLog.find((s) => s.id.startsWith("9ed495f4"))!;
      assert.ok(texts(quiet, "user").some((t) => t.startsWith("Brother and Sister sleep.")));
      assert.ok(fromLog.every((s) => s.events.every((e) => e.kind === "user" && e.time)));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test("a resumed chat keeps its tool calls and results when the $set snapshot holds API parts", async () => {
  // Regression, Gemini CLI 0.61.0 `--resume latest` (farm run): the CLI rewrites the whole
  // history as `$set.messages` with functionCall/functionResponse parts and no `toolCalls`,
  // each response twice; deja used to lose every tool call of the first turn.
  const out =
    "<untrusted_context>\nOutput: ls: cannot access 'missing.txt'\nExit Code: 2\n</untrusted_context>";
  const call = { id: "c1", name: "run_shell_command", args: { command: "ls missing.txt" } };
  const response = {
    functionResponse: { id: "c1", name: "run_shell_command", response: { output: out } },
  };
  const t = tree({
    [CHAT]: jsonl(
      META,
      { $set: { sessionId: S } },
      {
        $set: {
          messages: [
            {
              id: "u1",
              timestamp: "2026-11-01T10:00:01.000Z",
              type: "user",
              content: [{ text: "run it" }],
            },
            {
              id: "g1",
              timestamp: "2026-11-01T10:00:02.000Z",
              type: "gemini",
              content: [{ text: "Running." }, { functionCall: call }],
            },
            {
              id: "g1_response",
              timestamp: "2026-11-01T10:00:02.000Z",
              type: "user",
              content: [response],
            },
            { id: "u2", timestamp: "2026-11-01T10:00:03.000Z", type: "user", content: [response] },
          ],
        },
      },
      {
        id: "u3",
        timestamp: "2026-11-01T10:00:04.000Z",
        type: "user",
        content: [{ text: "and now?" }],
      },
    ),
  });
  try {
    const { sessions } = await parseFile(t.root, CHAT);
    assert.equal(kinds(sessions[0]), "user,assistant,tool_call,tool_result,user");
    const ev = sessions[0].events;
    assert.equal(ev[2].tool?.command, "ls missing.txt");
    assert.deepEqual(ev[3].result, { callId: "c1", exit: 2 });
    assert.equal(ev[3].text, "ls: cannot access 'missing.txt'\nExit Code: 2");
  } finally {
    t.cleanup();
  }
});

// ---- saved conversations (checkpoint-<tag>.json) -------------------------------------

const ENV_TURN = {
  role: "user",
  parts: [{
    text: "This is the Gemini CLI. We are setting up the context for our chat.\nOS: linux",
  }],
};
/** A `/restore` checkpoint's shape (realdata/gemini-cli checkpoint-write_file.json). */
const restoreCheckpoint = (sessionId: string) =>
  JSON.stringify({
    clientHistory: [
      ENV_TURN,
      { role: "user", parts: [{ text: "write the notes" }] },
      {
        role: "model",
        parts: [{
          functionCall: { name: "write_file", args: { file_path: "n.md", content: "x" } },
        }],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "write_file", response: { output: "wrote n.md" } } }],
      },
      { role: "model", parts: [{ text: "Done." }] },
    ],
    toolCall: { name: "write_file", args: {} },
    commitHash: "1b29c6ecad1bb21fc849e928d3bd0c67356c70e7",
    messageId: `${sessionId}########3`,
  });

Deno.test("a checkpoint whose chat is gone is the session: its history, the environment turn dropped, each result beside its call", async () => {
  const t = tree({
    "projects.json": JSON.stringify({ projects: { "/w/notes": "notes" } }),
    "tmp/notes/checkpoint-write_file.json": restoreCheckpoint(S),
    "tmp/notes/checkpoint-plan.json": JSON.stringify({
      history: [ENV_TURN, { role: "user", parts: [{ text: "plan the week" }] }, {
        role: "model",
        parts: [{ text: "Monday: notes." }],
      }],
      authType: "oauth-personal",
    }),
    "tmp/notes/chats/.keep": "",
  });
  try {
    const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root }));
    assert.deepEqual(run.errors, {});
    assert.deepEqual(run.skips, {});
    const by = (id: string) => run.sessions.find((s) => s.id === id)!;
    const s = by(S);
    assert.equal(kinds(s), "user,tool_call,tool_result,assistant");
    assert.deepEqual(texts(s, "user"), ["write the notes"]);
    const call = s.events[1];
    assert.deepEqual(call.tool?.writes, [{ path: "/w/notes/n.md", content: "x" }]);
    assert.equal(s.events[2].result?.callId, call.tool?.id);
    assert.equal(s.events[2].text, "wrote n.md");
    assert.equal([s.project, s.timeFromFile, s.updated! > 0].join(), "/w/notes,true,true");
    const saved = by("checkpoint-plan");
    assert.equal(saved.title, "plan");
    assert.deepEqual(texts(saved, "assistant"), ["Monday: notes."]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a checkpoint yields nothing and is counted not_session when a chat holds its session or its prompts", async () => {
  const t = tree({
    [CHAT.replace("proj", "notes")]: jsonl(META, user("u1", "plan the week")),
    "tmp/notes/checkpoint-write_file.json": restoreCheckpoint(S),
    "tmp/notes/checkpoint-plan.json": JSON.stringify([
      { role: "user", parts: [{ text: "plan the week" }] },
      { role: "model", parts: [{ text: "Monday." }] },
    ]),
  });
  try {
    const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root }));
    assert.deepEqual(run.sessions.map((s) => s.id), [S]);
    assert.equal(run.sessions[0].path, join(t.root, CHAT.replace("proj", "notes")));
    for (const f of ["checkpoint-write_file.json", "checkpoint-plan.json"]) {
      assert.deepEqual(run.skips[join(t.root, "tmp/notes", f)], { not_session: 1 });
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("the prompt log leaves a session to the checkpoint that holds it when its chat is gone", async () => {
  const other = "99999999-2222-4333-8444-555555555555";
  const t = tree({
    "tmp/notes/checkpoint-write_file.json": restoreCheckpoint(S),
    "tmp/notes/logs.json": JSON.stringify([
      {
        sessionId: S,
        messageId: 0,
        type: "user",
        message: "write the notes",
        timestamp: META.startTime,
      },
      { sessionId: other, messageId: 0, type: "user", message: "hello", timestamp: META.startTime },
    ]),
  });
  try {
    const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root }));
    assert.deepEqual(
      run.sessions.map((s) => [s.id, s.path?.split("/").pop()]).sort(),
      [[S, "checkpoint-write_file.json"], [other, "logs.json"]],
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("a checkpoint that is empty or not JSON is counted and yields nothing", async () => {
  const t = tree({ "tmp/p/checkpoint-a.json": "", "tmp/p/checkpoint-b.json": '{"history": [' });
  try {
    const run = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: t.root }));
    assert.deepEqual(run.sessions, []);
    assert.deepEqual(run.skips[join(t.root, "tmp/p/checkpoint-a.json")], { empty: 1 });
    assert.deepEqual(run.skips[join(t.root, "tmp/p/checkpoint-b.json")], { malformed_json: 1 });
  } finally {
    t.cleanup();
  }
});

// ---- chats too large to read whole -------------------------------------------------

/** A `.json` chat of `n` turns (a prompt, a shell call with its result, an answer), its summary after the messages. */
function bigChat(n: number): string {
  const messages = [];
  for (let i = 0; i < n; i++) {
    const ts = new Date(Date.UTC(2026, 10, 1, 10, 0, i)).toISOString();
    messages.push(user(`u${i}`, `question ${i} about the flaky cache`, ts));
    messages.push(model(`g${i}`, `answer ${i}`, {
      timestamp: ts,
      toolCalls: [{
        id: `call-${i}`,
        name: "run_shell_command",
        args: { command: `echo ${i}` },
        status: i % 7 ? "success" : "error",
        timestamp: ts,
        result: [{
          functionResponse: {
            id: `call-${i}`,
            name: "run_shell_command",
            response: { output: `Command: echo ${i}\nOutput: ${i}\nExit Code: ${i % 7 ? 0 : 1}` },
          },
        }],
      }],
    }));
  }
  return JSON.stringify({ ...META, messages, summary: "Fix the flaky cache" }, null, 2);
}

const BIG = "tmp/proj/chats/session-2026-11-01T10-00-11111111.json";

Deno.test("a chat over the whole-read cap is read in pieces, in chunks, into the session a whole read gives", async () => {
  // Trial 26: a 77 MB chat was skipped whole as oversized, and later runs said "up to date".
  const t = tree({ [BIG]: bigChat(600) });
  try {
    const whole = await parseFile(t.root, BIG);
    const env = testEnv(t.root, { DEJA_WHOLE_DOC_MAX: "1000" });
    const pieces = await parseOne(gemini, src(join(t.root, BIG)), env);
    assert.equal(whole.sessions.length, 1);
    assert.equal(whole.sessions[0].events.length, 600 * 4);
    assert.equal(whole.sessions[0].title, "Fix the flaky cache");
    assert.deepEqual(pieces.sessions, whole.sessions);
    assert.equal(pieces.ctx.skipped, 0);
    // Several chunks, not one session held whole.
    const chunks = [];
    for await (const s of gemini.parse(src(join(t.root, BIG)), pieces.ctx)) chunks.push(s);
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    assert.ok(chunks.every((c) => c.id === S && c.title === "Fix the flaky cache"));
  } finally {
    t.cleanup();
  }
});

Deno.test("a damaged chat read in pieces keeps the messages before the damage and counts it", async () => {
  const text = bigChat(300);
  const cut = text.indexOf('"u200"'); // the file ends inside message u200
  const t = tree({ [BIG]: text.slice(0, cut) + "\u0000garbage" });
  try {
    const env = testEnv(t.root, { DEJA_WHOLE_DOC_MAX: "1000" });
    const { sessions, ctx } = await parseOne(gemini, src(join(t.root, BIG)), env);
    assert.equal(sessions.length, 1);
    const prompts = texts(sessions[0], "user");
    assert.equal(prompts.length, 200);
    assert.equal(prompts.at(-1), "question 199 about the flaky cache");
    assert.equal(ctx.counts.malformed_json, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "each public chat read in pieces gives what a whole read gives",
  ignore: !existsSync(PUBLIC),
  fn: async () => {
    const root = tempDir("deja-gemini-pieces-");
    try {
      const names = [
        "chat-hashed-projectdir-2.5-flash.json",
        "chat-named-projectdir-kind-main.json",
        "chat-tiny-with-info-message.json",
        "chat-subagent-kind-subagent.json",
        "chat-skill-extraction-subagent.json",
        "checkpoint-write_file.json",
      ];
      const chats = join(root, "tmp/p/chats");
      mkdirSync(chats, { recursive: true });
      for (const n of names) copyFileSync(join(PUBLIC, n), join(chats, n));
      const whole = await runParser(gemini, testEnv("/nowhere", { DEJA_GEMINI_ROOT: root }));
      const pieces = await runParser(
        gemini,
        testEnv("/nowhere", { DEJA_GEMINI_ROOT: root, DEJA_WHOLE_DOC_MAX: "1" }),
      );
      assert.equal(whole.sessions.length, 5);
      assert.deepEqual(pieces.sessions, whole.sessions);
      assert.deepEqual(pieces.skips, whole.skips);
      assert.deepEqual(pieces.errors, {});
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
});

Deno.test("a chat over the whole-read cap that is not JSON from its first byte is counted once", async () => {
  const t = tree({ [BIG]: "\u0000".repeat(5000) });
  try {
    const env = testEnv(t.root, { DEJA_WHOLE_DOC_MAX: "1000" });
    const { sessions, ctx } = await parseOne(gemini, src(join(t.root, BIG)), env);
    assert.equal(sessions.length, 0);
    assert.deepEqual(ctx.counts, { malformed_json: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("a chat read in pieces passes over a damaged message and reads the ones after it", async () => {
  // Trial 28: 10,000 valid messages after a damage in the middle of a 77 MB chat were dropped.
  const text = bigChat(300);
  const at = text.indexOf('"u100"');
  const damaged = text.slice(0, at) + '"}]}, ]]]GARBAGE\u0001{{{{' + text.slice(at + 10);
  const t = tree({ [BIG]: damaged });
  try {
    const env = testEnv(t.root, { DEJA_WHOLE_DOC_MAX: "1000" });
    const { sessions, ctx } = await parseOne(gemini, src(join(t.root, BIG)), env);
    const prompts = texts(sessions[0], "user");
    // Only the damaged message is lost: the 199 after it are read.
    assert.equal(prompts.length, 299);
    assert.ok(!prompts.includes("question 100 about the flaky cache"));
    assert.equal(prompts.at(-1), "question 299 about the flaky cache");
    assert.equal(ctx.counts.malformed_json, 1);
    // Named at the damaged byte, not at the start of the piece it was read in.
    const example = ctx.examples.find((e) => e.startsWith("malformed_json")) ?? "";
    const byte = Number(/@(\d+):/.exec(example)?.[1]);
    assert.ok(byte >= at && byte < at + 40, example);
    assert.match(example, /read again from byte \d+/);
  } finally {
    t.cleanup();
  }
});

Deno.test("a chat with no messages is counted empty, read whole or in pieces", async () => {
  // Trial 28: "1 store, 1 read, 0 sessions" and no reason given.
  const t = tree({ [BIG]: JSON.stringify({ ...META, messages: [] }, null, 2) });
  try {
    for (const vars of [{}, { DEJA_WHOLE_DOC_MAX: "10" }] as Record<string, string>[]) {
      const { sessions, ctx } = await parseOne(
        gemini,
        src(join(t.root, BIG)),
        testEnv(t.root, vars),
      );
      assert.equal(sessions.length, 0);
      assert.deepEqual(ctx.counts, { empty: 1 });
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("messages with no id are each kept, not keyed alike (trial 29: only the last was kept)", async () => {
  const rel = "tmp/proj/chats/session-2026-11-01T10-00-22222222.json";
  const t = tree({
    [rel]: JSON.stringify({
      sessionId: S,
      messages: [
        { type: "user", content: [{ text: "first noidzz" }] },
        { type: "gemini", content: "second noidzz" },
        { type: "user", content: [{ text: "third noidzz" }] },
      ],
    }),
  });
  try {
    const { sessions } = await parseOne(gemini, src(join(t.root, rel)), testEnv(t.root));
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].events.map((e) => e.text), [
      "first noidzz",
      "second noidzz",
      "third noidzz",
    ]);
    assert.deepEqual(sessions[0].events.map((e) => e.key), [undefined, undefined, undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a chat whose project folder names no project takes the first of its own directories", async () => {
  // Trial 42 (realdata mrp1k5, twynek): the CLI records a subagent chat's workspace folders in
  // `directories`; with no projects.json or .project_root, the chat had no project at all.
  const t = tree({
    [CHAT]: jsonl(
      {
        sessionId: S,
        projectHash: "ab12",
        startTime: "2026-11-01T10:00:00.000Z",
        kind: "subagent",
        directories: ["C:\\Users\\u\\Documents\\VAULT", "C:\\Users\\u\\extra"],
      },
      user("m1", "what is in the vault"),
    ),
    "tmp/named/chats/session-2026-11-01T10-00-33333333.jsonl": jsonl(
      { sessionId: "named-1", projectHash: "cd34", directories: ["/elsewhere"] },
      user("m1", "hello"),
    ),
    "tmp/named/.project_root": "/w/named",
  });
  try {
    const [s] = (await parseFile(t.root, CHAT)).sessions;
    assert.equal(s.project, "C:\\Users\\u\\Documents\\VAULT");
    // Where the project folder names its project, that one stands.
    const [n] = (await parseFile(t.root, "tmp/named/chats/session-2026-11-01T10-00-33333333.jsonl"))
      .sessions;
    assert.equal(n.project, "/w/named");
  } finally {
    t.cleanup();
  }
});

Deno.test("a chat with no project of its own takes the folder its siblings of the same hash record", async () => {
  // Trial 103 F4 (realdata public-proj): mrp1k5 and twynek recorded IDAHO-VAULT in
  // `directories`; f3bcbc84 and b9d28477, of the same projectHash in the same folder, had none
  // and no project, so `--project IDAHO-VAULT` left them out.
  const meta = (id: string, hash: string, dirs?: string[]) => ({
    sessionId: id,
    projectHash: hash,
    startTime: "2026-11-01T10:00:00.000Z",
    ...(dirs ? { directories: dirs } : {}),
  });
  const t = tree({
    "tmp/hashed/chats/session-2026-11-01T10-00-11111111.jsonl": jsonl(
      meta("plain-1", "ab12"),
      user("m1", "what is in the vault"),
    ),
    "tmp/hashed/chats/0c3f0000-0000-4000-8000-000000000000/sub.jsonl": jsonl(
      meta("sub-1", "ab12", ["C:\\Users\\u\\Documents\\VAULT"]),
      user("m1", "look"),
    ),
    // Another hash in the same folder says nothing of these.
    "tmp/hashed/chats/session-2026-11-01T10-00-22222222.jsonl": jsonl(
      meta("other-1", "ff00", ["/elsewhere"]),
      user("m1", "hi"),
    ),
    // Siblings that disagree name no project.
    "tmp/split/chats/session-2026-11-01T10-00-33333333.jsonl": jsonl(
      meta("plain-2", "cd34"),
      user("m1", "hello"),
    ),
    "tmp/split/chats/session-2026-11-01T10-00-44444444.jsonl": jsonl(
      meta("a-2", "cd34", ["/w/a"]),
      user("m1", "hello"),
    ),
    "tmp/split/chats/session-2026-11-01T10-00-55555555.jsonl": jsonl(
      meta("b-2", "cd34", ["/w/b"]),
      user("m1", "hello"),
    ),
  });
  try {
    const [s] =
      (await parseFile(t.root, "tmp/hashed/chats/session-2026-11-01T10-00-11111111.jsonl"))
        .sessions;
    assert.equal(s.project, "C:\\Users\\u\\Documents\\VAULT");
    const [p] = (await parseFile(t.root, "tmp/split/chats/session-2026-11-01T10-00-33333333.jsonl"))
      .sessions;
    assert.equal(p.project, undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("a chat cut off inside its messages counts one malformed_json, not also empty", async () => {
  // Trial 101 F6: counted as `1 malformed_json, 1 empty` ("a chat with no messages").
  const path = "tmp/p/chats/session-2026-01-01T00-00-cut.json";
  const t = tree({ [path]: '{"sessionId": "broken", "messages": [\n' });
  try {
    const { sessions, ctx } = await parseOne(gemini, src(join(t.root, path)), testEnv(t.root));
    assert.equal(sessions.length, 0);
    assert.deepEqual(ctx.counts, { malformed_json: 1 });
  } finally {
    t.cleanup();
  }
});
