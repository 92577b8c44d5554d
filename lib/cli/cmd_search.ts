/**
 * `deja <query>` / `deja search <query>`: find the sessions where that work happened.
 *
 * Parse ({@link parseSearch}) → run ({@link searchData}: the index searched, reranked by an
 * embeddings endpoint when one is configured) → render ({@link searchJson}, {@link searchText}).
 * main.ts freshens the index first (`refresh: true`, lib/cli/refresh.ts).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, intOpt, opt, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { search, type SearchOptions, type SearchResult } from "../search.ts";
import { NoSessionMatch, resolveSession, shortRef } from "../sessions.ts";
import { searchLine } from "./question.ts";
import { narration } from "./search_narration.ts";
import { cutNote, parseQuery, STOP_WORDS, timeOnly } from "../query.ts";
import { unreadForms } from "../search/ladder.ts";
import { heldAnywhere, TermStats } from "../search/expand.ts";
import { Q } from "../schema.ts";
import { defaultHidden, searchHiding, SessionCache } from "../search/sessions.ts";
import { shQuote, shQuoteShown } from "../shell.ts";
import { changedFiles, changedFileSessions } from "../search/changed.ts";
import { describedProducts } from "../search/products_match.ts";
import { embedConfig } from "../embeddings/config.ts";
import {
  checkFrom,
  FILTER_OPTIONS,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  SINCE_OPTION,
  timeOpt,
} from "./_memory.ts";
import { type FilteredOut, filtersUsed, nothingMatchedText } from "./_filtered.ts";
import {
  type Absent,
  absentWords,
  type ApartWord,
  type Between,
  droppedNote,
  hiddenExactText,
  partlyNews,
  sessionIdTyped,
  wordsApart,
} from "./_search_notes.ts";
import { tokens } from "../search/tokenize.ts";
import { idHolds, shownOfModel, unexplained } from "./search_words.ts";
import { trace } from "../../core/trace.ts";
import { underFilters, type Unquoted, unquotedHint } from "./search_unquoted.ts";
import { describeSession } from "../memory/last.ts";
import {
  commonWordsOnly,
  hintsText,
  nearOnText,
  searchFooter,
  searchFound,
  searchJson,
  searchText,
  sinceLine,
} from "./search_out.ts";
const ROLES: Record<string, string[]> = {
  user: ["user"],
  assistant: ["assistant"],
  tool: ["tool_call", "tool_result"],
  tool_call: ["tool_call"],
  tool_result: ["tool_result"],
  summary: ["summary"],
  notice: ["notice"],
};

export const searchCmd: CommandSpec = {
  refresh: true,
  usage: "search <query...> [--harness <id>] [--project <text>] [--from <name|local>] " +
    "[--since <30d|date>] [--role <kind>] [--session <id>] [--model <text>] [--re] [--junk] [--limit N] [--json]",
  options: {
    ...FILTER_OPTIONS,
    ...SINCE_OPTION,
    role: {
      type: "string",
      value: "<kind>",
      description: "only user, assistant, tool (tool_call, tool_result), summary or notice events",
      multiple: true,
    },
    session: {
      type: "string",
      value: "<id>",
      description: "search inside one session (an id prefix) and its subagents",
    },
    re: { type: "boolean", description: "the query is a regular expression ((?i) ignores case)" },
    ...JUNK_OPTION,
    limit: { type: "string", value: "<n>", description: "sessions to show (default 10)" },
    json: { type: "boolean", description: "print results as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runSearch(a, io),
};

/** What `deja search` was asked. */
export interface SearchArgs {
  /** The words (or, with `regex`, the expression) as typed. */
  query: string;
  filter: SessionFilter;
  /** Epoch ms: only events at or after. */
  since?: number;
  /** `--since` as typed (for messages). */
  sinceText?: string;
  /** Event kinds of the `--role` values, or undefined for all. */
  kinds?: string[];
  /** The `--role` values as typed (for messages). */
  roles?: string[];
  /** `--session`: an id prefix; the search stays inside it and its subagents. */
  session?: string;
  regex: boolean;
  /** Sessions to show. */
  limit: number;
  json: boolean;
  /** Epoch ms "now" for the query's time words (`deja view` passes its clock); default the clock's. */
  now?: number;
}

