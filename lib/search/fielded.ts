/**
 * A rerank of the `relevance` tier (nothing matched as typed: where a
 * question in other words lands) by where a session holds the query's words.
 * A session states its problem in its title, its first prompt and its
 * summaries (lib/schema_search.ts `headsOf`); a question in other words names
 * the same problem. So among the tier's best {@link RERANKED}, the share of
 * the query's IDF weight those fields hold lifts a session:
 * `score × (1 + LIFT · share)`. Each query word counts by its best
 * alternative there: 1 as typed or a form of it, the square root of its
 * weight for a related word (lib/search/related.ts: a thesaurus word 0.5
 * counts 0.71), so a problem stated in related words still outranks one that
 * names a single query word as typed. A session that names the words only in
 * later turns or deep in a tool output keeps its score. A prompt's first
 * sentence states the problem; what follows it is an aside, a log or a plan,
 * so a word there counts at {@link REST} of its weight.
 *
 * Then pseudo-relevance feedback ({@link FEEDBACK}): words the best heads
 * share beyond the query's lift the candidates whose heads hold them too.
 *
 * Measured on the `paradev` queries of `deno task bench:recall` (seeds 11, 3
 * and 7; the held-out kinds were not tuned on): hit@1 0.70/0.70/0.67 ->
 * 0.87/0.77/0.87 with the head lift, 0.90/0.87/0.87 with the feedback too.
 * Counting later user turns and conclusions in the head (at full or half
 * weight) made it worse, and so did a related word at its full weight instead
 * of its square root. Counting the words after the first prompt's first
 * sentence at half weight: paradev 0.87/0.87/0.90 -> 0.90/0.87/0.90, and
 * nothing else lost.
 *
 * Then two refinements of the share ({@link headShare}, {@link leastConcept}):
 * a head word stands for one query word (a second word it relates to takes
 * it at {@link SHARED_HEAD}), and a head naming every concept of the query
 * (component and symptom) is lifted `× (1 + HEAD_CONCEPTS · least)`, least
 * being how fully it names its least-named concept. Measured on `paradev`
 * with 60 queries a seed (`--per-kind 60`; seeds 11/3/7), hit@1
 * 0.917/0.900/0.900 -> 0.933/0.900/0.917, MRR@10 0.944/0.944/0.926 ->
 * 0.950/0.946/0.942; SHARED_HEAD 0.5 and 1 were below 0.7 on seed 7, and each
 * alone gained less than both. Held-out paraphrase (30 a seed) 0.53/0.60/0.50
 * -> 0.57/0.60/0.57, no other kind moved.
 *
 * Measured and not kept (paradev hit@1, 60 a seed, seeds 11/3/7, from
 * 0.933/0.900/0.933): the session's last assistant turn in the head at 0.3
 * (0.867/0.900/0.883) or 0.5 (0.883/0.883/0.883), each also losing `question`
 * hits; the feedback run a second time from the heads it put first
 * (0.900/0.917/0.900); a related compound counting as its phrasal verb with an
 * object between (`logout` for "logs users out", in the head at half weight:
 * 0.933/0.917/0.933, one hit on one seed, while a held-out kind lost one;
 * matched in the events too, at full weight `checkout` found "check … out"
 * in filler and lost on seed 7). Kept since in another form: at a quarter
 * of the compound's weight in the events (lib/search/relevance.ts), and
 * here an alternative of several words counts only where a head holds it as
 * a phrase, in order ({@link phraseIn}), not its words anywhere.
 *
 * Measured and not kept (hit@1, 60 a seed, seeds 11/3/7, after the particle
 * rule of lib/search/relevance.ts; paradev 0.933/0.917/0.933): the head lift
 * squared, `(1 + LIFT · share)²`, which favours a head naming the whole
 * question over one naming most of it: paradev 0.933/0.917/0.967 but
 * `question` −1 on seed 3 (and hit@5 −1 on seed 7); to the power 1.5:
 * paradev 0.933/0.917/0.950, `question` hit@5 −1 on seed 7; LIFT 6: paradev
 * unchanged, `question` +1 on seed 11; LIFT 8: nothing moved. The cases it
 * decides are near ties where the head names every concept of both sessions.
 *
 * Also not kept, in the session-level BM25 of this tier
 * (lib/search/sessionrank.ts): a query word a session holds as typed only in
 * assistant or tool narration ("let me deploy again"), never in a user turn,
 * a summary or its title, counting at 0.5 of its weight there: paradev hit@1
 * unchanged (0.933/0.900/0.933, MRR@10 too; one miss only reordered among
 * its wrong top three), `question` +1 hit on seed 11. At 0.25: paradev unchanged, MRR@10
 * 0.96 -> 0.95 on seed 7, `question` −1 on seed 3; at 0.5 for related words
 * too: paradev 0.933/0.883/0.917 (−2); user turns and summaries ×1.5 instead:
 * unchanged, `question` MRR −0.01 on seed 3. The head lift decides these
 * queries; a narrated word is already outside the head.
 *
 * Pseudo-relevance feedback of other kinds, measured and not kept (issue 15;
 * `--per-kind 60`, tuned on the `paradev` misses of seeds 13/17/19, hit@1
 * 0.867/0.967/0.883 before; judged on the held-out `paraphrase` and `blind`
 * over seeds 3/5/7/11/13/17/19/23/29/31, 386 of 600 and 603 of 1200 before).
 * Words of the events that matched (the best three of each of the best five
 * sessions, shared by two, in at most 5% of events) lifting the candidates
 * whose matched events hold them, `× (1 + 0.5 · share)`: paradev
 * 0.867/0.950/0.850; in place of the head feedback 0.850/0.950/0.900, at
 * `× (1 + share)` 0.833/0.950/0.900. What the best sessions share is the
 * history's template ("since the last deploy", a pasted error's `errno`
 * and `device`), not what the question asks. Votes per concept: the best
 * five heads vote, for each concept of the query, for the alternatives their
 * first sentences state it in, and a candidate is lifted `× (1 + 0.5 · v)`,
 * v the share of votes of its least-voted concept: paradev
 * 0.917/0.967/0.900 (the same at 1, or from the best 3 or 8; 0.900/0.967/0.883
 * at 0.25 from the best 10), but held-out paraphrase 386 -> 387 (+1 on seed
 * 3, +2 on 13, −1 on 5 and on 23), blind 603 -> 604, paradev on the seeds
 * not tuned on −2 (5), −1 (11), +1 (29), +1 (31): the votes follow
 * whichever cluster the first stage put on top (three heads where "the email
 * worker logs users out" read `account details` as `users`) as often as the
 * right reading. The feedback above drawn from the
 * first sentences only (not a prompt's aside, where a pasted error sits):
 * paradev 0.883/0.967/0.917 (560 -> 566 of 600 over the ten seeds), held-out
 * paraphrase 386 -> 385, blind 603 -> 605. The feedback off altogether:
 * paradev 0.883/0.950/0.933 on the tuning seeds, but over the ten seeds
 * paraphrase 386 -> 369, blind 603 -> 590, `question` 589 -> 582, paradev
 * 560 -> 558: it earns its place, and three tuning seeds pointed the wrong way
 * (FEEDBACK 0.25 tuned 0.883/0.967/0.917; 0.75 and 1 0.883/0.967/0.867).
 * Feedback words from the best 3 heads instead of 5: paradev 0.900/0.967/0.900
 * (8 or 10: 0.883/0.967/0.900), but over the ten seeds paraphrase 386 -> 378,
 * blind 603 -> 597, paradev 560 -> 557, `question` 589 -> 588.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { TermStats } from "./expand.ts";
import { ABLATE, type SessionScore } from "./rank.ts";
import type { SessionCache } from "./sessions.ts";
import { tokens } from "./tokenize.ts";
import { GAP, STOP_WORDS } from "../query.ts";
import type { Concept } from "./concepts.ts";
import type { TypedTogether } from "./sessionrank.ts";

/** The relevance tier's best sessions reranked. */
export const RERANKED = 30;
/** How much a session whose head holds the whole query is lifted (×1 + this). */
export const LIFT = 4;
/** Heads the feedback words are drawn from (the best after the lift). */
export const FEEDBACK_FROM = 5;
/** How much a head holding every feedback word is lifted (×1 + this). */
export const FEEDBACK = 0.5;
/** The weight of a word of the first prompt after its first sentence. */
export const REST = 0.5;
/**
 * The first prompt after its first sentence, as head: without its fenced blocks and its list
 * items (`-`, `*`, `•`, `1.`, a table's `|` rows, `[tag]` lines), a pasted file or summary and a list of things being no statement of the problem
 * (trial 53: `deja 1password` put first a Gemini skill-extraction chat whose prompt, a list of
 * old sessions, names 1Password in one item, above the session about it, and `ctx` digested
 * it). A prose line after them stays (trial 19's "Add redis to this kubernetes cluster", after
 * a pasted summary in a fence; a cut at 600 characters lost it, trial 55).
 */
