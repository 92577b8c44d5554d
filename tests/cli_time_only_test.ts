/**
 * A search of time words alone (`deja in august 2025`, `deja what did I do yesterday`) lists
 * the sessions of that window as `deja last` does (trial 16: the words were searched as
 * text, and `in august 2025` found nothing); the words stay searchable quoted.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";

const spec = (id: string, start: string, user: string) => ({
  id,
  cwd: "/w/app",
  start,
  turns: [{ user }, { say: "Done." }],
});
const AUG = "aaaa1111-1111-4222-8333-444455556666";
const SEP = "bbbb1111-1111-4222-8333-444455556666";

Deno.test("time words alone list the sessions of their window; quoted, they are searched", async () => {
  const ix = await indexSessions([
    spec(AUG, "2025-08-08T12:00:00Z", "wire the billing webhook"),
    spec(SEP, "2025-09-20T12:00:00Z", "the august 2025 report is late"),
  ]);
  try {
    const r = await runMain(ix.env, ["in", "august", "2025", "--json"]);
    assertEquals(r.code, 0, r.err);
    assertEquals(JSON.parse(r.out).sessions.map((s: { id: string }) => s.id), [AUG]);
    assertStringIncludes(r.err, `deja: "in august 2025" names a time: its sessions`);
    assertStringIncludes(r.err, `to search the words: deja search '"august 2025"'`);
    // The hint's search, pasted, finds the words (trial 18b: `"in march"` found nothing).
    const quoted = await runMain(ix.env, ["search", '"august 2025"', "--json"]);
    assertEquals(JSON.parse(quoted.out).results.map((s: { id: string }) => s.id), [SEP]);
    // `deja search …` is a search whatever its words, text and JSON alike (trial 59: a script
    // reading `results` got `deja last`'s document; trial 60: the text listed the window).
    const asked = await runMain(ix.env, ["search", "in", "august", "2025", "--json"]);
    const doc = JSON.parse(asked.out);
    assertEquals([Array.isArray(doc.results), doc.sessions], [true, undefined]);
    const text = await runMain(ix.env, ["search", "in", "august", "2025"]);
    assert(!text.err.includes("names a time"), text.err);
    assertEquals(
      text.out.split("\n").filter((l) => /^[0-9a-f]{8} /.test(l)).map((l) => l.slice(0, 8)),
      doc.results.map((r: { id: string }) => r.id.slice(0, 8)),
    );
    // A word beside the time words is a search, ranked by the window.
    const word = await runMain(ix.env, ["billing", "in", "august", "2025", "--json"]);
    assertEquals(JSON.parse(word.out).results[0].id, AUG);
    // So is a greeting (trial 81: `hello in august 2025` listed the month, `hello` unsaid).
    const hello = await runMain(ix.env, ["hello", "in", "august", "2025"]);
    assert(!hello.err.includes("names a time"), hello.err);
  } finally {
    ix.cleanup();
  }
});
