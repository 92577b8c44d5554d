import { assertEquals } from "../../tests/_assert.ts";
import { tokens, VocabCollector } from "./tokenize.ts";
import { distance } from "./vocab.ts";

Deno.test("VocabCollector keeps the index tokens of a text once, without numbers or one letter", () => {
  const c = new VocabCollector();
  c.add("Fix opencode's DB_PASSWORD bug 42 in src/app.ts, a x fix");
  assertEquals(c.take(), ["fix", "opencode", "db", "password", "bug", "in", "src", "app", "ts"]);
  c.add("fix the Café naïve résumé");
  assertEquals(c.take(), ["the", "cafe", "naive", "resume"]);
  assertEquals(tokens("Café NAÏVE"), ["cafe", "naive"]);
});

Deno.test("VocabCollector leaves out the tokens its known collector holds, of ASCII text and other", () => {
  const known = new VocabCollector();
  known.mark(["fix", "cafe"]);
  assertEquals(known.size, 2);
  const c = new VocabCollector();
  c.known = known;
  c.add("Fix the bug");
  assertEquals(c.take(), ["the", "bug"]);
  c.add("naïve Café");
  assertEquals(c.take(), ["naive"]);
  // Still counted as seen here: a later text does not list them either.
  c.known = undefined;
  c.add("fix cafe the");
  assertEquals(c.take(), []);
  known.clear();
  assertEquals(known.size, 0);
});

Deno.test("distance counts insertions, deletions, substitutions and swaps, and stops past the limit", () => {
  assertEquals(distance("kubernetes", "kubrenetes", 2), 1);
  assertEquals(distance("timeout", "timout", 1), 1);
  assertEquals(distance("cache", "catch", 2), 2);
  assertEquals(distance("abc", "xyzzy", 1), 2);
});
