/**
 * A fresh-user trial: `servr` alone (or beside a word the history lacks) found nothing while
 * `flask servr` worked, and `sever` offered `several` (a word start) over `server`, one letter
 * away and far more used.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  ...[1, 2, 3, 4].map((i): MemSession => ({
    id: `s-server${i}`,
    events: [["user", `the flask server ${i} returns a 500`], [
      "assistant",
      i === 1 ? "Had to deploy it again." : "Restarted the server.",
    ]],
  })),
  {
    id: "s-several",
    events: [["user", "several tests are flaky"], ["assistant", "Pinned the seed."]],
  },
];

Deno.test("a lone short word missing one letter is corrected to the word the history uses most", () =>
  withMemIndex(HISTORY, (s) => {
    for (const q of ["servr", "servr deployed", "sever", "flask servr"]) {
      const r = search(s, q);
      assertEquals(r.tier, "close", `${q}: ${r.tier} ${JSON.stringify(r.changes)}`);
      assert(r.results[0]?.id.startsWith("s-server"), `${q}: ${r.results[0]?.id}`);
      assertEquals(r.changes[0]?.to[0], "server", q);
    }
    assertEquals(search(s, "servr deployed").results.map((x) => x.id), ["s-server1"]);
  }));
