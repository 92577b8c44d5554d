/**
 * The last tier, `relevance`: nothing matched every term, so sessions are
 * ranked by how much of the query they hold — the IDF-weighted share of its
 * informative words (with their word forms, synonyms and related words,
 * lib/search/related.ts) — and the result says
 * "nothing matched exactly". A natural-language question usually lands here.
 *
 * A session must hold at least two of the query's words, or, when the query
 * has three or more words the history holds, its rarest one (such a session
 * ranks at half weight). Words in more than a quarter of all events are left
 * out while two rarer ones remain.
 *
 * @module
 */
import { Q } from "../schema.ts";
import { ftsAny } from "../query.ts";
import type { Store } from "../store.ts";
import { type Filters, matchRows } from "./retrieve.ts";
import { ABLATE, eventWeight, type ScoredEvent, type SessionScore } from "./rank.ts";
import { MAX_ALTS, type TermStats, wordForms } from "./expand.ts";
import { relatedTo } from "./related.ts";
import { synonymsOf } from "./synonyms.ts";

/** Rows read per common word. */
const PER_TERM = 800;
/** A word in at most this share of events is read whole. */
const RARE = 0.05;

/** What the relevance tier found. */
export interface RelevanceResult {
  scores: Map<number, SessionScore>;
  /** Per word kept: its alternatives (for snippets). */
  alts: string[][][];
  /** The words it ranked by. */
  words: string[];
}

function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Ranks sessions by IDF-weighted overlap with `words`.
 *
 * @param rootOf maps a session row id to the id its hits are filed under.
 */
export function relevance(
  stats: TermStats,
  words: string[],
  f: Filters,
  rootOf: (id: number) => number,
): RelevanceResult {
  const store: Store = stats.store;
  const n = Math.max(1, Q.eventCount.get(store, {})!.n);
  let terms = [...new Set(words)].map((w) => {
    const alts = new Set(wordForms(stats, w));
    for (const s of synonymsOf(w)) if (stats.docs(s)) alts.add(s);
    // A word the history never wrote stands for its related words. (Widening the words
    // it holds too, or every word of a query holding one it never wrote, lifted the
    // paraphrase questions further but cost the plain questions of bench:recall hits.)
    if (!alts.size && !ABLATE.related) {
      for (const r of relatedTo(w)) {
        if (alts.size >= MAX_ALTS) break;
        for (const f of wordForms(stats, r).slice(0, 3)) alts.add(f);
      }
    }
    const df = Math.max(0, ...[...alts].map((a) => stats.docs(a)));
    return { word: w, alts: [...alts], df, idf: idf(n, df) };
  }).filter((t) => t.alts.length > 0);
  const empty = { scores: new Map(), alts: [], words: [] };
  if (terms.length < 2) return empty;
  const rare = terms.filter((t) => t.df / n <= 0.25);
  if (rare.length >= 2) terms = rare;
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0);
  const strongest = terms.reduce((a, b) => (b.idf > a.idf ? b : a));

  // Per session: per term its best event score; per event the terms it holds.
  const perSession = new Map<number, Map<number, ScoredEvent>>();
  const eventTerms = new Map<number, Set<number>>();
  const eventOf = new Map<number, ScoredEvent>();
  terms.forEach((t, ti) => {
    // A rare word: every event holding it; a common one: its best events only.
    const limit = t.df / n <= RARE ? 20_000 : PER_TERM;
    const rows = matchRows(store, ftsAny(t.alts.map((a) => [a])), f, limit);
    for (const r of rows) {
      const sid = rootOf(r.session_id);
      const sc: ScoredEvent = { row: r, score: -r.bm25 * eventWeight(r.kind, r.flags) };
      let m = perSession.get(sid);
      if (!m) perSession.set(sid, m = new Map());
      const prev = m.get(ti);
      if (!prev || sc.score > prev.score) m.set(ti, sc);
      let et = eventTerms.get(r.event_id);
      if (!et) eventTerms.set(r.event_id, et = new Set());
      et.add(ti);
      const pe = eventOf.get(r.event_id);
      eventOf.set(r.event_id, pe ? { row: r, score: pe.score + sc.score } : sc);
    }
  });

  const scores = new Map<number, SessionScore>();
  const si = terms.indexOf(strongest);
  for (const [sid, m] of perSession) {
    const matched = [...m.keys()];
    let weak = 1;
    if (matched.length < 2) {
      if (!(terms.length >= 3 && matched[0] === si)) continue;
      weak = 0.5;
    }
    const cover = matched.reduce((s, ti) => s + terms[ti].idf, 0) / totalIdf;
    let cooc = 1;
    const events: ScoredEvent[] = [];
    const seen = new Set<number>();
    for (const ev of m.values()) {
      const held = eventTerms.get(ev.row.event_id)?.size ?? 1;
      cooc = Math.max(cooc, 1 + 0.2 * (held - 1));
      if (!seen.has(ev.row.event_id)) {
        seen.add(ev.row.event_id);
        events.push(eventOf.get(ev.row.event_id) ?? ev);
      }
    }
    const sum = [...m.values()].reduce((s, e) => s + e.score, 0);
    events.sort((a, b) => b.score - a.score);
    scores.set(sid, {
      sessionId: sid,
      score: sum * (0.5 + cover) * cooc * weak,
      events,
      spread: true,
    });
  }
  return {
    scores,
    alts: terms.map((t) => t.alts.map((a) => [a])),
    words: terms.map((t) => t.word),
  };
}
