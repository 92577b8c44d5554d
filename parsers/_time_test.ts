import { assertEquals } from "../tests/_assert.ts";
import { toMillis } from "./_time.ts";

Deno.test("toMillis reads seconds, milliseconds and microseconds by magnitude", () => {
  assertEquals(toMillis(1754000000), 1754000000000);
  assertEquals(toMillis(1754000000123), 1754000000123);
  assertEquals(toMillis(1754000000123456), 1754000000123);
  assertEquals(toMillis("1754000000"), 1754000000000);
  assertEquals(toMillis(1754000000.5), 1754000000500);
});

Deno.test("toMillis reads ISO strings and treats a zoneless time as UTC", () => {
  assertEquals(toMillis("2026-08-01T10:00:00Z"), Date.UTC(2026, 7, 1, 10));
  assertEquals(toMillis("2026-08-01T10:00:00+02:00"), Date.UTC(2026, 7, 1, 8));
  assertEquals(toMillis("2026-08-01 10:00:00"), Date.UTC(2026, 7, 1, 10));
  assertEquals(toMillis("2026-08-01T10:00:00.250"), Date.UTC(2026, 7, 1, 10, 0, 0, 250));
});

Deno.test("toMillis rejects zero, negatives and garbage", () => {
  assertEquals(toMillis(0), undefined);
  assertEquals(toMillis(-5), undefined);
  assertEquals(toMillis("yesterday"), undefined);
  assertEquals(toMillis(null), undefined);
});
