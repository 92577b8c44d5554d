/**
 * How a search's answer is given under its filters, and what a quoted phrase that matched
 * nothing is offered instead (the words without quotes, the phrases alone): both counted as
 * the CLI answers, under the same filters and `--junk`, so that a hint's command finds what
 * its count says.
 *
 * @module
 */
import { search, type SearchOptions, type SearchResult, WIDER } from "../search.ts";
import type { Store } from "../store.ts";
import { parseQuery, STOP_WORDS } from "../query.ts";
import { shQuoteShown } from "../shell.ts";
import type { FilteredOut, FilterUsed } from "./_filtered.ts";
import { commonLeftOut } from "./_search_notes.ts";

/**
 * A search's answer under its filters as the CLI gives it: when the filters left nothing, or
 * only a guess (a widened tier, the nearest by relevance), how many sessions match without
 * them; a widened guess inside the filters does not stand in for words that match more
 * literally outside them (`redis --harness claude` found `redist`, trial 2026-12): nothing
 * matched then. A hint's count is made the same way (trial 133 F7: `"config deploy billing"
 * --harness codex` counted a widened guess the suggested command then refused).
 */
export function underFilters(
  store: Store,
  query: string,
  opts: SearchOptions,
  filters: FilterUsed[],
  result: SearchResult,
): { result: SearchResult; filtered?: FilteredOut } {
  const widened = WIDER.indexOf(result.tier) > WIDER.indexOf("session");
  const guessed = widened || result.tier === "relevance";
  if ((result.results.length && !guessed) || !filters.length) return { result };
  const all = search(store, query, {
    ...opts,
    harness: undefined,
    project: undefined,
    since: undefined,
    kinds: undefined,
    sessionIds: undefined,
    ...(opts.origins ? { origins: { ...opts.origins, model: undefined } } : {}),
    limit: 1,
  });
  const without = all.nothingMatched ? 0 : all.total;
  const better = WIDER.includes(all.tier) &&
    (result.tier === "relevance" || WIDER.indexOf(all.tier) < WIDER.indexOf(result.tier));
  if (!result.results.length) return { result, filtered: { filters, without } };
  // The nearest by relevance stay listed (exit 1 as ever), the literal matches named.
  if (better && result.tier === "relevance") return { result, filtered: { filters, without } };
  if (!better) return { result };
  return {
    result: {
      ...result,
      tier: "none",
      results: [],
      total: 0,
      nothingMatched: true,
      changes: [],
    },
    filtered: { filters, without },
  };
}

/** What a quoted phrase that matched nothing is offered instead. */
export interface Unquoted {
  query: string;
  sessions: number;
  common?: string[];
  /** No session holds every word: the sessions are the nearest by relevance. */
  nearest?: boolean;
  /** Sessions listed after those holding every word, the nearest by relevance. */
  then?: number;
  /** The query's quoted phrases alone (beside words no session holding them holds). */
  phrases?: { query: string; sessions: number };
  /**
   * No session shown holds the words, but this many hidden ones (throwaway or excluded
   * projects) do (trial 132 F8: `"hello zebrafinch world"` said nothing of them).
   */
  hidden?: number;
  /**
   * The options the counts were made with, as a command takes them (`--harness codex`,
   * `--junk`): the suggested commands carry them (trial 132 F9).
   */
  options: string;
}

/**
 * For a query `typed` with quotes that matched nothing: the same words without quotes, and the
 * phrases alone beside other words, with how many sessions each matches under `filters`
 * (`junk`: hidden sessions shown); undefined when there is nothing to offer.
 */
export function unquotedHint(
  store: Store,
  typed: string,
  opts: SearchOptions,
  filters: FilterUsed[],
  junk: boolean,
): Unquoted | undefined {
  const query = typed.replaceAll('"', " ").replace(/\s+/g, " ").trim();
  const loose = query
    ? underFilters(
      store,
      query,
      { ...opts, limit: 1 },
      filters,
      search(store, query, {
        ...opts,
        limit: 1,
      }),
    ).result
    : undefined;
  // Not when that search leaves a word of the phrase out and keeps fewer than two: its
  // sessions are no match of the words (trial 78 F9: `"hello world"` offered `deja hello
  // world`, which lists sessions holding `world` alone, `hello` left out as too common).
  // Common words left out beside two words or more searched are named in the hint (trial
  // 118 F3: `"fix my kubernets yaml files"` was offered nothing, `my` being left out).
  const common = loose ? commonLeftOut(loose) : undefined;
  // A phrase beside words no session holds with it (trial 125 F4: `pick "No recurring
  // charges found"` said nothing more): what the phrases alone find, and the words
  // without quotes even when they match only by relevance.
  const parts = parseQuery(typed).parts;
  const beside = parts.some((p) => p.quoted) &&
    parts.some((p) => !p.quoted && p.tokens.some((t) => !STOP_WORDS.has(t)));
  const phrased = beside
    ? parts.filter((p) => p.quoted).map((p) => `"${p.tokens.join(" ")}"`).join(" ")
    : "";
  const alone = phrased ? search(store, phrased, { ...opts, limit: 1 }) : undefined;
  const phrases = alone && !alone.nothingMatched && alone.total
    ? { query: phrased, sessions: alone.total }
    : undefined;
  // The counts are under the search's filters and `--junk`: so are the commands.
  const options = [
    ...filters.map((f) => ` ${f.flag} ${shQuoteShown(f.value)}`),
    junk ? " --junk" : "",
  ].join("");
  if (loose && (!loose.nothingMatched || beside) && loose.total && common) {
    // Those holding every word, not the nearest by relevance listed after them (trial 128
    // F9: "match 6 sessions" where one held them and five were the nearest).
    const whole = loose.total - (loose.nearestFound ?? 0);
    return {
      query,
      sessions: whole > 0 ? whole : loose.total,
      ...(whole > 0 && loose.nearestFound ? { then: loose.nearestFound } : {}),
      ...(common.length ? { common } : {}),
      ...(loose.nothingMatched ? { nearest: true } : {}),
      ...(phrases ? { phrases } : {}),
      options,
    };
  } else if (loose?.nothingMatched && loose.hidden > 0 && common && !junk) {
    // Only hidden sessions hold the words, as the search says of hidden exact matches.
    return {
      query,
      sessions: 0,
      hidden: loose.hidden,
      ...(common.length ? { common } : {}),
      ...(phrases ? { phrases } : {}),
      options,
    };
  } else if (phrases) return { query, sessions: 0, phrases, options };
  return undefined;
}
