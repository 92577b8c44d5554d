/**
 * Trial 16: `teh redis` read `teh` as a close spelling of `the` and `tech`, and the session
 * with 56 hits for `redis` was cut to 12. A known slip of a stop word is left out as the
 * stop word is, unless the history holds it as written.
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { droppedNote } from "../lib/cli/_search_notes.ts";
import { withMemIndex } from "./_search_fixture.ts";

Deno.test("a slip of a stop word is left out and named", () =>
  withMemIndex([
    { id: "s-redis", events: [["user", "add redis to the cluster"], ["user", "redis is up"]] },
    { id: "s-tech", events: [["user", "the tech debt in redis clients"]] },
  ], (s) => {
    const plain = search(s, "redis");
    const r = search(s, "teh redis");
    assertEquals(r.results.map((x) => x.id), plain.results.map((x) => x.id));
    assertEquals([r.tier, r.changes], ["exact", []]);
    assertEquals(r.dropped, ["teh"]);
    assertEquals(droppedNote(r), "left out as a slip of a common word: teh");
    // Alone it is the query: left to the tiers as before.
    assertEquals(search(s, "teh").dropped, []);
  }));

Deno.test("a slip of a stop word the history holds as written is searched", () =>
  withMemIndex([
    { id: "s-teh", events: [["user", "the teh tag in the redis docs"]] },
    { id: "s-redis", events: [["user", "redis only"]] },
  ], (s) => {
    const r = search(s, "teh redis");
    assertEquals(r.results.map((x) => x.id), ["s-teh"]);
    assertEquals(r.dropped, []);
  }));
