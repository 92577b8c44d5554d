import { assert, assertEquals } from "../tests/_assert.ts";
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { continue_ } from "./continue.ts";
import { workspacePath } from "./_continue_history.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { documentHostileTests, parseDocument } from "../tests/_hostile.ts";
import type { Event, Session } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const env = testEnv("/nonexistent-home");
const FARM = join(REPO, "../shared/realdata/farm/continue/home/.continue/sessions");
const PUBLIC = join(REPO, "../shared/realdata/continue");
const SID = "aaaaaaaa-0000-4000-8000-000000000001";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});
const state = (c: ReturnType<typeof call>, status: string, out?: string) => ({
  toolCallId: c.id,
  toolCall: c,
  status,
  parsedArgs: JSON.parse(c.function.arguments),
  ...(out === undefined ? {} : { output: [{ content: out, name: "Tool Result" }] }),
});
const item = (role: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  message: { role, content, ...(extra.message as object ?? {}) },
  contextItems: [],
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "message")),
});

/** Writes a session (and optionally sessions.json) to a temp dir and parses it. */
function parseSession(
  history: unknown[],
  opts: { workspace?: string; list?: unknown[]; title?: string } = {},
) {
  const doc = {
    sessionId: SID,
    title: opts.title ?? "Untitled Session",
    workspaceDirectory: opts.workspace ?? "/w/c",
    history,
  };
  return parseDocument(
    continue_,
    `${SID}.json`,
    doc,
    opts.list ? { "sessions.json": opts.list } : {},
  );
}

const of = (s: Session | undefined, kind: Event["kind"]) =>
  s?.events.filter((e) => e.kind === kind) ?? [];

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "continue")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, continue_), want);
});

