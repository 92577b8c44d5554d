/**
 * The index: a SQLite file with FTS5, private to its user.
 *
 * Location: `${DEJA_HOME:-${XDG_DATA_HOME:-~/.local/share}/deja}/index.db`,
 * directory mode 0700, file mode 0600 (its -wal and -shm inherit the mode).
 * The store knows SQL and nothing about formats.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "./model.ts";
import { MIGRATIONS, PRAGMAS, Q, SCHEMA_VERSION } from "./schema.ts";
import { expandHome } from "../parsers/_roots.ts";

/** The deja data directory for `env`. */
export function dataDir(env: Env): string {
  const d = env.get("DEJA_HOME");
  if (d) return expandHome(env, d);
  return join(expandHome(env, env.get("XDG_DATA_HOME") ?? "~/.local/share"), "deja");
}

/** Path of the index file. */
export function indexPath(env: Env): string {
  return join(dataDir(env), "index.db");
}

/** An error a command reports with a hint. */
export class DejaError extends Error {
  constructor(message: string, readonly hint?: string, readonly exitCode = 2) {
    super(message);
  }
}

/** An open index with its prepared statements. */
export class Store {
  readonly db: DatabaseSync;
  private cache = new Map<string, StatementSync>();

  private constructor(db: DatabaseSync, readonly path: string) {
    this.db = db;
  }

  /**
   * Opens (creating when `create`) the index at `path`, applying pragmas and
   * migrations. `:memory:` opens a private in-memory index (a scratch store).
   *
   * With `readOnly` the file is opened read-only, never migrated and never
   * created, and a busy index is waited on for `busyMs` milliseconds (default
   * 5000) — what a hook needs: it reads an index another process writes.
   *
   * @throws {DejaError} when the index is missing and `create` is false, when it
   *   was written by a newer deja (or, read-only, by an older one), or when it is
   *   not a SQLite file.
   */
  static open(
    path: string,
    opts: { create?: boolean; readOnly?: boolean; busyMs?: number } = {},
  ): Store {
    const memory = path === ":memory:";
    let fresh = memory;
    if (!memory) {
      try {
        statSync(path);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code !== "ENOENT") {
          throw new DejaError(
            `cannot read the index ${path}: ${code ?? (e as Error).message}`,
            undefined,
            2,
          );
        }
        fresh = true;
      }
    }
    if (fresh && !memory && (!opts.create || opts.readOnly)) {
      throw new DejaError(`no index at ${path}`, "run 'deja index' first", 2);
    }
    if (fresh && !memory) makeDataDir(join(path, ".."));
    const busy = Math.max(0, Math.floor(opts.busyMs ?? 5000));
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(
        path,
        { timeout: busy, ...(opts.readOnly ? { readOnly: true } : {}) } as ConstructorParameters<
          typeof DatabaseSync
        >[1],
      );
      if (fresh && !memory) chmodSync(path, 0o600);
      db.exec(`PRAGMA busy_timeout = ${busy}`);
      for (const p of PRAGMAS) {
        if (opts.readOnly && /journal_mode/.test(p)) continue; // a write; the indexer set it
        db.exec(p);
      }
    } catch (e) {
      throw new DejaError(
        `cannot open the index ${path}: ${(e as Error).message}`,
        "run 'deja index --rebuild' to start a new one",
      );
    }
    const store = new Store(db, path);
    try {
      store.migrate(Boolean(opts.readOnly));
    } catch (e) {
      store.close();
      throw e;
    }
    return store;
  }

  private migrate(readOnly: boolean): void {
    let version: number;
    try {
      version = (this.db.prepare("PRAGMA user_version").get() as { user_version: number })
        .user_version;
    } catch (e) {
      throw new DejaError(
        `the index ${this.path} is unreadable: ${(e as Error).message}`,
        "run 'deja index --rebuild' to start a new one",
      );
    }
    if (version > SCHEMA_VERSION) {
      throw new DejaError(
        `the index was written by a newer deja (schema ${version}, this one knows ${SCHEMA_VERSION})`,
        "upgrade deja, or run 'deja index --rebuild'",
      );
    }
    if (readOnly && version < SCHEMA_VERSION) {
      throw new DejaError(
        `the index was written by an older deja (schema ${version}, this one knows ${SCHEMA_VERSION})`,
        "run 'deja index' to upgrade it",
      );
    }
    for (let v = version; v < SCHEMA_VERSION; v++) {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        this.db.exec(MIGRATIONS[v]);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
        this.db.exec("COMMIT");
      } catch (e) {
        this.db.exec("ROLLBACK");
        throw e;
      }
    }
  }

  /** A cached prepared statement for SQL text (use the named queries in schema.ts). */
  stmt(sql: string): StatementSync {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE), rolled back on error. */
  tx<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      this.db.exec("COMMIT");
      return out;
    } catch (e) {
      try {
        this.db.exec("ROLLBACK");
      } catch { /* already rolled back */ }
      throw e;
    }
  }

  /** Counts for `deja sources` and `deja stats`. */
  stats(): { sessions: number; events: number; sources: number } {
    return this.stmt(Q.stats).get() as { sessions: number; events: number; sources: number };
  }

  close(): void {
    this.cache.clear();
    try {
      this.db.close();
    } catch { /* already closed */ }
  }
}

/**
 * Creates the data directory (mode 0700).
 *
 * @throws {DejaError} naming the directory and the reason when it cannot be made.
 */
export function makeDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).message;
    throw new DejaError(
      `cannot create the index directory ${dir}: ${code}`,
      "set DEJA_HOME to a directory you can write",
      2,
    );
  }
}

/** Removes the index files (for `deja index --rebuild`). */
export function removeIndex(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
}

/**
 * Holds the one-writer lock (a SQLite EXCLUSIVE lock on `index.lock` beside
 * the index; the OS releases it if the process dies).
 *
 * @param waitMs how long to wait for another writer, in milliseconds.
 * @throws {DejaError} "the index is busy" when another `deja index` holds it.
 */
export function acquireWriterLock(dir: string, waitMs: number): { release(): void } {
  makeDataDir(dir);
  const path = join(dir, "index.lock");
  const fresh = !existsSync(path);
  const db = new DatabaseSync(
    path,
    { timeout: waitMs } as ConstructorParameters<
      typeof DatabaseSync
    >[1],
  );
  if (fresh) chmodSync(path, 0o600);
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db.close();
    throw new DejaError(
      "the index is busy: another 'deja index' is writing it",
      "wait for it to finish, or run again with --wait <seconds>",
      2,
    );
  }
  return {
    release() {
      try {
        db.exec("COMMIT");
      } catch { /* nothing held */ }
      db.close();
    },
  };
}
