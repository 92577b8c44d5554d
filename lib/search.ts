/**
 * Search: a fallback ladder over FTS5, hits grouped by session (a subagent's
 * hits are filed under its parent), ranked (lib/search/rank.ts).
 *
 * Tiers, tried in order until one finds something, and named in the result
 * so a person knows how literal the match was:
 * - `exact`: every term as typed, in one event (`session`: only spread over a
 *   session's events, no single event holds them all);
 * - `substring`: a word as a fragment of a longer indexed token (`code` ->
 *   `opencode`; not a word inside a word, `mule` -> `amulet`);
 * - `stemmed`: word forms and developer synonyms (`failing` -> `fails`,
 *   `db` -> `database`);
 * - `close`: close spellings of words the history (titles included) does
 *   not hold (a short word alone: only two letters swapped); also a long
 *   query, or a title, matched once such words are spelt right
 *   (lib/search/spelling.ts);
 * - `error`: a pasted error matched by its signature;
 * - `relevance`: nothing matched — the sessions holding most of the query's
 *   words, by IDF weight (lib/search/relevance.ts);
 * - `regex` for `--re`; `none` when nothing was found at all.
 * A query of symbols alone (`👋`, `→`, `✓`: FTS5's tokenizer drops them, so it
 * has no terms) is `exact` when events hold it as written (a bounded scan,
 * lib/search/regex.ts `literalScan`); so is a language named by a letter and
 * a symbol (`C#`, `C++`), in either case, and beside other words it keeps
 * the sessions they find that hold it.
 * A long query (lib/search/ladder.ts) is exact when sessions hold it whole
 * (only those are listed), else ranked by relevance. Weak exact matches do
 * not stop the ladder alone: word forms held in one event, and for a long
 * query relevance, compete with them (lib/search/ladder.ts).
 * A quoted phrase matches contiguously at every tier or not at all (at the forms
 * and close tiers with its words in other forms or spelt right). A query
 * equal (or nearly) to a prompt a person typed ranks those sessions first
 * (lib/search/prompt.ts), whatever the tier; then the sessions whose title
 * holds every word of the query (lib/search/title.ts: titles are no events).
 * Time words in the query rank, never filter; sessions of excluded projects
 * are left out, those of throwaway projects rank at half weight (or are left
 * out with `hideThrowaway`).
 *
 * A cold query of the Bun binary (issues 15, 18), phase by phase as
 * `DEJA_TRACE_QUERY=1` shows them (core/trace.ts: each phase and each named
 * query's time), on the 100 MB bench index (54,508 events in 67 sessions),
 * ms since the process began. Before (2026-12-02, load ~1): rare
 * `quokkafrost` 75 ms — runtime and main.ts 32, the search command's modules
 * +19, freshness stat pass +5, index open +3.5, query and hidden sessions +3,
 * ladder +4, rescore +4, order, snippets and JSON +3; two common words
 * `error build` 321 ms — the same start 61, then the ladder +105 (the events'
 * document counts of both words ~20, FTS5's 5,000 best of 39,721 matches by
 * bm25 ~70-100), rescore +118 (the paste lines read the text of every flagged
 * event: ~60-110), order +5 (session signals), snippets +22 (120 candidate
 * texts read and marked for 30 shown), JSON +5. Changed: the search loads no
 * node:crypto (the notes parser, loaded only for a notes result), no
 * embeddings module without an endpoint, no node:child_process nor
 * node:worker_threads, builds the redaction and frame expressions only when
 * used, and defers the did-you-mean module; the session signals and paste
 * lines read the flag bits from events_rank and no flagged row's text; the
 * spare snippets are read and marked only after a duplicate; two common words
 * read no word forms for the pair rescore skips. Same results (outputs
 * byte-identical; `bench:recall --no-binary`, seeds 11 and 7, every kind the
 * same). After, CPU time of a cold process (user+sys, p50 of 12 alternated
 * runs beside the old binary, load 17, so inflated alike): rare 147 -> 125 ms,
 * common 500 -> 301 ms. What remains of the common query is FTS5's bm25 over
 * every match of the two words (~65 ms warm; the top 5,000 are needed as they
 * are, so not cut) and the first read of their doclists.
 *
 * Again on 2026-12-05 (the same corpus; 146 stores): `quokkafrost` ~75 ms — start 22, modules
 * +9, stat pass +7, open +6, search +14, then 13 ms to print its one line, 9-10 of them the
 * runtime's first local-time call (ICU's zone set-up in the Bun binary). Local times are now
 * read from the system's zone file (core/localzone.ts); the ~200 query declarations no longer
 * count their `?` marks at load (lib/sql.ts), text without a time cue skips the time words'
 * expressions (lib/search/timewords.ts). 20 alternated cold runs: wall p50 75.2 -> 66.3 ms,
 * CPU 85.9 -> 75.7 ms. Left: the runtime's start and node:fs (~20 ms before main.ts runs) and
 * one `stat` per store (~4-6 µs each under Bun: 2,282 stores, 9-13 ms; async stats were
 * slower and did not overlap the main thread's work).
 *
 * @module
 */
