import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";

Deno.test("did-you-mean appears only when the search of a mistyped command found nothing", async () => {
  const ix = await indexSessions([{
    id: "d1d00000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "show the last deploy log" }, { say: "the last deploy failed" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const found = await runMain(env, ["lsat"]);
    assertEquals(found.code, 0, found.err);
    assert(!found.err.includes("did you mean"), found.err);
    const none = await runMain(env, ["instal"]);
    assertEquals(none.code, 1);
    assertStringIncludes(none.err, "did you mean 'install'?");
  } finally {
    ix.cleanup();
  }
});
