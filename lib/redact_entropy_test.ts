import { assertEquals } from "../tests/_assert.ts";
import { entropySpans, longRuns } from "./redact_entropy.ts";

/** Every maximal run of 20+ base64 characters, read one character at a time (what {@link longRuns} skips). */
function plainRuns(text: string): number[] {
  const out: number[] = [];
  const isRun = (c: string) => /[A-Za-z0-9+/=_-]/.test(c);
  let i = 0;
  while (i < text.length) {
    while (i < text.length && !isRun(text[i])) i++;
    const from = i;
    while (i < text.length && isRun(text[i])) i++;
    if (i - from >= 20) out.push(from, i);
  }
  return out;
}

/** A deterministic pseudo-random generator (tests must not be flaky). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

Deno.test("longRuns finds every run of 20+ a scan of every character finds, in texts of every mix of runs and words", () => {
  const rand = rng(7);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-";
  const run = () => {
    let s = "";
    const n = Math.floor(rand() * 45);
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  const pieces = [" ", "\n", "key = ", '"token": "', "\\n", "é", "the quick fox", ".", "日本"];
  let runs = 0;
  for (let t = 0; t < 5000; t++) {
    let text = "";
    const n = Math.floor(rand() * 10);
    for (let k = 0; k < n; k++) {
      text += rand() < 0.5 ? run() : pieces[Math.floor(rand() * pieces.length)];
    }
    const want = plainRuns(text);
    assertEquals(longRuns(text), want, JSON.stringify(text));
    runs += want.length / 2;
  }
  assertEquals(runs > 1000, true, `${runs} runs`);
});

Deno.test("entropySpans: a value at the very start, the very end, and one of exactly 20 characters", () => {
  const v = "Q7mZx9Kp2LwR4tYb8NcV";
  assertEquals(entropySpans(`${v}A1b2C3d4`), [{ start: 0, end: 28 }]);
  assertEquals(entropySpans(`key = ${v}`), [{ start: 6, end: 26 }]);
  assertEquals(entropySpans(`some words then api_key: ${v}\nmore`), [{ start: 25, end: 45 }]);
  assertEquals(entropySpans(`key = ${v.slice(1)}`), []);
});
