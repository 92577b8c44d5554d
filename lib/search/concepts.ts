/**
 * Concept coordination for the relevance tier: a question in other words
 * usually names two things — a component and what went wrong with it
 * (`bill creation: dies immediately when launched`). The session it is about
 * holds each once; other sessions hold one of them many times. Ranked word
 * by word, three words for one concept outweigh the one word of the other.
 *
 * So the query is cut into concept chunks at clause boundaries (punctuation,
 * `when`, `after`, `because` …; stop words and the question's scaffolding —
 * `how did we fix`, `what was the root cause` — fall away), and after the
 * session-level BM25 a session is lifted when one of its events names two or
 * more concepts together (the component and its symptom in one sentence), by
 * the IDF share of the concepts that event holds. A concept counts only its
 * informative words and their closer related words (a learned association
 * or a word like `get` names nothing). A query of one chunk is left as it was.
 *
 * Measured (`deno task bench:recall --no-binary`, seeds 11, 3, 7): a share
 * of concepts covered anywhere in the session (the classic coordination
 * factor) did not help: the loose related words cover every concept in most
 * sessions, and the held-out paraphrases lost; the lift for concepts held
 * together gained on the tuning set and lost nowhere.
 *
 * Measured and not kept (issue 15; `--per-kind 60`, `paradev` seeds
 * 13/17/19, hit@1 0.867/0.967/0.883): a word among the strong words of two
 * concepts (`login` for both `sign-in` and `credentials`) counting for the
 * first only, or for neither, so that one word of an event does not name two
 * concepts: 0.850/0.967/0.883 either way.
 *
 * @module
 */
import { ftsAny, STOP_WORDS } from "../query.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { type Filters, filterSql } from "./retrieve.ts";
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
/**
 * Words of the question's scaffolding, not of what it asks about (`what was
 * the root cause when …`, `how did we fix the …`): in no concept.
 */
export const SCAFFOLD: ReadonlySet<string> = new Set(
  ("root cause causes fix fixed fixing deal dealt solve solved handle handled problem " +
    "issue bug happen happened figure figured started start").split(" "),
);
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
      } else if (!SCAFFOLD.has(t) && !STOP_WORDS.has(t)) cur.push(t);
    }
    if (cur.length) out.push(cur);
  }
  return out;
}

/** Coordination tuning, measured on the `paradev` queries of `deno task bench:recall`. */
export const COORD = {
  /** Score × (1 + this × share²), share: the IDF share of the concepts one event holds together. */
  boost: 0.5,
  /** A word counts towards its concept only above this IDF (`get`, `up` name nothing). */
  minIdf: 1,
  /** ... and a related word only at this weight or more. */
  minWeight: 0.5,
  /** Sessions of the best re-scored that are read. */
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
 * Lifts, in place, the re-scored sessions where one event names several of
 * the query's concepts together (the component and what went wrong with it,
 * in one sentence), by the IDF share of the concepts that event holds. Only
 * the best {@link COORD.top} are read; the rest keep their order below them.
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
  if (!COORD.boost || !scores.size) return;
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score);
  const top = ranked.slice(0, COORD.top);
  const ids = top.flatMap((s) => members(s.sessionId));
  /** Per event: its session and the concepts it names. */
  const events = new Map<number, { root: number; held: Set<number> }>();
  c.concepts.forEach((k, ci) => {
    const strong = new Set<string>();
    for (const ti of k.terms) {
      if (c.idfs[ti] < COORD.minIdf) continue;
      for (const [a, w] of c.alts[ti]) if (w >= COORD.minWeight) strong.add(a);
    }
    if (!strong.size) return;
    const { sql, args } = filterSql({ ...c.f, sessionIds: ids }, "fts");
    const rows = Q.termEvents.extend(sql, args).all(store, {
      match: ftsAny([...strong].map((a) => [a])),
    });
    for (const r of rows) {
      let e = events.get(r.event_id);
      if (!e) events.set(r.event_id, e = { root: rootOf(r.session_id), held: new Set() });
      e.held.add(ci);
    }
  });
  const total = c.concepts.reduce((s, k) => s + k.idf, 0) || 1;
  const together = new Map<number, number>();
  for (const { root, held } of events.values()) {
    if (held.size < 2) continue;
    let w = 0;
    for (const ci of held) w += c.concepts[ci].idf;
    together.set(root, Math.max(together.get(root) ?? 0, w / total));
  }
  let floor = Infinity;
  for (const s of top) {
    const share = together.get(s.sessionId) ?? 0;
    s.score *= 1 + COORD.boost * share * share;
    floor = Math.min(floor, s.score);
  }
  const rest = ranked.slice(COORD.top);
  const max = rest.length ? rest[0].score : 0;
  for (const s of rest) s.score = max > 0 ? (floor * 0.99 * s.score) / max : 0;
}
