/**
 * An index emptied to 0 bytes (truncated by a crash, a full disk, a cleanup) opens as a new,
 * empty SQLite database. It is named as damaged, like other damage, with what it held (trial
 * 111 F7: the first search answered "nothing matched", the next said "the index was never built
 * in full", and a background run built a new one without the sessions only the old one held).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { emptiedIndex, Store } from "../lib/store.ts";
import { claudeStore, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { callDeja } from "../lib/mcp/call.ts";

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);

const SESSIONS: SessionSpec[] = ["a", "b"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: [{ say: `the ${k === "a" ? "alphaquokka" : "betawombat"} answer` }, {
    bash: "cargo test",
    out: "ok",
  }],
}));

/**
 * Both sessions indexed, then the store of `aaaaaaaa` deleted and indexed again: the index alone
 * holds it now ("gone, kept"). Its env vars and the index's path.
 */
async function indexedWithGone(dir: string): Promise<{ vars: Record<string, string>; db: string }> {
  const { vars, files } = claudeStore(dir, SESSIONS);
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  rmSync(files[0]);
  assertEquals((await run(["index"], vars)).code, 0);
  return { vars, db: join(vars.DEJA_HOME, "index.db") };
}

/** Each command in `commands` exits 2 saying `said` with `hint`, never "nothing matched". */
async function everyCommandSays(
  vars: Record<string, string>,
  commands: string[][],
  said: string,
  hint: string,
): Promise<void> {
  for (const args of commands) {
    const r = await run(args, vars);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
    assertStringIncludes(r.err, said);
    assertStringIncludes(r.err, hint);
    assert(!/nothing matched|never built in full|no session matches/.test(r.err), r.err);
  }
}

/** The MCP server's recall answers with an error holding `text`. */
async function recallSays(vars: Record<string, string>, text: string): Promise<void> {
  const mcp = await callDeja({ mode: "recall", query: "betawombat" }, {
    env: testEnv(vars.HOME, vars),
    cwd: "/w/app",
    log: () => {},
  });
  assertEquals(mcp.isError, true);
  assertStringIncludes(mcp.content[0].text, text);
}

const EMPTIED = "is damaged (emptied to 0 bytes; it held 2 sessions, among them those of 1 store " +
  "gone since, which no rebuild can bring back)";

