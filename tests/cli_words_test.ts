/**
 * What a new user types that is not a command's normal use, through the CLI in-process:
 * an oversized query, plain words that start with a command's name, text starting with a dash.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";
import { DejaError } from "../core/errors.ts";
import { asSqliteError } from "../lib/store.ts";

const S: SessionSpec = {
  id: "c11c0001-1111-4111-8111-111111111111",
  cwd: "/w/web",
  start: "2026-11-01T10:00:00Z",
  turns: [
    { user: "the uploading spinner hangs; setloading never resets on the loading screen" },
    { bash: "git commit -m 'spinner: reset setloading'", out: "[main 1a2b3c4] spinner" },
    { say: "Fixed: the loading flag resets now." },
  ],
};

/** No stack trace and no raw runtime error line on stderr. */
function clean(err: string): void {
  assert(!/^\s+at /m.test(err), `a stack trace was printed:\n${err.slice(0, 400)}`);
  assert(!/deja: (?:Type)?Error:/.test(err), `a raw error was printed:\n${err.slice(0, 400)}`);
}

// Regression (2026-12, compiled binary): 1000 distinct words reached SQLite as a 1000-deep
// LIKE expression and a 50,001-character word as a too-long LIKE pattern: exit 2, stack trace.
Deno.test("search cuts an oversized query to SQLite's limits and says so, never a stack trace", async () => {
  const ix = await indexSessions([S]);
  try {
    const many = Array.from({ length: 1000 }, (_, i) => `w${i.toString(36)}q`).join(" ");
    for (const query of [`spinner ${many}`, `${"a".repeat(50_001)} spinner`]) {
      const r = await runMain(ix.env, ["search", query]);
      clean(r.err);
      assert(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.err.slice(0, 300)}`);
      assertStringIncludes(r.err, "the query was cut: left out ");
    }
    const long = await runMain(ix.env, ["search", `${"b".repeat(50_001)} spinner`, "--json"]);
    assertEquals(JSON.parse(long.out).cut, { terms: 0, long: 1 });
    const fine = await runMain(ix.env, ["search", "spinner", "--json"]);
    assertEquals([fine.code, JSON.parse(fine.out).cut], [0, null]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("an SQLite error a command did not expect is one line with a hint", () => {
  const db = new DatabaseSync(":memory:");
  let raw: unknown;
  try {
    db.prepare("SELECT 'a' LIKE ?").get(`%${"a".repeat(50_001)}`);
  } catch (e) {
    raw = e;
  } finally {
    db.close();
  }
  const e = asSqliteError(raw, "'deja search'");
  assert(e instanceof DejaError, "an SQLite error becomes a DejaError");
  assertStringIncludes(e.message, "'deja search' stopped: SQLite refused the query (");
  assertEquals(e.message.includes("\n"), false);
  assertStringIncludes(e.hint ?? "", "fewer or shorter words");
  // The pattern was too long: the input, not the index, is why (no 'deja doctor').
  assertStringIncludes(e.hint ?? "", "the input was too long");
  assertEquals((e.hint ?? "").includes("doctor"), false);
  const other = new TypeError("not SQLite");
  assertEquals(asSqliteError(other, "'deja search'"), other);
});

// Trial 76: another program held the index past the wait; `deja last` was told to use fewer words.
Deno.test("an index another program holds is said as such, not blamed on the words", () => {
  const busy = Object.assign(new Error("database is locked"), { errcode: 5 });
  const e = asSqliteError(busy, "'deja last'") as DejaError;
  assertStringIncludes(e.message, "'deja last' stopped: another program holds deja's index");
  assertEquals((e.hint ?? "").includes("words"), false);
  assertStringIncludes(e.hint ?? "", "try again in a moment");
});

Deno.test("a full disk is said as such, not blamed on the words (trial 29)", () => {
  const full = Object.assign(new Error("database or disk is full"), {
    code: "ERR_SQLITE_ERROR",
    errcode: 13,
  });
  const e = asSqliteError(full, "'deja index'");
  assert(e instanceof DejaError);
  assertStringIncludes(e.message, "'deja index' stopped: the disk the index is on is full");
  assertStringIncludes(e.hint ?? "", "free space there");
  assertEquals((e.hint ?? "").includes("words"), false);
});

// Regression (2026-12): plain words starting with a command's name ran that command:
// `deja show me the forgejo logs` ended on "unexpected argument", `deja how did I hide the
// loading spinner` on "no command run here holds …"; then only a hint said how to search them.
// Fresh-user trial (2026-12, compiled binary): a question begun by a command's name is
// searched, and stderr says so in one line.
Deno.test("a question that starts with a command's name is searched, and stderr says so", async () => {
  const ix = await indexSessions([S]);
  try {
    // `show` and `last time` would be search words the question does not hold: left out.
    for (
      const [args, searched] of [
        [
          ["how", "did", "I", "reset", "the", "loading", "spinner"],
          "how did I reset the loading spinner",
        ],
        [["show", "me", "the", "loading", "spinner"], "me the loading spinner"],
        [["last", "time", "I", "reset", "the", "spinner"], "I reset the spinner"],
        [["last", "reset", "the", "spinner"], "reset the spinner"], // an unexpected argument, in prose
        [["how", "to", "reset", "the", "spinner"], "how to reset the spinner"], // how found no command
      ] as Array<[string[], string]>
    ) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 0, `${args.join(" ")}: ${r.err}`);
      const note = `deja: searched the question instead: deja search ${searched}\n`;
      assert(r.err.startsWith(note), r.err);
      assertStringIncludes(r.out, "c11c0001");
    }
    // The search's exit code; options typed go to the search.
    const none = await runMain(ix.env, ["show", "me", "redis", "it's", "down"]);
    assertEquals(none.code, 1);
    assertStringIncludes(
      none.err,
      "searched the question instead: deja search 'me redis it'\\''s down'\n",
    );
    const json = await runMain(ix.env, [
      "last",
      "time",
      "I",
      "reset",
      "it",
      "--harness",
      "claude",
      "--json",
    ]);
    assertEquals(json.code, 0, json.err);
    assertEquals(JSON.parse(json.out).results[0].harness, "claude");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a command's own syntax still runs the command; words that are no prose get a hint", async () => {
  const ix = await indexSessions([S]);
  try {
    for (const args of [["show", "c11c0001"], ["last", "5"], ["how", "git", "commit"]]) {
      const r = await runMain(ix.env, args);
      assertEquals([r.code, r.err.includes("deja search")], [0, false], args.join(" "));
    }
    const show = await runMain(ix.env, ["show", "flask", "server"]);
    assertEquals(show.code, 2, show.err);
    assertStringIncludes(show.err, "unexpected argument");
    assertStringIncludes(show.err, "hint: to search these words: deja search flask server;");
    // With an option the search takes and the command does not (trial 90 F15: a bare
    // "Unknown option").
    const limited = await runMain(ix.env, ["mcp", "server", "connection", "--limit", "4"]);
    assertEquals(limited.code, 2, limited.err);
    assertStringIncludes(
      limited.err,
      "hint: to search these words: deja search --limit 4 mcp server connection;",
    );
    // Words after `mcp` that are no prose (trial 125 F5: `deja mcp servr conection --json`):
    // the hint, keeping --json, and no server (nothing on stdout); in prose, searched.
    const mcp = await runMain(ix.env, ["mcp", "servr", "conection", "--json"]);
    assertEquals([mcp.code, mcp.out], [2, ""], mcp.err);
    assertStringIncludes(
      mcp.err,
      "hint: to search these words: deja search --json mcp servr conection;",
    );
    const asked = await runMain(ix.env, ["mcp", "which", "servers", "did", "I", "add"]);
    assertStringIncludes(asked.err, "searched the question instead: deja search mcp which servers");
    // A session's id is no word to search (trial 94 F9: `resume <id> --junk` was told to
    // search `resume <id>`): the command's help.
    const junk = await runMain(ix.env, ["resume", "c11c0001", "--junk"]);
    assertEquals(junk.code, 2, junk.err);
    assertEquals(junk.err.includes("deja search"), false, junk.err);
    assertStringIncludes(junk.err, "deja resume --help");
    // A session given to forget without --session (trial 34: the hint offered a search).
    const forget = await runMain(ix.env, ["forget", "c11c0001"]);
    assertEquals(forget.code, 2, forget.err);
    assertStringIncludes(
      forget.err,
      "hint: to forget that session: deja forget --session c11c0001;",
    );
    const how = await runMain(ix.env, ["how", "kubectl", "rollout"]);
    assertEquals(how.code, 1);
    assertStringIncludes(how.err, "hint: to search these words: deja search kubectl rollout\n");
    const json = await runMain(ix.env, ["how", "kubectl", "--json"]);
    assertEquals([json.code, json.err.includes("deja search")], [1, false]);
    // fix answers a pasted error (prose) itself, with a hint; so does a lone `show me`.
    const fix = await runMain(ix.env, ["fix", "for", "redis", "it's", "down"]);
    assertEquals(fix.code, 1);
    assertStringIncludes(
      fix.err,
      "hint: to search these words: deja search 'for redis it'\\''s down'",
    );
    assertEquals(fix.err.includes("searched the question"), false);
    const me = await runMain(ix.env, ["show", "me"]);
    assertEquals(me.code, 1);
    assertStringIncludes(me.err, "to search these words: deja search show me");
    // remember keeps whatever it is given, a question too.
    const note = await runMain(ix.env, ["remember", "did", "we", "pin", "node"]);
    assertEquals(note.code, 0, note.err);
    assertStringIncludes(note.out, "remembered note ");
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12): `deja remember how I fixed the redis dns lookup` wrote a note and
// said only "Remembered under …": a question typed as a search was kept with no word of it.
Deno.test("remember says a question-shaped note was written, how to search instead and how to undo it", async () => {
  const ix = await indexSessions([S]);
  try {
    const r = await runMain(ix.env, ["remember", "how", "I", "fixed", "the", "redis", "dns"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "a note was written, although this reads like a question");
    assertStringIncludes(r.err, "deja search how I fixed the redis dns;");
    const undo = /to undo: (deja forget --note (\S+))/.exec(r.err);
    assert(undo, r.err);
    const forgot = await runMain(ix.env, undo[1].split(" ").slice(1));
    assertEquals(forgot.code, 0, forgot.err);
    const gone = await runMain(ix.env, ["search", "redis", "dns", "--no-refresh"]);
    assertEquals(gone.code, 1, "the note is gone from the index after the undo");
    const plain = await runMain(ix.env, ["remember", "the port comes from env.PORT"]);
    assertEquals([plain.code, plain.err], [0, ""]);
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12): `deja -rf` said only "Unknown option '-r'"; text starting with a
// dash is searched with `--` before it, and the hint did not say so.
Deno.test("an unknown option says how to search for text starting with a dash, and that way works", async () => {
  const ix = await indexSessions([{
    ...S,
    turns: [{ bash: "rm -rf node_modules", out: "" }, { say: "Removed." }],
  }]);
  try {
    for (const args of [["-rf"], ["search", "-rf"], ["search", "--rf=1"]]) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 2, r.err);
      const typed = args.at(-1);
      assertStringIncludes(
        r.err,
        `hint: to search for text starting with a dash: deja search -- ${typed}; see 'deja search --help'`,
      );
    }
    const how = await runMain(ix.env, ["how", "-rf"]);
    assertStringIncludes(how.err, "text starting with a dash: deja how -- -rf;");
    for (const args of [["search", "--", "-rf"], ["--", "-rf"]]) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 0, r.err);
      assertStringIncludes(r.out, "c11c0001");
    }
    const forget = await runMain(ix.env, ["forget", "-x"]);
    assertEquals(forget.err.includes("starting with a dash"), false, "forget takes no text");
    // Trial 63: show and blame take one argument; `--` before three would be refused again.
    for (const args of [["show", "c11c0001", "--range", "3"], ["blame", "README.md", "--bogus"]]) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 2, r.err);
      assertEquals(r.err.includes(" -- "), false, r.err);
      assertStringIncludes(r.err, `see 'deja ${args[0]} --help'`);
    }
    // One argument that starts with a dash is still offered its way.
    assertStringIncludes(
      (await runMain(ix.env, ["blame", "-notes.md"])).err,
      "deja blame -- -notes.md",
    );
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, trial 9): `deja how git checkout -f work` hinted `deja how -- -f`,
// which drops the other words; the hint gives the whole command, known options before `--`.
// Since trial 105 F3, `how` takes such words as they are; `fix` still hints.
Deno.test("an unknown option inside a command's words hints the whole command after --", async () => {
  const ix = await indexSessions([{
    ...S,
    turns: [{ bash: "git checkout -f work", out: "" }, { say: "Switched." }],
  }]);
  try {
    const r = await runMain(ix.env, ["how", "git", "checkout", "-f", "work", "--limit", "3"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out, "git checkout -f work");
    const f = await runMain(ix.env, ["fix", "error:", "-x", "bad", "--limit", "3"]);
    assertEquals(f.code, 2, f.err);
    assertStringIncludes(
      f.err,
      "hint: to give text with a word starting with a dash: deja fix --limit 3 -- error: -x bad;",
    );
    const ok = await runMain(ix.env, [
      "how",
      "--limit",
      "3",
      "--",
      "git",
      "checkout",
      "-f",
      "work",
    ]);
    assertEquals(ok.code, 0, ok.err);
    assertStringIncludes(ok.out, "git checkout -f work");
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12): `deja backfil loading` said "inside longer words: backfil → backfill;
// loading → setloading, uploading" although `loading` was found as typed.
Deno.test("the widened-words note lists only the words not found as typed", async () => {
  const ix = await indexSessions([{
    ...S,
    turns: [
      { user: "the backfill job shows the loading spinner forever" },
      { say: "setloading is now reset after the uploading step" },
    ],
  }]);
  try {
    const r = await runMain(ix.env, ["backfil", "loading"]);
    assertEquals(r.code, 0, r.err);
    // Found inside a longer word or as a close spelling (the stem of backfill is backfil).
    assertStringIncludes(r.err, "backfil → backfill");
    assertEquals(r.err.includes("loading →"), false, r.err);
    const j = JSON.parse((await runMain(ix.env, ["search", "backfil", "loading", "--json"])).out);
    assertEquals(j.changes, [{ from: "backfil", to: ["backfill"] }]);
  } finally {
    ix.cleanup();
  }
});

// A fresh-user trial: `deja show zzzz` hinted `deja search show zzzz` (README: the command's name
// is left out), and `deja show deja:` searched `show deja:`.
Deno.test("a session id that matches nothing hints a search of the id alone; a bare 'deja:' asks for an id", async () => {
  const ix = await indexSessions([S]);
  try {
    const z = await runMain(ix.env, ["show", "zzzz"]);
    assertEquals(z.code, 1);
    assertStringIncludes(z.err, "hint: to search these words: deja search zzzz\n");
    // The same for a command whose name is an action word (trial 61: `deja resume zzzqq`
    // offered `deja search resume zzzqq`).
    for (const cmd of ["resume", "handoff"]) {
      const r = await runMain(ix.env, [cmd, "zzzqq", ...(cmd === "handoff" ? ["--print"] : [])]);
      assertStringIncludes(r.err, "hint: to search these words: deja search zzzqq\n", cmd);
    }
    const bare = await runMain(ix.env, ["show", "deja:"]);
    assertEquals(bare.code, 1);
    assertStringIncludes(bare.err, "deja:<YYYY-MM-DD>");
    assertEquals(bare.err.includes("deja search"), false);
    // The other way round (trial 42): an id searched as words names the commands that take it.
    const id = S.id.slice(0, 8);
    const searched = await runMain(ix.env, [id]);
    assertEquals(searched.code, 1, searched.err);
    assertStringIncludes(searched.err, `hint: ${id} is a session's id: deja show ${id}`);
    const other = await runMain(ix.env, ["abcdef12"]);
    assertEquals(other.err.includes("is a session's id"), false, other.err);
  } finally {
    ix.cleanup();
  }
  // Ids that are not hex are ids too (trial 43: Gemini's `mrp1k5` got a bare "nothing matched").
  const short = await indexSessions([{ ...S, id: "zq7k2m" }]);
  try {
    const r = await runMain(short.env, ["zq7k2m"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(r.err, "hint: zq7k2m is a session's id: deja show zq7k2m");
  } finally {
    short.cleanup();
  }
  // An id whose words other sessions hold lists them, and still names the commands (trial 43:
  // aider's `aider-69f75c590d41-1` listed look-alikes and no hint).
  const worded = await indexSessions([{ ...S, id: "spinner-69f7-1" }, {
    ...S,
    turns: [{ user: "another spinner question, about 69f7" }, { say: "Answered it." }],
  }]);
  try {
    const r = await runMain(worded.env, ["spinner-69f7-1"]);
    assertStringIncludes(r.out, "another spinner question");
    assertStringIncludes(r.err, "hint: spinner-69f7-1 is a session's id: deja show spinner-69f7-1");
    // A word of prose is no id, whatever it matches.
    const word = await runMain(worded.env, ["spinners"]);
    assertEquals(word.err.includes("is a session's id"), false, word.err);
  } finally {
    worded.cleanup();
  }
});

// Regression (2026-12, user trial): `deja remote add r1 '-oProxyCommand=…'` hinted
// `deja remote -- add r1 '-oProxyCommand=…'`, which is then refused (rightly: ssh would read
// such a host as an option). No hint may suggest a command that is refused.
Deno.test("remote refuses a host or name starting with a dash as such, and hints no -- that would be refused", async () => {
  const ix = await indexSessions([S]);
  try {
    const proxy = "-oProxyCommand=touch /tmp/deja-pwned";
    for (const args of [["remote", "add", "r1", proxy], ["remote", "add", "r1", "-p2222"]]) {
      const r = await runMain(ix.env, args);
      assertEquals(r.code, 2, r.err);
      assertStringIncludes(r.err, "an SSH target cannot start with '-'");
      assertEquals(r.err.includes("deja remote -- "), false, r.err);
      assertEquals(r.err.includes("nknown option"), false, r.err);
    }
    const after = await runMain(ix.env, ["remote", "--", "add", "r1", proxy]);
    assertEquals(after.code, 2, after.err);
    assertStringIncludes(after.err, "an SSH target cannot start with '-'");
    const name = await runMain(ix.env, ["remote", "add", "-x", "me@devbox"]);
    assertEquals(name.code, 2, name.err);
    assertStringIncludes(name.err, "'-x' cannot name a remote");
    assertEquals(name.err.includes("deja remote -- "), false, name.err);
    const other = await runMain(ix.env, ["remote", "list", "--bogus"]);
    assertEquals(other.code, 2, other.err);
    assertStringIncludes(other.err, "unknown option");
    assertEquals(other.err.includes("deja remote -- "), false, other.err);
  } finally {
    ix.cleanup();
  }
});

// Trial 16 (2026-12): `deja redis --lmit 3` got only the hint for text starting with a dash;
// `deja last month telegram` hinted `deja search month telegram`, without `last`;
// `--session a --session b` searched `b` alone.
Deno.test("a slip of an option is named; a time phrase keeps its first word; a filter given twice is refused", async () => {
  const ix = await indexSessions([S]);
  try {
    for (
      const [args, near, cmd] of [
        [["spinner", "--lmit", "3"], "limit", "search"],
        [["last", "--jsn"], "json", "last"],
        [["show", S.id, "--jsno"], "json", "show"],
      ] as const
    ) {
      const r = await runMain(ix.env, [...args]);
      assertEquals(r.code, 2, r.err);
      assertStringIncludes(r.err, `hint: did you mean --${near}? see 'deja ${cmd} --help'`);
      clean(r.err);
    }
    // Far from every option: no guess, the dash hint as before.
    const far = await runMain(ix.env, ["spinner", "--zzzzzz"]);
    assertEquals(far.err.includes("did you mean"), false, far.err);
    assertStringIncludes(far.err, "deja search -- spinner --zzzzzz");

    const time = await runMain(ix.env, ["last", "month", "spinner"]);
    assertEquals(time.code, 2, time.err);
    assertStringIncludes(time.err, "to search these words: deja search last month spinner");
    const plain = await runMain(ix.env, ["doctor", "now"]);
    assertStringIncludes(plain.err, "to search these words: deja search doctor now;");
    const named = await runMain(ix.env, ["sources", "of", "spinner"]);
    assertStringIncludes(
      named.err,
      "searched the question instead: deja search sources of spinner",
    );

    const twice = await runMain(ix.env, ["spinner", "--session", S.id, "--session", "zz"]);
    assertEquals(twice.code, 2, twice.err);
    assertStringIncludes(twice.err, `--session given twice ('${S.id}' and 'zz'); it takes one`);
    const same = await runMain(ix.env, ["spinner", "--session", S.id, "--session", S.id]);
    assertEquals(same.code, 0, same.err);
    // Other options keep the last value, as an alias's default is overridden.
    const limit = await runMain(ix.env, ["spinner", "--limit", "5", "--limit", "1", "--json"]);
    assertEquals([limit.code, JSON.parse(limit.out).results.length], [0, 1], limit.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("an option cut short, in capitals or with its value glued on is named as written", async () => {
  const ix = await indexSessions([S]);
  try {
    for (
      const [typed, near] of [
        ["--proj", "--project"],
        ["--JSON", "--json"],
        ["--lim", "--limit"],
        ["--since30d", "--since 30d"],
      ]
    ) {
      const r = await runMain(ix.env, ["spinner", typed]);
      assertEquals(r.code, 2, r.err);
      assertStringIncludes(r.err, `hint: did you mean ${near}? see 'deja search --help'`);
    }
    const since = await runMain(ix.env, ["spinner", "--since", "30d", "--since", "300d"]);
    assertEquals(since.code, 2, since.err);
    assertStringIncludes(since.err, "--since given twice ('30d' and '300d')");
  } finally {
    ix.cleanup();
  }
});

// Trial 45: PowerShell's coloured error output was indexed with its escapes: a phrase copied
// from `deja show` (which shows none) matched nothing, and snippets carried `[31;1m`.
Deno.test("terminal colours in a tool's output are no part of its words", async () => {
  const ix = await indexSessions([{
    ...S,
    turns: [
      { user: "run the script analyzer on the module" },
      {
        bash: "pwsh ./lint.ps1",
        out:
          "\x1b[36;1mRunning ScriptAnalyzer\x1b(B\x1b[m\n\x1b[31;1m4 | Invoke-ScriptAnalyzer -Path\x1b[0m",
        exit: 1,
      },
    ],
  }]);
  try {
    const r = await runMain(ix.env, ['"4 | Invoke-ScriptAnalyzer -Path"', "--json"]);
    assertEquals(r.code, 0, r.err);
    const json = JSON.parse(r.out);
    assertEquals(json.results.length, 1);
    assertEquals(r.out.includes("\\u001b"), false, r.out);
    const phrase = await runMain(ix.env, ['"Running ScriptAnalyzer 4 Invoke-ScriptAnalyzer"']);
    assertEquals(phrase.code, 0, phrase.err);
  } finally {
    ix.cleanup();
  }
});

// Trial 45: `rediss sentinell forgejoo` said "'sentinell', 'forgejoo' are in no session;
// without them: deja rediss", though the search reads `forgejoo` as `forgejo`, which one holds.
Deno.test("a word the search reads as a typo is not said to be in no session", async () => {
  const ix = await indexSessions([
    {
      ...S,
      turns: [{ user: "the redis cache behind forgejo keeps evicting" }, {
        say: "Raised maxmemory.",
      }],
    },
    {
      ...S,
      id: "c11c0002-1111-4111-8111-111111111112",
      turns: [{ user: "redis eviction on the staging box" }, { say: "Looked at the policy." }],
    },
  ]);
  try {
    const r = await runMain(ix.env, ["rediss", "sentinell", "forgejoo"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: 'sentinell' is in no searchable text; without it: 1 session: ",
    );
    assertStringIncludes(r.err, "deja rediss forgejoo");
  } finally {
    ix.cleanup();
  }
});

// Trial 45: `docekr executable` listed sessions that say only `execution`, and named only
// `docekr → docker`: the word held as typed was read in its forms beside the spelling fix.
// (`executable` itself takes no `execution` since trial 121 H3: an -able word's forms keep
// it; `deploy` and `deployment` show the same naming.)
Deno.test("beside a spelling fix, a word read in its forms is named as such", async () => {
  const spec = (n: number, text: string): SessionSpec => ({
    ...S,
    id: `c11c000${n}-1111-4111-8111-11111111111${n}`,
    turns: [{ user: text }, { say: "Looked into it." }],
  });
  const ix = await indexSessions([
    spec(1, "the docker deploy is missing from the path"),
    spec(2, "docker deployment failed on the build box"),
  ]);
  try {
    const r = await runMain(ix.env, ["docekr", "deploy", "--json"]);
    assertEquals(r.code, 0, r.err);
    const json = JSON.parse(r.out);
    assertEquals(json.results.length, 2);
    assertEquals(json.changes.map((c: { from: string }) => c.from), ["docekr", "deploy"]);
    const text = await runMain(ix.env, ["docekr", "deploy"]);
    assertStringIncludes(
      text.err + text.out,
      "close spellings: docekr → docker; word forms: deploy → ",
    );
  } finally {
    ix.cleanup();
  }
  // Every session listed holds it as typed: its forms are not news.
  const held = await indexSessions([spec(1, "the docker deploy is missing from the path")]);
  try {
    const r = await runMain(held.env, ["docekr", "deploy", "--json"]);
    assertEquals(JSON.parse(r.out).changes.map((c: { from: string }) => c.from), ["docekr"]);
  } finally {
    held.cleanup();
  }
});

// Trial 46: `deja 5fbf3543 centered` said the id "is in no session" and offered the search
// without it, across every session.
Deno.test("a session's id typed among the words is offered as --session", async () => {
  const ix = await indexSessions([S, {
    ...S,
    id: "c11c0002-1111-4111-8111-111111111112",
    turns: [{ user: "the spinner on the login page" }, { say: "Centered it." }],
  }, {
    ...S,
    id: "c11c0003-1111-4111-8111-111111111113",
    turns: [{ user: "show me the diff" }, { say: "Here it is." }],
  }]);
  try {
    const r = await runMain(ix.env, ["c11c0001", "spinner"]);
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(
      r.err,
      "hint: c11c0001 is a session's id, no word of one: deja spinner --session c11c0001\n",
    );
    const within = await runMain(ix.env, ["spinner", "--session", "c11c0001", "--json"]);
    assertEquals(JSON.parse(within.out).results.map((x: { id: string }) => x.id), [S.id]);
    // A script reading --json is told as much (trial 47: no field said it).
    const json = await runMain(ix.env, ["c11c0001", "spinner", "--json"]);
    assertEquals(json.code, 1, json.err);
    const d = JSON.parse(json.out);
    assertEquals(d.absent_words, {
      words: ["c11c0001"],
      without: "spinner",
      sessions: 2,
      session_id: "c11c0001",
    });
    assertEquals(d.hints, [
      "c11c0001 is a session's id, no word of one: deja spinner --session c11c0001",
    ]);
    // A session that holds none of the other words is offered to read, not to search within
    // (trial 49).
    const empty = await runMain(ix.env, ["c11c0002", "setloading"]);
    assertStringIncludes(
      empty.err,
      "hint: c11c0002 is a session's id, no word of one, and that session holds no other word " +
        "of the query: deja show c11c0002; across every session: deja setloading\n",
    );
    // A mistyped command beside it offers no search of the typo (trial 139 M3: "across every
    // session: deja showw"); the command's own hint follows.
    const typo = await runMain(ix.env, ["showw", "c11c0002"]);
    assertStringIncludes(typo.err, "hint: c11c0002 is a session's id: deja show c11c0002\n");
    assert(!typo.err.includes("deja showw"), typo.err);
    assertStringIncludes(typo.err, "did you mean 'show'?");
    // Also beside a session that holds the typo's close spelling (trial 140: "deja shwo
    // --session 093f").
    const shwo = await runMain(ix.env, ["shwo", "c11c0003"]);
    assert(!shwo.err.includes("deja shwo"), shwo.err);
    assertStringIncludes(shwo.err, "hint: c11c0003 is a session's id: deja show c11c0003\n");
    // And a lone id, to read with show or ctx.
    const lone = JSON.parse((await runMain(ix.env, ["c11c0002", "--json"])).out);
    assertEquals([lone.session_id, lone.hints], [
      "c11c0002",
      ["c11c0002 is a session's id: deja show c11c0002 (or deja ctx c11c0002)"],
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 118 F7: a query of 251 words named all 250 words it lacked "in no searchable text",
// the 51 cut after the first 200 and never looked up among them.
Deno.test("the words cut from a long query are not said to be in no searchable text", async () => {
  const ix = await indexSessions([S]);
  try {
    const words = Array.from({ length: 250 }, (_, i) => `alpha${i}`);
    const json = await runMain(ix.env, [["spinner", ...words].join(" "), "--json"]);
    assertEquals(json.code, 1, json.err);
    const d = JSON.parse(json.out);
    assertEquals(d.cut.terms, 51);
    assertEquals(d.absent_words.words, words.slice(0, 199));
    assertEquals(d.absent_words.without, "spinner");
  } finally {
    ix.cleanup();
  }
});
