import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { taskToolInfo } from "./_task_tools.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { cline } from "./cline.ts";
import { searchReplaceBlocks, splitXmlTools } from "./_task_tools.ts";
import { tempDir } from "../tests/_tmp.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { mergeChunks } from "../lib/merge.ts";

const FIXTURE = join(REPO, "fixtures/registry/cline");
const TASK = "1795000000000";
const CLI = "1795000200000_abcde";

async function fixture(): Promise<
  { sessions: Session[]; skips: Record<string, Record<string, number>> }
> {
  const fx = materialize(FIXTURE);
  try {
    const run = await runParser(
      cline,
      testEnv(join(fx.root, "__home__"), { DEJA_CLINE_ROOT: fx.root }),
    );
    const skips: Record<string, Record<string, number>> = {};
    for (const [k, v] of Object.entries(run.skips)) skips[k.replace(fx.root, "<root>")] = v;
    return { sessions: run.sessions, skips };
  } finally {
    fx.cleanup();
  }
}

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

function callOf(events: Event[], pred: (e: Event) => boolean): Event {
  const e = events.find((x) => x.kind === "tool_call" && pred(x));
  assert(e, "no matching tool_call");
  return e;
}

function resultOf(events: Event[], callId: string | undefined): Event {
  const e = events.find((x) => x.kind === "tool_result" && x.result?.callId === callId);
  assert(e, `no result for ${callId}`);
  return e;
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-cline-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const taskSource = (path: string): SourceRef => ({ harness: "cline", path, kind: "document" });

function writeTask(dir: string, id: string, body: string | Uint8Array): string {
  mkdirSync(join(dir, "tasks", id), { recursive: true });
  const p = join(dir, "tasks", id, "api_conversation_history.json");
  writeFileSync(p, body);
  return p;
}

Deno.test("discover finds extension tasks and CLI sessions under one root when DEJA_CLINE_ROOT is set", async () => {
  const fx = materialize(FIXTURE);
  try {
    const d = await cline.discover({
      env: testEnv(join(fx.root, "__home__"), { DEJA_CLINE_ROOT: fx.root }),
      knownProjects: [],
    });
    const rel = d.sources.map((s) => s.path.replace(fx.root, "")).sort();
    assertEquals(rel, [
      `/sessions/${CLI}/${CLI}.messages.json`,
      "/sessions/1795000300000_sub01/1795000300000_sub01.messages.json",
      "/tasks/1795000000000/api_conversation_history.json",
      "/tasks/1795000100000/api_conversation_history.json",
      "/tasks/1795000400000/api_conversation_history.json",
    ]);
    assert(d.sources.every((s) => s.kind === "document"));
  } finally {
    fx.cleanup();
  }
});

Deno.test("discover looks in ~/.cline/data and every editor's saoudrizwan.claude-dev storage when no override is set", async () => {
  await withTemp(async (home) => {
    writeTask(join(home, ".cline", "data"), "t1", "[]");
    writeTask(
      join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev"),
      "t2",
      "[]",
    );
    writeTask(
      join(home, ".config", "VSCodium", "User", "globalStorage", "saoudrizwan.claude-dev"),
      "t3",
      "[]",
    );
    writeTask(
      join(home, ".config", "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline"),
      "roo",
      "[]",
    );
    const d = await cline.discover({ env: testEnv(home, {}), knownProjects: [] });
    const ids = d.sources.map((s) => s.path.split("/").at(-2)).sort();
    assertEquals(ids, ["t1", "t2", "t3"]);
  });
});

Deno.test("discover uses CLINE_DIR/data when CLINE_DIR is set", async () => {
  await withTemp(async (home) => {
    writeTask(join(home, "elsewhere", "data"), "t9", "[]");
    const d = await cline.discover({
      env: testEnv(home, { CLINE_DIR: join(home, "elsewhere") }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.split("/").at(-2)), ["t9"]);
  });
});

Deno.test("parse takes title, project and start time from state/taskHistory.json when the task is listed", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, TASK);
  assertEquals(s.title, "Fix the failing build in src/app.ts");
  assertEquals(s.project, "/w/api");
  assertEquals(s.started, 1795000000000);
  assertEquals(s.model, "claude-sonnet-4");
});

