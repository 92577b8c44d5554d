/**
 * A question that few sessions match, each only loosely: the nearest sessions by relevance
 * listed after those matches (lib/search.ts calls it once the literal result is final),
 * so one session that happens to hold the words far apart does not hide the sessions about
 * the question (trial 23).
 *
 * @module
 */
import type { SearchOptions, SessionHit, Tier } from "../search.ts";
import type { ParsedQuery } from "../query.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { TermStats } from "./expand.ts";
import type { Filters } from "./retrieve.ts";
import type { SessionScore } from "./rank.ts";
import type { SessionCache } from "./sessions.ts";
import { relevanceOf } from "./ladder.ts";
import { B_RELEVANCE, rescore, type TypedTogether } from "./sessionrank.ts";
import { coordinate } from "./concepts.ts";
import { rerankFielded } from "./fielded.ts";
import { fillSnippets, finish } from "./results.ts";
import { snippet } from "./snippet.ts";
import { tokens } from "./tokenize.ts";
import { trace } from "../../core/trace.ts";

/** Literal matches fewer than this leave a question room for the nearest by relevance. */
export const FEW = 3;
/** The nearest by relevance listed after a question's few literal matches, at most. */
const AFTER = 5;
/** The tiers whose few matches {@link nearestAfter} follows. */
export const FEW_LITERAL: ReadonlySet<Tier> = new Set(["exact", "session", "stemmed", "close"]);

/** Tokens of one event within which a query's words count as held together ({@link looseOnly}). */
const CLOSE = 24;

/**
 * True when no session of `hits` holds the query as such: none matched it by its title, a
 * prompt, a phrase or a name, and no matched event of theirs holds a word of each term of
 * `alts` within {@link CLOSE} tokens (the words only scattered over a long event or over
 * the session). A query one session holds close together is answered by that session
 * (a log line pasted back, a prompt typed again): nothing is listed after it.
 */
export function looseOnly(
  stats: TermStats,
  scores: Map<number, SessionScore>,
  alts: string[][][],
  hits: SessionHit[],
): boolean {
  if (hits.some((h) => h.titleMatch || h.promptMatch || h.verbatimMatch || h.joinedMatch)) {
    return false;
  }
  const ids = hits.flatMap((h) => {
    const s = scores.get(h.rowid);
    return s && !s.spread ? s.events.slice(0, 10).map((e) => e.row.event_id) : [];
  });
  if (!ids.length) return true;
  const texts = Q.eventTexts.all(stats.store, { ids: JSON.stringify(ids) });
  return !texts.some((t) => closeTogether(tokens(t.text), alts, CLOSE));
}

/** True when `toks` hold an alternative of every term of `alts` within `span` tokens. */
function closeTogether(toks: readonly string[], alts: string[][][], span: number): boolean {
  const found: Array<[number, number]> = [];
  for (let i = 0; i < toks.length; i++) {
    for (let k = 0; k < alts.length; k++) {
      if (alts[k].some((a) => a.length > 0 && a.every((w, j) => toks[i + j] === w))) {
        found.push([i, k]);
      }
    }
  }
  // The shortest run of positions holding every term.
  const count = new Map<number, number>();
  let lo = 0;
  for (const [at, term] of found) {
    count.set(term, (count.get(term) ?? 0) + 1);
    while (count.size === alts.length) {
      if (at - found[lo][0] < span) return true;
      const t = found[lo++][1];
      const left = count.get(t)! - 1;
      if (left) count.set(t, left);
      else count.delete(t);
    }
  }
  return false;
}

/**
 * A question of three or more words (none quoted) that fewer than {@link FEW} sessions
 * match, each only loosely ({@link looseOnly}): the relevance tier's best sessions, at most
 * {@link AFTER} and up to the limit, listed after those matches with their snippets (copies
 * of theirs left out). One session that happens to hold the words (in some form) far apart
 * no longer hides the sessions about the question (trial 23: `which vscode extensions should
 * I remove` listed one session whose long summary held `vscode`, `extension` and `removed`,
 * and not the two about VS Code extensions).
 */
export function nearestAfter(
  store: Store,
  stats: TermStats,
  cache: SessionCache,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  o: SearchOptions,
  now: number,
  found: SessionHit[],
  limit: number,
): SessionHit[] {
  const words = parsed.parts.filter((p) => !p.quoted);
  if (words.length < 3 || words.length < parsed.parts.length) return [];
  const rel = relevanceOf(stats, parsed, query, f, rootOf);
  for (const r of found) rel.scores.delete(r.rowid);
  if (!rel.scores.size) return [];
  const typed: Map<number, number>[] = [];
  const together = new Map<number, TypedTogether>();
  rescore(
    stats,
    cache,
    rel.scores,
    rel.alts,
    f,
    rel.weights,
    B_RELEVANCE,
    true,
    rel.counts,
    typed,
    together,
  );
  if (rel.coord) coordinate(store, rel.coord, rel.scores, (id) => cache.members(id), rootOf);
  rerankFielded(
    stats,
    cache,
    rel.scores,
    rel.alts,
    rel.weights,
    rel.coord?.concepts,
    rel.phraseWords,
    typed,
    together,
  );
  const n = Math.min(AFTER, limit - found.length);
  const copies = new Set(found.flatMap((h) => (h.copies ?? []).map((c) => `${h.harness}:${c}`)));
  const more = finish(store, cache, rel.scores, "relevance", o, now, parsed.time, n + copies.size)
    .filter((h) => !copies.has(`${h.harness}:${h.id}`)).slice(0, n);
  fillSnippets(store, more, o.snippets ?? 3, (t) => snippet(t, rel.alts));
  trace("search: nearest after a few literal matches");
  return more;
}
