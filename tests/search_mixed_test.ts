/**
 * Each query word resolved on its own: a misspelt word beside one cut short
 * (`flexbx recurrin`) finds the session holding both, and not two sessions
 * each holding one.
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  {
    id: "s-recurring",
    events: [
      ["user", "find the recurring charges in my budget export"],
      ["assistant", "I grouped the payees by month."],
      ["user", "the table layout breaks, use flexbox for the rows"],
    ],
  },
  {
    id: "s-crew",
    events: [
      ["user", "set up crewai agents for the research notes"],
      ["assistant", "Done. Next the bootstrap script installs the dependencies."],
    ],
  },
  {
    id: "s-greek",
    events: [
      ["user", "the sigma of the noise model is too high"],
      ["assistant", "Lowering it and the kappa score improves."],
    ],
  },
  {
    id: "s-layout",
    events: [["user", "center the header with flexbox"], ["assistant", "Used justify-content."]],
  },
  {
    id: "s-boot",
    events: [["user", "the bootstrap of the cluster hangs"], ["assistant", "A stale lock."]],
  },
];

const withHistory = (fn: (s: MemStore) => void) => withMemIndex(HISTORY, fn);

Deno.test("a misspelt word beside a word cut short finds the session holding both", () =>
  withHistory((s) => {
    for (
      const [q, id] of [
        ["flexbx recurrin", "s-recurring"],
        ["crewia bootstr", "s-crew"],
        ["sigm kapa", "s-greek"],
      ]
    ) {
      const r = search(s, q);
      assertEquals(r.results[0]?.id, id, `${q}: ${r.tier}`);
      assertEquals(r.nothingMatched, false, q);
      assertEquals(r.tier, "close", q);
    }
    const r = search(s, "flexbx recurrin");
    assert(r.changes.some((c) => c.from === "recurrin" && c.to.includes("recurring")));
    assert(r.changes.some((c) => c.from === "flexbx" && c.to.includes("flexbox")));
  }));

Deno.test("a misspelt word and a cut one held by different sessions match nothing", () =>
  withHistory((s) => {
    // flexbox (s-layout, s-recurring) and bootstrap (s-crew, s-boot) never share a session.
    const r = search(s, "flexbx bootstr");
    assertEquals(r.results.map((x) => x.id), []);
    assertEquals(r.nothingMatched, true);
  }));
