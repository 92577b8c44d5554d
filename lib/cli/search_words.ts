/**
 * What a search that matched nothing (or only the nearest) can tell of its words, for people
 * (lib/cli/_search_notes.ts puts it in hints) and for agents (lib/mcp/recall.ts): words no
 * session holds, a session's id typed among them or alone, the words it left out.
 *
 * @module
 */
import type { FilterUsed } from "./_filtered.ts";
import type { Store } from "../store.ts";
import { search, type SearchOptions, type SearchResult } from "../search.ts";
import { parseQuery, STOP_WORDS, timeOnly } from "../query.ts";
import { defaultHidden } from "../search/sessions.ts";
import { lastSessions } from "../memory/last.ts";
import { OPERATORS } from "../search/operators.ts";
import { heldAnywhere, spellings, TermStats } from "../search/expand.ts";
import { tokens } from "../search/tokenize.ts";
import { isStopSlip } from "../search/spelling.ts";
import { AmbiguousSession, looksLikeId, resolveSession, shortRef } from "../sessions.ts";
import { Q } from "../schema.ts";
import { localTime } from "../memory/text.ts";

/** Tiers where a session may hold the words only between its events (`spread`). */
const SPREAD_TIERS = new Set<SearchResult["tier"]>(["exact", "substring", "stemmed", "close"]);

/**
 * Whether hit `r` of `res` is to be marked as holding the words only across its events
 * (`words across events`): among others holding them in one event (when all are spread, the
 * narration says so), neither found by its title nor by a prompt that is the query. The CLI
 * (lib/cli/cmd_search.ts) and mode recall (lib/mcp/recall.ts) mark the same hits (trial 109 F2).
 */
export function acrossEvents(res: SearchResult, r: SearchResult["results"][number]): boolean {
  return SPREAD_TIERS.has(res.tier) && res.results.some((x) => !x.spread) && r.spread &&
    !r.titleMatch && !r.promptMatch;
}

/**
 * What a snippet of hit `r` is marked with when it is an event of a subagent filed under the
 * hit (lib/search/sessions.ts `root`), not of the hit itself: `subagent 019d924b, 2026-04-15
 * 17:59`, the subagent's reference (`ref`, as `deja show` lists it) and the event's time, which
 * may fall after the parent's own last activity its header shows. "" for the hit's own events.
 * The CLI and mode recall mark the same snippets (trial 116 L1: a subagent's prompt was shown
 * as the parent's, where `deja show` of the parent does not hold it).
 */
export function subagentMark(
  r: { id: string },
  s: { session: string; time: number | null },
  ref: (id: string) => string,
): string {
  if (s.session === r.id) return "";
  return `subagent ${ref(s.session)}${s.time ? `, ${localTime(s.time)}` : ""}`;
}

/**
 * What a hit that is itself a subagent says of its parent: a search files a subagent's hits under
 * its parent when the parent is indexed (lib/search/sessions.ts `root`), so a subagent listed on
 * its own has a parent the index does not hold, named as `deja show` names it: `subagent of <id>
 * (not indexed)`, or `a subagent; its store records no parent` (trial 121 M2: such a hit was
 * listed as a top-level session, under a short id that is its parent's id's prefix). "" for a
 * session that is no subagent.
 */
export function orphanMark(parent: string | null): string {
  if (!parent) return "";
  return /(?:^|:)unknown$/.test(parent)
    ? "a subagent; its store records no parent"
    : `subagent of ${parent} (not indexed)`;
}

/** Words of a query no event holds, and what the query finds without them. */
export interface Absent {
  words: string[];
  /** The query without them. */
  query: string;
  /**
   * Sessions it matches, under the search's filters: none only when the search listed none
   * either (`nothing`, {@link absentWords}).
   */
  sessions: number;
  /** Those filters, for the command the hint gives. */
  filters?: FilterUsed[];
  /**
   * One of the words names the model of some sessions, not a word of theirs (trial 53: `qwen`
   * was "in no session" of a history whose Crush sessions ran `qwen/qwen3-coder`).
   */
  model?: { word: string; sessions: number };
  /** The one word of them that is a session's id (lib/cli/cmd_search.ts): searched within it. */
  id?: string;
  /** That session holds none of the other words as the search reads them ({@link idHolds}). */
  idEmpty?: boolean;
}

