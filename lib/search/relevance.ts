/**
 * The last tier, `relevance`: nothing matched every term, so sessions are
 * ranked by how much of the query they hold — the IDF-weighted share of its
 * informative words (with their word forms, synonyms and related words,
 * lib/search/related.ts) — and the result says
 * "nothing matched exactly". A natural-language question usually lands here.
 *
 * Related words widen a word the history never wrote always, and a word it
 * holds only when no session holds most of the query as typed
 * (lib/search/related.ts `RELATED.gate`) — or when the history holds the word
 * only in another form (`bill` written only as `billing`, `formWiden`): such a
 * form names a neighbour of the question's thing, not the thing. Measured on
 * `paradev` (60 queries a seed, seeds 11/3/7): hit@1 0.933/0.900/0.917 ->
 * 0.933/0.900/0.933, MRR@10 0.950/0.946/0.942 -> 0.950/0.946/0.958;
 * held-out paraphrase aggregate 0.550/0.500/0.550 -> 0.550/0.500/0.567, no
 * other kind lost or gained a hit.
 *
 * A phrasal verb's particle (`off` in "signed off", lib/search/compounds.ts
 * `PARTICLES`) stays a word of the query but brings no related words: the
 * thesaurus relates `off` the adjective (`wrong`, `totals`), which "people get
 * signed off" never means, and such a word, rare as typed, pulled sessions
 * about wrong totals above the one about logouts. Measured on `paradev` (60 a
 * seed, seeds 11/3/7): hit@1 0.933/0.900/0.933 -> 0.933/0.917/0.933, no other
 * kind moved. Not kept: leaving the particle out of the tier's words
 * altogether (0.917/0.917/0.933: its literal match still counts for something).
 * Nor coverage over frequency here: `sum × (0.5 + cover)²` instead of
 * `× (0.5 + cover)` moved no query of any kind on any seed — the head rerank
 * (lib/search/fielded.ts) decides the order among sessions holding the query's
 * concepts, not this score.
 *
 * Two words typed apart that the history writes as one (`time zone` for
 * `timezone`, lib/search/compounds.ts `joinedWords`) are one word here, its
 * forms and the two as the phrase typed. Measured (`--per-kind 60`, seeds
 * 11/3/7/5, with the phrasal-verb gap of lib/search/compounds.ts): `question`
 * hit@1 0.933/0.933/0.900/0.917 -> 0.983/0.967/0.950/0.933; 30 a seed
 * (11/3/7) 1.00/0.93/0.83 -> 1.00/0.93/0.87. `paradev`, every other kind and
 * the held-out paraphrase unchanged on every seed. Its IDF counts twice, in
 * both stages (it stands for two words of the question): counted once,
 * "get the time zone wrong" weighed `timezone` as `wrong` and the session that
 * "returns wrong totals" ranked first. Measured the same way: `question` hit@1
 * 1.00/0.95/0.97/0.98 -> 1.00/0.98/0.98/0.98, nothing else moved (first stage
 * alone: no change).
 *
 * Measured and not kept: a form of a typed word in more than four times the
 * events the word as typed is in (`message` beside `messages`: "lose
 * messages" weighed by the common `message`, so a session that "loses the
 * timezone" outranked the one that "drops messages") counting at half weight
 * and not setting the word's IDF. `question` hit@1 +1 or +2 a seed (seed 7,
 * 30 a seed: 0.867 -> 0.933; 60 a seed: 0.95 -> 0.967), but the held-out
 * paraphrase lost a hit on seeds 11 and 7 (30 a seed) and on seed 7 (60).
 *
 * A related word two neighbouring query words both reach through curated
 * relations (the thesaurus or the groups of lib/search/related.ts, not a
 * learned association) names their phrase: `bad gateway` -> `502`, `printable
 * document` -> `pdf`, `push alert` -> `notification`. It stands for both words
 * (each at its own weight, not the second at `RELATED.shared`), and the head
 * rerank lets it count for both (lib/search/fielded.ts, `phraseWords`).
 * Measured on `paradev` (60 a seed, seeds 11/3/7/5): hit@1
 * 0.933/0.917/0.933/0.933 -> 0.967/0.933/0.933/0.933, no other kind moved;
 * held-out paraphrase 0.58/0.50/0.57/0.65 -> 0.58/0.52/0.57/0.63. Not kept:
 * the two weights summed (capped at 1): a group naming both words
 * (`trying`, `endlessly` -> `retry`, `again`, `loop`) made every member a
 * word at full weight, and a common one (`again`) sank the session that said
 * `retry` (paradev 57/55/55/55 of 60, from 56/55/56/56); a learned association
 * counted in a pair too (`keeps` -> `store` beside a learned `store`) was part
 * of that loss.
 *
 * Measured and not kept: a query word's related words read each on its own
 * (its {@link RELATED}`.rows` best events) instead of all those of one weight
 * together, where a common one (`again` beside `retry`, `loop`) fills the
 * rows and the events holding the rarer one are never read (the session
 * about the retry limit ranked 106th in the first stage for "keeps trying
 * endlessly"). `--per-kind 60`, seeds 11/3/7/5: `paradev` 0.950 -> 0.933 on
 * seed 5 (a near tie, "toggle system … sluggish … traffic", flipped), held-out
 * paraphrase 0.58/0.53/0.53/0.65 -> 0.58/0.55/0.53/0.63, blind
 * 0.47/0.53/0.50/0.49 -> 0.46/0.53/0.53/0.47; reading costs one FTS query per
 * related word instead of one per weight.
 *
 * A compound among a word and its related words (`logout`, related to
 * `signed`) is also read as the phrasal verb it names, in an inflected form,
 * with a word or none before the particle ("logs users out", "setting up":
 * lib/search/compounds.ts `phrasalReadings`), at {@link RELATED}`.phrasal` (a
 * quarter) of the compound's weight; the head rerank counts such a reading
 * only where the head holds it as a phrase (lib/search/fielded.ts `phraseIn`).
 * Measured (`deno task bench:recall --no-binary --per-kind 60`, seeds
 * 11/3/7/5): `paradev` hit@1 0.97/0.95/0.93/0.93 -> 0.98/0.97/0.95/0.95
 * (MRR@10 0.97/0.97/0.96/0.96 -> 0.99/0.98/0.97/0.96; "… people get signed
 * off for no reason" now finds the session that "logs users out randomly"),
 * held-out paraphrase 0.65 -> 0.67 on seed 11, every other kind unchanged.
 * Measured in an earlier session and not worth retrying: the bare verb too
 * ("log out": `log` beside any `out`), the reading at the compound's full
 * weight, and a first stage of 200 sessions.
 *
 * Measured and not kept (issue 15; `--per-kind 60`, tuned on the `paradev`
 * misses of seeds 13/17/19, judged over seeds 3/5/7/11/13/17/19/23/29/31): a
 * related word two query words share going to the one that relates it at
 * the higher weight, not to the first typed (`good` learned `rejects` at
 * 0.06 and left `refused`, whose thesaurus word it is, half of 0.5): paradev
 * 0.867/0.967/0.883 -> 0.883/0.983/0.883 ("sign-in screen when good
 * credentials are refused" found), but over the ten seeds paradev 560 -> 559
 * of 600 (+1 on 3, 13 and 17, −1 on 23 and 31, −2 on 29), held-out
 * paraphrase 386 -> 384 (−1 on seeds 23 and 31), blind and every other kind
 * unchanged.
 *
 * A session must hold at least two of the query's words, or, when the query
 * has three or more words the history holds, its rarest one (such a session
 * ranks at half weight). Words in more than a quarter of all events are left
 * out while two rarer ones remain.
 *
 * @module
 */
