/**
 * A related word two neighbouring query words share names their phrase (`bad gateway` -> `502`,
 * `printable document` -> `pdf`): it stands for both words (lib/search/relevance.ts,
 * lib/search/fielded.ts).
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { relevance } from "../lib/search/relevance.ts";
import { TermStats } from "../lib/search/expand.ts";
import { headShare, SHARED_HEAD } from "../lib/search/fielded.ts";
import { withAblation } from "../lib/search/rank.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-502",
    events: [
      ["user", "the search indexer returns 502 errors since the deploy"],
      ["assistant", "The root cause was a stale cache key; I versioned it."],
    ],
  },
  {
    // Same component; `wrong` is what `bad` relates to alone, `proxy` what `gateway` does.
    id: "s-wrong",
    events: [
      [
        "user",
        "the search indexer returns wrong totals since the deploy. It sits behind the proxy.",
      ],
      ["assistant", "The root cause was a rounding step; I removed it."],
    ],
  },
  ...["mailer", "importer", "scheduler"].map((c): MemSession => ({
    id: `s-${c}`,
    events: [["user", `rename the ${c} settings page`], ["assistant", `Renamed the ${c}.`]],
  })),
];

Deno.test("a related word two neighbouring query words share keeps its weight for both", () =>
  withMemIndex(HISTORY, (s) => {
    const stats = new TermStats(s);
    const weightOf = (r: ReturnType<typeof relevance>, word: string, alt: string) => {
      const ti = r.words.indexOf(word);
      const i = r.alts[ti].findIndex((a) => a[0] === alt);
      return i < 0 ? 0 : r.weights[ti][i];
    };
    const words = ["crawler", "bad", "gateway"];
    const r = relevance(stats, words, {}, (id) => id);
    assert(r.phraseWords.has("502"), [...r.phraseWords].join(" "));
    assert(weightOf(r, "gateway", "502") > 0);
    assertEquals(weightOf(r, "gateway", "502"), weightOf(r, "bad", "502"));
    // Without the rule the second word takes it at a share, as for words apart.
    const off = withAblation(["phrase"], () => relevance(stats, words, {}, (id) => id));
    assertEquals(off.phraseWords.size, 0);
    assert(weightOf(off, "gateway", "502") < weightOf(off, "bad", "502"));
    // Words apart in the query name no phrase.
    const apart = relevance(stats, ["bad", "crawler", "gateway"], {}, (id) => id);
    assertEquals(apart.phraseWords.has("502"), false);
  }));

Deno.test("a question naming a phrase in other words finds the session that wrote its one word", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "full-text crawler: bad gateway responses");
    assertEquals(r.tier, "relevance");
    assertEquals(r.results[0]?.id, "s-502", r.results.map((x) => x.id).join(" "));
    // Without the rule `wrong` and `proxy` are two words of the question, `502` one and a half.
    const off = search(s, "full-text crawler: bad gateway responses", { ablate: ["phrase"] });
    assertEquals(off.results[0]?.id, "s-wrong", off.results.map((x) => x.id).join(" "));
  }));

Deno.test("a head word naming a phrase of two query words counts for both", () => {
  const head = new Map([["502", 1]]);
  const alts = [[["502"]], [["502"]]];
  const w = () => 0.5;
  const one = Math.sqrt(0.5);
  assertEquals(
    headShare(head, alts, w, [1, 1], [], new Set(["502"])).toFixed(6),
    (2 * one).toFixed(6),
  );
  assertEquals(headShare(head, alts, w, [1, 1]).toFixed(6), (one + SHARED_HEAD * one).toFixed(6));
});
