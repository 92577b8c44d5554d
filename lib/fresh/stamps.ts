/**
 * The comparison of the freshness check (./check.ts) with what the index
 * recorded, given as a record: a stat of each known store (and its companions)
 * and of each watched directory. Apart from ./check.ts, which reads the record
 * from the index, so the no-op index run (./quick.ts), which reads it from the
 * stat manifest, loads no query (issue 18).
 *
 * @module
 */
import { statSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import type { Q } from "../schema.ts";
import { type FreshMap, placesStamp } from "./map.ts";
import { isMissing, mtimeOf, stamp } from "../../core/stat.ts";

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
  /**
   * Epoch ms of the earliest change of those directories (a store added there), 0 when none
   * or unknown: the lag of a new store (trial 86 F4: "0 s behind" of one written 8 s before).
   */
  dirsChangedAt?: number;
  /** Epoch ms of the last index run (0 when unknown). */
  lastIndex: number;
  /**
   * Stores whose last read failed and that are still there (a full run retries them; the check
   * stats them only to leave out the ones gone since, counted in {@link gone}).
   */
  failed: number;
  /**
   * Of those, the ones whose failure is older than {@link RETRY_FAILED_MS}: a refresh on use
   * hands them to a background run (trial 72: a Crush store locked for a few seconds during a
   * search was never read again by later searches, which said the index was fresh).
   */
  retry: number;
  /** Epoch ms of the oldest of those failures (0 when none). */
  failedSince: number;
  /**
   * Of {@link failed}, the stores whose last read met a lock (SQLite busy or locked: their
   * harness was writing), each with its harness and the reason: read again after
   * {@link retryAfterMs} (seconds), and said by every answer meanwhile (trial 119 F1: a Crush
   * store locked for 15 s left its new rows unsearchable for a minute while searches said
   * "fresh").
   */
  locked: { harness: string; error: string }[];
  /** Stores the check found in place (stat succeeded), per harness. */
  present: Record<string, number>;
  /** Stores gone since they were read (their sessions stay until a rebuild): no change to read. */
  gone: number;
  /** Milliseconds the check took. */
  ms: number;
}

/** What the check (./check.ts checkStaleness) looks at besides the index. */
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

/** How long after a store failed to be read a refresh on use has it read again (in the background). */
export const RETRY_FAILED_MS = 60_000;
/**
 * How long after a store's first read that met a lock it is read again; each further such
 * failure in a row doubles it, up to {@link RETRY_FAILED_MS}.
 */
export const RETRY_LOCKED_MS = 2_000;

/** True when a store's read `error` is a lock its harness held (SQLite busy or locked), no damage. */
export function isLockedError(error: string): boolean {
  return /database (?:table )?is (?:locked|busy)|SQLITE_(?:BUSY|LOCKED)/i.test(error);
}

const IN_A_ROW = / \((\d+) tries in a row\)$/;

/**
 * The error to record for a store whose read failed with `message`, after a last read that
 * failed with `before`: a lock met again is counted ("database is locked (3 tries in a row)"),
 * so its retry waits longer each time ({@link retryAfterMs}).
 */
export function lockedAgain(message: string, before: string | null | undefined): string {
  if (!isLockedError(message) || !before || !isLockedError(before)) return message;
  const n = Number(IN_A_ROW.exec(before)?.[1] ?? 1) + 1;
  return `${message.replace(IN_A_ROW, "")} (${n} tries in a row)`;
}

/**
 * How long after a failed read (its recorded `error`) the store is read again: a lock met
 * {@link RETRY_LOCKED_MS}, doubled for each try in a row that met it again, up to
 * {@link RETRY_FAILED_MS}; any other failure (a damaged or unreadable file) a minute.
 */
