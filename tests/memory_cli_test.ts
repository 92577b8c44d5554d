/** The work-memory commands run in-process: text and --json, exit codes, refusals. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { indexSessions, type MemoryIndex, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { splitLine } from "../lib/memory/paths.ts";

const S: SessionSpec = {
  id: "51510001-0000-4000-8000-000000000001",
  cwd: "/w/svc",
  start: "2026-11-10T10:00:00Z",
  turns: [
    { user: "The service crashes at start with a missing module error." },
    { bash: "node server.js", out: "Error: Cannot find module 'express'", exit: 1 },
    { bash: "npm install express", out: "added 60 packages", exit: 0 },
    { say: "The root cause was a missing dependency; fixed by installing express." },
    { edit: "/w/svc/server.js", old: "const port = 80;\x1b[31m", new: "const port = env.PORT;" },
    { edit: "/w/svc/server.js", old: "listen(port)", new: "listen(port, host)" },
    { bash: "node server.js", out: "listening", exit: 0 },
  ],
};

function run(
  ix: MemoryIndex,
  args: string[],
  opts: { tty?: boolean; stdin?: string; cwd?: string } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: ix.env as Env,
    cwd: opts.cwd ?? ix.root,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: Boolean(opts.tty),
    errTTY: false,
    readStdin: () => Promise.resolve(opts.stdin ?? ""),
  };
  return main(io).then((code) => ({ code, out: out.join(""), err: err.join("") }));
}

Deno.test("ctx prints a digest, --json its parts, exit 1 when nothing matches", async () => {
  const ix = await indexSessions([S]);
  try {
    const t = await run(ix, ["ctx", "missing", "module"]);
    assertEquals(t.code, 0);
    assert(t.out.startsWith(`# deja context: claude · /w/svc · ${S.id}`), t.out);
    assertStringIncludes(t.out, "fixed by installing express");
    const j = await run(ix, ["ctx", "51510001", "--json", "--budget", "300"]);
    const d = JSON.parse(j.out);
    assertEquals([d.via, d.session.id, d.budget], ["id", S.id, 300]);
    assert(d.bytes <= 300 && d.truncated === true);
    const server = d.commands.find((c: { command: string }) => c.command === "node server.js");
    assertEquals([server.runs, server.failures], [2, 1]);
    const none = await run(ix, ["ctx", "zzqqxx"]);
    assertEquals(none.code, 1);
    assertStringIncludes(none.err, "nothing matched");
    assertEquals((await run(ix, ["ctx"])).code, 2);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame reads path:line, prints sessions, and exits 1 for an untouched file", async () => {
  const ix = await indexSessions([S]);
  try {
    assertEquals(splitLine("src/a.ts:12", "/"), { path: "src/a.ts", line: 12 });
    assertEquals(splitLine("C:\\x\\a.ts", "/"), { path: "C:\\x\\a.ts" });
    // As tools print a place (trial 9): tsc and gcc, MSBuild, a forge's link.
    for (const arg of ["src/a.ts:12:29", "src/a.ts(12,29)", "src/a.ts#L12", "src/a.ts:12:"]) {
      assertEquals(splitLine(arg, "/"), { path: "src/a.ts", line: 12 }, arg);
    }
    assertEquals(splitLine("C:\\x\\a.ts:7:1", "/"), { path: "C:\\x\\a.ts", line: 7 });
    // A name as grep prints it before a match (trial 63: 'README.md:' was no file).
    assertEquals(splitLine("src/a.ts:", "/"), { path: "src/a.ts" });
    assertEquals(splitLine("C:", "/"), { path: "C:" });
    const t = await run(ix, ["blame", "/w/svc/server.js:3"]);
    assertEquals(t.code, 0);
    assertStringIncludes(
      t.out,
      "line 3: cannot tell which session wrote it (the file is not readable here); every session",
    );
    assertStringIncludes(t.out, "2 edits");
    const j = JSON.parse((await run(ix, ["blame", "server.js", "--json"], { cwd: "/w/svc" })).out);
    assertEquals([j.match, j.total, j.sessions[0].edits], ["exact", 1, 2]);
    assertEquals(
      j.sessions[0].changes[0].before,
      "The root cause was a missing dependency; fixed by installing express.",
    );
    assertEquals((await run(ix, ["blame", "nothing.js"])).code, 1);
    assertEquals((await run(ix, ["blame", "x", "--harness", "nope"])).code, 2);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore lists, prints cleaned text (TTY and pipe), writes exact bytes with -o, and never overwrites without --force", async () => {
  const ix = await indexSessions([S]);
  try {
    const list = await run(ix, ["restore", "/w/svc/server.js"]);
    assertEquals(list.code, 0);
    assertStringIncludes(list.out, "2 spans, newest first");
    const pipe = await run(ix, ["restore", "/w/svc/server.js", "--span", "2"]);
    assertEquals(pipe.out, "const port = 80;");
    const tty = await run(ix, ["restore", "/w/svc/server.js", "--span", "2"], { tty: true });
    assertEquals(tty.out, "const port = 80;\n"); // a terminal's line ended (trial 13)
    const exact = await run(ix, ["restore", "/w/svc/server.js", "--span", "2", "-o", "exact.js"]);
    assertEquals(exact.code, 0);
    assertEquals(readFileSync(join(ix.root, "exact.js"), "utf8"), "const port = 80;\x1b[31m");
    const target = join(ix.root, "old.js");
    writeFileSync(target, "keep me");
    const refused = await run(ix, ["restore", "/w/svc/server.js", "--span", "1", "-o", "old.js"]);
    assertEquals(refused.code, 2);
    assertStringIncludes(refused.err, "exists");
    assertStringIncludes(refused.err, "hint: ");
    assertEquals(readFileSync(target, "utf8"), "keep me");
    const forced = await run(ix, [
      "restore",
      "/w/svc/server.js",
      "--span",
      "1",
      "-o",
      "old.js",
      "--force",
    ]);
    assertEquals(forced.code, 0);
    assertEquals(readFileSync(target, "utf8"), "listen(port)");
    const which = await run(ix, ["restore", "/w/svc/server.js", "-o", "new.js"]);
    assertEquals(which.code, 2);
    assertEquals(existsSync(join(ix.root, "new.js")), false);
    // From another directory, by base name: the message names the path that matched.
    const nine = await run(ix, ["restore", "server.js", "--span", "9"], { cwd: "/elsewhere" });
    assertEquals(nine.code, 2);
    assertStringIncludes(nine.err, "no span 9: /w/svc/server.js has 2 spans");
    const j = JSON.parse((await run(ix, ["restore", "/w/svc/server.js", "--json"])).out);
    assertEquals(j.spans.map((s: { n: number }) => s.n), [1, 2]);
    assertEquals(j.spans[0].text, undefined);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore -o refuses a relative path whose session recorded no work dir, with work_dir_unknown in JSON", async () => {
  const R: SessionSpec = {
    id: "abab0010-0000-4000-8000-000000000010",
    cwd: "",
    start: "2026-11-10T10:00:00Z",
    turns: [{ user: "set the key" }, { edit: "backend/.env", old: "KEY=1\n", new: "KEY=2\n" }],
  };
  const ix = await indexSessions([R]);
  try {
    // The person's checkout holds a backend/.env too: the one the agent edited, or not.
    mkdirSync(join(ix.root, "backend"));
    writeFileSync(join(ix.root, "backend/.env"), "KEY=2\n");
    const args = ["restore", "backend/.env", "-o", "backend/.env", "--force"];
    const t = await run(ix, args);
    assertEquals(t.code, 2);
    assertStringIncludes(t.err, "recorded no work dir: which backend/.env it came from is unknown");
    assertStringIncludes(t.err, "hint: -o <another file>");
    assertEquals(readFileSync(join(ix.root, "backend/.env"), "utf8"), "KEY=2\n");
    const j = await run(ix, [...args, "--json"]);
    const d = JSON.parse(j.out);
    assertEquals([j.code, d.exit, d.work_dir_unknown], [2, 2, true]);
    assertStringIncludes(d.hint, "-o <another file>");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore labels a write span as not restorable and refuses to write it out", async () => {
  const w: SessionSpec = {
    id: "abab0009-0000-4000-8000-000000000009",
    cwd: "/w/cfg",
    start: "2026-10-09T10:00:00Z",
    turns: [{ write: "/w/cfg/app.toml", content: "port = 8080\n" }],
  };
  const ix = await indexSessions([w]);
  try {
    const list = await run(ix, ["restore", "/w/cfg/app.toml"]);
    assertEquals(list.code, 0);
    assertStringIncludes(list.out, "write");
    assertStringIncludes(list.out, "previous content unknown, not restorable");
    const out = await run(ix, ["restore", "/w/cfg/app.toml", "-o", "app.toml.old"]);
    assertEquals(out.code, 2);
    assertStringIncludes(out.err, "span 1 is not restorable");
    assertStringIncludes(out.err, "hint: ");
    assertEquals(existsSync(join(ix.root, "app.toml.old")), false);
    const printed = await run(ix, ["restore", "/w/cfg/app.toml", "--span", "1"]);
    assertEquals(printed.out, "port = 8080\n");
    assertStringIncludes(printed.err, "not what it held before");
    const j = JSON.parse((await run(ix, ["restore", "/w/cfg/app.toml", "--json"])).out);
    assertEquals([j.spans[0].op, j.spans[0].restorable], ["write", false]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore says a redacted span is not restorable and -o refuses it, --force or not", async () => {
  const key = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
  const ix = await indexSessions([{
    id: "abab0010-0000-4000-8000-000000000010",
    cwd: "/w/cfg",
    start: "2026-10-09T10:00:00Z",
    turns: [{ edit: "/w/cfg/README.md", old: `key: ${key}\n`, new: "key: $KEY\n" }],
  }]);
  try {
    const list = await run(ix, ["restore", "/w/cfg/README.md"]);
    assertStringIncludes(list.out, "secret redacted when indexed, not restorable");
    const j = JSON.parse((await run(ix, ["restore", "/w/cfg/README.md", "--json"])).out);
    assertEquals(
      [j.spans[0].restorable, j.spans[0].redacted, j.spans[0].unrestorable],
      [false, true, "redacted"],
    );
    writeFileSync(join(ix.root, "README.md"), `key: ${key}\n`);
    const out = await run(ix, [
      "restore",
      "/w/cfg/README.md",
      "--span",
      "1",
      "-o",
      "README.md",
      "--force",
    ]);
    assertEquals(out.code, 2);
    assertStringIncludes(out.err, "span 1 is not restorable");
    assertStringIncludes(out.err, "restore that part by hand");
    assertEquals(readFileSync(join(ix.root, "README.md"), "utf8"), `key: ${key}\n`);
    // Printing it still works, with the note.
    const printed = await run(ix, ["restore", "/w/cfg/README.md", "--span", "1"]);
    assertEquals(printed.out, "key: [redacted:openai_key]\n");
    assertStringIncludes(printed.err, "passed through redaction");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore -o onto the file the span came from puts it back in place; a moved-on file is refused", async () => {
  // The recorded path is the file here (an exact match): a file of the same name elsewhere is
  // never written (lib/cli/cmd_restore_test.ts).
  const app = tempDir("deja-restore-app-");
  const ix = await indexSessions([{
    id: "abab0011-0000-4000-8000-000000000011",
    cwd: app,
    start: "2026-10-09T10:00:00Z",
    turns: [{ edit: join(app, "main.py"), old: "port = 80\n", new: "port = 8080\n" }],
  }]);
  try {
    const file = join(app, "main.py");
    writeFileSync(file, "import os\nport = 8080\nhost = 'a'\n");
    const args = ["restore", "main.py", "--span", "1", "-o", "main.py"];
    const asked = await run(ix, args, { cwd: app });
    assertEquals(asked.code, 2);
    assertStringIncludes(asked.err, "add --force to put the span back in place");
    const done = await run(ix, [...args, "--force"], { cwd: app });
    assertEquals(done.code, 0);
    assertStringIncludes(done.out, "back in");
    assertStringIncludes(done.out, "at line 2");
    assertEquals(readFileSync(file, "utf8"), "import os\nport = 80\nhost = 'a'\n");
    // Now the file no longer holds the edit's new text: refused, nothing lost.
    const again = await run(ix, [...args, "--force", "--json"], { cwd: app });
    assertEquals(again.code, 2);
    assertStringIncludes(again.err, "no longer holds the text its edit put there");
    assertEquals(readFileSync(file, "utf8"), "import os\nport = 80\nhost = 'a'\n");
    writeFileSync(file, "port = 8080\n");
    const j = JSON.parse((await run(ix, [...args, "--force", "--json"], { cwd: app })).out);
    assertEquals([j.in_place, j.line, j.written], [true, 1, file]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore -o - writes the span to stdout and creates no file named '-'", async () => {
  const ix = await indexSessions([{
    id: "abab0012-0000-4000-8000-000000000012",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { edit: "/w/app/main.py", old: "port = 80\n", new: "port = 8080\n" },
      { write: "/w/app/main.py", content: "all new\n" },
    ],
  }]);
  try {
    const out = await run(ix, ["restore", "main.py", "--span", "2", "-o", "-"]);
    assertEquals([out.code, out.out], [0, "port = 80\n"]);
    assertEquals(existsSync(join(ix.root, "-")), false);
    // A span -o refuses is refused on stdout too; --json does not go with it.
    const write = await run(ix, ["restore", "main.py", "--span", "1", "-o", "-"]);
    assertEquals([write.code, write.out], [2, ""]);
    assertStringIncludes(write.err, "span 1 is not restorable");
    const json = await run(ix, ["restore", "main.py", "--span", "2", "-o", "-", "--json"]);
    assertEquals(json.code, 2);
    assertStringIncludes(json.err, "--json cannot go with it");
    assertEquals(existsSync(join(ix.root, "-")), false);
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix reads stdin for '-', answers found with exit 0 and never seen with exit 1", async () => {
  const ix = await indexSessions([S]);
  try {
    const found = await run(ix, ["fix", "-"], { stdin: "Error: Cannot find module 'express'\n" });
    assertEquals(found.code, 0);
    assertStringIncludes(found.out, "npm install express");
    // Its run has no status (Claude Code records none for a success): neither succeeded nor failed.
    assertStringIncludes(found.out, "1 session, 1/1 no error seen (exit unknown),");
    const fj = JSON.parse(
      (await run(ix, ["fix", "Error: Cannot find module 'express'", "--json"])).out,
    );
    assertEquals([fj.fixes[0].succeeded, fj.fixes[0].unknown], [0, 1]);
    // Another module: only its general form was seen, and the answer says so (trial 13).
    const koa = await run(ix, ["fix", "Error: Cannot find module 'koa'"]);
    assertStringIncludes(koa.out, "but only with other names");
    const never = await run(ix, ["fix", "Error: ENOSPC: no space left on device, write"]);
    assertEquals(never.code, 1);
    assertStringIncludes(never.out, "that error was never seen");
    const j = JSON.parse((await run(ix, ["fix", "just words", "--json"])).out);
    assertEquals(j.status, "not_error");
    assertEquals((await run(ix, ["fix", "-"], { stdin: "" })).code, 2);
  } finally {
    ix.cleanup();
  }
});

Deno.test("how, last and remember print text and JSON", async () => {
  const ix = await indexSessions([S]);
  try {
    const how = await run(ix, ["how", "node", "server"]);
    assertStringIncludes(how.out, "node server.js");
    assertStringIncludes(how.out, "ran 2 times in 1 session");
    assertEquals((await run(ix, ["how", "kubectl"])).code, 1);
    // JSON fields are snake_case (docs/json-output.md): `last_exit` alone, the camelCase
    // `lastExit` that stood beside it (user trial, 2026-12: one value under two names) is gone.
    const howDoc = JSON.parse((await run(ix, ["how", "node", "server", "--json"])).out);
    const cmd = howDoc.commands[0];
    assertEquals(cmd.command, "node server.js");
    assert("last_exit" in cmd, JSON.stringify(cmd));
    assert(!("lastExit" in cmd), JSON.stringify(cmd));
    for (const k of Object.keys(cmd)) assert(/^[a-z][a-z0-9_]*$/.test(k), `${k} is not snake_case`);
    const rem = await run(ix, [
      "remember",
      "port comes from env.PORT",
      "--tag",
      "config",
      "--project",
      "svc",
    ]);
    assertEquals(rem.code, 0);
    // The note's own id (what `forget --note` takes), not its day's session id; the name `svc`
    // is the indexed project /w/svc, so the note is filed under that directory.
    assertMatch(
      rem.out,
      /^remembered note ([0-9a-f]{10}) for \/w\/svc; undo: deja forget --note \1\n$/,
    );
    const last = JSON.parse((await run(ix, ["last", "5", "--json"])).out);
    assertEquals(last.sessions.map((s: { harness: string }) => s.harness), ["deja", "claude"]);
    const onlyClaude = await run(ix, ["last", "--harness", "claude"]);
    assertStringIncludes(onlyClaude.out, "51510001");
    assertEquals((await run(ix, ["last", "0"])).code, 2);
    const help = await run(ix, ["--help"]);
    for (const c of ["ctx", "blame", "restore", "fix", "how", "remember", "last"]) {
      assertStringIncludes(help.out, `  ${c} `);
    }
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12): throwaway projects were hidden by search only; ctx, last,
// blame, restore and how still showed them. One rule now, with one --junk and one hint.
Deno.test("every memory command hides throwaway projects unless --junk, and says so", async () => {
  const SCRATCH: SessionSpec = {
    id: "71710001-0000-4000-8000-000000000001",
    cwd: "/tmp/tmp.Qz81kPw3/app",
    start: "2026-11-12T10:00:00Z",
    turns: [
      { user: "Trying the zeppelinctl deploy in a scratch checkout." },
      { bash: "zeppelinctl deploy --dry-run", out: "ok", exit: 0 },
      { edit: "/tmp/tmp.Qz81kPw3/app/zeppelin.toml", old: "replicas = 1", new: "replicas = 3" },
      { say: "Done: the zeppelin config now asks for three replicas." },
    ],
  };
  const ix = await indexSessions([S, SCRATCH]);
  try {
    const hint = "hint: 1 session of throwaway or excluded projects left out; --junk shows";
    const cases: Array<{ args: string[]; shows: string }> = [
      { args: ["last"], shows: "71710001" },
      { args: ["ctx", "zeppelinctl", "deploy"], shows: "zeppelinctl" },
      { args: ["blame", "/tmp/tmp.Qz81kPw3/app/zeppelin.toml"], shows: "71710001" },
      { args: ["restore", "/tmp/tmp.Qz81kPw3/app/zeppelin.toml"], shows: "replicas" },
      { args: ["how", "zeppelinctl"], shows: "zeppelinctl deploy" },
    ];
    for (const c of cases) {
      const hidden = await run(ix, c.args);
      assert(!hidden.out.includes(c.shows), `${c.args[0]} showed a throwaway session`);
      assertStringIncludes(hidden.err, hint, c.args[0]);
      const shown = await run(ix, [...c.args, "--junk"]);
      assertEquals(shown.code, 0, `${c.args[0]} --junk: ${shown.err}`);
      assertStringIncludes(shown.out, c.shows, `${c.args[0]} --junk`);
      assert(!shown.err.includes("hint: 1 session"), `${c.args[0]} --junk still hints`);
    }
    // The session the person is in is never throwaway to them; an id always shows its session.
    const here = await run(ix, ["last"], { cwd: "/tmp/tmp.Qz81kPw3/app" });
    assertStringIncludes(here.out, "71710001");
    assertStringIncludes((await run(ix, ["ctx", "71710001"])).out, "zeppelin");
    const j = JSON.parse((await run(ix, ["last", "--json"])).out);
    assertEquals(j.hidden, 1);
  } finally {
    ix.cleanup();
  }
});

// Regression (2027-01, real stores): `show` said "(untitled)" where `last` showed the first prompt.
Deno.test("show, ctx and blame name an untitled session by its first typed prompt, as last does", async () => {
  const ix = await indexSessions([S]);
  try {
    const want = "The service crashes at start with a missing module error.";
    const last = await run(ix, ["last", "--no-refresh"]);
    assertStringIncludes(last.out, want);
    const show = await run(ix, ["show", "51510001", "--no-refresh"]);
    assert(show.out.startsWith(want), show.out);
    assert(!show.out.includes("(untitled)"));
    assertEquals(JSON.parse((await run(ix, ["show", "51510001", "--json"])).out).description, want);
    // ctx says it once, as its Problem (trial 32: in bold above it too).
    const ctx = await run(ix, ["ctx", "51510001", "--no-refresh"]);
    assertStringIncludes(ctx.out, `## Problem\n\n${want}`);
    assert(!ctx.out.includes("(untitled)"));
    const blame = await run(ix, ["blame", "/w/svc/server.js", "--no-refresh"]);
    assertStringIncludes(blame.out, want);
  } finally {
    ix.cleanup();
  }
});

// Regressions (2027-01, a new user on real stores): `deja: nothing matched ""Repeated 529 Overloaded""`
// doubled the quotes of a quoted phrase; `deja index --interval 5` without --watch was accepted.
Deno.test("a quoted query is named once-quoted, and --interval without --watch is refused", async () => {
  const ix = await indexSessions([S]);
  try {
    const s = await run(ix, ["search", '"zzqq overloaded"', "--no-refresh"]);
    assertEquals(s.code, 1);
    assertStringIncludes(s.err, 'nothing matched "zzqq overloaded"\n');
    const plain = await run(ix, ["search", "zzqq", "--no-refresh"]);
    assertStringIncludes(plain.err, 'nothing matched "zzqq"\n');
    const c = await run(ix, ["ctx", '"zzqq overloaded"', "--no-refresh"]);
    assertStringIncludes(c.err, "nothing matched \"zzqq overloaded\": 'zzqq'");
    const i = await run(ix, ["index", "--interval", "5"]);
    assertEquals(i.code, 2);
    assertStringIncludes(i.err, "--interval applies only to --watch");
  } finally {
    ix.cleanup();
  }
});
