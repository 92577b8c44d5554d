/**
 * Ranking: BM25 of the matched events, weighted by who wrote them and what
 * they say, summed per session with falling weights (so a long session is not
 * ranked up by its length), then multiplied by session-level signals.
 *
 * Event weight: user turns ×1.3 (what a person typed), assistant ×1.0,
 * summaries ×1.1, tool calls ×0.8, tool output ×0.6; a conclusion ("root
 * cause", "fixed by", "decided") ×1.5; a pasted dump in a user turn ×0.5.
 * In the `relevance` tier (a question in other words: lib/search/relevance.ts
 * and its session-level BM25, lib/search/sessionrank.ts) tool output weighs
 * {@link OUTPUT_RELEVANCE} (0.3): a session that names the question's words
 * only in a command's output or a log it read is rarely the one about them.
 * Measured on `paradev` (60 a seed, seeds 11/3/7/5, after the phrase rule of
 * lib/search/relevance.ts): hit@1 0.967/0.933/0.933/0.933 ->
 * 0.967/0.950/0.933/0.950; 0.45 gained the same, and so did 0.3 in every
 * tier (kept to this one: the literal and error tiers find what a person
 * pasted back from an output, and were not measured with it).
 * No other kind moved; held-out paraphrase 0.58/0.52/0.57/0.63 ->
 * 0.58/0.53/0.53/0.65, blind 0.47/0.53/0.48/0.49 -> 0.47/0.53/0.50/0.49.
 * Session score: best event + 0.3 × second + 0.15 × third. A session whose
 * terms are spread over several events (no event holds all) scores the sum of
 * each term's best event × 0.7.
 * Session multipliers: a note (harness `deja`) ×2, a session that gave up
 * (its last word is giving up, after any conclusion) ×0.6, a throwaway
 * project ×0.5, a gentle recency decay `0.85 + 0.15·e^(−age in days / 60)`
 * (×0.98 a week old, ×0.94 a month, ×0.85 a year: a tie-breaker, measured on
 * the recall benchmark where a steeper `1 / (1 + 0.1·log2(1 + days))` cost
 * questions a quarter of their hits, and `0.8 + 0.2·e^(…)` still let a
 * session five days old beat a better match six weeks old), and time words in
 * the query (×1.5 inside the window, falling outside it). An undated session
 * (only a shared file's mtime dates it, a prompt history: lib/session_time.ts)
 * takes the floor ×0.85, as if a year old, and no window holds it; a session
 * dated by its own file's mtime is aged by it as by a recorded time.
 *
 * @module
 */
import { CONCLUSION, PASTE } from "./signals.ts";
import type { Row } from "./retrieve.ts";
import { timeFit, type TimeHint } from "./timewords.ts";

const KIND_WEIGHT: Record<string, number> = {
  user: 1.3,
  assistant: 1.0,
  summary: 1.1,
  tool_call: 0.8,
  tool_result: 0.6,
  // The harness speaking (an interrupt marker, a slash command's output, a Copilot error):
  // found when its words are pasted, never ranked above what the people and the model said.
  notice: 0.6,
};

/**
 * Ranking changes a benchmark can switch off one at a time to measure them
 * (`SearchOptions.ablate`; bench/recall_bench.ts `--ablate`). Never set
 * outside a search call.
 */
