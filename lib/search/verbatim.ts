/**
 * A query held verbatim: three or more words that some event holds as one
 * phrase, in order, every word counted (stop words too). The ladder drops the
 * common words of such a query (`No such file or directory` is searched as
 * `file directory`), so a session naming a file and a directory anywhere
 * ranked with the ones that hold the message pasted back, and word forms
 * ranked above the sentence as typed (`IF YOUR REPORTS ARE NOT VAULTED` gave
 * a session with `report` and `vault` in tool output first, the three that
 * typed the sentence 3rd, 5th and 7th; new-user trial, 2026-12, real
 * stores). The sessions holding the phrase rank above every other, keeping
 * their order among themselves; a typed prompt and a title still rank above
 * them (lib/search/prompt.ts, lib/search/title.ts).
 *
 * @module
 */
import { ftsTerm, type QueryTerm } from "../query.ts";
import { joinedPairs } from "./compounds.ts";
import { type Filters, filterSql, type Row } from "./retrieve.ts";
import { Q } from "../schema.ts";
import { ABLATE, type ScoredEvent, type SessionScore } from "./rank.ts";
import { joinableName, type TermStats } from "./expand.ts";
import { tokens } from "./tokenize.ts";

/** Fewest tokens read as a phrase (two are held side by side by chance too often). */
const MIN_TOKENS = 3;
/** Most tokens read as a phrase (a longer query is a paste: the ladder reads it). */
const MAX_TOKENS = 40;
/** Events read. */
const MAX_ROWS = 200;
/** A phrase whose rarest word is in more than this share of events is not read. */
const COMMON = 0.2;

/** The events holding a query as one phrase ({@link phraseRows}). */
export interface PhraseRows {
  /** Best by BM25 first. */
  rows: Row[];
  /** Every event holding it is here (fewer than the read's limit): a subset needs no read. */
  complete: boolean;
}

/**
 * The events holding `query`'s tokens as one phrase under filters `f`; undefined for a
 * query of fewer than three tokens or more than forty, or whose rarest token is in more
 * than a fifth of the events (not read). Read once a search: the sessions holding the
 * phrase ({@link verbatimHolders}) and a typed prompt's turns (lib/search/prompt.ts) are both
 * among them.
 */
export function phraseRows(stats: TermStats, query: string, f: Filters): PhraseRows | undefined {
  const toks = tokens(query);
  if (toks.length < MIN_TOKENS || toks.length > MAX_TOKENS) return undefined;
  // A phrase of words that are everywhere (`error build file` on the 100 MB bench, each in
  // 58-91 % of events) says nothing a session-level match does not, and reading it walks
  // their whole position lists (a cold query +40 ms): only a phrase with a rarer word.
  const store = stats.store;
  const n = Math.max(1, Q.eventCount.get(store, {})!.n);
  if (Math.min(...toks.map((t) => stats.docs(t))) / n > COMMON) return undefined;
  const rows = newestRows(stats, f, toks, MAX_ROWS);
  return { rows, complete: rows.length < MAX_ROWS };
}

/**
 * The newest `limit` events holding `toks` as a phrase under filters `f`, then best by BM25
 * first: in rowid order FTS5 stops at the limit, where ranking every match of common words
 * cost a cold query 25-70 ms on the 100 MB bench.
 */
function newestRows(stats: TermStats, f: Filters, toks: string[], limit: number): Row[] {
  const { sql, args } = filterSql(f, "fts");
  return Q.searchRows.extend(`${sql} ORDER BY events_fts.rowid DESC LIMIT ${limit}`, args)
    .all(stats.store, { match: ftsTerm(toks) }).sort((a, b) => a.bm25 - b.bm25);
}

/** One name written with separators (`fetch_user_by_id`, `on-click`, `my-app.config`). */
const SEPARATED = /^[\p{L}\p{N}]+(?:[_.-][\p{L}\p{N}]+)+$/u;

/** Fewest characters of a name the query's words make joined ({@link joinedRows}). */
const MIN_JOINED = 10;

