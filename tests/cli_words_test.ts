/**
 * What a new user types that is not a command's normal use, through the CLI in-process:
 * an oversized query, plain words that start with a command's name, text starting with a dash.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";
import { DejaError } from "../core/errors.ts";
import { asSqliteError } from "../lib/store.ts";

const S: SessionSpec = {
  id: "c11c0001-1111-4111-8111-111111111111",
  cwd: "/w/web",
  start: "2026-11-01T10:00:00Z",
  turns: [
    { user: "the uploading spinner hangs; setloading never resets on the loading screen" },
    { bash: "git commit -m 'spinner: reset setloading'", out: "[main 1a2b3c4] spinner" },
    { say: "Fixed: the loading flag resets now." },
  ],
};

/** No stack trace and no raw runtime error line on stderr. */
function clean(err: string): void {
  assert(!/^\s+at /m.test(err), `a stack trace was printed:\n${err.slice(0, 400)}`);
  assert(!/deja: (?:Type)?Error:/.test(err), `a raw error was printed:\n${err.slice(0, 400)}`);
}

// Regression (2026-12, compiled binary): 1000 distinct words reached SQLite as a 1000-deep
// LIKE expression and a 50,001-character word as a too-long LIKE pattern: exit 2, stack trace.
Deno.test("search cuts an oversized query to SQLite's limits and says so, never a stack trace", async () => {
  const ix = await indexSessions([S]);
  try {
    const many = Array.from({ length: 1000 }, (_, i) => `w${i.toString(36)}q`).join(" ");
    for (const query of [`spinner ${many}`, `${"a".repeat(50_001)} spinner`]) {
      const r = await runMain(ix.env, ["search", query]);
      clean(r.err);
      assert(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.err.slice(0, 300)}`);
      assertStringIncludes(r.err, "the query was cut: left out ");
    }
    const long = await runMain(ix.env, ["search", `${"b".repeat(50_001)} spinner`, "--json"]);
    assertEquals(JSON.parse(long.out).cut, { terms: 0, long: 1 });
    const fine = await runMain(ix.env, ["search", "spinner", "--json"]);
    assertEquals([fine.code, JSON.parse(fine.out).cut], [0, null]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("an SQLite error a command did not expect is one line with a hint", () => {
  const db = new DatabaseSync(":memory:");
  let raw: unknown;
  try {
    db.prepare("SELECT 'a' LIKE ?").get(`%${"a".repeat(50_001)}`);
  } catch (e) {
    raw = e;
  } finally {
    db.close();
  }
  const e = asSqliteError(raw, "'deja search'");
  assert(e instanceof DejaError, "an SQLite error becomes a DejaError");
  assertStringIncludes(e.message, "'deja search' stopped: SQLite refused the query (");
  assertEquals(e.message.includes("\n"), false);
  assertStringIncludes(e.hint ?? "", "fewer or shorter words");
  const other = new TypeError("not SQLite");
  assertEquals(asSqliteError(other, "'deja search'"), other);
});
