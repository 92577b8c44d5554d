/**
 * Reading what is still readable out of a SQLite store with damaged pages.
 *
 * A parser queries its store through the handle {@link openOrCountEmpty}
 * (core/sqlite_read.ts) gives it. That handle's `db` is {@link salvaging}: the
 * store itself until a query fails on corruption ("database disk image is
 * malformed"). Then, once, every table is copied row by row into a private
 * in-memory database ({@link recover}) and that query, and every later one,
 * runs on the copy. A table is read in rowid windows: a window that fails is
 * halved around the damage until only the rowids no read can reach are left.
 * A window can also end early with no error (a damaged cell whose rowid reads
 * past the window's end stops the scan), so every rowid the table's own scan
 * or one of its indexes still names, and no window gave, is then looked up
 * alone. Each run of rows still unread is counted as one `corrupt` skip.
 * Indexes are rebuilt on the copy, so a damaged index costs no row.
 *
 * Limits: a store cut short whose header still counts the lost pages is
 * refused by SQLite at open (node:sqlite runs in defensive mode, so
 * `writable_schema` cannot lift that) and stays a `corrupt` source error; a
 * store over `DEJA_SQLITE_SALVAGE_MAX` bytes (default 512 MiB) is not copied
 * (the query's error stands); rowids beyond ±2^53 are not searched; a
 * `WITHOUT ROWID` table is copied whole or skipped whole; virtual
 * tables (FTS) are left out. Nothing is ever written to the store.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { statSync } from "node:fs";
import { allRows } from "./sqlite_rows.ts";
import type { Env, ParseCtx } from "./model.ts";

/** Queries one table may spend on bisecting around damage. */
const BUDGET = 4000;
const EDGE = 2 ** 53;

/** True when `e` is SQLite reporting a damaged file. */
export function isCorrupt(e: unknown): boolean {
  const msg = String((e as Error)?.message ?? e).toLowerCase();
  return msg.includes("malformed") || msg.includes("corrupt") || msg.includes("not a database");
}

const q = (id: string) => `"${id.replaceAll('"', '""')}"`;