import type { Store } from "./store.ts";
import { changedFileSessions } from "./search/changed.ts";
import { Q } from "./schema.ts";
import type { Env } from "../core/model.ts";
import {
  ftsAny,
  type ParsedQuery,
  parseQuery,
  type QueryCut,
  STOP_WORDS,
  type TimeHint,
} from "./query.ts";
import { type Filters, matchRows } from "./search/retrieve.ts";
import { compilePattern, literalScan, regexScan, regexSnippet } from "./search/regex.ts";
import { errorQuotes } from "./search/errortier.ts";
import { snippet } from "./search/snippet.ts";
import { hiddenSessions, originHidden, type OriginRule, SessionCache } from "./search/sessions.ts";
import { B, B_RELEVANCE, rescore, type TypedTogether } from "./search/sessionrank.ts";
import { liftLiteralHeads, rerankFielded } from "./search/fielded.ts";
import { isSpellingFix, spellings, TermStats, wordForms } from "./search/expand.ts";
import { ABLATE, type Ablation, withAblation } from "./search/rank.ts";
import { fillSnippets, finish } from "./search/results.ts";
import { ladder } from "./search/ladder.ts";
import { isApartWord, isJoinedPair } from "./search/compounds.ts";
import { FEW, FEW_LITERAL, looseOnly, nearestAfter } from "./search/nearest.ts";
import { heldBy } from "./search/whole.ts";
import { coordinate, SCAFFOLD } from "./search/concepts.ts";
import { liftPrompts, typedPrompts } from "./search/prompt.ts";
import { liftTitled, titledOrSpelt } from "./search/title.ts";
import {
  joinedRows,
  liftVerbatim,
  literalHolders,
  pairRows,
  phraseRows,
  typedHolders,
  verbatimHolders,
  versionRows,
} from "./search/verbatim.ts";
import { tokens } from "./search/tokenize.ts";
import { spellingFixes, withoutStopSlips } from "./search/spelling.ts";
import { docs } from "./search/vocab.ts";
import { sessionMeets } from "./search/timewords.ts";
import { trace } from "../core/trace.ts";
import type { FileTime } from "./session_time.ts";

/** Options of a search. */
export interface SearchOptions {
  /** Only sessions of these harnesses (any of them). */
  harness?: string[];
  /** Substring of the project path. */
  project?: string;
  /** Epoch ms: only events at or after. */
  since?: number;
  /** Sessions returned at most (default 10). */
  limit?: number;
  /** Only events of these kinds (`user`, `assistant`, `tool_call`, `tool_result`, `summary`). */
  kinds?: string[];
  /** Only these session row ids (`--session`: a session and its subagents). */
  sessionIds?: number[];
  /** The query is a regular expression (`--re`), tested on every event's text. */
  regex?: boolean;
  /**
   * Leave out sessions of throwaway projects (temp dirs, eval sandboxes), as
   * the CLI does unless `--junk`. When false (the default) they are kept and
   * rank at half weight.
   */
  hideThrowaway?: boolean;
  /** The directory the person works in: its project is never hidden as throwaway. */
  here?: string;
  /** Project patterns to leave out (lib/search/junk.ts; the CLI passes the exclusions file's). */
  exclude?: string[];
  /** Which machines' sessions to show (`--from`, the remotes' `--no-auto` policy). */
  origins?: OriginRule;
  /** Session row ids left out as asked (a hook's policy set): never counted in `hidden`. */
  leaveOut?: Iterable<number>;
  /** For `$TMPDIR` when judging throwaway projects. */
  env?: Env;
  /** Snippets per session (default 3). */
  snippets?: number;
  /** Epoch ms "now" for recency and time words (tests). */
  now?: number;
  /** Ranking changes switched off, to measure them (benchmarks only; lib/search/rank.ts ABLATE). */
  ablate?: Ablation[];
  /**
   * False: a question's few loose literal matches are listed alone, with no nearest
   * sessions by relevance after them (lib/search/nearest.ts; a hook wants only matches).
   */
  nearest?: boolean;
}

/** How literal the match was (see the module doc). */
export type Tier =
  | "exact"
  | "session"
  | "substring"
  | "stemmed"
  | "close"
  | "error"
  | "relevance"
  | "regex"
  | "none";

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
  /** The times are a store file's mtime, its own or a shared one's, not recorded ones (`Session.timeFromFile`): marked. */
  timeFromFile: FileTime | false;
  parent: string | null;
  /** The remote it was read from (`deja remote`); null for this machine's. */
  origin: string | null;
  /** Relevance, higher is better; only comparable within one result. Results are sorted by it. */
  score: number;
  /** Matching events in the session (and its subagents) that were read. */
  hits: number;
  /** More events matched than were read (a limit): {@link hits} is a floor. */
  hitsCapped?: boolean;
  /** The session's last word is giving up (ranked lower). */
  gaveUp: boolean;
  /** A throwaway project (ranked at half weight; left out with `hideThrowaway`). */
  throwaway: boolean;
  /** No single event holds every term; they are spread over the session. */
  spread: boolean;
  /** Its title holds every word of the query as typed (lib/search/title.ts): found by its name. */
  titleMatch: boolean;
  /**
   * Read at a widened tier (word forms, close spellings, inside longer words), it holds every
   * word as typed between its title and its events, the title some the events lack: a match as
   * typed, and said so (trial 139 M2: `forgejo keeps crashing`, `crashing` only in the title,
   * was "no exact match").
   */
  titleAndEvents?: boolean;
  /** Matched by the title of a subagent filed under it, not its own: that title. */
  subagentTitle?: string;
  /** A prompt typed in it is the query, or nearly (lib/search/prompt.ts): every word counted. */
  promptMatch: boolean;
  /** An event of it holds the whole query as one phrase (lib/search/verbatim.ts). */
  verbatimMatch?: boolean;
  /**
   * Listed beside sessions holding every word, it holds only some of them: the relevance
   * tier put it there (a long query's session holding most words in one event, or the
   * nearest after a question's few loose matches).
   */
  partial?: boolean;
  /** An event of it holds the query's words written joined, as one name (`fetchUserById`). */
  joinedMatch?: boolean;
  /**
   * Nearest by relevance, it holds none of the query's words in any form, only words the
   * index associates with them (lib/search/assoc.ts).
   */
  relatedOnly?: boolean;
  /**
   * Native ids of sessions of the same harness whose matched events are all copies of this
   * one's (a resumed or forked session, lib/search/results.ts `foldCopies`): not listed apart.
   */
  copies?: string[];
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

/** How many sessions `hits` name as copies of theirs (not counted apart). */
function foldedCopies(hits: SessionHit[]): number {
  return hits.reduce((n, h) => n + (h.copies?.length ?? 0), 0);
}

/** What a search returns. */
/** The literal tiers, the most literal first (lib/search/ladder.ts): how literally a search matched. */
export const WIDER: SearchResult["tier"][] = ["exact", "session", "substring", "stemmed", "close"];

