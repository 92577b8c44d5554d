import { assert, assertEquals } from "../../tests/_assert.ts";
import type { IO } from "../../core/runtime.ts";
import { jsonDone, jsonScanner, objField, parseEvent, readEvent, STDIN_MAX, str } from "./input.ts";

Deno.test("jsonDone is true once a complete object arrived, strings and escapes respected", () => {
  assert(!jsonDone(""));
  assert(!jsonDone("  {"));
  assert(!jsonDone('{"a":"}'));
  assert(!jsonDone('{"a":"\\"}"'));
  assert(jsonDone('{"a":"\\"}"}'));
  assert(jsonDone('{"a":{"b":[1,2]}}\n'));
  assert(jsonDone('{"a":1} trailing'));
});

Deno.test("jsonDone gives up at once on text that cannot become an object", () => {
  assert(jsonDone("garbage"));
  assert(jsonDone("  42"));
  assert(jsonDone("\u0000\u0001"));
});

Deno.test("parseEvent accepts one object, tolerates trailing bytes, refuses the rest", () => {
  assertEquals(parseEvent('{"a":1}'), { a: 1 });
  assertEquals(parseEvent('\ufeff {"a":"}"} junk {'), { a: "}" });
  assertEquals(parseEvent("[1,2]"), undefined);
  assertEquals(parseEvent("null"), undefined);
  assertEquals(parseEvent('{"a":'), undefined);
  assertEquals(parseEvent("not json"), undefined);
  assertEquals(parseEvent(""), undefined);
});

Deno.test("readEvent asks stdin to stop at the end of the JSON value", async () => {
  let asked: ((t: string) => boolean) | undefined;
  const io = {
    readStdin(_max: number, _ms: number, done?: (t: string) => boolean) {
      asked = done;
      return Promise.resolve('{"session_id":"s"}');
    },
  } as unknown as IO;
  assertEquals(await readEvent(io), { event: { session_id: "s" } });
  assert(asked !== undefined && asked('{"x":1}'));
});

Deno.test("readEvent says why what came on stdin was no event, never quoting it", async () => {
  const given = (text: string) =>
    readEvent({ readStdin: () => Promise.resolve(text) } as unknown as IO);
  // Trial 55: an event still arriving when reading stopped was dropped without a trace.
  const cut = await given('{"session_id":"s","prompt":"the secret hunter2 and');
  assertEquals(cut.event, undefined);
  assert(
    cut.unread?.startsWith("stdin ended, or paused over 200 ms, before the event was complete ("),
    cut.unread,
  );
  assert(!cut.unread?.includes("hunter2"), cut.unread);
  assertEquals((await given("not json at all")).unread, "stdin held no JSON object (15 bytes)");
  // Nothing at all is no give-up: a harness may run a hook with empty stdin.
  assertEquals(await given(""), { event: undefined });
  // But stdin held open with nothing written for the whole wait is (trial 60).
  const waited = await readEvent({
    readStdin: (_max: number, ms: number) =>
      new Promise<string>((r) => setTimeout(() => r(""), ms)),
  } as unknown as IO);
  assertEquals(waited.unread, "no event arrived on stdin within 1500 ms");
  // Begun, and still not complete when the wait ran out.
  const slow = await readEvent({
    readStdin: (_max: number, ms: number) =>
      new Promise<string>((r) => setTimeout(() => r('{"session_id":'), ms)),
  } as unknown as IO);
  assert(slow.unread?.startsWith("the event on stdin was not complete when reading stopped"));
  assertEquals(await given("  \n"), { event: undefined });
});

Deno.test("readEvent says an event cut at the size cap is too large, and never reads it", async () => {
  // Trial 109 F7: the 16 MiB cap of docs/hooks.md; a piece of an event is not an event.
  const cut = ('{"session_id":"s","prompt":"' + "x".repeat(STDIN_MAX)).slice(0, STDIN_MAX);
  const got = await readEvent({ readStdin: () => Promise.resolve(cut) } as unknown as IO);
  assertEquals(got, { unread: "the event on stdin is larger than the 16 MiB deja reads" });
});

Deno.test("str and objField read fields; a JSON string holding an object is decoded", () => {
  assertEquals(str({ a: "x", b: "", c: 1 }, "a"), "x");
  assertEquals(str({ b: "" }, "b"), undefined);
  assertEquals(str({ c: 1 }, "c"), undefined);
  assertEquals(objField({ t: { command: "ls" } }, "t"), { command: "ls" });
  assertEquals(objField({ t: '{"command":"ls"}' }, "t"), { command: "ls" });
  assertEquals(objField({ t: "[1]" }, "t"), undefined);
  assertEquals(objField({ t: "nope" }, "t"), undefined);
});

Deno.test("jsonScanner is given the event in pieces, an escape split between two pieces", () => {
  // Trial 39: scanned from the start at every read, a 5.7 MB event outlasted the wait. Trial
  // 109 F7: given the text so far, each scan copied it whole (a 14 MB event unread at load 10).
  const whole = '{"a":"x\\"}y","b":[1,{"c":2}]}';
  for (let cut = 0; cut <= whole.length; cut++) {
    const done = jsonScanner();
    assertEquals(done(whole.slice(0, cut)), cut === whole.length, `cut at ${cut}`);
    if (cut < whole.length) assert(done(whole.slice(cut)), `the rest after a cut at ${cut}`);
  }
  const one = jsonScanner();
  assert(![...whole.slice(0, -1)].some((c) => one(c)), "one character at a time");
  assert(one("}"));
});