interface Master {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/**
 * Copies the readable rows of one rowid table; returns the unreadable rowid
 * runs, in rowid order. `indexes` are the table's indexes, each a second
 * account of which rows the table holds ({@link rowidsNamed}).
 */
function copyTable(
  src: DatabaseSync,
  mem: DatabaseSync,
  table: string,
  indexes: readonly string[],
): Array<[number, number]> {
  const cols = (src.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<
    { name: string }
  >).map((c) => c.name);
  const list = cols.map(q).join(", ");
  const read = src.prepare(
    `SELECT rowid AS __deja_rid, ${list} FROM ${
      q(table)
    } WHERE rowid BETWEEN ? AND ? ORDER BY rowid`,
  );
  // One rowid by equality: a range scan steps onto the next row (maybe a damaged page) to end.
  const one = src.prepare(`SELECT rowid AS __deja_rid, ${list} FROM ${q(table)} WHERE rowid = ?`);
  const put = mem.prepare(
    `INSERT OR IGNORE INTO ${q(table)} (rowid, ${list}) VALUES (?${", ?".repeat(cols.length)})`,
  );
  const got = new Set<number>();
  const keep = (rows: Array<Record<string, unknown>>) => {
    for (const row of rows) {
      const rid = Number(row.__deja_rid);
      got.add(rid);
      put.run(rid, ...cols.map((c) => row[c] as never));
    }
  };
  let lo = -EDGE, hi = EDGE;
  try {
    const b = src.prepare(`SELECT min(rowid) AS a, max(rowid) AS b FROM ${q(table)}`).get() as {
      a: number | null;
      b: number | null;
    };
    if (b.a === null || b.b === null) return [];
    [lo, hi] = [b.a, b.b];
  } catch { /* an edge page is damaged: search the whole range */ }
  const bad: Array<[number, number]> = [];
  let spent = 0;
  const stack: Array<[number, number]> = [[lo, hi]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    if (a > b) continue;
    if (++spent > BUDGET) {
      bad.push([a, b]);
      continue;
    }
    let rows: Array<Record<string, unknown>>;
    try {
      // Whole windows: an iterator stops at a damaged page without an error (node:sqlite).
      rows = (a === b ? one.all(a) : read.all(a, b)) as Array<Record<string, unknown>>;
    } catch (e) {
      if (!isCorrupt(e)) throw e;
      if (a === b) bad.push([a, b]);
      else {
        const mid = Math.floor(a / 2 + b / 2);
        stack.push([mid + 1, b], [a, mid]);
      }
      continue;
    }
    keep(rows);
  }
  // A window can also end early without an error: a damaged cell whose rowid reads past the
  // window's end stops the scan there (a real Crush store: 100 of 223 messages, nothing said).
  // Every row the table's own scan or an index still names, and no window gave, is looked up
  // by its rowid; what that cannot read is unreadable too.
  const searched = runs(bad);
  let k = 0; // rowids come sorted: one walk along the runs the search marked
  let looked = 0;
  for (const r of rowidsNamed(src, table, indexes)) {
    while (k < searched.length && searched[k][1] < r) k++;
    if (got.has(r) || (k < searched.length && searched[k][0] <= r)) continue;
    if (++looked > BUDGET) {
      bad.push([r, r]);
      continue;
    }
    try {
      const rows = one.all(r) as Array<Record<string, unknown>>;
      if (rows.length) keep(rows);
      else bad.push([r, r]);
    } catch (e) {
      if (!isCorrupt(e)) throw e;
      bad.push([r, r]);
    }
  }
  return runs(bad);
}

/**
 * The rowids `table` names in its own scan and in each of `indexes` (a
 * covering index scan reads the index alone), sorted; a scan that stops at
 * damage gives what it read before, an index the planner cannot use (a
 * partial one) gives none.
 */
function rowidsNamed(src: DatabaseSync, table: string, indexes: readonly string[]): number[] {
  const out = new Set<number>();
  // `+rowid` keeps the planner from seeking: a seek is what a damaged cell's rowid misleads.
  const where = `WHERE +rowid BETWEEN ${-EDGE + 1} AND ${EDGE - 1}`;
  const scans = [
    `SELECT rowid AS r FROM ${q(table)} NOT INDEXED ${where}`,
    ...indexes.map((i) => `SELECT rowid AS r FROM ${q(table)} INDEXED BY ${q(i)} ${where}`),
  ];
  for (const sql of scans) {
    try {
      for (const row of src.prepare(sql).iterate() as Iterable<{ r: number }>) out.add(row.r);
    } catch (e) {
      if (isCorrupt(e)) continue; // what it read before the damage is kept
      if (/no query solution|no such index/i.test(String((e as Error)?.message))) continue;
      throw e;
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** Rowid runs sorted and merged where they touch. */
function runs(list: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [a, b] of [...list].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && last[1] + 1 >= a) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * The rows of `table` in the unreadable rowid run `a..b`, in words. A bound at
 * ±2^53 is the search's own edge (the table's first or last rowid could not be
 * read), never shown: such a run reads `rows of t past rowid N`, `rows of t
 * before rowid N` or `some rows of t`.
 */
export function unreadableRows(table: string, a: number, b: number): string {
  if (a <= -EDGE && b >= EDGE) return `some rows of ${table}`;
  if (b >= EDGE) return `rows of ${table} past rowid ${a - 1}`;
  if (a <= -EDGE) return `rows of ${table} before rowid ${b + 1}`;
  return a === b
    ? `the row of ${table} with rowid ${a}`
    : `rows of ${table} with rowids ${a}..${b}`;
}

/**
 * Copies every readable row of `src` into a new in-memory database (see the
 * module doc), counting each unreadable run of rows as a `corrupt` skip.
 *
 * @throws the SQLite error when even the schema cannot be read.
 */
export function recover(
  src: DatabaseSync,
  path: string,
  ctx: Pick<ParseCtx, "skip">,
): DatabaseSync {
  const master = allRows<Master>(
    src.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master`),
  );
  const mem = new DatabaseSync(":memory:");
  // Rows are copied table by table in whatever order, some of them lost: a foreign key must not
  // refuse a child whose parent comes later (or was on the damaged page).
  mem.exec("PRAGMA foreign_keys = OFF");
  const made: string[] = [];
  for (const m of master) {
    if (m.type !== "table" || !m.sql || m.name.startsWith("sqlite_")) continue;
    if (/^\s*create\s+virtual/i.test(m.sql)) continue;
    try {
      mem.exec(m.sql);
      made.push(m.name);
    } catch { /* a shape the copy cannot take: left out */ }
  }
  mem.exec("BEGIN");
  for (const table of made) {
    const sql = master.find((m) => m.name === table)?.sql ?? "";
    if (/without\s+rowid/i.test(sql)) {
      try {
        const rows = src.prepare(`SELECT * FROM ${q(table)}`).all() as Array<
          Record<string, unknown>
        >;
        const cols = Object.keys(rows[0] ?? {});
        if (cols.length) {
          const put = mem.prepare(
            `INSERT OR IGNORE INTO ${q(table)} (${cols.map(q).join(", ")}) VALUES (?${
              ", ?".repeat(cols.length - 1)
            })`,
          );
          for (const r of rows) put.run(...cols.map((c) => r[c] as never));
        }
      } catch (e) {
        if (!isCorrupt(e)) throw e;
        ctx.skip("corrupt", `${path}: ${table}`, "a damaged table without rowids, left out");
      }
      continue;
    }
    const indexes = master.filter((m) => m.type === "index" && m.tbl_name === table)
      .map((m) => m.name);
    for (const [a, b] of copyTable(src, mem, table, indexes)) {
      ctx.skip("corrupt", `${path}: ${unreadableRows(table, a, b)}`, "damaged page, unreadable");
    }
  }
  mem.exec("COMMIT");
  for (const m of master) {
    if ((m.type === "index" || m.type === "view") && m.sql) {
      try {
        mem.exec(m.sql);
      } catch { /* a query that needs it still runs, only slower */ }
    }
  }
  return mem;
}

/** A database that may switch to its salvaged copy; `copy()` is that copy once made. */
export interface Salvaging {
  db: DatabaseSync;
  copy(): DatabaseSync | undefined;
}

/**
 * Wraps an open store so that the first query failing on corruption switches
 * every query, that one included, to a copy of what is still readable (see
 * the module doc). Only `prepare(...).all/get/iterate` are guarded (`iterate`
 * reads through `all`: node:sqlite's iterator stops at a damaged page without
 * an error, which no salvage could see); anything else goes to whichever
 * database is current.
 */
export function salvaging(
  db: DatabaseSync,
  path: string,
  ctx: Pick<ParseCtx, "skip"> & { env: Env },
): Salvaging {
  let current = db;
  let tried = false;
  const max = Number(ctx.env.get("DEJA_SQLITE_SALVAGE_MAX") ?? 512 * 2 ** 20);
  const switchOver = (e: unknown) => {
    if (tried || !isCorrupt(e)) throw e;
    tried = true;
    let size = Infinity;
    try {
      size = statSync(path).size;
    } catch { /* gone: keep the error */ }
    if (size > max) throw e;
    current = recover(db, path, ctx);
  };
  const prepare = (sql: string): StatementSync => {
    const cache = new Map<DatabaseSync, StatementSync>();
    const on = () => {
      let s = cache.get(current);
      if (!s) cache.set(current, s = current.prepare(sql));
      return s;
    };
    const call = (m: "all" | "get", args: unknown[]) => {
      try {
        return (on()[m] as (...a: unknown[]) => unknown)(...args);
      } catch (e) {
        if (current !== db) throw e;
        switchOver(e);
        return (on()[m] as (...a: unknown[]) => unknown)(...args);
      }
    };
    return new Proxy(on(), {
      get(_t, k) {
        if (k === "all" || k === "get") return (...a: unknown[]) => call(k, a);
        // node:sqlite's iterator ends at a damaged page with no error: rows come from `all`.
        if (k === "iterate") {
          return (...a: unknown[]) => (call("all", a) as unknown[])[Symbol.iterator]();
        }
        const s = on() as unknown as Record<PropertyKey, unknown>;
        const v = s[k];
        return typeof v === "function" ? v.bind(s) : v;
      },
    });
  };
  const proxy = new Proxy(db, {
    get(_t, k) {
      if (k === "prepare") return prepare;
      const d = current as unknown as Record<PropertyKey, unknown>;
      const v = d[k];
      return typeof v === "function" ? v.bind(d) : v;
    },
  });
  return { db: proxy, copy: () => (current === db ? undefined : current) };
}
