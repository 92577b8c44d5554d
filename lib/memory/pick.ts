/**
 * Which session a `ctx`-style argument means: an id prefix when it resolves
 * to exactly one session, otherwise the best search result.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { harnessIds } from "../../core/registry.ts";
import { Q } from "../schema.ts";
import { AmbiguousSession, looksLikeId, NoSessionMatch, resolveSession } from "../sessions.ts";
import { type SessionRow } from "../rows.ts";
import {
  moreLiteralOutside,
  search,
  type SearchOptions,
  type SearchResult,
  type SessionHit,
  type Tier,
} from "../search.ts";
import { STOP_WORDS, tokens } from "../query.ts";
import { heldAnywhere, TermStats } from "../search/expand.ts";

/** Search tiers that found the words as written (not widened, stemmed or guessed). */
const LITERAL: ReadonlySet<Tier> = new Set(["exact", "session", "substring"]);

/**
 * An argument shaped like a session id someone copied, strictly: hex of 8 or more
 * characters, or of 6 or more with a digit (`a1b2c3`), a uuid, or a known `harness:id`
 * (lib/sessions.ts {@link looksLikeId}, less the words it also takes: `facade`, `npm:lodash`).
 */
export function idShaped(arg: string): boolean {
  if (/^[0-9a-f][0-9a-f-]{7,}$/i.test(arg) || /^(?=[a-f-]*\d)[0-9a-f][0-9a-f-]{5,}$/i.test(arg)) {
    return true;
  }
  const m = /^([a-z][a-z0-9_]*):\S+$/.exec(arg);
  return m !== null && harnessIds().includes(m[1]);
}

/**
 * Hex of four or more characters with a digit (`019d`, `a1b2`): the start of an id
 * someone copied, too short for {@link idShaped} to call it one but no word either.
 */
function hexPrefix(arg: string): boolean {
  return /^(?=[a-f-]*\d)[0-9a-f][0-9a-f-]{3,}$/i.test(arg);
}

/**
 * One to three letters and digits, a digit among them (`66`, `5f`, `a44`): the short id
 * `deja show` takes, tried as one before it is searched as a word (trial 71: `ctx 66`
 * digested another session than `show 66`). Words without a digit (`db`, `ci`) are words.
 */
function shortId(arg: string): boolean {
  return /^(?=[a-z]*\d)[0-9a-z]{1,3}$/i.test(arg);
}

/** Results a pick reads: the first, and the sessions a question's few loose matches are followed by. */
const PICK_FROM = 6;

/**
 * The first result, or the first of those listed after a question's few loose matches
 * (`nearest_after`) whose title holds the question's other words where the first's does not
 * (trial 93 F2: `ctx forgejo issue` digested a YAML fix holding `forgejo` in a pasted log and
 * `issue` in passing, not the session titled "Forgejo crashing in k3s cluster").
 */
function titledAfter(res: SearchResult): SessionHit | undefined {
  const first = res.results[0];
  if (!first || first.titleMatch || !res.nearestAfter) return first;
  const after = res.results.slice(res.results.length - res.nearestAfter);
  return after.find((h) => h.titleMatch) ?? first;
}

/** A word with a dash, an underscore or a capital inside (`end-s`, `sessionX`): no prose. */
function notProse(arg: string): boolean {
  return /^\S*[a-z0-9][-_]\S*$/i.test(arg) || /[a-z][A-Z]/.test(arg);
}

/** The session an argument picked, and how. */
export interface Picked {
  session: SessionRow;
  /** `id`: the argument resolved as an id prefix; `search`: the top search result. */
  via: "id" | "search";
  /** Search tier (`exact` or `session`) when `via` is `search`. */
  tier?: string;
  /** Words of the query no session holds, when the session is only the nearest by relevance. */
  absent?: string[];
}

/** Why {@link pickSession} found no session. */
export interface Missed {
  /** Sessions the search left out as hidden although they matched. */
  hidden: number;
  /** The query's words no session holds in any form, when they are why nothing was picked. */
  absent?: string[];
  /** A nearest session by relevance was found, and not taken ({@link Missed.absent}). */
  nearest?: boolean;
  /** The query holds only common words (`the and of`): nothing was searched. */
  common?: boolean;
}

/**
 * Picks the session `arg` names. One word of four or more characters (or a shorter one with
 * a digit, as `deja show` takes it) is tried as an id prefix ({@link resolveSession}); when no session has that prefix,
 * or several do and the word does not look like an id (`prompt`), `arg` is searched and
 * the best result (a parent session when the hit is in a subagent) is taken;
 * an argument {@link idShaped} that no id starts with is taken only as written
 * (exact, session or substring tier), never widened to a near word.
 * `filters` go to {@link search} as they are (harness, project, the hiding
 * rule: `hideThrowaway`, `exclude`, `here`, `env`); a session named by its id
 * is picked whatever they say.
 *
 * @param missed on a miss, gets how many sessions the search left out as
 *   hidden although they matched (for the `--junk` hint), and the words no session holds
 *   when the nearest session by relevance shared at most one word with the query.
 * @returns null when neither finds a session.
 * @throws {AmbiguousSession} (exit 2, listing them) when an id-like argument (or a hex
 *   prefix of four or more characters with a digit) matches several sessions, or a word
 *   that starts several ids is held by no session;
 *   {@link NoSessionMatch} (exit 1) when an {@link idShaped} one matches none and no
 *   session holds it as written.
 */