Deno.test("parse keeps only the <task> text as the user turn and drops environment_details and notices", async () => {
  const { sessions } = await fixture();
  const users = session(sessions, TASK).events.filter((e) => e.kind === "user").map((e) => e.text);
  assertEquals(users, [
    "Fix the failing build in src/app.ts",
    "No, just finish up",
    "Thanks, looks good",
  ]);
  const all = session(sessions, TASK).events.map((e) => e.text).join("\n");
  for (
    const noise of [
      "environment_details",
      "TODO LIST",
      "task_progress",
      "TASK RESUMPTION",
      "the test output",
    ]
  ) {
    assert(!all.includes(noise), `${noise} leaked into the events`);
  }
});

Deno.test("parse maps execute_command to a command and reads the exit status from the result text", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, TASK).events;
  const call = callOf(ev, (e) => e.tool?.id === "tooluse_01");
  assertEquals(call.tool?.command, "npm test");
  const res = resultOf(ev, "tooluse_01");
  assertEquals(res.result?.exit, 1);
  assertEquals(res.result?.isError, true);
  assertEquals(res.text, "1 failing: total is off by one");
  assertEquals(resultOf(ev, "tooluse_06").result?.exit, 0);
});

Deno.test("parse turns replace_in_file SEARCH/REPLACE blocks into edits in both marker styles", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, TASK).events;
  assertEquals(callOf(ev, (e) => e.tool?.id === "tooluse_03").tool?.edits, [
    { path: "/w/api/src/app.ts", old: "const total = sum - 1;", new: "const total = sum;" },
  ]);
  assertEquals(callOf(ev, (e) => e.tool?.id === "tooluse_04").tool?.edits, [
    { path: "/w/api/README.md", old: "hello world", new: "hello zebrafinch" },
    { path: "/w/api/README.md", old: "## Old", new: "## New" },
  ]);
});

Deno.test("parse maps write_to_file to a write and read_file to a path relative to the task's cwd", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, TASK).events;
  assertEquals(callOf(ev, (e) => e.tool?.id === "tooluse_05").tool?.writes, [
    { path: "/w/api/NOTES.md", content: "Fixed the off-by-one in src/app.ts.\n" },
  ]);
  assertEquals(callOf(ev, (e) => e.tool?.id === "tooluse_02").tool?.paths, ["/w/api/src/app.ts"]);
  assertEquals(resultOf(ev, "tooluse_02").text, "const sum = 3;\nconst total = sum - 1;");
});

Deno.test("parse shows ask_followup_question and attempt_completion as assistant prose with the answer as a user turn", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, TASK).events;
  assert(
    !ev.some((e) =>
      e.tool?.name === "ask_followup_question" || e.tool?.name === "attempt_completion"
    ),
  );
  const texts = ev.map((e) => `${e.kind}:${e.text}`);
  const q = texts.indexOf("assistant:The build is green. Should I also update the changelog?");
  assert(q >= 0);
  assertEquals(texts[q + 1], "user:No, just finish up");
  assert(
    texts.includes(
      "assistant:The off-by-one is fixed and npm test passes. Marker: zebrafinch-cline-fixture",
    ),
  );
});

Deno.test("parse reads XML tool calls from assistant text and takes the project from environment_details when a task is not listed", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, "1795000100000");
  assertEquals(s.project, "/w/legacy");
  assertEquals(s.title, undefined);
  const call = callOf(s.events, (e) => e.tool?.name === "execute_command");
  assertEquals(call.tool?.command, "ls -la");
  assertEquals(s.events[s.events.indexOf(call) + 1].result?.exit, 0);
  assertEquals(callOf(s.events, (e) => e.tool?.name === "read_file").tool?.paths, [
    "/w/legacy/README.md",
  ]);
  assert(s.events.some((e) => e.kind === "assistant" && e.text === "Let me look around."));
  assert(
    !s.events.some((e) => e.text.includes("<execute_command>") || e.text.includes("Start with")),
  );
});

