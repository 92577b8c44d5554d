/**
 * The ingest gate: which sessions `deja index` leaves out — forgotten ones
 * (tombstones, and their subagents) and those of excluded projects. The
 * indexer sets a gate on the store it writes ({@link setGate}); every
 * SourceWriter consults it before writing a session. An exclusion also takes
 * effect on what is already indexed: every index run first drops the sessions
 * of excluded projects ({@link dropExcluded}), so a project added to the
 * exclude list leaves every command at the next `deja index`. Both record
 * which stores each pattern dropped sessions from, so removing the pattern
 * brings them back at the next run (see ./exclusions.ts).
 *
 * @module
 */
import type { Env, Session } from "../../core/model.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import { excludePatterns, projectMatcher } from "../search/junk.ts";
import { removeSessions } from "./forget.ts";
import { type ExcludedBy, recordExcluded } from "./exclusions.ts";
import { keyOf, readTombstones, tombstoneFile } from "./tombstones.ts";

/** Decides per session chunk; counts what it left out. */
export interface Gate {
  /** Why `s` (read from the store at `source`) is left out, or null to write it. */
  check(
    s: Pick<Session, "harness" | "id" | "parent" | "project">,
    source?: string,
  ): "forgotten" | "excluded" | null;
  /** Sessions (chunks) left out this run, by reason. */
  counts: { forgotten: number; excluded: number };
  /**
   * Exclusion patterns -> stores they left sessions out of, not yet recorded
   * in the index ({@link recordExcluded} empties it).
   */
  excludedBy: ExcludedBy;
}

/** One matcher per pattern, so what was dropped can be recorded per pattern. */
function patternMatchers(env: Env): Array<[string, (p: string | null | undefined) => boolean]> {
  return excludePatterns(env).map((p) => [p, projectMatcher([p])]);
}

/** The gate for `env` and the index at `indexPath`: tombstones and exclusion patterns. */
export function makeGate(env: Env, indexPath: string): Gate {
  const dead = new Set(readTombstones(tombstoneFile(indexPath)).map((t) => t.key));
  const matchers = patternMatchers(env);
  const counts = { forgotten: 0, excluded: 0 };
  const excludedBy: ExcludedBy = new Map();
  return {
    counts,
    excludedBy,
    check(s, source) {
      if (
        dead.size &&
        (dead.has(keyOf(s.harness, s.id)) || (s.parent && dead.has(keyOf(s.harness, s.parent))))
      ) {
        counts.forgotten++;
        return "forgotten";
      }
      const by = matchers.filter(([, m]) => m(s.project)).map(([p]) => p);
      if (by.length) {
        counts.excluded++;
        if (source) {
          for (const p of by) excludedBy.set(p, (excludedBy.get(p) ?? new Set()).add(source));
        }
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
  const matchers = patternMatchers(env);
  const projects = Q.projects.all(store, {})
    .map((r) => r.project).filter((p) => matchers.some(([, m]) => m(p)));
  if (!projects.length) return 0;
  const byId = new Map<number, SessionRow>();
  for (
    const s of Q.sessionsOfProjects.all(store, { projects: JSON.stringify(projects) })
  ) byId.set(s.id, s);
  for (
    const c of Q.childrenOfMany.all(store, { ids: JSON.stringify([...byId.keys()]) })
  ) byId.set(c.id, c);
  const sessions = [...byId.values()];
  // Which pattern dropped what, so lifting the pattern brings the stores back. A
  // subagent whose own project no pattern matches went with its parent: it is
  // recorded under every pattern that dropped something now (re-reading more is harmless).
  const found: ExcludedBy = new Map();
  const add = (p: string, src: string) => found.set(p, (found.get(p) ?? new Set()).add(src));
  const orphans: string[] = [];
  for (const s of sessions) {
    const by = matchers.filter(([, m]) => m(s.project)).map(([p]) => p);
    if (by.length) by.forEach((p) => add(p, s.source));
    else orphans.push(s.source);
  }
  for (const p of [...found.keys()]) orphans.forEach((src) => add(p, src));
  const n = removeSessions(store, sessions).sessions;
  recordExcluded(store, found);
  return n;
}