export function asides(rest: string): string {
  return rest.replace(/```[\s\S]*?(?:```|$)/g, "\n").split("\n")
    .filter((l) => !/^\s*(?:[-*+•|]|\d{1,3}[.)]|\[[^\]\n]{1,12}\])\s/.test(l)).join("\n");
}
/** A head word a query word with more at stake claimed counts at this share for another. */
export const SHARED_HEAD = 0.7;
/** A head naming every concept of the query (at full weight) is lifted ×1 + this. */
export const HEAD_CONCEPTS = 0.5;
/** Where a prompt's first sentence ends: a full stop, question or exclamation mark before a space, or a line break. */
const SENTENCE_END = /[.?!](?:\s|$)|\n/;
/** A feedback word is in at most this share of events. */
const FEEDBACK_SHARE = 0.05;

function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Per session filed under a root, the tokens of its head with their weight:
 * its title, its summaries and the first sentence of its first user turn that
 * is not a pasted dump count 1, the rest of that turn {@link REST} (a subagent's
 * head counts for its root).
 */
function heads(
  stats: TermStats,
  cache: SessionCache,
  ids: number[],
  /** Filled: per root, its head's token runs (a field or a part of one) with their weight. */
  runs: Map<number, HeadRun[]> = new Map(),
): Map<number, Map<string, number>> {
  const out = new Map<number, Map<string, number>>();
  const prompted = new Set<number>();
  const rows = Q.headsOf.all(stats.store, { ids: JSON.stringify(ids) });
  rows.sort((a, b) => a.seq - b.seq);
  for (const r of rows) {
    let text = r.text ?? "";
    let rest = "";
    if (r.kind === "user") {
      if (prompted.has(r.session_id)) continue;
      prompted.add(r.session_id);
      const cut = text.search(SENTENCE_END);
      if (cut > 0) [text, rest] = [text.slice(0, cut), asides(text.slice(cut))];
    }
    const root = cache.root(r.session_id);
    let map = out.get(root);
    if (!map) out.set(root, map = new Map());
    let list = runs.get(root);
    if (!list) runs.set(root, list = []);
    const [first, after] = [tokens(text), tokens(rest)];
    for (const t of after) if (!map.has(t)) map.set(t, REST);
    for (const t of first) map.set(t, 1);
    list.push({ toks: first, w: 1 });
    if (after.length) list.push({ toks: after, w: REST });
  }
  return out;
}

