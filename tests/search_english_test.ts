/**
 * New-user trials, 2026-12: real English words the history lacks were "corrected" into
 * look-alikes it holds (`winter` → `linter`, `cash` → `crash`, `pocket` → `socket`), and
 * answered with those sessions, exit 0. A common English word is the word meant: nothing
 * matched. Typos are still corrected, `sever` (the usual typo of `server`) among them.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { isEnglish } from "../lib/search/english.ts";
import { withMemIndex } from "./_search_fixture.ts";

Deno.test("a common English word the history lacks is not read as a look-alike it holds", () =>
  withMemIndex([
    { id: "s-lint", events: [["user", "the linter fails on the socket module"]] },
    { id: "s-crash", events: [["user", "the app would crash on start"], ["assistant", "Fixed."]] },
    { id: "s-server", events: [["user", "restart the server"]] },
    { id: "s-create", events: [["user", "create the release branch"]] },
  ], (s) => {
    // Trial 90 F9: `crate` (a Rust word) was read as `create`.
    for (const q of ["winter", "cash", "pocket", "winter socket module", "crate"]) {
      const r = search(s, q);
      assert(!r.changes.some((c) => c.from === q.split(" ")[0]), `${q}: ${JSON.stringify(r)}`);
      assertEquals(r.tier === "close", false, q);
    }
    assertEquals(search(s, "cash").results, []);
    // Misspellings are still corrected: a non-word, and `sever` for `server`.
    assertEquals(search(s, "lintr").changes[0]?.to[0], "linter");
    assertEquals(search(s, "sever").changes[0]?.to[0], "server");
  }));

Deno.test("the English word list holds common words and no misspellings", () => {
  for (const w of ["winter", "cash", "pocket", "father", "bought"]) assert(isEnglish(w), w);
  for (const w of ["lintr", "kubernets", "recieve", "sever", "teh", "a"]) {
    assert(!isEnglish(w), w);
  }
});