/**
 * The events holding the name `query`'s words make written joined, as code writes them
 * (`fetch user by id` -> `fetchUserById`, `fetch_user_by_id` being read as its words already):
 * three or more tokens of letters and digits, ten characters or more together, a word the
 * index holds in at most a fifth of the events; undefined otherwise. Such a name holds the
 * words, in order, as one token, so its sessions rank with those holding the phrase (trial 14:
 * `deja "fetch user by id"` listed four sessions naming `fetch`, `user` and `id` anywhere
 * and not the one defining `fetchUserById`).
 */
export function joinedRows(
  stats: TermStats,
  query: string,
  f: Filters,
): OtherSpelling | undefined {
  if (ABLATE.verbatim) return undefined;
  const toks = tokens(query.replace(/[_.-]/g, " "));
  // A name typed with separators (`on_click`, `set-up`) is a name of two words too (trial 17:
  // `on_click` never found `onClick`); words typed apart need three (`data base` is no name).
  const ident = SEPARATED.test(query.trim());
  if (toks.length < (ident ? 2 : MIN_TOKENS) || toks.length > 8) return undefined;
  if (toks.some((t) => !/^[a-z0-9]+$/.test(t))) return undefined;
  // `2.3.1` is a version, not `231` (trial 17), nor is `v2.3.1` a `v231`.
  if (!joinableName(toks)) return undefined;
  const token = toks.join("");
  if (token.length < (ident ? 6 : MIN_JOINED) || token.length > 48) return undefined;
  const docs = stats.docs(token);
  const n = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  if (!docs || docs / n > COMMON) return undefined;
  const rows = newestRows(stats, f, [token], MAX_ROWS);
  return rows.length ? { token, toks: [token], rows, how: "joined" } : undefined;
}

/**
 * The events holding the one word that a query of two words typed apart stands for, as the
 * history writes it (`file name` -> `filename`, lib/search/compounds.ts `joinedPairs`), and
 * those holding the two as a phrase: their sessions rank first, as the search says it read them
 * (trial 24: `file name` said "also as one word: filename" and listed the only session
 * holding it 14th of 17, below sessions naming `file` and `name` apart). Undefined for any
 * other query, or a word in more than a fifth of the events.
 */
export function pairRows(
  stats: TermStats,
  parts: readonly QueryTerm[],
  query: string,
  f: Filters,
): OtherSpelling | undefined {
  if (ABLATE.verbatim || ABLATE.joinedLiteral || parts.length !== 2) return undefined;
  const pair = joinedPairs(stats, parts, query).get(0);
  if (!pair) return undefined;
  const n = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  if (stats.docs(pair.word) / n > COMMON) return undefined;
  // The two as a phrase too: a query of two words has no phrase read of its own (phraseRows).
  const word = newestRows(stats, f, [pair.word], MAX_ROWS);
  const rows = [...word, ...newestRows(stats, f, pair.typed.split(" "), MAX_ROWS)]
    .sort((a, b) => a.bm25 - b.bm25);
  return rows.length
    ? { token: pair.word, toks: [pair.word], rows, how: "joined", wordRows: word }
    : undefined;
}

/** The query as another spelling of it holds it ({@link joinedRows}, {@link versionRows}). */
export interface OtherSpelling {
  /** The other spelling, as indexed (`fetchuserbyid`, `v2.3.1`). */
  token: string;
  /** Its tokens, a phrase. */
  toks: string[];
  /** The newest events holding it. */
  rows: Row[];
  /** The words written joined as one name, or a version written with a `v`. */
  how: "joined" | "version";
  /**
   * Of {@link rows}, those holding {@link token} itself, where the rest hold the words typed
   * as a phrase ({@link pairRows}); absent when every row holds it.
   */
  wordRows?: Row[];
}

/**
 * The events holding a version typed alone as a tag writes it: `2.3.1` as `v2.3.1` (trial
 * 17: `deja 2.3.1` missed the session naming `v2.3.1`, the tokenizer reading that as `v2`,
 * `3`, `1`). Not the other way round: `2 3 1` is also a run of numbers in a table or a
 * listing. Undefined for any other query.
 */
