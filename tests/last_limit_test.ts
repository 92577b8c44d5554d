/**
 * `deja last --limit N` (new-user report, 2026-12): refused as an unknown option, though
 * `search` takes `--limit`. It is the positional count spelt as search spells it; both given
 * and different is a usage error.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { memIndex, type MemSession } from "./_search_fixture.ts";

const AT = Date.parse("2026-11-01T10:00:00Z");
const SESSIONS: MemSession[] = Array.from({ length: 8 }, (_, i) => ({
  id: `s-${i}`,
  at: AT + i * 3600e3,
  events: [["user", `work item ${i}`]],
}));

const ids = (out: string) => JSON.parse(out).sessions.map((s: { id: string }) => s.id) as string[];

Deno.test("last --limit N lists the N newest sessions, as last N does", async () => {
  const ix = await memIndex(SESSIONS);
  try {
    const byLimit = await runMain(ix.env, ["last", "--limit", "5"]);
    const byN = await runMain(ix.env, ["last", "5"]);
    assertEquals([byLimit.code, byLimit.err], [0, "showing 5 of 8: --limit shows more\n"]);
    assertEquals(byLimit.out, byN.out);
    assertEquals(byLimit.out.split("\n").filter((l) => l.startsWith("s-")).length, 5);
    const json = await runMain(ix.env, ["last", "--limit=3", "--json"]);
    assertEquals(json.code, 0);
    assertEquals(ids(json.out), ["s-7", "s-6", "s-5"]);
    // The same count twice is no conflict.
    assertEquals(ids((await runMain(ix.env, ["last", "2", "--limit", "2", "--json"])).out), [
      "s-7",
      "s-6",
    ]);
    const help = (await runMain(ix.env, ["last", "--help"])).out;
    assertStringIncludes(help, "--limit <n>");
    // `-5` as head reads it, as the help says (trial 120 L9: taken, and said nowhere).
    assertStringIncludes(help, "last [n | -n | --limit <n>]");
    assertStringIncludes(help, "5, -5 (as head -5 reads it) and --limit 5 say the same");
    assertEquals((await runMain(ix.env, ["last", "-5"])).out, byN.out);
  } finally {
    ix.cleanup();
  }
});

Deno.test("last refuses two different counts and a --limit that is no count, exit 2", async () => {
  const ix = await memIndex(SESSIONS);
  try {
    const both = await runMain(ix.env, ["last", "3", "--limit", "4"]);
    assertEquals([both.code, both.out], [2, ""]);
    assertStringIncludes(both.err, "deja: last was given two counts, 3 and --limit 4\n");
    assertStringIncludes(both.err, "hint: give one");
    const bad = await runMain(ix.env, ["last", "--limit", "many"]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.err, "--limit takes a positive whole number, not 'many'");
  } finally {
    ix.cleanup();
  }
});
