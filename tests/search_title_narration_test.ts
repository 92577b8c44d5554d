/**
 * A fresh-user trial: a session's exact title as the query, its words spread over the events
 * (no single event holds them all), said "no single event holds every word" while `--json`
 * had `title_match: true`. A first result found by its title is said to match the title.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration, outsideWindow } from "../lib/cli/search_narration.ts";
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

Deno.test("time words that no listed session meets say so; one that meets them does not", () =>
  withMemIndex([
    { id: "s-sep", at: Date.UTC(2025, 8, 8, 12), events: [["user", "add redis to the cluster"]] },
    { id: "s-oct", at: Date.UTC(2025, 9, 20, 12), events: [["user", "redis eviction policy"]] },
  ], (s) => {
    const now = Date.UTC(2026, 11, 3, 12);
    // Trial 16: `redis in august 2025` listed September's sessions without a word.
    const aug = search(s, "redis in august 2025", { now });
    assertEquals(aug.results.map((r) => r.id)[0], "s-sep");
    assertStringIncludes(
      narration(aug),
      '(time "in august 2025": sessions in it count 3× in the ranking; no session listed falls in it)',
    );
    // Some in, some out: how many, and each one out is marked in the text (trial 22).
    const sep = search(s, "redis in september 2025", { now });
    assertStringIncludes(
      narration(sep),
      '(time "in september 2025": sessions in it count 3× in the ranking; 1 of 2 listed falls in it)',
    );
    assertEquals(sep.results.map((r) => [r.id, outsideWindow(sep, r)]), [
      ["s-sep", false],
      ["s-oct", true],
    ]);
    const since = search(s, "redis since october 2025", { now });
    assertEquals(since.results.map((r) => r.id)[0], "s-oct");
    assertStringIncludes(
      narration(since),
      '(time "since october 2025": sessions in it count 3× in the ranking; 1 of 2 listed falls in it)',
    );
    // All in: nothing more said.
    const year = search(s, "redis in 2025", { now });
    assertStringIncludes(
      narration(year),
      '(time "in 2025": sessions in it count 3× in the ranking)',
    );
    // A month without its year names the year read (trial 23: `redis in september` read
    // September 2026 and said only that no session fell in it, beside one of 2025).
    const bare = search(s, "redis in september", { now });
    assertStringIncludes(
      narration(bare),
      '(time "in september", September 2026: sessions in it count 3× in the ranking; no session listed falls in it; ' +
        "1 falls in September 2025)",
    );
    // A day is named as a day, not its month (trial 57).
    const day = search(s, "redis on september 8", { now });
    assertStringIncludes(
      narration(day),
      '(time "on september 8", September 8, 2026: sessions in it count 3× in the ranking; no session ' +
        "listed falls in it; 1 falls on September 8, 2025)",
    );
    // A window run on to now has no month of its own: none of a year before stands in for it
    // (trial 78: `redis since january` said "4 fall in January 2025" of September's sessions).
    const from = search(s, "redis since january", { now });
    assertStringIncludes(
      narration(from),
      '(time "since january", from January 2026 on: sessions in it count 3× in the ranking; no ' +
        "session listed falls in it)",
    );
    // A window with its end is no such window (trial 81: "from August 2026 on").
    const span = search(s, "redis from august to october", { now });
    assertStringIncludes(
      narration(span),
      '(time "from august to october", August to October 2026:',
    );
  }));

Deno.test("a title outside the window of the query's time words is not lifted above a session inside it", () =>
  withMemIndex([
    {
      id: "s-titled-aug",
      title: "Short greeting",
      at: Date.UTC(2025, 7, 8, 12),
      events: [["user", "hi"]],
    },
    { id: "s-mar", at: Date.UTC(2026, 2, 5, 12), events: [["user", "a greeting for the team"]] },
  ], (s) => {
    const now = Date.UTC(2026, 11, 3, 12);
    // Trial 16: the August sessions titled "…greeting" came before the one of March 2026.
    const since = search(s, "greeting since september 2025", { now });
    assertEquals(since.results.map((r) => r.id), ["s-mar", "s-titled-aug"]);
    // Inside its window, or with no time words, the title is first as before.
    assertEquals(search(s, "greeting", { now }).results[0].id, "s-titled-aug");
    assertEquals(search(s, "greeting in august 2025", { now }).results[0].id, "s-titled-aug");
    // A window no session falls in demotes none (trial 81: `greeting on august 8` read August
    // 8, 2026 and put a March mention above the titles of August 8, 2025).
    assertEquals(search(s, "greeting on august 8", { now }).results[0].id, "s-titled-aug");
  }));

Deno.test("a session inside the window of the time words ranks above one outside that says the word more", () =>
  withMemIndex([
    {
      id: "s-sep",
      at: Date.UTC(2025, 8, 2, 12),
      events: [
        ["user", "kubectl apply fails; kubectl logs show it"],
        ["assistant", "kubectl rollout restart fixed it"],
      ],
    },
    { id: "s-aug", at: Date.UTC(2025, 7, 8, 12), events: [["user", "kubectl context is wrong"]] },
  ], (s) => {
    const now = Date.UTC(2026, 11, 3, 12);
    // The time words put the session of their window first (trial 16: `kubectl in august 2025`).
    assertEquals(search(s, "kubectl in august 2025", { now }).results[0].id, "s-aug");
    assertEquals(search(s, "kubectl", { now }).results[0].id, "s-sep");
  }));

Deno.test("a title matched inside a longer word says so", () =>
  // Trial 45: `Backfil` said "matched the title" of a title holding only `Backfill`.
  withMemIndex([
    {
      id: "s-titled",
      title: "Backfill Loading State Bug",
      events: [["user", "isSyncingBackfill never resets"], ["assistant", "Fixed the flag."]],
    },
    { id: "s-other", events: [["user", "the loading screen flickers"]] },
  ], (s) => {
    const r = search(s, "Backfil");
    assertEquals(r.tier, "substring");
    assertEquals(r.results.map((x) => [x.id, x.titleMatch]), [["s-titled", true]]);
    assertStringIncludes(
      narration(r),
      "matched the title, inside longer words: backfil → ",
    );
  }));

Deno.test("a session found by its subagent's title says so, and names that title", () =>
  // Trial 78 F7: `Explore Helm releases` said "matched the title" of a session titled "Add
  // Redis": the title that matched was its subagent's.
  withMemIndex([
    { id: "s-parent", title: "Add Redis", events: [["user", "add redis to the cluster"]] },
    {
      id: "s-child",
      parent: "s-parent",
      title: "Explore Helm releases and Redis in codebase",
      events: [["user", "list the charts in the repo"]],
    },
    { id: "s-helm", title: "Helm upgrade", events: [["user", "upgrade the helm releases"]] },
    { id: "s-own", title: "Explore the Helm releases", events: [["user", "which helm releases"]] },
  ], (s) => {
    const r = search(s, "explore helm releases");
    const hit = r.results.find((x) => x.id === "s-parent");
    assertEquals([hit?.titleMatch, hit?.subagentTitle], [
      true,
      "Explore Helm releases and Redis in codebase",
    ]);
    const own = r.results.find((x) => x.id === "s-own");
    assertEquals([own?.titleMatch, own?.subagentTitle], [true, undefined]);
    const alone = search(s, "explore helm releases redis");
    assertStringIncludes(
      narration(alone),
      "matched the title of its subagent “Explore Helm releases and Redis in codebase”",
    );
  }));