/**
 * The words of a query that matched nothing which no event of the index holds at all
 * (`zzqqxx` in `redis zzqqxx`), with the query without them and how many sessions it
 * matches; undefined when there are none, when no word is left without them, or when
 * the rest matches nothing either. A quoted query is left alone (its own hint).
 */
export function absentWords(
  store: Store,
  query: string,
  opts: SearchOptions,
  filters: FilterUsed[] = [],
  /** The query's time words the search read as a time (`in july`): they rank, never absent. */
  time?: string,
  /**
   * The search listed nothing: the words are named even when the rest matches nothing too
   * (trial 128 F8: `mathbal originitem zzyzx` said only "nothing matched").
   */
  nothing = false,
): Absent | undefined {
  if (query.includes('"')) return undefined;
  const words = query.split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  const stats = new TermStats(store);
  // A word a title holds is in a session (trial 15: "'Introductions' is in no session" of a
  // session titled "Getting Started and Introductions").
  // Nor is a word held in another form (`lose` where sessions say `loses`), and time words
  // name no text (`why did the sync daemon lose messages in july`: "'lose', 'july' are in no
  // session", and `deja … messages in` offered; recall bench, seed 3).
  const timed = new Set(tokens(time ?? ""));
  // Nor a word cut from a long query, never looked up (trial 118 F7: 51 words past the first
  // 200 were called "in no searchable text").
  const looked = new Set(parseQuery(query).parts.flatMap((p) => p.tokens));
  const gone = words.filter((w) => {
    const t = tokens(w);
    return t.length > 0 && !STOP_WORDS.has(t[0]) && !t.every((k) => timed.has(k)) &&
      t.some((k) => looked.has(k) && unexplained(stats, k));
  });
  // Nor is an operator of another engine's syntax given back (trial 37: `foo OR bar` was
  // offered `deja OR bar`).
  // Nor are the words cut given back to search (they would be cut again).
  const cut = (w: string) =>
    tokens(w).some((k) => !looked.has(k) && !STOP_WORDS.has(k) && !timed.has(k));
  const rest = words.filter((w) => !gone.includes(w) && !OPERATORS.has(w) && !cut(w)).join(" ");
  // Common words alone are no search to suggest (trial 15 was offered `deja for of i tou to`).
  const left = tokens(rest);
  if (!gone.length || !left.length || left.every((t) => STOP_WORDS.has(t))) return undefined;
  const sessions = timeOnlyCount(store, rest, opts) ?? (() => {
    const r = search(store, rest, { ...opts, limit: 1 });
    return r.nothingMatched ? 0 : r.total;
  })();
  if (!sessions && !nothing) return undefined;
  const model = gone.length === 1 && !filters.some((f) => f.flag === "--model")
    ? shownOfModel(store, gone[0], opts)
    : 0;
  return {
    // Without the punctuation around them (trial 83: `'weird,'`, `'terraform:'`).
    words: [...new Set(gone.map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "") || w))],
    query: rest,
    sessions,
    ...(filters.length ? { filters } : {}),
    ...(model ? { model: { word: gone[0], sessions: model } } : {}),
  };
}

/**
 * True when the history holds `word` nowhere ({@link heldAnywhere}: no event, title, other
 * form or longer name) and the search reads it as no typo of a word it holds (trial 45:
 * `forgejoo` of `rediss sentinell forgejoo` was called in no session, and `deja rediss`
 * offered): a word only text deja never read (a record's cut middle) could hold.
 */
export function unexplained(stats: TermStats, word: string): boolean {
  if (stats.docs(word) > 0 || heldAnywhere(stats, word)) return false;
  return !(word.length >= 4 && !/\d/.test(word) && spellings(stats, word, false).length > 0);
}

/**
 * How many sessions (not subagents) of a model holding `word` the search shows, those of
 * throwaway or excluded projects left out as it leaves them (trial 92 F11: "7 sessions" where
 * `--model` listed 6).
 */
export function shownOfModel(store: Store, word: string, opts: SearchOptions): number {
  const ids = Q.sessionIdsOfModel.all(store, { text: word }).map((r) => r.id);
  if (!ids.length || !opts.env) return ids.length;
  const hidden = hiddenOf(store, opts, opts.env);
  return ids.filter((id) => !hidden.has(id)).length;
}

/** The sessions the search's options leave out, as `deja last` leaves them out. */
function hiddenOf(store: Store, opts: SearchOptions, env: NonNullable<SearchOptions["env"]>) {
  return defaultHidden(store, {
    env,
    junk: opts.hideThrowaway === false,
    here: opts.here,
    project: opts.project,
  });
}

