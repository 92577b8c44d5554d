/**
 * The ingest gate: which sessions `deja index` leaves out — forgotten ones
 * (tombstones, and their subagents) and those of excluded projects. The
 * indexer sets a gate on the store it writes ({@link setGate}); every
 * SourceWriter consults it before writing a session.
 *
 * @module
 */
import type { Env, Session } from "../model.ts";
import type { Store } from "../store.ts";
import { excludePatterns, projectMatcher } from "../search/junk.ts";
import { keyOf, readTombstones, tombstoneFile } from "./tombstones.ts";

/** Decides per session chunk; counts what it left out. */
export interface Gate {
  /** Why `s` is left out, or null to write it. */
  check(s: Pick<Session, "harness" | "id" | "parent" | "project">): "forgotten" | "excluded" | null;
  /** Sessions (chunks) left out this run, by reason. */
  counts: { forgotten: number; excluded: number };
}

/** The gate for `env` and the index at `indexPath`: tombstones and exclusion patterns. */
export function makeGate(env: Env, indexPath: string): Gate {
  const dead = new Set(readTombstones(tombstoneFile(indexPath)).map((t) => t.key));
  const excluded = projectMatcher(excludePatterns(env));
  const counts = { forgotten: 0, excluded: 0 };
  return {
    counts,
    check(s) {
      if (
        dead.size &&
        (dead.has(keyOf(s.harness, s.id)) || (s.parent && dead.has(keyOf(s.harness, s.parent))))
      ) {
        counts.forgotten++;
        return "forgotten";
      }
      if (excluded(s.project)) {
        counts.excluded++;
        return "excluded";
      }
      return null;
    },
  };
}

const gates = new WeakMap<Store, Gate>();

/** Makes `gate` the one every writer of `store` consults. */
export function setGate(store: Store, gate: Gate): void {
  gates.set(store, gate);
}

/** The gate set on `store`, if any. */
export function gateOf(store: Store): Gate | undefined {
  return gates.get(store);
}
