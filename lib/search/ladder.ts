/**
 * The fallback ladder: exact -> substring -> word forms -> close spellings ->
 * pasted error -> relevance, stopping at the first tier that finds anything.
 *
 * A long query (five or more words once stop words are gone, or a question of
 * three or more) is not widened word by word — one word the session lacks
 * would lose it, and widening six words finds any marathon session. The
 * sessions holding every word are its exact matches, ranked as a short
 * query's are; only when none does is it ranked by relevance (a session that
 * lacks a word is never labelled exact, but for a question's scaffolding:
 * lib/search/whole.ts names the result after how its first session holds it).
 * Its words the history holds nowhere are spelt as the history writes them
 * (lib/search/spelling.ts), kept only when sessions then hold every word.
 *
 * A weak literal match does not stop the ladder alone: exact matches of three
 * or more words are ranked beside the sessions holding every word in another
 * form in one event (`withForms`), and a long query's matches that only
 * scatter its words beside the sessions holding most of it in one event
 * (`withRelevance`). The result is named after the tier of what ranks first.
 * A pasted error is never long: it goes down the ladder to the error tier.
 *
 * @module
 */
import type { ParsedQuery } from "../query.ts";
import { ftsAny, QUESTION, STOP_WORDS } from "../query.ts";
import type { Tier } from "../search.ts";
import { type Filters, matchRows, spreadMatch } from "./retrieve.ts";
import { expand, isSpellingFix, type LiteralTier, type TermStats, wordForms } from "./expand.ts";
import { ABLATE, scoreRows, scoreSpread, type SessionScore } from "./rank.ts";
import { relevance, type RelevanceResult } from "./relevance.ts";
import type { Coordination } from "./concepts.ts";
import { ERROR_LINE, errorTier } from "./errortier.ts";
import { type Forms, formsOf } from "./whole.ts";
import { type Fix, respelt, spellingFixes } from "./spelling.ts";
import { Q } from "../schema.ts";
import { tokens } from "./tokenize.ts";
import { phraseSpellings } from "./irregular.ts";
import { joinedPairs } from "./compounds.ts";
import { distance } from "./distance.ts";

/** Event-level matches below this many sessions also try the session-level AND. */
const SPREAD_MIN = 10;
/** Matching events read per expression. */
const MAX_ROWS = 5000;

const LITERAL: LiteralTier[] = ["exact", "substring", "stemmed", "close"];

/**
 * True when every word `to` lists is a form of `from` (lib/search/expand.ts
 * wordForms): the forms tier then finds all the substring tier would and the
 * rest (`freeze` inside `freezes`; forms `froze`, `freezing`; a compound beside
 * it as its phrasal verb, `logout` as "logs users out"). It used to also ask
 * that the forms hold more than the substrings: `corrupt` (`corrupts`,
 * `corrupted`) then stopped at the substring tier, where marathon sessions
 * naming `logout` beside it outranked the one that "logs users out".
 */
function isForms(stats: TermStats, from: string, to: readonly string[]): boolean {
  const forms = wordForms(stats, from);
  return to.every((w) => w === from || forms.includes(w));
}

/** What the ladder found. */
export interface LadderResult {
  tier: Tier;
  scores: Map<number, SessionScore>;
  /** Per term, what it matched (for ranking and snippets). */
  alts: string[][][];
  /** Per term, the weight of each alternative (relevance tier; absent: 1 each). */
  weights?: number[][];
  /** Per term, the query's words it stands for (relevance tier; absent: 1 each). */
  counts?: number[];
  changes: Array<{ from: string; to: string[] }>;
  /** Close tier: words held as typed, read in their forms beside the spellings (expand.ts). */
  heldForms?: Array<{ from: string; to: string[] }>;
  /** Relevance tier: the query's concepts, to coordinate after re-scoring (lib/search/concepts.ts). */
  coord?: Coordination;
  /**
   * Sessions beside the literal matches that a wider tier found (`withForms`,
   * `withRelevance`): the result takes that tier's name when one ranks first.
   */
  widened?: {
    ids: Set<number>;
    tier: "stemmed" | "relevance";
    /** Listed after every exact match, never beside them (a word typed alone: `withForms`). */
    below?: boolean;
    /**
     * With `below`: what the exact matches matched, which ranks them among themselves as when
     * no form was read (trial 78 F6: a session 18th of `error`'s exact matches at `--limit 18`
     * was 4th at 19, where the forms were read and ranked it).
     */
    aboveAlts?: string[][][];
  };
  /**
   * Relevance tier of a long query: its words and their forms, to tell whether a
   * session holds every one of them (lib/search/whole.ts).
   */
  forms?: Forms[];
  /** Relevance tier: related words that name a phrase of two neighbouring query words. */
  phraseWords?: Set<string>;
  /**
   * A long query matched once the words the history holds nowhere were spelt as it writes
   * them (lib/search/spelling.ts): the corrections, named in the result.
   */
  spelt?: Fix[];
  /** A long query's words the history holds nowhere and their spellings, kept or not. */
  fixes?: Fix[];
}

