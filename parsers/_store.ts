/**
 * The opening every SQLite-backed parser does the same way: a missing or
 * 0-byte store is counted as `empty` (and keeps the old watermark), any
 * other {@link StoreError} (`locked`, `corrupt`, `unreadable`) is thrown so
 * the indexer reports the source; the schema check that follows is the
 * parser's own.
 *
 * @module
 */
import type { ParseCtx } from "../lib/model.ts";
import { openStore, StoreError, type StoreHandle } from "./_sqlite.ts";

/**
 * Opens `path` read-only through {@link openStore}, or returns undefined
 * after counting `empty` for a missing or 0-byte file.
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
