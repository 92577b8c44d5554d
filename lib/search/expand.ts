/**
 * What each term may match at each tier of the fallback ladder:
 * - `exact`: the term as typed;
 * - `substring`: tokens of the index vocabulary that hold the word as an
 *   identifier or path fragment (`code` -> `opencode`, `vscode`; not `mule`
 *   -> `amulet`), for words of 3+ characters;
 * - `stemmed`: word forms (same Porter stem: `failing` -> `fails`, `failed`)
 *   and the reviewed developer synonyms (`db` -> `database`);
 * - `close`: for a word the index does not hold (4+ letters), tokens one edit
 *   away (two for words of 8+; for a word of 5 or fewer letters alone, only
 *   two letters swapped or one left out) and the tokens it is the start of (a
 *   word cut short: `recurrin` -> `recurring`), beside the word forms of the
 *   other terms; each word resolved on its own, so a misspelt word and a cut
 *   one meet (`flexbx recurrin`), and several misspelt words each find their
 *   fixes, kept where an event holds them together (`telgram fixx`). A
 *   three-letter word beside a word the history holds, or beside a typo of one
 *   (`todolst jur` -> `todolist jour`, kept only where an event holds both), is
 *   read as two letters swapped or one left out (`telegram bto` -> `bot`) when
 *   the substring tier found nothing with it (`btop`).
 *
 * A tier is declined (null) when it cannot match: a term with nothing to
 * match, no term widened beyond the previous tier, or (substring and close
 * tiers) more than half of the terms only matched by widening (a query of
 * words the history does not hold should say "nothing matched", not stretch
 * every word).
 *
 * @module
 */
import { stemmer } from "stemmer";
import { ftsTerm, GAP, type QueryTerm, STOP_WORDS } from "../query.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { tokens } from "./tokenize.ts";
import { byUse, containing, distance, docs, isCjk, near, withPrefix } from "./vocab.ts";
import { synonymsOf } from "./synonyms.ts";
import { type JoinedPair, particleCompounds, phrasalForms, writtenApart } from "./compounds.ts";
import { irregularForms, notAfter, phraseSpellings } from "./irregular.ts";
import { isEnglish } from "./english.ts";
import { ABLATE } from "./rank.ts";

/** The literal tiers, in ladder order. */
export type LiteralTier = "exact" | "substring" | "stemmed" | "close";

/** The alternatives of every term at one tier. */
export interface Expansion {
  /** Per term: what it may match (each alternative a token list: a word, or a phrase). */
  alts: string[][][];
  /**
   * Per widened term: the word as typed and what it stands for at this tier. A word the
   * history holds as typed is widened too but left out here while another word was widened
   * (`backfil loading`: only `backfil` → `backfill` is news); listed when none was.
   */
  changes: Array<{ from: string; to: string[] }>;
  /**
   * At the close tier: the words held as typed that are read in their forms beside the
   * corrected ones (`executable` beside `docekr` → `docker`), named apart from the spellings.
   */
  heldForms?: Array<{ from: string; to: string[] }>;
  /**
   * Several guessed words (close spellings not of swapped letters): the tier
   * matches only when some event holds a guess of every word together.
   */
  confirm?: boolean;
  /**
   * Two or more words read inside longer words (at the substring tier, or beside a close
   * spelling) beside words held as typed: their indexes in `alts`, which one event must hold
   * together (the others may be anywhere in the session).
   */
  pieces?: number[];
}

/** Most alternatives one term expands to. */
export const MAX_ALTS = 12;

/** Remembers document counts within one search. */
export class TermStats {
  private cache = new Map<string, number>();
  /** {@link wordForms} of each word asked (a related word is asked once per query word). */
  readonly forms = new Map<string, readonly string[]>();
  constructor(readonly store: Store) {}

  /** Events holding `token`. */
  docs(token: string): number {
    let n = this.cache.get(token);
    if (n === undefined) this.cache.set(token, n = docs(this.store, token));
    return n;
  }

  /** {@link docs} as a function (for lib/search/vocab.ts, which ranks candidates by use). */
  readonly count = (token: string): number => this.docs(token);

  /**
   * Events holding the rarest token of `toks` (a word or a phrase; {@link GAP}, the
   * word a phrase may hold between two of its tokens, aside): at most the phrase's count.
   */
  phraseDocs(toks: readonly string[]): number {
    return Math.min(...toks.filter((t) => t !== GAP).map((t) => this.docs(t)));
  }

  /** True when every token of the term occurs somewhere. */
  present(tokens: string[]): boolean {
    return tokens.every((t) => this.docs(t) > 0);
  }

  /** True when some event holds `toks` as one phrase (its words in order, side by side). */
  holds(toks: readonly string[]): boolean {
    if (!this.present([...toks])) return false;
    return toks.length < 2 ||
      Q.termSessions.get(this.store, { match: ftsTerm([...toks]), limit: 1 })!.k > 0;
  }

