/**
 * The index file written again whole (VACUUM), so that no byte of text it no longer holds
 * stays in it. Secure delete zeroes the cells deleted while it is on, not the stale copies
 * earlier writes left in the free space of pages still in use (a row rewritten or deleted by
 * an older deja), nor pages freed before it: only a rewrite clears those. The copy is built
 * in a temporary file beside the system's, not in memory, whatever the index's size. Call
 * with the writer lock held and no transaction open.
 *
 * @module
 */
import type { Store } from "./store.ts";

export function rewriteFile(store: Store): void {
  store.db.exec("PRAGMA temp_store = FILE");
  try {
    store.db.exec("VACUUM");
  } finally {
    store.db.exec("PRAGMA temp_store = MEMORY");
  }
}
