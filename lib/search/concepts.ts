/**
 * Concept coordination for the relevance tier: a question in other words
 * usually names two things — a component and what went wrong with it
 * (`bill creation: dies immediately when launched`). The session it is about
 * holds each once; other sessions hold one of them many times. Ranked word
 * by word, three words for one concept outweigh the one word of the other.
 *
 * So the query is cut into concept chunks at clause boundaries (punctuation,
 * `when`, `after`, `because` …; the question's scaffolding is stop words and
 * falls away), the words of a chunk count as one concept, and a session's
 * final score is scaled by the IDF-weighted share of concepts it covers
 * (the coordination factor of classic IR), after the session-level BM25.
 * A query of one chunk is left as it was.
 *
 * @module
 */
import { ftsAny } from "../query.ts";
import type { Store } from "../store.ts";
import { type Filters, matchRows } from "./retrieve.ts";
import { tokens } from "./tokenize.ts";
import type { SessionScore } from "./rank.ts";
import { ABLATE } from "./rank.ts";

/** Words that start a new clause: what comes after names something else. */
const CLAUSE = new Set([
  "when",
  "whenever",
  "while",
  "after",
  "before",
  "because",
  "since",
  "once",
  "if",
  "but",
  "whereas",
]);
/** Punctuation that separates two things named. */
const BREAK = /[:;,?!()[\]{}]|\s[-–—]+\s|\.(?:\s|$)/;

/**
 * The query's chunks: token runs between clause words and separating
 * punctuation, in order (`how did we deal with the X when Y` -> X, Y;
 * `X: Y` -> X, Y). Empty chunks are left out.
 */
export function conceptChunks(query: string): string[][] {
  const out: string[][] = [];
  for (const piece of query.split(BREAK)) {
    let cur: string[] = [];
    for (const t of tokens(piece)) {
      if (CLAUSE.has(t)) {
        if (cur.length) out.push(cur);
        cur = [];
      } else cur.push(t);
    }
    if (cur.length) out.push(cur);
  }
  return out;
}

/** Coordination tuning, measured on the `paradev` queries of `deno task bench:recall`. */
export const COORD = {
  /** Final score × share^this (0: off). */
  power: 1,
  /** A concept's share of its own words ^this. */
  inner: 0.5,
  /** Sessions of the best re-scored that are checked for every concept. */
  top: 100,
};

/** One concept of the query: the terms (indices of the relevance tier's words) it joins. */
export interface Concept {
  terms: number[];
  /** Its weight: the IDF of its most informative word. */
  idf: number;
}

/** What {@link coordinate} needs from the relevance tier. */
export interface Coordination {
  concepts: Concept[];
  /** Per term, what it matches (as typed, forms, related words) and at what weight (1 as typed). */
  alts: Map<string, number>[];
  /** Per term, its IDF. */
  idfs: number[];
  f: Filters;
}

/**
 * Groups the relevance tier's `words` (with their IDFs) by the chunk of
 * `query` they first appear in. Undefined when fewer than two concepts remain
 * (nothing to coordinate).
 */
export function conceptsOf(query: string, words: string[], idfs: number[]): Concept[] | undefined {
  if (ABLATE.coordinate) return undefined;
  const chunks = conceptChunks(query);
  const byChunk = new Map<number, number[]>();
  words.forEach((w, ti) => {
    const ci = chunks.findIndex((c) => c.includes(w));
    if (ci < 0) return;
    byChunk.set(ci, [...(byChunk.get(ci) ?? []), ti]);
  });
  if (byChunk.size < 2) return undefined;
  return [...byChunk.values()].map((terms) => ({
    terms,
    idf: Math.max(...terms.map((ti) => idfs[ti])),
  }));
}

/**
 * Scales the re-scored `scores` in place by the share of the query's
 * concepts each session covers, each concept by its IDF times the weight of
 * the best word of it the session holds (1 as typed, less for a related
 * word). Only the best {@link COORD.top} are read; the rest keep their order
 * below them.
 *
 * @param members the ids filed under a root session (itself and its subagents).
 */
export function coordinate(
  store: Store,
  c: Coordination,
  scores: Map<number, SessionScore>,
  members: (root: number) => number[],
  rootOf: (id: number) => number,
): void {
  if (!COORD.power || !scores.size) return;
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score);
  const top = ranked.slice(0, COORD.top);
  const ids = top.flatMap((s) => members(s.sessionId));
  /** Per term, per session: the weight of the best word of it the session holds. */
  const held = c.alts.map(() => new Map<number, number>());
  const inConcept = new Set(c.concepts.flatMap((k) => k.terms));
  c.alts.forEach((alts, ti) => {
    if (!inConcept.has(ti)) return;
    const byWeight = new Map<number, string[]>();
    for (const [a, w] of alts) {
      const v = Math.round(10 * Math.min(1, w)) / 10;
      if (v > 0) byWeight.set(v, [...(byWeight.get(v) ?? []), a]);
    }
    for (const [v, as] of [...byWeight].sort((x, y) => y[0] - x[0])) {
      const lacking = ids.filter((id) => !held[ti].has(rootOf(id)));
      if (!lacking.length) break;
      const rows = matchRows(store, ftsAny(as.map((a) => [a])), c.f, 10_000, lacking);
      for (const r of rows) {
        const root = rootOf(r.session_id);
        if (!held[ti].has(root)) held[ti].set(root, v);
      }
    }
  });
  // A concept counts by the IDF-weighted share of its own words the session holds.
  const total = c.concepts.reduce((s, k) => s + k.idf, 0) || 1;
  let floor = Infinity;
  for (const s of top) {
    let share = 0;
    for (const k of c.concepts) {
      const all = k.terms.reduce((x, ti) => x + c.idfs[ti], 0) || 1;
      const got = k.terms.reduce((x, ti) => x + c.idfs[ti] * (held[ti].get(s.sessionId) ?? 0), 0);
      share += k.idf * Math.pow(got / all, COORD.inner);
    }
    s.score *= Math.pow(share / total, COORD.power);
    floor = Math.min(floor, s.score);
  }
  const rest = ranked.slice(COORD.top);
  const max = rest.length ? rest[0].score : 0;
  for (const s of rest) s.score = max > 0 ? (floor * 0.99 * s.score) / max : 0;
}
