/**
 * A fresh-user trial: a session's exact title as the query, its words spread over the events
 * (no single event holds them all), said "no single event holds every word" while `--json`
 * had `title_match: true`. A first result found by its title is said to match the title.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/cmd_search.ts";
import { withMemIndex } from "./_search_fixture.ts";

Deno.test("an exact title whose words no single event holds is narrated as a title match", () =>
  withMemIndex([
    {
      id: "s-titled",
      title: "Backfill Loading State Bug: Feature Flag Tracking Fix",
      events: [
        ["user", "the backfill loading state is stuck"],
        ["assistant", "A bug in the feature flag tracking."],
        ["assistant", "The fix is in."],
      ],
    },
    {
      id: "s-other",
      events: [
        ["user", "backfill the loading state, then the feature flag"],
        ["assistant", "tracking bug fixed; the fix landed"],
      ],
    },
  ], (s) => {
    const r = search(s, "Backfill Loading State Bug: Feature Flag Tracking Fix");
    assertEquals(r.results[0]?.id, "s-titled", r.tier);
    assertEquals(r.results[0]?.titleMatch, true);
    const said = narration(r);
    assertStringIncludes(said, "matched the title", `${r.tier}: ${said}`);
  }));

Deno.test("sessions listed after a title where nothing else matched are said to be only the nearest", () =>
  withMemIndex([
    {
      id: "s-titled",
      title: "Backfill Loading State Bug",
      events: [["user", "the sync spinner never stops"], ["assistant", "Fixed the flag."]],
    },
    { id: "s-loading", events: [["user", "the loading screen flickers"]] },
    { id: "s-state", events: [["user", "keep the state in the url"], ["assistant", "a bug"]] },
  ], (s) => {
    // Trial 16: the others, holding one or two of the words, were said to "hold the words
    // between their events".
    const r = search(s, "backfill loading state bug");
    assertEquals(r.results[0]?.id, "s-titled");
    assertEquals(r.tier, "exact");
    assertEquals(r.nearestFollow, 2);
    assertEquals(
      narration(r),
      "matched the title; the other 2 are only the nearest by relevance, holding some of the words",
    );
    // A title found where sessions hold every word: nothing is said to be only the nearest.
    const held = search(s, "loading");
    assertEquals(held.nearestFollow, undefined);
  }));