/** True for a query ranked by relevance beside its exact matches (see the module doc). */
export function isLong(query: string, parsed: ParsedQuery): boolean {
  if (ABLATE.long || ERROR_LINE.test(query)) return false;
  const words = parsed.parts.filter((p) => !p.quoted).length;
  return words >= 5 || (words >= 3 && QUESTION.test(query));
}

/** Runs the ladder for `parsed` under filters `f`. */
export function ladder(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  literalOnly: false | "exact" | "forms" | "together" = false,
  /** Results to be listed: a word typed alone with this many exact matches reads no forms. */
  limit = Infinity,
): LadderResult {
  const none: LadderResult = { tier: "none", scores: new Map(), alts: [], changes: [] };
  if (!parsed.parts.length) return none;
  const long = isLong(query, parsed);
  const errorShaped = !literalOnly && ERROR_LINE.test(query);
  // A quoted phrase matches contiguously or not at all, at every tier.
  let held: Set<number> | undefined | null = null;
  const phrases = () =>
    held === null ? (held = withPhrases(stats, query, parsed, f, rootOf)) : held;
  const joins = joinedPairs(stats, parsed.parts, query);
  // Respelt with a word the history holds only in other forms: those forms too.
  const tiers: LiteralTier[] = literalOnly === "forms" || literalOnly === "together"
    ? ["exact", "stemmed"]
    : long
    ? ["exact"]
    : LITERAL;
  for (const t of tiers) {
    const ex = expand(stats, parsed.parts, t, joins);
    if (!ex) continue;
    // Longer words that are only the word's own forms: the forms tier finds them and more.
    if (t === "substring" && ex.changes.every((c) => isForms(stats, c.from, c.to))) continue;
    // Several words read inside longer words match where one event holds them together, and
    // only there (README): a session holding them only apart is no match of them (trial 121
    // M1: `minidat appropriat` listed one as "words across events", exit 0, where `MathBal
    // OriginItem`, held apart alone, matched nothing, exit 1).
    const scores = literalMatch(
      stats,
      ex.alts,
      f,
      rootOf,
      ex.confirm,
      t === "substring" && ex.confirm,
      ex.pieces,
    );
    if (!scores.size) continue;
    // A pasted error that no single event holds: its words scattered over a session are no
    // sighting of it (trial 65: `ls: cannot access 'build': No such file or directory`, in no
    // store, listed a session holding `ls`, `build`, `file` … apart, exit 0). The error tier
    // below looks for it as written.
    if (errorShaped && [...scores.values()].every((s) => s.spread)) continue;
    // A long query no single event holds whole: its matches are words scattered over
    // sessions, and a session holding most of it together competes (see `withRelevance`).
    if (long && !ABLATE.compete && [...scores.values()].every((s) => s.spread)) {
      // Held together in one event with a word in another form: that first (trial 17a: `you
      // did not successfully push …`, typed back from a prompt that said `didnt`, ranked 6th
      // below sessions scattering the words as typed).
      const formed = t === "exact" && !literalOnly && !ABLATE.longForms
        ? formsTogether(stats, parsed, query, f, rootOf)
        : undefined;
      if (formed) return withScattered(formed, scores);
      // Matched again in forms for one event holding them (above): the words as typed,
      // scattered, yield to their forms.
      if (literalOnly === "together" && t === "exact") continue;
      return withRelevance(stats, parsed, query, f, rootOf, { tier: t, scores, ...ex });
    }
    // Matched again in forms for one event holding them (below): the words as typed,
    // scattered, yield to their forms.
    if (
      literalOnly === "together" && t === "exact" && [...scores.values()].every((s) => s.spread)
    ) {
      continue;
    }
    // A few words no event holds as typed, only scattered over sessions: the sessions with an
    // event holding them in other forms listed after those (trial 96 F5: `deploy redis` listed
    // one session with `kubectl get deploy` and a `forgejo-redis` pod, and not the two that
    // deployed Redis, `deployment` … `redis` in one event). After, not first: the words as
    // typed stay the better sign (the recall bench's `invoice lock celery` lost its session
    // to a paste holding `locks` … `invoices` when these came first).
    if (
      t === "exact" && !literalOnly && !long && !ABLATE.shortForms &&
      parsed.parts.length >= 2 && [...scores.values()].every((s) => s.spread)
    ) {
      const formed = formsTogether(stats, parsed, query, f, rootOf);
      if (formed) return formedAfter(formed, scores, ex.alts);
    }
    if (t === "exact" && !ABLATE.compete) {
      const wide = withForms(stats, parsed, f, rootOf, scores, limit, ex.alts);
      if (wide) return wide;
    }
    // Word forms that are all spelling fixes (`kubernets` -> `kubernetes`) are named as such.
    const spelt = t === "stemmed" && ex.changes.length > 0 &&
      ex.changes.every((c) => isSpellingFix(stats, c.from, c.to));
    const closest = t === "close" || spelt
      ? closestFirst(stats, ex.alts, ex.changes, scores, f, rootOf)
      : undefined;
    return {
      tier: spelt ? "close" : t,
      scores,
      alts: ex.alts,
      changes: ex.changes,
      ...(ex.heldForms ? { heldForms: ex.heldForms } : {}),
      ...(closest ? { widened: closest } : {}),
    };
  }
  // Respelt, only the literal tiers are tried again: no second error or relevance pass.
  if (literalOnly) return none;
  let fixes: Fix[] | undefined;
  if (long && !ABLATE.spelt) {
    fixes = spellingFixes(stats, parsed.parts);
    const fixed = respeltLong(stats, parsed, query, f, rootOf, fixes);
    if (fixed) return fixed;
  }
  if (long && !ABLATE.longForms) {
    const formed = formsTogether(stats, parsed, query, f, rootOf);
    if (formed) return formed;
  }
  const er = errorTier(stats, query, f, rootOf);
  const ph = phrases();
  if (ph) { for (const id of er.scores.keys()) if (!ph.has(id)) er.scores.delete(id); }
  if (er.scores.size) {
    return { tier: "error", scores: er.scores, alts: er.words.map((w) => [[w]]), changes: [] };
  }
  const nothing = fixes ? { ...none, fixes } : none;
  if (parsed.parts.some((p) => p.quoted)) {
    return ph?.size && !ABLATE.phraseRelevance
      ? phraseRelevance(stats, parsed, query, f, rootOf, ph) ?? nothing
      : nothing;
  }
  // Ranked by relevance as spelt right, when every word the history lacks has a spelling
  // (trial 16: `… backgrund back without changing the paddng`, its typos dropped as unknown
  // words, ranked by the rest alone).
  // A short query gets its spellings here (trial 47: `kubctl forgjo executable`, two typos
  // and a word, matched nothing and said no more while `kubectl forgejo executable` listed 7).
  if (!fixes && !ABLATE.spelt) fixes = spellingFixes(stats, parsed.parts);
  let met = fixes?.length ? metFixes(stats, parsed, fixes, f) : [];
  let q = met.length ? respeltQuery(parsed, query, met) : { parsed, query };
  let rel = relevanceOf(stats, q.parsed, q.query, f, rootOf);
  // Nothing near the words as typed: every spelling, confirmed or not (trial 47, two typos
  // beside a word no event holds with either spelling).
  let spelt = fixes?.filter((x) => x.spelt) ?? [];
  // Or each word spelt on its own, a word that is none left as typed (trial 49: `kubctl
  // forgjo wombat`, beside a word in no session).
  if (!rel.scores.size && !spelt.length && !ABLATE.spelt) {
    spelt = spellingFixes(stats, parsed.parts, true).filter((x) => x.spelt);
  }
  if (!rel.scores.size && spelt.length > met.length) {
    met = spelt;
    q = respeltQuery(parsed, query, met);
    rel = relevanceOf(stats, q.parsed, q.query, f, rootOf);
  }
  if (!rel.scores.size) return nothing;
  const forms = long ? formsOf(stats, q.parsed) : [];
  return {
    ...relevanceTier(rel),
    ...(forms.length ? { forms } : {}),
    ...(fixes ? { fixes } : {}),
    ...(met.length ? { spelt: met } : {}),
  };
}

