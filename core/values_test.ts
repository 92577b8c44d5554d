import { assertEquals } from "../tests/_assert.ts";
import { arr, isObj, num, obj, str } from "./values.ts";

Deno.test("isObj and obj accept plain objects only (not null, arrays or scalars)", () => {
  assertEquals([{}, { a: 1 }, null, [], "x", 1, undefined].map(isObj), [
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ]);
  assertEquals(obj([1]), undefined);
});

Deno.test("str, num and arr read loosely typed values", () => {
  assertEquals([str("a"), str(""), str(1)], ["a", undefined, undefined]);
  assertEquals([num(2), num(" 3.5 "), num("x"), num(Infinity)], [2, 3.5, undefined, undefined]);
  assertEquals([arr([1]), arr("x")], [[1], []]);
});
