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
 * discovery that failed last time (a full run retries it), a store or a
 * watched directory whose stamp moved, variables that place stores with other
 * values than at the last discovery, a remote's mirror, an exclusion pattern
 * (the full run applies it to what is indexed) or one lifted since.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";
import { harnessIds } from "../../core/registry.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { Q } from "../schema.ts";
import { checkStaleness, isFresh } from "./check.ts";
import { releasedSources } from "../forget/exclusions.ts";
import { excludePatterns } from "../search/junk.ts";
import { loadRemotes } from "../remote/config.ts";
import type { HarnessSummary, IndexResult } from "../indexer.ts";

/** Options of {@link upToDate}. */
export interface NoopOptions {
  /** Only these harness ids (`--harness`). */
  only?: string[];
  /** How long to wait for another writer, in milliseconds. */
  waitMs?: number;
}

/**
 * The result of a `deja index` run that finds nothing to read, when the stat
 * pass shows that (see the module doc), or null when a full run is needed.
 * The last full run's record (`last_index`) gets the time of this one.
 *
 * @throws {DejaError} when another writer holds the index beyond `waitMs`
 *   (as a full run would).
 */
export function upToDate(env: Env, opts: NoopOptions = {}): IndexResult | null {
  const t0 = performance.now();
  const path = indexPath(env);
  if (!existsSync(path)) return null;
  const ids = harnessIds();
  if (opts.only?.some((h) => !ids.includes(h))) return null;
  const selected = opts.only ? ids.filter((h) => opts.only!.includes(h)) : ids;
  if (excludePatterns(env).length || remotesConfigured(env)) return null;
  const lock = acquireWriterLock(dataDir(env), opts.waitMs ?? 0);
  try {
    let store: Store;
    try {
      store = Store.open(path);
    } catch {
      return null; // the full run reports (or repairs) what is wrong
    }
    try {
      const last = lastRun(store);
      const byId = new Map(last.map((h) => [h.harness, h]));
      const clean = (h: HarnessSummary | undefined) =>
        h !== undefined && !h.origin && !h.errors?.length && !h.failed && !h.discoveryFailed;
      if (!selected.every((id) => clean(byId.get(id)))) return null;
      const stale = checkStaleness(store, { env, harnesses: selected });
      if (!isFresh(stale) || stale.failed) return null;
      if (releasedSources(store, env).length) return null;
      const harnesses: HarnessSummary[] = last
        .filter((h) => selected.includes(h.harness))
        .map((h) => ({
          harness: h.harness,
          roots: h.roots ?? [],
          found: h.found ?? 0,
          read: 0,
          sessions: 0,
          events: 0,
          skipped: {},
          drift: {},
          errors: [],
          failed: 0,
        }));
      Q.setMeta.run(store, {
        key: "last_index",
        value: JSON.stringify({ at: Date.now(), harnesses }),
      });
      return { harnesses, excluded: 0, pending: 0, ms: performance.now() - t0 };
    } finally {
      store.close();
    }
  } finally {
    lock.release();
  }
}

/** The harness summaries of the last full run, [] when unknown. */
function lastRun(store: Store): HarnessSummary[] {
  try {
    const v = JSON.parse(Q.getMeta.get(store, { key: "last_index" })?.value ?? "{}");
    return Array.isArray(v?.harnesses) ? v.harnesses : [];
  } catch {
    return [];
  }
}

/** True when a remote is configured: its mirror is read by full runs only. */
function remotesConfigured(env: Env): boolean {
  try {
    return loadRemotes(env).length > 0;
  } catch {
    return true;
  }
}