import { productsFor } from "./products_match.ts";
import { Q } from "../schema.ts";
import { ftsAny } from "../query.ts";
import type { Store } from "../store.ts";
import { type Filters, matchRows, type Row } from "./retrieve.ts";
import { ABLATE, eventWeight, type ScoredEvent, type SessionScore } from "./rank.ts";
import { type TermStats, wordForms } from "./expand.ts";
import { associated, RELATED, relatedTo } from "./related.ts";
import { synonymsOf } from "./synonyms.ts";
import { conceptsOf, type Coordination } from "./concepts.ts";
import { type JoinedWord, joinedWords, PARTICLES, phrasalReadings } from "./compounds.ts";

/** Rows read per common word. */
const PER_TERM = 800;
/** A word in at most this share of events is read whole. */
const RARE = 0.05;

/** What the relevance tier found. */
export interface RelevanceResult {
  scores: Map<number, SessionScore>;
  /** Per word kept: its alternatives (for snippets). */
  alts: string[][][];
  /** Per word kept: the weight of each alternative (1 as typed or a form, less for a related word). */
  weights: number[][];
  /** The words it ranked by. */
  words: string[];
  /** Per word kept: how many words of the query it stands for (2 for `time zone` read as `timezone`). */
  counts: number[];
  /** The query's concepts, when it names two or more (lib/search/concepts.ts). */
  coord?: Coordination;
  /** Per session: the largest share of the query's IDF weight one of its events holds. */
  together: Map<number, number>;
  /** Related words two neighbouring query words share: each names their phrase (`502`). */
  phraseWords: Set<string>;
}

