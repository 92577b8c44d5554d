/**
 * WAL stores read in place (issue 14, items 3 and 4): nothing is created or
 * changed beside the store, rows that live only in the `-wal` are read, a copy
 * is made only for a `-wal` without `-shm` (never on the hook path) and swept
 * when its run is gone, and a locked store costs the caller's busy timeout.
 */
import { assert, assertEquals, assertThrows } from "../tests/_assert.ts";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { copiesDir, openStore, StoreError, sweepCopies } from "./sqlite_read.ts";
import { makeEnv } from "./runtime.ts";
import { tempDir } from "../tests/_tmp.ts";

/**
 * A private TMPDIR for the test (copies go under it), named in the `env` the
 * code under test gets — never set in the process environment, which the
 * parallel test workers share.
 */
function withTmp(fn: (dir: string) => void): void {
  const dir = tempDir("deja-wal-");
  env = makeEnv({ HOME: "/nonexistent", TMPDIR: dir });
  try {
    fn(dir);
  } finally {
    env = makeEnv({ HOME: "/nonexistent" });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A WAL store with a writer that keeps its connection open and rows only in the -wal. */
function liveStore(dir: string): { path: string; writer: DatabaseSync } {
  mkdirSync(join(dir, "store"));
  const path = join(dir, "store", "crush.db");
  const writer = new DatabaseSync(path);
  writer.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  writer.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)");
  return { path, writer };
}

function snapshot(dir: string): string {
  return readdirSync(dir).sort().map((n) => `${n}:${statSync(join(dir, n)).size}`).join(" ");
}

let env = makeEnv({ HOME: "/nonexistent" });
const count = (db: DatabaseSync) =>
  (db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n;

Deno.test("a live WAL store is read in place: rows in the -wal seen, nothing beside it created or changed", () => {
  withTmp((dir) => {
    const { path, writer } = liveStore(dir);
    try {
      const before = snapshot(join(dir, "store"));
      const h = openStore(path, env, { copy: false });
      assertEquals(h.snapshot, false);
      assertEquals(count(h.db), 3);
      h.close();
      assertEquals(snapshot(join(dir, "store")), before);
      assertEquals(readdirSync(dir).sort(), ["store"], "no copy in the temp dir");
    } finally {
      writer.close();
    }
  });
});

Deno.test("a WAL store closed cleanly (no -wal) is read without creating -wal or -shm", () => {
  withTmp((dir) => {
    const { path, writer } = liveStore(dir);
    writer.close();
    assertEquals(readdirSync(join(dir, "store")), ["crush.db"]);
    const h = openStore(path, env);
    assertEquals(count(h.db), 3);
    h.close();
    assertEquals(readdirSync(join(dir, "store")), ["crush.db"]);
  });
});

Deno.test("a -wal without -shm is read from a private copy, removed on close; the hook path refuses", () => {
  withTmp((dir) => {
    const { path, writer } = liveStore(dir);
    mkdirSync(join(dir, "crashed"));
    const crashed = join(dir, "crashed", "crush.db");
    copyFileSync(path, crashed);
    copyFileSync(`${path}-wal`, `${crashed}-wal`);
    writer.close();
    const before = snapshot(join(dir, "crashed"));
    const err = assertThrows(() => openStore(crashed, env, { copy: false }), StoreError);
    assertEquals((err as StoreError).reason, "unreadable");
    const h = openStore(crashed, env);
    assertEquals(h.snapshot, true);
    assertEquals(count(h.db), 3);
    assertEquals(readdirSync(copiesDir(env)).length, 1);
    h.close();
    // The copy is gone, and the copies directory with it (it held nothing else).
    assertEquals(existsSync(copiesDir(env)), false);
    assertEquals(snapshot(join(dir, "crashed")), before);
  });
});

Deno.test("copies left by a run that is gone are swept; a live run's are kept", () => {
  withTmp(() => {
    mkdirSync(join(copiesDir(env), "store-999999999-abc"), { recursive: true });
    mkdirSync(join(copiesDir(env), `store-${Deno.pid}-def`));
    assertEquals(sweepCopies(env), 1);
    assertEquals(readdirSync(copiesDir(env)), [`store-${Deno.pid}-def`]);
  });
});

for (const mode of ["WAL", "DELETE"]) {
  Deno.test(`a store held in an exclusive transaction (${mode}) fails as locked within the busy timeout`, () => {
    withTmp((dir) => {
      const { path, writer } = liveStore(dir);
      try {
        if (mode === "DELETE") writer.exec("PRAGMA journal_mode = DELETE");
        writer.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (4)");
        const t = performance.now();
        const err = assertThrows(
          () => openStore(path, env, { busyMs: 100, copy: false }),
          StoreError,
        );
        assert(["locked", "unreadable"].includes((err as StoreError).reason), err.message);
        const ms = performance.now() - t;
        assert(ms < 2500, `waited ${ms.toFixed(0)} ms, not the 100 ms asked`);
        writer.exec("ROLLBACK");
      } finally {
        writer.close();
      }
    });
  });
}

Deno.test("a store its harness left mid-write (a hot journal) is named so, and left as it is", () => {
  // Trial 26: "attempt to write a readonly database" read as if deja had written the store.
  const dir = tempDir("deja-hot-");
  try {
    const path = join(dir, "crush.db");
    const db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode = DELETE; CREATE TABLE m (id INTEGER PRIMARY KEY, t TEXT)");
    const put = db.prepare("INSERT INTO m (t) VALUES (?)");
    for (let i = 0; i < 500; i++) put.run("x".repeat(200));
    db.close();
    // A writer that dies inside its transaction leaves the journal behind, hot.
    const code = `import { DatabaseSync } from "node:sqlite";
      const db = new DatabaseSync(${JSON.stringify(path)});
      db.exec("PRAGMA cache_size = 1; BEGIN IMMEDIATE; UPDATE m SET t = 'y' || t");
      Deno.exit(0);`;
    // The child's caches and home are this test's own directory's, not the caller's.
    const r = spawnSync(process.execPath, ["eval", code], {
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir,
        DENO_DIR: join(dir, "deno"),
        XDG_CACHE_HOME: join(dir, "cache"),
        DENO_NO_UPDATE_CHECK: "1",
      },
    });
    assertEquals(r.status, 0, r.stderr);
    assert(existsSync(`${path}-journal`), "the journal is left");
    const before = [statSync(path).size, statSync(`${path}-journal`).size];
    const e = assertThrows(() => openStore(path, makeEnv({ HOME: dir })), StoreError) as StoreError;
    assertEquals(e.reason, "locked");
    assert(e.message.includes("left a write unfinished (crush.db-journal)"), e.message);
    assertEquals([statSync(path).size, statSync(`${path}-journal`).size], before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
