/**
 * The cheap freshness check every reading command runs first: a stat of each
 * known store (and its companions), of the directories discovery looks in and
 * of the files it reads to find stores (Crush's projects.json), compared with
 * what the index recorded. No file body is opened.
 *
 * @module
 */
import { statSync } from "node:fs";
import type { Store } from "../store.ts";
import type { Env } from "../../core/model.ts";
import { FRESH_KEY, type FreshMap, mtimeOf, parseFreshMap, placesStamp } from "./map.ts";
import { Q } from "../schema.ts";
import { stamp } from "../source_state.ts";
import { lastIndexAt } from "./manifest.ts";
import { isMissing } from "../gone.ts";

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
  /** Stores whose last read failed (a full run retries them; the check does not stat them). */
  failed: number;
  /** Stores the check found in place (stat succeeded), per harness. */
  present: Record<string, number>;
  /** Milliseconds the check took. */
  ms: number;
}

/** What {@link checkStaleness} looks at besides the index. */
export interface CheckOptions {
  /**
   * The environment of the run: a harness last discovered under other values
   * of the variables that place stores (HOME, `DEJA_<ID>_ROOT`, ...) is
   * listed in `discover`.
   */
  env?: Env;
  /** Only these harnesses; each one the map has never seen is listed in `discover`. */
  harnesses?: readonly string[];
}

/** One `sources` row as the stat pass reads it. */
export type StaleRow = ReturnType<typeof Q.staleCheckSources.all>[number];

/** What the stat pass compares the stores with: what the index recorded. */
export interface Recorded {
  /** The `sources` rows. */
  rows: readonly StaleRow[];
  /** The freshness map (./map.ts). */
  map: FreshMap;
  /** Epoch ms of the last index run (0 when unknown). */
  lastIndex: number;
}

/** What `store` recorded for the stat pass. */
export function recorded(store: Store): Recorded {
  return {
    rows: Q.staleCheckSources.all(store, {}),
    map: recordedMap(store),
    lastIndex: lastIndexAt(store),
  };
}

/** The freshness map `store` recorded (./map.ts). */
export function recordedMap(store: Store): FreshMap {
  const v = store.db.prepare("SELECT value FROM meta WHERE key = ?").get(FRESH_KEY) as
    | { value: string }
    | undefined;
  return parseFreshMap(v?.value);
}

/** Stats every known store and watched directory of `store` (see the module doc). */
export function checkStaleness(store: Store, opts: CheckOptions = {}): Staleness {
  const t0 = performance.now();
  return { ...compareStamps(recorded(store), opts), ms: performance.now() - t0 };
}

/**
 * Stats every store and watched directory `rec` lists and compares them with
 * what it recorded (what {@link checkStaleness} does, from any record of the
 * index: the no-op run reads it from the stat manifest, ./manifest.ts).
 */
export function compareStamps(rec: Recorded, opts: CheckOptions = {}): Staleness {
  const t0 = performance.now();
  const { rows, map, lastIndex } = rec;
  const changed: ChangedSource[] = [];
  const wanted = opts.harnesses ? new Set(opts.harnesses) : undefined;
  const present: Record<string, number> = {};
  let failed = 0;
  for (const r of rows) {
    if (wanted && !wanted.has(r.harness)) continue;
    if (r.error) { // retried by a full run, not on every search
      failed++;
      continue;
    }
    let size: number;
    let mtime: number;
    try {
      const st = statSync(r.path);
      // A FIFO or device where the store was: no index run can read it (discovery reports it),
      // so it is no change to catch up with.
      if (!st.isFile() && !st.isDirectory()) continue;
      size = st.size;
      mtime = Math.floor(st.mtimeMs);
    } catch (e) {
      // A vanished store keeps its sessions until a rebuild; one there but unreadable now
      // (permission denied) is a change: the full run tries it and says why it cannot.
      if (!isMissing(e)) {
        changed.push({ path: r.path, harness: r.harness, kind: r.kind, bytes: 0, mtime: 0 });
      }
      continue;
    }
    present[r.harness] = (present[r.harness] ?? 0) + 1;
    let moved = size !== r.size || mtime !== r.mtime;
    const comps = map.companions[r.harness]?.[r.path];
    if (!moved && comps?.length) {
      const now = JSON.stringify(comps.map(stamp));
      moved = now !== (r.companions ?? "[]");
    }
    if (!moved) continue;
    const bytes = r.kind === "append" && size >= r.offset ? size - r.offset : size;
    changed.push({ path: r.path, harness: r.harness, kind: r.kind, bytes, mtime });
  }
  const discover = new Set<string>();
  for (const h of opts.harnesses ?? []) if (!map.dirs[h]) discover.add(h);
  const places = opts.env ? placesStamp(opts.env) : undefined;
  for (const [harness, dirs] of Object.entries(map.dirs)) {
    if (wanted && !wanted.has(harness)) continue;
    if (places !== undefined && map.places?.[harness] !== places) {
      discover.add(harness);
      continue;
    }
    for (const [d, m] of Object.entries(dirs)) {
      if (mtimeOf(d) !== m) {
        discover.add(harness);
        break;
      }
    }
  }
  return {
    changed,
    discover: [...discover],
    lastIndex,
    failed,
    present,
    ms: performance.now() - t0,
  };
}

/** True when nothing changed. */
export function isFresh(s: Staleness): boolean {
  return !s.changed.length && !s.discover.length;
}