/**
 * How many sessions `deja <rest>` lists when `rest` is time words alone (a window, listed as
 * `deja last` lists it), under the search's filters; undefined for any other text (trial 59:
 * `zzzqq in march` said "without it: 3 sessions: deja in march", the sessions saying `march`,
 * where that command lists the 9 of March).
 */
function timeOnlyCount(store: Store, rest: string, opts: SearchOptions): number | undefined {
  const window = opts.env ? timeOnly(rest, opts.now ?? Date.now()) : undefined;
  if (!window || !opts.env) return undefined;
  const hidden = hiddenOf(store, opts, opts.env);
  return lastSessions(store, {
    limit: 1,
    harness: opts.harness,
    project: opts.project,
    since: window.from,
    until: window.to,
    hidden,
    count: true,
  }).total ?? 0;
}

/**
 * The line that names the words the search left out (stop words, symbols with nothing
 * to search), but a question's scaffolding the narration names; empty when none were,
 * or when the first result is a prompt the whole query matched (lib/search/prompt.ts) or
 * holds the whole query as one phrase (lib/search/verbatim.ts).
 */
export function droppedNote(res: SearchResult): string {
  const first = res.results[0];
  if (first?.promptMatch || first?.verbatimMatch || first?.joinedMatch) return "";
  const question = new Set(res.leftOut ?? []);
  const words = [...new Set(res.dropped.filter((w) => !question.has(w)))];
  if (!words.length) return "";
  const common = words.filter((w) => STOP_WORDS.has(w));
  const slips = words.filter((w) => !STOP_WORDS.has(w) && isStopSlip(w));
  const other = words.filter((w) => !STOP_WORDS.has(w) && !isStopSlip(w));
  return "left out " + [
    common.length ? `as too common: ${common.join(", ")}` : "",
    slips.length ? `as a slip of a common word: ${slips.join(", ")}` : "",
    other.length ? `with nothing to search: ${other.join(" ")}` : "",
  ].filter(Boolean).join("; ");
}

/**
 * The common words `res` left out of its search, when it still searched two words or more
 * and left out nothing else: the words without a phrase's quotes then match what they name
 * (empty: none left out). Undefined when it left out another word, or kept fewer than two
 * (`"hello websocket"` searched as `websocket` alone is no match of the words).
 */
export function commonLeftOut(res: SearchResult): string[] | undefined {
  if (!droppedNote(res)) return [];
  const question = new Set(res.leftOut ?? []);
  const words = [...new Set(res.dropped.filter((w) => !question.has(w)))];
  if (words.some((w) => !STOP_WORDS.has(w))) return undefined;
  return parseQuery(res.query).parts.length >= 2 ? words : undefined;
}

/**
 * `query` when it is a session's id (or the prefix of several) and no event holds it (trial
 * 42: a pasted id answered "nothing matched" and named no command that takes it).
 */
export function sessionIdTyped(store: Store, query: string): string | undefined {
  const ref = query.trim();
  // Any one token of four characters or more: Gemini's `mrp1k5`, opencode's `ses_dd74` and
  // aider's `aider-69…` are ids too (trial 43), not only hex.
  if (!looksLikeId(ref) && !/^[\w.:-]{4,}$/.test(ref)) return undefined;
  try {
    resolveSession(store, ref);
    return ref;
  } catch (e) {
    return e instanceof AmbiguousSession ? ref : undefined; // several: show lists them
  }
}

/** One word of a query whose words no session holds together, and its own sessions. */
export interface ApartWord {
  word: string;
  /** Sessions the word alone matches, under the search's filters. */
  sessions: number;
  /** The spellings it was read as, when the history holds it in none as typed. */
  as?: string[];
}

/** Sessions of each word {@link apartWords} reads at most to tell that none holds both. */
const APART_SESSIONS = 500;

/**
 * The two words of a query that matched nothing when each matches sessions on its own,
 * never one session both (`touch flux`: `flux` in 3, `touch` in 3; each as it alone is read,
 * inside longer words or spelt close), most sessions first; undefined otherwise. A quoted query, and one of more or fewer than two words beside
 * its common ones, are left alone.
 */
export function apartWords(
  store: Store,
  query: string,
  opts: SearchOptions,
): ApartWord[] | undefined {
  return wordsApart(store, query, opts).apart;
}

