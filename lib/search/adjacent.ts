/**
 * Adjacent words: two words next to each other in the query (stop words
 * aside) and next to each other in an event, in any of their forms — `time
 * out` in the query, `times out` in the turn that described the problem. A
 * session that holds the query's words as the phrases they were typed in
 * says what the query says, where one that holds them apart (`time` in one
 * turn, `out` in another) may only name them; the second stage of ranking
 * (lib/search/sessionrank.ts) counts each pair as one more term, at a
 * fraction of a word's weight (the ordered-window feature of sequential
 * dependence models).
 *
 * @module
 */
import { ftsTerm, GAP } from "../query.ts";
import { Q } from "../schema.ts";
import { type Filters, filterSql } from "./retrieve.ts";
import { eventWeight } from "./rank.ts";
import { type TermStats, wordForms } from "./expand.ts";

/** A pair's weight beside a word's. */
export const PAIR_WEIGHT = 0.3;
/** Forms of each word a pair is read with. */
const FORMS = 3;
/** Pairs read at most (a longer query is a paste). */
const MAX_PAIRS = 8;
/** Events read to count the sessions holding a pair. */
const SAMPLE = 2000;

/** One pair of adjacent query words: in how many sessions, and per root session its weighted count. */
export interface Pair {
  /** Sessions of the history holding it. */
  df: number;
  /** Per root session: its events holding the pair, each at its weight (lib/search/rank.ts). */
  tf: Map<number, number>;
}

/**
 * The pairs of adjacent query words (`alts`: per word, its alternatives as
 * token lists; only those of weight 1 are read) held adjacent by events of
 * sessions `ids`, filed under `rootOf`. A pair of two words `common` says are
 * too common to count per session is left out.
 */
export function adjacentPairs(
  stats: TermStats,
  alts: string[][][],
  ids: number[],
  f: Filters,
  rootOf: (id: number) => number,
  weights?: number[][],
  common: (ti: number) => boolean = () => false,
): Pair[] {
  const out: Pair[] = [];
  if (alts.length < 2 || !ids.length) return out;
  // A word's forms, looked up only for a pair that is read (two common words are not: their
  // forms cost a cold query ~10 ms for nothing, issue 15).
  const known = new Map<number, string[][]>();
  const forms = (ti: number): string[][] => {
    const got = known.get(ti);
    if (got) return got;
    const own = alts[ti].filter((_, i) => (weights?.[ti]?.[i] ?? 1) === 1);
    const set = new Map<string, string[]>();
    // A phrase that may hold a word between (`logs … out`) is a pair's half as written together.
    for (const toks of own.map((t) => t.filter((x) => x !== GAP))) {
      set.set(toks.join(" "), toks);
      if (toks.length === 1) {
        for (const w of wordForms(stats, toks[0]).slice(0, FORMS)) set.set(w, [w]);
      }
    }
    const list = [...set.values()];
    known.set(ti, list);
    return list;
  };
  const { sql, args } = filterSql({ ...f, sessionIds: ids }, "fts");
  for (let i = 0; i + 1 < alts.length && out.length < MAX_PAIRS; i++) {
    if (common(i) && common(i + 1)) continue;
    const phrases = forms(i).flatMap((a) => forms(i + 1).map((b) => ftsTerm([...a, ...b])));
    if (!phrases.length) continue;
    const match = phrases.length === 1 ? phrases[0] : `(${phrases.join(" OR ")})`;
    const df = Q.termSessions.get(stats.store, { match, limit: SAMPLE })!.s;
    if (!df) continue;
    const tf = new Map<number, number>();
    for (const r of Q.termEvents.extend(sql, args).all(stats.store, { match })) {
      const root = rootOf(r.session_id);
      tf.set(root, (tf.get(root) ?? 0) + eventWeight(r.kind, r.flags));
    }
    if (tf.size) out.push({ df, tf });
  }
  return out;
}
