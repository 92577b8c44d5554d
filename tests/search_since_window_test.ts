/**
 * Trial 107 F8: `deja --since yesterday <query>` said nothing of the window it used, where the
 * same time words typed in the query named theirs. Every `--since` form says its window, in
 * the text and in `--json`.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";
import { windowDays } from "../lib/cli/last_window.ts";
import { parseSince } from "../lib/query.ts";

Deno.test("search says the window --since gave, in text and --json (F8)", async () => {
  const ix = await indexSessions([{
    id: "b8b80001-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: new Date(Date.now() - 3600e3).toISOString(),
    turns: [{ user: "the zorbfeed cache is stale" }, { say: "Cleared the zorbfeed cache." }],
  }]);
  try {
    for (const since of ["yesterday", "2d", "last week", "2026-01-01"]) {
      const from = parseSince(since)!;
      const days = windowDays({ from, to: Date.now() + 1, words: since }, Date.now());
      const r = await runMain(ix.env, ["--since", since, "zorbfeed"]);
      assertEquals(r.code, 0, r.err);
      assertStringIncludes(r.err, `--since ${since}: ${days}; sessions before it left out`);
      const j = JSON.parse((await runMain(ix.env, ["--json", "--since", since, "zorbfeed"])).out);
      assertEquals(j.since.words, since);
      assertEquals(Math.abs(Date.parse(j.since.from) - from) < 60_000, true, j.since.from);
    }
    // Nothing found: the window is said with the verdict.
    const none = await runMain(ix.env, ["--since", "yesterday", "qqzzyy"]);
    assertStringIncludes(none.err, "--since yesterday: since ");
    // No --since: no such line, and null in --json.
    const plain = await runMain(ix.env, ["zorbfeed"]);
    assertEquals(plain.err.includes("--since"), false, plain.err);
    assertEquals(JSON.parse((await runMain(ix.env, ["--json", "zorbfeed"])).out).since, null);
  } finally {
    ix.cleanup();
  }
});
