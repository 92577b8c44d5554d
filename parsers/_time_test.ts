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

Deno.test("toMillis reads YYYY-MM-DDTHH:MM:SS.mmmZ as Date.parse does, for every field in and out of range", () => {
  let state = 11;
  const rand = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const pad = (v: number, n: number) => String(v).padStart(n, "0");
  const cases = [
    "2024-02-29T23:59:59.999Z",
    "2023-02-29T12:00:00.000Z",
    "2024-04-31T00:00:00.000Z",
    "0050-06-01T00:00:00.000Z",
    "1970-01-01T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "2024-13-01T00:00:00.000Z",
    "2024-00-10T00:00:00.000Z",
    "2024-01-10T24:00:00.000Z",
    "2024-01-10T10:60:00.000Z",
    "2024-01-10T10:00:60.000Z",
    "2024-01-1xT10:00:00.000Z",
    "2024-01-10T10:00:00.000z",
    " 2024-01-10T10:00:00.000Z",
  ];
  for (let k = 0; k < 3000; k++) {
    cases.push(
      `${pad(1900 + rand(200), 4)}-${pad(rand(14), 2)}-${pad(rand(33), 2)}T${pad(rand(26), 2)}:${
        pad(rand(62), 2)
      }:${pad(rand(62), 2)}.${pad(rand(1000), 3)}Z`,
    );
  }
  for (const s of cases) {
    const t = Date.parse(s.trim());
    assertEquals(toMillis(s), Number.isFinite(t) && t > 0 ? t : undefined, s);
  }
});
