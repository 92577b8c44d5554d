import { assertEquals } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";

Deno.test("under --json every command's error is one JSON object on stdout with the exit code", async () => {
  const ix = await indexSessions([{
    id: "e5500000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "hello there" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const cases: Array<[string[], number]> = [
      [["show", "zzzz", "--json"], 1],
      [["resume", "zzzz", "--json"], 1],
      [["handoff", "--to", "crush", "zzzz", "--json"], 1],
      [["restore", "--json"], 2],
      [["last", "0", "--json"], 2],
      [["show", "--json", "--bogus"], 2],
    ];
    for (const [args, code] of cases) {
      const r = await runMain(env, args);
      assertEquals(r.code, code, args.join(" "));
      const doc = JSON.parse(r.out);
      assertEquals(doc.exit, code, args.join(" "));
      assertEquals(typeof doc.error, "string", args.join(" "));
      assertEquals("hint" in doc, true, args.join(" "));
    }
  } finally {
    ix.cleanup();
  }
});
