/**
 * A close spelling reads the word forms of the word spelt right, no more (trial 125 F8:
 * `creaton` read `creation`, `creator`, and missed a session that says "create"): the
 * stemmer keeps `creation` whole, so neither `creation` typed nor its close spelling reads
 * `create`, as `station` is no `state`.
 */
import { assertEquals } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";

const session = (n: number, user: string): SessionSpec => ({
  id: `c8e0000${n}-1111-4111-8111-111111111111`,
  cwd: "/w/notes",
  start: `2026-11-0${n}T10:00:00Z`,
  turns: [{ user }, { say: "Done." }],
});

Deno.test("a close spelling reads the forms the word spelt right has, as that word typed does", async () => {
  const ix = await indexSessions([
    session(1, "Analyze this codebase and create/update the agents file"),
    session(2, "the creation of the onboarding docs for agents"),
    session(3, "the connection pool was connected twice"),
  ]);
  try {
    const read = async (q: string) => {
      const r = JSON.parse((await runMain(ix.env, ["search", q, "--json"])).out);
      return {
        to: r.changes.flatMap((c: { to: string[] }) => c.to).sort(),
        ids: r.results.map((x: { short_id: string }) => x.short_id).sort(),
      };
    };
    const typo = await read("creaton");
    assertEquals(typo.to, ["creation"]);
    assertEquals(typo.ids, (await read("creation")).ids);
    assertEquals(typo.ids, ["c8e00002"]);
    // A correction's forms are read where the stemmer joins them.
    assertEquals((await read("conection")).to, ["connected", "connection"]);
  } finally {
    ix.cleanup();
  }
});
