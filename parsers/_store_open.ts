/**
 * Opening a harness's SQLite store for one parse pass, the way every SQLite
 * parser wants it: a missing or 0-byte file is not an error but an `empty`
 * store (counted, watermark kept), anything else SQLite refuses is thrown.
 *
 * @module
 */
import type { ParseCtx } from "../lib/model.ts";
import { openStore, StoreError, type StoreHandle } from "./_sqlite.ts";

/**
 * {@link openStore} for `path`; undefined (counted `empty`, `ctx.endWatermark`
 * left at `ctx.since`) when the file is missing or empty.
 *
 * @throws {StoreError} `locked`, `corrupt` or `unreadable`.
 */
export function openOrCountEmpty(path: string, ctx: ParseCtx): StoreHandle | undefined {
  try {
    return openStore(path, ctx.env);
  } catch (e) {
    if (e instanceof StoreError && e.reason === "empty") {
      ctx.skip("empty", path);
      ctx.endWatermark = ctx.since;
      return undefined;
    }
    throw e;
  }
}
