import { assertEquals } from "../tests/_assert.ts";
import {
  datedFirst,
  inSince,
  isFileDated,
  newerFirst,
  recordedTime,
  shownTime,
  timeRank,
} from "./session_time.ts";

const dated = { started: 100, updated: 200, time_from_file: 0 };
const copied = { started: 900, updated: 900, time_from_file: 1 };
const hit = { started: 900, updated: 900, timeFromFile: true };

Deno.test("isFileDated reads a row's time_from_file and a hit's timeFromFile", () => {
  assertEquals([isFileDated(dated), isFileDated(copied), isFileDated(hit)], [false, true, true]);
  assertEquals(isFileDated({ started: 1 }), false);
});

Deno.test("recordedTime is null for a file-dated session, the shown time stays the file's", () => {
  assertEquals([recordedTime(dated), recordedTime(copied)], [200, null]);
  assertEquals(shownTime(copied), 900);
  assertEquals(recordedTime({ started: 5, updated: null }), 5);
});

Deno.test("datedFirst puts recorded times first even when a file's time is newer", () => {
  const none = { started: null, updated: null };
  const older = { started: 50, updated: 60 };
  const rows = [none, copied, older, dated];
  assertEquals(rows.sort(datedFirst), [dated, older, copied, none]);
});

Deno.test("inSince leaves a file-dated session out of every window", () => {
  assertEquals([inSince(dated, 150), inSince(dated, 250), inSince(copied, 0)], [
    true,
    false,
    false,
  ]);
});

Deno.test("timeRank puts every recorded time above every file time, none lowest", () => {
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
