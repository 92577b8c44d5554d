/**
 * Opening a harness's SQLite store without ever writing to it.
 *
 * - A missing or empty (0-byte) file is never opened: SQLite would create it.
 *   Anything but a regular file (a FIFO, a link to a device) is refused
 *   (core/fsread.ts) before a byte is read.
 * - The store is opened read-only with a busy timeout (`busyMs`, else
 *   `DEJA_SQLITE_TIMEOUT_MS`, default 3000 ms), so a harness mid-write delays
 *   us briefly and a store held locked is reported, not waited on forever. The
 *   hooks pass a short one.
 * - A WAL-mode store is read in place whenever that writes nothing. Checked on
 *   Deno 2.9 and Bun 1.4 (node:sqlite, SQLite 3.5x): a plain read-only open
 *   creates `-wal` and `-shm` when they are missing, so:
 *   - no `-wal` beside it (the harness closed it cleanly, everything is in the
 *     main file): opened `immutable=1` — no locks, no `-wal`/`-shm`. A writer
 *     that starts meanwhile writes to a new `-wal`, which this read does not
 *     see (the next index does);
 *   - `-wal` and `-shm` both there (the harness is running, or was killed):
 *     opened `mode=ro&readonly_shm=1` — the `-shm` is opened read-only and
 *     SQLite builds its wal-index in private memory, so rows that live only in
 *     the WAL are read and the files beside the store are not written;
 *   - `-wal` without `-shm` (a crash, or a writer in exclusive locking mode):
 *     nothing in place would leave the directory untouched, so the db and its
 *     `-wal` are copied to deja's own temp dir (`$TMPDIR/deja-<uid>/store-<pid>-*`)
 *     and the copy is read. `copy: false` (the hooks) refuses instead. Copies
 *     left by a killed run are removed by the next run ({@link sweepCopies});
 *     the `deja-<uid>` directory goes with the last copy in it.
 *     A store over `DEJA_SQLITE_COPY_MAX` bytes (default 4 GiB) is read in
 *     place read-only, which may create the `-shm`.
 * - A rollback-journal store is read in place: its readers only take shared
 *   locks, which write nothing.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, join } from "node:path";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import type { DriftKind, Env, ParseCtx } from "./model.ts";
import { kindOf, NotRegularFileError, readHeadSync } from "./fsread.ts";
import { pid, pidAlive, uid } from "./runtime.ts";
import { salvaging } from "./sqlite_salvage.ts";
import { allRows } from "./sqlite_rows.ts";

/** A read-only handle; call `close()` when done (removes any private copy). */
export interface StoreHandle {
  db: DatabaseSync;
  /** True when a private copy is being read. */
  snapshot: boolean;
  close(): void;
}

/** How {@link openStore} may open a store. */
export interface OpenOptions {
  /** Busy timeout in milliseconds (default `DEJA_SQLITE_TIMEOUT_MS`, else 3000). */
  busyMs?: number;
  /** False: never copy a WAL store (the hooks); one that needs a copy is `unreadable`. */
  copy?: boolean;
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
  const head = readHeadSync(path, 20);
  // Bytes 18 and 19 of the header are the read/write format versions: 2 = WAL.
  return head.length === 20 && head[18] === 2;
}

/**
 * SQLite's word for a store whose last write its harness left unfinished (a hot
 * `-journal` beside it, from a crash): a read-only connection cannot roll it back.
 */
const HOT_JOURNAL = "readonly database";

/**
 * The message of opening store `path` failed with `e`: SQLite's own, but for a hot
 * journal, which it names as "attempt to write a readonly database" as if deja had
 * tried to write the store (trial 26).
 */
export function openFailure(path: string, e: unknown): string {
  const msg = String((e as Error)?.message ?? e);
  if (msg.toLowerCase().includes(HOT_JOURNAL) && existsSync(`${path}-journal`)) {
    return `${path}: its harness left a write unfinished (${basename(path)}-journal); ` +
      "deja reads stores read-only and never rolls one back: it is read once the harness " +
      "opens it again";
  }
  return `${path}: ${msg}`;
}

