/**
 * The ingest gate: which sessions `deja index` leaves out — forgotten ones
 * (tombstones, and their subagents) and those of excluded projects. The
 * indexer sets a gate on the store it writes ({@link setGate}); every
 * SourceWriter consults it before writing a session. An exclusion also takes
 * effect on what is already indexed: every index run first drops the sessions
 * of excluded projects ({@link dropExcluded}), so a project added to the
 * exclude list leaves every command at the next `deja index`.
 *
 * @module
 */
import type { Env, Session } from "../../core/model.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import { excludePatterns, projectMatcher } from "../search/junk.ts";
import { removeSessions } from "./forget.ts";
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

/**
 * Removes from the index the sessions of projects the exclusion patterns of
 * `env` match, and their subagents, the way `deja forget` removes (no text
 * left behind) but without tombstones: the patterns themselves keep them out.
 * Call with the writer lock held.
 *
 * @returns the number of sessions removed.
 */
export function dropExcluded(store: Store, env: Env): number {
  const excluded = projectMatcher(excludePatterns(env));
  const projects = (store.stmt(Q.projects).all() as Array<{ project: string }>)
    .map((r) => r.project).filter((p) => excluded(p));
  if (!projects.length) return 0;
  const byId = new Map<number, SessionRow>();
  for (
    const s of Q.sessionsOfProjects.all(store, { projects: JSON.stringify(projects) })
  ) byId.set(s.id, s);
  for (
    const c of Q.childrenOfMany.all(store, { ids: JSON.stringify([...byId.keys()]) })
  ) byId.set(c.id, c);
  return removeSessions(store, [...byId.values()]).sessions;
}
