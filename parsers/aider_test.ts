import assert from "node:assert/strict";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { Session, SourceRef } from "../core/model.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { aider } from "./aider.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { tempDir } from "../tests/_tmp.ts";

const NAME = ".aider.chat.history.md";
const U = (s: string) => `#### ${s}  `; // how aider writes a typed line
const T = (s: string) => `> ${s}  `; // how aider writes its own output
const H = (t = "2026-11-20 09:15:00") => `# aider chat started at ${t}`;

function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-aider-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const md = (...lines: string[]) => lines.join("\n") + "\n";
const src = (path: string): SourceRef => ({ harness: "aider", path, kind: "document" });
const kinds = (s: Session) => s.events.map((e) => e.kind).join(",");

/** Parses `text` written as `<tmp>/proj/.aider.chat.history.md`. */
async function parseText(text: string | Uint8Array, vars: Record<string, string> = { TZ: "UTC" }) {
  const t = tree({ [`proj/${NAME}`]: text });
  try {
    const out = await parseOne(aider, src(join(t.root, "proj", NAME)), testEnv(t.root, vars));
    return { ...out, root: t.root };
  } finally {
    t.cleanup();
  }
}

Deno.test("discovery finds the home file, AIDER_CHAT_HISTORY_FILE and known projects when they exist", async () => {
  const t = tree({
    [`home/${NAME}`]: md(H()),
    "elsewhere/my-history.md": md(H()),
    [`p1/${NAME}`]: md(H()),
    "p2/README.md": "no history here",
  });
  try {
    const env = testEnv(join(t.root, "home"), {
      AIDER_CHAT_HISTORY_FILE: join(t.root, "elsewhere/my-history.md"),
    });
    const d = await aider.discover({
      env,
      knownProjects: [
        join(t.root, "p1"),
        join(t.root, "p2"),
        join(t.root, "p1"),
        "c:\\Users\\dev\\app",
      ],
    });
    assert.deepEqual(d.sources.map((s) => s.path.slice(t.root.length + 1)), [
      `home/${NAME}`,
      "elsewhere/my-history.md",
      `p1/${NAME}`,
    ]);
    assert.ok(d.sources.every((s) => s.kind === "document"));
    // Roots list the fixed places and the project files found, not every project probed;
    // a Windows project path recorded by another harness is not probed on this system.
    assert.ok(d.roots.includes(join(t.root, "p1", NAME)));
    assert.ok(!d.roots.includes(join(t.root, "p2", NAME)));
    assert.ok(!d.roots.some((r) => r.includes("Users")));
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery looks in DEJA_AIDER_ROOT instead of the home directory when it is set", async () => {
  const t = tree({ [`home/${NAME}`]: md(H()), [`root/${NAME}`]: md(H()) });
  try {
    const env = testEnv(join(t.root, "home"), { DEJA_AIDER_ROOT: join(t.root, "root") });
    const d = await aider.discover({ env, knownProjects: [] });
    assert.deepEqual(d.sources.map((s) => s.path), [join(t.root, "root", NAME)]);
  } finally {
    t.cleanup();
  }
});

Deno.test("each header starts a session whose project is the file's directory when the file holds several", async () => {
  const { sessions, root } = await parseText(md(
    H("2026-11-20 09:15:00"),
    "",
    U("first"),
    "",
    "answer one",
    "",
    H("2026-11-21 18:40:05"),
    "",
    U("second"),
    "",
    "answer two",
  ));
  assert.equal(sessions.length, 2);
  assert.notEqual(sessions[0].id, sessions[1].id);
  assert.match(sessions[0].id, /^aider-[0-9a-f]{12}-1$/);
  assert.match(sessions[1].id, /^aider-[0-9a-f]{12}-2$/);
  assert.equal(sessions[0].project, join(root, "proj"));
  assert.equal(sessions[0].started, Date.UTC(2026, 10, 20, 9, 15, 0));
  assert.equal(sessions[1].started, Date.UTC(2026, 10, 21, 18, 40, 5));
  assert.ok(sessions[1].events.every((e) => e.time === sessions[1].started));
});

Deno.test("header time is read as local time in the TZ zone when TZ names one", async () => {
  const ny = await parseText(md(H("2026-11-20 09:15:00"), U("hi")), { TZ: "America/New_York" });
  assert.equal(ny.sessions[0].started, Date.UTC(2026, 10, 20, 14, 15, 0)); // EST = UTC-5
  const summer = await parseText(md(H("2026-07-01 12:00:00"), U("hi")), { TZ: "Europe/Berlin" });
  assert.equal(summer.sessions[0].started, Date.UTC(2026, 6, 1, 10, 0, 0)); // CEST = UTC+2
  const local = await parseText(md(H("2026-11-20 09:15:00"), U("hi")), {});
  assert.equal(local.sessions[0].started, new Date(2026, 10, 20, 9, 15, 0).getTime());
  const bogus = await parseText(md(H("2026-11-20 09:15:00"), U("hi")), { TZ: "Not/AZone" });
  assert.equal(bogus.sessions[0].started, new Date(2026, 10, 20, 9, 15, 0).getTime());
});

Deno.test("prompts and what follows them take the input history's time when an entry has the prompt's text", async () => {
  // Issue 15 (aider 0.86.1, realdata): every event carried the session start although
  // .aider.input.history stamps each prompt (local time, microseconds).
  const t = tree({
    [`proj/${NAME}`]: md(
      H("2025-12-03 14:43:45"),
      U("make a plan"),
      "",
      "Here is the plan.",
      "",
      U("never typed here"),
      "",
      "ok",
      "",
      U("write a README"),
      U("with a summary"),
      "",
      "Done.",
    ),
    "proj/.aider.input.history": [
      "",
      "# 2025-12-03 14:40:00.000001", // older than the session: not its prompt
      "+write a README",
      "+with a summary",
      "",
      "# 2025-12-03 14:46:02.414589",
      "+make a plan",
      "",
      "# 2025-12-03 14:46:07.909105",
      "+Y",
      "",
      "# 2025-12-03 21:28:43.197159",
      "+write a README",
      "+with a summary",
      "",
    ].join("\n"),
  });
  try {
    const env = testEnv(t.root, { TZ: "America/Denver" });
    const { sessions } = await parseOne(aider, src(join(t.root, "proj", NAME)), env);
    const s = sessions[0];
    const start = Date.UTC(2025, 11, 3, 21, 43, 45); // MST = UTC-7
    const plan = Date.UTC(2025, 11, 3, 21, 46, 2, 414);
    const readme = Date.UTC(2025, 12 - 1, 4, 4, 28, 43, 197);
    assert.equal(s.started, start);
    assert.deepEqual(s.events.map((e) => [e.kind, e.time]), [
      ["user", plan],
      ["assistant", plan],
      ["user", plan], // not in the history: keeps the time of the prompt before it
      ["assistant", plan],
      ["user", readme],
      ["assistant", readme],
    ]);
    assert.equal(s.updated, readme);
  } finally {
    t.cleanup();
  }
});

Deno.test("consecutive #### lines join into one user event when a blank #### line separates them", async () => {
  const { sessions } = await parseText(
    md(H(), "", U("line one"), "####   ", U("\tindented"), "", "reply", "", "#### <blank>  "),
  );
  assert.equal(kinds(sessions[0]), "user,assistant");
  assert.equal(sessions[0].events[0].text, "line one\n\n\tindented");
});

Deno.test("> blocks become tool results without aider's noise when they follow a prompt", async () => {
  const { sessions } = await parseText(md(
    H(),
    "",
    T("Aider v0.86.1"),
    T("Model: openrouter/openai/gpt-4o-mini with diff edit format"),
    T("Git repo: .git with 0 files"),
    "",
    U("do it"),
    "",
    "done",
    "",
    T("Tokens: 2.4k sent, 104 received. Cost: $0.00042 message, $0.00042 session."),
    T("Create new file? (Y)es/(N)o [Yes]: y"),
    T("Applied edit to a.txt"),
    T("Commit 1b2614a feat: add a.txt"),
    T("You can use /undo to undo and discard each aider commit."),
    "",
    U("again"),
    "",
    T("Tokens: 1k sent, 10 received."),
  ));
  const s = sessions[0];
  assert.equal(s.model, "openrouter/openai/gpt-4o-mini");
  assert.equal(kinds(s), "user,assistant,tool_result,user");
  assert.equal(s.events[2].text, "Applied edit to a.txt\nCommit 1b2614a feat: add a.txt");
  assert.ok(!JSON.stringify(s).includes("Aider v0.86.1"));
});

Deno.test("a command declined at aider's y/n question keeps the question and its answer", async () => {
  // Trial 63: `mkdir data` and its `n` answer read as a command that ran.
  const { sessions } = await parseText(md(
    H(),
    U("set up the folders"),
    "",
    "Run these:",
    "",
    T("Applied edit to a.txt"),
    T("mkdir data"),
    T("Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: n"),
    T("mkdir results"),
    T("Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: s"),
    T("rm -rf build"),
    T("Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: d"),
    T("ls"),
    T("Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: y"),
    T("Create new file? (Y)es/(N)o [Yes]: "),
  ));
  const out = sessions[0].events.find((e) => e.kind === "tool_result")!.text;
  assert.equal(
    out,
    "Applied edit to a.txt\nmkdir data\nRun shell command? n\nmkdir results\nRun shell command? s\n" +
      "rm -rf build\nRun shell command? d\nls",
  );
});

Deno.test("fences keep #### and > lines as assistant text when the lines lack aider's line-end spaces", async () => {
  const { sessions } = await parseText(md(
    H(),
    U("show me"),
    "",
    "Here:",
    "```markdown",
    "#### a heading",
    "> a quote",
    "```",
    "````",
    "```",
    "#### still inside the four-backtick fence",
    "````",
    "after",
  ));
  assert.equal(kinds(sessions[0]), "user,assistant");
  assert.ok(sessions[0].events[1].text.includes("#### a heading\n> a quote"));
  assert.ok(sessions[0].events[1].text.includes("#### still inside the four-backtick fence"));
  assert.ok(sessions[0].events[1].text.endsWith("after"));
});

Deno.test("an unclosed fence ends when a line carries aider's own line-end spaces", async () => {
  const { sessions } = await parseText(md(
    H(),
    U("run it"),
    "",
    "```bash",
    "pytest -q",
    "",
    T("Applied edit to x.py"),
    "",
    U("next prompt"),
  ));
  assert.equal(kinds(sessions[0]), "user,assistant,tool_result,user");
  assert.equal(sessions[0].events[3].text, "next prompt");
});

Deno.test("SEARCH/REPLACE blocks become edits resolved against the file's directory when a file name precedes them", async () => {
  const { sessions, root } = await parseText(md(
    H(),
    U("fix"),
    "",
    "src/app.py",
    "```python",
    "<<<<<<< SEARCH",
    "hello world",
    "=======",
    "hello zebrafinch",
    ">>>>>>> REPLACE",
    "```",
    "",
    "Same file again:",
    "",
    "```python",
    "<<<<<<< SEARCH",
    "a = 1",
    "=======",
    "a = 2",
    ">>>>>>> REPLACE",
    "```",
    "",
    "/etc/absolute.conf",
    "```",
    "<<<<<<< SEARCH",
    "=======",
    "new = true",
    ">>>>>>> REPLACE",
    "```",
  ));
  const calls = sessions[0].events.filter((e) => e.kind === "tool_call");
  assert.deepEqual(calls.map((c) => c.tool?.edits), [
    [{ path: join(root, "proj/src/app.py"), old: "hello world\n", new: "hello zebrafinch\n" }],
    [{ path: join(root, "proj/src/app.py"), old: "a = 1\n", new: "a = 2\n" }],
    [{ path: "/etc/absolute.conf", old: "", new: "new = true\n" }],
  ]);
  assert.equal(calls[0].tool?.name, "search_replace");
  assert.deepEqual(calls[0].tool?.input, { file: "src/app.py" });
});

Deno.test("an empty SEARCH that created the file aider asked about is a write; one on a file that exists stays an edit (trial 94 F11)", async () => {
  const { sessions, root } = await parseText(md(
    H(),
    U("add a readme and a note"),
    "",
    "README.md",
    "```markdown",
    "<<<<<<< SEARCH",
    "=======",
    "# Title",
    ">>>>>>> REPLACE",
    "```",
    "",
    "notes.md",
    "```markdown",
    "<<<<<<< SEARCH",
    "=======",
    "appended",
    ">>>>>>> REPLACE",
    "```",
    "",
    T("README.md"),
    T("Create new file? (Y)es/(N)o [Yes]: y"),
    T("Applied edit to README.md"),
    T("Applied edit to notes.md"),
  ));
  const calls = sessions[0].events.filter((e) => e.kind === "tool_call");
  assert.deepEqual(calls.map((c) => [c.tool?.writes, c.tool?.edits]), [
    [[{ path: join(root, "proj/README.md"), content: "# Title\n" }], undefined],
    [undefined, [{ path: join(root, "proj/notes.md"), old: "", new: "appended\n" }]],
  ]);
});

Deno.test("fences inside a REPLACE section do not end the outer fence when they nest", async () => {
  const { sessions } = await parseText(md(
    H(),
    U("readme"),
    "",
    "README.md",
    "```markdown",
    "<<<<<<< SEARCH",
    "=======",
    "# Title",
    "```bash",
    "npm test",
    "```",
    "> quoted",
    "#### sub heading",
    ">>>>>>> REPLACE",
    "```",
    "",
    T("Applied edit to README.md"),
  ));
  assert.equal(kinds(sessions[0]), "user,assistant,tool_call,tool_result");
  assert.equal(
    sessions[0].events[2].tool?.edits?.[0].new,
    "# Title\n```bash\nnpm test\n```\n> quoted\n#### sub heading\n",
  );
});

Deno.test("a SEARCH block with no file name is counted as bad_shape when no earlier block named one", async () => {
  const { sessions, ctx } = await parseText(
    md(
      H(),
      U("x"),
      "",
      "Some prose.",
      "",
      "```",
      "<<<<<<< SEARCH",
      "a",
      "=======",
      "b",
      ">>>>>>> REPLACE",
      "```",
    ),
  );
  assert.equal(kinds(sessions[0]), "user,assistant");
  assert.equal(ctx.counts.bad_shape, 1);
});

Deno.test("session ids stay the same when the file grows or the parse is given an offset", async () => {
  const t = tree({ [`proj/${NAME}`]: md(H(), U("one"), "", "reply") });
  try {
    const path = join(t.root, "proj", NAME);
    const env = testEnv(t.root, { TZ: "UTC" });
    const a = await parseOne(aider, src(path), env);
    appendFileSync(path, md("", H("2026-11-22 10:00:00"), U("two"), "", "reply two"));
    const b = await parseOne(aider, src(path), env);
    const c = await parseOne(aider, src(path), env, { offset: 40 });
    assert.equal(b.sessions[0].id, a.sessions[0].id);
    assert.deepEqual(b.sessions[0].events, a.sessions[0].events);
    assert.equal(b.sessions.length, 2);
    assert.deepEqual(c.sessions.map((s) => s.id), b.sessions.map((s) => s.id));
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty file yields no session and is counted when it has no bytes", async () => {
  const { sessions, ctx } = await parseText("");
  assert.equal(sessions.length, 0);
  assert.equal(ctx.counts.empty, 1);
});

Deno.test("text before the first header is counted once as unknown_record when the file starts with it", async () => {
  const { sessions, ctx } = await parseText(md("stray line", "another", H(), U("q")));
  assert.equal(ctx.counts.unknown_record, 1);
  assert.equal(kinds(sessions[0]), "user");
});

Deno.test("an invalid UTF-8 line is counted and kept with replacement characters when the rest is valid", async () => {
  const enc = new TextEncoder();
  const body = new Uint8Array([
    ...enc.encode(md(H(), U("q"), "")),
    ...enc.encode("bad "),
    0xff,
    0x0a,
    ...enc.encode("good\n"),
  ]);
  const { sessions, ctx } = await parseText(body);
  assert.equal(ctx.counts.invalid_utf8, 1);
  assert.equal(sessions[0].events[1].text, "bad \uFFFD\ngood");
});

Deno.test("a truncated last line is read as it stands and completed when the file grows", async () => {
  const t = tree({ [`proj/${NAME}`]: `${md(H(), U("q"), "")}partial ans` });
  try {
    const path = join(t.root, "proj", NAME);
    const env = testEnv(t.root, { TZ: "UTC" });
    const a = await parseOne(aider, src(path), env);
    assert.equal(a.sessions[0].events[1].text, "partial ans");
    appendFileSync(path, "wer\n");
    const b = await parseOne(aider, src(path), env);
    assert.equal(b.sessions[0].events[1].text, "partial answer");
    assert.equal(b.sessions[0].id, a.sessions[0].id);
  } finally {
    t.cleanup();
  }
});

// ---- real store ----------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata/aider/metadata-aider.aider.chat.history.md");

Deno.test({
  name: "real aider 0.86.1 history yields prompts, replies, edits and tool results when parsed",
  ignore: !existsSync(REAL),
  fn: async () => {
    const text = readFileSync(REAL);
    const { sessions, ctx } = await parseText(text);
    assert.equal(ctx.skipped, 0);
    // The public file holds one launch (one header line); see the test below for several.
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.model, "openrouter/openai/gpt-4o-mini");
    // The banner's "Git repository created in" names the project, wherever the copy lies.
    assert.equal(s.project, "/Users/user/metadata-aider");
    assert.equal(s.started, Date.UTC(2025, 11, 3, 14, 43, 45));
    const users = s.events.filter((e) => e.kind === "user");
    assert.equal(users.length, 12);
    assert.ok(users[0].text.startsWith("Please create an .aidar.json file"));
    assert.ok(users[1].text.includes("\t-dataset.py"));
    assert.ok(
      s.events.some((e) => e.kind === "assistant" && e.text.includes("*SEARCH/REPLACE* block")),
    );
    const edits = s.events.flatMap((e) => e.tool?.edits ?? []);
    // The files aider was told to create are writes (trial 94 F11), the rest edits: 24 blocks.
    const writes = s.events.flatMap((e) => e.tool?.writes ?? []);
    assert.equal(edits.length + writes.length, 24);
    assert.ok(writes.length > 0);
    assert.ok(edits.some((e) =>
      e.path === "/Users/user/metadata-aider/scripts/generate_data.py" &&
      e.old === "# This script will generate the necessary data for the project.\n" &&
      e.new.startsWith("import numpy as np\n")
    ));
    const readme = writes.find((e) => e.path === "/Users/user/metadata-aider/frontend/README.md")!;
    assert.ok(readme.content.includes("```bash\nts-node frontend/display.ts\n```\n")); // nested fences stay in the block
    assert.ok(
      [...edits, ...writes].some((e) =>
        e.path === "/Users/user/metadata-aider/frontend/index.html"
      ),
    ); // ```` fences
    const results = s.events.filter((e) => e.kind === "tool_result").map((e) => e.text);
    assert.ok(results.some((r) => r.includes("Applied edit to scripts/generate_data.py")));
    assert.ok(!results.some((r) => /Tokens: .* sent/.test(r)));
  },
});

Deno.test({
  name:
    "real history appended to itself yields two sessions and keeps the first id when the file grows",
  ignore: !existsSync(REAL),
  fn: async () => {
    const text = readFileSync(REAL, "utf8");
    const one = await parseText(text);
    const two = await parseText(text + text.replace("2025-12-03 14:43:45", "2025-12-04 08:00:00"));
    assert.equal(two.sessions.length, 2);
    assert.equal(two.sessions[0].id, one.sessions[0].id);
    assert.notEqual(two.sessions[1].id, two.sessions[0].id);
    assert.equal(two.sessions[1].started, Date.UTC(2025, 11, 4, 8, 0, 0));
  },
});

Deno.test("registry run reads the home file and the known project's file when both exist", async () => {
  const t = tree({ [`root/${NAME}`]: md(H(), U("a")), [`known/${NAME}`]: md(H(), U("b")) });
  try {
    const env = testEnv(join(t.root, "home"), { DEJA_AIDER_ROOT: join(t.root, "root"), TZ: "UTC" });
    const run = await runParser(aider, env, [join(t.root, "known")]);
    assert.deepEqual(run.errors, {});
    assert.deepEqual(run.sessions.map((s) => s.events[0].text), ["a", "b"]);
    assert.deepEqual(run.sessions.map((s) => s.project), [
      join(t.root, "root"),
      join(t.root, "known"),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("project and edit paths are the repository aider's banner names when it names one (realdata aider 0.86.1: the history read from a copy elsewhere)", async () => {
  const { sessions, root } = await parseText(md(
    H("2026-11-20 09:15:00"),
    "",
    T("Git repository created in /srv/app"),
    T("/srv/app/venv/bin/aider --model gpt-4o-mini ."),
    T("Git repo: .git with 0 files"),
    "",
    U("make it"),
    "",
    "src/a.py",
    "```python",
    "<<<<<<< SEARCH",
    "=======",
    "print(1)",
    ">>>>>>> REPLACE",
    "```",
    "",
    H("2026-11-21 09:15:00"),
    "",
    T("Git working dir: /srv/other"),
    "",
    U("again"),
    "",
    H("2026-11-22 09:15:00"),
    "",
    T("/opt/tools/bin/aider x.py"),
    T("Git repo: ../.git with 3 files"),
    "",
    U("no repository named"),
    "",
    T("Git working dir: /elsewhere"),
    "",
  ));
  assert.equal(sessions[0].project, "/srv/app");
  const call = sessions[0].events.find((e) => e.kind === "tool_call");
  assert.equal(call?.tool?.edits?.[0].path, "/srv/app/src/a.py");
  assert.equal(sessions[1].project, "/srv/other");
  // The echoed command line, a relative `.git` and a line after the first prompt name no root.
  assert.equal(sessions[2].project, join(root, "proj"));
});

Deno.test("a long session is given in parts, its prompts' times carried from one part to the next", async () => {
  // Trial 29: one session of 200,000 turns (265 MB) was held whole until its end (1.3 GB).
  const turns = 600;
  const lines = [H("2025-12-03 14:43:45"), U("make a plan"), "", "Here is the plan.", ""];
  for (let i = 1; i < turns; i++) lines.push(U(`step ${i}`), "", `did step ${i}`, "");
  const t = tree({
    [`proj/${NAME}`]: md(...lines),
    "proj/.aider.input.history": ["", "# 2025-12-03 14:46:02.414589", "+make a plan", ""].join(
      "\n",
    ),
  });
  try {
    const env = testEnv(t.root, { TZ: "UTC" });
    const ctx = new SourceCtx(env);
    const parts: Session[] = [];
    for await (const s of aider.parse(src(join(t.root, "proj", NAME)), ctx)) parts.push(s);
    assert.ok(parts.length >= 4, `parts: ${parts.length}`);
    assert.equal(new Set(parts.map((p) => p.id)).size, 1);
    assert.ok(parts.every((p) => p.events.length <= 258), parts.map((p) => p.events.length).join());
    const { sessions } = await parseOne(aider, src(join(t.root, "proj", NAME)), env);
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].events.length, 2 * turns);
    // Only the first prompt is in the input history: every event after it takes its time,
    // across the parts.
    const plan = Date.UTC(2025, 11, 3, 14, 46, 2, 414);
    assert.deepEqual([...new Set(sessions[0].events.map((e) => e.time))], [plan]);
    assert.equal(sessions[0].events.at(-1)!.text, `did step ${turns - 1}`);
  } finally {
    t.cleanup();
  }
});
