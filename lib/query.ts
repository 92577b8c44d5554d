/**
 * Query text -> terms, and terms -> FTS5 match expressions.
 *
 * Words are ANDed; `"quoted phrases"` must be contiguous; a word with inner
 * punctuation (`zebrafinch-claude`, `src/app.ts`) is a phrase of its parts, the
 * way the tokenizer split them when indexing. FTS5 operators typed by a person
 * (`AND`, `NEAR`, `*`, `:`) are treated as text, never as syntax. Stop words
 * (`the`, `how`, `did`, ...) are dropped unless the query is only stop words.
 * Time words (`yesterday`, `last week`, `3 days ago`, `in march`) are taken out
 * of the terms and returned as a window that ranks, never filters.
 *
 * @module
 */
import { tokens } from "./search/tokenize.ts";
import { dayExists, type TimeHint, timeHint } from "./search/timewords.ts";
import { characters } from "../core/text.ts";

export { tokens };
export type { TimeHint };

/** One term of a query. */
export interface QueryTerm {
  /** Tokens that must appear contiguously (one token: a word). */
  tokens: string[];
  /** Typed in double quotes. */
  quoted: boolean;
  /** Of `not`: the word typed just before it, a stop word too (`did` of `did not`). */
  after?: string;
  /** A word typed with a trailing `*` (`worktre*`): the start of words, never a typo. */
  prefix?: boolean;
}

/** A parsed query. */
export interface ParsedQuery {
  /** Each term is a list of tokens that must appear contiguously (a one-token term is a word). */
  terms: string[][];
  /** The same terms with how they were typed. */
  parts: QueryTerm[];
  /** Stop words left out, and words with nothing to search beside words that have (an emoji). */
  dropped: string[];
  /** The window the time words named, when there were any. */
  time?: TimeHint;
  /** What was left out to keep the query within SQLite's limits (absent when nothing was). */
  cut?: QueryCut;
}

/**
 * Most distinct terms a query keeps: SQLite refuses an expression deeper than
 * 1000 (one `AND` per word), and a pasted page holds no more topic than its
 * first couple of hundred words.
 */
export const MAX_QUERY_TERMS = 200;
/**
 * Longest token a query keeps, in characters (at most 4 bytes each): SQLite
 * refuses a LIKE pattern over 50,000 bytes, and no word of a search is longer
 * than a hash or a short base64 blob.
 */
export const MAX_QUERY_TOKEN = 1000;

/**
 * Longest text a command turns into a LIKE pattern, in characters (a session id,
 * a file name, a `--project` value): SQLite refuses a pattern over 50,000 bytes,
 * and no id or path is longer. The one bound every such argument is held to.
 */
export const MAX_LIKE_TEXT = MAX_QUERY_TOKEN;

/**
 * True when `text` is longer than {@link MAX_LIKE_TEXT} characters (code points, as the
 * messages saying so count them; then no id, path or project matches it).
 */
export function overLikeBound(text: string): boolean {
  return text.length > MAX_LIKE_TEXT && characters(text) > MAX_LIKE_TEXT;
}

/** What {@link parseQuery} left out of a query to keep it within SQLite's limits. */
export interface QueryCut {
  /** Terms left out after the first {@link MAX_QUERY_TERMS}. */
  terms: number;
  /** Terms left out because a token of theirs is longer than {@link MAX_QUERY_TOKEN}. */
  long: number;
}

/** The note a command prints when `cut` left words out of a query (empty when none). */
export function cutNote(cut: QueryCut | undefined): string {
  if (!cut) return "";
  const said: string[] = [];
  if (cut.long) {
    said.push(
      `${cut.long} word${cut.long === 1 ? "" : "s"} longer than ${MAX_QUERY_TOKEN} characters`,
    );
  }
  if (cut.terms) {
    said.push(`${cut.terms} word${cut.terms === 1 ? "" : "s"} after the first ${MAX_QUERY_TERMS}`);
  }
  return `the query was cut: left out ${said.join(" and ")}`;
}

/**
 * Words that carry no topic in a search: articles, pronouns, auxiliaries,
 * question words, prepositions. `not`, `no` and `without` are kept (they matter
 * in error text).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then so than that this these those there here it its it's " +
    "i me my mine we us our ours you your yours he him his she her they them their " +
    "is are was were be been being am do does did done doing have has had having " +
    "will would shall should can could may might must " +
    "of to in on at by for with about from into onto over under as per via " +
    // Trial 55: `did the push go through?` recalled a session for `through` alone.
    "through across within among upon toward towards " +
    "what which who whom whose how why when where " +
    "some any all each every other such own same just also too very really " +
    "again once ever still already please thanks thank hi hello hey ok okay " +
    // Trial 134 F2: `openai refused because my organization was not verified …` put the
    // session holding the error word for word 5th, `because` read as a word of it.
    "because " +
    "s t d ll m re ve let lets let's"
  ).split(" "),
);

/** A question (`how did I …`, `… ?`): read as such by the search and by `deja remember`. */
export const QUESTION =
  /^\s*(?:how|what|why|when|where|which|who|whose|did|do|does|is|are|was|were|can|could|should|have|has)\b|\?\s*$/i;