/** A word in more than this share of events confirms no spelling beside it. */
const COMMON = 0.02;

/**
 * The spellings of `fixes` some event holds beside another word of the query: the
 * combination that exists together. A real word the history lacks is no typo of the
 * look-alike it holds (trial 16: `vouch` → `voucher`, `bought` → `sought`), and the two
 * seldom share an event with the question's other words.
 */
function metFixes(stats: TermStats, parsed: ParsedQuery, fixes: Fix[], f: Filters): Fix[] {
  const fixed = new Set(fixes.map((x) => x.from));
  const events = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  // A common word (`get`) sits beside anything somewhere: only the rarer ones confirm.
  const rare = (w: string) => stats.docs(w) > 0 && stats.docs(w) <= Math.max(5, COMMON * events);
  const others = parsed.parts
    .filter((p) => !p.quoted && p.tokens.length === 1 && !fixed.has(p.tokens[0]))
    .map((p) => [p.tokens[0]])
    .filter(([w]) => rare(w));
  const spelt = fixes.filter((x) => x.spelt);
  const any = (x: Fix) => ftsAny(x.to.map((w) => [w]));
  const together = (expr: string) => matchRows(stats.store, expr, f, 1).length > 0;
  const met = new Set(
    others.length ? spelt.filter((x) => together(`${any(x)} AND ${ftsAny(others)}`)) : [],
  );
  // Two words respelt whose spellings one event holds together, one of them rare, confirm
  // each other: the combination that exists (trial 78: `redis hostnmae backnd wrong` lost both
  // spellings, no rare word typed right sharing an event with either).
  for (const [i, x] of spelt.entries()) {
    for (const y of spelt.slice(i + 1)) {
      if (met.has(x) && met.has(y)) continue;
      if (!x.to.some(rare) && !y.to.some(rare)) continue;
      if (together(`${any(x)} AND ${any(y)}`)) met.add(x).add(y);
    }
  }
  // Or a title that holds the spelling beside a word of the query as typed (trial 78 F4:
  // `crashng` is `crashing` only in the title "Forgejo crashing in k3s cluster").
  const typed = new Set(parsed.parts.filter((p) => !p.quoted).flatMap((p) => p.tokens))
    .difference(fixed);
  for (const x of spelt) {
    if (met.has(x) || !typed.size) continue;
    const held = x.to.some((w) =>
      Q.titledSessions.all(stats.store, { like: `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%` })
        .some((r) => {
          const toks = tokens(r.title);
          return toks.includes(w) && toks.some((t) => typed.has(t) && !STOP_WORDS.has(t));
        })
    );
    if (held) met.add(x);
  }
  return spelt.filter((x) => met.has(x));
}

