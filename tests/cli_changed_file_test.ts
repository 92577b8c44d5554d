/**
 * A file named among other words in a query that matched nothing exactly: the hint names the
 * sessions that changed it and `deja blame` (trial 18b: `which session changed App.css`
 * ranked the one session that edited it nowhere).
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";

Deno.test("a file named in a query nothing matched exactly points to deja blame", async () => {
  const ix = await indexSessions([
    {
      id: "ed170000-1111-4222-8333-444455556666",
      cwd: "/w/app",
      start: "2026-11-01T10:00:00Z",
      turns: [
        { user: "make the header darker" },
        { edit: "/w/app/src/App.css", old: "#fff", new: "#222" },
        { say: "Done." },
      ],
    },
    {
      id: "0the0000-1111-4222-8333-444455556666",
      cwd: "/w/other",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "the session changed nothing in the app" }, { say: "ok" }],
    },
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const r = await runMain(env, ["which", "session", "changed", "App.css"]);
    assertStringIncludes(r.err, "hint: 1 session changed App.css: deja blame App.css");
    const json = await runMain(env, ["which", "session", "changed", "App.css", "--json"]);
    assertEquals(JSON.parse(json.out).changed_files, [{ file: "App.css", sessions: 1 }]);
    // Found exactly: no hint.
    const exact = await runMain(env, ["header", "darker"]);
    assertEquals(exact.err.includes("deja blame"), false, exact.err);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the changed-file hint counts the sessions the blame it names shows (trial 120 M1)", async () => {
  // Two throwaway sessions and one kept one edited App.css: `deja blame App.css` shows the
  // kept one and leaves the others out, so the hint says 1, not 3 (it said 6 where blame showed 2).
  const edit = (id: string, cwd: string, day: string) => ({
    id,
    cwd,
    start: `2026-11-${day}T10:00:00Z`,
    turns: [
      { user: "make the header darker" },
      { edit: `${cwd}/src/App.css`, old: "#fff", new: "#222" },
      { say: "Done." },
    ],
  });
  const ix = await indexSessions([
    edit("ed170000-1111-4222-8333-444455556666", "/w/app", "01"),
    edit("ed170001-1111-4222-8333-444455556666", "/tmp/farm/a", "02"),
    edit("ed170002-1111-4222-8333-444455556666", "/tmp/farm/b", "03"),
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const r = await runMain(env, ["which", "session", "changed", "App.css"]);
    assertStringIncludes(r.err, "hint: 1 session changed App.css: deja blame App.css");
    const blame = await runMain(env, ["blame", "App.css", "--json"]);
    assertEquals(JSON.parse(blame.out).sessions.length, 1);
  } finally {
    ix.cleanup();
  }
});
