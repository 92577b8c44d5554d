/**
 * The second stage of ranking: BM25 at the level of sessions, over the best
 * candidates of the first stage. A session is a document whose term
 * frequencies are its matching events, each weighted by who wrote it and
 * what it says (lib/search/rank.ts `eventWeight`), and whose length is its
 * number of events (turns, calls, results) — so a session that is *about*
 * the words (mentions them in several turns of a short conversation)
 * outranks a marathon that names them once each among hundreds of turns, and
 * a long session is not lifted by its length. (Length in characters was
 * measured too, and ranked worse: a marathon is many short turns.) A pasted
 * dump counts as its lines: a session of one log paste holding every word is
 * not a short session about them.
 *
 * `score = Σ_terms idf · wtf·(k1+1) / (wtf + k1·(1 − b + b·len/avglen))`
 * with k1 = 1.2, b = 0.75 (0.5 in the relevance tier), times `1 + 0.5·share²`, where `share` is the
 * largest part of the query's IDF weight one event of the session holds (so
 * ×1.5 when one event holds every term: proximity). The IDF of a word as
 * typed counts sessions, not events: the frame of a question (`fix`, `root
 * cause`, `change`, `issue`), which nearly every session says once, weighs
 * next to nothing beside the component a few sessions keep naming. Two query
 * words side by side that an event holds side by side (any form: `time out`,
 * `times out`) count as one more term at a fraction of a word's weight
 * (lib/search/adjacent.ts).
 *
 * In the literal tiers an event's share counts at its weight, at most 1
 * (lib/search/rank.ts `eventWeight`: a tool's output 0.6, a tool call 0.8):
 * two query words together in a traceback's path (`src/checkout/…` beside
 * "database is locked") say less than a person's prompt stating them ("the
 * checkout service times out"). Measured (`deno task bench:recall
 * --no-binary --per-kind 60`, seeds 11/3/7/5, after the IDF fix below):
 * `forms` hit@1 0.97/0.98/0.95/0.98 -> 0.98/0.98/0.98/0.98, nothing else
 * moved. Not kept: the same in the relevance tier too (its tool output
 * weighs 0.3 there): no tuning kind moved, held-out paraphrase −1 on seed 11.
 *
 * The IDF of a term with a phrase among its alternatives (`checkout` is also
 * `check out`, lib/search/compounds.ts) took the phrase's count as its rarest
 * word's (`check`, ten times `checkout`'s), so a compound the history writes in
 * a few sessions weighed less than nothing (IDF −0.11 for `checkout`, 136
 * events of 20,702) and a session repeating it was ranked down for it. When
 * the sample of {@link sessionDf} holds every match, no alternative is counted
 * in more events than it read. Measured (same runs, this alone): `forms` hit@1
 * 0.88/0.95/0.97/0.95 -> 0.92/0.98/0.95/0.98 (seed 7 lost "databases
 * checkout timeout" to a session holding `database` and `checkout` only in a
 * traceback: won back by the weighted share above), `typo` 0.98 -> 1.00 on
 * seed 3 and 0.97 -> 0.98 on seed 7; nothing else moved. With both and the
 * past forms of lib/search/compounds.ts `particleCompounds`, 30 a seed (seeds
 * 11/3/7): `forms` 0.97/0.97/1.00 -> 1.00/1.00/1.00, nothing else moved.
 *
 * @module
 */
import { ftsAny } from "../query.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { type Filters, filterSql } from "./retrieve.ts";
import { ABLATE, eventWeight, type SessionScore } from "./rank.ts";
import type { SessionCache } from "./sessions.ts";
import type { TermStats } from "./expand.ts";
import { adjacentPairs, PAIR_WEIGHT } from "./adjacent.ts";

const K1 = 1.2;
/** Length normalisation of the literal tiers. */
export const B = 0.75;
/**
 * Length normalisation of the `relevance` tier. A question in other words
 * matches a long session's problem through related words scattered over its
 * turns; full normalisation (0.75) lets a short session naming one of them as
 * typed outrank it. Measured on `paradev` (seeds 11, 3, 7; REST of
 * lib/search/fielded.ts at 0.5): hit@1 0.90/0.87/0.90 -> 0.90/0.90/0.93 at
 * 0.5; 0.5 in every tier cost forms and typo queries a hit each.
 */
export const B_RELEVANCE = 0.5;
/** First-stage candidates re-scored. */
export const RESCORE = 100;
/** A term in more than this share of events is not counted per session (its IDF is near 0). */
const COMMON = 0.2;
/** Bonus when one event holds every term. */
const TOGETHER = 1.5;

/** Events read to estimate in how many sessions a term is. */
const SAMPLE = 2000;

function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * In how many sessions the commonest of `alts` occurs (the session-level
 * counterpart of the event count the IDF of an alternative list takes):
 * estimated from the sessions of the first {@link SAMPLE} events holding any
 * of them (sessions per event, times the events that hold the commonest), and
 * exact for a single alternative in fewer events. A word every session says
 * once or twice (`change`, `root cause`) is in far more sessions than one a
 * few sessions repeat (`resizer`), though both are in as many events: in a
 * ranking of sessions the first says little.
 */
