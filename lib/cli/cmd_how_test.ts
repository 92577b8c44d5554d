import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { howCmd, howData, parseHow } from "./cmd_how.ts";
import { howAnswer } from "../mcp/answers.ts";

function fixture() {
  return indexSessions([{
    id: "40770000-1111-4222-8333-444455556666",
    cwd: "/w/img",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "build the image" },
      { bash: "docker build -t app .", out: "error: no Dockerfile", exit: 1 },
      { bash: "docker build -t app -f ops/Dockerfile .", out: "done", exit: 0 },
      { bash: "docker build -t app -f ops/Dockerfile .", out: "done", exit: 0 },
    ],
  }]);
}

Deno.test("how parses its words and --limit, and refuses no words", () => {
  const h = parseHow({ values: { limit: "2", project: "img" }, positionals: ["docker", "build"] });
  assertEquals([h.what, h.limit, h.filter.project, h.json], ["docker build", 2, "img", false]);
  assertEquals(parseHow({ values: {}, positionals: ["git"] }).limit, 8);
  assertThrows(() => parseHow({ values: {}, positionals: [] }), DejaError);
  assertThrows(() => parseHow({ values: { limit: "-1" }, positionals: ["git"] }), DejaError);
});

Deno.test("how's run counts each distinct command's runs and outcomes, most used first", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const r = howData(ix.store, parseHow({ values: {}, positionals: ["docker", "build"] }), io);
    assertEquals(r.words, ["docker", "build"]);
    assertEquals(r.commands.map((c) => [c.command, c.runs, c.failed, c.unknown]), [
      ["docker build -t app -f ops/Dockerfile .", 2, 0, 2],
      ["docker build -t app .", 1, 1, 0],
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("how prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  const args = { values: {}, positionals: ["docker", "build"] };
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await howCmd.run(args, tty.io), 0);
    assertStringIncludes(tty.out(), csi("31m") + "1 failed");

    const pipe = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ ...args, values: { limit: "1" } }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assertStringIncludes(
      pipe.out(),
      "docker build -t app -f ops/Dockerfile .\n  ran 2 times in 1 session",
    );
    assertStringIncludes(pipe.out(), "… 1 more (--limit)\n");

    const json = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ ...args, values: { json: true } }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.total, doc.commands[0].runs], [2, 2]);
    assert(/^\d{4}-\d\d-\d\dT/.test(doc.commands[0].last));
  } finally {
    ix.cleanup();
  }
});

Deno.test("how of a tool never run says so on stderr with exit 1", async () => {
  const ix = await fixture();
  try {
    const none = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ values: {}, positionals: ["kubectl"] }, none.io), 1);
    assertEquals(none.out(), "");
    assertStringIncludes(none.err(), "deja: no command holds 'kubectl'");
    // A dotted key is named as typed, not split (trial 132 F10: "no command holds 'tag
    // gpgsign'" of `deja how tag.gpgsign`).
    const dotted = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ values: {}, positionals: ["tag.gpgsign"] }, dotted.io), 1);
    assertStringIncludes(dotted.err(), "deja: no command holds 'tag.gpgsign'");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how names the session of each command's latest run (text, JSON, MCP)", async () => {
  const ix = await fixture();
  const ref = "40770000";
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ values: {}, positionals: ["docker", "build"] }, pipe.io), 0);
    assertStringIncludes(pipe.out(), ` in ${ref}; runs: `);
    const json = captureIO(ix.env, false);
    await howCmd.run({ values: { json: true }, positionals: ["docker", "build"] }, json.io);
    const c = JSON.parse(json.out()).commands[0];
    assertEquals([c.harness, c.session, c.short_id, c.latest], [
      "claude",
      "40770000-1111-4222-8333-444455556666",
      ref,
      undefined,
    ]);
    assertStringIncludes(howAnswer(ix.store, "docker build", {}), ` in ${ref} (claude); runs: `);
  } finally {
    ix.cleanup();
  }
});