export interface SearchResult {
  query: string;
  tier: Tier;
  results: SessionHit[];
  /** Sessions found before the limit. */
  total: number;
  /**
   * True for `relevance` and `none`: nothing matched the query as a whole (false when
   * sessions holding every word are listed after a first result found another way).
   */
  nothingMatched: boolean;
  /**
   * How many sessions holding every word exactly are listed after a first result found by
   * word forms or relevance (a long query's ranks merged, lib/search/ladder.ts); absent: none.
   */
  exactFollow?: number;
  /**
   * How many sessions holding a word typed alone only in other forms are listed after its
   * exact matches (`crashing` after `crashes`; lib/search/ladder.ts `formsBelow`); absent: none.
   */
  formsFollow?: { listed: number; total: number };
  /**
   * The name the first result holds the query's words as, written joined, as an event writes
   * it (`fetchUserById` for `fetch user by id`; lib/search/verbatim.ts `joinedRows`).
   */
  joined?: string;
  /** `version`: {@link joined} is the version typed, written with a `v` (`v2.3.1`). */
  joinedHow?: "version";
  /**
   * How many sessions listed after those found by a title, a typed prompt or a phrase are
   * only the nearest by relevance (they hold not every word); absent: none.
   */
  nearestFollow?: number;
  /**
   * How many sessions listed after a question's few literal matches are the nearest by
   * relevance, holding only some of its words (lib/search/nearest.ts); absent: none.
   */
  nearestAfter?: number;
  /**
   * Of {@link SearchResult.total}, the sessions found as the nearest by relevance after the
   * few literal matches, listed or not (the limit may list fewer: {@link nearestAfter}).
   */
  nearestFound?: number;
  /** Words widened at this tier: what each stands for (`timout` -> `timeout`). */
  changes: Array<{ from: string; to: string[] }>;
  /** Stop words left out of the query (and {@link SearchResult.leftOut}). */
  dropped: string[];
  /**
   * Words of a question's scaffolding (`fix` in `how did we fix …`) the first session lacks
   * while it holds every other word (lib/search/whole.ts); absent when none were left out.
   */
  leftOut?: string[];
  /** The window named by time words in the query (ranks, never filters). */
  time?: TimeHint;
  /** Matching sessions of throwaway or excluded projects left out (counted only when nothing else matched). */
  hidden: number;
  /**
   * The words `hidden` was counted under, respelt (`zebrafinsh` -> `zebrafinch`): hidden
   * sessions hold the query only in its close spellings (nothing else matched).
   */
  hiddenSpelt?: Array<[string, string]>;
  /** Words left out of an oversized query (lib/query.ts, {@link QueryCut}); absent when none were. */
  cut?: QueryCut;
  /** The titles matched hold the query's words as the close-spellings tier corrected them. */
  titleSpelt?: boolean;
  /**
   * The first result's title holds some of the query's words only in other forms, where its
   * events hold them as typed (exact or session tier): those words and the title's forms
   * (trial 83 F11: `forgejo crash k3s` said "matched the title" of "Forgejo crashing in k3s").
   */
  titleForms?: Array<{ from: string; to: string[] }>;
  /**
   * At the `close` tier, the words of `changes` that were spelt again; the others were read
   * in their forms beside them (`directry` spelt, `creating` as `create`). Absent: all spelt.
   */
  respelt?: string[];
}

/**
 * Searches the index.
 *
 * @returns sessions best first; `tier` "none" with no results when nothing matched.
 * @throws {DejaError} (exit 2) when `regex` is set and the query is not a valid pattern.
 */
export function search(store: Store, query: string, o: SearchOptions = {}): SearchResult {
  // A pasted error's own quotes are no phrases (lib/search/errortier.ts errorQuotes).
  const plain = o.regex ? undefined : errorQuotes(query);
  const res = withAblation(o.ablate, () => run(store, plain ?? query, o));
  return plain === undefined ? res : { ...res, query };
}