  /**
   * Words of session titles within `maxDist` edits of `word` (titles are not events, so
   * {@link near} never sees them), closest first; narrowed by a title LIKE on its first two
   * letters.
   */
  titleNear(word: string, maxDist: number): string[] {
    const like = `%${word.slice(0, 2).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const found = new Map<string, number>();
    for (const r of Q.titlesLike.all(this.store, { like })) {
      for (const t of tokens(r.title)) {
        if (t === word || found.has(t) || Math.abs(t.length - word.length) > maxDist) continue;
        const d = distance(word, t, maxDist);
        if (d <= maxDist) found.set(t, d);
      }
    }
    return [...found].sort((a, b) => a[1] - b[1]).map(([t]) => t);
  }

  /** True when `word` is a word of some session's title (titles are not events). */
  inTitle(word: string): boolean {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return Q.titlesLike.all(this.store, { like }).some((r) => tokens(r.title).includes(word));
  }
}

const normStem = (s: string) => s.replace(/y$/, "i");

/**
 * True when the history holds `word` somewhere: in an event, in a title, in another form
 * (`lose` where sessions say `loses`), or as a part of a name written joined (`spinner` of
 * `<CircleSpinner />`, `balancer` of `LoadBalancer`: trial 23 was told both were "in no
 * session"; {@link fragmentHolders}), or the start of an indexed word (`confirmati` of
 * `confirmation` deep in a tool result: {@link completions}; trial 121 H1). What "in no session" means wherever deja says so
 * (`deja search`'s absent words, `ctx`'s refusal).
 */
export function heldAnywhere(stats: TermStats, word: string): boolean {
  return stats.docs(word) > 0 || stats.inTitle(word) ||
    wordForms(stats, word).some((v) => v !== word) ||
    (word.length >= 4 && /^[a-z]+$/.test(word) &&
      (fragmentHolders(stats, word).length > 0 || completions(stats, word).length > 0));
}

/**
 * True when tokens typed with separators may be one name written joined (`on_click` ->
 * `onclick`): it starts with a letter and holds one number at most. Numbers joined are no
 * name (`2.3.1` is no `231`, `10.0.0.1` no `10001`, trial 17).
 */
export function joinableName(toks: readonly string[]): boolean {
  return /[a-z]/.test(toks[0] ?? "") && toks.filter((t) => /^\d+$/.test(t)).length <= 1;
}

/**
 * Words of the vocabulary with the same stem as `word` (itself included when
 * indexed). A word whose `-er` the stemmer cut (`limiter`, `exporter`,
 * `registered`) keeps only the forms that spell it (`limiters`, not `limit`):
 * the thing that does something is not the doing.
 */
export function wordForms(stats: TermStats, word: string): readonly string[] {
  let forms = stats.forms.get(word);
  if (!forms) stats.forms.set(word, forms = findForms(stats, word));
  return forms;
}

/**
 * The regular inflections of `base`: `-s`, `-es`, `-ed`, `-ing`, a final `e` dropped or a
 * last consonant doubled before them (`add`: `adds`, `added`, `adding`). The stemmer cuts a
 * short word's double letter (`adding` -> `ad`, `add` -> `add`), so these are told apart
 * from its stems (trial 16: `adding`, `added` never found `add`).
 */
function inflections(base: string): string[] {
  if (base.length < 3 || !/^[a-z]+$/.test(base)) return [];
  // `-es` after a hissing sound or an `o` (`pushes`, `goes`): `notes` is no form of `not`.
  const out = [base + "s", ...(/(?:s|x|z|ch|sh|o)$/.test(base) ? [base + "es"] : [])];
  // One syllable ending in a vowel and a consonant doubles it (`hop`: `hopped`, so `hoped` is
  // of `hope`, and `noted` no form of `not`).
  const doubles = /^[^aeiou]*[aeiou][bdgklmnprtv]$/.test(base);
  if (doubles) out.push(base + base.at(-1) + "ed", base + base.at(-1) + "ing");
  else out.push(base + "ed", base + "ing");
  if (base.endsWith("e")) out.push(base + "d", base.slice(0, -1) + "ing");
  return out;
}

/** Words `word` may be a regular inflection of (`adding` -> `add`, `making` -> `make`). */
function bases(word: string): string[] {
  const m = /^([a-z]{2,}?)(?:ing|ed|es|s)$/.exec(word);
  if (!m) return [];
  const b = m[1];
  const out = [b, b + "e"];
  if (b.length >= 3 && b.at(-1) === b.at(-2)) out.push(b.slice(0, -1));
  return out.filter((x) => x.length >= 3 && x !== word && inflections(x).includes(word));
}

/** The endings of an adjective made with `-able`/`-ible` and of its nouns, after the stem. */
const ABLE = /^[ai]b(?:le|les|ly|ility|ilities)$/;

function findForms(stats: TermStats, word: string): string[] {
  if (/^\d+$/.test(word) || word.length < 3) return stats.docs(word) ? [word] : [];
  const raw = stemmer(word);
  const agent = word.startsWith(raw + "er") ? raw + "er" : undefined;
  // Nor is a verb made with `-ize` (`authorize`, `normalize`, `tokenize`) the word it was made
  // from, which the stemmer leaves: its forms keep the `-iz`/`-is` (`authorization`, not
  // `author`, `authority`: trial 118 F4 listed sessions holding only "Co-Authored-By").
  // So with the adjectives made with `-able`/`-ible` and their nouns (`responsibility`,
  // `accountable`, `resumable`): their forms keep the `-ab`/`-ib` (`responsible`, not
  // `response`), and a word without it takes none that has it (`account` is no
  // `accountability`: trial 121 H3 listed sessions holding only "response", "account").
  const made = /^i[zs](?:e|es|ed|ing|ation|ations)$/.test(word.slice(raw.length))
    ? [raw + "iz", raw + "is"]
    : ABLE.test(word.slice(raw.length))
    ? [raw + word[raw.length] + "b"]
    : undefined;
  const able = (w: string) => ABLE.test(w.slice(raw.length)) && w.startsWith(raw);
  const s = normStem(raw);
  // A word's regular inflections and bases are its forms whatever the stemmer makes of them.
  // Only a base the history holds lends its other inflections (`rolled`: `rol` is none, so no
  // `roles`).
  const held = bases(word).filter((b) => stats.docs(b) > 0);
  const regular = new Set([...inflections(word), ...held]);
  for (const b of held) for (const w of inflections(b)) regular.add(w);
  regular.delete(word);
  const cands = new Set<string>([word, s, s + "e", s + "s", ...regular]);
  const prefixes = [s];
  if (s.endsWith("i")) prefixes.push(s.slice(0, -1) + "y");
  for (const p of prefixes) {
    if (p.length < 3) continue;
    for (const w of withPrefix(stats.store, p)) if (w.length <= p.length + 7) cands.add(w);
  }
  const irregular = new Set(irregularForms(word));
  for (const w of irregular) cands.add(w);
  const same = [...cands].filter((w) =>
    w === word || irregular.has(w) || (regular.has(w) && stats.docs(w) > 0) ||
    (normStem(stemmer(w)) === s && (!agent || w.startsWith(agent)) &&
      (made ? made.some((m) => w.startsWith(m)) : !able(w)))
  );
  return byUse(stats.count, same, MAX_ALTS);
}

function formsAndSynonyms(stats: TermStats, word: string): string[] {
  // A stop word is no form to match: every event holds one (trial 24: `thing` read as `the`,
  // a base by the rule of `making` -> `make`, listed 28 sessions holding only `the`; `used`
  // as `us`). (The relevance tier reads a word's forms as they are: measured, held-out
  // paraphrases moved by ±2 a seed either way.)
  const out = new Set(wordForms(stats, word).filter((w) => w === word || !STOP_WORDS.has(w)));
  // A past form the history never writes as the compound of its verb (`timed` -> `timeout`).
  for (const c of particleCompounds(stats, word, wordForms, MAX_ALTS - out.size)) out.add(c);
  const syn = new Set<string>(synonymsOf(word));
  for (const f of out) for (const x of synonymsOf(f)) syn.add(x);
  for (const x of syn) {
    if (out.size >= MAX_ALTS) break;
    // A synonym lends its inflections, not its stem's other words: the stemmer makes
    // `authorization` and `author`, `authority` one stem, and `auth` read `author` in 4 of
    // its 11 sessions (trials 25 and 27).
    const forms = ABLATE.synonymStems
      ? wordForms(stats, x)
      : wordForms(stats, x).filter((f) => f === x || inflections(x).includes(f));
    for (const f of forms) out.add(f);
    if (stats.docs(x)) out.add(x);
  }
  return [...out].slice(0, MAX_ALTS);
}

/**
 * Indexed tokens that `word` (4+ letters, not itself indexed) is the start of:
 * the word cut short. At most {@link MAX_ALTS}, most used first.
 */
export function completions(stats: TermStats, word: string): string[] {
  return byUse(stats.count, withPrefix(stats.store, word).filter((w) => w !== word), MAX_ALTS);
}

/**
 * A fragment of a path or identifier cut mid-token (`kout/refreshSess`): the
 * token phrases it may be part of — its first token the end of an indexed
 * token, its last the start of one, the tokens between as typed — that some event holds
 * as one phrase, at most {@link MAX_ALTS}, most used first; empty when none.
 */
export function fragmentOf(stats: TermStats, toks: string[]): string[][] {
  const first = toks[0];
  const last = toks[toks.length - 1];
  if (!toks.slice(1, -1).every((m) => stats.docs(m) > 0)) return [];
  const ends = (stats.docs(first) ? [first] : []).concat(
    first.length >= 3
      ? containing(stats.store, first, 50, stats.count).filter((w) => w.endsWith(first))
      : [],
  );
  const starts = (stats.docs(last) ? [last] : []).concat(
    last.length >= 2 ? byUse(stats.count, withPrefix(stats.store, last), MAX_ALTS) : [],
  );
  const out: string[][] = [];
  for (const a of ends.slice(0, MAX_ALTS)) {
    for (const b of starts) {
      if (out.length >= MAX_ALTS) break;
      if (a === first && b === last) continue;
      const phrase = [a, ...toks.slice(1, -1), b];
      if (stats.holds(phrase)) out.push(phrase);
    }
  }
  return out;
}

/** Words of at most this many letters get a close spelling only by a swap when alone. */
export const SHORT = 5;

/**
 * True when `word` holds a digit that makes it no typo to correct: a version, a hash, an id.
 * A name's leading one or two digits before five letters or more (`1password`, `3dprinter`)
 * do not (trial 53: `1pasword` found nothing while `pasword` found 1Password's session).
 */
export function hasDigits(word: string): boolean {
  return /\d/.test(word) && !/^\d{1,2}[a-z]{5,}$/.test(word);
}

/** True when `b` is `a` with one letter put back (`servr` -> `server`): the usual typo. */
export function dropped(a: string, b: string): boolean {
  if (b.length !== a.length + 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i) === b.slice(i + 1);
}

/**
 * The close spellings of `word` (4+ letters, no digit ({@link hasDigits}), not indexed), most used first among
 * the closest: one edit away (two for words of 8+). A short word alone is one edit from many
 * others (`pony` -> `pong`, `cafe` -> `case`): alone (`short`), only two letters swapped or
 * one letter left out is read as its typo; beside other words the combination has to exist
 * too.
 */
export function spellings(stats: TermStats, word: string, short: boolean): string[] {
  // Two edits away, a word that starts otherwise is another word, not its typo (trial 57:
  // `keyerror` was read as `seterror`): people rarely mistype a first letter, and two edits
  // there remake a word's first part.
  // Nor is a word two edits away at its end its typo: that is another word of the same start
  // (trial 121 H2: `multiplexe` was read as `multiple`, `changelo` as `changes`).
  const close = near(stats.store, word, word.length >= 8 ? 2 : 1, 8, stats.count)
    .filter((w) => w[0] === word[0] || distance(word, w, 1) <= 1)
    .filter((w) => distance(word, w, 1) <= 1 || sharedStart(word, w) < word.length - 2);
  if (short) return close.filter((w) => swapped(word, w) || dropped(word, w));
  // Where nothing is one edit away, a typo in a form the history does not hold is read in the
  // forms it does (`crahsing`: `crash`, `crashes`, not `causing`, two edits away).
  if (!close.some((w) => distance(word, w, 1) <= 1)) {
    const formed = formSpellings(stats, word);
    if (formed.length) return formed;
  }
  return close;
}

/** How many first letters `a` and `b` share. */
function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** Endings a typo's stem is read without ({@link formSpellings}), longest first. */
const TYPO_ENDINGS = ["ing", "ed", "es", "s"];

/**
 * The forms the history holds of `word` spelt right, where the typo is in its stem: the stem
 * before a regular ending (4+ letters) one edit from a word whose form with that ending the
 * history holds in other forms (`crahsing` -> `crahs` -> `crash` -> `crashing`, held as
 * `crash`, `crashes`); most used first, empty when none.
 */
function formSpellings(stats: TermStats, word: string): string[] {
  for (const end of TYPO_ENDINGS) {
    if (!word.endsWith(end) || word.length - end.length < 4) continue;
    const stem = word.slice(0, -end.length);
    const out = new Set<string>();
    for (const fixed of near(stats.store, stem, 1, 8, stats.count)) {
      if (fixed[0] !== stem[0]) continue;
      for (const f of wordForms(stats, fixed + end)) out.add(f);
      if (stats.docs(fixed + end)) out.add(fixed + end);
    }
    if (out.size) return byUse(stats.count, [...out], 8);
  }
  return [];
}

/**
 * True when a word the history lacks is better read as a typo of a far more used word
 * (`sever` -> `server`) than as what `list` widens it to at the substring or stemmed tier
 * (`several`): the close tier is left to correct it.
 */
function typoFirst(
  stats: TermStats,
  terms: QueryTerm[],
  t: QueryTerm,
  word: string,
  list: string[],
): boolean {
  if (word.length < 4 || hasDigits(word) || stats.docs(word) || !list.length) return false;
  if (!ABLATE.english && isEnglish(word)) return false;
  if (t.prefix || pieceOf(word, list)) return false;
  const fix = spellings(stats, word, word.length <= SHORT && !anchored(stats, terms, t))[0];
  return fix !== undefined && stats.docs(fix) > Math.max(...list.map((w) => stats.docs(w)));
}

/** A piece this long of a longer word is read as that word, never as a typo of another. */
const PIECE = 6;

/**
 * True when `word` ({@link PIECE}+ letters) is the start of a longer word of `list`, or
 * inside one: a piece of that word, not a typo of one spelt close
 * (trial 121 H2: `postgre` was read as `posture` beside `postgres`, `confirmat` as
 * `configmap`, `propriate` as `propagate`).
 */
function pieceOf(word: string, list: readonly string[]): boolean {
  return word.length >= PIECE && list.some((w) => w.length > word.length && w.includes(word));
}

/**
 * True when the stemmed tier's widening of `from` to `to` is a spelling fix, not a word
 * form: the history does not hold `from`, and one of `to` is one edit from it inside the
 * word, its last letter the same (`kubernets` -> `kubernetes`, `indexs` -> `indexes`, whose
 * Porter stems agree by chance), or two neighbouring letters swapped (`flxu` -> `flux`, trial
 * 83 F10: named a word form); a form differs at its end (`fails` -> `fail`, `deployed` ->
 * `deploy`).
 */
export function isSpellingFix(stats: TermStats, from: string, to: readonly string[]): boolean {
  if (stats.docs(from) > 0) return false;
  return to.some((w) =>
    (w.at(-1) === from.at(-1) && distance(from, w, 1) === 1) || swapped(from, w)
  );
}

/** True when `b` is `a` with two neighbouring letters swapped. */
export function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] &&
    a[diff[1]] === b[diff[0]];
}

/**
 * True when the longer words `list` reads `word` inside hold a name the history writes
 * joined (no dictionary word: `authorizewithynab` for `withyn`, `redirecturi` for
 * `redirectu`) and `word` is long enough to be a piece of one ({@link INSIDE}): that name is
 * what was typed a piece of, before any close spelling (trial 118 F2: `withYN` was read as
 * `within`, a word one edit away used far more). A shorter word's name may hold it by chance.
 */
function heldInName(stats: TermStats, word: string, list: readonly string[]): boolean {
  if (word.length < INSIDE) return false;
  // At a name's start, the word is a word of the history and the start of another
  // (`redirectu`: `redirect` and `uri`), not a word cut short (`recurrin` of `recurring`).
  const named = (w: string) =>
    !w.startsWith(word) ||
    [1, 2].some((n) =>
      stats.docs(w.slice(0, word.length - n)) > 0 && stats.docs(w.slice(word.length - n)) > 0
    );
  return list.some((w) => w.length > word.length && !isEnglish(w) && named(w));
}

/**
 * The longer words the substring tier reads `word` (one the history lacks) inside, unless a
 * close spelling reads it better ({@link typoFirst}); empty when none.
 */
function fragmentsFirst(stats: TermStats, terms: QueryTerm[], t: QueryTerm, word: string) {
  if (stats.docs(word) > 0) return [];
  const inside = fragmentHolders(stats, word);
  if (!inside.length) return [];
  return heldInName(stats, word, inside) || !typoFirst(stats, terms, t, word, inside) ? inside : [];
}

/**
 * True when another term than `t` is held by the history as typed, in a word form
 * (`deployed` where it says `deploy`), or is a word cut short.
 */
function anchored(stats: TermStats, terms: QueryTerm[], t: QueryTerm): boolean {
  return terms.some((o) =>
    o !== t && (stats.present(o.tokens) ||
      (o.tokens.length === 1 && o.tokens[0].length >= 4 &&
        (completions(stats, o.tokens[0]).length > 0 || wordForms(stats, o.tokens[0]).length > 0)))
  );
}

/**
 * True when the close tier guesses a spelling for `word` (not indexed, no digit ({@link hasDigits})): 4+ letters,
 * or three beside a word the history holds (`telegram bto` -> `bot`; `bto` alone is left to
 * the substring tier first) or beside a typo of one ({@link besideTypo}: `todolst jur` ->
 * `todolist jour`), or three whose two neighbouring letters swapped spell an indexed
 * word (`pfd` -> `pdf`, one edit however short the word).
 */
function mayGuess(stats: TermStats, terms: QueryTerm[], t: QueryTerm, word: string): boolean {
  if (hasDigits(word) || word.length < 3) return false;
  // A common English word is the word meant (`kitten` is no `bitten`: lib/search/english.ts).
  if (!ABLATE.english && isEnglish(word)) return false;
  return word.length >= 4 || anchored(stats, terms, t) || swapFixes(stats, word).length > 0 ||
    besideTypo(stats, terms, t);
}

/**
 * True when another term than `t` is a word of 4+ letters the history lacks that the close
 * tier corrects (a close spelling, or the start of a held word): a three-letter word beside
 * it is guessed too, the two corrections kept only where one event holds them together
 * (trial 125 F3: `todolst jur` found nothing, where `todolist jur` and `todolst jour` were
 * each corrected: only a word held as typed let `jur` be read as `jour`).
 */
function besideTypo(stats: TermStats, terms: QueryTerm[], t: QueryTerm): boolean {
  return terms.some((o) => {
    if (o === t || o.quoted || o.tokens.length !== 1) return false;
    const w = o.tokens[0];
    if (w.length < 4 || hasDigits(w) || stats.docs(w) > 0) return false;
    if (!ABLATE.english && isEnglish(w)) return false;
    return completions(stats, w).length > 0 || spellings(stats, w, false).length > 0;
  });
}

/** Indexed words that are `word` with two neighbouring letters swapped (`pfd` -> `pdf`). */
function swapFixes(stats: TermStats, word: string): string[] {
  if (hasDigits(word) || stats.docs(word)) return [];
  return near(stats.store, word, 1, 8, stats.count).filter((w) => swapped(word, w));
}

/** A fragment this long is read inside a longer word anywhere, not only at its ends or parts. */
const INSIDE = 6;

/**
 * Indexed tokens holding `word` as an identifier or path fragment, most used
 * first: at the start of the token, at its end after a word or two letters at most
 * (`code` -> `opencode`, `vscode`), or between two words of 3+ characters (`refresh` in
 * `tokenrefreshhandler`); a word is one the history holds or a common English one. A
 * shorter word not inside another word (`mule` in `amulet`, `pet` in `snippet`) nor
 * inside a random id (`yak` in `01kjyakes72aj...`); one of {@link INSIDE} letters or
 * more anywhere (`nicato` in `frobnicatorx`, trial 11: `--re` found it, the fallback
 * did not). Never inside a common English word, which is one word (`ice` in `service`,
 * `led` in `failed`), and at its start only for a word that is not one itself (`sing`
 * is not read in `single`; trial 24 was shown `pet -> snippet`, `ice -> service`).
 * Measured (`bench:recall --per-kind 60 --no-binary`, seeds 11/3/7): no kind moved.
 */

function fragmentHolders(stats: TermStats, word: string): string[] {
  /** A part of a name: a word of 3+ letters the history holds, or an English one. */
  const piece = (p: string) => (p.length >= 3 && stats.docs(p) > 0) || isEnglish(p);
  return containing(stats.store, word, 50, stats.count).filter((tok) => {
    // A dictionary word is one word, not a name holding this one (`service` of `ice`);
    // one starting with it is read only for a word that is no word of its own (`auth` of
    // `authentication`, not `sing` of `single`).
    const dictionary = !ABLATE.fragmentWords && isEnglish(tok);
    if (tok.startsWith(word)) return !dictionary || !isEnglish(word);
    // A piece of {@link INSIDE}+ letters that is no word itself is read inside one too
    // (`propriate` of `appropriate`, trial 121 H2: it was read as `propagate`).
    if (dictionary) return word.length >= INSIDE && !isEnglish(word);
    // Written without spaces, a CJK word is inside a token anywhere (trial 30: `配置文件` in
    // `我们修复了配置文件的错误` was not found).
    if (word.length >= INSIDE || isCjk(word)) return true;
    const at = tok.indexOf(word);
    const before = tok.slice(0, at), after = tok.slice(at + word.length);
    // At the end, what comes before is a word of its own or a prefix of two letters at
    // most (`open` of `opencode`, `vs` of `vscode`; not `snip` of `snippet`, trial 24).
    if (!after) return ABLATE.fragmentWords || before.length <= 2 || piece(before);
    return piece(before) && piece(after);
  }).slice(0, MAX_ALTS);
}

/**
 * A phrase of words (an identifier's parts, `zorblt count` of `zorblt_count`)
 * with each word the history lacks spelt as it spells a close one (4+ letters,
 * two guesses at most each), the others as typed: at most {@link MAX_ALTS}
 * phrases, none when a word has no close spelling (trial 11: a misspelt
 * snake_case name found nothing, where the same words typed apart were
 * corrected).
 */
function speltPhrases(stats: TermStats, toks: string[]): string[][] {
  const choices = toks.map((w) =>
    stats.docs(w) > 0 ? [w] : w.length >= 4 ? spellings(stats, w, false).slice(0, 2) : []
  );
  if (choices.some((c) => !c.length) || choices.every((c, i) => c[0] === toks[i])) return [];
  let out: string[][] = [[]];
  for (const c of choices) out = out.flatMap((p) => c.map((w) => [...p, w])).slice(0, MAX_ALTS);
  return out;
}

/** Most phrases of a quoted phrase's words in other forms looked up ({@link phraseWidened}). */
const MAX_PHRASE_TRIES = 64;

/**
 * A quoted phrase no event holds as typed, read with its words in other forms (`stemmed`:
 * `"kubernetes yamls"` as `kubernetes yaml`) or, at the close tier, its words the history
 * holds nowhere also spelt as it writes them or completed (`"forgejo keps going down"` as
 * `forgejo keeps going down`, `"in the radar directory"` as `in the radarr directory`): only
 * the phrases some event holds contiguously, so a phrase stays one at every tier (trial 118
 * F3: a typo or another form in quotes found nothing). The words the history lacks are varied
 * first, every word's forms only when that finds none; a stop word stays as typed.
 */
function phraseWidened(stats: TermStats, toks: string[], tier: LiteralTier): string[][] {
  if (tier !== "stemmed" && tier !== "close") return [];
  const fixed = (w: string) => STOP_WORDS.has(w) || hasDigits(w) || isCjk(w);
  const respelt = (w: string): string[] => {
    if (tier !== "close" || fixed(w) || w.length < 4) return [];
    const picked = spellings(stats, w, false).slice(0, 3);
    return [
      ...picked,
      ...completions(stats, w).slice(0, 3),
      ...picked.flatMap((x) => wordForms(stats, x)),
    ];
  };
  const choicesOf = (all: boolean) =>
    toks.map((w) => {
      const held = stats.docs(w) > 0;
      if (fixed(w) || (held && !all)) return [w];
      const forms = wordForms(stats, w).filter((f) => !STOP_WORDS.has(f));
      const out = [...new Set([...(held ? [w] : []), ...forms, ...(held ? [] : respelt(w))])];
      return out.filter((x) => stats.docs(x) > 0).slice(0, 6);
    });
  for (const all of [false, true]) {
    const choices = choicesOf(all);
    if (choices.some((c) => !c.length)) continue;
    let combos: string[][] = [[]];
    for (const c of choices) {
      combos = combos.flatMap((p) => c.map((w) => [...p, w])).slice(0, MAX_PHRASE_TRIES);
    }
    const found = combos.filter((p) => p.some((w, i) => w !== toks[i]) && stats.holds(p));
    if (found.length) return found.slice(0, MAX_ALTS);
  }
  return [];
}

/** Most words a name typed joined is read as ({@link splitWords}). */
const MAX_PARTS = 6;

/** Fewest letters of each word a name typed joined is read as (`ms` of `maxRetryBackoffMs`). */
const MIN_PART = 2;

/**
 * Shortest word read as words written apart: five letters, two words of two letters or more
 * beside three (trial 22: `dotai`, for the `dot-ai` the history writes, found nothing at six).
 */
const SPLIT_MIN = 5;

/**
 * A word the history lacks read as words it holds written apart (`zorblatcount`,
 * `zorblatCountTotal`, `maxRetryBackoffMs`, typed as one or in camelCase, where the
 * history wrote `zorblat_count`, `zorblat_count_total`, `max_retry_backoff_ms`): the
 * splits into two to {@link MAX_PARTS} words of {@link MIN_PART} letters or more that
 * some event holds as one phrase, fewest words first, then longest first word, at most
 * {@link MAX_ALTS}. A split whose words the history holds only apart is not one (trial 12:
 * the answer listed phrases no session held). Each piece of the word is looked up once.
 */
export function splitWords(
  stats: TermStats,
  word: string,
  /** The most words of a split, and which splits are looked up as phrases at all. */
  o: { parts?: number; accept?: (split: string[]) => boolean; max?: number } = {},
): string[][] {
  const out: string[][] = [];
  const most = Math.min(MAX_PARTS, o.parts ?? MAX_PARTS);
  const max = o.max ?? MAX_ALTS;
  if (word.length > 48) return out;
  const memo = new Map<string, string[][]>();
  const cuts = (from: number, parts: number): string[][] => {
    const key = `${from}:${parts}`;
    const had = memo.get(key);
    if (had) return had;
    const rest = word.slice(from);
    const found: string[][] = [];
    if (parts === 1) {
      if (rest.length >= MIN_PART && stats.docs(rest) > 0) found.push([rest]);
    } else {
      for (let i = rest.length - MIN_PART * (parts - 1); i >= MIN_PART; i--) {
        const head = rest.slice(0, i);
        if (stats.docs(head) === 0) continue;
        for (const tail of cuts(from + i, parts - 1)) found.push([head, ...tail]);
        if (found.length >= 4 * MAX_ALTS) break;
      }
    }
    memo.set(key, found);
    return found;
  };
  // Each phrase looked up is a query of the full-text index: a bounded number of them.
  let asked = 0;
  for (let parts = 2; parts <= most && out.length < max; parts++) {
    if (word.length < MIN_PART * parts) break;
    for (const split of cuts(0, parts)) {
      if (o.accept && !o.accept(split)) continue;
      if (out.length >= max || asked++ >= 2 * MAX_ALTS) break;
      if (stats.holds(split)) out.push(split);
    }
  }
  return out;
}

/**
 * A name typed in parts (`parse_http_request_headers`, `parse-http-request`) that the
 * history writes joined (`parseHttpRequestHeaders`, indexed as one word): that word, or
 * at the substring tier the words holding the joined name ({@link fragmentHolders}), at
 * most {@link MAX_ALTS}; empty when none.
 */
function joinedWords(stats: TermStats, toks: readonly string[], inside: boolean): string[][] {
  if (toks.length < 2 || toks.includes(GAP) || toks.some((t) => !/^[a-z0-9]+$/.test(t))) return [];
  if (!joinableName(toks)) return [];
  const joined = toks.join("");
  if (stats.docs(joined) > 0) return [[joined]];
  return inside && joined.length >= INSIDE ? fragmentHolders(stats, joined).map((w) => [w]) : [];
}

/**
 * The alternatives of `terms` at `tier`, or null when the tier is declined.
 */
export function expand(
  stats: TermStats,
  terms: QueryTerm[],
  tier: LiteralTier,
  joined?: ReadonlyMap<number, JoinedPair>,
): Expansion | null {
  const alts: string[][][] = [];
  const changes: Array<Expansion["changes"][number] & { literal?: boolean }> = [];
  const heldForms: Expansion["changes"] = [];
  let widenedOnly = 0;
  /** The terms (by index in `alts`) read only inside longer words or spelt otherwise. */
  const widenedAt: number[] = [];
  /** Two words typed apart read as the one word the history writes (not a widening of the tier). */
  const joins: Expansion["changes"] = [];
  /** Words only spelt close to an indexed token (not the start of one). */
  let guesses = 0;
  /** Of those, the words no swap of two letters corrects (a weaker guess). */
  let weak = 0;
  /** At the close tier: words read inside longer words, as the substring tier reads them. */
  let fragments = 0;
  /** Their indexes in `alts`. */
  const fragmentAt: number[] = [];
  /** At the close tier: three-letter words spelt as a held word swapped or missing a letter. */
  const tinyGuessed = new Set<QueryTerm>();
  for (let ti = 0; ti < terms.length; ti++) {
    const t = terms[ti];
    // A contraction is one word spelt with or without its apostrophe (`didnt`, `didn't`): as
    // typed at the exact tier (the other tiers read both among its forms, and a phrase, the
    // cut spelling included, below).
    const ways = phraseSpellings(t.tokens);
    // `not` after a verb it contracts with: its forms are that contraction's alone.
    const neg = !t.quoted && t.tokens.length === 1 && t.tokens[0] === "not"
      ? notAfter(t.after)
      : undefined;
    if (tier === "exact" && ways.length > 1 && !t.quoted && t.tokens.length === 1) {
      const held = ways.filter((v) => stats.present(v));
      if (held.length) {
        alts.push(held);
        continue;
      }
    }
    const literal = stats.present(t.tokens);
    const word = !t.quoted && t.tokens.length === 1 ? t.tokens[0] : undefined;
    // A word the history holds as typed and also writes as two (`vscode` as `vs code`): both,
    // as typed. One it never holds whole is found written apart at the substring tier, and
    // said so (`zorblatcount`, {@link splitWords}).
    const apart = word && literal && !ABLATE.apart ? writtenApart(stats, word) : [];
    if (apart.length && tier === "exact") {
      alts.push([[word!], ...apart]);
      // Said (search narration: "also as two words"), not a widening of the tier (trial 39:
      // `NotFound` listed sessions saying "not found" and said nothing of it).
      joins.push({ from: word!, to: apart.map((a) => a.join(" ")) });
      continue;
    }
    let list: string[] = [];
    /** At the close tier: a word held as typed (its forms are not spellings to report). */
    let held = false;
    if (tier === "exact" || !word) {
      // A CJK word held alone is also inside the longer runs the index holds as one token
      // (trial 31: a message of `文件` alone hid every session with `配置文件`).
      if (literal) {
        list = word && isCjk(word) ? [word, ...fragmentHolders(stats, word)] : [word ?? ""];
      }
    } else if (t.prefix && !literal) {
      // A trailing `*` asks for the words it starts, never a close spelling nor a word form
      // (trial 121 H2: `confirmat*` was read as `configmap`): at the substring tier those the
      // vocabulary holds, at the close tier any the text index does.
      list = tier === "substring"
        ? fragmentHolders(stats, word).filter((w) => w.startsWith(word))
        : tier === "close"
        ? completions(stats, word)
        : [];
    } else if (tier === "substring") {
      // A word the history holds is read inside longer words only alone: beside another
      // word, in its own forms only (`leak` in `leaks`; trial 25: `touch redis` read `redis`
      // as `redist`, in a PATH dump beside `touchstone`, and listed no session about Redis).
      const inside = fragmentHolders(stats, word);
      list = !literal
        ? inside
        : terms.length === 1 || ABLATE.heldFragments || isCjk(word)
        ? [word, ...inside]
        : [word, ...inside.filter((w) => wordForms(stats, word).includes(w))];
      if (!heldInName(stats, word, list) && typoFirst(stats, terms, t, word, list)) return null;
    } else if (tier === "stemmed") {
      list = formsAndSynonyms(stats, word);
      if (typoFirst(stats, terms, t, word, list)) return null;
    } else if (literal || stats.inTitle(word)) {
      // A word the history holds (a title's included) is never corrected: its forms only.
      list = formsAndSynonyms(stats, word);
      held = true;
    } else if (
      wordForms(stats, word).length &&
      !typoFirst(stats, terms, t, word, [...wordForms(stats, word)])
    ) {
      // A word only its forms hold (`deployed` where the history says `deploy`) is no typo.
      list = [...wordForms(stats, word)];
    } else if (
      (list = fragmentsFirst(stats, terms, t, word)).length &&
      (heldInName(stats, word, list) || !mayGuess(stats, terms, t, word))
    ) {
      // A word the history holds only inside longer words, which is no guess (an English
      // word: `radar` of `radarr`) or a piece of a name (`withyn` of `authorizewithynab`, no
      // `within`), is read there as the substring tier reads it, beside a misspelt word
      // (trial 118 F1: `kustomizaton radar` found nothing).
      fragments++;
      fragmentAt.push(alts.length);
    } else if (mayGuess(stats, terms, t, word)) {
      // A three-letter word is one edit from too many: only swapped letters or one left out,
      // never the start of a longer word, and only beside a word the history holds.
      const tiny = word.length < 4;
      const cut = tiny ? [] : completions(stats, word);
      // A short word alone is read only as swapped or dropped letters; beside other misspelt
      // words each is corrected on its own and the corrections must meet (`confirm` below).
      const short = tiny || (word.length <= SHORT && terms.length === 1);
      // A longer word cut short is the words it starts, no typo of another (`completel`:
      // `completely`, not `completed` first; trial 121 H2).
      const picked = pieceOf(word, cut) ? [] : spellings(stats, word, short);
      // The corrected word's forms too: `crashng` -> `crashing` where a session says `crashes`
      // (a spelling fix and a word-form fix combine); a word only a title spells is corrected
      // to the forms the events hold (`crashing` titles a session whose events say `crash`).
      const spelt = picked.length || cut.length
        ? picked
        : stats.titleNear(word, word.length >= 8 ? 2 : 1)
          .filter((w) => !short || swapped(word, w));
      list = [...picked, ...cut, ...spelt.flatMap((w) => wordForms(stats, w))];
      if (tiny && list.length) tinyGuessed.add(t);
      // Every reading holds the word as typed (`sonar` as `sonarr`): a piece of a longer word.
      if (list.length && list.every((w) => w.includes(word))) fragmentAt.push(alts.length);
      if (!cut.length) guesses++;
      if (!cut.length && !picked.some((w) => swapped(word, w))) weak++;
    }
    if (!word) {
      // A phrase with a contraction in it is held spelt either way (lib/search/irregular.ts).
      const held = ways.filter((v) => stats.present(v));
      const cjk = t.tokens.length === 1 && isCjk(t.tokens[0]);
      const frag = !held.length && tier === "substring" && !t.quoted
        ? fragmentOf(stats, t.tokens)
        // Quoted, a CJK phrase is still inside the run of text that holds it, contiguous
        // there (trial 31: `"配置文件"` matched nothing where `配置文件` was found).
        : !held.length && tier === "substring" && cjk
        ? fragmentHolders(stats, t.tokens[0]).map((w) => [w])
        : [];
      // A name typed in parts that the history writes as one word, also where each part is
      // a word of the history somewhere but no event holds them as a phrase (trial 13:
      // `is_syncing_backfill_for_month` for `isSyncingBackfillForMonth`).
      if (
        !frag.length && tier === "substring" && !t.quoted && !held.some((v) => stats.holds(v))
      ) {
        frag.push(...joinedWords(stats, t.tokens, true));
      }
      // An identifier misspelt (`zorblt_count`): its words spelt as the history spells them.
      const spelt = !held.length && tier === "close" && !t.quoted
        ? speltPhrases(stats, t.tokens)
        // Quoted, no event holding it as typed: its words in other forms or spellings, still
        // contiguous ({@link phraseWidened}).
        : t.quoted && !frag.length && !ways.some((v) => stats.holds(v))
        ? phraseWidened(stats, t.tokens, tier)
        : [];
      if (!held.length && !frag.length && !spelt.length) return null;
      // Once each (trial 81: `summ pdf → 51877summ pdf, 51877summ pdf`).
      const widened = [
        ...new Map((frag.length ? frag : spelt).map((f) => [f.join(" "), f])).values(),
      ];
      if (widened.length) {
        changes.push({ from: t.tokens.join(" "), to: widened.map((f) => f.join(" ")) });
        widenedOnly++;
        widenedAt.push(alts.length);
        if (spelt.length) guesses++;
      }
      alts.push(widened.length ? widened : held);
      continue;
    }
    // `not` after a verb it contracts with is that contraction only (lib/search/irregular.ts).
    // Its forms: those spellings of one word (`didn`, `didnt`), not every contraction.
    if (neg) list = list.filter((w) => neg.includes(w));
    list = [...new Set(list)].slice(0, MAX_ALTS);
    // A compound is also its phrasal verb (`timeout` -> `timed out`), a form of the word;
    // at the substring tier too, beside a word widened to what holds it, but no widening
    // of its own there (a compound and its phrasal verb alone are the forms tier's).
    const phrases = tier === "stemmed" || (tier !== "exact" && literal)
      ? phrasalForms(stats, word, wordForms, MAX_ALTS - list.length)
      : [];
    // A word typed joined (or in camelCase) that the history writes as two: at the substring
    // tier, beside the words holding it.
    if (tier === "substring" && !literal && word.length >= SPLIT_MIN) {
      phrases.push(...splitWords(stats, word).slice(0, Math.max(0, MAX_ALTS - list.length)));
    }
    // Held as typed and written apart too (`chexmix` as `chex mix`): so at every tier, beside
    // a word widened (trial 118 F1: `chexmix sonar` found nothing, `chex mix` read only exact).
    for (const a of apart) if (phrases.length < MAX_ALTS) phrases.push(a);
    // Typed apart beside the next word or the last, where the history writes the two as one
    // (`data base` -> `database`): each of the two may be that word (lib/search/compounds.ts
    // `joinedPairs`).
    const pair = ABLATE.joinedLiteral ? undefined : joined?.get(ti);
    const wholes = pair ? pair.words.filter((w) => !list.includes(w)) : [];
    const whole = wholes[0];
    list.push(...wholes);
    if (!list.length && !phrases.length) return null;
    const others = [
      ...list.filter((w) => w !== word && !wholes.includes(w)),
      ...phrases.map((p) => p.join(" ")),
    ];
    const widens = tier === "substring"
      ? list.some((w) => w !== word && !wholes.includes(w)) || (!literal && phrases.length > 0)
      : others.length > 0;
    if (widens && !held) changes.push({ from: word, to: others, literal });
    if (widens && held) heldForms.push({ from: word, to: others });
    // Said once for the two, as typed (`data base → database`).
    if (whole && pair?.first) joins.push({ from: pair.typed, to: wholes });
    // (Held as the word the two make is no guess: `life cycle` where only `lifecycle` is held.)
    // (Nor is a CJK word read inside the run of text that holds it: its script has no spaces.)
    if (!literal && !(whole && list.length === wholes.length) && !isCjk(word)) {
      widenedOnly++;
      widenedAt.push(alts.length);
    }
    alts.push([...list.map((w) => [w]), ...phrases]);
  }
  if (tier !== "exact" && !changes.length) return null;
  // Word forms are the same words; a substring or a close spelling is a guess. At most
  // one close spelling beside words cut short is read as the user typed it (one typo).
  // Several close spellings at once are kept when each misspelt word is long enough to
  // guess (4+ letters, as close spellings are looked up) and the query is short; unless
  // each is two letters swapped, some event must hold the corrections together (then
  // they rank session-level, as the corrected query does).
  // Several words read only inside longer words (`radar jacket` for `radarr`, `jackett`;
  // `issyncing backfillform` of `isSyncingBackfillForMonth`) match where some event holds
  // them together: the combination that exists, not every word stretched apart (trial 118
  // F1: they were declined, and "nothing matched"). At the close tier they count as guesses.
  let confirm = false;
  if (
    tier !== "stemmed" && terms.length > 1 && widenedOnly > Math.ceil(terms.length / 2) &&
    !(tier === "close" && !fragments && guesses <= 1 && terms.length <= 4)
  ) {
    const guessable = (tier === "close" || tier === "substring") && terms.length <= 4 &&
      terms.every((t) =>
        stats.present(t.tokens) || (t.tokens[0]?.length ?? 0) >= 4 || tinyGuessed.has(t) ||
        (t.tokens.length === 1 && !t.quoted && swapFixes(stats, t.tokens[0]).length > 0)
      );
    if (!guessable) return null;
    confirm = tier === "substring" || weak > 0 || fragments > 0;
  }
  if (
    tier === "close" && !changes.some((c) => !c.to.includes(c.from) && stats.docs(c.from) === 0)
  ) {
    return null;
  }
  // Two or more read inside longer words beside more words held as typed (`mathbal
  // originitem budget`): the pieces too match only where one event holds them together, as
  // alone (trial 128 F8: a third word held anywhere listed a session holding the two pieces
  // only in different events, exit 0, where the two alone matched nothing, exit 1).
  const at = tier === "substring" ? widenedAt : tier === "close" ? fragmentAt : [];
  const pieces = !confirm && at.length >= 2 ? at : undefined;
  const said = [...shown(changes), ...joins];
  return {
    alts,
    changes: said,
    ...(confirm ? { confirm } : {}),
    ...(pieces ? { pieces } : {}),
    ...(tier === "close" && heldForms.length ? { heldForms } : {}),
  };
}

/** The changes to report: those of words not held as typed, or all when every word was. */
function shown(
  changes: Array<Expansion["changes"][number] & { literal?: boolean }>,
): Expansion["changes"] {
  const news = changes.filter((c) => !c.literal);
  return (news.length ? news : changes).map(({ from, to }) => ({ from, to }));
}