Deno.test("parse reads a CLI session with its manifest, one call per run_commands command and their exits", async () => {
  const { sessions } = await fixture();
  const s = session(sessions, CLI);
  assertEquals(s.project, "/w/cli-app");
  assertEquals(s.title, "Run the checks and fix README.md");
  assertEquals(s.started, Date.parse("2026-11-18T11:10:00.000Z"));
  assertEquals(s.model, "gpt-4o");
  assertEquals(s.events[0], {
    kind: "user",
    text: "Run the checks and fix README.md",
    time: 1795000201000,
  });
  const cat = callOf(s.events, (e) => e.tool?.command === "cat missing.txt");
  assertEquals(cat.tool?.id, "call_rc#1");
  const res = resultOf(s.events, "call_rc#1");
  assertEquals(res.result?.exit, 1);
  assertEquals(res.text, "cat: missing.txt: No such file or directory");
  assertEquals(resultOf(s.events, "call_rc#0").text, "README.md\napp.py");
});

Deno.test("parse maps the CLI's apply_patch, editor and read_files tools to edits and paths", async () => {
  const { sessions } = await fixture();
  const ev = session(sessions, CLI).events;
  assertEquals(callOf(ev, (e) => e.tool?.name === "apply_patch").tool?.edits, [
    { path: "/w/cli-app/README.md", old: "hello world", new: "hello zebrafinch" },
  ]);
  assertEquals(callOf(ev, (e) => e.tool?.name === "editor").tool?.edits, [
    { path: "/w/cli-app/app.py", old: "print(1)", new: "print(2)" },
  ]);
  assertEquals(callOf(ev, (e) => e.tool?.name === "read_files").tool?.paths, [
    "/w/cli-app/README.md",
    "/w/cli-app/app.py",
  ]);
  assertEquals(
    resultOf(ev, "call_ap").text,
    "Successfully applied patch to the following files:\nREADME.md",
  );
  assert(!ev.some((e) => e.text.includes("all done")), "thinking leaked");
});

Deno.test("parse files a non-lead CLI agent as its own session whose parent is the lead session", async () => {
  const { sessions } = await fixture();
  const sub = session(sessions, "1795000300000_sub01");
  assertEquals(sub.parent, CLI);
  assert(sub.id !== sub.parent);
  assertEquals(sub.events.at(-1)?.text, "No syntax errors.");
});

Deno.test("parse names a teammate file <id>:<agent> when it shares the lead's session id", async () => {
  await withTemp(async (dir) => {
    const sdir = join(dir, "sessions", "s1");
    mkdirSync(sdir, { recursive: true });
    const p = join(sdir, "s1.messages.json");
    writeFileSync(
      p,
      JSON.stringify({
        agent: "teammate-2",
        sessionId: "s1",
        messages: [{ role: "user", content: "hi", ts: 1 }],
      }),
    );
    const { sessions } = await parseOne(cline, taskSource(p), testEnv(dir));
    assertEquals(sessions[0].id, "s1:teammate-2");
    assertEquals(sessions[0].parent, "s1");
  });
});

Deno.test("parse counts an unknown block type and an unknown role and keeps the rest of the task", async () => {
  const { sessions, skips } = await fixture();
  assertEquals(skips[`<root>/tasks/${TASK}/api_conversation_history.json`], { unknown_record: 1 });
  assertEquals(skips["<root>/tasks/1795000100000/api_conversation_history.json"], {
    unknown_record: 1,
  });
  assert(
    session(sessions, "1795000100000").events.some((e) => e.text === "The readme says hello."),
  );
});

