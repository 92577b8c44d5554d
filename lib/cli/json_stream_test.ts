import { assert, assertEquals } from "../../tests/_assert.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { printJson, printJsonStreaming } from "./common.ts";

/** What printJson writes of `value`, and what printJsonStreaming writes streaming `key`. */
function both(value: Record<string, unknown>, key: string, freshness?: object) {
  const whole = captureIO(testEnv("/nonexistent-home"), false);
  const streamed = captureIO(testEnv("/nonexistent-home"), false);
  whole.io.freshness = streamed.io.freshness = freshness;
  const writes: string[] = [];
  const out = streamed.io.out;
  streamed.io.out = (t) => {
    writes.push(t);
    out(t);
  };
  printJson(whole.io, value);
  const items = value[key] as unknown[];
  printJsonStreaming(streamed.io, { ...value, [key]: null }, { [key]: items.values() });
  return { whole: whole.out(), streamed: streamed.out(), writes: writes.length };
}

Deno.test("printJsonStreaming writes what printJson writes, its array a few items at a time", () => {
  const many = Array.from({ length: 1000 }, (_, i) => ({
    seq: i,
    text: i % 3 ? `line ${i}\nnext "quoted" \u0085 \u202e` : "",
    nested: { list: [1, [2, {}], []], none: null, gone: undefined },
    fn: undefined,
  }));
  const cases: Array<[Record<string, unknown>, string, object?]> = [
    [{ a: 1, events: many, files: [{ path: "x" }], after: { deep: { er: [1, 2] } } }, "events"],
    [{ a: "x", events: [], skip: undefined, b: [] }, "events", { state: "fresh", age: 3 }],
    [{ events: [1, undefined, "two", null, () => 1], tail: 0 }, "events"],
    [{ first: { x: 1 }, events: many.slice(0, 3) }, "events", { state: "stale" }],
    // A member named as an Object method is a member like any other.
    [{ constructor: "x", toString: 2, events: [1] }, "events"],
  ];
  for (const [value, key, fresh] of cases) {
    const r = both(value, key, fresh);
    assertEquals(r.streamed, r.whole);
    JSON.parse(r.streamed);
  }
  // A thousand items are written in pieces, not as one text.
  assert(both(cases[0][0], "events").writes > 3);
});

Deno.test("printJsonStreaming streams several arrays in their places", () => {
  const value = { a: 1, commands: [{ c: "ls" }, { c: "pwd" }], mid: "x", files: [], z: [3] };
  const whole = captureIO(testEnv("/nonexistent-home"), false);
  const streamed = captureIO(testEnv("/nonexistent-home"), false);
  printJson(whole.io, value);
  printJsonStreaming(streamed.io, value, {
    commands: value.commands.values(),
    files: value.files.values(),
  });
  assertEquals(streamed.out(), whole.out());
});