/** `parsed` and `query` with each word of `fixes` spelt as its first spelling. */
function respeltQuery(
  parsed: ParsedQuery,
  query: string,
  fixes: Fix[],
): { parsed: ParsedQuery; query: string } {
  const parts = respelt(parsed.parts, fixes);
  const first = new Map(fixes.map((x) => [x.from, x.to[0]]));
  // The query as if typed right: concepts and phrases are read from its text.
  const text = query.replace(/[\p{L}\p{N}_]+/gu, (w) => first.get(w.toLowerCase()) ?? w);
  return { parsed: { ...parsed, parts, terms: parts.map((p) => p.tokens) }, query: text };
}

/** The relevance tier's sessions for the query's words as typed (lib/search/relevance.ts). */
export function relevanceOf(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
) {
  const words = [...new Set(parsed.parts.filter((p) => !p.quoted).flatMap((p) => p.tokens))];
  return relevance(stats, words, f, rootOf, query);
}

/**
 * A query of quoted phrases and words that no session holds together, ranked by relevance
 * over all its words (a phrase's stop words left out) among the sessions holding every
 * phrase contiguously (`phrased`, {@link withPhrases}): a session lacking a phrase is never
 * listed (trial 125 F4: a prompt typed back with a quoted message and one word changed,
 * `… I pick a budget … "No recurring charges found. …"` for "… I select …", matched nothing
 * although a session holds the message verbatim). Undefined when no phrase holder has
 * enough of the words (lib/search/relevance.ts: two, or the rarest).
 */
function phraseRelevance(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  phrased: Set<number>,
): LadderResult | undefined {
  const words = [
    ...new Set(
      parsed.parts.flatMap((p) => p.quoted ? p.tokens.filter((t) => !STOP_WORDS.has(t)) : p.tokens),
    ),
  ];
  const rel = relevance(stats, words, f, rootOf, query);
  for (const id of rel.scores.keys()) if (!phrased.has(id)) rel.scores.delete(id);
  return rel.scores.size ? relevanceTier(rel) : undefined;
}

/** The `relevance` tier's result from what lib/search/relevance.ts ranked. */
function relevanceTier(rel: RelevanceResult): LadderResult {
  const { scores, alts, weights, counts, coord, phraseWords } = rel;
  return {
    tier: "relevance",
    scores,
    alts,
    weights,
    counts,
    changes: [],
    ...(coord ? { coord } : {}),
    ...(phraseWords.size ? { phraseWords } : {}),
  };
}

/**
 * The exact matches of a query of three or more words, with the sessions that
 * hold every word as typed or in another form (`requires` for `required`)
 * beside them, all ranked by the forms: one word's form does not push a
 * session holding the query in one short prompt below one naming the words
 * as typed across a marathon. Undefined when the forms add no session. The
 * sessions only the forms match are listed in `widened` (the result is
 * labelled `stemmed` when one of them ranks first).
 */
