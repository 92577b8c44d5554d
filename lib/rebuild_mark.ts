/**
 * The mark of a rebuild not finished (trial 123 F2): `deja index --rebuild` records in the
 * index's meta, before it reads a store, the harnesses it rebuilds; a rebuild that ends clears
 * theirs. A Ctrl-C in between leaves the mark, and the next full run finds it and runs as a
 * rebuild ({@link pendingRebuild}), so that what the rebuild was to drop (sessions of stores
 * gone, events of stores cut short) goes then; before, it said "up to date" and kept them.
 *
 * The stat manifest is dropped when the mark is set, and no run saves it while a mark stays, so
 * a manifest in place means no mark: `deja index` looks into the index only without one
 * ({@link rebuildPending}).
 *
 * @module
 */
import { existsSync } from "node:fs";
import { Q } from "./schema.ts";
import { Store } from "./store.ts";
import { dropManifest, manifestPath } from "./fresh/manifest.ts";

/** The meta key: a JSON list of the harness ids whose rebuild has not finished. */
export const REBUILD_KEY = "rebuild_pending";

/** The harnesses whose rebuild an interrupted run left unfinished (none: empty). */
export function pendingRebuild(store: Store): string[] {
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: REBUILD_KEY })?.value ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Records that a rebuild of `harnesses` begins (with the writer lock held). */
export function markRebuild(store: Store, harnesses: readonly string[]): void {
  const all = [...new Set([...pendingRebuild(store), ...harnesses])].sort();
  Q.setMeta.run(store, { key: REBUILD_KEY, value: JSON.stringify(all) });
  dropManifest(store.path);
}

/** Clears the mark of `harnesses`, whose rebuild ended; returns those still pending. */
export function rebuildDone(store: Store, harnesses: readonly string[]): string[] {
  const left = pendingRebuild(store).filter((h) => !harnesses.includes(h));
  if (left.length) Q.setMeta.run(store, { key: REBUILD_KEY, value: JSON.stringify(left) });
  else store.db.prepare("DELETE FROM meta WHERE key = ?").run(REBUILD_KEY);
  return left;
}

/**
 * Whether the index at `path` holds the mark of an unfinished rebuild; false when its stat
 * manifest is in place (see the module doc) or it cannot be read (the run says why).
 */
export function rebuildPending(path: string): boolean {
  if (!existsSync(path) || existsSync(manifestPath(path))) return false;
  try {
    const store = Store.open(path, { readOnly: true });
    try {
      return pendingRebuild(store).length > 0;
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}
