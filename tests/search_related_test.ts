/** The relevance tier's related words: a tier below the words as typed, never a hit for a topic the history lacks. */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { relevance } from "../lib/search/relevance.ts";
import { TermStats } from "../lib/search/expand.ts";
import { type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-basket",
    events: [
      ["user", "the basket forgets its items when the page reloads"],
      ["assistant", "The root cause was the items being kept in memory only; I persisted them."],
    ],
  },
  {
    id: "s-cart",
    events: [
      ["user", "the cart forgets its items after checkout"],
      ["assistant", "Fixed by clearing the cart only once the order is saved."],
    ],
  },
  {
    id: "s-mailer",
    events: [
      ["user", "the smtp relay rejects our outgoing newsletters"],
      ["assistant", "The relay wanted TLS on port 587; switched the mailer config."],
    ],
  },
  {
    id: "s-other",
    events: [["user", "rename the settings page title"], ["assistant", "Renamed it."]],
  },
];

const withHistory = (fn: (s: MemStore) => void) => withMemIndex(HISTORY, fn);

Deno.test("a question in other words reaches the session through related words (trolley -> cart)", () =>
  withHistory((s) => {
    // No session writes `shopping` or `vanish`: nothing matches as typed.
    const r = search(s, "why does the shopping trolley vanish items");
    assertEquals(r.tier, "relevance");
    assertEquals(r.nothingMatched, true);
    const ids = r.results.map((x) => x.id);
    assert(ids.includes("s-cart"), ids.join(" "));
  }));

Deno.test("a session holding the words as typed ranks above one holding only related words", () =>
  withHistory((s) => {
    // `basket` is literal in s-basket; s-cart holds only its related word `cart`.
    const r = search(s, "why does the basket vanish items on reload page");
    const ids = r.results.map((x) => x.id);
    assertEquals(ids[0], "s-basket", ids.join(" "));
    assert(ids.indexOf("s-cart") === -1 || ids.indexOf("s-cart") > 0);
  }));

Deno.test("related words reach a session that holds none of the query's words (email -> smtp, mailer)", () =>
  withHistory((s) => {
    const r = search(s, "email sender bounced");
    assertEquals(r.tier, "relevance");
    assertEquals(r.results[0]?.id, "s-mailer", r.results.map((x) => x.id).join(" "));
  }));

Deno.test("a topic the history never touched stays empty though the thesaurus relates its words", () =>
  withHistory((s) => {
    for (
      const q of ["kubernetes pod evicted oomkilled", "how did we fix the helm chart rollback?"]
    ) {
      const r = search(s, q);
      assertEquals(r.nothingMatched, true, q);
      assertEquals(r.results.map((x) => x.id), [], q);
    }
  }));

Deno.test("a phrasal verb's particle brings no related words (`signed off` is not `off` = wrong)", () =>
  withMemIndex([
    {
      id: "s-totals",
      events: [
        ["user", "the checkout summary shows wrong totals"],
        ["assistant", "The discount was taken off twice, so the totals were wrong; fixed it."],
      ],
    },
    { id: "s-other", events: [["user", "rename the settings page title"], ["assistant", "Done."]] },
  ], (s) => {
    const r = relevance(new TermStats(s), ["purchase", "signed", "off"], {}, (id) => id);
    const off = r.words.indexOf("off");
    assert(off >= 0, r.words.join(" "));
    assertEquals(r.alts[off], [["off"]]);
  }));

Deno.test("a derived word no session writes borrows the relations of its base (`archival` -> `archive` -> `backup`)", () =>
  withMemIndex([
    {
      id: "s-backup",
      events: [
        ["user", "the nightly backup of the orders database keeps failing"],
        ["assistant", "The root cause was a full volume; I rotated the old dumps."],
      ],
    },
    {
      id: "s-export",
      events: [
        ["user", "the csv export keeps failing for large reports"],
        ["assistant", "Fixed by streaming the rows instead of building the file in memory."],
      ],
    },
    { id: "s-other", events: [["user", "rename the settings page title"], ["assistant", "Done."]] },
  ], (s) => {
    // No session writes `archival`, nor any of its own related words (`retention`).
    const q = "archival task failing";
    assertEquals(search(s, q).results[0]?.id, "s-backup", q);
    const off = search(s, q, { ablate: ["derived"] }).results.map((x) => x.id);
    assert(off[0] !== "s-backup", `without the rule: ${off.join(" ")}`);
  }));