/**
 * Parses `q` into terms. An empty or punctuation-only query has no terms.
 *
 * @param now epoch ms the time words are read against (default: now).
 */
export function parseQuery(q: string, now = Date.now()): ParsedQuery {
  const parts: QueryTerm[] = [];
  /** Words with nothing to search (an emoji, punctuation): dropped beside words that have. */
  const unsearchable: string[] = [];
  // Time words are read outside quoted phrases only.
  const pieces: Array<{ text: string; quoted: boolean }> = [];
  const re = /"([^"]*)"?|([^"]+)/g;
  let time: TimeHint | undefined;
  for (const m of q.matchAll(re)) {
    if (m[1] !== undefined) pieces.push({ text: m[1], quoted: true });
    else {
      const t = timeHint(m[2], now);
      if (t.hint && !time) time = t.hint;
      pieces.push({ text: t.rest, quoted: false });
    }
  }
  // Time words alone are the words searched (trial 16: `deja march`, `deja yesterday` found
  // nothing while sessions say them); they still rank by their window.
  if (time && pieces.every((p) => !tokens(p.text).length)) {
    pieces.length = 0;
    for (const m of q.matchAll(re)) pieces.push({ text: m[1] ?? m[2], quoted: m[1] !== undefined });
  }
  for (const p of pieces) {
    if (p.quoted) {
      const toks = tokens(p.text);
      if (toks.length) parts.push({ tokens: toks, quoted: true });
      continue;
    }
    for (const word of p.text.split(/\s+/)) {
      // A possessive is its noun (`redis's config`, trial 16: searched `redis s` as a phrase).
      const toks = tokens(word.replace(/(\p{L})['’]s$/u, "$1"));
      const prev = parts.at(-1);
      if (toks.length === 1 && toks[0] === "not" && prev && !prev.quoted) {
        parts.push({ tokens: toks, quoted: false, after: prev.tokens.at(-1) });
      } else if (toks.length === 1 && /^[^*]*\p{L}\*+$/u.test(word)) {
        parts.push({ tokens: toks, quoted: false, prefix: true });
      } else if (toks.length) parts.push({ tokens: toks, quoted: false });
      else if (word) unsearchable.push(word);
    }
  }
  const isStop = (t: QueryTerm) =>
    !t.quoted && t.tokens.length === 1 && STOP_WORDS.has(t.tokens[0]);
  let kept = parts.filter((t) => !isStop(t));
  if (!kept.length) kept = parts;
  const dropped = parts.filter((t) => !kept.includes(t)).map((t) => t.tokens[0]);
  // A query of symbols alone is searched for them as typed (lib/search.ts): nothing dropped.
  if (parts.length) dropped.push(...unsearchable);
  // The same word twice is one term.
  const seen = new Set<string>();
  kept = kept.filter((t) => {
    const k = `${t.quoted}:${t.tokens.join(" ")}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // Within SQLite's limits, whatever was pasted: every command builds its SQL from these terms.
  const fits = kept.filter((t) => t.tokens.every((k) => k.length <= MAX_QUERY_TOKEN));
  const cut = {
    terms: Math.max(0, fits.length - MAX_QUERY_TERMS),
    long: kept.length - fits.length,
  };
  kept = fits.slice(0, MAX_QUERY_TERMS);
  return {
    terms: kept.map((t) => t.tokens),
    parts: kept,
    dropped,
    ...(time ? { time } : {}),
    ...(cut.terms || cut.long ? { cut } : {}),
  };
}

/**
 * The window a query names when it holds nothing else but common words (`in august 2025`,
 * `what did I do yesterday`, `june`): what is asked is the sessions of that time, not the
 * words. Undefined for any other query, and for one with a quoted phrase.
 */
export function timeOnly(q: string, now = Date.now()): TimeHint | undefined {
  if (q.includes('"')) return undefined;
  const t = timeHint(q, now);
  if (!t.hint) return undefined;
  // A greeting beside the time is what is looked for (trial 81: `hello in august 2025` listed
  // the month's sessions, `hello` gone unsaid), though search leaves it out beside other words.
  return tokens(t.rest).every((w) => STOP_WORDS.has(w) && !GREETINGS.has(w)) ? t.hint : undefined;
}

/** Stop words that name what a session said, not how a question is put. */
const GREETINGS: ReadonlySet<string> = new Set(
  "hi hello hey thanks thank ok okay".split(" "),
);

/** `tok` as an FTS5 string (double quotes doubled). */
export function quote(tok: string): string {
  return `"${tok.replaceAll('"', '""')}"`;
}

/** The FTS5 expression requiring every term (in one event). */
export function ftsAll(p: { terms: string[][] }): string {
  return p.terms.map((t) => quote(t.join(" "))).join(" AND ");
}

/**
 * The token standing for one word or none between its neighbours in an
 * alternative (`["logs", GAP, "out"]`: "logs out", "logs users out"); no
 * indexed token is punctuation, so it is never a word of its own.
 */
export const GAP = "…";

/**
 * The FTS5 expression for one term: its tokens as a phrase, or for
 * `[a, GAP, b]` the two within one token of each other (FTS5's NEAR, which
 * does not keep their order).
 */
export function ftsTerm(t: string[]): string {
  const gap = t.indexOf(GAP);
  if (gap > 0 && gap < t.length - 1) {
    return `NEAR(${quote(t.slice(0, gap).join(" "))} ${quote(t.slice(gap + 1).join(" "))}, 1)`;
  }
  return quote(t.join(" "));
}

/** The FTS5 expression matching any of `alternatives` (each a token list: a word or phrase). */
export function ftsAny(alternatives: string[][]): string {
  const parts = alternatives.map(ftsTerm);
  return parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`;
}

/** What a `--since` (or `--before`) value may be, for an error message. */
export const SINCE_FORMS =
  "30d, 12h, 2w, 3mo, 45m (minutes), a date (2026-11-01) or time words (yesterday, last week)";

/** A span back from now as `--since` takes it: a number and its unit (`30d`, `2 weeks`, `3mo`). */
export const SPAN =
  /^(\d+)\s*(m|mins?|minutes?|h|hours?|d|days?|w|weeks?|mo|mons?|months?|y|years?)$/i;

/**
 * Reads a `--since` value: `30d`, `12h`, `2w`, `45m`, a date (`2026-11-01`), or the
 * time words a query understands (`yesterday`, `last week`, `3 days ago`, `on friday`;
 * lib/search/timewords.ts), read as the start of the window they name. A bare date is
 * that day's local midnight, as the time words are. Returns epoch ms, or undefined when
 * unreadable.
 */
export function parseSince(v: string, now = Date.now()): number | undefined {
  // `m` is minutes (`45m`); a month is `mo` (trial 16: `1m` meant as a month found nothing).
  const m = SPAN.exec(v.trim());
  if (m) {
    const n = Number(m[1]);
    const u = m[2].toLowerCase();
    const unit = u.startsWith("mo")
      ? 30 * 86400e3
      : u[0] === "m"
      ? 60e3
      : { h: 3600e3, d: 86400e3, w: 7 * 86400e3, y: 365 * 86400e3 }[u[0] as "h"];
    return now - n * unit;
  }
  const s = v.trim();
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (d) {
    // Local midnight, as `yesterday` and `on monday` are read (not UTC midnight, which is
    // the evening before west of Greenwich). A calendar date that does not exist
    // (2026-02-30) is an error, not March 2.
    const [y, mo, day] = [Number(d[1]), Number(d[2]) - 1, Number(d[3])];
    if (!dayExists({ year: y, month: mo, day })) return undefined;
    const t = new Date(y, mo, day);
    t.setFullYear(y); // years 0-99 are not 1900-1999
    return t.getTime();
  }
  // A weekday alone is the last one (trial 18a: `--since friday` was refused).
  const day = /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$/i.test(s) ? `on ${s}` : s;
  const words = timeHint(day, now);
  if (words.hint && !words.rest.trim()) return words.hint.from;
  // A day named alone (`march 5`: JavaScript's date reader took it as March 5, 2001).
  const on = timeHint(`on ${s}`, now);
  if (on.hint && !on.rest.trim()) return on.hint.from;
  // A number alone has no unit (trial 16: `--since 2 weeks` took `2`, a date of 2001, and
  // searched `weeks`); JavaScript reads it as a year.
  if (/^\d+$/.test(s)) return undefined;
  // Time words and a number after them are no date either (trial 42: JavaScript read
  // `yesterday 5` as May 2001, so `deja last 5 --since yesterday` took the 5 for more of it).
  const count = (r: { rest: string; hint?: TimeHint }) => r.hint && /^\d+$/.test(r.rest.trim());
  if (count(words) || count(on)) return undefined;
  // A date with its time of day is a calendar day too (trial 62: JavaScript rolled
  // `2025-06-31T10:00` over to July 1).
  const dated = /^(\d{4})-(\d{2})-(\d{2})[T ]/.exec(s);
  if (
    dated &&
    !dayExists({ year: Number(dated[1]), month: Number(dated[2]) - 1, day: Number(dated[3]) })
  ) return undefined;
  // Else only a date with its time of day (`2026-11-01T10:00`, `2026-11-01 10:00:05Z`): the
  // JavaScript date reader takes words too (trial 79: `xyz 2` was February 2001 and `feb 30`
  // March 2, 2001, each a filter that kept every session, said nowhere).
  if (
    !dated ||
    !/^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?$/i.test(s)
  ) {
    return undefined;
  }
  const t = Date.parse(s.replace(" ", "T"));
  return Number.isFinite(t) ? t : undefined;
}