export function retryAfterMs(error: string): number {
  if (!isLockedError(error)) return RETRY_FAILED_MS;
  const n = Number(IN_A_ROW.exec(error)?.[1] ?? 1);
  return Math.min(RETRY_FAILED_MS, RETRY_LOCKED_MS * 2 ** Math.min(n - 1, 10));
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

/**
 * Stats every store and watched directory `rec` lists and compares them with
 * what it recorded (what ./check.ts checkStaleness does, from any record of the
 * index: the no-op run reads it from the stat manifest, ./manifest.ts).
 */
export function compareStamps(rec: Recorded, opts: CheckOptions = {}): Staleness {
  const t0 = performance.now();
  const { rows, map, lastIndex } = rec;
  const changed: ChangedSource[] = [];
  const wanted = opts.harnesses ? new Set(opts.harnesses) : undefined;
  const present: Record<string, number> = {};
  let failed = 0;
  let retry = 0;
  let failedSince = 0;
  const locked: Staleness["locked"] = [];
  let gone = 0;
  const now = Date.now();
  for (const r of rows) {
    if (wanted && !wanted.has(r.harness)) continue;
    if (r.error) { // retried by a full run, not on every search
      // A store gone since is no failure to retry, nor a lock to tell of (trial 123 F1: one
      // met locked, then moved away, was "locked" on every answer until it came back).
      if (!exists(r.path)) {
        gone++;
        continue;
      }
      failed++;
      const at = r.indexed_at ?? 0;
      if (now - at > retryAfterMs(r.error)) retry++;
      if (isLockedError(r.error)) locked.push({ harness: r.harness, error: r.error });
      if (!failedSince || at < failedSince) failedSince = at;
      continue;
    }
    let size: number;
    let mtime: number;
    try {
      // A store gone is answered without an exception (mtimeOf in ./map.ts).
      const st = statSync(r.path, { throwIfNoEntry: false });
      if (!st) { // a vanished store keeps its sessions until a rebuild
        gone++;
        continue;
      }
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
      } else gone++;
      continue;
    }
    present[r.harness] = (present[r.harness] ?? 0) + 1;
    let moved = size !== r.size || mtime !== r.mtime;
    const comps = map.companions[r.harness]?.[r.path];
    if (comps?.length) {
      const stamps = comps.map(stamp);
      if (!moved) moved = JSON.stringify(stamps) !== (r.companions ?? "[]");
      // A WAL store changes in its `-wal`; the main file only at a checkpoint, maybe hours
      // before (trial 77: "8 min behind" for a change under a second old).
      if (moved) mtime = Math.max(mtime, ...stamps.map(([, m]) => m));
    }
    if (!moved) continue;
    const bytes = r.kind === "append" && size >= r.offset ? size - r.offset : size;
    changed.push({ path: r.path, harness: r.harness, kind: r.kind, bytes, mtime });
  }
  const discover = new Set<string>();
  for (const h of opts.harnesses ?? []) if (!map.dirs[h]) discover.add(h);
  const places = opts.env ? placesStamp(opts.env) : undefined;
  let dirsChangedAt = 0;
  for (const [harness, dirs] of Object.entries(map.dirs)) {
    if (wanted && !wanted.has(harness)) continue;
    if (places !== undefined && map.places?.[harness] !== places) {
      discover.add(harness);
      continue;
    }
    for (const [d, m] of Object.entries(dirs)) {
      const now = mtimeOf(d);
      if (now !== m) {
        discover.add(harness);
        if (now > 0) dirsChangedAt = dirsChangedAt ? Math.min(dirsChangedAt, now) : now;
        break;
      }
    }
  }
  return {
    changed,
    discover: [...discover],
    ...(dirsChangedAt ? { dirsChangedAt } : {}),
    lastIndex,
    failed,
    retry,
    failedSince,
    locked,
    present,
    gone,
    ms: performance.now() - t0,
  };
}

/** False when nothing is at `path` (a store deleted or moved away); true when something is or may be. */
function exists(path: string): boolean {
  try {
    return Boolean(statSync(path, { throwIfNoEntry: false }));
  } catch (e) {
    return !isMissing(e);
  }
}

/** True when nothing changed. */
export function isFresh(s: Staleness): boolean {
  return !s.changed.length && !s.discover.length;
}
