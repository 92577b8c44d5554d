/**
 * The cheap freshness check every reading command runs first: a stat of each
 * known store (and its companions), of the directories discovery looks in and
 * of the files it reads to find stores (Crush's projects.json), compared with
 * what the index recorded. No file body is opened.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { FRESH_KEY, type FreshMap, parseFreshMap } from "./map.ts";
import { Q } from "../schema.ts";
import { lastIndexAt } from "./manifest.ts";
import { type CheckOptions, compareStamps, type Recorded, type Staleness } from "./stamps.ts";

// The comparison itself is in ./stamps.ts, which loads no query (the no-op index run's).
export { compareStamps, isFresh } from "./stamps.ts";
export type { ChangedSource, CheckOptions, Recorded, Staleness, StaleRow } from "./stamps.ts";

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