Deno.test("discover takes session files but not sessions.json when the directory has both", async () => {
  const dir = tempDir("deja-continue-");
  try {
    writeFileSync(join(dir, "sessions.json"), "[]");
    writeFileSync(join(dir, `${SID}.json`), "{}");
    const d = await continue_.discover({
      env: testEnv("/h", { DEJA_CONTINUE_ROOT: dir }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => [s.path, s.kind]), [[join(dir, `${SID}.json`), "document"]]);
    const home = await continue_.discover({
      env: testEnv("/h", { CONTINUE_GLOBAL_DIR: "/g" }),
      knownProjects: [],
    });
    assertEquals(home.roots, ["/g/sessions"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("tool arguments stored as a JSON string are decoded into command, paths and edits", async () => {
  const b = call("c1", "Bash", { command: "npm test" });
  const e = call("c2", "Edit", { file_path: "/w/c/a.ts", old_string: "x", new_string: "y" });
  const r = call("c3", "read_file", { filepath: "src/b.ts" });
  const { s } = await parseSession([
    item("assistant", "", { message: { toolCalls: [b, e, r] } }),
  ]);
  const tools = of(s, "tool_call").map((x) => x.tool!);
  assertEquals(tools[0].command, "npm test");
  assertEquals(tools[0].input, { command: "npm test" });
  assertEquals(tools[1].edits, [{ path: "/w/c/a.ts", old: "x", new: "y" }]);
  assertEquals(tools[2].paths, ["/w/c/src/b.ts"], "an IDE path is relative to the workspace");
});

Deno.test("exit status and both error prefixes come off a failed CLI Bash result", async () => {
  const b = call("c1", "Bash", { command: "cat missing.txt" });
  const out = "Error executing tool Bash: Error (exit code 1): cat: missing.txt: No such file\n";
  const { s } = await parseSession([
    item("assistant", "", {
      message: { toolCalls: [b] },
      toolCallStates: [state(b, "errored", out)],
    }),
  ]);
  const [res] = of(s, "tool_result");
  assertEquals(res.text, "cat: missing.txt: No such file");
  assertEquals(res.result, { callId: "c1", isError: true, exit: 1 });
});

Deno.test("a state's output is not repeated when a tool message answers the same call", async () => {
  const b = call("c1", "ls", { dirPath: "." });
  const { s } = await parseSession([
    item("assistant", "", {
      message: { toolCalls: [b] },
      toolCallStates: [state(b, "errored", "nope")],
    }),
    item("tool", "nope", { message: { toolCallId: "c1" } }),
  ]);
  const res = of(s, "tool_result");
  assertEquals(res.length, 1);
  assertEquals(res[0].result?.isError, true, "the tool message takes the state's status");
});

Deno.test("a cancelled call reads as not run and derives no command or file change (IDE 2026-03, 8c3cc493)", async () => {
  // Broke: a create_new_file and two run_terminal_command calls the person cancelled were
  // blamed as writes and listed as commands that "never finished".
  const w = call("c1", "create_new_file", { filepath: ".continue/config.json", contents: "{}" });
  const b = call("c2", "run_terminal_command", { command: "git fetch origin" });
  const e = call("c3", "Edit", { file_path: "/w/c/a.ts", old_string: "x", new_string: "y" });
  const { s } = await parseSession([
    item("assistant", "", {
      message: { toolCalls: [w, b, e] },
      toolCallStates: [
        state(w, "canceled"),
        state(b, "canceled"),
        state(e, "canceled", "Permission denied by user"),
      ],
    }),
  ]);
  const tools = of(s, "tool_call").map((x) => x.tool!);
  assertEquals(tools.map((t) => [t.name, t.command, t.writes, t.edits, t.paths]), [
    ["create_new_file", undefined, undefined, undefined, undefined],
    ["run_terminal_command", undefined, undefined, undefined, undefined],
    ["Edit", undefined, undefined, undefined, undefined],
  ]);
  assertEquals(tools[1].input, { command: "git fetch origin" }, "the arguments stay for show");
  assertEquals(of(s, "tool_result").map((r) => [r.text, r.result]), [
    ["Cancelled: not run.", { callId: "c1", isError: true, notRun: true }],
    ["Cancelled: not run.", { callId: "c2", isError: true, notRun: true }],
    ["Cancelled: not run.\nPermission denied by user", {
      callId: "c3",
      isError: true,
      notRun: true,
    }],
  ]);
});

Deno.test("calls never approved read as not run; an errored one without output as failed; a running one has no result", async () => {
  const g = call("c1", "run_terminal_command", { command: "make" });
  const x = call("c2", "run_terminal_command", { command: "make test" });
  const r = call("c3", "run_terminal_command", { command: "make run" });
  const t = call("c4", "create_new_file", { filepath: "b.txt", contents: "b" });
  const { s } = await parseSession([
    item("assistant", "", {
      message: { toolCalls: [g, x, r, t] },
      toolCallStates: [
        state(g, "generated"),
        state(x, "errored"),
        state(r, "calling"),
        state(t, "canceled"),
      ],
    }),
    // An IDE build may answer a cancelled call with a tool message: it still did not run.
    item("tool", "The user cancelled this tool call.", { message: { toolCallId: "c4" } }),
  ]);
  const tools = of(s, "tool_call").map((x) => x.tool!);
  assertEquals(tools.map((t) => t.command), [undefined, "make test", "make run", undefined]);
  assertEquals(tools[3].writes, undefined);
  assertEquals(of(s, "tool_result").map((r) => [r.result?.callId, r.result?.isError, r.text]), [
    ["c1", true, "Not run: it was waiting for approval when the session was saved."],
    ["c2", true, "Failed (Continue recorded no output)."],
    ["c4", true, "Cancelled: not run.\nThe user cancelled this tool call."],
  ]);
});

Deno.test("system and thinking messages are dropped and a summary is kept when history holds them", async () => {
  const { s, counts } = await parseSession([
    item("system", "preamble"),
    item("user", [{ type: "text", text: "hi" }]),
    item("thinking", "hmm"),
    item("assistant", "hello", { conversationSummary: "they said hi" }),
    item("critic", "?"),
  ]);
  assertEquals(s?.events.map((e) => [e.kind, e.text]), [
    ["user", "hi"],
    ["assistant", "hello"],
    ["summary", "they said hi"],
  ]);
  assertEquals(counts.unknown_record, 1);
});

Deno.test("titles and start times come from sessions.json, old snake_case entries ignored", async () => {
  const list = [
    { session_id: SID, title: "old entry", dateCreated: "1" },
    { sessionId: SID, title: "Real title", dateCreated: "1780000000000", workspaceDirectory: "/x" },
  ];
  const { s } = await parseSession([item("user", "hi")], { list });
  assertEquals([s?.title, s?.started], ["Real title", 1780000000000]);
  const placeholder = await parseSession([item("user", "hi")], {
    list: [{ sessionId: SID, title: "Untitled Session", dateCreated: "1780000000000" }],
    title: "Named in the file",
  });
  assertEquals(placeholder.s?.title, "Named in the file", "the placeholder never wins");
});

Deno.test("a session missing from sessions.json takes its file's mtime for start and update", async () => {
  const dir = tempDir("deja-continue-");
  try {
    const path = join(dir, `${SID}.json`);
    writeFileSync(path, JSON.stringify({ sessionId: SID, history: [item("user", "hi")] }));
    utimesSync(path, 1780000000, 1780000000);
    const { sessions } = await parseOne(
      continue_,
      { harness: "continue", path, kind: "document" },
      env,
    );
    assertEquals([sessions[0].started, sessions[0].updated], [1780000000000, 1780000000000]);
    assertEquals(sessions[0].timeFromFile, true, "the file's time is marked as such");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Parses a session written with `list` beside it, its file last written at `mtime` (epoch s). */
async function parseAt(history: unknown[], mtime: number, list?: unknown[]) {
  const dir = tempDir("deja-continue-");
  try {
    const path = join(dir, `${SID}.json`);
    writeFileSync(path, JSON.stringify({ sessionId: SID, workspaceDirectory: "/w/c", history }));
    if (list) writeFileSync(join(dir, "sessions.json"), JSON.stringify(list));
    utimesSync(path, mtime, mtime);
    const { sessions } = await parseOne(
      continue_,
      { harness: "continue", path, kind: "document" },
      env,
    );
    return sessions[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

Deno.test("a session missing from sessions.json with reasoning times is dated by them, unmarked", async () => {
  const s = await parseAt([
    item("user", "hi"),
    item("assistant", "hello", { reasoning: { startAt: 1780000001000, endAt: 1780000002000 } }),
  ], 1780000000);
  assertEquals([s?.started, s?.updated, s?.timeFromFile], [
    1780000002000,
    1780000002000,
    undefined,
  ]);
});

Deno.test("a session whose list records only its creation ends at its file's last save, marked", async () => {
  // Trial 104 F4 (IDE session 8c3cc493, 33 items, no per-message times): it read "22:56 →
  // 22:56", an end no one recorded. The file is rewritten whole on every save.
  const list = [{ sessionId: SID, title: "t", dateCreated: "1780000000000" }];
  const history = [item("user", "hi"), item("assistant", "hello"), item("user", "more")];
  const later = await parseAt(history, 1780003600, list);
  assertEquals([later?.started, later?.updated, later?.timeFromFile], [
    1780000000000,
    1780003600000,
    true,
  ]);
  // A file older than its recorded creation (restored with old times): the recorded time alone.
  const older = await parseAt(history, 1770000000, list);
  assertEquals([older?.started, older?.updated, older?.timeFromFile], [
    1780000000000,
    1780000000000,
    undefined,
  ]);
});

Deno.test("workspace URIs decode to project paths, dev-container hex included", () => {
  const hex = (s: string) =>
    new TextEncoder().encode(s).reduce((a, b) => a + b.toString(16).padStart(2, "0"), "");
  const json = hex(JSON.stringify({ hostPath: "c:\\Users\\u\\app", localDocker: false }));
  assertEquals(
    workspacePath(`vscode-remote://dev-container%2B${json}/workspaces/app`),
    "c:\\Users\\u\\app",
  );
  assertEquals(
    workspacePath(`vscode-remote://dev-container+${hex("/home/u/app")}/workspaces/app`),
    "/home/u/app",
  );
  assertEquals(workspacePath("file:///c%3A/Users/u/app"), "c:\\Users\\u\\app");
  assertEquals(workspacePath("vscode-remote://codespaces%2Bbox/workspaces/app"), "/workspaces/app");
  assertEquals(workspacePath("/tmp/proj"), "/tmp/proj");
  assertEquals(workspacePath(undefined), undefined);
});

documentHostileTests(continue_);

Deno.test({
  name:
    "the farm store gives the marker, the failing cat with exit 1 and the README edit (cn 1.5.47)",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(continue_, testEnv("/h", { DEJA_CONTINUE_ROOT: FARM }));
    assertEquals([run.errors, run.skips, run.sessions.length], [{}, {}, 1]);
    const s = run.sessions[0];
    assertEquals([s.project, s.started, s.model], [
      "/tmp/farm/continue/proj",
      1795979072358,
      "gpt-4o",
    ]);
    assert(of(s, "assistant").some((e) => e.text.includes("zebrafinch-continue")), "marker");
    const cat = of(s, "tool_call").find((e) => e.tool?.command === "cat missing.txt");
    assert(cat, "cat missing.txt is a command");
    const res = of(s, "tool_result").find((e) => e.result?.callId === cat.tool?.id);
    assertEquals([res?.result?.exit, res?.result?.isError], [1, true]);
    const edits = of(s, "tool_call").flatMap((e) => e.tool?.edits ?? []);
    assertEquals(edits, [{
      path: "/tmp/farm/continue/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
  },
});

Deno.test({
  name:
    "the public sessions give decoded projects, index titles and the stub (IDE builds, 2026-03)",
  ignore: !existsSync(PUBLIC),
  async fn() {
    const dir = tempDir("deja-continue-pub-");
    try {
      for (const f of readdirSync(PUBLIC).filter((f) => f.startsWith("session-"))) {
        const id = JSON.parse(readFileSync(join(PUBLIC, f), "utf8")).sessionId;
        copyFileSync(join(PUBLIC, f), join(dir, `${id}.json`));
      }
      copyFileSync(join(PUBLIC, "sessions-index.json"), join(dir, "sessions.json"));
      const run = await runParser(continue_, testEnv("/h", { DEJA_CONTINUE_ROOT: dir }));
      assertEquals([run.errors, run.skips], [{}, {}]);
      const by = new Map(run.sessions.map((s) => [s.id, s]));
      assertEquals(by.size, 4);
      const win = "c:\\Users\\user\\dev\\dashboard_mictlan";
      assertEquals(by.get("4574729b-64b1-4f10-82fe-706e9a81a541")?.project, win, "file URI");
      assertEquals(
        by.get("8c3cc493-0ef9-462d-94cd-b5e558b00fe4")?.project,
        win,
        "dev-container hex",
      );
      assertEquals(by.get("8c3cc493-0ef9-462d-94cd-b5e558b00fe4")?.title, "GitHub");
      assertEquals(by.get("4574729b-64b1-4f10-82fe-706e9a81a541")?.started, 1772642728993);
      const stub = by.get("5f7632a7-9e21-413d-940a-9bfe2a2bdd89")!;
      assertEquals(stub.events.map((e) => e.kind), ["user", "user"]);
      const large = by.get("8c3cc493-0ef9-462d-94cd-b5e558b00fe4")!;
      assert(of(large, "tool_result").length >= 5, "tool results of the dev-container session");
      // Cancelled in the IDE (toolCallStates status "canceled"): kept, but not run.
      const fetch = of(large, "tool_call").find((e) =>
        (e.tool?.input as { command?: string })?.command === "git fetch origin"
      );
      assertEquals(fetch?.tool?.command, undefined, "a cancelled command is not a command run");
      const answer = of(large, "tool_result").find((e) => e.result?.callId === fetch?.tool?.id);
      assertEquals(answer?.text, "Cancelled: not run.");
      const written = of(large, "tool_call").flatMap((e) => e.tool?.writes ?? []).map((w) =>
        w.path
      );
      assert(!written.some((p) => p.endsWith("config.json")), "the cancelled create wrote nothing");
      assert(written.some((p) => p.endsWith("config.yaml")), "the one that ran did");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