/** Classifies a node:sqlite error. */
export function classify(e: unknown): "locked" | "corrupt" | "unreadable" {
  const msg = String((e as Error)?.message ?? e).toLowerCase();
  if (msg.includes("locked") || msg.includes("busy") || msg.includes(HOT_JOURNAL)) {
    return "locked";
  }
  if (msg.includes("not a database") || msg.includes("malformed") || msg.includes("corrupt")) {
    return "corrupt";
  }
  return "unreadable";
}

/** deja's own directory for private store copies (under `env`'s TMPDIR when it names one). */
export function copiesDir(env?: Env): string {
  return join(env?.get("TMPDIR") ?? tmpdir(), `deja-${uid()}`);
}

/**
 * Removes the store copies of runs that are gone (a `deja index` or hook
 * killed before it could clean up): every `store-<pid>-*` in
 * {@link copiesDir} whose process no longer exists. Returns how many.
 */
export function sweepCopies(env?: Env): number {
  let n = 0;
  let names: string[] = [];
  const dir = copiesDir(env);
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = /^store-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === pid() || pidAlive(Number(m[1]))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    n++;
  }
  return n;
}

let swept = false;

/** Copies `path` and its `-wal` into a fresh private directory; returns the copy's path. */
function copyStore(path: string, env: Env): { target: string; dir: string } {
  if (!swept) {
    swept = true;
    sweepCopies(env);
  }
  const dir = copyDir(env);
  const target = join(dir, basename(path));
  try {
    copyFileSync(path, target);
    copyFileSync(`${path}-wal`, `${target}-wal`);
  } catch (e) {
    removeCopy(dir, env);
    throw e;
  }
  return { target, dir };
}

/**
 * A fresh `store-<pid>-*` directory under {@link copiesDir}, which is made when
 * missing; a few tries, since another run removes the copies directory once
 * it is empty ({@link removeCopy}).
 */
