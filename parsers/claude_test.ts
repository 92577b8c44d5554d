import { assert, assertEquals, assertNotEquals } from "../tests/_assert.ts";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHUNK_BYTES, CHUNK_EVENTS, claude } from "./claude.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import {
  materialize,
  normalize,
  parseOne,
  type ParserRun,
  REPO,
  runParser,
  testEnv,
} from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";
import { COMPACT_NOTICE } from "./_message_blocks.ts";

const FIXTURE = join(REPO, "fixtures/registry/claude");
const MAIN = "0b5e2a10-1d2c-4e6f-8a9b-111111111111";

async function fixture(): Promise<ParserRun & { root: string }> {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv(join(fx.root, "__home__"), {
      DEJA_CLAUDE_ROOT: join(fx.root, "projects"),
    });
    return { ...(await runParser(claude, env)), root: fx.root };
  } finally {
    fx.cleanup();
  }
}

const byId = (run: { sessions: Session[] }, id: string) => {
  const s = run.sessions.find((x) => x.id === id);
  assert(s, `session ${id} missing; have ${run.sessions.map((x) => x.id).join(", ")}`);
  return s;
};
const ofKind = (s: Session, kind: Event["kind"]) => s.events.filter((e) => e.kind === kind);

/** A temp projects root with `files` (relative path -> JSONL lines). */
function store(files: Record<string, Array<string | object>>) {
  const root = tempDir("deja-claude-");
  for (const [rel, lines] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(join(p, ".."), { recursive: true });
    const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n");
    writeFileSync(p, text.join(""));
  }
  return {
    root,
    env: testEnv(join(root, "__home__")),
    cleanup: () => rmSync(root, { recursive: true }),
  };
}
const src = (path: string): SourceRef => ({ harness: "claude", path, kind: "append" });

const SID = "9a8b7c6d-0000-4000-8000-000000000001";
const rec = (type: string, uuid: string, content: unknown, extra: object = {}) => ({
  type,
  uuid,
  sessionId: SID,
  cwd: "/work/t",
  timestamp: "2026-03-01T10:00:00.000Z",
  message: type === "assistant"
    ? { id: `msg_${uuid}`, role: "assistant", model: "claude-sonnet-4-6", content }
    : { role: "user", content },
  ...extra,
});

// ---- fixture-driven rules ----

Deno.test("fixture run matches expected.json when parsed from scratch", async () => {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv(join(fx.root, "__home__"), { DEJA_CLAUDE_ROOT: join(fx.root, "projects") });
    const run = await runParser(claude, env);
    const got = normalize(
      { sessions: run.sessions, skips: run.skips, errors: run.errors },
      fx.root,
    );
    const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
    assertEquals(got, want);
  } finally {
    fx.cleanup();
  }
});

/**
 * The fixture's skips: its cache warm-up sidechain, its file-history-snapshot-only file and
 * its summary-only file, each counted as not a session.
 */
const SKIPS = (root: string) => ({
  [join(root, "projects/-work-demo/3c4d5e6f-0000-4000-8000-333333333333.jsonl")]: {
    not_session: 1,
  },
  [join(root, "projects/-work-demo/4d5e6f70-0000-4000-8000-444444444444.jsonl")]: {
    not_session: 1,
  },
  [join(root, "projects/-work-demo/agent-a227a46.jsonl")]: { not_session: 1 },
});

Deno.test("discover lists every jsonl below the root as append sources when DEJA_CLAUDE_ROOT is set", async () => {
  const run = await fixture();
  const rels = run.discovery.sources.map((s) => s.path.slice(run.root.length + 1)).sort();
  assertEquals(rels, [
    `projects/-work-demo/${MAIN}.jsonl`,
    `projects/-work-demo/${MAIN}/subagents/agent-a1b2c3d4e5f6a7b8.jsonl`,
    `projects/-work-demo/${MAIN}/subagents/agent-acompact-0a1b2c3d4e5f6071.jsonl`,
    `projects/-work-demo/${MAIN}/subagents/agent-aside_question-5e6f7a8b9c0d1e2f.jsonl`,
    "projects/-work-demo/3c4d5e6f-0000-4000-8000-333333333333.jsonl",
    "projects/-work-demo/4d5e6f70-0000-4000-8000-444444444444.jsonl",
    "projects/-work-demo/agent-a227a46.jsonl",
    "projects/-work-demo/agent-b31c0de.jsonl",
    "projects/-work-legacy/6f708192-0000-4000-8000-666666666666.jsonl",
    "projects/C--Users-dev-app/5e6f7081-0000-4000-8000-555555555555.jsonl",
  ]);
  assert(run.discovery.sources.every((s) => s.kind === "append" && s.harness === "claude"));
  assertEquals(run.errors, {});
  assertEquals(run.skips, SKIPS(run.root));
});

Deno.test("discover uses CLAUDE_CONFIG_DIR/projects, then ~/.claude/projects, when no override is set", async () => {
  const env1 = testEnv("/home/x", { CLAUDE_CONFIG_DIR: "/cfg/claude" });
  assertEquals((await claude.discover({ env: env1, knownProjects: [] })).roots, [
    "/cfg/claude/projects",
  ]);
  const env2 = testEnv("/home/x");
  const d = await claude.discover({ env: env2, knownProjects: [] });
  assertEquals(d.roots, ["/home/x/.claude/projects"]);
  assertEquals(d.sources, []);
});

Deno.test("subagent files are filed under their parent with an id that never equals it when under subagents/", async () => {
  const run = await fixture();
  for (
    const agent of [
      "a1b2c3d4e5f6a7b8",
      "aside_question-5e6f7a8b9c0d1e2f",
      "acompact-0a1b2c3d4e5f6071",
    ]
  ) {
    const s = byId(run, `${MAIN}/agent-${agent}`);
    assertEquals(s.parent, MAIN);
    assertNotEquals(s.id, s.parent);
  }
  assertEquals(byId(run, MAIN).parent, undefined);
});

