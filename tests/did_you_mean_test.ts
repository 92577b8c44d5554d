import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";

Deno.test("a mistyped command is searched, and said to resemble the command after the results", async () => {
  const ix = await indexSessions([{
    id: "d1d00000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "show the last deploy log" }, { say: "the last deploy failed" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const found = await runMain(env, ["lsat"]);
    assertEquals(found.code, 0, found.err);
    assertStringIncludes(found.out, "d1d00000");
    // Trial 17a (`deja indx`): found, the command it resembles was not named.
    assertStringIncludes(
      found.err,
      "'lsat' is not a command: these results are a search for the word; did you mean 'deja last'?",
    );
    const none = await runMain(env, ["instal"]);
    assertEquals(none.code, 1);
    assertStringIncludes(none.err, "did you mean 'install'?");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a lone word that names a command deja calls otherwise says which command it is", async () => {
  const ix = await indexSessions([{
    id: "d1d00000-1111-4222-8333-444455556667",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "list the sessions of the sync job" }, { say: "two sessions ran" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Searched for (the history holds it) and said, whatever the search found.
    const alone = await runMain(env, ["sessions"]);
    assertEquals(alone.code, 0, alone.err);
    assertStringIncludes(alone.out, "d1d00000");
    assertStringIncludes(alone.err, "'deja last' is the command for that");
    // Among other words it is only a search word.
    const more = await runMain(env, ["sessions", "sync"]);
    assert(!more.err.includes("is the command for that"), more.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a command's name less its plural s names the command even when the history holds the word", async () => {
  const ix = await indexSessions([{
    id: "d1d00000-1111-4222-8333-444455556668",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "git show --stat of the last commit" }, { say: "the stat lists two files" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    // Trial 18b: `deja stat` searched the word and never named `deja stats`.
    const r = await runMain(env, ["stat"]);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out, "d1d00000");
    assertStringIncludes(
      r.err,
      "these results are a search for 'stat'; 'deja stats' is the command",
    );
    // Two edits off a command and in the history: the history's own word, nothing said.
    const other = await runMain(env, ["files"]);
    assert(!other.err.includes("is the command"), other.err);
  } finally {
    ix.cleanup();
  }
});
