/**
 * Rows of a harness's SQLite store, typed. node:sqlite returns each row as a
 * plain object of SQLite values; the shape a harness's schema gives it is
 * declared at the call site (`allRows<MessageRow>(stmt, id)`) and this module
 * holds the one cast that says so. deja's own index uses the typed queries of
 * lib/sql.ts instead.
 *
 * ```ts
 * const rows = allRows<{ id: string }>(db.prepare("SELECT id FROM sessions"));
 * ```
 *
 * @module
 */
import type { SQLInputValue, StatementSync } from "node:sqlite";

/**
 * Every row of `stmt` run with `params`, as `T`. The single cast of harness
 * store rows: `T` is what the SQL selects (columns a harness may lack are typed
 * `unknown` by the caller and checked before use).
 */
export function allRows<T>(stmt: StatementSync, ...params: SQLInputValue[]): T[] {
  return stmt.all(...params) as T[];
}

/** The first row of `stmt` run with `params`, as `T` (see {@link allRows}), or undefined. */
export function getRow<T>(stmt: StatementSync, ...params: SQLInputValue[]): T | undefined {
  return stmt.get(...params) as T | undefined;
}