/** A run of a head's tokens (a title, a summary, a prompt's first sentence or the rest of it). */
export interface HeadRun {
  toks: string[];
  /** What a word of it counts (1, or {@link REST}). */
  w: number;
}

/**
 * The weight at which `runs` hold the phrase `toks` in order ({@link GAP}: one
 * word or none), the best run's; 0 when none does.
 */
export function phraseIn(runs: readonly HeadRun[], toks: readonly string[]): number {
  let best = 0;
  for (const r of runs) {
    if (r.w <= best) continue;
    for (let i = 0; i < r.toks.length; i++) {
      if (r.toks[i] === toks[0] && matchesAt(r.toks, i + 1, toks, 1)) {
        best = r.w;
        break;
      }
    }
  }
  return best;
}

function matchesAt(run: readonly string[], i: number, toks: readonly string[], k: number): boolean {
  if (k >= toks.length) return true;
  if (toks[k] === GAP) {
    return matchesAt(run, i, toks, k + 1) || (i < run.length && matchesAt(run, i + 1, toks, k + 1));
  }
  return i < run.length && run[i] === toks[k] && matchesAt(run, i + 1, toks, k + 1);
}

/**
 * Reranks the best {@link RERANKED} of `scores` in place (see the module doc).
 *
 * @param alts per query word, its alternatives (token lists), as the relevance tier kept them.
 * @param weights per query word, the weight of each alternative (absent: 1 each).
 * @param concepts the query's concepts over those words (lib/search/concepts.ts; absent
 *   when it names fewer than two, or with `ABLATE.coordinate`).
 */
