/**
 * In the `relevance` tier (a question in other words) tool output weighs less than in the
 * literal tiers: a session naming the words only in a command's output is rarely the one that
 * was about them (lib/search/rank.ts `OUTPUT_RELEVANCE`).
 */
import { assert, assertEquals } from "./_assert.ts";
import { relevance } from "../lib/search/relevance.ts";
import { TermStats } from "../lib/search/expand.ts";
import { eventWeight, OUTPUT_RELEVANCE, withAblation } from "../lib/search/rank.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-said",
    events: [["user", "have a look at this"], [
      "assistant",
      "the image resizer ignores the retry limit",
    ]],
  },
  {
    id: "s-output",
    events: [["user", "have a look at this"], [
      "tool_result",
      "the image resizer ignores the retry limit",
    ]],
  },
  ...["mailer", "importer", "scheduler"].map((c): MemSession => ({
    id: `s-${c}`,
    events: [["user", `rename the ${c} settings page`], ["assistant", `Renamed the ${c}.`]],
  })),
];

Deno.test("tool output weighs less in the relevance tier than in the literal tiers", () => {
  assertEquals(eventWeight("tool_result", 0, true), OUTPUT_RELEVANCE);
  assert(OUTPUT_RELEVANCE < eventWeight("tool_result", 0));
  // Other kinds of event weigh as they do elsewhere.
  for (const k of ["user", "assistant", "summary", "tool_call"]) {
    assertEquals(eventWeight(k, 0, true), eventWeight(k, 0), k);
  }
  assertEquals(
    withAblation(["relevanceOutput"], () => eventWeight("tool_result", 0, true)),
    eventWeight("tool_result", 0),
  );
});

Deno.test("a session naming the words in tool output ranks below one saying them, by that weight", () =>
  withMemIndex(HISTORY, (s) => {
    const score = (ablate: boolean) => {
      const run = () => relevance(new TermStats(s), ["resizer", "retry"], {}, (id) => id);
      const r = ablate ? withAblation(["relevanceOutput"], run) : run();
      const row = (id: string) =>
        (s.db.prepare("SELECT id FROM sessions WHERE native_id = ?").get(id) as { id: number }).id;
      const of = (id: string) => r.scores.get(row(id))!.score;
      return of("s-output") / of("s-said");
    };
    assertEquals(
      score(false).toFixed(3),
      (OUTPUT_RELEVANCE / eventWeight("assistant", 0)).toFixed(3),
    );
    assertEquals(
      score(true).toFixed(3),
      (eventWeight("tool_result", 0) / eventWeight("assistant", 0)).toFixed(3),
    );
  }));
