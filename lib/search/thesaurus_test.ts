import { assert, assertEquals } from "../../tests/_assert.ts";
import { THESAURUS } from "./thesaurus.ts";
import { tokens } from "./tokenize.ts";
import { STOP_WORDS } from "../query.ts";
import { inflections, relatedTo } from "./related.ts";

Deno.test("thesaurus holds several hundred groups of index tokens, no stop words", () => {
  assert(THESAURUS.length >= 300, `only ${THESAURUS.length} groups`);
  const seen = new Set<string>();
  for (const g of THESAURUS) {
    const where = JSON.stringify(g);
    assert(g.length >= 2, `a group of one word relates nothing: ${where}`);
    assertEquals(new Set(g).size, g.length, `a word twice in ${where}`);
    for (const w of g) {
      // A word must be one index token as FTS5 writes it, or it can never match.
      assertEquals(tokens(w), [w], `not one lower-case index token: "${w}" in ${where}`);
      assert(!STOP_WORDS.has(w), `a stop word is never searched: "${w}" in ${where}`);
    }
    const key = [...g].sort().join(" ");
    assert(!seen.has(key), `the same group twice: ${where}`);
    seen.add(key);
  }
});

Deno.test("relatedTo reads inflections, not Porter stems that join unrelated words", () => {
  assert(relatedTo("basket").includes("cart"));
  assert(relatedTo("billed").includes("invoice"), "billed -> bill -> invoice");
  assert(inflections("responses").includes("response"));
  // Porter makes `responses` and `responsive` one stem; they are not related.
  assert(!relatedTo("responses").includes("mobile"));
});
