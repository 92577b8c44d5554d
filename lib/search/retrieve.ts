/**
 * FTS5 retrieval under a search's filters: the matching events of a MATCH
 * expression with their BM25, and the session-level AND (every term somewhere
 * in one session, not necessarily in one event).
 *
 * @module
 */
import { UNDATED } from "../schema_fragments.ts";
import { Q } from "../schema.ts";
import { projectFilterSql, projectLike } from "../project_path.ts";
import type { Store } from "../store.ts";
import type { MatchRow } from "../rows.ts";

/** Filters every tier applies (in SQL, before ranking). */
export interface Filters {
  /** Harness ids (any of them). */
  harness?: string[];
  /** Substring of the project path. */
  project?: string;
  /** Epoch ms: only events at or after (an event without a time counts as its session's). */
  since?: number;
  /** Event kinds (any of them). */
  kinds?: string[];
  /** Session row ids (a session and its subagents). */
  sessionIds?: number[];
  /** Session row ids left out (throwaway and excluded projects). */
  hideSessionIds?: number[];
}

/** One matching event (lib/rows.ts). */
export type Row = MatchRow;

/**
 * The SQL appended to a query over `e` (events) and `s` (sessions), and its arguments.
 *
 * @param from what the query reads first: `"fts"` when events_fts MATCH drives it (each
 *   match then joined to its event), `"events"` when it walks the events table. Driven by
 *   FTS5, a session list is tested on each joined row (`+e.session_id`): as an index
 *   constraint SQLite probed events_rank once per listed session for every match, a
 *   hundred candidate sessions times every event of a common word (issue 15: ~14 ms a
 *   term, most of a relevance-tier query). Walking events, the list drives the index.
 */
export function filterSql(
  f: Filters,
  from: "fts" | "events",
): { sql: string; args: Array<string | number> } {
  const col = from === "fts" ? "+e.session_id" : "e.session_id";
  let sql = "";
  const args: Array<string | number> = [];
  if (f.harness?.length) {
    sql += ` AND s.harness IN (${f.harness.map(() => "?").join(", ")})`;
    args.push(...f.harness);
  }
  if (f.project) {
    sql += ` AND ${projectFilterSql("s.project")} LIKE ? ESCAPE '\\'`;
    args.push(projectLike(f.project));
  }
  if (f.since !== undefined) {
    // An event's own time, else its session's when dated: an undated one is in no window.
    sql += ` AND COALESCE(e.time, CASE WHEN ${UNDATED} THEN NULL ELSE s.updated END, 0) >= ?`;
    args.push(f.since);
  }
  if (f.kinds?.length) {
    sql += ` AND e.kind IN (${f.kinds.map(() => "?").join(", ")})`;
    args.push(...f.kinds);
  }
  if (f.sessionIds) {
    sql += ` AND ${col} IN (SELECT value FROM json_each(?))`;
    args.push(JSON.stringify(f.sessionIds));
  }
  if (f.hideSessionIds?.length) {
    sql += ` AND ${col} NOT IN (SELECT value FROM json_each(?))`;
    args.push(JSON.stringify(f.hideSessionIds));
  }
  return { sql, args };
}

/**
 * Events matching `match`, best BM25 first, at most `limit`.
 *
 * @param within only these session row ids (the session-level AND narrows with it).
 */
export function matchRows(
  store: Store,
  match: string,
  f: Filters,
  limit: number,
  within?: Iterable<number>,
): Row[] {
  const plain = !f.harness?.length && !f.project && f.since === undefined && !f.kinds?.length &&
    !f.sessionIds && !within;
  if (plain) {
    // No filter on sessions: rank in FTS5 alone, then join only the rows kept (the join of
    // every match before the sort is most of the cost of a common word). Hidden sessions
    // are left out after the cut.
    const hide = f.hideSessionIds?.length
      ? " WHERE e.session_id NOT IN (SELECT value FROM json_each(?))"
      : "";
    return Q.topRows.extend(hide, hide ? [JSON.stringify(f.hideSessionIds)] : [])
      .all(store, { match, limit: Math.floor(limit) });
  }
  const { sql, args } = filterSql(f, "fts");
  let extra = "";
  const more: Array<string | number> = [];
  if (within) {
    extra = " AND +e.session_id IN (SELECT value FROM json_each(?))";
    more.push(JSON.stringify([...within]));
  }
  return Q.searchRows.extend(
    `${sql}${extra} ORDER BY bm25(events_fts) LIMIT ${Math.floor(limit)}`,
    [...args, ...more],
  ).all(store, { match });
}

/** Rows of events matching every expression of `exprs` somewhere in one session. */
export interface SpreadMatch {
  /** Per session row id: per expression, its matching rows (best first). */
  sessions: Map<number, Row[][]>;
}

/**
 * The session-level AND: sessions holding a match of every expression, each
 * in any of its events. Expressions are tried rarest first (`weights`: a
 * smaller number is rarer), each narrowing the sessions of the previous ones.
 */
export function spreadMatch(
  store: Store,
  exprs: string[],
  weights: number[],
  f: Filters,
  perTermLimit = 4000,
): SpreadMatch {
  const order = exprs.map((_, i) => i).sort((a, b) => weights[a] - weights[b]);
  let cand: Set<number> | undefined;
  const byTerm = new Map<number, Map<number, Row[]>>();
  for (const i of order) {
    const rows = matchRows(store, exprs[i], f, perTermLimit, cand);
    const here = new Map<number, Row[]>();
    for (const r of rows) {
      let list = here.get(r.session_id);
      if (!list) here.set(r.session_id, list = []);
      list.push(r);
    }
    byTerm.set(i, here);
    cand = new Set([...here.keys()].filter((s) => !cand || cand.has(s)));
    if (!cand.size) return { sessions: new Map() };
  }
  const sessions = new Map<number, Row[][]>();
  for (const sid of cand ?? []) {
    sessions.set(sid, exprs.map((_, i) => byTerm.get(i)!.get(sid) ?? []));
  }
  return { sessions };
}