Deno.test("legacy agent-<hex> file beside the sessions takes its parent from sessionId", async () => {
  const run = await fixture();
  const s = byId(run, "7d1e0c55-9a0b-4c2d-8e3f-222222222222/agent-b31c0de");
  assertEquals(s.parent, "7d1e0c55-9a0b-4c2d-8e3f-222222222222");
  assertEquals(ofKind(s, "user")[0].text, "Find where the config file is loaded");
});

// Regression (2027-01, real store of Claude Code 2.1.1): the cache warm-up sidechain (prompt
// "Warmup", answered by a <synthetic> API error) showed in `deja last` and became "where the
// last session in this project left off" in hook-context.
Deno.test("a Warmup sidechain is not indexed, whole or resumed from an offset", async () => {
  const run = await fixture();
  assertEquals(run.sessions.filter((s) => s.id.endsWith("/agent-a227a46")), []);
  const file = "-w/agent-a9a9a9a.jsonl";
  const head = {
    parentUuid: null,
    isSidechain: true,
    sessionId: "7d1e0c55-9a0b-4c2d-8e3f-999999999999",
    agentId: "a9a9a9a",
    cwd: "/w",
    type: "user",
    message: { role: "user", content: "Warmup" },
    uuid: "w1",
    timestamp: "2026-01-12T19:39:59.649Z",
  };
  const reply = {
    ...head,
    parentUuid: "w1",
    type: "assistant",
    uuid: "w2",
    message: {
      id: "m1",
      model: "claude-haiku-4-5",
      role: "assistant",
      content: [{ type: "text", text: "Ready to help." }],
    },
  };
  const st = store({ [file]: [head] });
  try {
    const first = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(first.sessions, []);
    // Not work, and not a damaged record either: counted as not a session (sources says why).
    assertEquals(first.ctx.counts, { not_session: 1 });
    appendFileSync(join(st.root, file), JSON.stringify(reply) + "\n");
    const more = await parseOne(claude, src(join(st.root, file)), st.env, {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    assertEquals(more.sessions, []);
  } finally {
    st.cleanup();
  }
});

Deno.test("subagent parent comes from the directory name when its lines carry no sessionId", async () => {
  const parent = "1e2d3c4b-0000-4000-8000-000000000009";
  const st = store({
    [`-w/${parent}/subagents/agent-abc123.jsonl`]: [
      { type: "user", uuid: "x1", cwd: "/w", message: { role: "user", content: "sub task" } },
    ],
  });
  try {
    const { sessions } = await parseOne(
      claude,
      src(join(st.root, `-w/${parent}/subagents/agent-abc123.jsonl`)),
      st.env,
    );
    assertEquals(sessions.map((s) => [s.id, s.parent]), [[`${parent}/agent-abc123`, parent]]);
  } finally {
    st.cleanup();
  }
});

// Regression (2026-12, user trial on realdata win2-snapshot-only.jsonl and mac-summary-only.jsonl):
// a file of bookkeeping alone made no session and no count, so `deja sources` did not add up.
Deno.test("snapshot-only and summary-only files are counted as not sessions, with what they hold, when no record makes a session", async () => {
  const run = await fixture();
  const paths = run.sessions.map((s) => s.path);
  assert(!paths.some((p) => p.includes("3c4d5e6f-") || p.includes("4d5e6f70-")));
  assertEquals(run.skips, SKIPS(run.root));
  assertEquals(run.errors, {});
  const st = store({
    "-w/snap.jsonl": [
      { type: "file-history-snapshot", messageId: "m1", snapshot: { messageId: "m1" } },
    ],
    "-w/sum.jsonl": [{ type: "summary", summary: "Other work", leafUuid: "l1" }],
    "-w/both.jsonl": [
      { type: "summary", summary: "Other work", leafUuid: "l1" },
      { type: "file-history-snapshot", messageId: "m1", snapshot: { messageId: "m1" } },
    ],
  });
  try {
    const why = async (name: string) => {
      const r = await parseOne(claude, src(join(st.root, "-w", name)), st.env);
      assertEquals(r.sessions, []);
      assertEquals(r.ctx.counts, { not_session: 1 });
      return r.ctx.examples[0];
    };
    assert((await why("snap.jsonl")).endsWith("snap.jsonl@0: file-history snapshots only"));
    assert((await why("sum.jsonl")).endsWith("sum.jsonl@0: summaries of other sessions only"));
    assert(
      (await why("both.jsonl")).endsWith(
        "both.jsonl@0: bookkeeping only (summary, file-history-snapshot)",
      ),
    );
  } finally {
    st.cleanup();
  }
});

Deno.test("a bookkeeping-only file is read whole again once it grows into a session, so its not-session count goes", async () => {
  const file = "-w/grow.jsonl";
  const st = store({ [file]: [{ type: "summary", summary: "Other work", leafUuid: "l1" }] });
  try {
    const first = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(first.ctx.counts, { not_session: 1 });
    // The next pass starts from the top (no carried count), not past the summary line.
    assertEquals(first.ctx.endOffset, 0);
    appendFileSync(join(st.root, file), JSON.stringify(rec("user", "u1", "fix the build")) + "\n");
    const again = await parseOne(claude, src(join(st.root, file)), st.env, {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    assertEquals(again.sessions.map((s) => s.id), [SID]);
    assertEquals(again.ctx.counts, {});
    assert(again.ctx.endOffset! > 0);
  } finally {
    st.cleanup();
  }
});

Deno.test("project is the recorded cwd as written, Windows paths included", async () => {
  const run = await fixture();
  assertEquals(byId(run, MAIN).project, "/work/demo");
  assertEquals(byId(run, "5e6f7081-0000-4000-8000-555555555555").project, "c:\\Users\\dev\\app");
});

Deno.test("project is decoded from the directory name only when no cwd is recorded", async () => {
  const run = await fixture();
  assertEquals(byId(run, "6f708192-0000-4000-8000-666666666666").project, "/work/legacy");
});

Deno.test("title prefers custom-title over ai-title over summary when several are present", async () => {
  const run = await fixture();
  assertEquals(byId(run, MAIN).title, "Fix the demo tests"); // ai-title beats the leading summary
  assertEquals(byId(run, "5e6f7081-0000-4000-8000-555555555555").title, "Windows line endings");
});

Deno.test("split assistant lines keep every block and a repeated line collapses when keyed by message id and block", async () => {
  const run = await fixture();
  const s = byId(run, MAIN);
  const reads = ofKind(s, "tool_call").filter((e) => e.tool?.id === "toolu_demo_03");
  assertEquals(reads.length, 1);
  const texts = ofKind(s, "assistant").map((e) => e.text);
  assert(texts.includes("Found it. Editing now.") && texts.includes("Three changes are needed."));
  const keys = s.events.map((e) => e.key);
  assertEquals(new Set(keys).size, keys.length);
});

Deno.test("thinking blocks are dropped when a message carries them", async () => {
  const run = await fixture();
  assert(!JSON.stringify(byId(run, MAIN)).includes("ponder quietly"));
});

Deno.test("tool calls carry command, paths, edits and writes by tool name", async () => {
  const s = byId(await fixture(), MAIN);
  const call = (id: string) => ofKind(s, "tool_call").find((e) => e.tool?.id === id)!.tool!;
  assertEquals(call("toolu_demo_01").command, "go test ./...");
  assertEquals(call("toolu_demo_03").paths, ["/work/demo/README.md"]);
  assertEquals(call("toolu_demo_04").edits, [{
    path: "/work/demo/README.md",
    old: "hello world",
    new: "hello deja",
  }]);
  assertEquals(call("toolu_demo_05").edits?.map((e) => e.old), ["const a = 1;", "export { a };"]);
  assertEquals(call("toolu_demo_06").writes, [{
    path: "/work/demo/NOTES.md",
    content: "# Notes\n\nTests fixed.\n",
  }]);
  assertEquals(call("toolu_demo_07").writes, [{
    path: "/work/demo/analysis.ipynb",
    content: "print('hi')",
  }]);
  // Grep {pattern, path: "src"} searches a directory: no file read.
  assertEquals(call("toolu_demo_08").paths, undefined);
  assertEquals(call("toolu_demo_08").input, { pattern: "TODO", path: "src" });
  assert(ofKind(s, "tool_call").every((e) => e.text === ""));
});

Deno.test("relative paths join the cwd Windows-style when the cwd is a Windows path", async () => {
  const s = byId(await fixture(), "5e6f7081-0000-4000-8000-555555555555");
  assertEquals(
    ofKind(s, "tool_call")[0].tool?.edits?.[0].path,
    "c:\\Users\\dev\\app\\src\\main.py",
  );
});

Deno.test("tool results carry callId, isError and exit when the Bash result starts with Exit code", async () => {
  const s = byId(await fixture(), MAIN);
  const res = (id: string) => ofKind(s, "tool_result").find((e) => e.result?.callId === id)!;
  assertEquals(res("toolu_demo_02").result, { callId: "toolu_demo_02", isError: true, exit: 1 });
  // A clean run (`toolUseResult` with `interrupted: false`, nothing backgrounded) is exit 0.
  assertEquals(res("toolu_demo_01").result, { callId: "toolu_demo_01", isError: false, exit: 0 });
  // The reminder stripped; the image beside the text said (trial 112 F7).
  assertEquals(
    res("toolu_demo_03").text,
    "1\t# Demo\n2\t\n3\thello world\n(image: image/png, 8 B)",
  );
  assertEquals(res("toolu_demo_08").text, "src/app.ts:3: // TODO"); // block-array content
});

Deno.test("a Write over an existing file keeps the file it replaced (originalFile of an update)", async () => {
  // Claude Code 2.1.332's Write output schema (read in its bundle): `type` create or update,
  // `originalFile` the content before, null for a new file or one too large to include.
  const run = (id: string, toolUseResult: unknown, isError = false) =>
    rec(
      "user",
      id,
      [{ type: "tool_result", tool_use_id: id, content: "done", is_error: isError }],
      {
        toolUseResult,
      },
    );
  const w = { filePath: "/w/a.py", content: "new\n", structuredPatch: [] };
  const st = store({
    "-t/w.jsonl": [
      run("w1", { ...w, type: "update", originalFile: "old\n" }),
      run("w2", { ...w, type: "create", originalFile: null }),
      run("w3", { ...w, type: "update", originalFile: null }),
      run("w4", { ...w, type: "update", originalFile: "old\n" }, true),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, "-t/w.jsonl")), st.env);
    assertEquals(sessions[0].events.map((e) => e.result?.overwritten ?? null), [
      "old\n",
      null,
      null,
      null,
    ]);
    // A write of type create made the file: nothing was there before it (trial 110 F6).
    assertEquals(sessions[0].events.map((e) => e.result?.created ?? false), [
      false,
      true,
      false,
      false,
    ]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a Bash result is exit 0 only when toolUseResult shows a clean end (farm, Claude Code 2.1.332)", async () => {
  // Shapes Claude Code 2.1.332 wrote in the farm (docs/registry/claude.md): a clean run; one
  // run in the background; one moved to the background at its timeout; a timeout (an error
  // result, `Exit code 143`); grep's 1, which its Bash tool does not call an error.
  const run = (id: string, content: string, toolUseResult: unknown, isError = false) =>
    rec("user", id, [{ type: "tool_result", tool_use_id: id, content, is_error: isError }], {
      toolUseResult,
    });
  const clean = { stdout: "ok", stderr: "", interrupted: false, isImage: false };
  const st = store({
    "-t/a.jsonl": [
      run("t1", "ok", clean),
      run("t2", "Command running in background with ID: b1.", {
        ...clean,
        stdout: "",
        backgroundTaskId: "b1",
      }),
      run("t3", "partial\nCommand did not complete within its 1s timeout", {
        ...clean,
        stdout: "partial",
        backgroundTaskId: "b2",
        timedOutAfterMs: 1000,
      }),
      run("t4", "Exit code 143\nCommand timed out after 1s", "Error: Exit code 143", true),
      run("t5", "", { ...clean, stdout: "", returnCodeInterpretation: "No matches found" }),
      run("t6", "^C", { ...clean, interrupted: true }),
      run("t7", "file text", { type: "text", file: { filePath: "/a", content: "x" } }),
      // Its output says it went to the background, though toolUseResult lacks the task id
      // (trial 19: read as exit 0).
      run("t8", "Command running in background with ID: bash_1.", { ...clean, stdout: "" }),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, "-t/a.jsonl")), st.env);
    const exits = sessions[0].events.map((e) => [e.result?.callId, e.result?.exit ?? null]);
    assertEquals(exits, [
      ["t1", 0],
      ["t2", null],
      ["t3", null],
      ["t4", 143],
      ["t5", null],
      ["t6", null],
      ["t7", null],
      ["t8", null],
    ]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a call Claude Code never ran (refused, denied, interrupted) has a result marked not run", async () => {
  // Trial 13: such calls showed as `failed` in show, ctx and how. The texts are Claude Code's
  // own (its bundled source, 2.1.332).
  const res = (id: string, content: string) =>
    rec("user", id, [{ type: "tool_result", tool_use_id: id, content, is_error: true }]);
  const st = store({
    "-t/a.jsonl": [
      res(
        "n1",
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
      ),
      res("n2", "Permission to use Bash with command rm -rf build has been denied."),
      res("n3", "[Request interrupted by user for tool use]"),
      res("n4", "Exit code 1\nPermission to use this is not what failed"),
      res("n5", "PreToolUse:Bash hook error: [deny-curl]: network calls are blocked"),
      rec("user", "n6", [{
        type: "tool_result",
        tool_use_id: "n6",
        content: "[Request interrupted by user for tool use]",
        is_error: true,
      }], { toolUseResult: { stdout: "building 3/9", stderr: "", interrupted: true } }),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, "-t/a.jsonl")), st.env);
    const notRun = sessions[0].events.map((e) => [e.result?.callId, e.result?.notRun ?? false]);
    // n6 ran and was stopped (its output so far kept): not "never ran".
    assertEquals(notRun, [["n1", true], ["n2", true], ["n3", true], ["n4", false], [
      "n5",
      true,
    ], ["n6", false]]);
  } finally {
    st.cleanup();
  }
});

Deno.test("tool_use_error framing is removed and toolUseResult fills an empty result", async () => {
  const s = byId(await fixture(), "5e6f7081-0000-4000-8000-555555555555");
  assertEquals(
    ofKind(s, "tool_result")[0].text,
    "File has not been read yet. Read it first before writing to it.",
  );
  const st = store({
    "-t/a.jsonl": [
      rec("user", "r1", [{ type: "tool_result", tool_use_id: "t1", content: "" }], {
        toolUseResult: { stdout: "out line", stderr: "err line", interrupted: false },
      }),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, "-t/a.jsonl")), st.env);
    assertEquals(sessions[0].events[0].text, "out line\nerr line");
  } finally {
    st.cleanup();
  }
});

Deno.test("meta and command-injected user content does not pose as user prose", async () => {
  const s = byId(await fixture(), MAIN);
  const users = ofKind(s, "user").map((e) => e.text);
  assertEquals(users, [
    "Please fix the failing demo tests",
    "/model sonnet",
    "Looks good; now update the changelog too",
    "and mention the Windows fix",
    "!git status",
  ]);
});

Deno.test("a compact summary user line becomes a summary event", async () => {
  const s = byId(await fixture(), MAIN);
  const sums = ofKind(s, "summary");
  assertEquals(sums.length, 1);
  assert(sums[0].text.startsWith("This session is being continued"));
});

Deno.test("the compaction subagent's own instruction is a notice, not the user's words, when the agent is acompact", async () => {
  const s = byId(await fixture(), `${MAIN}/agent-acompact-0a1b2c3d4e5f6071`);
  assertEquals(ofKind(s, "user").map((e) => e.text), ["Please fix the failing demo tests"]);
  // Shown where it was asked, so the summary after it does not read as the answer to the user.
  const kinds = s.events.map((e) => e.kind);
  const notice = kinds.indexOf("notice");
  assert(notice > kinds.indexOf("user"), kinds.join(" "));
  assertEquals(s.events[notice].text, COMPACT_NOTICE);
  assert(!s.events.some((e) => e.text.includes("create a detailed summary")));
});

Deno.test("model comes from message.model and skips <synthetic> when an API error is synthesised", async () => {
  const run = await fixture();
  // Its last reply is a <synthetic> API error: the model stays the one that worked.
  assertEquals(byId(run, MAIN).model, "claude-sonnet-4-6");
});

// ---- hostile set ----

Deno.test("an empty file yields nothing and is counted empty once", async () => {
  const st = store({ "-t/empty.jsonl": [] });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/empty.jsonl")), st.env);
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
    assertEquals(ctx.endOffset, 0);
  } finally {
    st.cleanup();
  }
});

Deno.test("truncated last line is left for the next run and a later append completes it", async () => {
  const first = JSON.stringify(rec("user", "p1", "first prompt")) + "\n";
  const second = JSON.stringify(rec("assistant", "p2", [{ type: "text", text: "second reply" }]));
  const st = store({});
  const path = join(st.root, "-t/s.jsonl");
  mkdirSync(join(st.root, "-t"));
  writeFileSync(path, first + second.slice(0, 40));
  try {
    const a = await parseOne(claude, src(path), st.env);
    assertEquals(a.ctx.endOffset, new TextEncoder().encode(first).length);
    assertEquals(a.sessions[0].events.map((e) => e.text), ["first prompt"]);
    appendFileSync(path, second.slice(40) + "\n");
    const b = await parseOne(claude, src(path), st.env, {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions.map((s) => s.id), [SID]);
    assertEquals(b.sessions[0].events.map((e) => e.text), ["second reply"]);
    assertEquals(b.ctx.skipped, 0);
  } finally {
    st.cleanup();
  }
});

Deno.test("malformed line mid-file is counted and the rest still parses", async () => {
  const st = store({
    "-t/m.jsonl": [
      rec("user", "a", "before"),
      '{"type":"user","message":',
      rec("user", "b", "after"),
    ],
  });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/m.jsonl")), st.env);
    assertEquals(ctx.counts, { malformed_json: 1 });
    assertEquals(sessions[0].events.map((e) => e.text), ["before", "after"]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a line with invalid UTF-8 in its text keeps its message, the bad bytes replaced, counted once", async () => {
  const st = store({});
  const path = join(st.root, "bad.jsonl");
  const enc = new TextEncoder();
  const [head, tail] = JSON.stringify(rec("user", "b", "before MARKER after")).split("MARKER");
  const bad = new Uint8Array([
    ...enc.encode(head),
    0xff,
    0xfe,
    0xc3,
    ...enc.encode(`zebra${tail}\n`),
  ]);
  const good = enc.encode(JSON.stringify(rec("user", "g", "still here")) + "\n");
  writeFileSync(path, new Uint8Array([...bad, ...good]));
  try {
    const { sessions, ctx } = await parseOne(claude, src(path), st.env);
    assertEquals(ctx.counts, { invalid_utf8: 1 });
    assertEquals(sessions[0].events.map((e) => e.text), [
      "before \ufffd\ufffd\ufffdzebra after",
      "still here",
    ]);
  } finally {
    st.cleanup();
  }
});

Deno.test("unknown first record is counted as unknown_record and the session still parses", async () => {
  const st = store({
    "-t/u.jsonl": [
      { type: "brand-new-kind", sessionId: SID },
      { no: "type" },
      rec("user", "a", "hi"),
    ],
  });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/u.jsonl")), st.env);
    assertEquals(ctx.counts, { unknown_record: 2 });
    assertEquals(sessions.map((s) => s.id), [SID]);
  } finally {
    st.cleanup();
  }
});

// Trial 56: an assistant block of a new type lost its text, with no count and no drift.
Deno.test("an assistant block of an unknown type is counted and its text kept", async () => {
  const st = store({
    "-t/k.jsonl": [
      rec("user", "a", "hi"),
      rec("assistant", "b", [
        { type: "thinking", thinking: "hmm" },
        { type: "hyperlink_block", text: "new content block kind zorblax" },
        { type: "text", text: "done" },
      ]),
    ],
  });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/k.jsonl")), st.env);
    assertEquals(ctx.counts, { unknown_record: 1 });
    assertEquals(
      sessions[0].events.filter((e) => e.kind === "assistant").map((e) => e.text),
      ["new content block kind zorblax", "done"],
    );
  } finally {
    st.cleanup();
  }
});

// Trial 96 F6, F7: a block whose content is in another field was said "(its text kept)", and a
// message of an unknown role was filed as the user's with no drift note.
Deno.test("an unknown block with no text is said lost, and an odd role is noted as drift", async () => {
  const odd = rec("user", "c", "critic says pelicanfeather");
  (odd.message as Record<string, unknown>).role = "critic";
  const st = store({
    "-t/r.jsonl": [
      rec("user", "a", "hi"),
      rec("assistant", "b", [{ type: "hologram", data: "octarine" }, { type: "text", text: "ok" }]),
      odd,
    ],
  });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/r.jsonl")), st.env);
    const notes = ctx.drifted().notes.map((n) => [n.kind, n.detail]);
    assertEquals(notes, [
      ["content", "assistant content block of type hologram (no text field: nothing of it read)"],
      ["roles", "message role critic in a user record (read as user)"],
    ]);
    // Read as the user's all the same: nothing typed is lost.
    assertEquals(
      sessions[0].events.filter((e) => e.kind === "user").map((e) => e.text),
      ["hi", "critic says pelicanfeather"],
    );
  } finally {
    st.cleanup();
  }
});

Deno.test("bookkeeping records at line 1 are ignored silently", async () => {
  const st = store({
    "-t/b.jsonl": [
      { type: "queue-operation", operation: "enqueue", sessionId: SID },
      { type: "cost-state", sessionId: SID },
      { type: "tools-used", tools: ["Bash"], sessionId: SID },
      rec("user", "a", "hi"),
    ],
  });
  try {
    const { sessions, ctx } = await parseOne(claude, src(join(st.root, "-t/b.jsonl")), st.env);
    assertEquals(ctx.skipped, 0);
    assertEquals(sessions[0].events.length, 1);
  } finally {
    st.cleanup();
  }
});

Deno.test("resumed parse from an offset yields the same session id, project and title", async () => {
  const head = [
    { type: "ai-title", aiTitle: "Resume me", sessionId: SID },
    rec("user", "a", "first"),
  ];
  // Appended lines carry neither sessionId nor cwd (older builds): both must come from state.
  const tail = [{ type: "user", uuid: "b", message: { role: "user", content: "second" } }];
  const st = store({ "-t/r.jsonl": head });
  const path = join(st.root, "-t/r.jsonl");
  try {
    const full0 = await parseOne(claude, src(path), st.env);
    appendFileSync(path, tail.map((l) => JSON.stringify(l) + "\n").join(""));
    const resumed = await parseOne(claude, src(path), st.env, {
      offset: full0.ctx.endOffset,
      state: JSON.parse(JSON.stringify(full0.ctx.endState)),
    });
    const full = await parseOne(claude, src(path), st.env);
    assertEquals(resumed.sessions.map((s) => s.id), full.sessions.map((s) => s.id));
    assertEquals(resumed.sessions[0].project, "/work/t");
    assertEquals(resumed.sessions[0].title, "Resume me");
    assertEquals(resumed.sessions[0].events.map((e) => e.text), ["second"]);
  } finally {
    st.cleanup();
  }
});

Deno.test("resumed parse yields a title-only chunk when only a title was appended", async () => {
  const st = store({ "-t/t.jsonl": [rec("user", "a", "first")] });
  const path = join(st.root, "-t/t.jsonl");
  try {
    const a = await parseOne(claude, src(path), st.env);
    appendFileSync(
      path,
      JSON.stringify({ type: "custom-title", customTitle: "Named later", sessionId: SID }) + "\n",
    );
    const b = await parseOne(claude, src(path), st.env, {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions.map((s) => [s.id, s.title, s.events.length]), [[
      SID,
      "Named later",
      0,
    ]]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a large file streams in chunks of at most CHUNK_EVENTS events", async () => {
  const n = CHUNK_EVENTS * 2 + 10;
  const lines = Array.from({ length: n }, (_, i) => rec("user", `u${i}`, `prompt ${i}`));
  const st = store({ "-t/big.jsonl": lines });
  try {
    const ctx = new SourceCtx(st.env);
    const sizes: number[] = [];
    for await (const s of claude.parse(src(join(st.root, "-t/big.jsonl")), ctx)) {
      assertEquals(s.id, SID);
      sizes.push(s.events.length);
    }
    assertEquals(sizes, [CHUNK_EVENTS, CHUNK_EVENTS, 10]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a first chunk asked small comes after that many events, the next ones doubling up to CHUNK_EVENTS", async () => {
  // A parse worker's first source (lib/parse_worker.ts): the writer starts on the first records.
  const n = CHUNK_EVENTS * 2 + 10;
  const lines = Array.from({ length: n }, (_, i) => rec("user", `u${i}`, `prompt ${i}`));
  const st = store({ "-t/big.jsonl": lines });
  try {
    const read = async (ctx: SourceCtx) => {
      const out: Session[] = [];
      for await (const s of claude.parse(src(join(st.root, "-t/big.jsonl")), ctx)) out.push(s);
      return out;
    };
    const small = new SourceCtx(st.env);
    small.firstChunkEvents = 8;
    const ramped = await read(small);
    const sizes = ramped.map((s) => s.events.length);
    const rest = n - (8 + 16 + 32 + 64 + 128 + CHUNK_EVENTS);
    assertEquals(sizes, [8, 16, 32, 64, 128, CHUNK_EVENTS, rest]);
    // The same events, titles and times as in chunks cut as usual.
    const whole = await read(new SourceCtx(st.env));
    assertEquals(ramped.flatMap((s) => s.events), whole.flatMap((s) => s.events));
    assertEquals(ramped.at(-1)?.updated, whole.at(-1)?.updated);
  } finally {
    st.cleanup();
  }
});

Deno.test("a file of long lines streams in chunks of about CHUNK_BYTES, not CHUNK_EVENTS", async () => {
  // Before: 20 lines of 600 kB were held whole in one chunk (12 MB of text before any cap).
  const long = "x".repeat(600_000);
  const lines = Array.from({ length: 20 }, (_, i) => rec("user", `u${i}`, `prompt ${i} ${long}`));
  const st = store({ "-t/long.jsonl": lines });
  try {
    const sizes: number[] = [];
    for await (
      const s of claude.parse(src(join(st.root, "-t/long.jsonl")), new SourceCtx(st.env))
    ) {
      sizes.push(s.events.length);
    }
    const per = Math.ceil(CHUNK_BYTES / (JSON.stringify(lines[0]).length + 1));
    assert(per < 20);
    assertEquals(sizes, [per, per, 20 - 2 * per]);
  } finally {
    st.cleanup();
  }
});

// ---- real stores ----

const REAL = join(REPO, "../shared/realdata");
const exists = (p: string) => {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
};
const FARM = join(REAL, "farm/claude/home/.claude");

Deno.test({
  name: "farm store yields the marker, the failed cat with exit 1 and the README edit",
  ignore: !exists(FARM),
  async fn() {
    const env = testEnv("/nonexistent-home", { CLAUDE_CONFIG_DIR: FARM });
    const run = await runParser(claude, env);
    assertEquals(run.errors, {});
    assertEquals(run.skips, {});
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals(s.id, "9eff8ccb-e5dd-4c6c-84ca-b0f1e2423dd5");
    assertEquals(s.project, "/tmp/farm/claude/proj");
    assertEquals(s.model, "claude-opus-5-5");
    assert(ofKind(s, "assistant").some((e) => e.text.includes("zebrafinch-claude")));
    const cat = ofKind(s, "tool_call").find((e) => e.tool?.command === "cat missing.txt");
    assert(cat?.tool?.id, "cat missing.txt call");
    const res = ofKind(s, "tool_result").find((e) => e.result?.callId === cat.tool!.id);
    assertEquals(res?.result?.isError, true);
    assertEquals(res?.result?.exit, 1);
    const edits = ofKind(s, "tool_call").flatMap((e) => e.tool?.edits ?? []);
    assert(
      edits.some((e) =>
        e.path.endsWith("/README.md") && e.old === "hello world" && e.new === "hello zebrafinch"
      ),
    );
    assertEquals(ofKind(s, "user").length, 1); // attachments / reminders are not prose
  },
});

const PUBLIC = join(REAL, "claude-code");
/** Files that hold no session, and why. */
/** Public files that make no session, each by the reason its `not_session` count gives. */
const EMPTY: Record<string, string> = {
  "win2-snapshot-only.jsonl": "file-history snapshots only",
  "mac-summary-only.jsonl": "summaries of other sessions only",
  "mac-2.1.1-legacy-agent-warmup-api-error.jsonl": "a cache warm-up",
};

Deno.test({
  name: "public Claude Code files each yield sessions or a stated reason, with nothing skipped",
  ignore: !exists(PUBLIC),
  async fn() {
    const env = testEnv("/nonexistent-home");
    const names = [...Deno.readDirSync(PUBLIC)].map((e) => e.name).filter((n) =>
      n.endsWith(".jsonl")
    );
    for (const name of names.sort()) {
      // history.jsonl is prompt history kept outside projects/: discovery never reads it.
      if (name === "win-history.jsonl") continue;
      const { sessions, ctx } = await parseOne(claude, src(join(PUBLIC, name)), env);
      assertEquals(ctx.counts, EMPTY[name] ? { not_session: 1 } : {}, name);
      if (EMPTY[name]) assert(ctx.examples[0].includes(`@0: ${EMPTY[name]}`), ctx.examples[0]);
      if (EMPTY[name]) assertEquals(sessions, [], `${name}: ${EMPTY[name]}`);
      else {
        assert(sessions.length >= 1, name);
        for (const s of sessions) {
          assert(s.events.length > 0 && s.project && s.started, name);
        }
      }
    }
  },
});

Deno.test({
  name: "public subagent files are filed under the parent and Windows cwd is kept as written",
  ignore: !exists(PUBLIC),
  async fn() {
    const env = testEnv("/nonexistent-home");
    const one = async (n: string) => (await parseOne(claude, src(join(PUBLIC, n)), env)).sessions;
    const [aside] = await one("win-2.1.86-subagent-aside_question.jsonl");
    assertEquals(
      aside.id,
      "237326ca-5e6a-4313-b3dd-44df36143943/agent-aside_question-7a81e4850e48fc1e",
    );
    assertEquals(aside.parent, "237326ca-5e6a-4313-b3dd-44df36143943");
    assertEquals(aside.project, "C:\\Users\\user\\Documents\\IDAHO-VAULT");
    assert(
      ofKind(aside, "user").some((e) => e.text === "it's fun to see you in a terminal window!"),
    );
    const [vscode] = await one("win-vscode-2.1.81-session.jsonl");
    assertEquals(vscode.title, "Configure VS Code extensions");
    assertEquals(vscode.project, "c:\\Users\\user\\Documents\\IDAHO-VAULT");
    const [compact] = await one("win2-2.1.68-subagent-acompact.jsonl");
    assert(!ofKind(compact, "user").some((e) => e.text.startsWith("Your task is to create")));
  },
});

Deno.test("an interrupt marker and a local command's output are harness notices, never the user's words", async () => {
  const file = `-work-t/${SID}.jsonl`;
  const st = store({
    [file]: [
      rec("user", "u1", "<command-name>/login</command-name>\n<command-args></command-args>"),
      rec(
        "user",
        "u2",
        "<local-command-stdout>Login \x1b[1minterrupted\x1b[22m</local-command-stdout>",
      ),
      rec("user", "u3", "<local-command-stdout>(no content)</local-command-stdout>"),
      rec("user", "u4", "fix the login screen"),
      rec("user", "u5", [{ type: "text", text: "[Request interrupted by user]" }]),
      rec("user", "u6", "keep going"),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "/login"],
      ["notice", "Login interrupted"],
      ["user", "fix the login screen"],
      ["notice", "[Request interrupted by user]"],
      ["user", "keep going"],
    ]);
  } finally {
    st.cleanup();
  }
});

Deno.test("a command the person ran in bash mode is theirs, and its output a notice", async () => {
  // Trial 103 F9: `show` printed `!frobnicate --version` and never its output.
  const file = `-work-t/${SID}.jsonl`;
  const st = store({
    [file]: [
      rec("user", "u1", "<bash-input>frobnicate --version</bash-input>"),
      rec(
        "user",
        "u2",
        "<bash-stdout>frobnicate \x1b[1m1.2.3\x1b[22m</bash-stdout><bash-stderr>warn: old</bash-stderr>",
      ),
      rec("user", "u3", "<bash-input>true</bash-input>"),
      rec("user", "u4", "<bash-stdout></bash-stdout><bash-stderr></bash-stderr>"),
      rec("user", "u5", "now upgrade it"),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "!frobnicate --version"],
      ["notice", "frobnicate 1.2.3\nwarn: old"],
      ["user", "!true"],
      ["user", "now upgrade it"],
    ]);
  } finally {
    st.cleanup();
  }
});

// Regression (2026-12, new-user trial on a real store, realdata mac-2.0.2-session.jsonl): the
// IDE's `<ide_selection>` beside a prompt was dropped, so the selected code was found nowhere.
Deno.test("IDE context (ide_selection, ide_opened_file, ide_diagnostics) is a notice before the prompt, never its words", async () => {
  const file = `-work-t/${SID}.jsonl`;
  const selection = "<ide_selection>The user selected the lines 3 to 4 from /w/t/a.hbs:\n" +
    "{{#if ready}}\n\nThis may or may not be related to the current task.</ide_selection>";
  const st = store({
    [file]: [
      rec("user", "u1", [
        { type: "text", text: selection },
        { type: "text", text: "why does this block never render?" },
      ]),
      rec(
        "user",
        "u2",
        "<ide_opened_file>The user opened the file /w/t/b.ts in the IDE.</ide_opened_file>" +
          "<ide_diagnostics>b.ts:1 unused import</ide_diagnostics>keep going" +
          "<ide_selection>  </ide_selection>",
      ),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text, e.key]), [
      [
        "notice",
        "The user selected the lines 3 to 4 from /w/t/a.hbs:\n{{#if ready}}\n\n" +
        "This may or may not be related to the current task.",
        "i:u1:0",
      ],
      ["user", "why does this block never render?", "u:u1"],
      ["notice", "The user opened the file /w/t/b.ts in the IDE.", "i:u2:0"],
      ["notice", "b.ts:1 unused import", "i:u2:1"],
      ["user", "keep going", "u:u2"],
    ]);
  } finally {
    st.cleanup();
  }
});

// Trial 32: a file whose messages hold no text (an image-only prompt, a thinking-only reply)
// was read, made no session, and was counted nowhere: `sources --verbose` had no reason.
Deno.test("a file whose messages hold no text is counted as no session, with why", async () => {
  const st = store({
    "-w/image.jsonl": [
      rec("user", "u1", [{ type: "image", source: { type: "base64", data: "iVBORw0K" } }]),
      rec("assistant", "a1", [{ type: "thinking", thinking: "", signature: "s" }]),
    ],
  });
  try {
    const r = await parseOne(claude, src(join(st.root, "-w", "image.jsonl")), st.env);
    assertEquals(r.sessions, []);
    assertEquals(r.ctx.counts, { not_session: 1 });
    // The session named: `deja show` of it says why it is absent (trial 137 L1).
    assert(
      r.ctx.examples[0].endsWith(
        `image.jsonl@0: messages with no text to index (session ${SID})`,
      ),
      r.ctx.examples[0],
    );
    assertEquals(r.ctx.endOffset, 0);
  } finally {
    st.cleanup();
  }
});

Deno.test("a summary heading a file is the title of the session after it, not of another read later (trial 34)", async () => {
  const other = "9a8b7c6d-0000-4000-8000-000000000002";
  const file = "-w/two.jsonl";
  const st = store({
    [file]: [
      { type: "summary", summary: "Charges finder", leafUuid: "elsewhere" },
      rec("user", "a1", "find the recurring charges"),
      rec("assistant", "a2", [{ type: "text", text: "Found them." }]),
      rec("user", "b1", "another task", { sessionId: other }),
      rec("assistant", "b2", [{ type: "text", text: "Done." }], { sessionId: other }),
    ],
  });
  try {
    const path = join(st.root, file);
    const run = await parseOne(claude, src(path), st.env);
    const titles = new Map<string, string | undefined>();
    for (const s of run.sessions) if (s.title || !titles.has(s.id)) titles.set(s.id, s.title);
    assertEquals(titles.get(SID), "Charges finder");
    assertEquals(titles.get(other), undefined);
    // The first session written to again at the end: the title stays its own.
    appendFileSync(path, JSON.stringify(rec("user", "a3", "and the yearly ones")) + "\n");
    const again = await parseOne(claude, src(path), st.env, {
      offset: run.ctx.endOffset,
      state: run.ctx.endState,
    });
    assertEquals(again.sessions.filter((s) => s.title).map((s) => [s.id, s.title]), [
      [SID, "Charges finder"],
    ]);
  } finally {
    st.cleanup();
  }
});

// Trial 112 F7 (Claude Code 2.1.88, a Read of `Screenshot … .jpg`): the result's content was a
// base64 image alone, and `show` and the view printed a blank result.
Deno.test("an image in a tool result is said with its type and size, the file's when the Read names it", async () => {
  const file = `-work-t/${SID}.jsonl`;
  const jpeg = "/9j/4AAQ".repeat(100); // 800 characters of base64: 600 bytes
  const image = (data: string, media_type: string) => ({
    type: "image",
    source: { type: "base64", media_type, data },
  });
  const st = store({
    [file]: [
      rec("user", "u1", "what is on the screenshot?"),
      rec("assistant", "a1", [{
        type: "tool_use",
        id: "r1",
        name: "Read",
        input: { file_path: "/work/t/shot.jpg" },
      }]),
      rec("user", "u2", [{
        type: "tool_result",
        tool_use_id: "r1",
        content: [image(jpeg, "image/jpeg")],
      }], {
        toolUseResult: {
          type: "image",
          file: { base64: jpeg, type: "image/jpeg", originalSize: 240551 },
        },
      }),
      rec("assistant", "a2", [{ type: "tool_use", id: "r2", name: "Screenshot", input: {} }]),
      rec("user", "u3", [{
        type: "tool_result",
        tool_use_id: "r2",
        content: [{ type: "text", text: "captured" }, image(jpeg, "image/png")],
      }]),
    ],
  });
  try {
    const { sessions } = await parseOne(claude, src(join(st.root, file)), st.env);
    assertEquals(ofKind(sessions[0], "tool_result").map((e) => e.text), [
      "(image: image/jpeg, 234.9 KiB)",
      "captured\n(image: image/png, 600 B)",
    ]);
  } finally {
    st.cleanup();
  }
});
