/** The session-level BM25's length normalisation in the relevance tier (lib/search/sessionrank.ts). */
import { assertEquals } from "../../tests/_assert.ts";
import { search } from "../search.ts";
import type { EventKind } from "../../core/model.ts";
import { type MemSession, withMemIndex } from "../../tests/_search_fixture.ts";

const filler = (n: number): [EventKind, string][] =>
  Array.from(
    { length: n },
    (_, i) => [i % 2 ? "tool_result" : "tool_call", `run ${i} of the build`],
  );

const HISTORY: MemSession[] = [
  {
    // A long session about the problem, in the words a session writes.
    id: "s-long",
    events: [
      ["user", "look at the build queue"],
      ["assistant", "The image resizer will retry without a limit."],
      ...filler(10),
      ["assistant", "Looked at the queue."],
      ...filler(10),
      ["assistant", "Capped the count."],
    ],
  },
  {
    // A short one naming one of the question's words as typed.
    id: "s-short",
    events: [
      ["user", "tidy the gallery"],
      ["assistant", "Moved the picture step of the gallery page."],
      ["assistant", "The picture step is moved."],
    ],
  },
  ...Array.from({ length: 6 }, (_, i): MemSession => ({
    id: `s-other-${i}`,
    events: [["user", `add dark mode toggle number ${i}`], ...filler(6)],
  })),
];

Deno.test("in the relevance tier a long session about the problem outranks a short one naming a word", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "picture scaling step trying endlessly");
    assertEquals(r.tier, "relevance");
    assertEquals(
      r.results.map((x) => x.id)[0],
      "s-long",
      r.results.map((x) => `${x.id} ${x.score.toFixed(2)}`).join(" "),
    );
  }));