interface Term {
  word: string;
  /** The word as typed (the first of two typed apart for {@link word}: lib/search/compounds.ts). */
  typedAs: string;
  /** The word, its forms and synonyms the history holds. */
  alts: string[];
  /** Related words the history holds (thesaurus, the history's own associations) and their weight. */
  extra: Map<string, number>;
  /** The history holds the word or a form of it. */
  literal: boolean;
  /** The history holds the word as typed, not only another form of it. */
  typed: boolean;
  df: number;
  idf: number;
  /** Words of the query it stands for: two typed apart for one the history holds count twice. */
  count: number;
}

function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Ranks sessions by IDF-weighted overlap with `words`.
 *
 * @param rootOf maps a session row id to the id its hits are filed under.
 * @param query the query as typed, cut into concepts (lib/search/concepts.ts).
 */
export function relevance(
  stats: TermStats,
  words: string[],
  f: Filters,
  rootOf: (id: number) => number,
  query = "",
): RelevanceResult {
  const store: Store = stats.store;
  const n = Math.max(1, Q.eventCount.get(store, {})!.n);
  const unique = [...new Set(words)];
  const typed = ABLATE.joined
    ? unique.map((w) => ({ word: w }))
    : joinedWords(stats, unique, query);
  const products = productsFor(stats, unique);
  let terms: Term[] = typed.map(({ word: w, parts }: JoinedWord) => {
    const alts = new Set(wordForms(stats, w));
    for (const s of synonymsOf(w)) if (stats.docs(s)) alts.add(s);
    // Two words typed apart for one the history holds: also as the phrase they were typed.
    if (parts && parts.every((p) => stats.docs(p))) alts.add(parts.join(" "));
    const literal = alts.size > 0;
    // (A word the history holds is widened later, only when the query needs it.)
    const extra = literal
      ? new Map<string, number>()
      : withPhrasal(stats, w, associated(stats, w, alts, products.get(w)));
    // A phrasal verb's count is only bounded by its words' (lib/search/expand.ts phraseDocs):
    // it sets the word's IDF only when no word stands for the word.
    const plain = literal ? [...alts] : [...extra.keys()].filter((a) => !a.includes(" "));
    const df = plain.length || !extra.size
      ? Math.max(0, ...plain.map((a) => stats.docs(a)))
      : Math.max(0, ...[...extra.keys()].map((a) => stats.phraseDocs(a.split(" "))));
    const typed = stats.docs(w) > 0;
    const typedAs = parts?.[0] ?? w;
    const count = parts && !ABLATE.joinedCount ? 2 : 1;
    return {
      word: w,
      typedAs,
      alts: [...alts],
      extra,
      df,
      idf: idf(n, df) * count,
      literal,
      typed,
      count,
    };
  }).filter((t) => t.alts.length > 0 || t.extra.size > 0);
  const empty = {
    scores: new Map(),
    alts: [],
    weights: [],
    words: [],
    counts: [],
    together: new Map(),
    phraseWords: new Set<string>(),
  };
  if (terms.length < 2) return empty;
  const rare = terms.filter((t) => t.df / n <= 0.25);
  if (rare.length >= 2) terms = rare;
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0);
  const strongest = terms.reduce((a, b) => (b.idf > a.idf ? b : a));

  // Per session: per term its best event score; per event the terms it holds.
  const perSession = new Map<number, Map<number, ScoredEvent>>();
  const eventTerms = new Map<number, Set<number>>();
  const eventOf = new Map<number, ScoredEvent>();
  /** Per session, per term: the weight of what it matched (1 literal, less for a related word). */
  const matchWeight = new Map<number, Map<number, number>>();
  const take = (ti: number, rows: Row[], weight: number) => {
    for (const r of rows) {
      const sid = rootOf(r.session_id);
      const sc: ScoredEvent = {
        row: r,
        score: -r.bm25 * eventWeight(r.kind, r.flags, true) * weight,
      };
      let m = perSession.get(sid);
      if (!m) perSession.set(sid, m = new Map());
      let mw = matchWeight.get(sid);
      if (!mw) matchWeight.set(sid, mw = new Map());
      const prev = m.get(ti);
      if (!prev || sc.score > prev.score) m.set(ti, sc);
      mw.set(ti, Math.max(mw.get(ti) ?? 0, weight));
      let et = eventTerms.get(r.event_id);
      if (!et) eventTerms.set(r.event_id, et = new Set());
      et.add(ti);
      const pe = eventOf.get(r.event_id);
      eventOf.set(r.event_id, pe ? { row: r, score: pe.score + sc.score } : sc);
    }
  };
  terms.forEach((t, ti) => {
    // A rare word: every event holding it; a common one: its best events only.
    if (!t.alts.length) return;
    const limit = t.df / n <= RARE ? 20_000 : PER_TERM;
    take(ti, matchRows(store, ftsAny(t.alts.map((a) => [a])), f, limit), 1);
  });
  // Related words, a tier below. A word the history never wrote always stands for its
  // related words; the words it holds are widened too only when no session holds most
  // of the query as typed (a question in other words, not one in the session's words),
  // or when it holds them only in another form.
  // (Each word at its own weight: a word typed apart as two counts once here, or a session
  // holding it would pass for holding most of the query, and no other word be widened —
  // trial 24: `how did we handle the time zone` found nothing.)
  let cover = 0;
  const own = (t: Term) => t.idf / t.count;
  const ownTotal = terms.reduce((x, t) => x + own(t), 0) || 1;
  for (const m of perSession.values()) {
    let c = 0;
    for (const ti of m.keys()) c += own(terms[ti]);
    cover = Math.max(cover, c / ownTotal);
  }
  // Two words typed, each held by sessions, never both by one: the query names a thing
  // and what was done to it, and no session did that. Their related words would only pair
  // one with a neighbour of the other (trial 25: `touch redis` listed two sessions holding
  // `touch` beside a `cache`, never the Redis ones; `touch flux` found nothing at all). Left
  // to the caller, which names each word's sessions (lib/cli/_search_notes.ts `apartWords`).
  if (
    !ABLATE.twoApart && terms.length === 2 && words.length === 2 &&
    terms.every((t) => t.typed && t.count === 1) && cover < 1
  ) return empty;
  const widen = cover < RELATED.gate;
  // A related word stands for one query word only (`ram`, `growing` and `killed` all
  // relate to `memory`: one mention of it is not three words of the question).
  // Unless two neighbouring words both relate to it: then it names their phrase (`bad
  // gateway` -> `502`, `printable document` -> `pdf`) and stands for both at their summed weight.
  const claimed = new Set(terms.flatMap((t) => t.alts));
  const owner = new Map<string, number>();
  const phraseWords = new Set<string>();
  terms.forEach((t, ti) => {
    if (PARTICLES.includes(t.word)) return t.extra.clear();
    if (t.literal && !widen && (t.typed || ABLATE.formWiden)) {
      // The products the word describes stand beside it still (trial 134 F1: `self-hosted git
      // server`, every word held somewhere, never reached the session about Forgejo).
      t.extra = new Map((products.get(t.word) ?? []).map((p) => [p, RELATED.product]));
      if (!t.extra.size) return;
    } else if (t.literal) {
      t.extra = withPhrasal(
        stats,
        t.word,
        associated(stats, t.word, new Set(t.alts), products.get(t.word)),
      );
    }
    for (const [a, w] of t.extra) {
      const o = owner.get(a);
      const prev = o === undefined ? 0 : terms[o].extra.get(a) ?? 0;
      if (o === ti - 1 && !ABLATE.phrase && Math.min(prev, w) >= RELATED.thesaurus) {
        phraseWords.add(a);
      } else if (claimed.has(a)) t.extra.set(a, w * RELATED.shared);
      else claimed.add(a), owner.set(a, ti);
    }
  });
  terms.forEach((t, ti) => {
    const byWeight = new Map<number, string[]>();
    for (const [a, wt] of t.extra) {
      const w = t.literal ? wt : Math.min(1, wt * RELATED.alone);
      byWeight.set(w, [...(byWeight.get(w) ?? []), a]);
    }
    for (const [w, as] of byWeight) {
      take(ti, matchRows(store, ftsAny(as.map((a) => a.split(" "))), f, RELATED.rows), w);
    }
  });

  const scores = new Map<number, SessionScore>();
  const together = new Map<number, number>();
  const si = terms.indexOf(strongest);
  const held = terms.flatMap((t, ti) => t.literal ? [ti] : []);
  const onlyHeld = held.length === 1 && !ABLATE.onlyHeld ? held[0] : -1;
  const typedWords = terms.reduce((x, t) => x + t.count, 0);
  for (const [sid, m] of perSession) {
    const matched = [...m.keys()];
    const mw = matchWeight.get(sid)!;
    let weak = 1;
    if (matched.length < 2) {
      // The query's strongest word alone, of three or more typed (a word typed apart as two
      // is two: `handle the time zone`, trial 24). Or its one word the history holds, as
      // typed, beside words it holds in no form (trial 78: `twilio retries` listed seven
      // sessions of related words and not the one holding `retries`).
      const alone = onlyHeld === matched[0] && mw.get(matched[0]) === 1;
      if (!(typedWords >= 3 && matched[0] === si) && !alone) continue;
      weak = 0.5;
    }
    const cover = matched.reduce((s, ti) => s + terms[ti].idf * mw.get(ti)!, 0) / totalIdf;
    let cooc = 1;
    const events: ScoredEvent[] = [];
    const seen = new Set<number>();
    let share = 0;
    for (const ev of m.values()) {
      const et = eventTerms.get(ev.row.event_id);
      const held = et?.size ?? 1;
      share = Math.max(share, [...et ?? []].reduce((x, ti) => x + terms[ti].idf, 0) / totalIdf);
      cooc = Math.max(cooc, 1 + RELATED.cooc * (held - 1));
      if (!seen.has(ev.row.event_id)) {
        seen.add(ev.row.event_id);
        events.push(eventOf.get(ev.row.event_id) ?? ev);
      }
    }
    const sum = [...m.values()].reduce((s, e) => s + e.score, 0);
    events.sort((a, b) => b.score - a.score);
    together.set(sid, share);
    scores.set(sid, {
      sessionId: sid,
      score: sum * (0.5 + cover) * cooc * weak,
      events,
      spread: true,
    });
  }
  const concepts = conceptsOf(query, terms.map((t) => t.typedAs), terms.map((t) => t.idf));
  return {
    scores,
    together,
    phraseWords,
    ...(concepts
      ? { coord: { concepts, alts: terms.map(altWeights), idfs: terms.map((t) => t.idf), f } }
      : {}),
    alts: terms.map((t) => [...t.alts, ...t.extra.keys()].map((a) => a.split(" "))),
    weights: terms.map((t) => [...t.alts.map(() => 1), ...t.extra.values()]),
    words: terms.map((t) => t.word),
    counts: terms.map((t) => t.count),
  };
}

