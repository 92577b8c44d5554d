/**
 * An option given an empty value is refused, for every command: an unset shell variable
 * (`--project "$P"`) must not widen a filter to everything.
 */
import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";

const TWO = ["a1", "b2"].map((id, i) => ({
  id: `${id}-0000`,
  cwd: `/w/p${i}`,
  start: "2026-11-01T10:00:00Z",
  turns: [{ user: "pricing page" }, { say: "done" }],
}));

// Regression (2026-12, user trial): `forget --project ""` forgot every session with a project,
// exit 0; `last --harness ""` and `search --harness ""` read as every harness.
Deno.test("an empty --project, --harness, --session or --before is refused with exit 2", async () => {
  const ix = await indexSessions(TWO);
  ix.store.close();
  const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
  try {
    const cases: Array<[string[], string]> = [
      [["forget", "--project", ""], "--project"],
      [["forget", "--project", "  "], "--project"],
      [["forget", "--session", ""], "--session"],
      [["forget", "--before", ""], "--before"],
      [["last", "--harness", ""], "--harness"],
      [["last", "--harness="], "--harness"],
      [["search", "pricing", "--harness", ""], "--harness"],
      [["search", "pricing", "--session", ""], "--session"],
      [["search", "pricing", "--project", ""], "--project"],
    ];
    for (const [args, opt] of cases) {
      const r = await runMain(env, args);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
      assertStringIncludes(r.err, `${opt} got an empty value`, args.join(" "));
    }
    // Nothing was forgotten.
    const left = await runMain(env, ["last", "--json"]);
    assertEquals(JSON.parse(left.out).sessions.length, 2, left.out);
  } finally {
    ix.cleanup();
  }
});
