/**
 * The word-forms tier reads a past form as the compound its verb makes with a
 * particle (`timed` -> `timeout`), and the session-level BM25 gives such a
 * compound the IDF of what the history holds, not of its phrasal verb's
 * common words (lib/search/compounds.ts, lib/search/sessionrank.ts).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { particleCompounds } from "../lib/search/compounds.ts";
import { TermStats, wordForms } from "../lib/search/expand.ts";
import { sessionDf } from "../lib/search/sessionrank.ts";
import type { EventKind } from "../core/model.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const chatter = (n: number, i: number): [EventKind, string][] =>
  Array.from({ length: n }, (_, k) => [
    k % 2 ? "assistant" : "user",
    `check the logs again and print them out, run ${i}.${k} took some time and logged`,
  ]);

const HISTORY: MemSession[] = [
  {
    id: "s-timeout",
    events: [["user", "the payment gateway returns a timeout under load"], [
      "assistant",
      "raised the upstream timeouts",
    ]],
  },
  {
    id: "s-checkout",
    events: [["user", "the checkout page shows a blank cart"], [
      "assistant",
      "fixed the cart login",
    ]],
  },
  ...Array.from({ length: 6 }, (_, i): MemSession => ({
    id: `s-chatter-${i}`,
    events: chatter(6, i),
  })),
];

Deno.test("particleCompounds reads a past form as its verb's compounds with a particle (timed -> timeout)", () =>
  withMemIndex(HISTORY, (s) => {
    const stats = new TermStats(s);
    assertEquals(particleCompounds(stats, "timed", wordForms, 12).sort(), ["timeout", "timeouts"]);
    // Not the -ing form (an activity: timing), nor the bare verb, nor another inflection.
    assertEquals(particleCompounds(stats, "timing", wordForms, 12), []);
    assertEquals(particleCompounds(stats, "time", wordForms, 12), []);
    assertEquals(particleCompounds(stats, "times", wordForms, 12), []);
    assertEquals(particleCompounds(stats, "checked", wordForms, 12), ["checkout"]);
    // A past form the history writes is read as itself: `logged` is no `login` here.
    assertEquals(particleCompounds(stats, "logged", wordForms, 12), []);
  }));

Deno.test("search finds a timeout when the query says timed (a phrasal verb's particle left out)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "timed gateway");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results[0]?.id, "s-timeout", r.results.map((x) => x.id).join(" "));
    assertEquals(r.changes.some((c) => c.from === "timed" && c.to.includes("timeout")), true);
  }));

Deno.test("sessionDf counts a compound's sessions, not its phrasal verb's common words (checkout, check … out)", () =>
  withMemIndex(HISTORY, (s) => {
    const stats = new TermStats(s);
    // Six sessions say `check` and `out` in every turn, never as "check out"; one says `checkout`.
    assertEquals(sessionDf(stats, [["checkout"], ["check", "out"]]), 1);
    assertEquals(sessionDf(stats, [["checkout"]]), 1);
  }));
