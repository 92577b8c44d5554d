/**
 * Identifiers typed from memory (trial 11): a snake_case name with a typo in one of its
 * words, and one typed joined or in camelCase where the history wrote it with `_`.
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  { id: "s-zorb", events: [["user", "cargo build fails with zorblat_count missing"]] },
  { id: "s-count", events: [["user", "count the rows of the report again"]] },
  { id: "s-bucket", events: [["user", "terraform plan fails for gorgonzola_bucket"]] },
  { id: "s-other", events: [["assistant", "the bucket policy was missing a statement"]] },
];

const ids = (r: ReturnType<typeof search>) => r.results.map((x) => x.id);

Deno.test("a snake_case name with a misspelt word finds the session that spells it right", () =>
  withMemIndex(HISTORY, (s) => {
    const r = search(s, "zorblt_count");
    assertEquals(ids(r)[0], "s-zorb");
    assertEquals(r.changes.map((c) => [c.from, c.to]), [["zorblt count", ["zorblat count"]]]);
    assertEquals(ids(search(s, "gorgonzola_bukcet")), ["s-bucket"]);
    // A word with no close spelling leaves the name unmatched.
    assertEquals(ids(search(s, "qxqxqx_count")), []);
  }));

Deno.test("a name typed joined or in camelCase finds it written apart", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["zorblatcount", "zorblatCount"]) {
      const r = search(s, q);
      assertEquals(ids(r), ["s-zorb"], q);
      assertEquals(
        narration(r).startsWith("no exact match; written apart: zorblatcount → zorblat count"),
        true,
        narration(r),
      );
    }
    assertEquals(ids(search(s, "gorgonzolabucket")), ["s-bucket"]);
  }));

Deno.test("a fragment of six letters or more is found inside a longer word, a shorter one only at its ends", () =>
  withMemIndex([
    { id: "s-frob", events: [["user", "the frobnicatorx module panics on start"]] },
    { id: "s-snark", events: [["user", "restyle the snarkwidget header"]] },
  ], (s) => {
    // Trial 11: interior pieces found nothing though the README promises substrings.
    assertEquals(ids(search(s, "nicato")), ["s-frob"]);
    assertEquals(ids(search(s, "arkwidg")), ["s-snark"]);
    assertEquals(ids(search(s, "rkwid")), []);
    assertEquals(ids(search(s, "snark")), ["s-snark"]);
  }));
