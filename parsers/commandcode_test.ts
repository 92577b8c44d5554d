import { assert, assertEquals } from "../tests/_assert.ts";
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { commandcode, isTranscript, toolCall } from "./commandcode.ts";
import { tempDir } from "../tests/_tmp.ts";

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-cc-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const SID = "1583a430-5538-475d-9190-0d726c7a37aa";
const FILE = `w-cc/${SID}.jsonl`;
const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const header = (cwd = "/w/cc") => ({
  type: "session",
  version: 3,
  id: SID,
  timestamp: "2026-11-04T12:00:00.000Z",
  cwd,
});
let n = 0;
const msg = (role: string, content: unknown, ts = "2026-11-04T12:00:01.000Z") => ({
  type: "message",
  id: `e${++n}`,
  parentId: null,
  timestamp: ts,
  message: { role, content },
});
const tu = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const tr = (id: string, text: string) => ({
  type: "tool_result",
  tool_use_id: id,
  content: [{ type: "text", text }],
});
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);
const src = (path: string): SourceRef => ({ harness: "commandcode", path, kind: "append" });

async function parseFile(root: string, opts: { offset?: number; state?: unknown } = {}) {
  return await parseOne(commandcode, src(join(root, FILE)), testEnv(root), opts);
}

Deno.test("discovery lists transcripts and skips checkpoints, prompts, meta and v2 backups when DEJA_COMMANDCODE_ROOT is set", async () => {
  const t = tree({
    [FILE]: jsonl(header()),
    [`w-cc/${SID}.checkpoints.jsonl`]: "{}\n",
    [`w-cc/${SID}.prompts.jsonl`]: "{}\n",
    [`w-cc/${SID}.meta.json`]: "{}",
    [`w-cc/${SID}.v2.bak`]: "{}\n",
    "w-cc/deeper/x.jsonl": "{}\n",
  });
  try {
    const d = await commandcode.discover({
      env: testEnv("/nowhere", { DEJA_COMMANDCODE_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.roots, [t.root]);
    assertEquals(d.sources.map((s) => [s.path.slice(t.root.length + 1), s.kind]), [[
      FILE,
      "append",
    ]]);
    const home = await commandcode.discover({ env: testEnv("/h"), knownProjects: [] });
    assertEquals(home.roots, ["/h/.commandcode/projects"]);
    assert(!isTranscript(`${SID}.checkpoints.jsonl`) && isTranscript(`${SID}.jsonl`));
  } finally {
    t.cleanup();
  }
});

Deno.test("a v3 transcript takes id and cwd from its header and maps user, assistant and tool blocks", async () => {
  const t = tree({
    [FILE]: jsonl(
      header(),
      msg("user", [{ type: "text", text: "fix it" }]),
      {
        ...msg("assistant", [{ type: "thinking", thinking: "secret" }, {
          type: "text",
          text: "Looking.",
        }, tu("c1", "read_file", { file_path: "a.go" })]),
        model: "m-1",
      },
      msg("user", [tr("c1", "package a"), { type: "text", text: "harness note" }]),
      msg("system", "You are Command Code."),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const s = sessions[0];
    assertEquals([s.id, s.project, s.model], [SID, "/w/cc", "m-1"]);
    assertEquals(s.events.map((e) => e.kind), ["user", "assistant", "tool_call", "tool_result"]);
    assertEquals(s.events[2].tool?.paths, ["/w/cc/a.go"]);
    assertEquals(s.events[3].result, { callId: "c1", isError: false });
    assert(!JSON.stringify(s).includes("secret") && !JSON.stringify(s).includes("harness note"));
    assert(!JSON.stringify(s).includes("You are Command Code"));
  } finally {
    t.cleanup();
  }
});

Deno.test("shell tools record the command with its args, and Exit code: N opens a failed result", async () => {
  const t = tree({
    [FILE]: jsonl(
      header(),
      msg("assistant", [
        tu("c1", "shell_command", { command: "go", args: ["test", "./..."] }),
        tu("c2", "powershell", { command: "dir" }),
      ]),
      msg("user", [
        tr("c1", "Exit code: 2 (misuse)\nusage: go test"),
        tr("c2", "a.txt\nExit code: 3 later"),
      ]),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const ev = sessions[0].events;
    assertEquals(ev.filter((e) => e.tool).map((e) => e.tool!.command), ["go test ./...", "dir"]);
    const res = ev.filter((e) => e.kind === "tool_result");
    assertEquals(res.map((e) => e.result?.exit), [2, undefined]);
  } finally {
    t.cleanup();
  }
});

Deno.test("file tools map to paths without globs, edits and writes resolved against the header cwd", () => {
  const cwd = "/w/cc";
  assertEquals(
    toolCall(
      tu("a", "read_multiple_files", { paths: ["x.go", "src/**/*.go", "/abs/y.go", "f[12].go"] }),
      cwd,
    ).paths,
    [
      "/w/cc/x.go",
      "/abs/y.go",
    ],
  );
  assertEquals(
    toolCall(tu("b", "edit_file", { file_path: "z.go", old_string: "1", new_string: "2" }), cwd)
      .edits,
    [
      { path: "/w/cc/z.go", old: "1", new: "2" },
    ],
  );
  assertEquals(
    toolCall(tu("c", "write_file", { file_path: "/w/cc/n.md", content: "hi" }), cwd).writes,
    [
      { path: "/w/cc/n.md", content: "hi" },
    ],
  );
  assertEquals(
    toolCall(tu("d", "web_fetch", { url: "https://example.com" }), cwd).command,
    undefined,
  );
});

Deno.test("a compaction line becomes a summary and earlier turns stay", async () => {
  const t = tree({
    [FILE]: jsonl(header(), msg("user", "first"), {
      type: "compaction",
      summary: "So far: first.",
      firstKeptEntryId: "e1",
      timestamp: "2026-11-04T12:05:00Z",
    }, msg("user", "second")),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [["user", "first"], [
      "summary",
      "So far: first.",
    ], ["user", "second"]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a flat v2 file takes sessionId, drops system rows and reads other roles as tool output", async () => {
  const v2 = (role: string, content: unknown) => ({
    role,
    content,
    timestamp: "2026-10-20T08:00:00Z",
    sessionId: "v2-session",
  });
  const t = tree({
    [FILE]: jsonl(
      v2("system", "preamble"),
      v2("user", "hi"),
      v2("assistant", [{ type: "text", text: "hello" }]),
      v2("tool", "output text"),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const s = sessions[0];
    assertEquals([s.id, s.project], ["v2-session", undefined]);
    assertEquals(s.events.map((e) => [e.kind, e.text]), [["user", "hi"], ["assistant", "hello"], [
      "tool_result",
      "output text",
    ]]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a file with neither header nor sessionId keeps its stem as the id", async () => {
  const t = tree({
    [FILE]: jsonl({
      type: "message",
      id: "x",
      timestamp: "2026-11-04T12:00:00Z",
      message: { role: "user", content: "hi" },
    }),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(sessions[0].id, SID);
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty transcript yields no session and no error", async () => {
  const t = tree({ [FILE]: "" });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals([sessions.length, ctx.endOffset], [0, 0]);
  } finally {
    t.cleanup();
  }
});

Deno.test("truncated last line is left for the next run and a later append completes it", async () => {
  const head = jsonl(header(), msg("user", "first"));
  const tail = JSON.stringify(msg("assistant", [{ type: "text", text: "second" }]));
  const t = tree({ [FILE]: head + tail.slice(0, 40) });
  try {
    const a = await parseFile(t.root);
    assertEquals(a.ctx.endOffset, Buffer.byteLength(head));
    appendFileSync(join(t.root, FILE), tail.slice(40) + "\n");
    const b = await parseFile(t.root, { offset: a.ctx.endOffset, state: a.ctx.endState });
    assertEquals([b.sessions[0].id, texts(b.sessions[0], "assistant")], [SID, ["second"]]);
    assertEquals(b.ctx.endOffset, statSync(join(t.root, FILE)).size);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8 and unknown lines are counted and the rest still parses", async () => {
  const enc = new TextEncoder();
  const t = tree({
    [FILE]: Buffer.concat([
      enc.encode(jsonl({ type: "mystery" })),
      enc.encode(jsonl(msg("user", "before"))),
      enc.encode("{not json\n"),
      new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      enc.encode(jsonl({ type: "message", id: "m" }, msg("user", "after"))),
    ]),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(sessions[0].events.map((e) => e.text), ["before", "after"]);
    assertEquals(ctx.counts, {
      unknown_record: 2, // the line with a bad byte in a value is kept
      malformed_json: 1,
      invalid_utf8: 1,
      bad_shape: 1,
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed parse keeps the header's id and cwd, with or without the saved state", async () => {
  const t = tree({ [FILE]: jsonl(header("/w/proj"), msg("user", "one")) });
  try {
    const a = await parseFile(t.root);
    appendFileSync(
      join(t.root, FILE),
      jsonl(msg("assistant", [tu("c9", "read_file", { file_path: "r.go" })])),
    );
    for (const state of [a.ctx.endState, undefined]) {
      const b = await parseFile(t.root, { offset: a.ctx.endOffset, state });
      assertEquals([b.sessions[0].id, b.sessions[0].project], [SID, "/w/proj"]);
      assertEquals(b.sessions[0].events[0].tool?.paths, ["/w/proj/r.go"]);
    }
  } finally {
    t.cleanup();
  }
});

const REAL = join(REPO, "../shared/realdata/commandcode");

Deno.test({
  name:
    "public Command Code transcripts parse into sessions without errors when realdata holds some",
  ignore: !existsSync(REAL),
  fn: async () => {
    const run = await runParser(commandcode, testEnv("/nowhere", { DEJA_COMMANDCODE_ROOT: REAL }));
    assertEquals(run.errors, {});
    assert(run.sessions.length > 0);
  },
});