/** What `deja search` found, each result with its shortest reference. */
export interface SearchData {
  result: SearchResult;
  /** Shortest unambiguous reference per result, keyed `harness:id`. */
  refs: Map<string, string>;
  /** Snippets inside a day of notes (harness `deja`): the note's id, keyed `day:seq`. */
  noteIds?: Map<string, string>;
  /** The embeddings rerank: `off`, or its state (lib/embeddings/rerank.ts). */
  embeddings: string;
  /** An endpoint that failed: the results stay as the index ranked them. */
  warning?: { message: string; hint?: string };
  /**
   * When a query with a quoted phrase matched nothing: the query without its quotes, how
   * many sessions it matches (more than none), and the common words that search left out.
   */
  unquoted?: Unquoted;
  /** Nothing matched under filters: which, and how many sessions match without them. */
  filtered?: FilteredOut;
  /**
   * When nothing matched a query of several words some of which no event holds at all:
   * those words, the query without them, and how many sessions it matches (more than none).
   */
  absent?: Absent;
  /**
   * A word of the query is part of the model's name of this many sessions: the query alone
   * (`query` absent), or beside other words none of which matched exactly, which `query` finds
   * among that model's sessions (trial 83 F6: `gpt-5 docker`).
   */
  modelOf?: { word: string; sessions: number; query?: string };
  /** Two words each held by sessions, none holding both (lib/cli/_search_notes.ts). */
  apart?: ApartWord[];
  /** Sessions holding every word between their events, none in one event (lib/cli/search_words.ts). */
  between?: Between;
  /** Sessions matching the query that `--since` left out as undated (lib/session_time.ts). */
  undated: number;
  /**
   * When nothing matched: stores indexed in part, a record's middle past its size limit not
   * searchable (trial 65: `deja Geminiaeus` said nothing matched of a word in such a middle).
   */
  shortened?: number;
  /** The text output said {@link shortened} after an earlier search: not again ({@link partlyNews}). */
  shortenedSaid?: boolean;
  /**
   * The nearest by relevance of a query some word of which is in no session: the words they
   * were ranked on (`held`) and those none holds (`nowhere`), said under the verdict.
   */
  nearOn?: { held: string[]; nowhere: string[] };
  /** Files the query names, with how many sessions changed each, when nothing matched exactly. */
  changed?: Array<{ file: string; sessions: number }>;
  /**
   * Tools two words or more of the query describe (lib/search/products_match.ts), that the
   * history names and the first sessions listed do not: how many sessions name each, and the
   * options the count was made with.
   */
  products?: Array<{ product: string; words: string[]; sessions: number; options: string }>;
  /** The query as typed, when nothing matched it and it is an indexed session's id (prefix). */
  idOf?: string;
  /**
   * What each result's session was about, keyed `harness:id`: its title, else its first
   * prompt that reads as typed (lib/memory/last.ts describeSession). A session without a
   * title is told apart from the others by it, not by a snippet of tool output.
   */
  about: Map<string, string>;
  /**
   * A word typed alone whose exact matches filled `--limit`: its other forms the history
   * holds, whose sessions were not looked for (they follow past the limit; `total` does not
   * count them). Absent otherwise.
   */
  formsUnread?: string[];
}

/**
 * The forms of a word typed alone that the search did not look for, its exact matches having
 * filled the list (trial 59: "showing 10 of 18" where `--limit 50` listed 20).
 */
function formsLeft(store: Store, args: SearchArgs, res: SearchResult): { formsUnread?: string[] } {
  // Read and listed (trial 78 F6: said unread at `--limit 19`, two of them listed).
  if (args.regex || res.tier !== "exact" || res.results.length < args.limit || res.formsFollow) {
    return {};
  }
  // Only forms a session not listed holds (trial 103 F10: named a form only a listed one held).
  const cache = new SessionCache(store);
  const forms = unreadForms(new TermStats(store), parseQuery(args.query), {
    ids: new Set(res.results.map((r) => r.rowid)),
    rootOf: (id) => cache.root(id),
  });
  return forms?.length ? { formsUnread: forms } : {};
}

/**
 * The files the query names ({@link changedFiles}), each with how many sessions that changed it
 * `deja blame <file>` lists: those it leaves out by default (throwaway and excluded projects)
 * are not counted, and a file only they changed is not named.
 */