export const ABLATE = {
  /** No session-level BM25: the first stage's event scores decide. */
  rescore: false,
  /** Relevance: a session holding the query's one word the history holds, alone, is left out. */
  onlyHeld: false,
  /** A long question's first listed session holding every word is not put first. */
  heldFirst: false,
  /** No proximity factor in the session-level BM25. */
  proximity: false,
  /** Every kind of event weighs the same. */
  roles: false,
  /** No conclusion boost, paste penalty or gave-up penalty. */
  signals: false,
  /** No recency decay. */
  recency: false,
  /** Long queries go down the ladder like short ones. */
  long: false,
  /** A long query's words the history holds nowhere are not spelt again (lib/search/spelling.ts), nor a title's when nothing matched. */
  spelt: false,
  /** A long query no session holds as typed is not matched again in word forms (lib/search/ladder.ts `formsTogether`). */
  longForms: false,
  /** A title is matched as typed or spelt again only, never by the forms of its words (lib/search/title.ts). */
  titleForms: false,
  /** Common English words the history lacks are corrected like any other (lib/search/english.ts). */
  english: false,
  /** A weak literal match stops the ladder: no forms beside exact matches, no relevance beside a long query's spread ones (lib/search/ladder.ts). */
  compete: false,
  /** No session-level AND: only events holding every term match. */
  spread: false,
  /** The relevance tier does not widen with related words (lib/search/related.ts). */
  related: false,
  /** Related words only for a word the history never wrote (not beside one it holds). */
  widen: false,
  /** No associations learned from the history (lib/search/assoc.ts). */
  learned: false,
  /** No products named by what they are (lib/search/products_match.ts). */
  products: false,
  /** Every alternative of a relevance term counts the same in the session-level BM25. */
  tiered: false,
  /** The session-level BM25 weighs terms by the events that hold them, not the sessions. */
  sessionIdf: false,
  /** A pasted dump counts as one event, not as its lines, in a session's length. */
  pasteLength: false,
  /** A path typed alone lifts the sessions that changed the file (lib/search/changed.ts). */
  changed: false,
  /**
   * Words one event holds together count alike whoever wrote the event, a tool's output too
   * (lib/search/sessionrank.ts; the literal tiers).
   */
  proximityKind: false,
  /** Adjacent query words held adjacent count for nothing more (lib/search/adjacent.ts). */
  adjacent: false,
  /** A pair read only in the forms typed, never with a thesaurus word for one half (lib/search/adjacent.ts). */
  relatedPairs: false,
  /** Two words typed apart for one the history holds weigh as one word, not two (lib/search/relevance.ts). */
  joinedCount: false,
  /** The literal tiers read two words typed apart only as typed, never as the one word the history writes. */
  joinedLiteral: false,
  /** A word typed alone lists its exact matches only, not its other forms after them (lib/search/ladder.ts). */
  aloneForms: false,
  /** Forms join a question's exact matches even when an event holds its words as typed close together (lib/search/ladder.ts). */
  nearForms: false,
  /** A word is read inside dictionary words and after any letters (lib/search/expand.ts `fragmentHolders`). */
  fragmentWords: false,
  /** A word the history holds is read inside longer words beside other words too (lib/search/expand.ts). */
  heldFragments: false,
  /** A short query no event holds as typed is not matched in forms held together first (lib/search/ladder.ts). */
  shortForms: false,
  /** A long query's words held in forms in one event leave out the sessions holding them as typed, scattered (lib/search/ladder.ts). */
  scattered: false,
  /** A question's few literal matches are listed alone, with no nearest by relevance after them (lib/search.ts). */
  nearestAfter: false,
  /** Two words typed that sessions hold, never one session both, are widened to their related words (lib/search/relevance.ts). */
  twoApart: false,
  /** A synonym lends every word of its stem, not its inflections only (lib/search/expand.ts). */
  synonymStems: false,
  /** Every word's forms are named, also one every session listed holds as typed (lib/search.ts). */
  usedChanges: false,
  /** No concept coordination in the relevance tier (lib/search/concepts.ts). */
  coordinate: false,
  /** The relevance tier is not reranked by the fields a session states its work in (lib/search/fielded.ts). */
  fielded: false,
  /** A literal match whose head holds every query word is not lifted (lib/search/fielded.ts `liftLiteralHeads`). */
  literalHeads: false,
  /** A query of one or two words naming a time no exact match falls in is not matched in forms too (lib/search/ladder.ts). */
  timeForms: false,
  /** A word typed whole is not also matched as the two words the history writes apart (lib/search/compounds.ts `writtenApart`). */
  apart: false,
  /** Two words typed apart are not read as the one word the history writes (lib/search/compounds.ts `joinedWords`). */
  joined: false,
  /** The relevance tier normalises session length as the literal tiers do (lib/search/sessionrank.ts `B_RELEVANCE`). */
  relevanceLength: false,
  /** In the fielded rerank one head word may stand for several query words (lib/search/fielded.ts). */
  distinct: false,
  /** The fielded rerank does not lift a head that names every concept of the query. */
  headConcepts: false,
  /** The fielded rerank may lift a session above one repeating the query's rarest word it lacks. */
  rareHeld: false,
  /** The fielded rerank may leave a session holding all the query's words but one in one event below sessions holding fewer. */
  heldTogether: false,
  /**
   * A query word the history holds only in another form (`bill` as `billing`) is widened with
   * related words only when the whole query is (lib/search/relevance.ts).
   */
  formWiden: false,
  /** Tool output weighs in the `relevance` tier as in the literal tiers (`OUTPUT_RELEVANCE`). */
  relevanceOutput: false,
  /**
   * A related word two neighbouring query words share counts at the second word's share, not
   * as the phrase they name (lib/search/relevance.ts).
   */
  phrase: false,
  /** A compound is not read as its phrasal verb in the relevance tier (`logout` for "logs users out"). */
  phrasal: false,
  /**
   * A word the history never wrote, nor any of its related words, does not borrow the related
   * words of the group words sharing its stem (`archival` -> `archive`, lib/search/related.ts).
   */
  derived: false,
  /**
   * A quoted phrase beside words no session holds together finds nothing, not the phrase's
   * holders ranked by relevance (lib/search/ladder.ts `phraseRelevance`).
   */
  phraseRelevance: false,
  /** A query held verbatim as a phrase does not rank its sessions first (lib/search/verbatim.ts). */
  verbatim: false,
};
/** A name of {@link ABLATE}. */
export type Ablation = keyof typeof ABLATE;

