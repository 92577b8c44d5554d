/**
 * Typed queries, in the style of generated query files: each query declares
 * its SQL, the names of its parameters in the order of the `?` marks, and the
 * type of its rows, together. Call sites pass a params object and get typed
 * rows back; the one cast from SQLite's row objects lives here.
 *
 * ```ts
 * const byId = query<{ id: number }, { title: string | null }>(
 *   "SELECT title FROM sessions WHERE id = ?", ["id"]);
 * byId.get(store, { id: 1 })?.title;
 * ```
 *
 * @module
 */
import type { SQLInputValue, StatementSync } from "node:sqlite";
import { trace, tracing } from "../core/trace.ts";

/** Runs `f` and writes its time, rows and SQL (the query trace, core/trace.ts). */
function timed<X>(sql: string, f: () => X): X {
  const t = performance.now();
  const x = f();
  const ms = (performance.now() - t).toFixed(1);
  const n = Array.isArray(x) ? x.length : Number(x !== undefined);
  trace(`  sql ${ms} ms, ${n} rows: ${sql.replace(/\s+/g, " ").slice(0, 100)}`);
  return x;
}

/** What runs a query: a store (its cached prepared statements) or anything with `stmt`. */
export interface Prepares {
  /** A prepared statement for `sql`. */
  stmt(sql: string): StatementSync;
}

/** Named parameters of a query: an object (or interface) of SQLite values. */
export type Params<P = Record<string, SQLInputValue>> = { [K in keyof P]: SQLInputValue };

/** No parameters. */
export type NoParams = Record<string, never>;

/** A query with its SQL, parameter names (one per `?`, in order) and row type. */
export interface Query<P extends Params<P>, R> {
  /** The SQL text (prepared against a fresh schema by tests/schema_test.ts). */
  readonly sql: string;
  /** Parameter names in the order of the `?` marks (a name may repeat). */
  readonly params: readonly (keyof P & string)[];
  /** Every row. */
  all(db: Prepares, p: P): R[];
  /** The first row, or undefined. */
  get(db: Prepares, p: P): R | undefined;
  /** The rows one at a time. */
  iterate(db: Prepares, p: P): IterableIterator<R>;
  /** Runs a statement that returns no rows. */
  run(db: Prepares, p: P): { changes: number | bigint; lastInsertRowid: number | bigint };
  /**
   * This query with `tail` appended: filters built at run time (search), the
   * one place SQL text is assembled. `args` bind the `?` marks of `tail`, after
   * the query's own parameters.
   *
   * @throws {Error} when the number of `args` differs from the `?` marks of `tail`.
   */
  extend(tail: string, args: readonly SQLInputValue[]): Query<P, R>;
}

/** The number of `?` marks of `sql` outside string literals. */
export function marks(sql: string): number {
  return sql.replace(/'(?:[^']|'')*'/g, "''").split("?").length - 1;
}

function refuseMarks(sql: string, names: number): void {
  const n = marks(sql);
  if (n !== names) throw new Error(`query has ${n} parameters but ${names} names: ${sql}`);
}

/**
 * Declares a query. `params` names each `?` of `sql` in order.
 *
 * The count is checked when the query first runs, not when it is declared: a cold search
 * loads some 200 declarations and runs 30 (counting them all took 3.5 ms of a cold
 * `deja <word>` in the Bun binary, issue 15). tests/schema_test.ts checks every query of
 * {@link Q} up front.
 *
 * @throws {Error} (on its first run) when the number of names differs from the number of
 * `?` marks.
 */
export function query<P extends Params<P> = NoParams, R = never>(
  sql: string,
  params: readonly (keyof P & string)[] = [],
): Query<P, R> {
  return make(sql, params, [], true);
}

function make<P extends Params<P>, R>(
  sql: string,
  params: readonly (keyof P & string)[],
  extra: readonly SQLInputValue[],
  unchecked = false,
): Query<P, R> {
  // Most queries have no bound tail: their arguments are the one array the map makes.
  const args = extra.length
    ? (p: P) => [...params.map((k) => p[k]), ...extra]
    : (p: P) => params.map((k) => p[k]);
  const stmt = (db: Prepares) => {
    if (unchecked) {
      refuseMarks(sql, params.length);
      unchecked = false;
    }
    return db.stmt(sql);
  };
  return {
    sql,
    params,
    // Timed only with the trace on: the indexer's calls stay as they were.
    all: tracing
      ? (db, p) => timed(sql, () => stmt(db).all(...args(p)) as R[])
      : (db, p) => stmt(db).all(...args(p)) as R[],
    get: tracing
      ? (db, p) => timed(sql, () => stmt(db).get(...args(p)) as R | undefined)
      : (db, p) => stmt(db).get(...args(p)) as R | undefined,
    iterate: (db, p) => stmt(db).iterate(...args(p)) as IterableIterator<R>,
    run: (db, p) => stmt(db).run(...args(p)),
    extend(tail, more) {
      const n = marks(tail);
      if (n !== more.length) {
        throw new Error(`query tail has ${n} parameters but ${more.length} arguments: ${tail}`);
      }
      if (unchecked) refuseMarks(sql, params.length);
      return make<P, R>(sql + tail, params, [...extra, ...more]);
    },
  };
}
