/**
 * A prompt typed back with one word spelt wrong still finds the session that typed it
 * (lib/search/prompt.ts): `WHAT GOOD IS PRITNING A REPORT NO ONE CAN SEE` ranked that session
 * 4th behind sessions scattering its words (new-user trial, 2026-12, real stores).
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
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

// Trial 118 F8: the prompt had the typo, not the query (`I've just implemented some changes …`
// where the session typed `implemneted`, in a long prompt): its session was first but the
// result said "nothing matched exactly", exit 1. The prompt is matched, named after the
// spelling it holds, and is a match.
Deno.test("a query typed right of a long prompt typed with a typo matches that prompt", () =>
  withMemIndex([
    ...Array.from({ length: 3 }, (_, i) => scatter(i)),
    {
      id: "s-pod",
      events: [
        [
          "user",
          "Please help me - I've just implemneted some changes that mean I'll need another pod " +
          "(for the backend) to my frontend-only timer app. Here's what the other repo said about it",
        ],
        ["assistant", "A second deployment for the backend, then."],
      ],
    },
    {
      id: "s-words",
      events: [["user", "I implemented the backend changes; do we need another pod?"]],
    },
  ], (s) => {
    const q = "I've just implemented some changes that mean I'll need another pod for the backend";
    const r = search(s, q);
    assertEquals(r.results[0]?.id, "s-pod", r.results.map((x) => x.id).join(" "));
    assertEquals(r.results[0].promptMatch, true);
    assertEquals([r.tier, r.nothingMatched], ["close", false]);
    assertEquals(r.changes, [{ from: "implemented", to: ["implemneted"] }]);
    assert(!r.results.slice(1).some((x) => x.promptMatch));
    assert(
      narration(r).startsWith(
        "matched a prompt typed before by close spellings: implemented → implemneted; the other",
      ),
      narration(r),
    );
    // Two words otherwise is no near prompt.
    const two = search(s, q.replace("another", "anohter").replace("pod", "pods"));
    assert(!two.results.some((x) => x.promptMatch), JSON.stringify(two.results[0]));
  }));
