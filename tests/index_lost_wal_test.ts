/**
 * The index's `-wal` removed while another process holds the index open (a viewer, an MCP
 * server): SQLite answers "disk I/O error" until that process closes it, though the index file
 * is sound. That is named as what it is, with the way out, never as damage: no rebuild is
 * hinted, and `deja index --rebuild` does not set the sound index aside (trial 114 F5: it moved
 * the index to index.db.corrupt-*, losing what only it held). The holder is a second connection
 * in this process holding a read transaction.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { claudeStore, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";

const SESSIONS: SessionSpec[] = ["a", "b"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: [{ say: `the ${k === "a" ? "alphaquokka" : "betawombat"} answer` }],
}));

Deno.test("a -wal removed under another process that holds the index is named so, never set aside", async () => {
  const dir = tempDir("deja-lostwal-");
  let holder: DatabaseSync | undefined;
  try {
    const { vars } = claudeStore(dir, SESSIONS);
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    const db = join(vars.DEJA_HOME, "index.db");
    // Another process reads the index (as `deja view` would) and keeps its read transaction.
    holder = new DatabaseSync(
      db,
      { readOnly: true } as ConstructorParameters<typeof DatabaseSync>[1],
    );
    holder.exec("BEGIN");
    holder.prepare("SELECT count(*) FROM sessions").get();
    // A write lands in the -wal, which the holder keeps from being checkpointed; then it is removed.
    const note = await run(["remember", "the zebrafish flag"], vars);
    assertEquals(note.code, 0, note.err);
    rmSync(db + "-wal");
    for (const args of [["alphaquokka"], ["index"], ["index", "--rebuild"], ["alphaquokka"]]) {
      const r = await run(args, vars);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assertStringIncludes(r.err, "was removed while another process holds the index open");
      assertStringIncludes(r.err, "'deja view', an MCP server");
      assert(
        !/run 'deja index --rebuild'|is damaged|corrupt/.test(r.err),
        `${args.join(" ")}: ${r.err}`,
      );
    }
    // A note is kept in its file; the hint says what lets it be indexed.
    const kept = await run(["remember", "the narwhal flag"], vars);
    assertEquals(kept.code, 0, kept.err);
    assertStringIncludes(kept.err, "close the other deja process that holds the index");
    const doc = JSON.parse((await run(["doctor", "--json"], vars)).out).index;
    assertStringIncludes(doc.error, "holds the index open");
    assert(!/damaged \(/.test(doc.error), doc.error);
    const text = (await run(["doctor"], vars)).out;
    assertStringIncludes(text, "held elsewhere: cannot open the index");
    assert(!text.includes("unreadable"), text);
    assertEquals(
      readdirSync(vars.DEJA_HOME).filter((f) => /corrupt|damaged/.test(f)),
      [],
      "nothing set aside, no damage recorded",
    );
    // The other process closes the index: it opens again, with what it held.
    holder.close();
    holder = undefined;
    const found = await run(["--no-refresh", "alphaquokka"], vars);
    assertEquals(found.code, 0, found.err);
    assertStringIncludes(found.out, "alphaquokka");
  } finally {
    holder?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);