function withForms(
  stats: TermStats,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
  exact: Map<number, SessionScore>,
  limit = Infinity,
  /** What the exact matches matched: a word typed alone's are ranked by it, not its forms. */
  exactAlts: string[][][] = [],
): LadderResult | undefined {
  // Fewer words: only when the query names a time none of its exact matches falls in (trial
  // 19: `why did the build fail last week` listed two sessions of the week before, and not
  // the one of that week saying the build "fails").
  const few = parsed.parts.filter((p) => !p.quoted).length < 3;
  // A word typed alone: its other forms after every exact match (trial 22: `crashes` never
  // listed the sessions saying `crashing`, `tests` found 3 sessions where `test` found 11).
  const alone = parsed.parts.length === 1 && !parsed.parts[0].quoted &&
    parsed.parts[0].tokens.length === 1 && !ABLATE.aloneForms;
  // (None listed when the exact matches fill the list: not read, a common word's forms cost a
  // cold `error` ~60 ms on the 100 MB bench.)
  if (alone) {
    return exact.size < limit ? formsBelow(stats, parsed, f, rootOf, exact, exactAlts) : undefined;
  }
  if (few && !noneInTime(stats, parsed, exact.keys())) return undefined;
  // A short prompt holds every word as typed: no form ranks above it (trial 18a: `didnt push
  // github` put a session saying `didn't pushed … github` above the prompt saying it as typed).
  // A tool's output or a long prompt holding them by chance does not stop the forms (recall
  // question kind: `why did the backup job time out` lost the session where it `timed out`).
  const prompts = [...exact.values()].filter((s) => !s.spread)
    .flatMap((s) => s.events.filter((e) => e.row.kind === "user").map((e) => e.row.event_id));
  if (prompts.length) {
    const texts = Q.eventTexts.all(stats.store, { ids: JSON.stringify(prompts.slice(0, 50)) });
    if (texts.some((t) => tokens(t.text).length <= SHORT_PROMPT)) return undefined;
  }
  const ex = expand(stats, parsed.parts, "stemmed");
  if (!ex || !ex.changes.length) return undefined;
  const scores = literalMatch(stats, ex.alts, f, rootOf, ex.confirm);
  const ids = new Set<number>();
  for (const [id, s] of scores) {
    if (exact.has(id)) scores.set(id, exact.get(id)!);
    else if (!s.spread) ids.add(id);
    else scores.delete(id);
  }
  if (!ids.size) return undefined;
  // Nor, for a question, does an event holding its words as typed within a few words of each
  // other, unless a short prompt holds them in their forms (trial 23: `git push was rejected`
  // ranked a long recap saying `pushing` … `rejected` above git's own "! [rejected] … failed
  // to push"; `git bash required on windows` still finds the prompt "… requires git bash").
  if (!few && !ABLATE.nearForms && nearAsTyped(stats, parsed, exact)) {
    const asked = [...ids].flatMap((id) =>
      scores.get(id)!.events.filter((e) => e.row.kind === "user").map((e) => e.row.event_id)
    );
    const texts = asked.length
      ? Q.eventTexts.all(stats.store, { ids: JSON.stringify(asked.slice(0, 50)) })
      : [];
    if (!texts.some((t) => tokens(t.text).length <= SHORT_PROMPT)) return undefined;
  }
  // Read for the time alone: only when a form adds a session inside it (trial 21: `failed last
  // month`, an empty window, ranked sessions saying `failing` above those saying `failed`).
  if (few && noneInTime(stats, parsed, ids)) return undefined;
  for (const [id, s] of exact) if (!scores.has(id)) scores.set(id, s);
  const widened = { ids, tier: "stemmed" as const };
  return { tier: "exact", scores, alts: ex.alts, changes: ex.changes, widened };
}

/**
 * The other forms of a word typed alone that {@link formsBelow} reads when the exact matches
 * leave room, and an event holds (none for a longer query, nor a stop word). What `deja
 * search` names when its exact matches filled the list (lib/cli/cmd_search.ts): read there
 * only, so no other search (a hook's, MCP's) pays for it. With `listed` (the sessions the
 * search lists, by row id, and how an event's session is filed), a form only sessions listed
 * hold is not named: reading it adds none.
 */
export function unreadForms(
  stats: TermStats,
  parsed: ParsedQuery,
  listed?: { ids: ReadonlySet<number>; rootOf(id: number): number },
): string[] | undefined {
  const alone = parsed.parts.length === 1 && !parsed.parts[0].quoted &&
    parsed.parts[0].tokens.length === 1 && !ABLATE.aloneForms;
  // A stop word has no forms to name (trial 60: `deja search the` named `thing`), and a form
  // no event holds adds no session.
  if (!alone || STOP_WORDS.has(parsed.parts[0].tokens[0])) return undefined;
  const forms = aloneForms(stats, parsed)?.changes.flatMap((c) => c.to)
    .filter((w) => w.includes(" ") || stats.docs(w) > 0);
  // Trial 103 F10: "its other forms (readmes) were not looked for", where the one session
  // saying `READMEs` was listed (it says `README` too).
  return listed ? forms?.filter((w) => heldUnlisted(stats, w, listed)) : forms;
}