export function pickSession(
  store: Store,
  arg: string,
  filters: Omit<SearchOptions, "limit"> = {},
  missed?: Missed,
): Picked | null {
  const a = arg.trim();
  if (!a) return null;
  let noId = false;
  let several: AmbiguousSession | undefined;
  if (!/\s/.test(a) && (a.length >= 4 || shortId(a))) {
    try {
      return { session: resolveSession(store, a), via: "id" };
    } catch (e) {
      if (!(e instanceof DejaError)) throw e;
      // Several sessions start so: an id-like prefix lists them (exit 2), never picks one; so
      // does one written as no prose is (`end-s`, `sessionX`: trial 91 F4, each digested a
      // session nearest by relevance, exit 0).
      if (
        e.exitCode !== 1 && (looksLikeId(a) || hexPrefix(a) || shortId(a) || notProse(a))
      ) throw e;
      if (e instanceof AmbiguousSession) several = e;
      noId = e instanceof NoSessionMatch && idShaped(a);
    }
  }
  // Common words alone (`the and of`) name no session (trial 19: a session was digested).
  const toks = tokens(a);
  if (toks.length && toks.every((t) => STOP_WORDS.has(t))) {
    if (missed) missed.common = true;
    return null;
  }
  // Room for the sessions a question's few loose matches are followed by (lib/search.ts).
  const res = search(store, a, { ...filters, limit: PICK_FROM });
  // A widened guess under a filter is no pick (trial 57: `ctx redis --harness claude`).
  const top = moreLiteralOutside(store, a, filters, res) ? undefined : titledAfter(res);
  // A word that also starts several ids (`prompt`) and that no session holds: the ids.
  if (several && !top) throw several;
  // A short word of letters no session holds as written may be the start of an id (`dc`,
  // `fde`: trial 73, where show, resume and handoff found them and ctx said nothing matched).
  if (/^[a-z]{1,3}$/i.test(a) && !(top && LITERAL.has(res.tier))) {
    try {
      return { session: resolveSession(store, a), via: "id" };
    } catch (e) {
      if (e instanceof AmbiguousSession) throw e;
      if (!(e instanceof NoSessionMatch)) throw e;
    }
  }
  // An id that matches no session is searched only as written (a commit hash a session
  // mentions), never widened: `ffffffff` found the colour `#ffffff` (trial 9).
  if (noId && !(top && LITERAL.has(res.tier))) {
    throw new NoSessionMatch(
      a,
      `no session's id starts with it, and no session holds it as written; ` +
        `'deja last' lists sessions, 'deja search ${a}' searches it loosely`,
    );
  }
  // Only the nearest by relevance, where the query shares at most one word with the history
  // beside words it holds nowhere, or half its words are held nowhere: no session is meant
  // (trial 16: `ctx zzzz-no-such` digested a skill list for its `no`; trial 18: `ctx install
  // python frumious zorblax blorp`). Nor when every word is a common one (`the and of`).
  const near = top && res.tier === "relevance" ? strangers(store, a) : undefined;
  const refused = near !== undefined &&
    (!near.words.length ||
      // Only sessions left out hold every word (throwaway, excluded): the nearest of the rest
      // is no session meant (trial 85: `ctx missing.txt` digested a CrewAI session, exit 0).
      (res.nothingMatched && res.hidden > 0) ||
      (near.gone.length > 0 &&
        (near.words.length - near.gone.length <= 1 || near.gone.length * 2 >= near.words.length)));
  const session = top && !refused ? Q.sessionById.get(store, { id: top.rowid }) : undefined;
  if (session) {
    return {
      session,
      via: "search",
      tier: res.tier,
      ...(near?.gone.length ? { absent: near.gone } : {}),
    };
  }
  if (missed) {
    missed.hidden = res.hidden;
    // Nothing found at all: the words held nowhere, whatever else is held.
    const gone = (near ?? strangers(store, a)).gone;
    if (gone.length) missed.absent = gone;
    if (top) missed.nearest = true;
  }
  return null;
}

/**
 * The words of `query` as a search keeps them (no common words; a pasted page's first fifty,
 * none longer than a hash), and those no event, title or other form of theirs holds.
 */
function strangers(store: Store, query: string): { words: string[]; gone: string[] } {
  const stats = new TermStats(store);
  const words = [...new Set(tokens(query))].filter((t) => !STOP_WORDS.has(t) && t.length <= 64)
    .slice(0, 50);
  return { words, gone: words.filter((k) => !heldAnywhere(stats, k)) };
}
