/**
 * A prompt typed back with one word spelt wrong still finds the session that typed it
 * (lib/search/prompt.ts): `WHAT GOOD IS PRITNING A REPORT NO ONE CAN SEE` ranked that session
 * 4th behind sessions scattering its words (new-user trial, 2026-12, real stores).
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const scatter = (i: number): MemSession => ({
  id: `s-scatter-${i}`,
  events: [
    ["user", `what is the report for ${i}`],
    ["assistant", "No one reads it; it is printed weekly."],
    ["user", "good, can you see who is printing it"],
    ["assistant", "One printer; see the log."],
  ],
});

const HISTORY: MemSession[] = [
  ...Array.from({ length: 4 }, (_, i) => scatter(i)),
  {
    id: "s-summary",
    events: [["summary", "We will analyze the possible errors of the report in the next turn."]],
  },
  { id: "s-three", events: [["user", "analyze possible errors"], ["assistant", "Two found."]] },
  {
    id: "s-typed",
    events: [
      ["user", "the charts are blank in the export"],
      ["assistant", "The page prints before the charts render."],
      ["user", "what good is printing a report no one can see"],
      ["assistant", "Now it waits for the canvas."],
    ],
  },
];

Deno.test("a prompt typed back with one word spelt wrong ranks its session first, named a close spelling", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "WHAT GOOD IS PRITNING A REPORT NO ONE CAN SEE");
    assertEquals(r.results[0]?.id, "s-typed", r.results.map((x) => x.id).join(" "));
    assertEquals(r.results[0].promptMatch, true);
    assertEquals(r.tier, "close");
    assertEquals(r.changes, [{ from: "pritning", to: ["printing"] }]);
    // Three words (trial 15: `analyze posible errors` ranked a summary above the prompt).
    const three = search(s, "analyze posible errors");
    assertEquals([three.results[0]?.id, three.results[0]?.promptMatch], ["s-three", true]);
    // Two unknown words are no typo of one prompt: no prompt match claimed.
    const two = search(s, "what good is pritning a reprot no one can see");
    assert(!two.results.some((x) => x.promptMatch), JSON.stringify(two.results[0]));
    // A word the history never wrote that is no close spelling of what the turn holds there.
    const far = search(s, "what good is zzzzzzzz a report no one can see");
    assert(!far.results.some((x) => x.promptMatch), JSON.stringify(far.results[0]));
  }));