export function versionRows(
  stats: TermStats,
  query: string,
  f: Filters,
): OtherSpelling | undefined {
  if (ABLATE.verbatim) return undefined;
  // With a pre-release or build suffix too (`18.19.0-rc.1`, trial 18).
  const m = /^\d+(?:\.\d+)+(?:[-+][0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?$/.exec(query.trim());
  if (!m) return undefined;
  const token = `v${m[0]}`;
  const toks = tokens(token.replace(/[.+-]/g, " "));
  if (toks.some((t) => !stats.docs(t))) return undefined;
  const rows = newestRows(stats, f, toks, MAX_ROWS);
  return rows.length ? { token, toks, rows, how: "version" } : undefined;
}

/** Events read for the query as written ({@link literalHolders}). */
const LITERAL_ROWS = 100;

/**
 * Per root session, its events that hold `query` as written, case aside, when the query is
 * one name written with separators (`fetch_user_by_id`, `MODULE_NOT_FOUND`,
 * `my-app.config`): they rank above the events holding its words otherwise (`fetch user by
 * id`, `Module not found:`, a prompt typing them; trial 15: the session holding the literal
 * name ranked second). Read among the newest {@link LITERAL_ROWS} events holding its words
 * as a phrase.
 */
export function literalHolders(
  stats: TermStats,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
): Map<number, ScoredEvent[]> {
  const q = query.trim().toLowerCase();
  if (ABLATE.verbatim || !SEPARATED.test(q)) return new Map();
  const toks = tokens(q.replace(/[_.-]/g, " "));
  if (toks.length < 2) return new Map();
  const rows = newestRows(stats, f, toks, LITERAL_ROWS);
  const text = new Map(
    Q.eventTexts.all(stats.store, { ids: JSON.stringify(rows.map((r) => r.event_id)) })
      .map((t) => [t.id, t.text.toLowerCase()]),
  );
  return verbatimHolders({ rows: rows.filter((r) => text.get(r.event_id)?.includes(q)) }, rootOf);
}

/**
 * Per root session, its newest events holding `word` as typed: for a word the history also
 * writes as two (`notfound`, `not found`), whose sessions holding it whole rank first (trial
 * 39: the one session with `NotFound` came fifth, below four saying "file not found").
 */
export function typedHolders(
  stats: TermStats,
  word: string,
  f: Filters,
  rootOf: (id: number) => number,
): Map<number, ScoredEvent[]> {
  return verbatimHolders({ rows: newestRows(stats, f, [word], LITERAL_ROWS) }, rootOf);
}

/** Per root session (`rootOf`), its events of `phrase`, best by BM25 first. */
export function verbatimHolders(
  phrase: Pick<PhraseRows, "rows"> | undefined,
  rootOf: (id: number) => number,
): Map<number, ScoredEvent[]> {
  const out = new Map<number, ScoredEvent[]>();
  if (!phrase || ABLATE.verbatim) return out;
  for (const r of phrase.rows) {
    const root = rootOf(r.session_id);
    const got = out.get(root) ?? [];
    got.push({ row: r, score: -r.bm25 });
    out.set(root, got);
  }
  return out;
}

/**
 * Lifts the sessions of `holders` above every other in `scores` (adding those the ladder
 * did not find), their phrase events first, keeping their order among themselves.
 */
export function liftVerbatim(
  scores: Map<number, SessionScore>,
  holders: Map<number, ScoredEvent[]>,
): void {
  if (!holders.size) return;
  let top = 0;
  for (const s of scores.values()) top = Math.max(top, s.score);
  for (const evs of holders.values()) top = Math.max(top, ...evs.map((e) => e.score));
  const lift = Math.max(1, top) * LIFT;
  for (const [id, events] of holders) {
    const s = scores.get(id);
    if (s) {
      const ids = new Set(events.map((e) => e.row.event_id));
      s.events = [...events, ...s.events.filter((e) => !ids.has(e.row.event_id))];
      s.score = lift + s.score;
      s.spread = false;
    } else {
      scores.set(id, { sessionId: id, score: lift + events[0].score, events, spread: false });
    }
  }
}

/** Above any session-level multiplier's spread (recency, throwaway, gave up, time words). */
const LIFT = 10;
