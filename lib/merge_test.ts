import { assertEquals } from "../tests/_assert.ts";
import { mergeChunks, mergeTimes } from "./merge.ts";
import type { Session } from "../core/model.ts";

const FILE = { started: 500, updated: 900, timeFromFile: true };

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