function blamedFiles(
  store: Store,
  query: string,
  io: Pick<IO, "env" | "cwd">,
): Array<{ file: string; sessions: number }> {
  const files = changedFiles(store, query);
  if (!files.length) return files;
  const hidden = defaultHidden(store, { env: io.env, here: io.cwd });
  const shown = { has: (id: number) => !hidden.has(id) };
  return files
    .map((c) => ({
      file: c.file,
      sessions: changedFileSessions(store, c.file, shown, (id) => id).size,
    }))
    .filter((c) => c.sessions > 0);
}

/**
 * Reads `deja search`'s arguments.
 *
 * @throws {DejaError} exit 2 on no query, a bad `--since`, an unknown role or harness.
 */
export function parseSearch(a: Args): SearchArgs {
  const query = a.values.re ? a.positionals.join(" ") : a.positionals.join(" ").trim();
  // An empty quoted phrase (`deja '""'`) is no query either.
  if (!(a.values.re ? query.trim() : query.replace(/["\s]/g, ""))) {
    throw new DejaError("no query given", 'try: deja "what you remember"', 2);
  }
  const filter = parseFilter(a);
  const { ms: since, text: sinceText } = timeOpt(a, "since");
  const kinds: string[] = [];
  const roles = (a.values.role as string[] | undefined) ?? [];
  for (const r of roles) {
    const k = ROLES[r.replace("-", "_")];
    if (!k) {
      throw new DejaError(`unknown role '${r}'`, `roles: ${Object.keys(ROLES).join(", ")}`, 2);
    }
    kinds.push(...k);
  }
  return {
    query,
    filter,
    since,
    sinceText,
    kinds: kinds.length ? kinds : undefined,
    ...(roles.length ? { roles } : {}),
    session: opt(a, "session"),
    regex: Boolean(a.values.re),
    limit: intOpt(a, "limit", 10),
    json: Boolean(a.values.json),
  };
}

/**
 * Searches the index. With an embeddings endpoint configured (lib/embeddings/), the results
 * are reranked by it; an endpoint that fails leaves them as the index ranked them and says so
 * in `warning`.
 *
 * @throws {DejaError} when `--session` matches no session or `--from` no remote.
 */
export async function searchData(
  store: Store,
  args: SearchArgs,
  io: Pick<IO, "env" | "cwd">,
): Promise<SearchData> {
  const sessionIds = args.session === undefined ? undefined : Q.withChildren.all(store, {
    ids: JSON.stringify([withinSession(store, args.session, args.query).id]),
  }).map((r) => r.id);
  const { filter } = args;
  const opts: SearchOptions & { limit: number } = {
    harness: filter.harness,
    project: filter.project,
    since: args.since,
    limit: args.limit,
    kinds: args.kinds,
    sessionIds,
    ...(args.now === undefined ? {} : { now: args.now }),
    regex: args.regex,
    ...searchHiding({
      env: io.env,
      junk: filter.junk,
      here: io.cwd,
      from: filter.from === undefined ? undefined : checkFrom(filter.from, io),
      model: filter.model,
    }),
    snippets: sessionIds ? 10 : 3,
  };
  let result: SearchResult;
  let embeddings = "off";
  let warning: SearchData["warning"];
  const wanted = embedConfig(io.env);
  if (!wanted.config && !wanted.problem) result = search(store, args.query, opts);
  else {
    // Loaded only when an endpoint is configured (it loads the redaction rules: issue 15).
    const { CANDIDATES, rerank } = await import("../embeddings/rerank.ts");
    // Its literal matches alone: a reranked list has no place where the nearest begin.
    const wide = search(store, args.query, {
      ...opts,
      limit: Math.max(args.limit, CANDIDATES),
      nearest: false,
    });
    const rr = await rerank(store, io.env, wide, opts);
    result = rr.result;
    embeddings = rr.state;
    if (rr.warning) warning = { message: rr.warning, hint: rr.hint };
  }
  const filters = filtersUsed({
    ...filter,
    since: args.sinceText,
    role: args.roles,
    session: args.session,
  });
  let filtered: FilteredOut | undefined;
  ({ result, filtered } = underFilters(store, args.query, opts, filters, result));
  const undated = args.since === undefined ? 0 : undatedLeftOut(store, args.query, opts);
  // Stores indexed in part are named when a word the search looked up is in no text read and
  // nothing else explains the miss: the part cut out may hold it (trial 90 F16: named on every
  // miss, the quotes of a phrase its only fault). A word held in another form, inside a longer
  // name or as a close spelling of a held one is explained by that (trial 118 F7: named on
  // `overlaoded` and `authorizeWith`), and a word cut from a long query was never looked up.
  const stats = new TermStats(store);
  const unheld = () =>
    args.regex || parseQuery(args.query).parts.flatMap((p) => p.tokens)
      .some((t) => !STOP_WORDS.has(t) && unexplained(stats, t));
  const shortened = result.nothingMatched && unheld() ? Q.sourcesShortened.get(store, {})!.n : 0;
  const nearOn = result.tier === "relevance" && !args.regex
    ? nearestOn(stats, args.query, result.changes)
    : undefined;
  const unquoted = result.nothingMatched && !args.regex && args.query.includes('"')
    ? unquotedHint(store, args.query, opts, filters, Boolean(filter.junk))
    : undefined;
  // Also beside the nearest by relevance (trial 16: `simple greeting banana` listed a guess
  // and never said that `banana` is in no session while `simple greeting` names 5 titles).
  const absentAll = (result.results.length && !result.nothingMatched) || args.regex ||
      filtered?.without
    ? undefined
    : absentWords(
      store,
      args.query,
      opts,
      filters,
      result.time?.words,
      !result.results.length,
    );
  const idWord = absentAll?.words.length === 1 && !opts.sessionIds
    ? sessionIdTyped(store, absentAll.words[0])
    : undefined;
  const absent = absentAll && idWord
    ? {
      ...absentAll,
      id: idWord,
      // The search within it would find nothing (trial 49: `deja forgejo 019d9249` offered
      // `deja forgejo --session 019d9249` of a session that never says forgejo).
      ...(idHolds(store, idWord, absentAll.query, opts) ? {} : { idEmpty: true }),
    }
    : absentAll;
  // The rest matching nothing either: how its words are held (trial 128 F8).
  const { apart, between } = result.results.length || args.regex || absent?.sessions ||
      filtered?.without
    ? {}
    : wordsApart(store, absent?.query ?? args.query, opts);
  const refs = new Map<string, string>();
  const about = new Map<string, string>();
  for (const r of result.results) {
    refs.set(`${r.harness}:${r.id}`, shortRef(store, r.harness, r.id));
    for (const id of r.copies ?? []) refs.set(`${r.harness}:${id}`, shortRef(store, r.harness, id));
    // A snippet of a subagent filed under it is marked with the subagent's (trial 116 L1).
    for (const s of r.snippets) {
      const key = `${r.harness}:${s.session}`;
      if (s.session !== r.id && !refs.has(key)) {
        refs.set(key, shortRef(store, r.harness, s.session));
      }
    }
    const what = describeSession(store, { id: r.rowid, title: r.title });
    if (what) about.set(`${r.harness}:${r.id}`, what);
  }
  // Tools the words describe that the listed sessions do not name (trial 134 F1: `self-hosted
  // git server` listed 15 sessions holding those words, none the one about Forgejo).
  const products = args.regex ? [] : productsNamed(
    store,
    stats,
    args.query,
    result,
    opts,
    [
      ...filters.map((f) => ` ${f.flag} ${shQuoteShown(f.value)}`),
      filter.junk ? " --junk" : "",
    ].join(""),
  );
  // A file named among other words, when nothing matched exactly: the sessions that changed it.
  const exact = result.tier !== "relevance" && result.tier !== "none" && !result.nothingMatched;
  // Counted as the `deja blame` it names shows them, throwaway projects' left out (trial 120 M1:
  // "6 sessions changed README.md" where blame listed 2 that did, 4 hidden).
  const changed = args.regex || exact ? [] : blamedFiles(store, args.query, io);
  // With sessions listed too, when none holds the query as typed and it has a digit (no word
  // of prose): `deja aider-69f75c590d41-1` listed look-alikes and named no command (trial 43).
  const idOf = !args.regex && (!result.results.length || (!exact && /\d/.test(args.query)))
    ? sessionIdTyped(store, args.query)
    : undefined;
  // A model's name alone (trial 53: `deja qwen` said only "nothing matched").
  const word = args.query.trim();
  // Beside look-alikes too (trial 57: `gpt-5` listed `paperless-gpt` and `5|`).
  // Counted as `deja last --model` lists them (trial 92 F11: "7 sessions" where it listed 6,
  // one of a throwaway project hidden).
  const modelOf = (!result.results.length || !exact) && !args.regex && !idOf && !filter.model &&
      /^[\w.:/-]+$/.test(word)
    ? shownOfModel(store, word, opts)
    : 0;
  // Beside other words, when none matched exactly (trial 83 F6: `gpt-5 docker` listed a session
  // holding `paperless-gpt`, and the six sessions of `gpt-5` models went unnamed).
  const modelBeside = !modelOf && !exact && !args.regex && !idOf && !filter.model &&
      !absent?.model
    ? modelAmong(store, word, opts)
    : undefined;
  return {
    ...(idOf ? { idOf } : {}),
    ...(modelOf
      ? { modelOf: { word, sessions: modelOf } }
      : modelBeside
      ? { modelOf: modelBeside }
      : {}),
    result,
    refs,
    about,
    ...(changed.length ? { changed } : {}),
    ...(products.length ? { products } : {}),
    embeddings,
    warning,
    filtered,
    undated,
    ...(shortened ? { shortened } : {}),
    ...(nearOn ? { nearOn } : {}),
    ...(unquoted ? { unquoted } : {}),
    ...(absent ? { absent } : {}),
    ...(apart ? { apart } : {}),
    ...(between ? { between } : {}),
    noteIds: await snippetNoteIds(result, io.env),
    ...formsLeft(store, args, result),
  };
}

/**
 * How many sessions holding the query `--since` left out because they are undated (a
 * prompt history, lib/session_time.ts): the query run without `--since` over the
 * undated sessions, less those an event's own time keeps in the window.
 */
function undatedLeftOut(store: Store, query: string, opts: SearchOptions): number {
  const only = new Set(opts.sessionIds ?? []);
  const ids = Q.undatedIds.all(store, {}).map((r) => r.id)
    .filter((id) => !opts.sessionIds || only.has(id));
  if (!ids.length) return 0;
  const found = (since: number | undefined) => {
    const r = search(store, query, { ...opts, since, sessionIds: ids, limit: 1 });
    return r.nothingMatched ? 0 : r.total;
  };
  const all = found(undefined);
  return all ? Math.max(0, all - found(opts.since)) : 0;
}

/**
 * The note each snippet of a notes day is (lib/memory/note_ids.ts); one read of the notes file.
 * Its modules are loaded only then: the notes parser loads node:crypto, which cost a cold
 * query of the Bun binary 15-30 ms (issue 15).
 */
async function snippetNoteIds(res: SearchResult, env: IO["env"]): Promise<Map<string, string>> {
  if (!res.results.some((r) => r.harness === "deja")) return new Map();
  const { hitNoteIds } = await import("../memory/note_ids.ts");
  const { notesPath } = await import("../../parsers/deja.ts");
  return hitNoteIds(res.results, { path: notesPath(env), tz: env.get("TZ") });
}

/**
 * The query's words (stop words left out) split into those the history holds and those it
 * holds in no form (no event, title, word form or longer word: {@link heldAnywhere}, as `ctx`
 * reads it), when both kinds are there: the nearest by relevance are then ranked on the first
 * alone. (Trial 107 F2: `forgejo crashing` said "'crashing' is in no session" of a word a
 * title holds, whose form `crash` ranked the session listed.)
 */
function nearestOn(
  stats: TermStats,
  query: string,
  /** The spellings the search read (`developr → developer`): ranked on, never in no session. */
  spelt: ReadonlyArray<{ from: string; to: string[] }> = [],
): SearchData["nearOn"] {
  // Trial 125 F2: "read as spelt: developr → developer", then "ranked on 'role', 'error'
  // alone: 'ollma', 'developr' are in no session".
  const read = new Map(spelt.filter((c) => c.to.length).map((c) => [c.from, c.to[0]]));
  const words = [...new Set(tokens(query))].filter((t) => !STOP_WORDS.has(t));
  const nowhere = words.filter((t) => !read.has(t) && !heldAnywhere(stats, t));
  const held = words.filter((t) => !nowhere.includes(t)).map((t) => read.get(t) ?? t);
  return held.length && nowhere.length ? { held: [...new Set(held)], nowhere } : undefined;
}

/**
 * `deja search` end to end. Exit codes like grep: 0 found, 1 nothing matched (nearest
 * sessions may still print), 2 error.
 */
export async function runSearch(a: Args, io: IO): Promise<number> {
  const args = parseSearch(a);
  // Time words alone (`deja in august 2025`, `deja what did I do yesterday`): the sessions of
  // that window, as `deja last` lists them (trial 16: the words were searched as text).
  // Not for `deja search …`: asked for a search, it is one, text and JSON alike (trial 59: `deja
  // search the in 2026 --json` printed `deja last`'s document; trial 60: then the text listed
  // the window's sessions while the JSON searched).
  const asked = io.args[0] === "search"; // main.ts puts `deja --json search …`'s name first
  const window = args.regex || args.session || args.kinds || args.since !== undefined || asked
    ? undefined
    : timeOnly(args.query);
  if (window) {
    const { runLastWindow } = await import("./cmd_last.ts");
    // The phrase without the stop words around it (trial 18b: `"in march"` found nothing,
    // and its hint led back to `deja in march`).
    const words = window.words.trim().split(/\s+/);
    const stop = (w: string | undefined) => w !== undefined && STOP_WORDS.has(w.toLowerCase());
    while (words.length > 1 && stop(words[0])) words.shift();
    while (words.length > 1 && stop(words.at(-1))) words.pop();
    const quoted = `"${words.join(" ")}"`;
    io.err(
      `deja: "${window.words.trim()}" names a time: its sessions, as 'deja last' lists them; ` +
        `to search the words: deja search ${shQuote(quoted)}\n`,
    );
    return runLastWindow(a, io, window, args.limit);
  }
  const store = Store.open(indexPath(io.env));
  trace("index open");
  let d: SearchData;
  try {
    d = await searchData(store, args, io);
  } finally {
    store.close();
  }
  if (d.warning) {
    io.err(`deja: ${d.warning.message}\n${d.warning.hint ? `hint: ${d.warning.hint}\n` : ""}`);
  }
  if (args.json) {
    printJson(io, searchJson(d, args));
    trace("printed");
    return searchFound(d) ? 0 : 1;
  }
  // trial 101 F12: "indexed in part" once, not after every miss (--json lists it each time).
  if (d.shortened && !partlyNews(io.env, d.shortened)) d = { ...d, shortenedSaid: true };
  const cut = cutNote(d.result.cut);
  const cutText = cut
    ? `deja: ${cut}\nhint: search for fewer words, or the few that name the problem\n`
    : "";
  const note = narration(d.result);
  // trial 106 F8: the window `--since` gave is said, as time words typed in the query are.
  const sinceSaid = args.since !== undefined && args.sinceText !== undefined
    ? `${sinceLine(args.sinceText, args.since)}\n`
    : "";
  const common = args.regex ? [] : commonWordsOnly(args.query);
  if (common.length) {
    // How many hold them, as found: `hi` is a common word held by 8 sessions of 78.
    const n = d.result.total;
    const them = common.length === 1 ? "it" : "them";
    const held = !n
      ? `no session holds ${them}`
      : `${n} session${n === 1 ? " holds" : "s hold"} ${them}`;
    io.err(
      `deja: the query holds only common words (${
        common.join(", ")
      }), searched as typed: ${held}\n` +
        "hint: add a word that names what you remember\n",
    );
  }
  if (!d.result.results.length) {
    // Held only by hidden sessions: said in the verdict itself (trial 9 read "nothing matched"
    // and only then the hint that 4 sessions holding it were left out).
    // Every word cut: nothing was searched, not "nothing matched" (trial 54: one word of
    // 2,000 characters).
    if (cut && !parseQuery(args.query, Date.now()).parts.length) {
      io.err(
        `deja: nothing was searched: ${cut}\n` +
          "hint: search for the few words that name the problem\n",
      );
      return 1;
    }
    const head = nothingMatchedText(args.query, d.filtered);
    io.err(
      (d.result.hidden > 0 && !d.filtered?.filters.length
        ? head.replace(
          /\n$/,
          ` outside throwaway or excluded projects${
            d.result.hiddenSpelt
              ? ` (there, as ${d.result.hiddenSpelt.map(([a, b]) => `${a} → ${b}`).join(", ")})`
              : ""
          }\n`,
        )
        : head) + cutText + sinceSaid,
    );
    if (note) io.err(`${note}\n`);
    const left = droppedNote(d.result);
    if (left) io.err(`${left}\n`);
    io.err(hintsText(d, args));
    return 1;
  }
  if (cutText) io.err(cutText);
  // Every word held exactly, but only by hidden sessions: said before the look-alikes.
  const hiddenExact = d.result.nothingMatched && d.result.hidden > 0;
  if (hiddenExact) io.err(hiddenExactText(args.query, d.result.hidden));
  if (sinceSaid) io.err(colors(io).dim(sinceSaid));
  if (note) io.err(`${colors(io).dim(note)}\n`);
  // trial 101 F12: `zzqqxx_no_such_word` listed sessions, "2 hits" each, for holding `no`: the
  // nearest by relevance, said to be ranked on the query's words some session holds.
  if (d.nearOn && !d.absent) io.err(`${colors(io).dim(nearOnText(d.nearOn))}\n`);
  const left = droppedNote(d.result);
  if (left) io.err(`${colors(io).dim(left)}\n`);
  io.err(hintsText(d, args));
  io.out(searchText(d, io));
  io.err(searchFooter(d, io));
  return searchFound(d) ? 0 : 1;
}

/**
 * The word of `query` (of several) that is part of the model's name of some sessions, when
 * the other words find sessions among that model's: that word, those sessions and the other
 * words; undefined for none. A word of prose (no digit, hyphen, dot or slash) is no model's.
 */
function modelAmong(
  store: Store,
  query: string,
  opts: SearchOptions & { limit: number },
): SearchData["modelOf"] {
  const words = query.split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  for (const w of words) {
    if (!/^[\w.:/-]{3,}$/.test(w) || !/[\d.:/-]/.test(w)) continue;
    // A subagent's model counts (trial 90 F10: `gemini-2.5-pro investigation` got no hint,
    // the one session of that model a subagent).
    if (Q.anyOfModel.get(store, { text: w })?.yes !== 1) continue;
    const rest = words.filter((x) => x !== w).join(" ");
    if (!rest || tokens(rest).every((t) => STOP_WORDS.has(t))) continue;
    const among = search(store, rest, {
      ...opts,
      origins: { ...opts.origins, model: w },
      limit: 1,
    });
    // Counted as that search lists them (trial 90 F10: "7 sessions" of a model where `--model`
    // listed 6, a throwaway one hidden).
    if (!among.nothingMatched && among.total) {
      return { word: w, sessions: among.total, query: rest };
    }
  }
  return undefined;
}

/**
 * The session `--session` names; when none has that id, the hint names where ids are
 * listed and the search without it (trial 15: it offered to search the id as words).
 *
 * @throws {DejaError} as {@link resolveSession} does.
 */
function withinSession(store: Store, ref: string, query: string) {
  try {
    return resolveSession(store, ref);
  } catch (e) {
    if (!(e instanceof NoSessionMatch) || !/^search first/.test(e.hint ?? "")) throw e;
    throw new DejaError(
      e.message,
      `'deja last' lists sessions with their ids; every session: ${searchLine([query])}`,
      1,
    );
  }
}

/**
 * The tools the query's words describe ({@link describedProducts}) that sessions name, none of
 * the first three listed: each with how many sessions name it (under the same filters).
 */
function productsNamed(
  store: Store,
  stats: TermStats,
  query: string,
  result: SearchResult,
  opts: SearchOptions,
  options: string,
): NonNullable<SearchData["products"]> {
  const words = parseQuery(query).parts.filter((p) => !p.quoted).flatMap((p) => p.tokens)
    .filter((t) => !STOP_WORDS.has(t));
  const top = new Set(result.results.slice(0, 3).map((r) => `${r.harness}:${r.id}`));
  const out: NonNullable<SearchData["products"]> = [];
  /** The sessions of each product named: two names of one tool (`kubernetes`, `k8s`) once. */
  const seen = new Set<string>();
  for (const d of describedProducts(stats, words)) {
    const r = search(store, d.product, { ...opts, limit: 10, nearest: false });
    if (r.nothingMatched || !r.total || r.tier !== "exact") continue;
    if (r.results.some((x) => top.has(`${x.harness}:${x.id}`))) continue;
    const ids = r.results.map((x) => `${x.harness}:${x.id}`).join(" ");
    if (seen.has(ids)) continue;
    seen.add(ids);
    out.push({ ...d, sessions: r.total, options });
  }
  return out;
}