export function rerankFielded(
  stats: TermStats,
  cache: SessionCache,
  scores: Map<number, SessionScore>,
  alts: string[][][],
  weights?: number[][],
  concepts?: Concept[],
  phrases?: ReadonlySet<string>,
  /**
   * Per query word, per root session, its events holding the word as typed or in a form,
   * -1 when only related words of it (lib/search/sessionrank.ts `rescore`).
   */
  typed?: Map<number, number>[],
  /** Per root session, the terms one event holds as typed (lib/search/sessionrank.ts `rescore`). */
  together?: Map<number, TypedTogether>,
): void {
  if (ABLATE.fielded || scores.size < 2 || alts.length < 2) return;
  const top = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, RERANKED);
  const ids = new Set<number>();
  for (const s of top) for (const m of cache.members(s.sessionId)) ids.add(m);
  const runs = new Map<number, HeadRun[]>();
  const held = heads(stats, cache, [...ids], runs);
  const n = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  const w = (ti: number, i: number) => Math.min(1, weights?.[ti]?.[i] ?? 1);
  // A word's IDF by its strongest alternatives (as the session-level BM25 takes it).
  const termIdf = alts.map((a, ti) => {
    const best = Math.max(...a.map((_, i) => w(ti, i)));
    const dfs = a.filter((_, i) => w(ti, i) === best)
      .map((toks) => stats.phraseDocs(toks));
    return idf(n, Math.max(0, ...dfs));
  });
  const total = termIdf.reduce((a, b) => a + b, 0) || 1;
  const before = new Map(top.map((s) => [s.sessionId, s.score]));
  for (const s of top) {
    const head = held.get(s.sessionId);
    if (!head) continue;
    const per = new Array<number>(alts.length).fill(0);
    const share = headShare(head, alts, w, termIdf, per, phrases, runs.get(s.sessionId));
    s.score *= 1 + LIFT * share / total;
    s.score *= 1 + HEAD_CONCEPTS * leastConcept(per, termIdf, concepts);
  }
  feedback(stats, top, held, new Set(alts.flat(2)), n);
  keepRareHolders(top, before, termIdf, typed);
  keepHeldTogether(top, alts.length, typed, together);
}

/** A query needs this many words for {@link keepHeldTogether}. */
export const TOGETHER_WORDS = 4;
/** The share of the query's IDF weight the words held together carry for {@link keepHeldTogether}. */
export const TOGETHER_SHARE = 0.5;

