/**
 * Forgotten sessions an index holds again. The tombstones file is what was forgotten
 * (./tombstones.ts); the index records in `meta` which state of that file it agrees with
 * ({@link TOMBSTONES_KEY}), written in the same file as the removal. An index that lost
 * writes (its `-wal` deleted while another reader kept it from being copied into the file, a
 * crash, an older copy put back) lost that record with the removal: a forgotten session was
 * found again while `deja index` said "up to date" and doctor "fresh" (trial 111 F3).
 *
 * Every index run, every refresh on use (lib/fresh/freshen.ts) and a no-op `deja index`
 * compare the record with the file's stamp (one row and one stat); when they differ, the
 * sessions the tombstones name are looked up in the index, removed again as `deja forget`
 * removes them, and said. A lost `deja forget --undo` differs from the file too: the sessions
 * it brought back are missing, and the file no longer names them (trial 114 F6: they vanished
 * while `deja index` said "up to date"). So the stores the index holds no session of, and
 * whose sessions the tombstones do not name, are marked to be read again whole: what they hold
 * comes back with the run that follows (the rest of a store is never lost this way).
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { dataDir } from "../../core/paths.ts";
import { removeSessions } from "./forget.ts";
import {
  keyOf,
  readTombstones,
  type Reforgotten,
  tombstoneFile,
  TOMBSTONES_KEY,
  tombstonesAgree,
  tombstoneStamp,
} from "./tombstones.ts";

export type { Reforgotten };

/** Whether the index agrees with the tombstones file as it is now (see the module doc). */
export function tombstonesApplied(store: Store): boolean {
  return tombstonesAgree(Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value, store.path);
}

/** The sessions of the index the tombstones name, with their subagents. */
export function heldForgotten(store: Store): SessionRow[] {
  const list = readTombstones(tombstoneFile(store.path));
  if (!list.length) return [];
  const keys = JSON.stringify(list.map((t) => [t.harness, t.id]));
  const held = Q.sessionsOfKeys.all(store, { keys });
  if (!held.length) return [];
  const byId = new Map(held.map((s) => [s.id, s]));
  for (
    const c of Q.childrenOfMany.all(store, { ids: JSON.stringify([...byId.keys()]) })
  ) byId.set(c.id, c);
  return [...byId.values()];
}

/**
 * Marks to be read again whole the stores the index holds no session of but for those the
 * tombstones name: what an undone forget brought back, when the index lost it (see the module
 * doc). A store forgotten still is left as it is: its sessions would be kept out again.
 */
function rereadEmptied(store: Store): void {
  const forgotten = new Set(
    readTombstones(tombstoneFile(store.path)).map((t) => t.source).filter((s) => s !== null),
  );
  const empty = store.db.prepare(
    `SELECT path FROM sources s WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE source = s.path)`,
  ).all() as { path: string }[];
  for (const { path } of empty) {
    if (!forgotten.has(path)) Q.resetSourceStamp.run(store, { path });
  }
}

/** Records that the index agrees with the tombstones file whose stamp is `stamp`. */
export function recordTombstones(store: Store, stamp = tombstoneStamp(tombstoneFile(store.path))) {
  Q.setMeta.run(store, { key: TOMBSTONES_KEY, value: stamp });
}

/**
 * Removes from the index the forgotten sessions it holds, when its record of the tombstones
 * differs from the file (nothing to do otherwise), and records the file's stamp. Call with
 * the writer lock held, outside a transaction.
 *
 * @returns what was removed, or undefined when nothing was.
 */
export function reapplyTombstones(store: Store): Reforgotten | undefined {
  // The stamp before the file is read: a forget meanwhile leaves the record behind, not ahead.
  const stamp = tombstoneStamp(tombstoneFile(store.path));
  if ((Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value ?? "") === stamp) return undefined;
  const held = heldForgotten(store);
  if (held.length) removeSessions(store, held);
  rereadEmptied(store);
  recordTombstones(store, stamp);
  if (!held.length) return undefined;
  return {
    count: held.length,
    first: held.slice(0, 3).map((s) => keyOf(s.harness, s.native_id)),
  };
}

/**
 * {@link reapplyTombstones} on the index of `env`, taking the writer lock for at most `waitMs`.
 * Never throws: an index that cannot be written now (busy, damaged, read-only) is left to the
 * run or the command that meets it.
 */
export function reapplyNow(env: Env, waitMs: number): Reforgotten | undefined {
  let lock;
  try {
    lock = acquireWriterLock(dataDir(env), waitMs, {
      doing: "removing forgotten sessions it held again",
      brief: true,
    });
  } catch {
    return undefined;
  }
  try {
    const store = Store.open(indexPath(env));
    try {
      return store.frozen ? undefined : reapplyTombstones(store);
    } finally {
      store.close();
    }
  } catch {
    return undefined;
  } finally {
    lock.release();
  }
}
