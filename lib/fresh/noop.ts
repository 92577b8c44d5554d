/**
 * `deja index` when nothing changed: the stat pass (./check.ts) decides, and
 * the run ends without loading a parser, discovering a store or opening one.
 * This is what a no-op re-index costs a user (issue 18: 85 ms of CPU in the
 * Bun binary before, most of it loading the parsers and running the discovery
 * of forty harnesses to find that nothing was new).
 *
 * Anything the stat pass cannot vouch for sends the run the full way: no
 * index yet, no record of the last full run for a harness asked for (a
 * harness new to this deja, a run of other harnesses only), a store or a
 * discovery that failed last time (a full run retries it), a store, a
 * watched directory or a file discovery reads to find stores (Crush's
 * projects.json, edited in place) whose stamp moved, variables that place stores with other
 * values than at the last discovery, a remote's mirror, an exclusion pattern
 * (the full run applies it to what is indexed) or one lifted since, or
 * more stores gone than runs told of (a search's refresh met the change
 * first, trial 72: the full run tells of them once; lib/gone.ts).
 *
 * While the index is unchanged since the last run that held the writer lock,
 * what the stat pass needs from it is read from the stat manifest beside it
 * (./manifest.ts): no SQLite, no lock, nothing written but the manifest's
 * mtime. Otherwise the index is opened, and a run that finds nothing changed
 * writes the manifest again.
 *
 * @module
 */
import { rmSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";
import { READERS, REDACTION, REVISIONS } from "../version.ts";
import {
  acquireWriterLock,
  IndexDamaged,
  indexPath,
  quickCheck,
  settleWal,
  Store,
} from "../store.ts";
import { Q, SCHEMA_VERSION } from "../schema.ts";
import { compareStamps, isFresh, recorded, recordedMap } from "./check.ts";
import { ensureReplays } from "../replays.ts";
import { EXCLUDED_KEY } from "../forget/exclusions.ts";
import { manifestPath, writeManifest } from "./manifest.ts";
import { revisedStores, vocabOwed } from "./revised.ts";
import { GONE_KEY } from "../gone.ts";
import { TOMBSTONES_KEY, tombstonesAgree } from "../forget/tombstones.ts";
import { releasedSources } from "../forget/exclusions.ts";
import { allClean, manifestUpToDate, selectedHarnesses, unchanged } from "./quick.ts";
import type { HarnessSummary, IndexResult } from "../indexer.ts";

/** Options of {@link upToDate}. */
export interface NoopOptions {
  /** Only these harness ids (`--harness`). */
  only?: string[];
  /** How long to wait for another writer, in milliseconds. */
  waitMs?: number;
  /** The hint when another writer holds the index. */
  busyHint?: string;
  /** Called with how long the run waited for the writer lock, in milliseconds. */
  waited?(ms: number): void;
  /**
   * A person asked (not `--quiet`, not a background run): stores gone that no run told of
   * send the run the full way, and the index is checked for damage.
   */
  tellGone?: boolean;
  /**
   * Check the index for damage before the stat pass vouches for it (any run but a background
   * one; default `tellGone`): `deja index --quiet` wrote into a damaged index and saved the
   * manifest that let every later `deja index` say "up to date" (trial 86 F1).
   */
  checkDamage?: boolean;
}

/** What {@link upToDate} answers: the run's result, and the index's totals when known. */
export interface NoopResult extends IndexResult {
  /** Sessions and events in the index (from the stat manifest). */
  totals?: { sessions: number; events: number };
}

/**
 * The result of a `deja index` run that finds nothing to read, when the stat
 * pass shows that (see the module doc), or null when a full run is needed.
 * The time of this run is recorded ({@link lastIndexAt}: the manifest's mtime,
 * or the last full run's record `last_index` when the index was opened).
 *
 * @throws {DejaError} when another writer holds the index beyond `waitMs`
 *   (as a full run would).
 */
export function upToDate(env: Env, opts: NoopOptions = {}): NoopResult | null {
  const t0 = performance.now();
  const path = indexPath(env);
  const selected = selectedHarnesses(env, path, opts.only);
  if (!selected) return null;
  const quick = manifestUpToDate(env, path, selected, t0);
  if (quick) return quick;
  const lock = acquireWriterLock(dataDir(env), opts.waitMs ?? 0, {}, opts.busyHint);
  opts.waited?.(lock.waitedMs);
  let done: IndexResult | null = null;
  try {
    let store: Store;
    try {
      store = Store.open(path);
    } catch {
      return null; // the full run reports (or repairs) what is wrong
    }
    try {
      // The stat pass reads a few pages of an index the manifest no longer vouches for: a damaged
      // one was "up to date" (trial 67). Asked for (not a background run), its pages are read
      // once: ~250 ms for the 56 MB bench index under Bun, only where the manifest does not
      // vouch (a plain no-op `deja index` is answered by the manifest, 12 ms).
      const damage = (opts.checkDamage ?? opts.tellGone) ? quickCheck(store.db) : null;
      if (damage) throw new IndexDamaged(path, damage);
      // An index just migrated to hold `replays` fills it, even on a run with nothing to read.
      ensureReplays(store);
      const last = lastRun(store);
      if (!allClean(last, selected)) return null;
      const stale = compareStamps(recorded(store), { env, harnesses: selected });
      if (!isFresh(stale) || stale.failed) return null;
      // Stores gone that no run told of yet (a search's refresh met the change first, trial
      // 72): the full run tells of them once.
      if (opts.tellGone && stale.gone > toldGone(store)) return null;
      if (releasedSources(store, env).length) return null;
      // Forgotten sessions it may hold again (lib/forget/reapply.ts): the full run removes them.
      if (!tombstonesAgree(Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value, path)) {
        return null;
      }
      const harnesses = unchanged(last, selected);
      Q.setMeta.run(store, {
        key: "last_index",
        value: JSON.stringify({
          at: Date.now(),
          readers: READERS,
          redaction: REDACTION,
          revisions: REVISIONS,
          harnesses,
        }),
      });
      done = { harnesses, excluded: 0, pending: 0, ms: 0 };
    } finally {
      store.close();
    }
    if (done) saveManifest(path);
  } finally {
    lock.release();
  }
  return done && { ...done, ms: performance.now() - t0 };
}

/**
 * Writes the stat manifest of the index at `path` (./manifest.ts) from the
 * index as it is. Call with the writer lock held, after the writer's
 * connection is closed. Never throws.
 */
export function saveManifest(path: string): void {
  settleWal(path);
  // No manifest vouches for an index holding stores an older reader or redaction read: the next
  // command's check opens the index and starts their read (trial 129 F1: after `deja index
  // --harness claude` every search said `fresh` and showed the others' unmasked secrets).
  if (olderReadersIn(path)) {
    rmSync(manifestPath(path), { force: true });
    return;
  }
  writeManifest(path, () => {
    const store = Store.open(path, { readOnly: true });
    try {
      // Each row is read once: a small cache (the default's 16 MB filled up with 40,000 rows).
      store.db.exec("PRAGMA cache_size = -1000");
      const map = recordedMap(store);
      const ex = Q.getMeta.get(store, { key: EXCLUDED_KEY })?.value;
      const { sessions, events } = store.stats();
      return {
        body: {
          schema: SCHEMA_VERSION,
          rows: Q.staleCheckSources.iterate(store, {}),
          map,
          harnesses: lastRun(store),
          excluded: Boolean(ex && ex !== "{}"),
          totals: { sessions, events },
          tombstones: Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value ?? "",
        },
        done: () => store.close(),
      };
    } catch (e) {
      store.close();
      throw e;
    }
  });
}

/** How many gone stores a run has told of (lib/gone.ts `GONE_KEY`). */
function toldGone(store: Store): number {
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: GONE_KEY })?.value ?? "[]");
    return Array.isArray(v) ? v.length : 0;
  } catch {
    return 0;
  }
}

/** The harness summaries of the last full run, [] when unknown. */
function lastRun(store: Store): HarnessSummary[] {
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: "last_index" })?.value ?? "{}");
    // A run by readers of another generation vouches for no harness (lib/version.ts READERS),
    // nor for one whose parser had another revision (REVISIONS: its stores are read again).
    // Nor a run by another generation of secrets redaction (lib/version.ts REDACTION).
    if (v?.readers !== READERS || (v?.redaction ?? 0) !== REDACTION) return [];
    if (!Array.isArray(v?.harnesses)) return [];
    const revisions: Record<string, number> = v.revisions ?? {};
    return (v.harnesses as HarnessSummary[])
      .filter((h) => (revisions[h.harness] ?? 0) === (REVISIONS[h.harness] ?? 0));
  } catch {
    return [];
  }
}

/** Whether the index at `path` holds stores an older reader read (./revised.ts). */
function olderReadersIn(path: string): boolean {
  try {
    const store = Store.open(path, { readOnly: true });
    try {
      return revisedStores(store).stores > 0 || vocabOwed(store);
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}