Deno.test("parse counts a torn task file as malformed_json and yields nothing for it", async () => {
  const { sessions, skips } = await fixture();
  assertEquals(skips["<root>/tasks/1795000400000/api_conversation_history.json"], {
    malformed_json: 1,
  });
  assert(!sessions.some((s) => s.id === "1795000400000"));
});

Deno.test("parse counts an empty task file as empty and yields nothing", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(dir, "e1", "");
    const { sessions, ctx } = await parseOne(cline, taskSource(p), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { empty: 1 });
  });
});

Deno.test("parse counts a task file that is not valid UTF-8 as invalid_utf8 and yields nothing", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(dir, "u1", new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]));
    const { sessions, ctx } = await parseOne(cline, taskSource(p), testEnv(dir));
    assertEquals(sessions, []);
    // read with replacement characters, which then are no JSON record
    assertEquals(ctx.counts, { invalid_utf8: 1, malformed_json: 1 });
  });
});

Deno.test("parse counts a first message with an unknown role and still reads the messages after it", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(
      dir,
      "r1",
      JSON.stringify([
        { role: "oracle", content: "?", ts: 1795000000000 },
        {
          role: "user",
          content: [{ type: "text", text: "<task>\nhi\n</task>" }],
          ts: 1795000001000,
        },
      ]),
    );
    const { sessions, ctx } = await parseOne(cline, taskSource(p), testEnv(dir));
    assertEquals(ctx.counts, { unknown_record: 1 });
    assertEquals(sessions[0].events.map((e) => e.text), ["hi"]);
  });
});

Deno.test("parse counts a history file that is neither an array nor an envelope as bad_shape", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(dir, "b1", JSON.stringify({ hello: "world" }));
    const { sessions, ctx } = await parseOne(cline, taskSource(p), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { bad_shape: 1 });
  });
});

Deno.test("a task resumed in another folder takes the folder its environment details last name, listed or not", async () => {
  await withTemp(async (dir) => {
    const env = (cwd: string) => ({
      type: "text",
      text:
        `<environment_details>\n# Current Working Directory (${cwd}) Files\na.ts\n</environment_details>`,
    });
    const body = (ts: number) =>
      JSON.stringify([
        {
          role: "user",
          ts,
          content: [{ type: "text", text: "<task>fix it</task>" }, env("/w/old copy")],
        },
        { role: "assistant", ts: ts + 1, content: [{ type: "text", text: "Looking." }] },
        {
          role: "user",
          ts: ts + 2,
          content: [{ type: "text", text: "[TASK RESUMPTION] go on" }, env("/w/new")],
        },
        {
          role: "user",
          ts: ts + 3,
          content: [{ type: "text", text: "<feedback>ok</feedback>" }, env("/w/new")],
        },
      ]);
    const lone = writeTask(dir, "1795000300000", body(1795000300000));
    writeTask(dir, "1795000400000", body(1795000400000));
    mkdirSync(join(dir, "state"), { recursive: true });
    writeFileSync(
      join(dir, "state", "taskHistory.json"),
      JSON.stringify([{
        id: "1795000400000",
        ts: 1795000400000,
        task: "fix it",
        cwdOnTaskInitialization: "/w/old copy",
      }]),
    );
    const e = testEnv(dir, { DEJA_CLINE_ROOT: dir });
    assertEquals((await parseOne(cline, taskSource(lone), e)).sessions[0].project, "/w/new");
    const run = await runParser(cline, e);
    const l = session(run.sessions, "1795000400000");
    assertEquals([l.title, l.project], ["fix it", "/w/new"]); // the list was read; its cwd is the first
  });
});

