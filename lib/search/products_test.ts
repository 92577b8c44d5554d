import { PRODUCTS, SPELLINGS } from "./products.ts";

/** Words too general to tell one product from another (the rules in products.ts). */
const GENERIC = new Set([
  "tool",
  "software",
  "app",
  "application",
  "service",
  "platform",
  "system",
  "solution",
  "thing",
  "open",
  "source",
  "free",
  "popular",
  "modern",
  "fast",
  "simple",
]);

const STOP = new Set([
  "a",
  "an",
  "the",
  "and",
  "or",
  "of",
  "in",
  "on",
  "at",
  "to",
  "for",
  "with",
  "by",
  "from",
  "is",
  "are",
  "as",
  "it",
  "this",
  "that",
]);

const TOKEN = /^[a-z0-9]+$/;

function fail(problems: string[]): void {
  if (problems.length > 0) throw new Error(problems.join("\n"));
}

Deno.test("products: every key and word is an index token", () => {
  const problems: string[] = [];
  for (const [key, words] of Object.entries(PRODUCTS)) {
    if (!TOKEN.test(key)) problems.push(`key ${JSON.stringify(key)}`);
    for (const word of words) {
      if (!TOKEN.test(word)) problems.push(`${key}: word ${JSON.stringify(word)}`);
    }
  }
  fail(problems);
});

Deno.test("products: 3 to 8 distinct words, none generic, none a stop word, none the key", () => {
  const problems: string[] = [];
  for (const [key, words] of Object.entries(PRODUCTS)) {
    if (words.length < 3 || words.length > 8) problems.push(`${key}: ${words.length} words`);
    if (new Set(words).size !== words.length) problems.push(`${key}: a word twice`);
    for (const word of words) {
      if (GENERIC.has(word)) problems.push(`${key}: generic word ${word}`);
      if (STOP.has(word)) problems.push(`${key}: stop word ${word}`);
      if (word === key) problems.push(`${key}: lists itself`);
    }
  }
  fail(problems);
});

Deno.test("products: no key written twice in the source", async () => {
  // An object literal keeps the last of two equal keys silently, so read the text.
  const text = await Deno.readTextFile(new URL("./products.ts", import.meta.url));
  const keys = [...text.matchAll(/^ {2}"?([a-z0-9]+)"?: \[/gm)].map((m) => m[1]);
  const seen = new Set<string>();
  const twice = keys.filter((key) => seen.has(key) || !seen.add(key));
  fail(twice.map((key) => `key ${key} written twice`));
  if (keys.length !== Object.keys(PRODUCTS).length) {
    throw new Error(
      `read ${keys.length} keys in the source, the table has ${Object.keys(PRODUCTS).length}`,
    );
  }
});

Deno.test("products: at least 600 entries", () => {
  const count = Object.keys(PRODUCTS).length;
  if (count < 600) throw new Error(`only ${count} products`);
});

Deno.test("products: each spelling of one tool is a key with the same words", () => {
  const problems: string[] = [];
  for (const group of SPELLINGS) {
    for (const name of group) {
      if (!PRODUCTS[name]) problems.push(`${name} is no key`);
      else if ([...PRODUCTS[name]].sort().join() !== [...PRODUCTS[group[0]]].sort().join()) {
        problems.push(`${name}: not the words of ${group[0]}`);
      }
    }
  }
  fail(problems);
});