Deno.test("an index emptied to 0 bytes is named damaged, with what it held, until --rebuild", async () => {
  const dir = tempDir("deja-emptied-");
  try {
    const { vars, db } = await indexedWithGone(dir);
    const { ino } = statSync(db);
    writeFileSync(db, ""); // emptied in place
    assertEquals(statSync(db).ino, ino);
    for (const args of [["betawombat"], ["betawombat"], ["last"], ["index"]]) {
      const r = await run(args, vars);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
      assertStringIncludes(r.err, `deja: the index ${db} ${EMPTIED}`);
      assertStringIncludes(r.err, "hint: run 'deja index --rebuild'");
      assert(!/nothing matched|never built in full/.test(r.err), r.err);
    }
    const doc = JSON.parse((await run(["doctor", "--json"], vars)).out).index;
    assertStringIncludes(doc.error, EMPTIED);
    const st = statSync(db);
    assertStringIncludes(emptiedIndex(db, st) ?? "", "emptied to 0 bytes");
    const rebuilt = await run(["index", "--rebuild"], vars);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assertStringIncludes(rebuilt.err, "the index was damaged; moved it to");
    assertEquals(readdirSync(vars.DEJA_HOME).filter((f) => f.includes(".corrupt-")).length, 1);
    const found = await run(["betawombat"], vars);
    assertEquals([found.code, found.err.includes("damaged")], [0, false], found.err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 127 F5: an empty file put in the index's place (restored from a backup, swapped: another
// inode than the one the manifest stamped) was not named: searches and MCP said "nothing
// matched", doctor found nothing, and `deja index` built a new index without the session only
// the old one held. An empty SQLite file (no tables) is the same.
for (const how of ["a new 0-byte file", "a SQLite file with no tables"]) {
  Deno.test(`an index replaced by ${how} is named damaged, with what it held, until --rebuild`, async () => {
    const dir = tempDir("deja-emptied-new-");
    try {
      const { vars, db } = await indexedWithGone(dir);
      const { ino } = statSync(db);
      renameSync(db, join(dir, "index.db.old"));
      rmSync(`${db}-wal`, { force: true });
      rmSync(`${db}-shm`, { force: true });
      if (how === "a new 0-byte file") writeFileSync(db, "", { mode: 0o600 });
      else {
        const empty = new DatabaseSync(db);
        empty.exec("CREATE TABLE t (x); DROP TABLE t"); // a header written, no table left
        empty.close();
      }
      assert(statSync(db).ino !== ino);
      const what = how === "a new 0-byte file"
        ? "emptied to 0 bytes"
        : "emptied: a database with no tables";
      const said = `deja: the index ${db} is damaged (${what}; it held 2 sessions, among them ` +
        "those of 1 store gone since, which no rebuild can bring back)";
      await everyCommandSays(
        vars,
        [["betawombat"], ["last"], ["stats"], ["show", "aaaaaaaa"], ["index"]],
        said,
        "hint: run 'deja index --rebuild'",
      );
      await recallSays(vars, what);
      const doc = await run(["doctor", "--json"], vars);
      assert(doc.code !== 0, doc.out);
      assertStringIncludes(JSON.parse(doc.out).index.error, `${what}; it held 2 sessions`);
      const rebuilt = await run(["index", "--rebuild"], vars);
      assertEquals(rebuilt.code, 0, rebuilt.err);
      assertStringIncludes(rebuilt.err, "the index was damaged; moved it to");
      const found = await run(["betawombat"], vars);
      assertEquals([found.code, found.err.includes("damaged")], [0, false], found.err);
      // An index deja makes is no emptied one while still empty, though the manifest of the
      // one it replaces held sessions: the manifest goes first.
      renameSync(db, join(dir, "index.db.rebuilt"));
      Store.open(db, { create: true }).close();
      assertEquals(emptiedIndex(db, { ...statSync(db), size: 0 }), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** Removes the index at `db` with its `-wal` and `-shm`, as `rm index.db*` does. */
function deleteIndex(db: string): void {
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
}

// An index deleted outright while the manifest beside it said it held sessions: `deja index` (or
// a command's background run) built a new one without a word, and the session only the old one
// held (its store deleted since) was gone for good, unsaid. Deleting the index is also how one
// starts over: said once by the run that builds the new one, never stopped.
Deno.test("a deleted index that held sessions is said once, with what went with it, by the run that replaces it", async () => {
  const dir = tempDir("deja-deleted-");
  try {
    const { vars, db } = await indexedWithGone(dir);
    deleteIndex(db);
    const said = `deja: the index ${db} was deleted (it held 2 sessions, among them those of 1 ` +
      "store gone since, which no rebuild can bring back); building a new one";
    // A command starts the new index in the background (`true` here: nothing is built).
    const bg: Record<string, string> = { ...vars, DEJA_SELF: JSON.stringify(["true"]) };
    const r = await run(["betawombat"], bg);
    assertEquals(r.code, 2, r.err);
    assertStringIncludes(r.err, `${said} in the background now\n`);
    assert(!/first run|never built/.test(r.err), r.err);
    const mcp = await callDeja({ mode: "recall", query: "betawombat" }, {
      env: testEnv(bg.HOME, bg),
      cwd: "/w/app",
      log: () => {},
    });
    assertStringIncludes(mcp.content[0].text, "was deleted (it held 2 sessions, among them");
    // `deja index` builds it, says so even with --json, and reports it there.
    const built = await run(["index", "--json"], vars);
    assertEquals(built.code, 0, built.err);
    assertStringIncludes(built.err, said + "\n");
    assertEquals(JSON.parse(built.out).deleted, { sessions: 2, gone: 1 });
    // Once: the new index's manifest replaced the deleted one's.
    for (const args of [["index"], ["betawombat"]]) {
      const again = await run(args, bg);
      assertEquals(again.code, 0, again.err);
      assert(!again.err.includes("deleted"), again.err);
    }
    // With no store gone, nothing is lost that the stores do not give back: said shorter.
    deleteIndex(db);
    const short = await run(["index", "--quiet"], vars);
    assertEquals(short.code, 0, short.err);
    assertEquals(
      short.err,
      `deja: the index ${db} was deleted (it held 1 session); building a new one from the stores\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a first run and a rebuild of a deleted index say nothing of a deleted index", async () => {
  const dir = tempDir("deja-deleted-not-");
  try {
    const { vars, files } = claudeStore(dir, SESSIONS);
    const db = join(vars.DEJA_HOME, "index.db");
    const first = await run(["index", "--json"], vars);
    assertEquals(first.code, 0, first.err);
    assertEquals([first.err.includes("deleted"), "deleted" in JSON.parse(first.out)], [
      false,
      false,
    ]);
    rmSync(files[0]);
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    deleteIndex(db);
    const rebuilt = await run(["index", "--rebuild", "--json"], vars);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assertEquals([rebuilt.err.includes("deleted"), "deleted" in JSON.parse(rebuilt.out)], [
      false,
      false,
    ]);
    assertEquals(
      JSON.parse(rebuilt.out).harnesses.find((h: { harness: string }) => h.harness === "claude")
        .found,
      1,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The tables of the SQLite file at `path`, its rows of `foo`, its schema version and journal mode bytes. */
function contents(
  path: string,
): { tables: string[]; foo: unknown[]; version: number; header: number[] } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return {
      tables: (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .all() as Array<{ name: string }>).map((r) => r.name),
      foo: db.prepare("SELECT x FROM foo").all().map((r) => (r as { x: unknown }).x),
      version: (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      header: [...readFileSync(path).subarray(18, 20)],
    };
  } finally {
    db.close();
  }
}

// Trial 128 F6: another program's SQLite database put in the index's place (a wrong restore) was
// taken for an index never built in full: searches said "nothing matched", `show` "a first run
// stopped early", and deja made its own tables in that file. Named, never written to; a rebuild
// sets it aside whole.
for (const version of [0, 3]) {
  Deno.test(`an index replaced by another program's database (schema version ${version}) is named and never written`, async () => {
    const dir = tempDir("deja-foreign-");
    try {
      const { vars, db } = await indexedWithGone(dir);
      deleteIndex(db);
      const other = new DatabaseSync(db);
      other.exec(`CREATE TABLE foo (x); CREATE TABLE bar (y); INSERT INTO foo VALUES (1), ('two')`);
      other.exec(`PRAGMA user_version = ${version}`);
      other.close();
      const before = contents(db);
      assertEquals([before.tables, before.foo, before.header], [["bar", "foo"], [1, "two"], [
        1,
        1,
      ]]);
      const what = "is not a deja index (a SQLite database holding the tables foo and bar; the " +
        "index deja had there held 2 sessions, among them those of 1 store gone since, which no " +
        "rebuild can bring back)";
      const bg: Record<string, string> = { ...vars, DEJA_SELF: JSON.stringify(["true"]) };
      await everyCommandSays(
        bg,
        [["betawombat"], ["last"], ["stats"], ["show", "aaaaaaaa"], ["index"], ["index"]],
        `deja: the index ${db} ${what}`,
        "move it away if it is another program's, or run 'deja index --rebuild'",
      );
      await recallSays(vars, "is not a deja index");
      const doc = await run(["doctor", "--json"], vars);
      assert(doc.code !== 0, doc.out);
      assertStringIncludes(JSON.parse(doc.out).index.error, what);
      // Nothing written: its tables, rows, schema version and journal mode are as they were.
      assertEquals(contents(db), before);
      const rebuilt = await run(["index", "--rebuild"], vars);
      assertEquals(rebuilt.code, 0, rebuilt.err);
      assertStringIncludes(rebuilt.err, "deja: the index was not a deja index; moved it to");
      const aside = readdirSync(vars.DEJA_HOME).filter((f) => /\.corrupt-[0-9T]+$/.test(f));
      assertEquals(aside.length, 1);
      assertEquals(contents(join(vars.DEJA_HOME, aside[0])), before);
      const found = await run(["betawombat"], vars);
      assertEquals([found.code, found.err.includes("deja index")], [0, false], found.err);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
