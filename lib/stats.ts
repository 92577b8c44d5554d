/**
 * `deja stats`: what the index holds — sessions and events per harness, the
 * busiest projects, secrets redacted per kind (per harness and per store),
 * the vocabulary, forgotten sessions and hidden projects — and its size.
 *
 * A harness's date range (`first .. last`) spans the sessions whose store
 * records times. A session the store never dated (`time_from_file`, either
 * kind of lib/session_time.ts: its own file's mtime or a shared one's; a Kimi
 * `context.jsonl` without its wire, a Continue session missing from
 * `sessions.json`, prompt histories without timestamps) carries its file's
 * modification time, which says when the file was last written or copied, not
 * when the work happened: a copied or restored store makes every such session
 * "today" (realdata kimi: the range ran to the copy's minute). Such sessions
 * are counted apart (`fileDated`) and left out of the range, never stretching
 * it; only a harness with no dated session at all shows their file times as its
 * range, marked so (`timeFromFile`, `(file time)` in the text). The text says they
 * are among the harness's sessions (`6 sessions … (4 of them dated only by file
 * time, outside this range)`), and how many of those are prompt histories,
 * undated (`undated`: a shared file's time, not the session's). Dropping them
 * from the count was not kept: the session is real, only its date is not.
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

/** One harness's line of `deja stats`: its sessions and the span of time they cover. */
export interface HarnessRange {
  harness: string;
  sessions: number;
  events: number;
  /** Earliest and latest time of the sessions whose store records times (see the module). */
  first: number | null;
  last: number | null;
  /** True when `first`/`last` are file times: no session of the harness records a time. */
  timeFromFile: boolean;
  /** Sessions dated only by their store file's modification time (left out of the range). */
  fileDated: number;
  /**
   * Of {@link fileDated}, those dated by a file many sessions share (prompt histories):
   * undated (lib/session_time.ts isUndated).
   */
  undated: number;
}

/** One machine's share of the index: this one (`origin` null) or a remote (`deja remote`). */
export interface MachineShare {
  origin: string | null;
  sessions: number;
  events: number;
  /** Per harness, most sessions first. */
  harnesses: Array<{ harness: string; sessions: number; events: number }>;
}

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
  /** Per harness; the range rule is the module's. */
  harnesses: HarnessRange[];
  /**
   * The ten projects with the most sessions, among those search and `last`
   * show: throwaway and excluded projects are left out (counted in
   * `throwaway` and `excluded`).
   */
  projects: Array<{ project: string; sessions: number }>;
  /** The shown projects past those ten, and their sessions (0 and 0 when all fit). */
  moreProjects: { projects: number; sessions: number };
  /** Top-level sessions with no project, in no project's count (trial 101 F5). */
  noProject: number;
  /**
   * The sessions per machine: this one first, then each remote; the harnesses' counts add
   * them up (trial 101 F4: a remote's sessions were counted as this machine's, unsaid).
   */
  machines: MachineShare[];
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
  /** Subagent sessions whose parent is not indexed (listed on their own, counted as sessions). */
  subagentsAlone: number;
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
    harnesses: Q.statsByHarness.all(store, {}).map((h) => {
      const fromFile = h.first === null && h.last === null && h.file_first !== null;
      return {
        harness: h.harness,
        sessions: h.sessions,
        events: h.events,
        first: fromFile ? h.file_first : h.first,
        last: fromFile ? h.file_last : h.last,
        timeFromFile: fromFile,
        fileDated: h.file_dated ?? 0,
        undated: h.undated ?? 0,
      };
    }),
    ...shownProjects(store, env, patterns, here),
    noProject: Q.noProjectSessions.get(store, {})!.n,
    machines: machines(store),
    redacted,
    redactions,
    forgotten: readTombstones(tombstoneFile(path)).length,
    throwaway: hidden.throwaway,
    excluded: hidden.excluded,
    subagents: hidden.subagents,
    subagentsAlone: hidden.subagentsAlone,
    excludePatterns: patterns.length,
  };
}

/**
 * The ten projects with the most top-level sessions that are not hidden: an
 * excluded project, or a throwaway one (the rule of {@link isThrowawaySession}:
 * notes and the project the person is in never are), is left out; and how
 * many shown projects (and their sessions) did not fit in the ten, so the
 * listing can say so (a fresh-user trial read the ten as all there were).
 */
function shownProjects(
  store: Store,
  env: Env,
  patterns: string[],
  here?: string,
): Pick<IndexStats, "projects" | "moreProjects"> {
  const excluded = projectMatcher(patterns);
  const projects: IndexStats["projects"] = [];
  const more = { projects: 0, sessions: 0 };
  for (const r of Q.topProjects.all(store, {})) {
    if (excluded(r.project)) continue;
    if (!r.notes && isThrowawaySession({ harness: "", project: r.project }, env, here)) continue;
    if (projects.length < 10) projects.push({ project: r.project, sessions: r.sessions });
    else [more.projects, more.sessions] = [more.projects + 1, more.sessions + r.sessions];
  }
  return { projects, moreProjects: more };
}

/** The index's sessions per machine ({@link MachineShare}); this machine first, even with none. */
function machines(store: Store): MachineShare[] {
  const by = new Map<string | null, MachineShare>([[null, {
    origin: null,
    sessions: 0,
    events: 0,
    harnesses: [],
  }]]);
  for (const r of Q.statsByOrigin.all(store, {})) {
    let m = by.get(r.origin);
    if (!m) by.set(r.origin, m = { origin: r.origin, sessions: 0, events: 0, harnesses: [] });
    m.sessions += r.sessions;
    m.events += r.events;
    m.harnesses.push({ harness: r.harness, sessions: r.sessions, events: r.events });
  }
  return [...by.values()];
}
