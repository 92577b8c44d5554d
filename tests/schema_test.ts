import { assert, assertEquals, assertThrows } from "./_assert.ts";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateFrom, Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { applyWriterSettings, MIGRATIONS, Q, SCHEMA_VERSION } from "../lib/schema.ts";
import { DatabaseSync } from "node:sqlite";
import { marks } from "../lib/sql.ts";
import { tempDir } from "./_tmp.ts";

function fresh(): Store {
  return Store.open(join(tempDir("deja-schema-"), "index.db"), {
    create: true,
  });
}

Deno.test("every named query prepares against a fresh schema", () => {
  const s = fresh();
  for (const [name, q] of Object.entries(Q)) {
    try {
      s.db.prepare(typeof q === "string" ? q : q.sql);
    } catch (e) {
      throw new Error(`query ${name} does not prepare: ${(e as Error).message}`);
    }
    // Its names, one per `?` mark (lib/sql.ts checks that when a query first runs).
    if (typeof q !== "string") assertEquals([name, marks(q.sql)], [name, q.params.length]);
  }
  s.close();
});

Deno.test("a new index records the schema version and is private to its user", () => {
  const dir = tempDir("deja-schema-");
  const path = join(dir, "sub", "index.db");
  const s = Store.open(path, { create: true });
  assertEquals(userVersion(s.db), SCHEMA_VERSION);
  s.close();
  assertEquals(statSync(path).mode & 0o777, 0o600);
  assertEquals(statSync(join(dir, "sub")).mode & 0o777, 0o700);
});

Deno.test("opening an index from a newer deja is refused with a hint", () => {
  const s = fresh();
  s.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  const path = s.path;
  s.close();
  const err = assertThrows(() => Store.open(path), DejaError);
  assert(String(err.message).includes("newer deja"));
});

Deno.test("opening a file that is not SQLite fails with a rebuild hint", () => {
  const path = join(tempDir("deja-schema-"), "index.db");
  writeFileSync(
    path,
    "this is not a database, just text that is long enough to matter".repeat(100),
  );
  const err = assertThrows(() => Store.open(path), DejaError) as DejaError;
  assert(err.hint?.includes("--rebuild"));
});

Deno.test("a missing index is an error unless asked to create it", () => {
  const path = join(tempDir("deja-schema-"), "none.db");
  const err = assertThrows(() => Store.open(path), DejaError) as DejaError;
  assert(err.hint?.includes("deja index"));
});

Deno.test("opening a schema 1 index appends the drift column and keeps its rows", () => {
  const { path, old } = oldIndex(1);
  old.exec("INSERT INTO sources (path, harness, kind) VALUES ('/s.jsonl', 'claude', 'append')");
  old.close();
  const s = Store.open(path);
  const cols = (s.db.prepare("SELECT name FROM pragma_table_info('sources')").all() as Array<
    { name: string }
  >).map((r) => r.name);
  assert(cols.includes("drift"), cols.join(", "));
  const row = s.db.prepare("SELECT harness, drift FROM sources").get() as Record<string, unknown>;
  assertEquals({ ...row }, { harness: "claude", drift: null });
  assertEquals(userVersion(s.db), SCHEMA_VERSION);
  s.close();
});

Deno.test("a search's matching events are read through the ranking index, not the event rows", () => {
  // Issue 18: the best 5000 matches of a common word read most of the events table (their
  // rows hold the text) before schema 7; the index holds what ranking reads of an event.
  const s = fresh();
  try {
    for (const [q, args] of [[Q.topRows.sql, ["x", 10]], [Q.searchRows.sql, ["x"]]] as const) {
      const plan = (s.db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...args) as { detail: string }[])
        .map((r) => r.detail).join("\n");
      assert(/SEARCH e USING COVERING INDEX events_rank/.test(plan), plan);
    }
  } finally {
    s.close();
  }
});

Deno.test("a harness's stores are read through an index, not by a scan of every store", () => {
  const s = fresh();
  try {
    const plan = (s.db.prepare(`EXPLAIN QUERY PLAN ${Q.sourcesOfHarness.sql}`).all("claude") as {
      detail: string;
    }[]).map((r) => r.detail).join("\n");
    assert(/USING (COVERING )?INDEX sources_harness/.test(plan), plan);
  } finally {
    s.close();
  }
});

/** Writes a session holding one tool call and its result (call id "c1") through the store's queries. */
function callAndResult(db: DatabaseSync): void {
  db.exec(`INSERT INTO sessions (id, harness, native_id, source) VALUES (1, 'claude', 's', '/s')`);
  // The columns every schema since 3 has (not Q.insertEvent's: an older index lacks `model`).
  const ins = db.prepare(
    `INSERT INTO events (session_id, seq, kind, text, time, key, tool, call_id, data, flags)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (
    const [seq, kind, data] of [[0, "tool_call", '{"command":"ls"}'], [
      1,
      "tool_result",
      '{"exit":2}',
    ]]
  ) {
    ins.run(1, seq, kind, "ls", null, `k${seq}`, "Bash", "c1", data, 0);
  }
}

/** Entries of index `name` (its leaf cells). */
function entries(db: DatabaseSync, name: string): number {
  return (db.prepare(`SELECT SUM(ncell) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'`)
    .get(name) as { n: number }).n;
}

