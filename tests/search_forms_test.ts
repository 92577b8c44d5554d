/** Word forms at the stemmed tier: phrasal verbs of a compound, `-er` nouns apart from their verb. */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-gateway",
    events: [["user", "the gateway times out under load"], ["assistant", "raised the pool size"]],
  },
  {
    id: "s-worker",
    events: [["user", "the worker never shut down cleanly"], [
      "assistant",
      "added a signal handler",
    ]],
  },
  {
    id: "s-limiter",
    events: [["user", "the rate limiter drops requests"], ["assistant", "raised its burst"]],
  },
  {
    id: "s-limit",
    events: [["user", "we limit the requests per user"], ["assistant", "the cap is 100"]],
  },
];

Deno.test("search finds a compound written as its phrasal verb (timeout -> times out)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "gateway timeout");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results.map((x) => x.id), ["s-gateway"]);
    assertEquals(search(s, "worker shutdown").results.map((x) => x.id), ["s-worker"]);
  }));

Deno.test("search keeps an -er noun apart from its verb at the stemmed tier (limiters -> limiter, not limit)", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "limiters requests");
    assertEquals(r.tier, "stemmed");
    assertEquals(r.results.map((x) => x.id), ["s-limiter"]);
  }));
