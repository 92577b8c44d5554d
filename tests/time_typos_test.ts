/**
 * Trial 107 F7: typos of time words were handled unevenly (`last a weeek` searched as words,
 * `yesterdya` with no word of it, `deja last week 5` refused). A typo of a time word (one edit,
 * four letters or more, no English word) is read as that word and said so, in the query, in
 * `--since` and in `deja last`; ordinary words stay words.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";
import { timeHint, timeTypos } from "../lib/search/timewords.ts";

const NOW = new Date(2026, 11, 6, 12).getTime();

Deno.test("a typo of a time word is read as it where it makes a time phrase", () => {
  for (
    const [q, words, typed] of [
      ["docker last a weeek", "last a week", "last a weeek"],
      ["docker yesterdya", "yesterday", "yesterdya"],
      ["lsat week redis", "last week", "lsat week"],
      ["backup since mondya", "since monday", "since mondya"],
      ["deploy in marhc 2025", "in march 2025", "in marhc 2025"],
    ]
  ) {
    const r = timeHint(q, NOW);
    assertEquals([r.hint?.words, r.hint?.typed], [words, typed], q);
    assert(!r.rest.includes(typed), r.rest);
    // The same window as the words spelt right.
    const right = timeHint(q.replace(typed, words), NOW).hint!;
    assertEquals([r.hint!.from, r.hint!.to], [right.from, right.to], q);
  }
});

Deno.test("ordinary words stay words: no time phrase, English words, a typo alone", () => {
  for (
    const q of [
      "docker weekly report",
      "week 5 sprint notes",
      "list week", // `list` is English, not `last`
      "pasta recipe",
      "junee", // a month's typo alone: a name as likely
      "redis monthly backups",
    ]
  ) {
    const r = timeHint(q, NOW);
    assertEquals([r.rest, r.hint], [q, undefined], q);
  }
  assertEquals(timeTypos("the weekly report").typos, []);
  assertEquals(timeTypos("weeek").typos.map((t) => t.meant), ["week"]);
});

Deno.test("search, --since and last read a typo of a time word and say how", async () => {
  const ix = await indexSessions([{
    id: "c7c70001-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: new Date(Date.now() - 3600e3).toISOString(),
    turns: [{ user: "the quuxbar weekly report build" }, { say: "quuxbar report done." }],
  }]);
  try {
    const q = await runMain(ix.env, ["quuxbar last a weeek"]);
    assertEquals(q.code, 0, q.err);
    assertStringIncludes(q.err, 'time "last a week", read from "last a weeek"');
    assert(!q.err.includes("'weeek'"), q.err);
    const j = JSON.parse((await runMain(ix.env, ["--json", "quuxbar yesterdya"])).out);
    assertEquals([j.time.words, j.time.typed], ["yesterday", "yesterdya"]);
    const s = await runMain(ix.env, ["--since", "yesterdya", "quuxbar"]);
    assertEquals(s.code, 0, s.err);
    assertStringIncludes(s.err, "--since yesterdya (read as 'yesterday'): since ");
    const l = await runMain(ix.env, ["last", "weeek"]);
    assertEquals(l.code, 0, l.err);
    assertStringIncludes(l.err, "past week (read from 'weeek'): since ");
    // A count after the window, as before it.
    const five = await runMain(ix.env, ["last", "week", "5"]);
    assertEquals(five.code, 0, five.err);
    assertStringIncludes(five.err, "past week: since ");
    // A real query about a weekly report still searches its words.
    const w = await runMain(ix.env, ["quuxbar weekly report"]);
    assertEquals(w.code, 0, w.err);
    assert(!w.err.includes("time "), w.err);
  } finally {
    ix.cleanup();
  }
});
