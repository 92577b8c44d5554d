/**
 * A quoted phrase beside words no session holds with it is ranked by relevance among the
 * sessions holding the phrase contiguously (trial 125 F4: a prompt typed back with its quoted
 * message and one word changed, `pick` for `select`, matched nothing at all).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { withMemIndex } from "./_search_fixture.ts";
import type { MemSession } from "./_search_fixture.ts";

const SESSIONS: MemSession[] = [
  {
    id: "s-typed",
    events: [
      [
        "user",
        'When I select a budget from the list it shows "No recurring charges found. Try analyzing your budget!"',
      ],
      ["assistant", "The analyzer never ran for that budget; I call it on selection."],
    ],
  },
  {
    // The words, not the phrase: never a match of the query.
    id: "s-apart",
    events: [
      ["user", "pick a budget and list its recurring charges"],
      ["assistant", "Found 3 charges; nothing else was found in the budget."],
    ],
  },
  ...Array.from({ length: 4 }, (_, i): MemSession => ({
    id: `s-filler-${i}`,
    events: [["user", `make the test of module ${i} faster`], ["assistant", "Done."]],
  })),
];

Deno.test("a quoted phrase beside a changed word finds the session holding the phrase (trial 125 F4)", () =>
  withMemIndex(SESSIONS, (s) => {
    const short = search(s, 'pick "No recurring charges found"');
    assertEquals(short.tier, "relevance");
    assertEquals(short.results.map((r) => r.id), ["s-typed"]);
    const typed = search(
      s,
      'When I pick a budget from the list it shows "No recurring charges found. Try analyzing your budget!"',
    );
    assertEquals(typed.results.map((r) => r.id), ["s-typed"]);
    // Without the rule: nothing at all (what it changes).
    const off = search(s, 'pick "No recurring charges found"', { ablate: ["phraseRelevance"] });
    assertEquals(off.results.length, 0);
    // The phrase held nowhere: still nothing, never a session lacking it.
    assertEquals(search(s, 'pick "charges recurring budget"').results.length, 0);
  }));
