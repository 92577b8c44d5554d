/**
 * The relevance tier reads a compound (the query's word or a related word: `logout`) as the
 * phrasal verb it names, in an inflected form ("logs users out"), at RELATED.phrasal of its
 * weight (lib/search/compounds.ts `phrasalReadings`); the head rerank counts it only as a
 * phrase (lib/search/fielded.ts `phraseIn`).
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { TermStats } from "../lib/search/expand.ts";
import { inflected, phrasalReadings } from "../lib/search/compounds.ts";
import { headShare, phraseIn } from "../lib/search/fielded.ts";
import { GAP } from "../lib/query.ts";
import { withAblation } from "../lib/search/rank.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-logout",
    events: [
      ["user", "the billing portal logs them out at random"],
      ["assistant", "The cookie lost its domain after the proxy change; fixed the cookie."],
    ],
  },
  {
    // The same component, another symptom: only the phrasal verb tells them apart.
    id: "s-blank",
    events: [
      ["user", "the billing portal renders a blank page"],
      ["assistant", "A script of the billing portal failed to load behind the proxy; bundled it."],
    ],
  },
  {
    id: "s-setup",
    events: [
      ["user", "the installer is setting up the database twice"],
      ["assistant", "Made the migration step idempotent."],
    ],
  },
  {
    id: "s-other",
    events: [["user", "rename the settings page title"], ["assistant", "Renamed it."]],
  },
];

Deno.test("inflected spells a regular verb's -s, -ed and -ing forms", () => {
  assertEquals(
    new Set(inflected("log")),
    new Set(["logs", "loged", "loging", "logged", "logging"]),
  );
  assertEquals(new Set(inflected("time")), new Set(["times", "timed", "timing"]));
  assertEquals(new Set(inflected("check")), new Set(["checks", "checked", "checking"]));
  assertEquals(inflected("push")[0], "pushes");
});

Deno.test("phrasalReadings: an inflected verb the history holds, one word or none, the particle", () =>
  withMemIndex(HISTORY, (s) => {
    const stats = new TermStats(s);
    assertEquals(phrasalReadings(stats, "logout"), [["logs", GAP, "out"]]);
    assertEquals(phrasalReadings(stats, "setup"), [["setting", GAP, "up"]]);
    // The bare verb is no reading of its own; a word that is no compound has none.
    assertEquals(phrasalReadings(stats, "portal"), []);
  }));

Deno.test("a question reaches the session that writes its related compound as a phrasal verb", () =>
  withMemIndex(HISTORY, (s) => {
    const q = "why does the billing portal get people signed off";
    const r = search(s, q);
    assertEquals(r.tier, "relevance");
    assertEquals(r.results[0]?.id, "s-logout", r.results.map((x) => x.id).join(" "));
    const off = withAblation(["phrasal"], () => search(s, q));
    assert(off.results[0]?.id !== "s-logout", off.results.map((x) => x.id).join(" "));
  }));

Deno.test("phraseIn finds a phrase in order, with one word or none at a gap", () => {
  const runs = [{ toks: ["it", "logs", "users", "out"], w: 1 }, {
    toks: ["out", "of", "logs"],
    w: 0.5,
  }];
  assertEquals(phraseIn(runs, ["logs", GAP, "out"]), 1);
  assertEquals(phraseIn(runs.slice(1), ["logs", GAP, "out"]), 0);
  assertEquals(phraseIn([{ toks: ["logs", "out"], w: 0.5 }], ["logs", GAP, "out"]), 0.5);
  assertEquals(phraseIn([{ toks: ["logs", "a", "b", "out"], w: 1 }], ["logs", GAP, "out"]), 0);
});

Deno.test("the head rerank counts an alternative of several words only as a phrase", () => {
  const head = new Map([["out", 1], ["of", 1], ["logs", 1]]);
  const alts = [[["logs", GAP, "out"]], [["of"]]];
  const w = () => 1;
  // Without the head's runs, its words anywhere count (the old reading).
  assert(headShare(head, alts, w, [1, 1]) > 1);
  assertEquals(
    headShare(head, alts, w, [1, 1], [], undefined, [{ toks: ["out", "of", "logs"], w: 1 }]),
    1,
  );
});