export function sessionDf(stats: TermStats, alts: string[][]): number {
  const r = Q.termSessions.get(stats.store, { match: ftsAny(alts), limit: SAMPLE })!;
  if (alts.length === 1 && r.k < SAMPLE) return r.s;
  if (!r.k) return 0;
  let events = Math.max(...alts.map((toks) => stats.phraseDocs(toks)));
  // A phrase's count is only bounded by its rarest word's (`check out` by `check`); a whole
  // sample bounds every alternative by the matches it read.
  if (r.k < SAMPLE) events = Math.min(events, r.k);
  return Math.max(1, Math.round((events * r.s) / r.k));
}

/** The query's terms one event of a session holds as typed, and their share of its IDF weight. */
export interface TypedTogether {
  /** A bit per term (not a word in more than half the sessions). */
  mask: number;
  share: number;
  /** The query's terms in at most half the sessions. */
  of: number;
}

/**
 * Re-scores the best {@link RESCORE} of `scores` in place (their `score`
 * becomes the session-level BM25); the rest keep a score below every
 * re-scored one.
 *
 * @param alts per term, its alternatives (token lists).
 * @param weights per term, the weight of each alternative (default 1 each): a
 *   related word of the relevance tier counts for less than the word as typed.
 * @param b BM25 length normalisation ({@link B}; the relevance tier {@link B_RELEVANCE}).
 */
