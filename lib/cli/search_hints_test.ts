import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";
import { caseHint, operatorHint, symbolHint } from "./_search_notes.ts";

Deno.test("a word typed with a symbol the index drops says so and names --re", () => {
  assertEquals(
    symbolHint("#include stdio"),
    "hint: '#include' was searched as 'include' (the index keeps no symbols); " +
      "deja search --re '#include\\b' matches it as typed\n",
  );
  assertStringIncludes(symbolHint("install .NET sdk"), "--re '\\.NET\\b'");
  // A language named by a letter and a symbol is looked for as written (trial 90 F8).
  for (const q of ["C++ build", "C#", "f#"]) assertEquals(symbolHint(q), "", q);
  // Sentence punctuation, paths, quoted phrases and inner dots are no such words.
  for (
    const q of ["it is done.", "why?", "/etc/hosts", "~/.env", '"#include"', "v1.2 notify-send"]
  ) {
    assertEquals(symbolHint(q), "", q);
  }
});

Deno.test("search prints the symbol hint, and --re with it finds the word as typed", async () => {
  const ix = await indexSessions([
    {
      id: "5b510000-1111-4222-8333-000000000001",
      cwd: "/w/a",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "install the .NET SDK" }, { say: "the .NET SDK is installed" }],
    },
    {
      id: "5b520000-1111-4222-8333-000000000002",
      cwd: "/w/b",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "point the host at db.example.net" }, { say: "done" }],
    },
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 3: `.NET` was searched as `net`, and the domain came first with no word of it.
    const r = await runMain(env, ["search", ".NET"]);
    assertStringIncludes(r.err, "'.NET' was searched as 'net'");
    const re = await runMain(env, ["search", "--re", "\\.NET\\b"]);
    assertEquals(re.code, 0, re.err);
    assertStringIncludes(re.out, "5b510000");
    assertEquals(re.out.includes("5b520000"), false, re.out);
    assertEquals(re.out.includes("db.example"), false, re.out);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a search held only by hidden sessions says so in its verdict", async () => {
  const ix = await indexSessions([{
    id: "5b530000-1111-4222-8333-000000000003",
    cwd: "/tmp/scratch",
    start: "2026-11-03T10:00:00Z",
    turns: [{ user: "try the zebrafinch flag" }, { say: "done" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 9: "nothing matched", and only a hint after it that a session holding it was hidden.
    const r = await runMain(env, ["zebrafinch"]);
    assertEquals(r.code, 1);
    assertStringIncludes(
      r.err,
      'deja: nothing matched "zebrafinch" outside throwaway or excluded projects\n',
    );
    assertStringIncludes(r.err, "--junk");
    // Trial 105 F5: its typo was a bare "nothing matched".
    const typo = await runMain(env, ["zebrafinsh"]);
    assertEquals(typo.code, 1);
    assertStringIncludes(
      typo.err,
      'deja: nothing matched "zebrafinsh" outside throwaway or excluded projects (there, as ' +
        "zebrafinsh → zebrafinch)\n",
    );
    assertStringIncludes(typo.err, "--junk");
    // A word no close spelling reaches stays a plain miss.
    const none = await runMain(env, ["quixotical"]);
    assertEquals(none.err.includes("outside throwaway"), false, none.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("OR and NOT typed as operators are said to be words, and --re is said to heed case", async () => {
  assertEquals(operatorHint("redis AND cache"), "");
  assertEquals(operatorHint('"foo OR bar"'), "");
  assertEquals(operatorHint("or else"), "");
  assertEquals(caseHint("(?i)exit code"), "");
  assertEquals(caseHint("[0-9]+"), "");
  const ix = await indexSessions([
    {
      id: "0e510000-1111-4222-8333-000000000001",
      cwd: "/w/a",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "the redis cache went stale" }, { say: "Exit code 127 from the flush" }],
    },
    {
      id: "0e520000-1111-4222-8333-000000000002",
      cwd: "/w/b",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "tune the postgres pool" }, { say: "done" }],
    },
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 37: `foo OR bar` offered `deja OR bar`, and said nothing of OR.
    const or = await runMain(env, ["search", "zqxfoo OR postgres"]);
    assertEquals(or.code, 1);
    assertStringIncludes(or.err, "without it: 1 session: deja postgres\n");
    assertStringIncludes(
      or.err,
      "hint: OR is no operator here: deja lists the sessions holding every word; " +
        "deja search --re '(?i)zqxfoo|postgres' finds any of them\n",
    );
    const either = await runMain(env, ["search", "--re", "(?i)redis|postgres", "--json"]);
    assertEquals(JSON.parse(either.out).results.length, 2);
    const not = await runMain(env, ["search", "NOT redis"]);
    assertStringIncludes(not.err, "hint: NOT is no operator here");
    // Trial 37: `exit code 1[0-9]+` found nothing where the history says "Exit code 127".
    const re = await runMain(env, ["search", "--re", "exit code 1[0-9]+"]);
    assertEquals(re.code, 1);
    assertStringIncludes(
      re.err,
      "hint: --re is case-sensitive; '(?i)exit code 1[0-9]+' ignores case\n",
    );
    const ci = await runMain(env, ["search", "--re", "(?i)exit code 1[0-9]+", "--json"]);
    assertEquals(JSON.parse(ci.out).results.length, 1);
  } finally {
    await ix.cleanup();
  }
});

Deno.test("a word in no session beside time words alone counts the sessions the window lists", async () => {
  // Trial 59: `zzzqq in march` said "without it: 3 sessions: deja in march", the sessions
  // saying `march`, where `deja in march` lists every session of March.
  const spec = (n: number, day: string, said: string) => ({
    id: `0e53000${n}-1111-4222-8333-000000000001`,
    cwd: "/w/a",
    start: `2026-03-${day}T10:00:00Z`,
    turns: [{ user: said }, { say: "done" }],
  });
  const ix = await indexSessions([
    spec(1, "03", "tune the postgres pool"),
    spec(2, "10", "rename the march release notes"),
    spec(3, "20", "fix the login page"),
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const r = await runMain(env, ["search", "zqxfoo", "in", "march", "2026"]);
    assertEquals(r.code, 1);
    assertStringIncludes(r.err, "without it: 3 sessions: deja in march 2026\n");
    const listed = await runMain(env, ["in", "march", "2026", "--json"]);
    assertEquals(JSON.parse(listed.out).sessions.length, 3);
  } finally {
    ix.cleanup();
  }
});
