import { assertEquals } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { projectSessions } from "./_util.ts";

Deno.test("a hook's directory finds its project: a subdirectory, and a Windows path in any spelling", async () => {
  // Trial 16: `c:\…` (a lower-case drive), `C:/…` and a subdirectory of a Windows project
  // found no session, and every hook was silent.
  const win = "C:\\Users\\u\\Documents\\VAULT";
  const ix = await indexSessions([
    {
      id: "0a0a0001-0000-4000-8000-000000000001",
      cwd: win,
      start: "2026-03-01T10:00:00Z",
      turns: [{ user: "tidy the vault notes" }],
    },
    {
      id: "0a0a0002-0000-4000-8000-000000000002",
      cwd: "/w/shop",
      start: "2026-03-02T10:00:00Z",
      turns: [{ user: "checkout totals" }],
    },
  ]);
  try {
    const of = (dir: string) => projectSessions(ix.store, dir, 5)?.sessions.map((s) => s.project);
    for (
      const dir of [
        win,
        "c:\\Users\\u\\Documents\\VAULT",
        "C:/Users/u/Documents/VAULT",
        `${win}\\notes\\daily`,
        `${win}\\`,
      ]
    ) assertEquals(of(dir), [win], dir);
    assertEquals(of("/w/shop/src/cart"), ["/w/shop"]);
    assertEquals(of("D:\\Users\\u\\Documents\\VAULT"), undefined);
    assertEquals(of("/w/other"), undefined);
  } finally {
    ix.cleanup();
  }
});