function run(store: Store, query: string, o: SearchOptions): SearchResult {
  const limit = o.limit ?? 10;
  const now = o.now ?? Date.now();
  const parsed = withoutStopSlips(parseQuery(query, now), (w) => docs(store, w) > 0);
  const base: SearchResult = {
    query,
    tier: "none",
    results: [],
    total: 0,
    nothingMatched: true,
    changes: [],
    dropped: parsed.dropped,
    ...(parsed.time ? { time: parsed.time } : {}),
    hidden: 0,
    ...(parsed.cut ? { cut: parsed.cut } : {}),
  };
  const cache = new SessionCache(store);
  // Throwaway and excluded projects are counted in `hidden` (the `--junk` hint); sessions of
  // another machine than `--from` asked for, or of a `--no-auto` remote, are left out silently.
  const junk = hiddenSessions(
    store,
    o.exclude ?? [],
    Boolean(o.hideThrowaway) && !o.project,
    o.env,
    o.here,
  );
  const silent = [...(o.leaveOut ?? [])];
  if (o.origins && o.env) silent.push(...originHidden(store, o.env, o.origins));
  const hide = [...junk, ...silent];
  const f: Filters = {
    harness: o.harness,
    project: o.project,
    since: o.since,
    kinds: o.kinds,
    sessionIds: o.sessionIds,
    hideSessionIds: hide,
  };
  const rootOf = (id: number) => cache.root(id);
  trace("search: query parsed, hidden sessions read");

  // A scan of the events' text (no FTS5 terms): its sessions, snippets marked by `re`.
  const scanned = (tier: "regex" | "exact", scores: ReturnType<typeof regexScan>, re: RegExp) => {
    const out = finish(store, cache, scores, tier, o, now, parsed.time, limit);
    fillSnippets(store, out, o.snippets ?? 3, (t) => regexSnippet(t, re));
    return {
      ...base,
      tier: out.length ? tier : "none" as const,
      results: out,
      total: scores.size - foldedCopies(out),
      nothingMatched: !out.length,
    };
  };
  if (o.regex) {
    // As written: a space at either end is part of the pattern (trial 40: `--re ' redis'`
    // matched `forgejo-redis`, and `--json` gave the query with its space).
    const re = compilePattern(query);
    return scanned("regex", regexScan(store, re, f, rootOf), re);
  }
  // A language named by a letter and a symbol (`C#`, `F#`, `C++`) is the letter alone to
  // FTS5 (`c` of every `C:\` path, trial 15): looked for as written, in either case.
  const glyph = GLYPH_WORD.exec(query)?.[1];
  if (glyph) {
    const re = new RegExp(glyph.replace(/[+]/g, "\\+"), "iu");
    return scanned("exact", literalScan(store, [glyph], f, rootOf, true), re);
  }
  // Beside other words (`C++ redis`): the sessions the other words find that hold it as
  // written (trial 16: `C++ redis` matched `python3 -c`).
  const pieces = query.split(/\s+/);
  const glyphs = pieces.map((w) => GLYPH_WORD.exec(w)?.[1]).filter((g) => g !== undefined);
  const rest = pieces.filter((w) => !GLYPH_WORD.test(w)).join(" ");
  if (glyphs.length && rest.trim()) {
    // Searched as `--session` searches: within the sessions (and subagents) holding it.
    const holders = [...literalScan(store, glyphs, f, rootOf, true).keys()];
    const ids = Q.withChildren.all(store, { ids: JSON.stringify(holders) }).map((r) => r.id)
      .filter((id) => !o.sessionIds || o.sessionIds.includes(id));
    return ids.length ? { ...run(store, rest, { ...o, sessionIds: ids }), query } : base;
  }
  const symbols = symbolPieces(query, parsed.dropped);
  if (symbols) {
    const re = new RegExp(
      symbols.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
      "u",
    );
    return scanned("exact", literalScan(store, symbols, f, rootOf), re);
  }
  if (!parsed.parts.length) return base;

  const stats = new TermStats(store);
  const lad = ladder(stats, parsed, query, f, rootOf, false, limit);
  const { scores, alts } = lad;
  trace(`search: ladder ${lad.tier}, ${lad.scores.size} sessions`);
  let changes = lad.changes;
  let tier: Tier = lad.tier;
  const phrase = phraseRows(stats, query, f);
  // Read before re-scoring: a short prompt is looked for among the exact tier's events.
  const prompts = typedPrompts(
    store,
    query,
    f,
    rootOf,
    tier === "exact" ? scores.values() : undefined,
    stats,
    phrase,
  );
  const typed: Map<number, number>[] = [];
  const together = new Map<number, TypedTogether>();
  // Exact matches above a word's other forms are ranked by the word alone, the forms by theirs.
  const apart = lad.widened?.aboveAlts?.length ? lad.widened : undefined;
  const part = (under: boolean) =>
    new Map([...scores].filter(([id]) => apart!.ids.has(id) === under));
  if (apart) {
    rescore(stats, cache, part(false), apart.aboveAlts!, f);
    rescore(stats, cache, part(true), alts, f);
  } else if (tier !== "error" && tier !== "none") {
    const b = tier === "relevance" && !ABLATE.relevanceLength ? B_RELEVANCE : B;
    rescore(
      stats,
      cache,
      scores,
      alts,
      f,
      lad.weights,
      b,
      tier === "relevance",
      lad.counts,
      typed,
      together,
    );
  }
  trace("search: rescored");
  if (lad.coord) {
    coordinate(store, lad.coord, scores, (id) => cache.members(id), rootOf);
    trace("search: concepts coordinated");
  }
  if (tier === "relevance" || lad.widened?.tier === "relevance") {
    rerankFielded(
      stats,
      cache,
      scores,
      alts,
      lad.weights,
      lad.coord?.concepts,
      lad.phraseWords,
      typed,
      together,
    );
    trace("search: fielded rerank");
  } else if (apart) {
    liftLiteralHeads(stats, cache, part(false), apart.aboveAlts!);
    liftLiteralHeads(stats, cache, part(true), alts);
  } else if (tier === "exact" || tier === "substring" || tier === "stemmed" || tier === "close") {
    liftLiteralHeads(stats, cache, scores, alts);
    trace("search: literal heads");
  }
  const verbatim = verbatimHolders(phrase, rootOf);
  // The words written joined, as one name: ranked with the phrase.
  const joinedBy = joinedRows(stats, query, f) ?? versionRows(stats, query, f) ??
    pairRows(stats, parsed.parts, query, f);
  const joined = verbatimHolders(joinedBy, rootOf);
  // Those holding the joined word itself (trial 40: `not found` said "the first result holds
  // notfound" of a session holding only the phrase).
  const joinedWord = joinedBy?.wordRows
    ? verbatimHolders({ rows: joinedBy.wordRows }, rootOf)
    : joined;
  // Below the phrase as typed, and that below the name as written (`fetch_user_by_id`).
  liftVerbatim(scores, new Map([...joined].filter(([id]) => !verbatim.has(id))));
  liftVerbatim(scores, verbatim);
  const lifted = new Set([...verbatim.keys(), ...joined.keys()]);
  // A title holding the query once its words the history holds nowhere are spelt right
  // (lib/search/spelling.ts): also when no tier corrected them (a long query, or a word only
  // a title holds beside the misspelt one).
  // Or in the forms the tier read (`waybar backgrounds`, trial 15).
  const tierFixes = tier === "close" || tier === "stemmed" ? changes : undefined;
  // Every word the ladder corrected or read in its forms, not only the spellings some event
  // confirms: a title holding them all confirms them itself (trial 125 F2: `backfil loadng
  // state bug` looked for "Backfill Loading State Bug" with `loadng` corrected and `backfil`,
  // a word cut short, as typed, and ranked by relevance, exit 1).
  const unconfirmed = lad.fixes?.length
    ? [...lad.fixes, ...(lad.spelt ?? []).filter((x) => !lad.fixes!.some((y) => y.from === x.from))]
    : undefined;
  const fixes = tierFixes ??
    (!ABLATE.spelt && (tier === "relevance" || tier === "none")
      ? unconfirmed ?? lad.spelt ?? lad.fixes ?? spellingFixes(stats, parsed.parts)
      : lad.spelt);
  const title = titledOrSpelt(store, parsed, f, rootOf, fixes);
  // A title holding none of the words as typed, only other forms of each, is no title match
  // beside events holding them as typed (trial 21: `crashes` put first, tagged a title hit, a
  // session titled "…crashing" that never says `crashes`, above two that do). One word of it
  // as typed keeps it (trial 16: `simple greet`, the session titled "Simple greeting").
  const formedOnly = title.forms !== undefined && tier === "exact" &&
    (!lad.widened || lad.widened.below) &&
    new Set(title.forms.map((x) => x.from)).size >= parsed.parts.filter((p) => !p.quoted).length;
  const titled = formedOnly ? new Set<number>() : title.titled;
  // A title held in other forms of the words, beside events found in forms: said so (trial
  // 17a: "matched the title" where the title says `loading`, the query `loaded`).
  let titleSpelt = title.spelt || (title.forms !== undefined && tier === "stemmed");
  // Nothing else matched, and a title holds every word in some form: named after the forms.
  const titleForms = title.forms && (tier === "relevance" || tier === "none")
    ? title.forms
    : undefined;
  // Time words rank: a title or a prompt outside their window is no longer lifted above the
  // sessions inside it (trial 16: `greeting since september 2025` put eight August sessions
  // titled "…greeting" above the one of March 2026), only level with the best of them.
  const inTime = (id: number) =>
    !parsed.time || sessionMeets(parsed.time, cache.get(id)?.started, cache.get(id)?.updated);
  // Unless no session found falls in the window: then the time demotes none of them (trial
  // 81: `greeting on august 8` put a March passing mention above seven titled "greeting" of
  // August 8, 2025, the window being August 8, 2026).
  const timed = parsed.time !== undefined && (titled.size > 0 || prompts.size > 0) &&
    Q.anyInWindow.get(store, {
        ids: JSON.stringify([...scores.keys()]),
        from: parsed.time.from,
        to: parsed.time.to,
      })!.n > 0;
  const early = timed ? [...titled].filter((id) => !inTime(id)) : [];
  liftTitled(scores, early.length ? new Set([...titled].filter(inTime)) : titled);
  liftTitled(scores, new Set(early), 1);
  liftPrompts(scores, timed ? new Map([...prompts].filter(([id]) => inTime(id))) : prompts);
  // A name typed as written (`fetch_user_by_id`, `MODULE_NOT_FOUND`) is no prompt: the events
  // holding it so rank above those holding its words otherwise (trial 15).
  const literal = literalHolders(stats, query, f, rootOf);
  liftVerbatim(scores, literal);
  // A word typed alone that the history also writes as two: its sessions holding it whole
  // first (lib/search/verbatim.ts `typedHolders`).
  const apartWord = tier === "exact" && parsed.parts.length === 1
    ? changes.find(isApartWord)?.from
    : undefined;
  if (apartWord) liftVerbatim(scores, typedHolders(stats, apartWord, f, rootOf));
  // A path typed alone: the sessions that changed the file, first (a prompt quoting the path
  // with a word or two is no typed prompt of it).
  if (!ABLATE.changed) {
    liftTitled(scores, changedFileSessions(store, query, scores, rootOf));
  }
  // Found by its title, a prompt or a phrase where nothing else matched: what follows it is
  // only the nearest by relevance, and is said to be (trial 16).
  const guesses = tier === "relevance";
  if (
    (prompts.size || titled.size || lifted.size) && (tier === "relevance" || tier === "none")
  ) tier = "exact";
  const below = lad.widened?.below ? lad.widened.ids : undefined;
  const results = finish(store, cache, scores, tier, o, now, parsed.time, limit, below);
  trace("search: titles, prompts, order");
  let nearestFollow = 0;
  for (const r of results) {
    r.titleMatch = titled.has(r.rowid);
    const via = r.titleMatch ? title.via.get(r.rowid) : undefined;
    if (via !== undefined) r.subagentTitle = via;
    r.promptMatch = prompts.has(r.rowid);
    r.verbatimMatch = verbatim.has(r.rowid);
    // Found by the words joined only: a session holding the name as typed or the phrase is
    // named after that (trial 17: "written joined" said of the exact `fetch_user_by_id`).
    r.joinedMatch = joinedWord.has(r.rowid) && !verbatim.has(r.rowid) && !literal.has(r.rowid);
    if (
      guesses && tier === "exact" && !r.titleMatch && !r.promptMatch && !r.verbatimMatch &&
      !r.joinedMatch
    ) {
      nearestFollow++;
    }
  }
  // A prompt typed before with one word spelt wrong ranks first: named after the correction.
  const slip = results[0]?.promptMatch ? prompts.get(results[0].rowid)?.slip : undefined;
  if (slip) {
    tier = "close";
    changes = [slip];
  }
  // Exact matches ranked beside forms: labelled by what ranks first.
  let exactFollow = 0;
  let formsFollow: { listed: number; total: number } | undefined;
  if (lad.widened?.below && tier === "exact" && !lad.widened.ids.has(results[0]?.rowid ?? -1)) {
    // All of them, listed or not (trial 24: "then 1 by word forms" where 11 sessions held one).
    const listed = results.filter((r) => lad.widened!.ids.has(r.rowid)).length;
    formsFollow = { listed, total: lad.widened.ids.size };
  } else if (lad.widened && tier === "exact") {
    if (lad.widened.ids.has(results[0]?.rowid ?? -1)) {
      tier = lad.widened.tier;
      exactFollow = results.filter((r) => !lad.widened!.ids.has(r.rowid)).length;
    } else if (lad.widened.tier === "stemmed") changes = [];
  }
  // (The sessions listed below by word forms aside: trial 96 F5.)
  const asTyped = formsFollow ? results.filter((r) => !lad.widened!.ids.has(r.rowid)) : results;
  if (tier === "exact" && asTyped.length && asTyped.every((r) => r.spread) && !nearestFollow) {
    tier = "session";
  }
  if (titleForms && results[0]?.titleMatch) {
    tier = "stemmed";
    changes = titleForms;
    titleSpelt = true;
  }
  // A long query whose first session by relevance holds every word that carries meaning
  // (lib/search/whole.ts) is named after how it holds them, not "nothing matched".
  // The first listed that does, put first (trial 83: `how did we fix the forgejo crash in
  // k3s` said "nothing matched" with the one session holding all three listed second).
  let held: ReturnType<typeof heldBy>;
  if (tier === "relevance" && lad.forms) {
    const holds = (r: SessionHit) => heldBy(stats, lad.forms!, f, cache.members(r.rowid));
    // Among the first few (each a look-up; a question none holds is the common case).
    const top = ABLATE.heldFirst ? 1 : HELD_FIRST;
    let at = -1;
    for (let i = 0; i < Math.min(top, results.length) && at < 0; i++) {
      held = holds(results[i]);
      if (held) at = i;
    }
    if (held) {
      results.unshift(...results.splice(at, 1));
      // The others listed are the nearest by relevance: those holding not every such word
      // are marked (trial 81: 17 sessions called exact where one held both words).
      for (const r of results.slice(1)) if (!holds(r)) r.partial = true;
    }
  }
  if (held) {
    tier = held.changes.length ? "stemmed" : "exact";
    changes = held.changes;
  }
  // Ranked by relevance as spelt right: the spellings it read are named.
  if (tier === "relevance" && lad.spelt) {
    changes = lad.spelt.map((x) => ({ from: x.from, to: x.spelt ? [x.to[0]] : x.to }));
  }
  // Matched once words were spelt right (a long query's, or a title's): named after them.
  const spelt = title.spelt && !tierFixes ? fixes : lad.spelt;
  let respelt: string[] | undefined;
  if (spelt?.length && (tier === "exact" || tier === "session" || tier === "stemmed")) {
    // A corrected word's own forms are named with it (`conected → connected, connection`).
    const formsOf = (to: string) => changes.find((c) => c.from === to)?.to ?? [];
    const own = new Set(spelt.flatMap((x) => [x.from, x.to[0]]));
    changes = [
      // A long query was read with the first spelling of each word alone: that one is named.
      ...spelt.map((x) => ({
        from: x.from,
        to: [
          ...new Set([
            ...(lad.spelt && "spelt" in x && x.spelt ? [x.to[0]] : x.to),
            ...formsOf(x.to[0]),
          ]),
        ],
      })),
      ...changes.filter((c) => !own.has(c.from)),
    ];
    tier = "close";
    // None holds the words as typed: the sessions after the first hold them as corrected.
    exactFollow = 0;
  }
  // A word held only in other forms came with a long query's spellings (lib/search/spelling.ts
  // marks the spellings `spelt`): named apart. A title's corrections are all spellings.
  if (tier === "close" && spelt?.some((x) => "spelt" in x && x.spelt)) {
    respelt = spelt.filter((x) => "spelt" in x && x.spelt).map((x) => x.from);
  }
  // A word the history holds only in other forms, beside a spelling fix: named as forms
  // (trial 47: `docekr executables` called `executables → execution, …` a close spelling).
  if (tier === "close" && !respelt) {
    const fixed = changes.filter((c) => isSpellingFix(stats, c.from, c.to)).map((c) => c.from);
    if (fixed.length && fixed.length < changes.length) respelt = fixed;
  }
  /** The sessions listed (by root) an event of which holds one of `alts`. */
  const holders = (alts: string[][]) =>
    new Set(
      matchRows(store, ftsAny(alts), {
        ...f,
        sessionIds: results.flatMap((r) => cache.members(r.rowid)),
      }, 5000).map((r) => rootOf(r.session_id)),
    );
  // A word every session listed holds as typed was not read in its forms for them: its
  // forms are not named (trial 27: `deploy kustomize` said `kustomize → kustomization` of a
  // session whose own snippet says `kustomize-controller`).
  if (tier === "stemmed" && !titleSpelt && results.length > 0 && !ABLATE.usedChanges) {
    const used = changes.filter((c) => {
      if (!/^[\p{L}\p{N}]+$/u.test(c.from)) return true;
      const holding = holders([[c.from]]);
      return results.some((r) => !holding.has(r.rowid));
    });
    if (used.length) changes = used;
  }
  // Beside a spelling fix, a word held as typed was read in its forms too: named after the
  // spellings when a session listed lacks it as typed (trial 45: `docekr executable` listed
  // sessions saying only `exécution` and named `docekr → docker` alone).
  if (tier === "close" && lad.heldForms?.length && results.length) {
    const used = lad.heldForms.filter((c) => {
      const holding = holders([[c.from]]);
      // A title holding it holds it too (the ladder reads titles as held).
      return results.some((r) => !holding.has(r.rowid) && !tokens(r.title ?? "").includes(c.from));
    });
    if (used.length) {
      respelt ??= changes.map((c) => c.from);
      changes = [...changes, ...used];
    }
  }
  // Two words typed apart also read as the one word the history writes are named only when
  // a session listed holds that word (trial 37: `executable file not found` said "also as one
  // word: not found → notfound" above sessions none of which held `notfound`).
  // So is a word typed whole also read as the two the history writes apart, when a session
  // listed holds only those (trial 39: `NotFound`).
  if (tier === "exact" && changes.some((c) => isJoinedPair(c) || isApartWord(c))) {
    changes = changes.filter((c) => {
      const joined = isJoinedPair(c);
      if (!joined && !isApartWord(c)) return true;
      if (!results.length) return false;
      if (joined) {
        const holding = holders(c.to.map((t) => [t]));
        return results.some((r) => holding.has(r.rowid));
      }
      const whole = holders([[c.from]]);
      return results.some((r) => !whole.has(r.rowid));
    });
  }
  // An event holding the whole query as a phrase shows the phrase, not another place of its
  // words (trial 15: `the file is` showed three snippets without it).
  const whole = verbatim.size || joined.size
    ? [[...(verbatim.size ? [tokens(query)] : []), ...(joinedBy ? [joinedBy.toks] : [])]]
    : undefined;
  fillSnippets(store, results, o.snippets ?? 3, (t) => {
    const at = whole && snippet(t, whole);
    return at && at.includes("\x01") ? at : snippet(t, alts);
  });
  trace("search: snippets");
  // A word of a question's scaffolding among the words (`forgejo problem`, `what was wrong
  // with forgejo`) held by a session beside the others proves nothing of it: the nearest
  // follow too (trial 90 F4: a session whose `problem` was an unrelated YAML fix was listed
  // alone, the one titled "Forgejo crashing in k3s cluster" not at all).
  const scaffolded = parsed.parts.length >= 2 &&
    parsed.parts.some((p) => !p.quoted && p.tokens.length === 1 && LOOSE.has(p.tokens[0])) &&
    !results.some((h) => h.titleMatch || h.promptMatch || h.verbatimMatch || h.joinedMatch);
  const few = FEW_LITERAL.has(tier) && !nearestFollow && results.length < FEW &&
    o.nearest !== false && !ABLATE.nearestAfter;
  // Found whatever `--limit` says, and listed within it: `total` is what the search found, not
  // what the limit let through (trial 92 F5: `--limit 1` dropped them silently, and changed
  // `total` from 2 to 1).
  const room = results.length + NEAREST_AFTER;
  const after = few && scaffolded
    ? withoutScaffold(store, parsed, o, results, room)
    : few && looseOnly(stats, scores, alts, results)
    ? nearestAfter(store, stats, cache, parsed, query, f, rootOf, o, now, results, room)
    : [];
  const listedAfter = after.slice(0, Math.max(0, limit - results.length));
  // Among sessions that hold every word, those that hold only some are marked (trial 25:
  // `how did we set up the k3s app` said every session listed held the words between its
  // events; eight of ten had no `k3s`).
  const some = lad.widened?.tier === "relevance" && !lad.widened.below &&
      (tier === "exact" || tier === "session" || tier === "stemmed" || tier === "close")
    ? lad.widened.ids
    : undefined;
  for (const r of results) if (some?.has(r.rowid)) r.partial = true;
  // Nearest by relevance ranked above sessions holding every word as typed: those marked
  // (trial 90 F5: `input 7 name empty string`, every result `partial: false` where one alone
  // held all five words).
  if (exactFollow && lad.widened?.tier === "relevance") {
    for (const r of results) if (lad.widened.ids.has(r.rowid)) r.partial = true;
  }
  for (const r of listedAfter) r.partial = true;
  results.push(...listedAfter);
  // Nearest by relevance, a session may hold none of the words, only words the index learned
  // go with them: marked (trial 45: `developer role ollama` listed second a session holding
  // none of the three, and said nothing).
  // So are those after a question's session holding every word (trial 83: "only some of
  // them" of sessions holding none).
  if ((tier === "relevance" || held) && results.length) {
    relatedOnly(stats, query, results, holders, lad.spelt?.map((x) => x.to[0]));
  }
  // The first, read at a widened tier, holding every word as typed between its title and its
  // events (lib/search/tokenize.ts `tokens` of the title): a match as typed (trial 139 M2).
  const first = results[0];
  if (
    first && WIDENED_TIERS.has(tier) && !first.titleMatch && !first.promptMatch &&
    !first.partial && parsed.parts.length > 1
  ) {
    const named = new Set(tokens(first.title ?? ""));
    const inTitle = (p: (typeof parsed.parts)[number]) => p.tokens.every((t) => named.has(t));
    // Looked up in the events only when the title holds some word (most widened searches'
    // first result's does not: no query then).
    if (parsed.parts.some(inTitle)) {
      const onlyTitle = parsed.parts.filter((p) => !holders([p.tokens]).has(first.rowid));
      if (onlyTitle.length && onlyTitle.every(inTitle)) first.titleAndEvents = true;
    }
  }
  // Sessions left out that hold every word, counted whatever was found (trial 65: `hello
  // world` said `hidden: 0` and no hint while four throwaway sessions held it), so a hidden
  // exact hit is never silent.
  let hidden = 0;
  let hiddenSpelt: Array<[string, string]> | undefined;
  if (junk.length) {
    /** The hidden sessions holding every part, each word as `word` gives it. */
    const heldHidden = (word: (t: string) => string) =>
      new Set(
        matchRows(
          store,
          parsed.parts.map((p) => ftsAny([p.tokens.map(word)])).join(" AND "),
          { ...f, hideSessionIds: silent.length ? silent : undefined, sessionIds: junk },
          500,
        ).map((r) => r.session_id),
      ).size;
    hidden = heldHidden((t) => t);
    // None, and nothing found: the close spellings of the words no session holds, read in
    // the hidden sessions (trial 105 F5: `zebrafinsh` was a bare "nothing matched" where
    // `zebrafinch` said four throwaway sessions hold it).
    if (!hidden && !results.length) {
      const spelt = hiddenSpellings(stats, parsed.parts);
      if (spelt.length) {
        const fixed = new Map(spelt);
        hidden = heldHidden((t) => fixed.get(t) ?? t);
        if (hidden) hiddenSpelt = spelt;
      }
    }
  }
  return {
    ...base,
    tier,
    results,
    ...(hiddenSpelt ? { hiddenSpelt } : {}),
    total: scores.size + after.length - foldedCopies(results),
    nothingMatched: exactFollow === 0 && (tier === "relevance" || tier === "none"),
    ...(exactFollow ? { exactFollow } : {}),
    ...(formsFollow ? { formsFollow } : {}),
    ...(nearestFollow ? { nearestFollow } : {}),
    ...(listedAfter.length ? { nearestAfter: listedAfter.length } : {}),
    ...(after.length ? { nearestFound: after.length } : {}),
    ...(joinedBy && results[0]?.joinedMatch
      ? {
        joined: asWritten(store, joinedBy),
        ...(joinedBy.how === "version" ? { joinedHow: joinedBy.how } : {}),
      }
      : {}),
    ...(held?.left.length
      ? { leftOut: held.left, dropped: [...parsed.dropped, ...held.left] }
      : {}),
    changes,
    hidden,
    ...(titleSpelt ? { titleSpelt } : {}),
    ...(title.forms && !titleSpelt && (tier === "exact" || tier === "session") &&
        results[0]?.titleMatch
      ? { titleForms: title.forms }
      : {}),
    ...(respelt && changes.some((c) => !respelt!.includes(c.from)) ? { respelt } : {}),
  };
}

