/**
 * Opening a harness's SQLite store without ever writing to it.
 *
 * - A missing or empty (0-byte) file is never opened: SQLite would create it.
 * - The store is opened read-only with a busy timeout (`DEJA_SQLITE_TIMEOUT_MS`,
 *   default 3000 ms), so a harness mid-write delays us briefly and a store held
 *   locked is reported, not waited on forever.
 * - A WAL-mode store cannot be read in place without touching the files beside
 *   it: even a read-only connection creates the `-shm` file when it is missing
 *   and writes its read marks into it. So a WAL-mode store is copied (db and
 *   `-wal`, not `-shm`) to a private temporary directory and the copy is read:
 *   rows that live only in the WAL are still seen and nothing next to the
 *   store changes. Only a store over `DEJA_SQLITE_COPY_MAX` bytes (default
 *   4 GiB) is read in place, read-only.
 * - A rollback-journal store is read in place: its readers only take shared
 *   locks, which write nothing.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { tmpdir } from "node:os";
import type { DriftKind, Env, ParseCtx } from "../lib/model.ts";

/** A read-only handle; call `close()` when done (removes any private copy). */
export interface StoreHandle {
  db: DatabaseSync;
  /** True when a private copy is being read. */
  snapshot: boolean;
  close(): void;
}

/** Why a store could not be opened. */
export class StoreError extends Error {
  constructor(
    message: string,
    /** `empty` (missing or 0 bytes), `locked`, `corrupt`, `unreadable`. */
    readonly reason: "empty" | "locked" | "corrupt" | "unreadable",
  ) {
    super(message);
  }
}

function walMode(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = new Uint8Array(20);
    const n = readSync(fd, head, 0, 20, 0);
    // Bytes 18 and 19 of the header are the read/write format versions: 2 = WAL.
    return n === 20 && head[18] === 2;
  } finally {
    closeSync(fd);
  }
}

function writable(path: string): boolean {
  try {
    return (statSync(path).mode & 0o222) !== 0;
  } catch {
    return false;
  }
}

/** Classifies a node:sqlite error. */
export function classify(e: unknown): "locked" | "corrupt" | "unreadable" {
  const msg = String((e as Error)?.message ?? e).toLowerCase();
  if (msg.includes("locked") || msg.includes("busy")) return "locked";
  if (msg.includes("not a database") || msg.includes("malformed") || msg.includes("corrupt")) {
    return "corrupt";
  }
  return "unreadable";
}

/**
 * Opens `path` read-only.
 *
 * @throws {StoreError} `empty` for a missing or 0-byte file; `corrupt`,
 *   `locked` or `unreadable` when SQLite refuses it.
 */
export function openStore(path: string, env: Env): StoreHandle {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    throw new StoreError(`${path} does not exist`, "empty");
  }
  if (size === 0) throw new StoreError(`${path} is empty (0 bytes)`, "empty");
  const timeout = Number(env.get("DEJA_SQLITE_TIMEOUT_MS") ?? 3000);
  let target = path;
  let tmp: string | undefined;
  try {
    const copyMax = Number(env.get("DEJA_SQLITE_COPY_MAX") ?? 4 * 2 ** 30);
    if (walMode(path)) {
      let walSize = 0;
      try {
        walSize = statSync(`${path}-wal`).size;
      } catch { /* no -wal */ }
      const inPlace = size + walSize > copyMax && writable(dirname(path));
      if (!inPlace) {
        tmp = mkdtempSync(join(tmpdir(), "deja-store-"));
        target = join(tmp, basename(path));
        copyFileSync(path, target);
        try {
          copyFileSync(`${path}-wal`, `${target}-wal`);
        } catch { /* no -wal: nothing beyond the main file */ }
      }
    }
  } catch (e) {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    throw new StoreError(`${path}: ${(e as Error).message}`, "unreadable");
  }
  const cleanup = () => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  let db: DatabaseSync;
  try {
    db = tmp
      ? new DatabaseSync(target, { timeout } as ConstructorParameters<typeof DatabaseSync>[1])
      : new DatabaseSync(
        target,
        { readOnly: true, timeout } as ConstructorParameters<
          typeof DatabaseSync
        >[1],
      );
    // node:sqlite in Deno 2.9 ignores the constructor's timeout: set it as a pragma.
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(timeout))}`);
    // Touch the schema now so a corrupt or locked file fails here, not mid-parse.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (e) {
    cleanup();
    throw new StoreError(`${path}: ${(e as Error).message}`, classify(e));
  }
  return {
    db,
    snapshot: tmp !== undefined,
    close() {
      try {
        db.close();
      } catch { /* already closed */ }
      cleanup();
    },
  };
}

/** Column names of `table` (empty when the table is missing). */
export function columns(db: DatabaseSync, table: string): Set<string> {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<
    { name: string }
  >;
  return new Set(rows.map((r) => r.name));
}

/** Table names of the database. */
export function tables(db: DatabaseSync): Set<string> {
  const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table','view')`)
    .all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** One row of `pragma_table_info`. */
interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

/**
 * Notes every column of `table` that is not in `known` as drift of `kind`
 * (`ctx.drift`), so a parser that names the columns it knows learns of a new
 * schema generation without failing. Each note's sample is the column's schema
 * row and the first non-NULL value among the table's first 1000 rows (redacted
 * and cut down by the context). A missing table notes nothing.
 *
 * @param path the store path, for the locator `<path>: <table>.<column>`.
 * @returns the unknown column names, in table order.
 */
export function noteUnknownColumns(
  db: DatabaseSync,
  ctx: Pick<ParseCtx, "drift">,
  path: string,
  table: string,
  known: ReadonlySet<string>,
  kind: DriftKind,
): string[] {
  const rows = db.prepare(
    `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`,
  ).all(table) as unknown as ColumnInfo[];
  const unknown = rows.filter((r) => !known.has(r.name));
  for (const c of unknown) {
    if (!ctx.drift) break;
    const q = (id: string) => `"${id.replaceAll('"', '""')}"`;
    let example: unknown = null;
    try {
      const row = db.prepare(
        `SELECT v FROM (SELECT ${q(c.name)} AS v FROM ${q(table)} LIMIT 1000)
          WHERE v IS NOT NULL LIMIT 1`,
      ).get() as { v: unknown } | undefined;
      example = row?.v ?? null;
      if (example instanceof Uint8Array) example = `<${example.length} bytes>`;
    } catch { /* the schema row alone shows it */ }
    const sample = {
      table,
      column: c.name,
      type: c.type,
      notnull: c.notnull === 1,
      default: c.dflt_value ?? null,
      example,
    };
    ctx.drift(kind, `${path}: ${table}.${c.name}`, `column ${table}.${c.name}`, sample);
  }
  return unknown.map((c) => c.name);
}

/**
 * Opens `path` read-only through {@link openStore} the way every SQLite parser
 * wants it: a missing or 0-byte store is counted as `empty` (the watermark
 * kept) and gives undefined; any other {@link StoreError} (`locked`,
 * `corrupt`, `unreadable`) is thrown so the indexer reports the source.
 *
 * @throws {StoreError} `locked`, `corrupt` or `unreadable`.
 */
export function openOrCountEmpty(path: string, ctx: ParseCtx): StoreHandle | undefined {
  try {
    return openStore(path, ctx.env);
  } catch (e) {
    if (e instanceof StoreError && e.reason === "empty") {
      ctx.skip("empty", path, e.message);
      ctx.endWatermark = ctx.since;
      return undefined;
    }
    throw e;
  }
}

/** `col` when `have` lists it, else `NULL AS col` (optional columns of older schemas). */
export function colOrNull(have: ReadonlySet<string>, col: string): string {
  return have.has(col) ? col : `NULL AS ${col}`;
}