export function rescore(
  stats: TermStats,
  cache: SessionCache,
  scores: Map<number, SessionScore>,
  alts: string[][][],
  f: Filters,
  weights?: number[][],
  b: number = B,
  /** Ranked in the `relevance` tier (lib/search/rank.ts `eventWeight`). */
  relevance = false,
  /** Per term, the query's words it stands for (its IDF counts that many times; default 1). */
  counts?: number[],
  /**
   * Filled: per term, per root session, its events holding the term as typed or in a form
   * (weight 1), or -1 when it holds only related words of it.
   */
  typed?: Map<number, number>[],
  /**
   * Filled: per root session, the terms one of its events holds as typed or in a form (a
   * bit each), the event whose terms carry the largest share of the query's IDF weight, and
   * that share.
   */
  heldTyped?: Map<number, TypedTogether>,
): void {
  if (!scores.size || !alts.length || ABLATE.rescore) return;
  const store: Store = stats.store;
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score);
  const top = ranked.slice(0, RESCORE);
  const n = Math.max(1, Q.eventCount.get(store, {})!.n);
  const avg = Math.max(1, Q.avgSessionEvents.get(store, {})!.n);
  const ids = new Set<number>();
  for (const s of top) for (const m of cache.members(s.sessionId)) ids.add(m);
  const rootOf = (id: number) => cache.root(id);
  // Weighted term frequency per root session, per term; per event, the terms it holds.
  const wtf = alts.map(() => new Map<number, number>());
  const held = new Map<number, { root: number; mask: number; w: number }>();
  // An event's words held together count at its weight, at most 1 (literal tiers).
  const near = (kind: string, flags: number) =>
    relevance || ABLATE.proximityKind ? 1 : Math.min(1, eventWeight(kind, flags));
  const note = (eventId: number, root: number, ti: number, kind: string, flags: number) => {
    const h = held.get(eventId);
    if (h) h.mask |= 1 << ti;
    else held.set(eventId, { root, mask: 1 << ti, w: near(kind, flags) });
  };
  // Per event, the terms it holds as typed or in a form (not only as a related word).
  const asTyped = new Map<number, { root: number; mask: number }>();
  const idf: number[] = [];
  const common: boolean[] = [];
  const sessions = Math.max(1, Q.sessionCount.get(store, {})!.n);
  alts.forEach((a, ti) => {
    // IDF of the term's strongest alternatives (a common related word does not dilute it).
    const best = Math.max(...a.map((_, i) => weights?.[ti]?.[i] ?? 1));
    const strongest = a.filter((_, i) => (weights?.[ti]?.[i] ?? 1) === best);
    const df = Math.max(...strongest.map((toks) => stats.phraseDocs(toks)));
    // A word as typed (or a form of it) by the sessions that hold it; a term the history
    // only holds related words of keeps the events' view (measured: bench/recall_bench.ts).
    idf.push(
      (best === 1 && !ABLATE.sessionIdf
        ? bm25Idf(sessions, sessionDf(stats, strongest))
        : bm25Idf(n, df)) * (counts?.[ti] ?? 1),
    );
    common.push(df / n > COMMON);
    if (df / n > COMMON || ti >= 30) {
      // Too common to count everywhere: the first stage's rows stand in.
      for (const s of top) {
        wtf[ti].set(
          s.sessionId,
          s.events.reduce((x, e) => x + eventWeight(e.row.kind, e.row.flags, relevance), 0),
        );
        for (const e of s.events) note(e.row.event_id, s.sessionId, ti, e.row.kind, e.row.flags);
      }
      return;
    }
    const { sql, args } = filterSql({ ...f, sessionIds: [...ids] }, "fts");
    // One query per weight; an event counts once per term, at its best weight.
    const byWeight = new Map<number, string[][]>();
    a.forEach((toks, i) => {
      const w = ABLATE.tiered ? 1 : weights?.[ti]?.[i] ?? 1;
      byWeight.set(w, [...(byWeight.get(w) ?? []), toks]);
    });
    const seen = new Set<number>();
    for (const [w, as] of [...byWeight].sort((x, y) => y[0] - x[0])) {
      const rows = Q.termEvents.extend(sql, args).all(store, { match: ftsAny(as) });
      for (const r of rows) {
        if (seen.has(r.event_id)) continue;
        seen.add(r.event_id);
        const root = rootOf(r.session_id);
        // Weight 1 counted as events; any related word marks the session (-1) when nothing typed does.
        if (typed) {
          const m = typed[ti] ??= new Map();
          m.set(root, w === 1 ? Math.max(0, m.get(root) ?? 0) + 1 : m.get(root) ?? -1);
        }
        wtf[ti].set(root, (wtf[ti].get(root) ?? 0) + eventWeight(r.kind, r.flags, relevance) * w);
        note(r.event_id, root, ti, r.kind, r.flags);
        // Held together in what a person, the model or the harness wrote, not in a tool's output.
        if (heldTyped && w === 1 && ti < 30 && r.kind !== "tool_result") {
          const t = asTyped.get(r.event_id);
          if (t) t.mask |= 1 << ti;
          else asTyped.set(r.event_id, { root, mask: 1 << ti });
        }
      }
    }
  });
  // Per session: the largest share of the query's IDF weight one event holds.
  const totalIdf = idf.reduce((a, b) => a + b, 0) || 1;
  const together = new Map<number, number>();
  for (const { root, mask, w: ew } of held.values()) {
    let w = 0;
    for (let ti = 0; ti < idf.length && ti < 30; ti++) if (mask & (1 << ti)) w += idf[ti] * ew;
    if (w / totalIdf > (together.get(root) ?? 0)) together.set(root, w / totalIdf);
  }
  // A frame word most sessions say (`root cause`) is no word of the query here.
  const framed = idf.map((v, ti) => v < Math.LN2 * (counts?.[ti] ?? 1));
  const of = idf.filter((_, ti) => ti < 30 && !framed[ti]).length;
  for (const { root, mask: all } of asTyped.values()) {
    let w = 0, mask = 0;
    for (let ti = 0; ti < idf.length && ti < 30; ti++) {
      if (all & (1 << ti) && !framed[ti]) w += idf[ti], mask |= 1 << ti;
    }
    if (w / totalIdf > (heldTyped!.get(root)?.share ?? 0)) {
      heldTyped!.set(root, { mask, share: w / totalIdf, of });
    }
  }
  // A pasted dump counts as its lines: one event of eighty log lines is no short session.
  const pasted = new Map<number, number>();
  if (!ABLATE.pasteLength) {
    for (const r of Q.pasteLines.all(store, { ids: JSON.stringify([...ids]) })) {
      const root = rootOf(r.session_id);
      pasted.set(root, (pasted.get(root) ?? 0) + r.n);
    }
  }
  // Adjacent query words held adjacent: one more term each, at a fraction of a word's weight.
  // Two words both too common to count per session are not read as a pair either: the phrase
  // read would walk most of the index (two common words on the 100 MB bench: +60 ms cold).
  const pairs = ABLATE.adjacent
    ? []
    : adjacentPairs(stats, alts, [...ids], f, rootOf, weights, (ti) => common[ti]);
  let floor = Infinity;
  for (const s of top) {
    const len = Math.max(1, cache.eventsUnder(s.sessionId) + (pasted.get(s.sessionId) ?? 0));
    let sc = 0;
    alts.forEach((_, ti) => {
      const tf = wtf[ti].get(s.sessionId) ?? 0;
      if (tf > 0) sc += idf[ti] * (tf * (K1 + 1)) / (tf + K1 * (1 - b + b * len / avg));
    });
    for (const p of pairs) {
      const tf = p.tf.get(s.sessionId) ?? 0;
      if (tf > 0) {
        sc += PAIR_WEIGHT * p.w * bm25Idf(sessions, p.df) * (tf * (K1 + 1)) /
          (tf + K1 * (1 - b + b * len / avg));
      }
    }
    const share = ABLATE.proximity ? 0 : s.spread ? (together.get(s.sessionId) ?? 0) : 1;
    s.score = sc * (1 + (TOGETHER - 1) * share * share);
    if (s.score < floor) floor = s.score;
  }
  // The rest stay behind, in their first-stage order.
  const rest = ranked.slice(RESCORE);
  const max = rest.length ? rest[0].score : 0;
  for (const s of rest) s.score = max > 0 ? (floor * 0.99 * s.score) / max : 0;
}
