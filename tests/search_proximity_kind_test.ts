/**
 * The session-level BM25's proximity (one event holding several query words,
 * lib/search/sessionrank.ts) counts at the weight of the event that holds
 * them: a person's prompt stating the words together says more than a tool's
 * output that holds them in a stack trace's path.
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import type { EventKind } from "../core/model.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const filler = (n: number, i: number): [EventKind, string][] =>
  Array.from({ length: n }, (_, k) => [k % 2 ? "assistant" : "user", `tidy step ${i}.${k}`]);

const HISTORY: MemSession[] = [
  {
    // The session about it: the prompt states two of the words, the third comes later.
    id: "s-stated",
    events: [
      ["user", "the checkout service hits a timeout under load"],
      ["assistant", "the database pool looks involved"],
      ...filler(4, 0),
    ],
  },
  {
    // Two of the words together only in a traceback's path; the third in passing.
    id: "s-trace",
    events: [
      ["user", "run the tests"],
      ["tool_result", "OperationalError: database is locked at src/checkout/batch.ts:12"],
      ["user", "the timeout is unrelated"],
      ["assistant", "the database is locked again"],
      ...filler(2, 1),
    ],
  },
  ...Array.from({ length: 6 }, (_, i): MemSession => ({
    id: `s-other-${i}`,
    events: [["user", `a timeout in job ${i}`], ...filler(4, i + 2)],
  })),
];

Deno.test("search ranks words a prompt states together above the same words together in a tool output", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "database checkout timeout");
    assertEquals(r.tier, "session");
    assertEquals(
      r.results.map((x) => x.id).slice(0, 2),
      ["s-stated", "s-trace"],
      r.results.map((x) => `${x.id} ${x.score.toFixed(3)}`).join(" "),
    );
  }));
