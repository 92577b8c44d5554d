import { assert, assertEquals } from "../tests/_assert.ts";
import { alternatives, mayHoldSecret } from "./redact_prefilter.ts";
import { PREFILTER } from "./redact_rules.ts";
import { PLANTED } from "../tests/_secrets.ts";

/** One text each alternative of PREFILTER matches: first option of a group, first of a class. */
function example(alt: string): string {
  return alt.replace(/\(\?:([^|)]*)[^)]*\)/g, "$1").replace(/\[(.)[^\]]*\]/g, "$1")
    .replace(/\\(.)/g, "$1");
}

const EXAMPLES = alternatives(PREFILTER.source).map(example);

/** A seeded generator (mulberry32): the same texts every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("alternatives splits a source at its top-level bars only", () => {
  assertEquals(alternatives(String.raw`a(?:b|c)d|[|x]y|e\|f|g`), [
    "a(?:b|c)d",
    "[|x]y",
    String.raw`e\|f`,
    "g",
  ]);
});

Deno.test("mayHoldSecret finds every spelling PREFILTER lists, alone, inside text and at its ends", () => {
  for (const ex of EXAMPLES) {
    assert(PREFILTER.test(ex), `example '${ex}' does not match PREFILTER`);
    for (const t of [ex, `see ${ex} here`, `→é ${ex}`, `${ex}\n`, `x${ex}`, `密${ex}П`]) {
      assertEquals(mayHoldSecret(t), true, JSON.stringify(t));
    }
  }
});

Deno.test("mayHoldSecret answers as PREFILTER on planted secrets and on mixed fragments", () => {
  for (const p of PLANTED) assertEquals(mayHoldSecret(p.text), PREFILTER.test(p.text), p.name);
  // Fragments of the spellings (each cut in two), near-misses and non-ASCII characters,
  // joined at random: the pair loop must say yes exactly where the expression matches.
  const pieces = [
    ...EXAMPLES,
    ...EXAMPLES.flatMap((e) => [e.slice(0, 1), e.slice(1), e.slice(0, -1), e.slice(-2)]),
    ...["a", " ", "\n", "\\n", "é", "→", "П", "密", "-", "_", "K", "p", "s", "\u{1f600}", "="],
  ];
  const r = rng(18);
  let yes = 0;
  for (let n = 0; n < 20000; n++) {
    let t = "";
    const k = 1 + Math.floor(r() * 6);
    for (let j = 0; j < k; j++) t += pieces[Math.floor(r() * pieces.length)];
    const want = PREFILTER.test(t);
    if (want) yes++;
    assertEquals(mayHoldSecret(t), want, JSON.stringify(t));
  }
  // Both answers were tried many times.
  assert(yes > 2000 && yes < 18000, `${yes} of 20000 matched`);
});

Deno.test("mayHoldSecret says no for texts with none of the spellings", () => {
  for (const t of ["", "a", "plain words, nothing else", "é→密", "x".repeat(5000)]) {
    assertEquals(mayHoldSecret(t), false, t);
  }
});
