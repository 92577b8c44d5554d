/**
 * `deja stats`: what the index holds — sessions and events per harness, the
 * busiest projects, secrets redacted per kind (per harness and per store),
 * the vocabulary, forgotten sessions and hidden projects — and its size.
 *
 * @module
 */
import { existsSync, statSync } from "node:fs";
import type { Env } from "../core/model.ts";
import { Q, SCHEMA_VERSION } from "./schema.ts";
import type { Store } from "./store.ts";
import { readTombstones, tombstoneFile } from "./forget/tombstones.ts";
import { excludePatterns, projectMatcher } from "./search/junk.ts";
import { hiddenCounts, isThrowawaySession } from "./search/sessions.ts";

/** The figures of `deja stats --json` (docs/json-output.md). */
export interface IndexStats {
  index: string;
  /** Bytes of the index file and its WAL. */
  bytes: number;
  schema: number;
  sessions: number;
  events: number;
  sources: number;
  /** Distinct words in the vocabulary (substring and spelling tiers). */
  words: number;
  harnesses: Array<
    { harness: string; sessions: number; events: number; first: number | null; last: number | null }
  >;
  /**
   * The ten projects with the most sessions, among those search and `last`
   * show: throwaway and excluded projects are left out (counted in
   * `throwaway` and `excluded`).
   */
  projects: Array<{ project: string; sessions: number }>;
  /** Secrets redacted, by kind, over every store. */
  redacted: Record<string, number>;
  /** Per store and kind. */
  redactions: Array<{ source: string; harness: string; kind: string; count: number }>;
  /** Sessions forgotten (tombstones kept in the data dir). */
  forgotten: number;
  /** Top-level sessions of throwaway projects (hidden by search and last unless --junk). */
  throwaway: number;
  /** Top-level sessions of excluded projects still in the index (hidden by search). */
  excluded: number;
  /** Subagent sessions filed under their indexed parent (never listed on their own). */
  subagents: number;
  /** Exclusion patterns in force. */
  excludePatterns: number;
}

/**
 * Reads the figures of the index at `path`; `here` is the directory the person
 * is in (its project is never counted as throwaway, as in every command).
 */
export function indexStats(store: Store, path: string, env: Env, here?: string): IndexStats {
  const t = store.stats();
  const bytes = ["", "-wal"].reduce(
    (n, s) => n + (existsSync(path + s) ? statSync(path + s).size : 0),
    0,
  );
  const patterns = excludePatterns(env);
  const hidden = hiddenCounts(store, env, here);
  const redactions = Q.redactionsBySource.all(store, {});
  const redacted: Record<string, number> = {};
  for (const r of redactions) redacted[r.kind] = (redacted[r.kind] ?? 0) + r.count;
  return {
    index: path,
    bytes,
    schema: SCHEMA_VERSION,
    sessions: t.sessions,
    events: t.events,
    sources: t.sources,
    words: Q.vocabSize.get(store, {})!.n,
    harnesses: Q.statsByHarness.all(store, {}),
    projects: shownProjects(store, env, patterns, here),
    redacted,
    redactions,
    forgotten: readTombstones(tombstoneFile(path)).length,
    throwaway: hidden.throwaway,
    excluded: hidden.excluded,
    subagents: hidden.subagents,
    excludePatterns: patterns.length,
  };
}

/**
 * The ten projects with the most top-level sessions that are not hidden: an
 * excluded project, or a throwaway one (the rule of {@link isThrowawaySession}:
 * notes and the project the person is in never are), is left out.
 */
function shownProjects(
  store: Store,
  env: Env,
  patterns: string[],
  here?: string,
): Array<{ project: string; sessions: number }> {
  const excluded = projectMatcher(patterns);
  const out: Array<{ project: string; sessions: number }> = [];
  for (const r of Q.topProjects.all(store, {})) {
    if (excluded(r.project)) continue;
    if (!r.notes && isThrowawaySession({ harness: "", project: r.project }, env, here)) continue;
    out.push({ project: r.project, sessions: r.sessions });
    if (out.length === 10) break;
  }
  return out;
}
