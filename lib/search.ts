/**
 * Search: FTS5 over events, hits grouped by session (a subagent's hits are
 * filed under its parent), best BM25 first.
 *
 * Tiers, named in the result so a person knows how literal the match was:
 * `exact` (every term in one event), then `session` (every term somewhere in
 * the same session).
 *
 * @module
 */
import type { Store } from "./store.ts";
import { Q } from "./schema.ts";
import { ftsAll, ftsTerm, parseQuery } from "./query.ts";

/** Filters of a search. */
export interface SearchOptions {
  /** Only sessions of these harnesses (any of them). */
  harness?: string[];
  /** Substring of the project path. */
  project?: string;
  /** Epoch ms: only events at or after. */
  since?: number;
  /** Sessions returned at most (default 10). */
  limit?: number;
}

/** One session in the results. */
export interface SessionHit {
  /** Index row id (internal). */
  rowid: number;
  harness: string;
  id: string;
  project: string | null;
  title: string | null;
  started: number | null;
  updated: number | null;
  parent: string | null;
  /**
   * Relevance, higher is better: minus the BM25 of the best matching event
   * (FTS5 reports BM25 negated), plus half the log of the number of matching
   * events, so a session is not ranked up by its length alone. Results are
   * sorted by it.
   */
  score: number;
  /** Matching events in the session (and its subagents). */
  hits: number;
  /** Best matching events, at most 3. Snippet text marks matches with \x01 ... \x02. */
  snippets: Array<
    {
      eventId: number;
      kind: string;
      seq: number;
      time: number | null;
      text: string;
      session: string;
    }
  >;
}

/** What a search returns. */
export interface SearchResult {
  query: string;
  tier: "exact" | "session" | "none";
  results: SessionHit[];
}

interface Row {
  event_id: number;
  session_id: number;
  seq: number;
  kind: string;
  time: number | null;
  tool: string | null;
  score: number;
}

interface SessRow {
  id: number;
  harness: string;
  native_id: string;
  project: string | null;
  title: string | null;
  started: number | null;
  updated: number | null;
  parent: string | null;
}

const MAX_ROWS = 5000;

function filtered(store: Store, match: string, o: SearchOptions): Row[] {
  let sql = Q.searchEvents;
  const args: Array<string | number> = [match];
  if (o.harness?.length) {
    sql += ` AND s.harness IN (${o.harness.map(() => "?").join(", ")})`;
    args.push(...o.harness);
  }
  if (o.project) {
    sql += " AND s.project LIKE ? ESCAPE '\\'";
    args.push(`%${o.project.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (o.since !== undefined) {
    sql += " AND COALESCE(e.time, s.updated, 0) >= ?";
    args.push(o.since);
  }
  sql += ` ORDER BY bm25(events_fts) LIMIT ${MAX_ROWS}`;
  return store.stmt(sql).all(...args) as unknown as Row[];
}

/**
 * Searches the index.
 *
 * @returns sessions best first; `tier` "none" with no results when nothing matched.
 */
export function search(store: Store, query: string, o: SearchOptions = {}): SearchResult {
  const limit = o.limit ?? 10;
  const parsed = parseQuery(query);
  if (!parsed.terms.length) return { query, tier: "none", results: [] };
  let rows = filtered(store, ftsAll(parsed), o);
  let tier: SearchResult["tier"] = "exact";
  if (!rows.length && parsed.terms.length > 1) {
    // Every term somewhere in the same session, not necessarily in one event.
    const perTerm = parsed.terms.map((t) => filtered(store, ftsTerm(t), o));
    const sessionsWithAll = perTerm
      .map((rs) => new Set(rs.map((r) => r.session_id)))
      .reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
    rows = perTerm.flat().filter((r) => sessionsWithAll.has(r.session_id));
    tier = "session";
  }
  if (!rows.length) return { query, tier: "none", results: [] };
  const results = group(store, rows, limit);
  // Snippets cost far more than ranking: make them only for the events shown.
  const any = parsed.terms.map(ftsTerm).join(" OR ");
  for (const r of results) {
    for (const s of r.snippets) {
      const row = store.stmt(Q.snippet).get(any, s.eventId) as { snip: string } | undefined;
      s.text = row?.snip ?? "";
    }
  }
  return { query, tier, results };
}

function group(store: Store, rows: Row[], limit: number): SessionHit[] {
  const ids = [...new Set(rows.map((r) => r.session_id))];
  const sess = new Map<number, SessRow>();
  for (const s of store.stmt(Q.sessionsByIds).all(JSON.stringify(ids)) as unknown as SessRow[]) {
    sess.set(s.id, s);
  }
  // File a subagent's hits under its parent when the parent is indexed.
  const rootOf = new Map<number, SessRow>();
  for (const s of sess.values()) {
    let root = s;
    if (s.parent) {
      const p = store.stmt(Q.sessionByKey).get(s.harness, s.parent) as SessRow | undefined;
      if (p) root = p;
    }
    rootOf.set(s.id, root);
  }
  const groups = new Map<number, SessionHit>();
  for (const r of rows) {
    const s = sess.get(r.session_id);
    const root = rootOf.get(r.session_id);
    if (!s || !root) continue;
    let g = groups.get(root.id);
    if (!g) {
      g = {
        rowid: root.id,
        harness: root.harness,
        id: root.native_id,
        project: root.project,
        title: root.title,
        started: root.started,
        updated: root.updated,
        parent: root.parent,
        score: r.score,
        hits: 0,
        snippets: [],
      };
      groups.set(root.id, g);
    }
    g.hits++;
    g.score = Math.min(g.score, r.score);
    if (g.snippets.length < 3) {
      g.snippets.push({
        eventId: r.event_id,
        kind: r.kind,
        seq: r.seq,
        time: r.time,
        text: "",
        session: s.native_id,
      });
    }
  }
  for (const g of groups.values()) g.score = -g.score + Math.log1p(g.hits) * 0.5;
  const ranked = [...groups.values()].sort((a, b) => b.score - a.score);
  return ranked.slice(0, limit);
}
