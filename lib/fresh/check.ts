/**
 * The cheap freshness check every reading command runs first: a stat of each
 * known store (and its companions) and of the directories discovery looks in,
 * compared with what the index recorded. No file body is opened.
 *
 * @module
 */
import { statSync } from "node:fs";
import type { Store } from "../store.ts";
import { FRESH_KEY, mtimeOf, parseFreshMap } from "./map.ts";
import { Q } from "../schema.ts";

/** One store whose stamp differs from the index's. */
export interface ChangedSource {
  path: string;
  harness: string;
  kind: string;
  /** Bytes to read to catch up (the growth of an append store; the whole file otherwise). */
  bytes: number;
  /** Its mtime now, epoch ms. */
  mtime: number;
}

/** What changed since the index last looked. */
export interface Staleness {
  changed: ChangedSource[];
  /** Harnesses where a watched directory changed: discovery may find new stores. */
  discover: string[];
  /** Epoch ms of the last index run (0 when unknown). */
  lastIndex: number;
  /** Milliseconds the check took. */
  ms: number;
}

/** Stats every known store and watched directory of `store` (see the module doc). */
export function checkStaleness(store: Store): Staleness {
  const t0 = performance.now();
  const meta = (key: string) =>
    (store.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined)?.value;
  const map = parseFreshMap(meta(FRESH_KEY));
  let lastIndex = 0;
  try {
    lastIndex = Number(JSON.parse(meta("last_index") ?? "{}").at) || 0;
  } catch { /* unknown */ }
  const rows = Q.staleCheckSources.all(store, {});
  const changed: ChangedSource[] = [];
  for (const r of rows) {
    if (r.error) continue; // retried by a full run, not on every search
    let size: number;
    let mtime: number;
    try {
      const st = statSync(r.path);
      // A FIFO or device where the store was: no index run can read it (discovery reports it),
      // so it is no change to catch up with.
      if (!st.isFile() && !st.isDirectory()) continue;
      size = st.size;
      mtime = Math.floor(st.mtimeMs);
    } catch {
      continue; // a vanished store keeps its sessions until a rebuild
    }
    let moved = size !== r.size || mtime !== r.mtime;
    const comps = map.companions[r.harness]?.[r.path];
    if (!moved && comps?.length) {
      const now = JSON.stringify(comps.map(stampOf));
      moved = now !== (r.companions ?? "[]");
    }
    if (!moved) continue;
    const bytes = r.kind === "append" && size >= r.offset ? size - r.offset : size;
    changed.push({ path: r.path, harness: r.harness, kind: r.kind, bytes, mtime });
  }
  const discover: string[] = [];
  for (const [harness, dirs] of Object.entries(map.dirs)) {
    for (const [d, m] of Object.entries(dirs)) {
      if (mtimeOf(d) !== m) {
        discover.push(harness);
        break;
      }
    }
  }
  return { changed, discover, lastIndex, ms: performance.now() - t0 };
}

function stampOf(path: string): [number, number] {
  try {
    const st = statSync(path);
    return [st.size, Math.floor(st.mtimeMs)];
  } catch {
    return [0, 0];
  }
}

/** True when nothing changed. */
export function isFresh(s: Staleness): boolean {
  return !s.changed.length && !s.discover.length;
}