function copyDir(env: Env): string {
  for (let i = 0;; i++) {
    mkdirSync(copiesDir(env), { recursive: true, mode: 0o700 });
    try {
      return mkdtempSync(join(copiesDir(env), `store-${pid()}-`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || i >= 4) throw e;
    }
  }
}

/** Removes one copy, and the copies directory with it when no other copy is left there. */
function removeCopy(dir: string, env: Env): void {
  rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(copiesDir(env));
  } catch { /* another copy is in it, or it is gone */ }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

type Plan = { kind: "plain" } | { kind: "uri"; query: string } | { kind: "copy" };

/** How to open a store that passed the regular-file check (see the module doc). */
function plan(path: string, size: number, env: Env): Plan {
  if (!walMode(path)) return { kind: "plain" };
  if (!existsSync(`${path}-wal`)) return { kind: "uri", query: "mode=ro&immutable=1" };
  if (existsSync(`${path}-shm`)) return { kind: "uri", query: "mode=ro&readonly_shm=1" };
  const copyMax = Number(env.get("DEJA_SQLITE_COPY_MAX") ?? 4 * 2 ** 30);
  return size + sizeOf(`${path}-wal`) > copyMax ? { kind: "plain" } : { kind: "copy" };
}

function connect(target: string, query: string | undefined, busyMs: number): DatabaseSync {
  const name = query ? `${pathToFileURL(target).href}?${query}` : target;
  const db = new DatabaseSync(
    name,
    { readOnly: true, timeout: busyMs } as ConstructorParameters<typeof DatabaseSync>[1],
  );
  try {
    // node:sqlite in Deno 2.9 ignores the constructor's timeout: set it as a pragma.
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyMs))}`);
    // Touch the schema now so a corrupt or locked file fails here, not mid-parse.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Opens `path` read-only (see the module doc for WAL stores).
 *
 * @throws {StoreError} `empty` for a missing or 0-byte file; `unreadable` for
 *   something that is not a regular file, or a store that would need a copy
 *   when `opts.copy` is false; `corrupt`, `locked` or `unreadable` when SQLite
 *   refuses it.
 */
export function openStore(path: string, env: Env, opts: OpenOptions = {}): StoreHandle {
  let size = 0;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new NotRegularFileError(path, kindOf(st));
    size = st.size;
  } catch (e) {
    if (e instanceof NotRegularFileError) throw new StoreError(e.message, "unreadable");
    throw new StoreError(`${path} does not exist`, "empty");
  }
  if (size === 0) throw new StoreError(`${path} is empty (0 bytes)`, "empty");
  const busyMs = opts.busyMs ?? Number(env.get("DEJA_SQLITE_TIMEOUT_MS") ?? 3000);
  let how: Plan;
  try {
    how = plan(path, size, env);
  } catch (e) {
    throw new StoreError(`${path}: ${(e as Error).message}`, "unreadable");
  }
  if (how.kind === "uri") {
    try {
      const db = connect(path, how.query, busyMs);
      return { db, snapshot: false, close: () => closeQuietly(db) };
    } catch (e) {
      if (classify(e) !== "unreadable") {
        throw new StoreError(openFailure(path, e), classify(e));
      }
      how = { kind: "copy" }; // an -shm SQLite cannot use read-only (an old crash): read a copy
    }
  }
  if (how.kind === "plain") {
    try {
      const db = connect(path, undefined, busyMs);
      return { db, snapshot: false, close: () => closeQuietly(db) };
    } catch (e) {
      throw new StoreError(openFailure(path, e), classify(e));
    }
  }
  if (opts.copy === false) {
    throw new StoreError(`${path}: a WAL store that can only be read from a copy`, "unreadable");
  }
  let copy: { target: string; dir: string };
  try {
    copy = copyStore(path, env);
  } catch (e) {
    throw new StoreError(`${path}: ${(e as Error).message}`, "unreadable");
  }
  const cleanup = () => removeCopy(copy.dir, env);
  let db: DatabaseSync;
  try {
    db = connect(copy.target, undefined, busyMs);
  } catch (e) {
    cleanup();
    throw new StoreError(`${path}: ${(e as Error).message}`, classify(e));
  }
  return {
    db,
    snapshot: true,
    close() {
      closeQuietly(db);
      cleanup();
    },
  };
}

function closeQuietly(db: DatabaseSync): void {
  try {
    db.close();
  } catch { /* already closed */ }
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
  const rows = allRows<ColumnInfo>(
    db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`),
    table,
  );
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
 * {@link openStore}, with the damaged-page salvage of core/sqlite_salvage.ts:
 * the handle's queries yield the rows still readable, and each unreadable run
 * of rows is a `corrupt` skip given to `ctx.skip`. Every read of a store goes
 * through here (or {@link openOrCountEmpty}), also a discovery's look at a
 * store (pass a `skip` that ignores: the source's own parse counts them).
 *
 * @throws {StoreError} like {@link openStore}.
 */
export function openSalvaged(
  path: string,
  ctx: Pick<ParseCtx, "skip" | "env">,
  opts: OpenOptions = {},
): StoreHandle {
  const h = openStore(path, ctx.env, opts);
  const s = salvaging(h.db, path, ctx);
  return {
    db: s.db,
    snapshot: h.snapshot,
    close() {
      h.close();
      s.copy()?.close();
    },
  };
}

/**
 * Opens `path` read-only through {@link openStore} the way every SQLite parser
 * wants it: a missing or 0-byte store is counted as `empty` (the watermark
 * kept) and gives undefined; any other {@link StoreError} (`locked`,
 * `corrupt`, `unreadable`) is thrown so the indexer reports the source.
 * A store whose pages turn out damaged mid-read yields the rows still
 * readable, the rest counted as `corrupt` skips (core/sqlite_salvage.ts).
 *
 * @throws {StoreError} `locked`, `corrupt` or `unreadable`.
 */
export function openOrCountEmpty(path: string, ctx: ParseCtx): StoreHandle | undefined {
  try {
    return openSalvaged(path, ctx);
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

/**
 * The `id` of every row of `table` (that `where` keeps), as text ({@link ParseCtx.endHolds}); undefined when
 * the table cannot be read whole, so that no session goes for a list cut short.
 */
export function heldIds(
  db: DatabaseSync,
  table: string,
  where?: string,
): string[] | undefined {
  try {
    const out: string[] = [];
    for (
      const r of db.prepare(`SELECT id FROM "${table}"${where ? ` WHERE ${where}` : ""}`).iterate()
    ) {
      const id = (r as { id: unknown }).id;
      if (typeof id === "string") out.push(id);
      else if (typeof id === "number" || typeof id === "bigint") out.push(String(id));
    }
    return out;
  } catch {
    return undefined;
  }
}
