/**
 * A session holding every word as typed between its title and its events, found at a wider
 * tier because one word is only in its title, is said to match; and the nearest listed after
 * it are counted as the footer counts them (trial 139 M2).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-forgejo",
    title: "Forgejo crashing in k3s cluster",
    events: [
      ["user", "Forgejo keeps going down in my k3s cluster, find out why"],
      ["assistant", "the logs of the previous pod show what caused the crash: the volume is full"],
    ],
  },
  { id: "s-a", events: [["user", "the forgejo runner keeps its cache on the node"]] },
  { id: "s-b", events: [["user", "forgejo keeps its backups for a week"]] },
  { id: "s-c", events: [["user", "forgejo keeps the old images around"]] },
  { id: "s-d", events: [["user", "forgejo keeps mirrors of the repositories"]] },
  { id: "s-far", events: [["user", "the weather is nice today"]] },
];

const Q = "forgejo keeps crashing";

Deno.test("a session holding the words between its title and its events is said to match", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, Q, { limit: 3 });
    assertEquals(r.results[0]?.id, "s-forgejo");
    assert(r.results[0].titleAndEvents, "the first holds every word as typed, one in its title");
    const said = narration(r);
    assert(!said.includes("no exact match"), said);
    assertStringIncludes(
      said,
      "the first result holds every word as typed, some only in its title",
    );
    // The nearest listed after it counted of those found, as `showing 3 of N` counts them.
    const after = r.nearestAfter ?? 0;
    const found = r.nearestFound ?? 0;
    assertEquals(r.results.length, 3);
    assertEquals(r.total, 1 + found, "the footer's total is the first and the nearest found");
    assert(found > after, `${found} found, ${after} listed`);
    assertStringIncludes(said, `then ${after} of ${found} sessions nearest by relevance`);
    // Listed whole, the count alone.
    const all = search(s, Q, { limit: 20 });
    assertStringIncludes(narration(all), `then ${found} sessions nearest by relevance`);
  }));

Deno.test("a session lacking a word in title and events alike is not said to match as typed", () =>
  withMemIndex([
    {
      id: "s-forgejo",
      title: "Forgejo trouble in k3s",
      events: [
        ["user", "Forgejo keeps going down in my k3s cluster"],
        ["assistant", "the logs show what caused the crash"],
      ],
    },
  ], (s) => {
    const r = search(s, Q);
    assertEquals(r.results[0]?.id, "s-forgejo");
    assert(!r.results[0].titleAndEvents);
    assertStringIncludes(narration(r), "no exact match");
  }));
