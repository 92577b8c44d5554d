/**
 * `deja fix` of an error the index holds with other names in it (another pod, another request
 * id): where no failed command's output holds its signature, the events the search's error tier
 * matches are named, not "never seen" (trial 92 F1).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";

Deno.test("fix names the sessions holding an error like the one pasted, not 'never seen'", async () => {
  const ix = await indexSessions([{
    id: "f1f10000-1111-4222-8333-444455556666",
    cwd: "/w/k3s",
    start: "2026-11-01T10:00:00Z",
    turns: [
      {
        user: 'why this: Error from server (BadRequest): previous terminated container "forgejo" ' +
          'in pod "forgejo-5f4d46f74-hwbtn" not found',
      },
      { say: "The pod restarted before its first run finished." },
    ],
  }, {
    id: "f1f20000-1111-4222-8333-444455556666",
    cwd: "/w/app",
    start: "2026-11-02T10:00:00Z",
    turns: [{ user: "rename the ledger module" }, { say: "Renamed." }],
  }]);
  try {
    const r = await runMain(ix.env, [
      "fix",
      'Error from server (BadRequest): previous terminated container "web" in pod "gitea-7c9d8b6f5-x2kqp" not found',
    ]);
    assertEquals(r.code, 1, r.err);
    assert(!r.out.includes("never seen"), r.out);
    assertStringIncludes(r.out, "1 session holds it");
    assertStringIncludes(r.out, "f1f10000");
    // An error no session holds in any form is still never seen.
    const none = await runMain(ix.env, ["fix", "zzqq frobnicate: command not found"]);
    assertStringIncludes(none.out, "never seen");
  } finally {
    ix.cleanup();
  }
});