/** Rows read at most to find a session holding a form that is not listed (then: assumed). */
const UNLISTED_ROWS = 5000;

/** Whether an event holding `form` (a word, or a phrase of words) is of a session not listed. */
function heldUnlisted(
  stats: TermStats,
  form: string,
  listed: { ids: ReadonlySet<number>; rootOf(id: number): number },
): boolean {
  const match = ftsAny([form.split(" ")]);
  let rows = 0;
  for (const r of Q.matchSessions.iterate(stats.store, { match, limit: UNLISTED_ROWS })) {
    rows++;
    if (!listed.ids.has(listed.rootOf(r.session_id))) return true;
  }
  return rows >= UNLISTED_ROWS;
}

/** A word typed alone's other forms, without those of three letters (undefined: none). */
function aloneForms(stats: TermStats, parsed: ParsedQuery) {
  const stemmed = expand(stats, parsed.parts, "stemmed");
  if (!stemmed || !stemmed.changes.length) return undefined;
  // A form of three letters is too often another word (trial 24: `seed` read as `see`).
  const word = parsed.parts[0].tokens[0];
  const kept = (w: string) => w === word || w.includes(" ") || w.length >= 4;
  const alts = [stemmed.alts[0].filter((toks) => kept(toks.join(" ")))];
  const changes = stemmed.changes.map((c) => ({ ...c, to: c.to.filter(kept) }))
    .filter((c) => c.to.length);
  return changes.length ? { ...stemmed, alts, changes } : undefined;
}

/**
 * A word typed alone, its exact matches `exact`: the sessions only its other forms hold
 * (in one event), listed after them (lib/search.ts keeps them below). Undefined when the
 * forms add none.
 */
function formsBelow(
  stats: TermStats,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
  exact: Map<number, SessionScore>,
  exactAlts: string[][][],
): LadderResult | undefined {
  const ex = aloneForms(stats, parsed);
  if (!ex) return undefined;
  const scores = literalMatch(stats, ex.alts, f, rootOf, ex.confirm);
  const ids = new Set([...scores.keys()].filter((id) => !exact.has(id)));
  if (!ids.size) return undefined;
  for (const [id, s] of exact) scores.set(id, s);
  const widened = { ids, tier: "stemmed" as const, below: true, aboveAlts: exactAlts };
  return { tier: "exact", scores, alts: ex.alts, changes: ex.changes, widened };
}

/** The query names a time, and none of the sessions `found` (row ids) falls in it. */
function noneInTime(stats: TermStats, parsed: ParsedQuery, found: Iterable<number>): boolean {
  const t = parsed.time;
  if (!t || ABLATE.timeForms) return false;
  const ids = JSON.stringify([...found]);
  return Q.anyInWindow.get(stats.store, { ids, from: t.from, to: t.to })!.n === 0;
}

/**
 * A long query none of whose sessions holds every word, matched again with each word the
 * history holds nowhere spelt as it writes it (lib/search/spelling.ts): kept only when
 * sessions hold the corrected words with the others (a literal match); else the relevance
 * tier ranks the query as corrected (lib/search/spelling.ts leaves a question's own words
 * alone: they are no typos, and relevance reads their related words).
 */
function respeltLong(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  fixes: Fix[],
): LadderResult | undefined {
  if (!fixes.length) return undefined;
  const q = respeltQuery(parsed, query, fixes);
  const formed = fixes.some((x) => !x.spelt);
  const sub = ladder(stats, q.parsed, q.query, f, rootOf, formed ? "forms" : "exact");
  if (sub.tier === "none") return undefined;
  // Only the sessions holding every word as corrected: one guess at a time (trial 16: those
  // relevance put beside them, lacking a corrected word, were listed as its matches).
  if (sub.widened?.tier === "relevance") {
    for (const id of sub.widened.ids) sub.scores.delete(id);
    if (!sub.scores.size) return undefined;
    return { ...sub, widened: undefined, spelt: fixes };
  }
  return { ...sub, spelt: fixes };
}

/**
 * A long query no session holds as typed, matched again with each word in its forms, kept
 * only when an event holds them all together: a sentence typed back with one word in another
 * form (trial 16: `you didnt successfully pushed all of the work previously onto my github`,
 * a prompt that says `push`, ranked third by relevance, exit 1). Only the sessions with such
 * an event are kept; words the forms find only scattered are left to relevance, as before.
 */
function formsTogether(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
): LadderResult | undefined {
  const sub = ladder(stats, parsed, query, f, rootOf, "together");
  if (sub.tier === "none" || !sub.changes.length) return undefined;
  // Only the sessions holding the words together: one scattering them in forms over a
  // marathon outranked the prompt typed back.
  for (const [id, score] of sub.scores) if (score.spread) sub.scores.delete(id);
  if (!sub.scores.size) return undefined;
  return { ...sub, widened: undefined };
}