/**
 * A session one event of which holds every query word but one as typed (or in a form), those
 * words carrying most of the query's IDF weight ({@link TOGETHER_SHARE}), goes above every
 * session holding fewer of the words as typed: the query as typed, but for one word, matched
 * in one place (trial 125 F1: `ollama developer role error` ranked 10th the session whose
 * error said "developer is not one of [...] - 'messages.[0].role'", first for `developer role
 * error`, below sessions holding two of the words and one holding related words only, whose
 * heads named `gemini`, a related word of `ollama`). Only for {@link TOGETHER_WORDS} words or
 * more, and when at most {@link RARE_FEW} candidates hold them so. A tool's output does not
 * count (lib/search/sessionrank.ts `rescore`): without that the rule lost real held-out hits
 * ("why the multi-agent package wouldn't run", "how did we add a shared caching layer for the
 * homelab apps"), each time for a dump of 7 to 16 KB holding a question's common words, and
 * the IDF condition alone did not stop it (those words carried 0.65-0.82 of the weight, the
 * trial's 0.56). Measured (`deno task bench:real`): hit@1 unchanged in every set, tuning
 * hit@5 0.65 -> 0.68; `deno task bench:recall --seeds 3,11`: see the commit.
 */
function keepHeldTogether(
  top: SessionScore[],
  words: number,
  typed?: Map<number, number>[],
  together?: Map<number, TypedTogether>,
): void {
  if (ABLATE.heldTogether || !typed || !together || words < TOGETHER_WORDS) return;
  const bits = (m: number) => {
    let c = 0;
    for (let x = m; x; x &= x - 1) c++;
    return c;
  };
  const holds = [...together].filter(([, t]) =>
    t.of >= TOGETHER_WORDS && bits(t.mask) >= t.of - 1 && t.share >= TOGETHER_SHARE
  ).map(([id]) => id);
  if (!holds.length || holds.length > RARE_FEW) return;
  const ids = new Set(holds);
  const asTyped = (id: number) => typed.filter((m) => (m?.get(id) ?? 0) > 0).length;
  const mine = top.filter((s) => ids.has(s.sessionId));
  const fewer = top.filter((s) => !ids.has(s.sessionId) && asTyped(s.sessionId) < words - 1);
  if (!mine.length || !fewer.length) return;
  const low = Math.min(...mine.map((s) => s.score));
  const high = Math.max(...fewer.map((s) => s.score));
  if (low > high) return;
  const by = (high * 1.01) / Math.max(low, Number.MIN_VALUE);
  for (const s of mine) s.score *= by;
}

/** Events a session must hold the query's rarest word in for {@link keepRareHolders}. */
export const RARE_HELD = 2;
/** Candidates at most that may hold it as typed: a word many hold names no one session's work. */
export const RARE_FEW = 3;

/**
 * The lift does not carry a session above the best one that repeats the query's rarest
 * word a candidate holds ({@link RARE_HELD} events or more, as typed or in a form) when it
 * holds that word nowhere, nor a word related to it, and ranked below it before (trial 65:
 * `pester test failures` put first a session whose title and prompt said "test failures",
 * above the one that ran Invoke-Pester in 13 events; `ctx` then digested the wrong one).
 * Such a session is put just below it.
 * A word held as typed by more than {@link RARE_FEW} candidates, or a session holding a
 * word related to it, is left to the lift: without those two limits it lost paraphrase
 * hits (`data archival task: amounts are incorrect`, whose rarest word `amounts` many
 * sessions hold). With them, `deno task bench:recall` (seeds 11/3/5/7, 30 a kind) moved no
 * query of any kind by one rank.
 */
