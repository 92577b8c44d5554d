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
 * A half may also be a thesaurus word for the query's word, the pair then at
 * that word's weight: "lose messages" reads "drops messages". Trial on the
 * benchmark: `why did the sync daemon lose messages in july` put the session
 * that "loses the timezone" above the one that "drops messages silently"
 * (`loses` is a form of the word typed, `drops` only related). Measured
 * (`deno task bench:recall --no-binary --per-kind 60`, seeds 11/3/7/5):
 * `question` hit@1 1.00/0.93/0.97/0.97 -> 1.00/0.95/0.97/0.98, held-out
 * `paraphrase` hit@5 on seed 7 0.77 -> 0.78, nothing else moved
 * (`bench:real` unchanged). Learned associations (weight 0.2 or less) are not
 * read as halves.
 *
 * @module
 */
import { ftsTerm, GAP } from "../query.ts";
import { Q } from "../schema.ts";
import { type Filters, filterSql } from "./retrieve.ts";
import { ABLATE, eventWeight } from "./rank.ts";
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
  /** The pair's weight beside one held in the forms typed (1): a related word's for one half. */
  w: number;
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
  // The sessions holding any of `phrases` (FTS5 phrase terms), at weight `w`; none: undefined.
  const held = (phrases: string[], w: number): Pair | undefined => {
    if (!phrases.length) return undefined;
    const match = phrases.length === 1 ? phrases[0] : `(${phrases.join(" OR ")})`;
    const df = Q.termSessions.get(stats.store, { match, limit: SAMPLE })!.s;
    if (!df) return undefined;
    const tf = new Map<number, number>();
    for (const r of Q.termEvents.extend(sql, args).all(stats.store, { match })) {
      const root = rootOf(r.session_id);
      tf.set(root, (tf.get(root) ?? 0) + eventWeight(r.kind, r.flags));
    }
    return tf.size ? { df, tf, w } : undefined;
  };
  for (let i = 0; i + 1 < alts.length && out.length < MAX_PAIRS; i++) {
    if (common(i) && common(i + 1)) continue;
    const phrases = forms(i).flatMap((a) => forms(i + 1).map((b) => ftsTerm([...a, ...b])));
    // Two words typed apart that the history writes as one (lib/search/compounds.ts
    // `joinedPairs`): each may be that word, and the word is the two held together.
    const one = new Set(alts[i + 1].filter((t) => t.length === 1).map((t) => t[0]));
    for (const t of alts[i]) if (t.length === 1 && one.has(t[0])) phrases.push(ftsTerm(t));
    const pair = held(phrases, 1);
    if (pair) out.push(pair);
  }
  if (ABLATE.relatedPairs || !weights) return out;
  // A thesaurus word for one half: `lose messages` read as "drops messages" too, at its weight.
  const related = (ti: number) =>
    alts[ti].flatMap((toks, i) => {
      const w = weights[ti]?.[i] ?? 1;
      return w >= RELATED_PAIR && w < 1 && !toks.includes(GAP) ? [{ toks, w }] : [];
    }).slice(0, RELATED_HALVES);
  for (let i = 0; i + 1 < alts.length && out.length < MAX_PAIRS * 2; i++) {
    if (common(i) && common(i + 1)) continue;
    const [ra, rb] = [related(i), related(i + 1)];
    if (!ra.length && !rb.length) continue;
    const phrases = [
      ...ra.flatMap((a) => forms(i + 1).map((b) => [...a.toks, ...b])),
      ...rb.flatMap((b) => forms(i).map((a) => [...a, ...b.toks])),
    ].map(ftsTerm);
    const pair = held(phrases, Math.max(...[...ra, ...rb].map((x) => x.w)));
    if (pair) out.push(pair);
  }
  return out;
}

/** Lowest weight of a related word read as a pair's half (the thesaurus's; learned words are weaker). */
const RELATED_PAIR = 0.5;
/** Related words read per half. */
const RELATED_HALVES = 6;