/**
 * A long query's sessions holding its words in other forms in one event (`formed`), with
 * the sessions holding them as typed but scattered over their events listed after them
 * (trial 27: `which vscode extensions should I remove` dropped the session holding every
 * word as typed, which then came back only as a neighbour by relevance, "some of the words").
 */
function withScattered(
  formed: LadderResult,
  scattered: Map<number, SessionScore>,
): LadderResult {
  if (ABLATE.scattered) return formed;
  const ids = new Set([...scattered.keys()].filter((id) => !formed.scores.has(id)));
  if (!ids.size) return formed;
  for (const id of ids) formed.scores.set(id, scattered.get(id)!);
  return { ...formed, widened: { ids, tier: "stemmed", below: true } };
}

/**
 * A short query's sessions holding its words as typed but scattered (`scattered`, matched by
 * `alts`), with those holding them in other forms in one event (`formed`) listed after them.
 */
function formedAfter(
  formed: LadderResult,
  scattered: Map<number, SessionScore>,
  alts: string[][][],
): LadderResult {
  const ids = new Set([...formed.scores.keys()].filter((id) => !scattered.has(id)));
  if (!ids.size) return { tier: "exact", scores: scattered, alts, changes: [] };
  const scores = new Map(scattered);
  for (const id of ids) scores.set(id, formed.scores.get(id)!);
  const widened = { ids, tier: "stemmed" as const, below: true, aboveAlts: alts };
  return { tier: "exact", scores, alts: formed.alts, changes: formed.changes, widened };
}

/** Tokens of a prompt short enough that holding a query's words is no chance (`withForms`). */
const SHORT_PROMPT = 24;
/** A span of tokens holding every word of a query as typed: no chance either (`withForms`). */
const NEAR = 24;

/** Relevance candidates that join a long query's scattered matches. */
const COMPETE = 20;
/** The share of the query's IDF weight one event of such a candidate holds at least. */
const TOGETHER = 0.5;

/**
 * A long query's exact matches when every one only scatters its words over a
 * session, with the relevance tier's best {@link COMPETE} sessions that
 * hold most of it ({@link TOGETHER}) in one event beside them, all ranked as exact matches are (by the words as typed, a session
 * holding them together in one event lifted): a question's extra words do not
 * push out the session that holds most of them in one prompt. The sessions
 * only relevance found are listed in `widened`.
 */
function withRelevance(
  stats: TermStats,
  parsed: ParsedQuery,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
  exact: LadderResult,
): LadderResult {
  const rel = relevanceOf(stats, parsed, query, f, rootOf);
  const ids = new Set<number>();
  const best = [...rel.scores.values()].sort((a, b) => b.score - a.score);
  for (const s of best) {
    if (ids.size >= COMPETE) break;
    if (exact.scores.has(s.sessionId)) continue;
    if ((rel.together.get(s.sessionId) ?? 0) < TOGETHER) continue;
    ids.add(s.sessionId);
    exact.scores.set(s.sessionId, s);
  }
  return ids.size ? { ...exact, widened: { ids, tier: "relevance" } } : exact;
}

/**
 * Quotes typed as phrase syntax: one line, a quoted span standing alone
 * between spaces (a pasted traceback's `File "/srv/app/main.py", line 7`
 * quotes what changes from run to run, and is matched by its signature).
 */
const TYPED_QUOTES = /^[^\n]*(?:^|\s)"[^"\n]+"(?:\s|$)[^\n]*$/;

/**
 * The sessions (filed under their root) holding every quoted phrase of the
 * query, or undefined when it has none typed as phrases. A quoted id (a
 * token with a digit: `"forgejo-7c9b8d6e5-x2kqp"`, a hash, a number) is what
 * changes between two runs of a pasted error: the error tier matches it by
 * its signature, not as a phrase.
 */
function withPhrases(
  stats: TermStats,
  query: string,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
): Set<number> | undefined {
  const quoted = parsed.parts.filter((p) => p.quoted && !p.tokens.some((t) => /\d/.test(t)));
  if (!quoted.length || !TYPED_QUOTES.test(query)) return undefined;
  const exprs = quoted.map((p) => ftsAny(phraseSpellings(p.tokens)));
  const weights = quoted.map((p) => Math.min(...p.tokens.map((t) => stats.docs(t))));
  const sp = spreadMatch(stats.store, exprs, weights, f, 20_000);
  return new Set([...sp.sessions.keys()].map(rootOf));
}

/**
 * Event-level AND, and when it finds few sessions, the session-level AND
 * beside it: every literal tier ranks its words as the exact tier ranks them
 * (several corrected typos may sit in different events of the session). With
 * `confirm`, nothing matches unless some event holds every term; with `together`, only the
 * sessions with such an event match (no session-level AND).
 */