function keepRareHolders(
  top: SessionScore[],
  before: Map<number, number>,
  termIdf: number[],
  typed?: Map<number, number>[],
): void {
  if (ABLATE.rareHeld || !typed) return;
  const ids = new Set(top.map((s) => s.sessionId));
  const holding = (ti: number) => [...typed[ti] ?? []].filter(([id, c]) => c > 0 && ids.has(id));
  let rare = -1;
  termIdf.forEach((v, ti) => {
    if (holding(ti).length && (rare < 0 || v > termIdf[rare])) rare = ti;
  });
  // Counted over every candidate the session-level BM25 read, not only the best.
  if (rare >= 0 && [...typed[rare]].filter(([, c]) => c > 0).length > RARE_FEW) rare = -1;
  if (rare < 0) return;
  const holders = typed[rare];
  let best: SessionScore | undefined;
  for (const s of top) {
    if ((holders.get(s.sessionId) ?? 0) >= RARE_HELD && (!best || s.score > best.score)) best = s;
  }
  if (!best) return;
  const floor = before.get(best.sessionId) ?? 0;
  for (const s of top) {
    if (holders.has(s.sessionId) || (before.get(s.sessionId) ?? 0) >= floor) continue;
    if (s.score > best.score) s.score = best.score * 0.99;
  }
}

/**
 * The IDF weight of the query's words a head holds: each word by its best
 * alternative there (1 as typed, the square root of a related word's weight).
 * A head word stands for one query word only (`ABLATE.distinct` off): the words
 * with the most at stake claim theirs first, and a word whose best
 * alternative another word already claimed takes its best unclaimed one, or
 * the claimed one at {@link SHARED_HEAD} of its value (`memory` is not `ram`,
 * `growing` and `killed` at once) — but for a word that names a phrase of two
 * neighbouring query words (`phrases`, lib/search/relevance.ts: `502` for
 * `bad gateway`), which each of them takes whole.
 */
export function headShare(
  head: Map<string, number>,
  alts: string[][][],
  w: (ti: number, i: number) => number,
  termIdf: number[],
  /** Filled: per query word, what it took. */
  per: number[] = [],
  /** Head words that name a phrase of two query words (lib/search/relevance.ts): each takes them. */
  phrases?: ReadonlySet<string>,
  /** The head's token runs: an alternative of several words counts only as a phrase there. */
  runs?: readonly HeadRun[],
): number {
  /** Per query word, what each alternative the head holds is worth there, best first. */
  const offers = alts.map((a, ti) => {
    const out: { key: string; v: number }[] = [];
    a.forEach((toks, i) => {
      const at = runs && toks.length > 1
        ? phraseIn(runs, toks)
        : Math.min(...toks.filter((t) => t !== GAP).map((t) => head.get(t) ?? 0));
      if (at > 0) out.push({ key: toks.join(" "), v: termIdf[ti] * Math.sqrt(w(ti, i) * at) });
    });
    return out.sort((x, y) => y.v - x.v);
  });
  if (ABLATE.distinct) {
    offers.forEach((o, ti) => per[ti] = o[0]?.v ?? 0);
    return per.reduce((a, b) => a + b, 0);
  }
  const order = offers.map((_, ti) => ti).sort((a, b) =>
    (offers[b][0]?.v ?? 0) - (offers[a][0]?.v ?? 0)
  );
  const claimed = new Set<string>();
  let share = 0;
  for (const ti of order) {
    const o = offers[ti];
    if (!o.length) continue;
    const free = o.find((x) => !claimed.has(x.key) || phrases?.has(x.key));
    const v = Math.max(free?.v ?? 0, o[0].v * SHARED_HEAD);
    if (free && free.v === v && !phrases?.has(free.key)) claimed.add(free.key);
    per[ti] = v;
    share += v;
  }
  return share;
}

/**
 * How well a head names the query's least-named concept (0..1): per concept
 * its best word's share of that word's full value in the head
 * ({@link headShare}'s `per` over the word's IDF), the lowest of them. 0 when
 * the query names fewer than two concepts (lib/search/concepts.ts) or
 * `ABLATE.headConcepts`: a head that names the component and not the symptom,
 * or the symptom and not the component, is not lifted.
 */
