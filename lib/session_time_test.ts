import { assertEquals } from "../tests/_assert.ts";
import {
  datedFirst,
  datedTime,
  fileTimeColumn,
  fileTimeOf,
  hasFileTime,
  inSince,
  isUndated,
  newerFirst,
  shownTime,
  timeRank,
} from "./session_time.ts";

const dated = { started: 100, updated: 200, time_from_file: 0 };
/** A session's own file (a Kimi context.jsonl) written at 900: its last write. */
const own = { started: 900, updated: 900, time_from_file: 1 };
/** A prompt history's file written at 950: only its newest prompt's time. */
const shared = { started: 950, updated: 950, time_from_file: 2 };
const ownHit = { started: 900, updated: 900, timeFromFile: true as const };
const sharedHit = { started: 950, updated: 950, timeFromFile: "shared" as const };

Deno.test("hasFileTime marks both kinds of file time; isUndated only the shared file's", () => {
  const all = [dated, own, shared, ownHit, sharedHit];
  assertEquals(all.map(hasFileTime), [false, true, true, true, true]);
  assertEquals(all.map(isUndated), [false, false, true, false, true]);
  assertEquals([hasFileTime({ started: 1 }), isUndated({ started: 1 })], [false, false]);
});

Deno.test("the column keeps 1 for an own file, 2 for a shared one, 0 for recorded times", () => {
  assertEquals([fileTimeColumn(undefined), fileTimeColumn(true), fileTimeColumn("shared")], [
    0,
    1,
    2,
  ]);
  assertEquals([fileTimeOf(0), fileTimeOf(1), fileTimeOf(2), fileTimeOf(null)], [
    undefined,
    true,
    "shared",
    undefined,
  ]);
});

Deno.test("datedTime is an own file's time, null for an undated session; the shown time stays", () => {
  assertEquals([datedTime(dated), datedTime(own), datedTime(shared)], [200, 900, null]);
  assertEquals([datedTime(ownHit), datedTime(sharedHit)], [900, null]);
  assertEquals(shownTime(shared), 950);
  assertEquals(datedTime({ started: 5, updated: null }), 5);
});

Deno.test("datedFirst orders an own file's time among recorded ones, a shared file's after", () => {
  const none = { started: null, updated: null };
  const older = { started: 50, updated: 60 };
  const rows = [none, shared, older, own, dated];
  // The own file (900) is the newest dated; the shared file (950) is newer still, but undated.
  assertEquals(rows.sort(datedFirst), [own, dated, older, shared, none]);
});

Deno.test("inSince holds an own file's time like a recorded one, never a shared file's", () => {
  assertEquals([inSince(dated, 150), inSince(dated, 250)], [true, false]);
  assertEquals([inSince(own, 850), inSince(own, 901), inSince(ownHit, 850)], [true, false, true]);
  assertEquals([inSince(shared, 0), inSince(sharedHit, 0)], [false, false]);
});

Deno.test("timeRank puts every dated time above every undated one, none lowest", () => {
  const keys = [
    timeRank(900, true),
    timeRank(null, false),
    timeRank(100, false),
    timeRank(50, true),
    timeRank(200, false),
  ];
  assertEquals(keys.sort(newerFirst), [
    timeRank(200, false),
    timeRank(100, false),
    timeRank(900, true),
    timeRank(50, true),
    -Infinity,
  ]);
  assertEquals(newerFirst(-Infinity, -Infinity), 0);
});