/** Runs `fn` with the ranking changes `names` switched off. */
export function withAblation<T>(names: readonly Ablation[] | undefined, fn: () => T): T {
  if (!names?.length) return fn();
  const saved = { ...ABLATE };
  for (const n of names) ABLATE[n] = true;
  try {
    return fn();
  } finally {
    Object.assign(ABLATE, saved);
  }
}

/** Tool output's weight in the `relevance` tier (see the module doc). */
export const OUTPUT_RELEVANCE = 0.3;

/**
 * The weight of one event (see the module doc); `relevance`: ranked in the
 * `relevance` tier, where tool output weighs {@link OUTPUT_RELEVANCE}.
 */
export function eventWeight(kind: string, flags: number, relevance = false): number {
  let w = ABLATE.roles ? 1 : KIND_WEIGHT[kind] ?? 1;
  if (relevance && kind === "tool_result" && !ABLATE.roles && !ABLATE.relevanceOutput) {
    w = OUTPUT_RELEVANCE;
  }
  if (ABLATE.signals) return w;
  if (flags & CONCLUSION) w *= 1.5;
  if (kind === "user" && flags & PASTE) w *= 0.5;
  return w;
}

/** A matched event with its weighted score (higher is better). */
export interface ScoredEvent {
  row: Row;
  score: number;
}

/** A session's matches before session-level multipliers. */
export interface SessionScore {
  /** Row id of the session the hits are filed under (a subagent's parent). */
  sessionId: number;
  score: number;
  /** Its matched events, best first. */
  events: ScoredEvent[];
  /** No single event holds every term. */
  spread: boolean;
  /** Its matches were read up to a limit: `events` counts some of them, not all. */
  capped?: boolean;
}

/** Best event + 0.3 × second + 0.15 × third. */
export function combine(scores: number[]): number {
  const s = [...scores].sort((a, b) => b - a);
  return (s[0] ?? 0) + 0.3 * (s[1] ?? 0) + 0.15 * (s[2] ?? 0);
}

/**
 * Scores event-level matches: each row already holds every term.
 *
 * @param rootOf maps a session row id to the id its hits are filed under.
 */
export function scoreRows(rows: Row[], rootOf: (id: number) => number): Map<number, SessionScore> {
  const out = new Map<number, SessionScore>();
  for (const r of rows) {
    const sid = rootOf(r.session_id);
    let s = out.get(sid);
    if (!s) out.set(sid, s = { sessionId: sid, score: 0, events: [], spread: false });
    s.events.push({ row: r, score: -r.bm25 * eventWeight(r.kind, r.flags) });
  }
  for (const s of out.values()) {
    s.events.sort((a, b) => b.score - a.score);
    s.score = combine(s.events.slice(0, 3).map((e) => e.score));
  }
  return out;
}

/** Scores session-level matches: per term, the rows of one session that hold it. */
export function scoreSpread(perTerm: Row[][], sessionId: number): SessionScore {
  const events: ScoredEvent[] = [];
  let sum = 0;
  for (const rows of perTerm) {
    let best = 0;
    for (const r of rows) {
      const sc = -r.bm25 * eventWeight(r.kind, r.flags);
      events.push({ row: r, score: sc });
      if (sc > best) best = sc;
    }
    sum += best;
  }
  events.sort((a, b) => b.score - a.score);
  return { sessionId, score: 0.7 * sum, events, spread: true };
}

/** What session-level multipliers read about a session. */
export interface SessionFacts {
  harness: string;
  started: number | null;
  updated: number | null;
  /** Its last giving-up comes after its last conclusion. */
  gaveUp: boolean;
  throwaway: boolean;
  /**
   * Undated: its times are only a shared file's mtime (lib/session_time.ts), the newest
   * prompt's of a prompt history: no recency bonus, and a time word's window never holds it.
   */
  undated?: boolean;
}

/** The product of the session-level multipliers (see the module doc). */
export function sessionMultiplier(f: SessionFacts, now: number, time?: TimeHint): number {
  let m = 1;
  if (f.harness === "deja") m *= 2;
  if (f.gaveUp && !ABLATE.signals) m *= 0.6;
  if (f.throwaway) m *= 0.5;
  const last = f.undated ? null : f.updated ?? f.started;
  if (last && !ABLATE.recency) {
    const days = Math.max(0, (now - last) / 86400e3);
    m *= 0.85 + 0.15 * Math.exp(-days / 60);
  } else if (f.undated && !ABLATE.recency) m *= 0.85; // as if long ago, never recent
  const first = f.undated ? null : f.started;
  if (time) m *= timeFit(time, first ?? last ?? 0, last ?? first ?? 0);
  return m;
}