Deno.test("how marks a last time that is a store file's mtime, its own or a shared one's, in text, JSON and MCP", async () => {
  // Kimi 1.17 records no times: the session is dated by its file (found on realdata/kimi); a
  // prompt history's file is shared (2). Both are marked.
  for (const kind of [1, 2]) {
    const ix = await fixture();
    try {
      ix.store.db.exec(
        `UPDATE commands SET time = NULL; UPDATE sessions SET time_from_file = ${kind}`,
      );
      const args = { values: {}, positionals: ["docker", "build"] };
      const pipe = captureIO(ix.env, false);
      assertEquals(await howCmd.run(args, pipe.io), 0);
      assertStringIncludes(pipe.out(), " (file time) in ");
      const js = captureIO(ix.env, false);
      assertEquals(await howCmd.run({ ...args, values: { json: true } }, js.io), 0);
      const doc = JSON.parse(js.out());
      assertEquals(doc.commands[0].time_from_file, true);
      assertEquals("timeFromFile" in doc.commands[0], false);
      assertStringIncludes(howAnswer(ix.store, "docker build", {}), " (file time) in ");
    } finally {
      ix.cleanup();
    }
  }
});

// A fake home (session 13): `deja how git`, described as "commands run here", ranked a Kimi
// `cd /home/user && git push` of another project above the current project's own git commands.
Deno.test("how puts the commands of the project here first, labelled, then the rest (text, JSON, MCP)", async () => {
  const push = { bash: "cd /home/user && git push origin master", out: "ok", exit: 0 };
  const ix = await indexSessions([
    { id: "h1", cwd: "/home/user", start: "2026-11-01T10:00:00Z", turns: [push] },
    { id: "h2", cwd: "/home/user", start: "2026-11-02T10:00:00Z", turns: [push] },
    {
      id: "p1",
      cwd: "/home/user/proj",
      start: "2026-11-03T10:00:00Z",
      turns: [{ bash: "git status --short", out: "", exit: 0 }],
    },
  ]);
  const args = { values: {}, positionals: ["git"] };
  try {
    // In a folder of the project: its command first, then the one of /home/user, labelled.
    const inProj = captureIO(ix.env, false);
    assertEquals(await howCmd.run(args, { ...inProj.io, cwd: "/home/user/proj/src" }), 0);
    const out = inProj.out();
    assert(out.startsWith("In /home/user/proj:\ngit status --short\n"), out);
    assertStringIncludes(out, "\nElsewhere:\ncd /home/user && git push origin master\n");
    assertEquals(inProj.err(), "");
    const js = captureIO(ix.env, false);
    const jsArgs = { ...args, values: { json: true } };
    assertEquals(await howCmd.run(jsArgs, { ...js.io, cwd: "/home/user/proj" }), 0);
    const doc = JSON.parse(js.out());
    assertEquals([doc.project_here, doc.total_here], ["/home/user/proj", 1]);
    assertEquals(doc.commands.map((c: { here: boolean }) => c.here), [true, false]);
    // In no indexed project: one list, most used first, and stderr says why.
    const outside = captureIO(ix.env, false);
    assertEquals(await howCmd.run(args, { ...outside.io, cwd: "/srv" }), 0);
    assert(outside.out().startsWith("cd /home/user && git push"), outside.out());
    assertStringIncludes(outside.err(), "deja: /srv is in no indexed project");
    const mcp = howAnswer(ix.store, "git", { hide: { env: ix.env, here: "/home/user/proj" } });
    assert(
      mcp.indexOf("git status --short") < mcp.indexOf("git push"),
      "MCP: this project's command first",
    );
    assertStringIncludes(mcp, "those run in this project (/home/user/proj) first");
    assertStringIncludes(mcp, "(claude, this project)");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how counts a command's runs here apart from its runs elsewhere (text, JSON, MCP)", async () => {
  const ls = (exit: number) => ({ bash: "ls -la", out: exit ? "ls: cannot access" : "a b", exit });
  const ix = await indexSessions([
    { id: "e1", cwd: "/w/other1", start: "2026-11-01T10:00:00Z", turns: [ls(1)] },
    { id: "e2", cwd: "/w/other2", start: "2026-11-02T10:00:00Z", turns: [ls(1), ls(1)] },
    { id: "e3", cwd: "/w/other3", start: "2026-11-04T10:00:00Z", turns: [ls(1)] },
    { id: "h1", cwd: "/w/proj", start: "2026-11-03T10:00:00Z", turns: [ls(0)] },
  ]);
  const args = { values: {}, positionals: ["ls"] };
  try {
    const text = captureIO(ix.env, false);
    assertEquals(await howCmd.run(args, { ...text.io, cwd: "/w/proj" }), 0);
    const out = text.out();
    // Here: the one run in /w/proj, its session h1; elsewhere: the four others, last in e3.
    assert(out.startsWith("In /w/proj:\nls -la\n  ran 1 time in 1 session, last "), out);
    assertStringIncludes(out.split("Elsewhere:")[0], " in h1; runs: ");
    assertStringIncludes(out, "\nElsewhere:\nls -la\n  ran 4 times in 3 sessions, last ");
    assertStringIncludes(out.split("Elsewhere:")[1], " in e3; runs: ");
    const js = captureIO(ix.env, false);
    assertEquals(
      await howCmd.run({ ...args, values: { json: true } }, { ...js.io, cwd: "/w/proj" }),
      0,
    );
    const doc = JSON.parse(js.out());
    assertEquals([doc.total, doc.total_here], [2, 1]);
    type C = {
      here: boolean;
      sessions: number;
      runs: number;
      ok: number;
      failed: number;
      session: string;
    };
    assertEquals(
      doc.commands.map((c: C) => [c.here, c.sessions, c.runs, c.failed, c.session]),
      [[true, 1, 1, 0, "h1"], [false, 3, 4, 4, "e3"]],
    );
    const mcp = howAnswer(ix.store, "ls", { hide: { env: ix.env, here: "/w/proj" } });
    assertStringIncludes(mcp, "ran 1 time in 1 session");
    assertStringIncludes(mcp, "in h1 (claude, this project)");
    assertStringIncludes(mcp, "ran 4 times in 3 sessions");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how says when only hidden sessions hold the command, not that none does (text, MCP)", async () => {
  const cat = {
    bash: "cat missing.txt",
    out: "cat: missing.txt: No such file or directory",
    exit: 1,
  };
  const ix = await indexSessions([
    { id: "t1", cwd: "/tmp/tmp.Xk2p9Qa1/a", start: "2026-11-01T10:00:00Z", turns: [cat] },
    { id: "t2", cwd: "/tmp/tmp.Yq7r3Zb2/b", start: "2026-11-02T10:00:00Z", turns: [cat] },
  ]);
  const args = { values: {}, positionals: ["cat", "missing.txt"] };
  try {
    const text = captureIO(ix.env, false);
    assertEquals(await howCmd.run(args, { ...text.io, cwd: "/srv" }), 1);
    const err = text.err();
    assertStringIncludes(
      err,
      "deja: only hidden sessions hold a command with 'cat' and 'missing.txt'",
    );
    assert(!err.includes("no command holds"), err);
    assertStringIncludes(
      err,
      "2 sessions of throwaway or excluded projects left out; --junk shows",
    );
    const junk = captureIO(ix.env, false);
    assertEquals(
      await howCmd.run({ ...args, values: { junk: true } }, { ...junk.io, cwd: "/srv" }),
      0,
    );
    assertStringIncludes(junk.out(), "cat missing.txt\n");
    const mcp = howAnswer(ix.store, "cat missing.txt", { hide: { env: ix.env, here: "/srv" } });
    assert(
      mcp.startsWith("Only hidden sessions hold a command with 'cat' and 'missing.txt'."),
      mcp,
    );
    assertStringIncludes(mcp, "2 sessions of throwaway or excluded projects were left out.");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how says a lone run's status as it is, and a run stopped at its time limit or sent to the background", async () => {
  // Trial 14: `runs: 1 exit unknown (last exit 0 (|| true))` read as a contradiction.
  const ix = await indexSessions([{
    id: "40770000-2222-4222-8333-444455556666",
    cwd: "/w/todo",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { user: "look around" },
      { bash: "grep -rn TODO src || true", out: "src/a.ts:3: // TODO", clean: true },
      { bash: "sleep 5 && echo waited", out: "Command timed out after 1s", exit: 143 },
      { bash: "npm run dev", out: "Command running in background with ID: bash_1." },
    ],
  }]);
  try {
    const text = async (...words: string[]) => {
      const pipe = captureIO(ix.env, false);
      assertEquals(await howCmd.run({ values: {}, positionals: words }, pipe.io), 0);
      return pipe.out();
    };
    assertStringIncludes(await text("grep"), "; runs: exit 0 (|| true)\n");
    assertStringIncludes(
      await text("sleep"),
      "; runs: 1 failed (the last: timed out after 1s (exit 143))\n",
    );
    assertStringIncludes(await text("npm", "run"), "; runs: in background\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how of a command that never ran names the refused call, not 'no command' alone", async () => {
  // Trial 15: `deja how rm build` said "no command holds 'rm' and 'build'" of a denied call.
  const ix = await indexSessions([{
    id: "40770000-3333-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-03T10:00:00Z",
    turns: [
      { user: "clean up" },
      {
        bash: "rm -rf build",
        out: "Permission to use Bash with command rm -rf build has been denied.",
        refused: true,
      },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ values: {}, positionals: ["rm", "build"] }, pipe.io), 1);
    assertStringIncludes(pipe.err(), "deja: no command holds 'rm' and 'build'\n");
    assertStringIncludes(
      pipe.err(),
      "  never ran (refused, denied or cancelled): rm -rf build in 40770000 claude\n",
    );
    const json = captureIO(ix.env, false);
    await howCmd.run({ values: { json: true }, positionals: ["rm"] }, json.io);
    assertEquals(JSON.parse(json.out()).not_run.map((n: { command: string }) => n.command), [
      "rm -rf build",
    ]);
    // Words the refused call does not hold: nothing named.
    const none = captureIO(ix.env, false);
    await howCmd.run({ values: {}, positionals: ["rm", "dist"] }, none.io);
    assert(!none.err().includes("never ran"), none.err());
  } finally {
    ix.cleanup();
  }
});

Deno.test("how of symbols alone says it has nothing to look for", async () => {
  // Trial 61: `deja how '%'` said "no command holds " and nothing after it.
  const ix = await indexSessions([{
    id: "4a0a0000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "build it" }, { bash: "npm run build", out: "ok", exit: 0 }, { say: "Built." }],
  }]);
  try {
    const r = await runMain(ix.env, ["how", "%"]);
    assertEquals(r.code, 1);
    assertStringIncludes(r.err, "deja: nothing to look for: '%' holds no word");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how says 'no result' of a call that never got one, as ctx does, not 'ran … exit unknown' (trial 103 F7)", async () => {
  // Trial 103 F7: a Crush session ending on its `git stash` call, and a Codex call with no
  // output, were "ran 1 time …; runs: 1 exit unknown".
  const ix = await indexSessions([
    {
      id: "40770000-3333-4222-8333-444455556666",
      cwd: "/w/k",
      start: "2026-11-03T10:00:00Z",
      turns: [{ user: "stash it" }, { bash: "git stash", out: null }],
    },
    {
      id: "40770000-4444-4222-8333-444455556666",
      cwd: "/w/k",
      start: "2026-11-04T10:00:00Z",
      turns: [
        { user: "look" },
        { bash: "git stash list", out: "stash@{0}: WIP", clean: true },
        { bash: "git stash list", out: null },
      ],
    },
  ]);
  try {
    const run = async (json: boolean, ...words: string[]) => {
      const pipe = captureIO(ix.env, false);
      assertEquals(await howCmd.run({ values: { json }, positionals: words }, pipe.io), 0);
      return pipe.out();
    };
    const text = await run(false, "git", "stash");
    assertStringIncludes(
      text,
      "git stash list\n  ran 2 times in 1 session, last 2026-11-04 10:03 in 40770000-444; runs: 1 ok, 1 no result\n",
    );
    assertStringIncludes(
      text,
      "git stash\n  called 1 time in 1 session, last 2026-11-03 10:02 in 40770000-333; runs: 1 no result\n",
    );
    assert(!text.includes("exit unknown"), text);
    const doc = JSON.parse(await run(true, "git", "stash"));
    assertEquals(
      doc.commands.map((c: Record<string, unknown>) => [c.command, c.unknown, c.no_result]),
      [["git stash list", 1, 1], ["git stash", 1, 1]],
    );
    assertEquals(doc.commands[1].last_status, "no result");
    const mcp = howAnswer(ix.store, "git stash", {});
    assertStringIncludes(mcp, "runs: 1 no result");
    assert(!mcp.includes("exit unknown"), mcp);
  } finally {
    ix.cleanup();
  }
});

Deno.test("trial 103 F9: how lists the commands the person ran in ! shell mode, marked theirs, no exit recorded (text, JSON, MCP)", async () => {
  // Claude Code writes a `!` command as `<bash-input>` and its output as `<bash-stdout>`: deja
  // reads a user event `!frobnicate --version` and a notice; `how frobnicate` left it out.
  const ix = await indexSessions([{
    id: "f9f90103-1111-4222-8333-444455556666",
    cwd: "/w/projD",
    start: "2026-12-04T10:00:00Z",
    turns: [
      { user: "please build with the frobnicate tool" },
      { bash: "frobnicate --check", out: "frobnicate: bad flag", exit: 2 },
      { user: "<bash-input>frobnicate --version</bash-input>" },
      { user: "<bash-stdout>frobnicate 1.2.3</bash-stdout><bash-stderr></bash-stderr>" },
      { user: "<bash-input>frobnicate --check</bash-input>" },
      { user: "<bash-stdout>frobnicate: ok</bash-stdout><bash-stderr></bash-stderr>" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await howCmd.run({ values: {}, positionals: ["frobnicate"] }, pipe.io), 0);
    assertStringIncludes(
      pipe.out(),
      "frobnicate --version\n  ran 1 time in 1 session, last 2026-12-04 10:03 in f9f90103; " +
        "runs: 1 by you in ! shell mode, no exit recorded\n",
    );
    // Run by the agent (exit 2) and by the person: one command, the person's run said.
    assertStringIncludes(
      pipe.out(),
      "frobnicate --check\n  ran 2 times in 1 session, last 2026-12-04 10:05 in f9f90103; " +
        "runs: 1 failed, 1 exit unknown; 1 of them by you in ! shell mode, no exit recorded\n",
    );
    const json = captureIO(ix.env, false);
    await howCmd.run({ values: { json: true }, positionals: ["frobnicate"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals(
      doc.commands.map((
        c: Record<string, unknown>,
      ) => [c.command, c.runs, c.unknown, c.person_runs, c.last_by_person, c.last_exit]),
      [
        ["frobnicate --check", 2, 1, 1, true, null],
        ["frobnicate --version", 1, 1, 1, true, null],
      ],
    );
    const mcp = howAnswer(ix.store, "frobnicate", {});
    assertStringIncludes(mcp, "runs: 1 by the user in ! shell mode, no exit recorded");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how takes words that start with a dash after its first word, its own options anywhere (trial 105 F3)", async () => {
  // Trial 105 F3: `deja how git --name-status`, the README's example, was "Unknown option".
  const ix = await fixture();
  try {
    const r = await runMain(ix.env, ["how", "docker", "-f", "--json", "--limit", "1"]);
    assertEquals(r.code, 0, r.err);
    const doc = JSON.parse(r.out);
    assertEquals(doc.commands.map((c: { command: string }) => c.command), [
      "docker build -t app -f ops/Dockerfile .",
    ]);
    // Before any word, an unknown option is still refused, with its hint.
    const bad = await runMain(ix.env, ["how", "--nme", "docker"]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.err, "unknown option '--nme'");
  } finally {
    ix.cleanup();
  }
});

Deno.test("SEARCH_OPTION_NAMES are the search command's options", async () => {
  // dashedWords keeps them as options for a question searched instead; a new search option
  // missing there would be read as a word of `how`.
  const { searchCmd } = await import("./cmd_search.ts");
  const { SEARCH_OPTION_NAMES } = await import("./common.ts");
  assertEquals([...SEARCH_OPTION_NAMES].sort(), Object.keys(searchCmd.options).sort());
});

Deno.test("mode how says a run's status as deja how does: exit 1 of rg, timed out, || true (trial 109 F4)", async () => {
  // Trial 109 F4: mode how said `1 exit unknown` where `deja how` said `exit 1 of rg`.
  const ix = await indexSessions([{
    id: "40770000-5555-4222-8333-444455556666",
    cwd: "/w/py",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { user: "find the python files" },
      { bash: "rg --files -g '.python-version'", out: "", exit: 1 },
      { bash: "grep -rn TODO src || true", out: "src/a.ts:3: // TODO", clean: true },
      { bash: "sleep 5 && echo waited", out: "Command timed out after 1s", exit: 143 },
    ],
  }]);
  try {
    for (
      const [words, runs] of [
        [["rg", "--files"], "runs: exit 1 of rg"],
        [["grep"], "runs: exit 0 (|| true)"],
        [["sleep"], "runs: 1 failed (the last: timed out after 1s (exit 143))"],
      ] as const
    ) {
      const pipe = captureIO(ix.env, false);
      assertEquals(await howCmd.run({ values: {}, positionals: [...words] }, pipe.io), 0);
      assertStringIncludes(pipe.out(), `; ${runs}\n`);
      const mcp = howAnswer(ix.store, words.join(" "), {});
      assertStringIncludes(mcp, `; ${runs}\n`);
    }
  } finally {
    ix.cleanup();
  }
});