Deno.test("events_call holds tool results only, and both lookups of a call's result use it", () => {
  // Issue 18: an entry per tool call was upkeep no query read (schema 8).
  const s = fresh();
  try {
    callAndResult(s.db);
    assertEquals(entries(s.db, "events_call"), 1);
    const found = s.db.prepare(Q.resultForCall.sql).get(1, "c1") as { data: string };
    assertEquals(found.data, '{"exit":2}');
    for (
      const [q, args] of [
        [Q.resultForCall.sql, [1, "c1"]],
        [Q.commandRuns.sql, ["[]", null, null]], // a command's output when its status is unknown
      ] as const
    ) {
      const plan = (s.db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...args) as { detail: string }[])
        .map((r) => r.detail).join("\n");
      assert(/USING INDEX events_call/.test(plan), plan);
    }
  } finally {
    s.close();
  }
});

/** The schema version an index's file says it holds. */
function userVersion(db: DatabaseSync): number {
  return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
}

/** An index left at schema `version` (its first migrations run), still open for rows to be added. */
function oldIndex(version: number): { path: string; old: DatabaseSync } {
  const path = join(tempDir("deja-schema-"), "index.db");
  const old = new DatabaseSync(path);
  for (const m of MIGRATIONS.slice(0, version)) old.exec(m);
  old.exec(`PRAGMA user_version = ${version}`);
  return { path, old };
}

Deno.test("opening a schema 7 index narrows events_call to results and keeps every row", () => {
  const { path, old } = oldIndex(7);
  callAndResult(old);
  assertEquals(entries(old, "events_call"), 2);
  old.close();
  const s = Store.open(path);
  try {
    assertEquals(userVersion(s.db), SCHEMA_VERSION);
    assertEquals(entries(s.db, "events_call"), 1);
    assertEquals((s.db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n, 2);
    const found = s.db.prepare(Q.resultForCall.sql).get(1, "c1") as { data: string };
    assertEquals(found.data, '{"exit":2}');
  } finally {
    s.close();
  }
});

Deno.test("opening a schema 8 index adds time_from_file and marks sessions dated by their file", () => {
  const { path, old } = oldIndex(8);
  // A Kimi context file read before schema 9: the session's time is its source's mtime.
  old.exec(`INSERT INTO sources (path, harness, kind, mtime) VALUES
    ('/k/context.jsonl', 'kimi', 'append', 1795000000123),
    ('/c/s.jsonl', 'claude', 'append', 1795000000123)`);
  old.exec(`INSERT INTO sessions (harness, native_id, started, updated, source) VALUES
    ('kimi', 'k', NULL, 1795000000123, '/k/context.jsonl'),
    ('claude', 'c', 1794000000000, 1795000000123, '/c/s.jsonl'),
    ('kimi', 'w', 1794000000000, 1794000000500, '/k/context.jsonl')`);
  old.close();
  const s = Store.open(path);
  try {
    assertEquals(userVersion(s.db), SCHEMA_VERSION);
    const rows = s.db.prepare("SELECT native_id, time_from_file FROM sessions ORDER BY id").all();
    assertEquals(rows.map((r) => ({ ...r })), [
      { native_id: "k", time_from_file: 1 },
      { native_id: "c", time_from_file: 0 }, // a harness that records times is left alone
      { native_id: "w", time_from_file: 0 },
    ]);
  } finally {
    s.close();
  }
});

Deno.test("opening a schema 11 index adds the model columns and keeps every row", () => {
  const { path, old } = oldIndex(11);
  callAndResult(old);
  old.close();
  const s = Store.open(path);
  try {
    assertEquals(userVersion(s.db), SCHEMA_VERSION);
    const rows = s.db.prepare("SELECT model FROM events ORDER BY seq").all();
    assertEquals(rows.map((r) => r.model), [null, null]);
    assertEquals(s.db.prepare("SELECT models FROM sessions").get()?.models, null);
    const index = s.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events_model'").get();
    assertEquals(typeof index?.sql, "string");
  } finally {
    s.close();
  }
});

Deno.test("a first build's writer skips fsync; any other run's writer keeps NORMAL", () => {
  const dir = tempDir();
  const sync = (firstBuild: boolean) => {
    const store = Store.open(join(dir, `${firstBuild}.db`), { create: true });
    try {
      applyWriterSettings(store.db, firstBuild);
      return (store.db.prepare("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    } finally {
      store.close();
    }
  };
  assertEquals(sync(true), 0); // OFF
  assertEquals(sync(false), 1); // NORMAL, as every connection opens
});

Deno.test("migrations read the version again under the lock: a file another process migrated is left as it is", () => {
  // A search that starts a first build in the background and opens the index beside it both
  // read version 0; the second ran migration 0 again ("table sessions already exists").
  const path = join(tempDir("deja-migrate-"), "index.db");
  const store = Store.open(path, { create: true });
  store.close();
  const db = new DatabaseSync(path);
  try {
    migrateFrom(db, 0); // the version this process read before the other migrated
    const v = db.prepare("PRAGMA user_version").get() as { user_version: number };
    assertEquals(v.user_version, SCHEMA_VERSION);
  } finally {
    db.close();
  }
});