Deno.test("parse falls back to the file's mtime when a legacy task has no ts and no taskHistory entry", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(
      dir,
      "old1",
      JSON.stringify([
        { role: "user", content: [{ type: "text", text: "<task>\nold task\n</task>" }] },
        { role: "assistant", content: [{ type: "text", text: "ok" }] },
      ]),
    );
    const before = Date.now() - 5000;
    const { sessions } = await parseOne(cline, taskSource(p), testEnv(dir));
    const s = sessions[0];
    assert(s.started !== undefined && s.started >= before, `started ${s.started}`);
    assertEquals(s.timeFromFile, true, "the file's time is marked as such");
    assertEquals(s.events.map((e) => e.time), [undefined, undefined]);
  });
});

Deno.test("searchReplaceBlocks drops Roo's :start_line: header and keeps a block whose REPLACE marker is missing", () => {
  assertEquals(
    searchReplaceBlocks(
      "<<<<<<< SEARCH\n:start_line:4\n-------\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd",
    ),
    [{ old: "a", new: "b" }, { old: "c", new: "d" }],
  );
});

Deno.test("splitXmlTools keeps prose, drops thinking and reads nested read_file paths", () => {
  const r = splitXmlTools(
    "<thinking>x</thinking>Reading.\n<read_file>\n<args><file><path>a.ts</path></file><file><path>b.ts</path></file></args>\n</read_file>",
  );
  assertEquals(r.prose, "Reading.");
  assertEquals(r.calls, [{ name: "read_file", input: { paths: ["a.ts", "b.ts"] } }]);
});

Deno.test("fixture run equals expected.json when DEJA_CLINE_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "cline");
  assert(entry);
  const want = JSON.parse(await Deno.readTextFile(join(FIXTURE, "expected.json")));
  assertEquals(await fixtureRun(entry, cline), want);
});

// ---- real stores -------------------------------------------------------------

const FARM = join(REPO, "../shared/realdata/farm/cline/home/.cline/data");
const PUBLIC = join(REPO, "../shared/realdata/cline/api_conversation_history.cut.json");

Deno.test({
  name:
    "the farm's Cline CLI 3.0.65 session yields the marker, cat missing.txt with exit 1 and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(cline, testEnv("/nonexistent-home", { DEJA_CLINE_ROOT: FARM }));
    assertEquals(run.errors, {});
    assertEquals(run.skips, {});
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals(s.id, "1795979078748_e571u");
    assertEquals(s.project, "/tmp/farm/cline/proj");
    assert(s.events.some((e) => e.kind === "assistant" && e.text.includes("zebrafinch-cline")));
    const cat = callOf(s.events, (e) => e.tool?.command === "cat missing.txt");
    assertEquals(resultOf(s.events, cat.tool?.id).result?.exit, 1);
    const edit = s.events.flatMap((e) => e.tool?.edits ?? []).find((x) =>
      x.path.endsWith("README.md")
    );
    assertEquals(edit, {
      path: "/tmp/farm/cline/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    });
  },
});

Deno.test({
  name:
    "the public Cline extension task file yields its turns, commands with exits and edits without errors",
  ignore: !existsSync(PUBLIC),
  async fn() {
    await withTemp(async (dir) => {
      const p = writeTask(dir, "1777073160794", await Deno.readFile(PUBLIC));
      const { sessions, ctx } = await parseOne(cline, taskSource(p), testEnv(dir));
      assertEquals(ctx.counts, {});
      const s = sessions[0];
      // Started in "MRA022626 - Copy/…" once, then resumed in c:/Apps/MRA04242026, where it edits.
      assertEquals(s.project, "c:/Apps/MRA04242026");
      assertEquals(s.model, "claude_4_5_opus");
      const users = s.events.filter((e) => e.kind === "user");
      assert(users[0].text.startsWith("The attached is a technical writeup"));
      assert(users.some((e) => e.text === "Approved - Proceed to Phase 2: Auth Refactor"));
      assert(!s.events.some((e) => e.text.includes("<environment_details>")));
      const failed = s.events.filter((e) => e.kind === "tool_result" && e.result?.exit === 1);
      assertEquals(failed.length, 2);
      const edits = s.events.flatMap((e) => e.tool?.edits ?? []);
      assertEquals(edits.length, 4);
      assert(edits.every((x) => x.path.endsWith("create-incident-report.ts")));
      assertEquals(s.events.filter((e) => e.tool?.writes).length, 8);
    });
  },
});

Deno.test("list_files, search_files and list_code_definition_names read no file; read_file does", () => {
  for (const name of ["list_files", "search_files", "list_code_definition_names"]) {
    const input = { path: "src", regex: "TODO", file_pattern: "*.ts" };
    const tool = taskToolInfo(name, "c1", input, "/w/app");
    assertEquals(tool.paths, undefined, name);
    assertEquals(tool.input, input);
  }
  assertEquals(taskToolInfo("read_file", "c2", { path: "a.ts" }, "/w/app").paths, ["/w/app/a.ts"]);
});

// ---- a history too large to hold: read in pieces -------------------------------

/** A task of `n` exchanges: a typed prompt, a command with its result, a reply, all timed. */
function longTask(n: number, cwd: (i: number) => string = () => "/w/app"): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const ts = 1795000000000 + i * 1000;
    const env = `<environment_details>\n# Current Working Directory (${
      cwd(i)
    }) Files\n</environment_details>`;
    out.push({
      role: "user",
      ts,
      content: i === 0
        ? [{ type: "text", text: `<task>\nfix the flaky cache ${i}\n</task>` }, {
          type: "text",
          text: env,
        }]
        : [
          {
            type: "text",
            text: `[execute_command for 'npm test'] Result:\nCommand executed.\nOutput:\nok ${i}`,
          },
          { type: "text", text: env },
        ],
    });
    out.push({
      role: "assistant",
      ts: ts + 500,
      modelInfo: { modelId: i < 5 ? "model-a" : "model-b" },
      content: [
        { type: "text", text: `Step ${i} of the cache fix.` },
        {
          type: "tool_use",
          id: `t${i}`,
          name: "execute_command",
          input: { command: `npm test -- ${i}` },
        },
      ],
    });
  }
  return out;
}

