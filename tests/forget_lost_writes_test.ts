/**
 * An index that lost the writes of a `deja forget` (its `-wal` removed while another reader
 * kept it from being copied into the file, or an older copy of index.db put back) holds the
 * forgotten session again. tombstones.jsonl says it is forgotten for good: the first command
 * after, whichever it is, removes it again and says so (trial 111 F3: it was found by
 * searches, `deja index` said "up to date" and doctor "fresh").
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { claudeStore, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);

const SESSIONS: SessionSpec[] = ["a", "e"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: [{ say: `the ${k === "e" ? "epsilonmole" : "alphaquokka"} answer` }, {
    bash: "cargo test",
    out: "ok",
  }],
}));

/**
 * Two sessions indexed; then `eeeeeeee` forgotten, and the index put back as it was before the
 * forget, bytes and mtime (what a lost `-wal` leaves: the file as the last checkpoint wrote
 * it, which the stat manifest had stamped).
 */
async function lostForget() {
  const dir = tempDir("deja-lostwal-");
  const { vars } = claudeStore(dir, SESSIONS);
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  const db = join(vars.DEJA_HOME, "index.db");
  const before = readFileSync(db);
  const { atime, mtime } = statSync(db);
  const forgot = await run(["forget", "--session", "eeeeeeee"], vars);
  assertEquals(forgot.code, 0, forgot.err);
  const gone = await run(["--no-refresh", "epsilonmole"], vars);
  assertEquals(gone.code, 1, `forgotten: ${gone.out}`);
  writeFileSync(db, before);
  utimesSync(db, atime, mtime);
  for (const x of ["-wal", "-shm"]) rmSync(db + x, { force: true });
  return { vars, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const AGAIN = "deja: the index held 1 forgotten session again (claude:eeeeeeee-";

Deno.test("a forgotten session the index lost the removal of is removed again by the first search", async () => {
  const w = await lostForget();
  try {
    const r = await run(["epsilonmole"], w.vars);
    assertEquals(r.code, 1, `not found again: ${r.out}`);
    assertStringIncludes(r.err, AGAIN);
    assertStringIncludes(r.err, 'nothing matched "epsilonmole"');
    // Removed from the index, not only from the answer: said once.
    const next = await run(["--no-refresh", "epsilonmole"], w.vars);
    assertEquals([next.code, next.err.includes("again")], [1, false], next.err);
    const other = await run(["--no-refresh", "alphaquokka"], w.vars);
    assertEquals(other.code, 0, other.err);
    const idx = await run(["index"], w.vars);
    assertEquals(idx.code, 0, idx.err);
    assert(!idx.err.includes("again"), idx.err);
  } finally {
    w.cleanup();
  }
});

Deno.test("deja index, doctor and a search with --no-refresh each see a forgotten session held again", async () => {
  {
    const w = await lostForget();
    try {
      const idx = await run(["index"], w.vars);
      assertEquals(idx.code, 0, idx.err);
      assertStringIncludes(idx.err, AGAIN);
      assertStringIncludes(idx.out, "1 session,");
      assertEquals((await run(["--no-refresh", "epsilonmole"], w.vars)).code, 1);
    } finally {
      w.cleanup();
    }
  }
  {
    const w = await lostForget();
    try {
      const r = await run(["--no-refresh", "epsilonmole"], w.vars);
      assertEquals(r.code, 1, `not found again: ${r.out}`);
      assertStringIncludes(r.err, AGAIN);
    } finally {
      w.cleanup();
    }
  }
  {
    const w = await lostForget();
    try {
      const doc = await run(["doctor", "--json"], w.vars);
      const index = JSON.parse(doc.out).index;
      assertEquals([index.forgotten_held, index.fresh], [1, false], doc.out);
      assertEquals(doc.code, 1, "a problem");
      const text = await run(["doctor"], w.vars);
      assertStringIncludes(text.out, "holds 1 forgotten session again");
      // Doctor only says it; the next command removes it.
      const r = await run(["epsilonmole"], w.vars);
      assertEquals(r.code, 1, r.out);
      assertStringIncludes(r.err, AGAIN);
    } finally {
      w.cleanup();
    }
  }
});

/**
 * `eeeeeeee` forgotten, then brought back with `deja forget --undo`, and the index put back as
 * it was before the undo (a lost `-wal`): tombstones.jsonl no longer names the session, so no
 * forget is re-applied, but the index lacks it (trial 114 F6: it vanished, unsaid, and
 * `deja index` said "up to date").
 */
async function lostUndo() {
  const dir = tempDir("deja-lostundo-");
  const { vars } = claudeStore(dir, SESSIONS);
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  const forgot = await run(["forget", "--session", "eeeeeeee"], vars);
  assertEquals(forgot.code, 0, forgot.err);
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  const db = join(vars.DEJA_HOME, "index.db");
  const before = readFileSync(db);
  const { atime, mtime } = statSync(db);
  const undo = await run(["forget", "--undo"], vars);
  assertEquals(undo.code, 0, undo.err);
  assertEquals((await run(["--no-refresh", "epsilonmole"], vars)).code, 0, "back");
  writeFileSync(db, before);
  utimesSync(db, atime, mtime);
  for (const x of ["-wal", "-shm"]) rmSync(db + x, { force: true });
  return { vars, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

Deno.test("sessions an undone forget brought back, lost with the index's writes, are read again", async () => {
  {
    const w = await lostUndo();
    try {
      const idx = await run(["index"], w.vars);
      assertEquals(idx.code, 0, idx.err);
      const r = await run(["--no-refresh", "epsilonmole"], w.vars);
      assertEquals(r.code, 0, `back after deja index: ${r.err}`);
    } finally {
      w.cleanup();
    }
  }
  {
    const w = await lostUndo();
    try {
      const r = await run(["epsilonmole"], w.vars);
      assertEquals(r.code, 0, `back for the first search: ${r.err}`);
    } finally {
      w.cleanup();
    }
  }
});

// Trial 115 F3: with another process reading the index, the forgotten text stayed in index.db
// (the log could not be copied back) and forget said nothing of it.
Deno.test("forget says when another process reading the index keeps the forgotten text on disk", async () => {
  const dir = tempDir("deja-heldback-");
  const { vars } = claudeStore(dir, SESSIONS);
  try {
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    // A reader on the index's snapshot, as `deja view` or an MCP server holds one.
    const reader = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM sessions").get();
    const held = await run(["forget", "--session", "eeeeeeee", "--json"], vars);
    reader.exec("COMMIT");
    reader.close();
    assertEquals(held.code, 0, held.err);
    assertEquals(JSON.parse(held.out).held_back, true, held.out);
    // Alone, the text leaves the file at once, and nothing is said.
    const alone = await run(["forget", "--session", "aaaaaaaa"], vars);
    assertEquals(alone.code, 0, alone.err);
    assert(!alone.out.includes("another process"), alone.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