/**
 * The sessions holding every word of a query that matched nothing, between their events: no
 * single event holds them as the search reads them together (pieces of longer words, README),
 * yet each session holds each word somewhere.
 */
export interface Between {
  /** The words as each alone is read. */
  words: string[];
  /** How many sessions hold them between their events. */
  sessions: number;
  /** The first few of them, as short refs (`deja show` takes them), most hits of the words first. */
  refs: string[];
}

/** Refs {@link Between} names at most. */
const BETWEEN_SHOWN = 5;

/**
 * For a query that matched nothing, of two to four words beside its common ones, each
 * matching sessions on its own: `apart` when two words are never in one session
 * ({@link apartWords}); `between` when some sessions hold every word, only apart in their
 * events (trial 121 M1: `MathBal OriginItem` said nothing matched, no hint, of a session
 * holding both pieces in different events). Neither for a quoted query.
 */
export function wordsApart(
  store: Store,
  query: string,
  opts: SearchOptions,
): { apart?: ApartWord[]; between?: Between } {
  if (query.includes('"')) return {};
  // A language named by a letter and a symbol is looked for as written, not as its letter
  // (trial 92 F6: `C# powershell` said "'c' and 'powershell' are in no session together").
  if (query.split(/\s+/).some((w) => /^[A-Za-z]{1,2}(?:#|\+\+)$/.test(w))) return {};
  const words = [...new Set(tokens(query).filter((t) => !STOP_WORDS.has(t)))];
  if (words.length < 2 || words.length > 4) return {};
  const out: ApartWord[] = [];
  /** Per word: the sessions it alone matches (harness:id), with its short ref and hits. */
  const held: Map<string, { ref: string; hits: number }>[] = [];
  for (const word of words) {
    // At the limit the command it names lists them at (trial 90 F12: "in 1" where `deja broke`
    // listed 5, its forms read only past a limit of one).
    const limit = Math.max(opts.limit ?? 10, 10);
    let r = search(store, word, { ...opts, limit, nearest: false });
    if (r.nothingMatched || !r.total) return {};
    // Matched as spelt (trial 78 F8: "'idempotnt' alone is in 3 sessions", a word in none).
    const as = r.tier === "close" ? r.changes.flatMap((c) => c.to.slice(0, 2)) : [];
    out.push({ word, sessions: r.total, ...(as.length ? { as } : {}) });
    // Every session it is in, as each word alone reads it, to tell none holds both.
    if (r.total > r.results.length) {
      r = search(store, word, {
        ...opts,
        limit: Math.min(r.total, APART_SESSIONS),
        nearest: false,
      });
    }
    held.push(
      new Map(r.results.map((x) => [`${x.harness}:${x.id}`, { ref: x.id, hits: x.hits }])),
    );
  }
  const all = [...held[0].keys()].filter((k) => held.every((h) => h.has(k)));
  // A session holding both words as each alone reads them (`radarr` of `radar`, `jackett` of
  // `jacket`, apart in its events) is no proof they are apart (trial 118 F1: "'radar' and
  // 'jacket' are in no session together" of two sessions holding both): it holds them
  // between its events, and is named as such.
  if (all.length) {
    const hits = (k: string) => held.reduce((n, h) => n + h.get(k)!.hits, 0);
    const ranked = all.sort((a, b) => hits(b) - hits(a)).slice(0, BETWEEN_SHOWN);
    const refs = ranked.map((k) => {
      const [harness] = k.split(":", 1);
      return shortRef(store, harness, held[0].get(k)!.ref);
    });
    return { between: { words, sessions: all.length, refs } };
  }
  if (words.length !== 2) return {};
  return { apart: out.sort((a, b) => b.sessions - a.sessions) };
}

/**
 * Whether the session `ref` names (with its subagents) holds `query` as the search reads it;
 * true when `ref` names several (the hint then leaves the choice to `deja show`).
 */
export function idHolds(store: Store, ref: string, query: string, opts: SearchOptions): boolean {
  let id: number;
  try {
    id = resolveSession(store, ref).id;
  } catch {
    return true;
  }
  const sessionIds = Q.withChildren.all(store, { ids: JSON.stringify([id]) }).map((r) => r.id);
  const r = search(store, query, { ...opts, sessionIds, limit: 1 });
  return !r.nothingMatched && r.total > 0;
}
