/** A resumed session's copied events are one result with the session they copy (lib/search/results.ts). */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const AT = Date.UTC(2026, 10, 20, 10);
const FIRST: Array<["user" | "assistant", string]> = [
  ["user", "The production build is broken, can you fix it?"],
  ["assistant", "The build is fixed: the price is parsed with Number now."],
];
const HISTORY: MemSession[] = [
  { id: "original", at: AT, events: FIRST },
  // Resumed a day later: the same records first (same times and texts), then new work.
  {
    id: "resumed",
    at: AT,
    updated: AT + 86400e3,
    events: [...FIRST, ["user", "now push it"], ["assistant", "Pushed to origin main."]],
  },
  // Another session saying the same words at other times: no copy.
  {
    id: "other",
    at: AT - 5 * 86400e3,
    events: [["user", "The production build is broken again, fix it"], ["assistant", "Fixed."]],
  },
];

Deno.test("a session whose matched events are all copies of another's is listed with it, once", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "production build broken", { now: AT + 2 * 86400e3 });
    const ids = r.results.map((x) => x.id);
    assertEquals(ids.length, 2, ids.join(" "));
    assertEquals(ids.includes("other"), true);
    const kept = r.results.find((x) => x.id === "original" || x.id === "resumed")!;
    assertEquals(kept.copies, [kept.id === "original" ? "resumed" : "original"]);
    assertEquals(r.total, 2);
    // Its own new work matched: listed on its own.
    const own = search(s, "push origin main", { now: AT + 2 * 86400e3 });
    assertEquals(own.results.map((x) => [x.id, x.copies ?? []]), [["resumed", []]]);
  }));

Deno.test("a fork ranked above the session it copied gives way to it, which takes its place", () =>
  withMemIndex([
    {
      id: "long",
      at: AT,
      events: [...FIRST, ["user", "the production build is broken again after the merge"]],
    },
    // Forked after the first two records; its title (lifted) names the query.
    {
      id: "fork",
      at: AT,
      title: "production build broken",
      updated: AT + 86400e3,
      events: [...FIRST, ["user", "never mind, write the changelog"]],
    },
  ], (s) => {
    const r = search(s, "production build broken", { now: AT + 2 * 86400e3 });
    assertEquals(r.results.map((x) => [x.id, x.copies ?? []]), [["long", ["fork"]]]);
  }));
