import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions, rowId } from "../../tests/_memory.ts";
import { captureIO, withVars } from "../../tests/_cli_io.ts";
import { SessionCache } from "../search/sessions.ts";
import { lastCmd, lastData, parseLast } from "./cmd_last.ts";
import { statsCmd, statsData } from "./cmd_stats.ts";

const APP = "4a110000-1111-4222-8333-000000000001";
const CHILD = "4a110000-1111-4222-8333-000000000002";
const TMP = "4a110000-1111-4222-8333-000000000003";
const GONE = "4a110000-1111-4222-8333-000000000004";

function fixture() {
  const s = (id: string, cwd: string, start: string) => ({
    id,
    cwd,
    start,
    turns: [{ user: `work in ${cwd}` }],
  });
  return indexSessions([
    s(APP, "/w/app", "2026-11-01T10:00:00Z"),
    s(CHILD, "/w/app", "2026-11-01T11:00:00Z"),
    s(TMP, "/tmp/scratch", "2026-11-01T12:00:00Z"),
    s(GONE, "/w/secret", "2026-11-01T13:00:00Z"),
  ], [
    JSON.stringify({ ts: "2026-11-01T14:00:00Z", project: "/tmp/play", text: "hunter2 note" }),
  ]);
}

Deno.test("stats, last and search apply one throwaway rule and their counts add up", async () => {
  const ix = await fixture();
  try {
    // CHILD becomes a subagent of APP; /w/secret is excluded after it was indexed.
    ix.store.db.prepare("UPDATE sessions SET parent = ? WHERE native_id = ?").run(APP, CHILD);
    const env = withVars(ix.env, { DEJA_EXCLUDE_PROJECTS: "secret" });
    const io = { env, cwd: "/" };
    const st = statsData(env, "/");
    assertEquals([st.sessions, st.throwaway, st.excluded, st.subagents], [5, 1, 1, 1]);

    const all = lastData(ix.store, parseLast({ values: { junk: true }, positionals: ["200"] }), io);
    assertEquals(st.sessions, all.sessions.length + st.excluded + st.subagents);
    // The note saved in /tmp is kept (listed without --junk), as search keeps it.
    const one = lastData(ix.store, parseLast({ values: {}, positionals: ["1"] }), io);
    assertEquals(one.hidden, st.throwaway + st.excluded, "counted past the first n");
    const plain = lastData(ix.store, parseLast({ values: {}, positionals: ["200"] }), io);
    assert(plain.sessions.some((s) => s.harness === "deja"), "the note is listed");
    const cache = new SessionCache(ix.store);
    const note = ix.store.db.prepare("SELECT id FROM sessions WHERE harness = 'deja'").get() as {
      id: number;
    };
    assertEquals(cache.throwaway(note.id, env), false, "search does not flag the note");
    assertEquals(cache.throwaway(rowId(ix.store, TMP), env), true);

    const text = captureIO(env, false);
    assertEquals(await statsCmd.run({ values: {}, positionals: [] }, text.io), 0);
    assertStringIncludes(text.out(), "1 of the sessions is a subagent, filed under its parent");
    assertStringIncludes(text.out(), "1 throwaway, 1 excluded");
    assertStringIncludes(text.out(), "matching sessions are not indexed");
  } finally {
    ix.cleanup();
  }
});

Deno.test("stats lists no throwaway or excluded project, as search and last show none", async () => {
  const ix = await fixture();
  try {
    const env = withVars(ix.env, { DEJA_EXCLUDE_PROJECTS: "secret" });
    const st = statsData(env, "/");
    assertEquals([st.throwaway, st.excluded], [1, 1]);
    // The note's project (/tmp/play) is shown, as search and last show notes.
    assertEquals(st.projects.map((p) => p.project).sort(), ["/tmp/play", "/w/app"]);
    // Run from inside the throwaway project, it is the person's own and listed.
    assert(statsData(env, "/tmp/scratch").projects.some((p) => p.project === "/tmp/scratch"));
  } finally {
    ix.cleanup();
  }
});

Deno.test("last says a filter's only sessions are hidden, and how to show them, not that none matches", async () => {
  const ix = await indexSessions([
    { id: TMP, cwd: "/tmp/scratch", start: "2026-11-01T12:00:00Z", turns: [{ user: "try it" }] },
  ]);
  try {
    const io = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { harness: ["claude"] }, positionals: [] }, io.io), 1);
    assertStringIncludes(
      io.err(),
      "1 session in the index matches in harness claude, but it is hidden",
    );
    assertStringIncludes(io.err(), "--junk shows");
    assert(!io.err().includes("no session in the index matches"), io.err());
    assert(!io.err().includes("drop --harness"), io.err());
    const junk = captureIO(ix.env, false);
    const all = { harness: ["claude"], junk: true };
    assertEquals(await lastCmd.run({ values: all, positionals: [] }, junk.io), 0);
    assertStringIncludes(junk.out(), "/tmp/scratch");
  } finally {
    ix.cleanup();
  }
});