/** The joined name as the first event holding it writes it (`fetchUserById`), else as indexed. */
function asWritten(store: Store, j: { token: string; rows: Array<{ event_id: number }> }): string {
  const ids = JSON.stringify(j.rows.slice(0, 3).map((r) => r.event_id));
  const at = j.token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${at}(?![\\p{L}\\p{N}])`, "iu");
  for (const t of Q.eventTexts.all(store, { ids })) {
    const m = re.exec(t.text);
    if (m) return m[0];
  }
  return j.token;
}

/**
 * The sessions the query finds without its scaffolding's words (`forgejo` of `forgejo
 * problem`), after `found`: at most {@link NEAREST_AFTER} of them, none of `found`. Empty when
 * every word is scaffolding.
 */
function withoutScaffold(
  store: Store,
  parsed: ParsedQuery,
  o: SearchOptions,
  found: SessionHit[],
  limit: number,
): SessionHit[] {
  const core = parsed.parts.filter((p) =>
    p.quoted || p.tokens.length !== 1 || !LOOSE.has(p.tokens[0])
  );
  if (!core.length) return [];
  const text = core.map((p) => p.quoted ? `"${p.tokens.join(" ")}"` : p.tokens.join(" "))
    .join(" ");
  const n = Math.min(NEAREST_AFTER, limit - found.length);
  const shown = new Set(found.map((h) => h.rowid));
  const res = run(store, parsed.time ? `${text} ${parsed.time.words}` : text, {
    ...o,
    limit: n + found.length,
    nearest: false,
  });
  if (res.nothingMatched) return [];
  return res.results.filter((h) => !shown.has(h.rowid)).slice(0, n);
}

/** Sessions {@link withoutScaffold} lists after a query's few matches, at most. */
const NEAREST_AFTER = 5;
/** The tiers that read the words wider than typed (a title may hold what their events lack). */
const WIDENED_TIERS: ReadonlySet<SearchResult["tier"]> = new Set(["substring", "stemmed", "close"]);

/**
 * Words that say a question is about trouble, not what it is about: the scaffolding's
 * (lib/search/concepts.ts), with `wrong` (`what was wrong with forgejo`; a content word of a
 * concept elsewhere: `computes wrong sums`) and plurals.
 */
const LOOSE: ReadonlySet<string> = new Set([...SCAFFOLD, "wrong", "problems", "issues", "bugs"]);

/** How many of a long question's first sessions by relevance are looked at for one holding it whole. */
const HELD_FIRST = 2;

/** A query of one or two letters and `#` or `++` alone (`C#`, `f#`, `C++`), quotes allowed. */
const GLYPH_WORD = /^\s*"?([A-Za-z]{1,2}(?:#|\+\+))"?\s*$/;

/**
 * The pieces of a query made only of symbols the index does not hold as terms
 * (no letter or digit anywhere, no stop word dropped): split on spaces, each
 * looked for as written. Undefined for any other query.
 */
function symbolPieces(query: string, dropped: string[]): string[] | undefined {
  if (dropped.length || /[\p{L}\p{N}]/u.test(query)) return undefined;
  const pieces = query.replaceAll('"', " ").split(/\s+/).filter(Boolean);
  return pieces.length ? [...new Set(pieces)] : undefined;
}

/**
 * Marks the results that hold none of the query's words (as typed, as spelt or in a form) in any
 * event or title ({@link SessionHit.relatedOnly}): one read of the index over them.
 */
function relatedOnly(
  stats: TermStats,
  query: string,
  results: SessionHit[],
  holders: (alts: string[][]) => Set<number>,
  /** The spellings the query was read in (a word it holds as spelt is one of its words). */
  spelt: readonly string[] = [],
): void {
  const words = [...new Set([...tokens(query).filter((t) => !STOP_WORDS.has(t)), ...spelt])];
  if (!words.length) return;
  const holding = holders(words.flatMap((w) => [w, ...wordForms(stats, w)]).map((w) => [w]));
  for (const r of results) {
    const title = tokens(r.title ?? "");
    if (!holding.has(r.rowid) && !words.some((w) => title.includes(w))) r.relatedOnly = true;
  }
}

/**
 * The search of `query` without its harness and project filters, when `res` (found under
 * them) is a widened guess and that search matches more literally: the guess does not stand
 * in for the words as typed outside the filter (MCP recall and `ctx`, as `deja search`
 * says it; trials 55, 57: `redis` under harness claude answered `redist` of a PATH dump).
 */
export function moreLiteralOutside(
  store: Store,
  query: string,
  opts: SearchOptions,
  res: SearchResult,
): SearchResult | undefined {
  if (!res.results.length || !(opts.harness?.length || opts.project)) return undefined;
  if (WIDER.indexOf(res.tier) <= WIDER.indexOf("session")) return undefined;
  const all = search(store, query, { ...opts, harness: undefined, project: undefined, limit: 1 });
  return WIDER.includes(all.tier) && WIDER.indexOf(all.tier) < WIDER.indexOf(res.tier)
    ? all
    : undefined;
}

/**
 * The first close spelling of each one-token word of `parts` no event holds (4+ letters, not
 * quoted), as `[typed, spelling]`; empty when one such word has none.
 */
function hiddenSpellings(
  stats: TermStats,
  parts: ParsedQuery["parts"],
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const p of parts) {
    if (p.quoted || p.tokens.length !== 1 || stats.docs(p.tokens[0])) continue;
    const word = p.tokens[0];
    const to = word.length >= 4 ? spellings(stats, word, false)[0] : undefined;
    if (!to) return [];
    out.push([word, to]);
  }
  return out;
}
