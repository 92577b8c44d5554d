import { assertEquals } from "../../tests/_assert.ts";
import { quoteShown } from "./common.ts";

// Trial 81 F12: `"cluster host" forgejo` was shown `"cluster host" forgejo"`.
Deno.test("quoteShown never leaves a quote unbalanced", () => {
  assertEquals(quoteShown("redis cluster"), '"redis cluster"');
  assertEquals(quoteShown('"redis cluster"'), '"redis cluster"');
  assertEquals(quoteShown('"cluster host" forgejo'), `'"cluster host" forgejo'`);
  assertEquals(quoteShown('"a" "b"'), `'"a" "b"'`);
  assertEquals(quoteShown("x".repeat(100), 10), `"${"x".repeat(10)}…"`);
});
