import { assertEquals } from "../tests/_assert.ts";
import { mergeChunks, mergeTimes } from "./merge.ts";
import type { Session } from "../core/model.ts";
import type { SessionTimes } from "./merge.ts";

const FILE: SessionTimes = { started: 500, updated: 900, timeFromFile: true };

Deno.test("mergeTimes takes the span of two recorded times, and of two file times", () => {
  assertEquals(mergeTimes({ started: 10, updated: 20 }, { started: 5, updated: 15 }), {
    started: 5,
    updated: 20,
    timeFromFile: undefined,
  });
  assertEquals(mergeTimes(FILE, { updated: 950, timeFromFile: true }), {
    started: 500,
    updated: 950,
    timeFromFile: true,
  });
});

Deno.test("mergeTimes lets recorded times replace a file's, and never the reverse", () => {
  assertEquals(mergeTimes(FILE, { started: 100, updated: 200 }), { started: 100, updated: 200 });
  assertEquals(mergeTimes({ started: 100, updated: 200 }, FILE), { started: 100, updated: 200 });
  assertEquals(mergeTimes(FILE, {}), FILE, "a chunk without times changes nothing");
  assertEquals(mergeTimes({}, FILE), FILE);
});

Deno.test("mergeChunks clears the file-time mark when a later chunk has recorded times", () => {
  const chunk = (s: Partial<Session>): Session => ({
    harness: "kimi",
    id: "a",
    path: "/p",
    events: [],
    ...s,
  });
  const [s] = mergeChunks([chunk({ updated: 900, timeFromFile: true }), chunk({ started: 100 })]);
  assertEquals([s.started, s.updated, s.timeFromFile], [100, undefined, undefined]);
});

Deno.test("mergeTimes keeps the chunk's kind of file time: a re-read prompt history becomes shared", () => {
  // An index made before the two kinds held every file time as the own file's (1).
  assertEquals(mergeTimes(FILE, { updated: 950, timeFromFile: "shared" }), {
    started: 500,
    updated: 950,
    timeFromFile: "shared",
  });
  assertEquals(mergeTimes({ updated: 950, timeFromFile: "shared" }, FILE), {
    started: 500,
    updated: 950,
    timeFromFile: true,
  });
  // A shared file's time never moves a recorded one either.
  assertEquals(
    mergeTimes({ started: 100, updated: 200 }, { updated: 950, timeFromFile: "shared" }),
    {
      started: 100,
      updated: 200,
    },
  );
});

Deno.test("mergeChunks keeps a shared file's mark on the merged session", () => {
  const chunk = (s: Partial<Session>): Session => ({
    harness: "kimi",
    id: "prompt-history-a",
    path: "/p",
    events: [],
    ...s,
  });
  const [s] = mergeChunks([chunk({}), chunk({ updated: 900, timeFromFile: "shared" })]);
  assertEquals([s.updated, s.timeFromFile], [900, "shared"]);
});
