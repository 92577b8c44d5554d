/**
 * Words a query spells wrong where no tier corrects them word by word: a long
 * query (lib/search/ladder.ts `isLong`) is matched whole, never widened per
 * word, so `Which MCP servers you are conected` found nothing; and a title
 * holding every word once one is corrected was looked for only after the
 * close-spellings tier matched events (`Getting Startd and Introductions`,
 * whose `introductions` only a title holds). Each such word is corrected on
 * its own; the ladder keeps a long query's corrections where sessions hold
 * them together with the other words, else ranks it by relevance as corrected
 * where an event holds a correction beside a rarer word of the query
 * (lib/search/ladder.ts `respeltLong`, `metFixes`).
 *
 * A word is corrected only when the history holds it nowhere: in no event nor
 * title, in no form, and it is no common English word (lib/search/english.ts)
 * nor a word of the thesaurus or the synonym groups (a question in other words
 * names things the history never wrote: `basket` is no typo of `bucket`, and
 * the relevance tier reads its related words instead). Beside such a word, one
 * the history holds only in other forms is read in them.
 *
 * @module
 */
import type { ParsedQuery, QueryTerm } from "../query.ts";
import {
  completions,
  hasDigits,
  MAX_ALTS,
  SHORT,
  spellings,
  swapped,
  type TermStats,
  wordForms,
} from "./expand.ts";
import { byUse } from "./vocab.ts";
import { relatedTo } from "./related.ts";
import { isEnglish } from "./english.ts";
import { ABLATE } from "./rank.ts";
import { synonymsOf } from "./synonyms.ts";

/** A word as typed and its close spellings, most used first. */
export interface Fix {
  from: string;
  to: string[];
  /** A spelling (true), or absent: a word held only in other forms, its forms. */
  spelt?: boolean;
}

/**
 * The close spellings of every word of `terms` the history holds nowhere (see
 * the module doc): one edit away (two for words of 8+ letters) among the
 * events' words, else the words it is the start of, else a title's words.
 * Empty unless every other term is held as typed (by an event or a title) or
 * in other forms (then listed with its forms, most used first), and every
 * misspelt word has a spelling: only then can the query match once respelt,
 * and a long prompt (a hook's) with one word no spelling reaches costs no
 * vocabulary scan. Words of fewer than 4 letters, with a digit (but a name's leading one:
 * {@link misspelt}), quoted or of several tokens are never corrected. `lenient`: the spellings there are, whatever the
 * other words (the relevance tier's last try, lib/search/ladder.ts).
 */
export function spellingFixes(
  stats: TermStats,
  terms: readonly QueryTerm[],
  /** A word that is no typo, or has no spelling, is left as typed instead of ending the search. */
  lenient = false,
): Fix[] {
  const open = new Set<string>();
  /** Words the history holds only in other forms (`changing` where it says `change`). */
  const formed = new Map<string, readonly string[]>();
  for (const t of terms) {
    if (stats.present(t.tokens)) continue;
    const word = !t.quoted && t.tokens.length === 1 ? t.tokens[0] : undefined;
    if (word && stats.inTitle(word)) continue;
    const forms = word ? wordForms(stats, word) : [];
    if (word && forms.length) formed.set(word, forms);
    else if (!word || !misspelt(word)) {
      if (!lenient) return [];
    } else open.add(word);
  }
  if (!open.size) return [];
  // Beside a misspelt word, a word in another form is read in its most used one (trial 16:
  // `… backgrund back without changing the paddng` found nothing; `change` found it).
  const out: Fix[] = [...formed].map(([from, to]) => ({
    from,
    to: byUse(stats.count, [...to], MAX_ALTS),
  }));
  for (const word of open) {
    // A short word alone is one edit from many others: only swapped or dropped letters, as
    // the close tier reads it (trial 16: `rediz` found the title "Add Redis" alone).
    const short = word.length <= SHORT && terms.length === 1;
    let to = spellings(stats, word, short);
    if (!to.length) to = completions(stats, word);
    if (!to.length) {
      to = stats.titleNear(word, word.length >= 8 ? 2 : 1).filter((w) =>
        !short || swapped(word, w)
      );
    }
    if (!to.length) {
      if (lenient) continue;
      return [];
    }
    out.push({ from: word, to: to.slice(0, MAX_ALTS), spelt: true });
  }
  return out;
}

/**
 * True when `word` (held in no form by any event or title) may be a typo: 4+ letters, no
 * digit but a leading one or two before five letters or more (a name such as `1password`,
 * `3dprinter`; trial 53: `1pasword` found nothing), no common English word, no word of the
 * thesaurus or the synonym groups. A version, a hash or an id is no typo.
 */
function misspelt(word: string): boolean {
  if (word.length < 4 || hasDigits(word)) return false;
  if (!ABLATE.english && isEnglish(word)) return false;
  return !relatedTo(word).length && !synonymsOf(word).length;
}

/** `terms` with each word of `fixes` replaced by its first spelling. */
export function respelt(terms: readonly QueryTerm[], fixes: readonly Fix[]): QueryTerm[] {
  const first = new Map(fixes.map((f) => [f.from, f.to[0]]));
  return terms.map((t) =>
    t.tokens.length === 1 && first.has(t.tokens[0])
      ? { ...t, tokens: [first.get(t.tokens[0])!] }
      : t
  );
}

/**
 * Common slips of the words a query leaves out as too common (`teh`, `adn`, `waht`): a
 * close spelling made them a search word (trial 16: `teh redis` searched `the` and `tech`,
 * 56 hits down to 12). Only these, known by heart: a short word one swap from a stop word
 * is often a word of its own (`aws`, `form`, `fro`).
 */
const STOP_SLIPS = new Set(
  ("teh hte adn nad taht thta wiht iwth thsi tihs waht whta hwo yuo ahve hvae cna jsut " +
    "fomr frmo wehn whne tehre thier becuase becasue shoudl woudl coudl").split(" "),
);

/** Whether `word` is one of the {@link STOP_SLIPS}. */
export function isStopSlip(word: string): boolean {
  return STOP_SLIPS.has(word);
}

/**
 * `parsed` without its words that are {@link STOP_SLIPS} the history does not hold (`held`),
 * each named with the stop words left out; as it is when no other word would be left.
 */
export function withoutStopSlips(
  parsed: ParsedQuery,
  held: (word: string) => boolean,
): ParsedQuery {
  const slip = (p: QueryTerm) =>
    !p.quoted && p.tokens.length === 1 && STOP_SLIPS.has(p.tokens[0]) && !held(p.tokens[0]);
  const kept = parsed.parts.filter((p) => !slip(p));
  if (kept.length === parsed.parts.length || !kept.length) return parsed;
  return {
    ...parsed,
    parts: kept,
    terms: kept.map((p) => p.tokens),
    dropped: [...parsed.dropped, ...parsed.parts.filter(slip).map((p) => p.tokens[0])],
  };
}