export function leastConcept(per: number[], termIdf: number[], concepts?: Concept[]): number {
  if (ABLATE.headConcepts || !concepts || concepts.length < 2) return 0;
  return Math.min(
    ...concepts.map((k) => Math.max(...k.terms.map((ti) => (per[ti] ?? 0) / (termIdf[ti] || 1)))),
  );
}

/**
 * Pseudo-relevance feedback over the heads: words (not the query's, not stop
 * words, in at most {@link FEEDBACK_SHARE} of events) that at least two of the
 * best {@link FEEDBACK_FROM} heads share name what the question is probably
 * about; each candidate is lifted by the IDF-weighted share of them its head
 * holds, `× (1 + FEEDBACK · share)`.
 */
function feedback(
  stats: TermStats,
  top: SessionScore[],
  held: Map<number, Map<string, number>>,
  have: Set<string>,
  n: number,
): void {
  top.sort((a, b) => b.score - a.score);
  const count = new Map<string, number>();
  for (const s of top.slice(0, FEEDBACK_FROM)) {
    for (const t of held.get(s.sessionId)?.keys() ?? []) {
      if (have.has(t) || STOP_WORDS.has(t) || t.length < 3 || /\d/.test(t)) continue;
      count.set(t, (count.get(t) ?? 0) + 1);
    }
  }
  const words = new Map<string, number>();
  for (const [t, c] of count) {
    if (c < 2) continue;
    const df = stats.docs(t);
    if (df / n <= FEEDBACK_SHARE) words.set(t, idf(n, df) * c);
  }
  const total = [...words.values()].reduce((a, b) => a + b, 0);
  if (!total) return;
  for (const s of top) {
    const head = held.get(s.sessionId);
    if (!head) continue;
    let x = 0;
    for (const [t, v] of words) if (head.has(t)) x += v;
    s.score *= 1 + FEEDBACK * x / total;
  }
}

/** How much a literal match whose head holds every query word is lifted (×1 + this × least weight). */
export const HEAD_LITERAL = 1;

/**
 * The literal tiers (exact, substring, word forms, close spellings) rank the
 * events holding the query by BM25 alone, so a session that names the words
 * in passing — an assistant line, a summary of other work — outranked the one
 * whose title or first request states them (trial 19: `add redis to the
 * cluster` put a session mentioning `REDIS_URL … cluster.local` above the one
 * that opened "Add redis to this kubernetes cluster"). Among the best
 * {@link RERANKED}, a session whose head (see {@link heads}) holds every query
 * word — in one of the forms the tier matched — is lifted
 * `× (1 + HEAD_LITERAL · least)`, least being the lowest weight at which the
 * head holds a word (1 in its title, summaries or first sentence,
 * {@link REST} after it). A head holding only some of the words lifts nothing:
 * the tier already ranks by how events hold them.
 */
export function liftLiteralHeads(
  stats: TermStats,
  cache: SessionCache,
  scores: Map<number, SessionScore>,
  alts: string[][][],
): void {
  if (ABLATE.literalHeads || scores.size < 2 || !alts.length) return;
  const top = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, RERANKED);
  const ids = new Set<number>();
  for (const s of top) for (const m of cache.members(s.sessionId)) ids.add(m);
  const held = heads(stats, cache, [...ids]);
  for (const s of top) {
    const head = held.get(s.sessionId);
    if (!head) continue;
    let least = 1;
    for (const a of alts) {
      let best = 0;
      for (const toks of a) {
        const words = toks.filter((t) => t !== GAP);
        if (!words.length) continue;
        best = Math.max(best, Math.min(...words.map((t) => head.get(t) ?? 0)));
      }
      least = Math.min(least, best);
      if (!least) break;
    }
    if (least > 0) s.score *= 1 + HEAD_LITERAL * least;
  }
}