function literalMatch(
  stats: TermStats,
  alts: string[][][],
  f: Filters,
  rootOf: (id: number) => number,
  confirm = false,
  together = false,
  /** Terms (indexes in `alts`) one event must hold together, the others anywhere. */
  pieces?: readonly number[],
): Map<number, SessionScore> {
  const exprs = alts.map(ftsAny);
  const rows = matchRows(stats.store, exprs.join(" AND "), f, MAX_ROWS);
  const scores = scoreRows(rows, rootOf);
  // More matched than were read: a session's count is a floor (trial 32: "5000 hits" for
  // 80,000 matching results).
  if (rows.length >= MAX_ROWS) { for (const s of scores.values()) s.capped = true; }
  if (confirm && !scores.size) return scores;
  if (alts.length > 1 && scores.size < SPREAD_MIN && !ABLATE.spread && !together) {
    const weights = alts.map((a) => a.reduce((s, toks) => s + stats.docs(toks[0]), 0));
    const sp = spreadMatch(stats.store, exprs, weights, f);
    const joint = pieces && sp.sessions.size
      ? new Set(
        matchRows(stats.store, pieces.map((i) => exprs[i]).join(" AND "), f, MAX_ROWS)
          .map((r) => rootOf(r.session_id)),
      )
      : undefined;
    for (const [sid, perTerm] of sp.sessions) {
      const root = rootOf(sid);
      if (scores.has(root) || (joint && !joint.has(root))) continue;
      scores.set(root, scoreSpread(perTerm, root));
    }
  }
  return scores;
}

/**
 * At the close tier, the sessions holding none of the closest spellings of a corrected word,
 * only farther ones or its forms, to be listed below those that do (trial 121 L2:
 * `appropriatons` listed first a session holding only `Age-Appropriate`, a form of the
 * correction, above the one holding `appropriations`, one edit away); undefined when every
 * session holds the closest or none does.
 */
function closestFirst(
  stats: TermStats,
  alts: string[][][],
  changes: ReadonlyArray<{ from: string; to: string[] }>,
  scores: Map<number, SessionScore>,
  f: Filters,
  rootOf: (id: number) => number,
): { ids: Set<number>; tier: "stemmed"; below: true; aboveAlts: string[][][] } | undefined {
  const closer = new Set<string>();
  for (const c of changes) {
    const far = new Map(c.to.map((w) => [w, distance(c.from, w, 3)]));
    const best = Math.min(...far.values());
    if (best > 2 || far.size < 2) continue;
    // The closest spelling's plural or singular is that spelling too (`certificates` beside
    // `certificate` for `cettificate`: a session writing only the plural is no farther form).
    const bests = [...far].filter(([, d]) => d === best).map(([w]) => w);
    const plural = (a: string, b: string) => a === b + "s" || a === b + "es";
    for (const w of far.keys()) {
      if (bests.some((b) => w === b || plural(w, b) || plural(b, w))) closer.add(w);
    }
  }
  if (!closer.size) return undefined;
  const above = alts.map((a) => {
    const near = a.filter((toks) => toks.length === 1 && closer.has(toks[0]));
    return near.length ? near : a;
  });
  if (above.every((a, i) => a.length === alts[i].length)) return undefined;
  const rows = matchRows(stats.store, above.map(ftsAny).join(" AND "), f, MAX_ROWS);
  const holding = new Set(rows.map((r) => rootOf(r.session_id)));
  const ids = new Set([...scores.keys()].filter((id) => !holding.has(id)));
  if (!ids.size || ids.size === scores.size) return undefined;
  return { ids, tier: "stemmed", below: true, aboveAlts: above };
}

/** Some event of the exact matches `exact` holds every word of the query within {@link NEAR}. */
function nearAsTyped(
  stats: TermStats,
  parsed: ParsedQuery,
  exact: Map<number, SessionScore>,
): boolean {
  const words = parsed.parts.filter((p) => !p.quoted && p.tokens.length === 1)
    .map((p) => p.tokens[0]);
  if (words.length !== parsed.parts.length) return false;
  const held = [...exact.values()].filter((s) => !s.spread)
    .flatMap((s) => s.events.map((e) => e.row.event_id));
  if (!held.length) return false;
  const texts = Q.eventTexts.all(stats.store, { ids: JSON.stringify(held.slice(0, 50)) });
  return texts.some((t) => within(tokens(t.text), words, NEAR));
}

/** True when `toks` hold every one of `words` within a span of `span` tokens. */
function within(toks: readonly string[], words: readonly string[], span: number): boolean {
  const want = new Set(words);
  const last = new Map<string, number>();
  for (let i = 0; i < toks.length; i++) {
    if (!want.has(toks[i])) continue;
    last.set(toks[i], i);
    if (last.size === want.size && i - Math.min(...last.values()) < span) return true;
  }
  return false;
}
