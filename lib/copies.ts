/**
 * Sessions that several whole-session stores hold (a Continue file copied
 * under another name, a Crush database copied into another project folder):
 * which copy the index holds, and the stores to read again when it goes.
 *
 * A store of whole sessions (a JSON document, a SQLite database: not an
 * append log, whose sessions may continue in other files) that yields a
 * session the index holds from another store meets it in a contest
 * ({@link copyLoses}): the undamaged copy wins, then the one with more
 * events, then the one updated later; a tie leaves the session where it is.
 * The copy written is written whole (never appended to the other: Continue's
 * events carry no keys, so an appended copy doubled the conversation, trial 9).
 * The stores that hold a session besides the one it is held from are rows
 * of `copies`; when that one is gone, or read again without the session,
 * they are read again whole ({@link releaseCopies}) and the best holds it.
 *
 * @module
 */
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { storeState } from "./gone.ts";
import { damageIn } from "./skips.ts";
import { parseSkipRecord } from "./source_state.ts";

/** A session this pass took from the store the index held it from (or would take). */
export interface Contest {
  /** `harness\u0000native id`. */
  key: string;
  harness: string;
  id: string;
  /** The store the index held it from. */
  holder: string;
  /** Its events there. */
  holderEvents: number;
  /** Epoch ms, as the index held it. */
  holderUpdated?: number;
}

/** Whether the index holds `path` as a store of whole sessions (not an append log). */
export function wholeStore(store: Store, path: string): boolean {
  const kind = Q.sourceByPath.get(store, { path })?.kind;
  return kind !== undefined && kind !== "append";
}

/** Whether the last read of store `path` was damaged (as its source row records). */
export function sourceDamaged(store: Store, path: string): boolean {
  const row = Q.sourceByPath.get(store, { path });
  return !!row && (!!row.error || !!damageIn(parseSkipRecord(row.skipped).counts));
}

/**
 * True when this copy of a contested session loses to the one the index held:
 * that store is still there and (this read was damaged and its read was not,
 * or both alike and this copy has no more events and was not updated later;
 * times taken from a file's mtime do not count).
 */
export function copyLoses(
  store: Store,
  c: Contest,
  mine: { events: number; damaged: boolean; updated?: number },
): boolean {
  if (storeState(c.holder) === "gone") return false;
  const theirs = sourceDamaged(store, c.holder);
  if (mine.damaged !== theirs) return mine.damaged;
  const newer = mine.updated !== undefined && c.holderUpdated !== undefined &&
    mine.updated > c.holderUpdated;
  return mine.events <= c.holderEvents && !newer;
}

/**
 * The stores holding copies of a session whose store no longer holds it: their
 * stamps are reset so that a run reads them again whole. Returns their paths.
 */
export function releaseCopies(store: Store, harness: string, id: string): string[] {
  const out: string[] = [];
  for (const { source } of Q.copiesOf.all(store, { harness, native_id: id })) {
    // A gone store's copy (an append log deleted) has nothing to read again: it stays kept.
    if (storeState(source) === "gone") continue;
    Q.resetSourceStamp.run(store, { path: source });
    out.push(source);
  }
  return out;
}

/**
 * At the start of a run: the copies of sessions held from stores that are gone
 * are read again (their stamps reset), so that a store still holding the
 * session holds it. Returns their paths.
 */
export function releaseGoneHolders(store: Store): string[] {
  const out = new Set<string>();
  const gone = new Map<string, boolean>();
  for (const { holder, source } of Q.copyHolders.all(store, {})) {
    if (!gone.has(holder)) gone.set(holder, storeState(holder) === "gone");
    if (gone.get(holder) && !out.has(source) && storeState(source) !== "gone") {
      Q.resetSourceStamp.run(store, { path: source });
      out.add(source);
    }
  }
  return [...out];
}