/** The chunks one parse yields, and the sessions they make. */
async function chunksOf(path: string, vars: Record<string, string>, home: string) {
  const ctx = new SourceCtx(testEnv(home, vars), 0, undefined, 0);
  const chunks: Session[] = [];
  for await (const s of cline.parse(taskSource(path), ctx)) chunks.push(s);
  return { chunks, sessions: mergeChunks(chunks), ctx };
}

Deno.test("a task history over the whole-read size is read in pieces, in chunks, into the same session", async () => {
  await withTemp(async (dir) => {
    const p = writeTask(dir, "1795000000000", JSON.stringify(longTask(700)));
    const whole = await chunksOf(p, {}, dir);
    const pieces = await chunksOf(p, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
    assertEquals(whole.chunks.length, 1);
    // 1,400 messages: a chunk every 256, so six.
    assertEquals(pieces.chunks.length, 6);
    assertEquals(pieces.sessions, whole.sessions);
    assertEquals(pieces.ctx.counts, whole.ctx.counts);
    const s = pieces.sessions[0];
    assertEquals([s.project, s.model, s.started, s.updated], [
      "/w/app",
      "model-a",
      1795000000000,
      1795000000000 + 699 * 1000 + 500,
    ]);
    assertEquals(s.events.filter((e) => e.kind === "tool_result").length, 699);
  });
});

Deno.test("a task read in pieces takes the folder it moved to, and the file's time when no message has one", async () => {
  await withTemp(async (dir) => {
    const moved = writeTask(
      dir,
      "m1",
      JSON.stringify(longTask(300, (i) => (i < 290 ? "/w/old copy" : "/w/new"))),
    );
    const untimed = writeTask(
      dir,
      "u1",
      JSON.stringify(
        longTask(300).map((m) => ({ ...(m as Record<string, unknown>), ts: undefined })),
      ),
    );
    for (const p of [moved, untimed]) {
      const whole = await chunksOf(p, {}, dir);
      const pieces = await chunksOf(p, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
      assert(pieces.chunks.length > 1);
      assertEquals(pieces.sessions, whole.sessions);
    }
    assertEquals(
      (await chunksOf(moved, { DEJA_WHOLE_DOC_MAX: "1000" }, dir)).sessions[0].project,
      "/w/new",
    );
    const u = (await chunksOf(untimed, { DEJA_WHOLE_DOC_MAX: "1000" }, dir)).sessions[0];
    assertEquals(u.timeFromFile, true);
    assert(u.started !== undefined && u.started > Date.now() - 60_000, `started ${u.started}`);
  });
});

Deno.test("a damaged message of a task read in pieces is passed over, the rest kept and the damage counted", async () => {
  await withTemp(async (dir) => {
    const text = JSON.stringify(longTask(300));
    const at = text.indexOf("Step 100 of");
    const p = writeTask(dir, "d1", text.slice(0, at) + '"}]]]} GARBAGE {{' + text.slice(at + 12));
    const { sessions, ctx } = await chunksOf(p, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
    const steps = sessions[0].events.filter((e) => e.kind === "assistant").map((e) => e.text);
    assert(!steps.includes("Step 100 of the cache fix."));
    assertEquals(steps.length, 299);
    assertEquals(steps.at(-1), "Step 299 of the cache fix.");
    assertEquals(ctx.counts, { malformed_json: 1 });
    assert(ctx.examples.some((e) => /read again from byte \d+/.test(e)), ctx.examples.join("\n"));
  });
});

Deno.test("a task history cut short in pieces keeps what came before the cut, and says where", async () => {
  await withTemp(async (dir) => {
    const text = JSON.stringify(longTask(300));
    const p = writeTask(dir, "c1", text.slice(0, Math.floor(text.length * 0.6)));
    const { sessions, ctx } = await chunksOf(p, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
    assertEquals(ctx.counts, { malformed_json: 1 });
    assert(
      ctx.examples.some((e) => /read up to here: \d+ messages kept/.test(e)),
      ctx.examples.join("\n"),
    );
    const n = sessions[0].events.filter((e) => e.kind === "assistant").length;
    assert(n > 100 && n < 300, `${n} replies`);
  });
});

Deno.test("an empty task file, or one that is no history, is counted the same read in pieces", async () => {
  await withTemp(async (dir) => {
    const empty = writeTask(dir, "e1", "   \n");
    const shape = writeTask(dir, "b1", JSON.stringify({ hello: "world" }));
    const none = writeTask(dir, "n1", "[]");
    const vars = { DEJA_WHOLE_DOC_MAX: "1" };
    assertEquals((await chunksOf(empty, vars, dir)).ctx.counts, { empty: 1 });
    assertEquals((await chunksOf(shape, vars, dir)).ctx.counts, { bad_shape: 1 });
    const n = await chunksOf(none, vars, dir);
    assertEquals([n.sessions.length, n.ctx.counts], [0, { empty: 1 }]);
  });
});

Deno.test("Roo's {version, messages} envelope is read in pieces too, its version checked", async () => {
  await withTemp(async (dir) => {
    const messages = longTask(300);
    const v2 = writeTask(dir, "v2", JSON.stringify({ version: 2, messages }));
    const v3 = writeTask(dir, "v3", JSON.stringify({ messages, version: 3 }));
    const whole = await chunksOf(v2, {}, dir);
    const pieces = await chunksOf(v2, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
    assert(pieces.chunks.length > 1);
    assertEquals(pieces.sessions, whole.sessions);
    assertEquals(pieces.ctx.counts, {});
    const later = await chunksOf(v3, { DEJA_WHOLE_DOC_MAX: "1000" }, dir);
    assertEquals(later.ctx.counts, { unknown_schema: 1 });
    assertEquals(later.sessions[0].events.length, whole.sessions[0].events.length);
  });
});