/**
 * `extra` (the related words of `word` the history holds, with their weight) and the
 * phrasal verbs of the compounds among `word` and its related words, those the history
 * writes too (lib/search/compounds.ts `phrasalReadings`: "logs users out" for `logout`, a
 * related word of `signed`), each at {@link RELATED}`.phrasal` of its compound's weight.
 */
function withPhrasal(stats: TermStats, word: string, extra: Map<string, number>) {
  if (ABLATE.phrasal || ABLATE.related) return extra;
  const compounds = new Map<string, number>([[word, 1]]);
  for (const r of relatedTo(word)) compounds.set(r, RELATED.thesaurus);
  for (const [r, w] of extra) compounds.set(r, Math.max(w, compounds.get(r) ?? 0));
  for (const [c, w] of compounds) {
    for (const p of phrasalReadings(stats, c)) {
      const key = p.join(" ");
      if (!extra.has(key)) extra.set(key, w * RELATED.phrasal);
    }
  }
  return extra;
}

/** A term's words and their weights: 1 as typed or a form, a related word its own. */
function altWeights(t: Term): Map<string, number> {
  const out = new Map<string, number>(t.alts.map((a) => [a, 1]));
  for (const [a, w] of t.extra) {
    const wt = t.literal ? w : Math.min(1, w * RELATED.alone);
    if (!out.has(a)) out.set(a, wt);
  }
  return out;
}
