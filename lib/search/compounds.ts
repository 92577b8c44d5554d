/**
 * A compound of a verb and its particle (`timeout`, `logout`, `setup`,
 * `shutdown`, `rollback`) is also written as the phrasal verb it names, in any
 * form of the verb: `timeout` finds `times out` and `timed out`, `shutdown`
 * finds `shut down`, with one word between an inflected verb and its
 * particle as a person writes it (`logout` finds "logs users out", `shutdown`
 * "shuts it down": lib/query.ts `GAP`). The word-forms tier matches these phrases beside
 * the compound's own forms (lib/search/expand.ts). Measured (`deno task
 * bench:recall --no-binary`, `forms` hit@1, 30 a seed on seeds 11/3/7):
 * 0.93/0.87/0.93 -> 0.97/0.97/1.00 (60 a seed, 11/3/7/5: 0.87/0.90/0.95/0.95
 * -> 0.88/0.95/0.97/0.95), nothing else moved. The gap after the bare verb
 * or before `in` lost a `forms` hit on seeds 5 and 11 (60 a seed).
 *
 * The other way round, two words a person writes apart that the history
 * writes as one (`time zone` -> `timezone`, `data base` -> `database`) are one
 * word of a question in the relevance tier ({@link joinedWords}): counted
 * apart, "get the time zone wrong" weighed `time` and `zone` (and `wrong`)
 * against every session saying "returns wrong totals", and the session that
 * "loses the timezone" ranked fifth or lower.
 *
 * A past form the history never writes, with its particle left out, is read
 * as the compound too ({@link particleCompounds}: `timed` -> `timeout`, a
 * person's "the gateway timed" for a session that says "timeout"): the forms
 * tier matches it beside the verb's own forms (`time`). Measured (`deno task
 * bench:recall --no-binary --per-kind 60`, seeds 11/3/7/5, with the IDF fix of
 * lib/search/sessionrank.ts): `forms` hit@1 0.92/0.98/0.95/0.98 ->
 * 0.97/0.98/0.95/0.98, nothing else moved.
 * Only when the history lacks the word as typed: a history that writes `timed`
 * writes "timed out" too, and `logged` there is no `login`.
 *
 * @module
 */
import { GAP, STOP_WORDS } from "../query.ts";
import { Q } from "../schema.ts";
import { splitWords, type TermStats } from "./expand.ts";

/** Particles a compound ends in. */
export const PARTICLES: readonly string[] = ["out", "up", "down", "in", "off", "over", "back"];

/**
 * The phrases `word` stands for as a phrasal verb (token lists, each of a form
 * of its verb, then the particle; {@link GAP} between an inflected form and a
 * particle other than `in`), those whose tokens the history holds; at most
 * `max`. Empty for a word that is no such compound.
 *
 * @param forms the forms of a word the history holds (lib/search/expand.ts `wordForms`).
 */
export function phrasalForms(
  stats: TermStats,
  word: string,
  forms: (stats: TermStats, w: string) => readonly string[],
  max: number,
): string[][] {
  const particle = PARTICLES.find((p) => word.endsWith(p) && word.length - p.length >= 3);
  if (!particle || !stats.docs(particle)) return [];
  const verb = word.slice(0, -particle.length);
  const out: string[][] = [];
  for (const v of new Set([verb, ...forms(stats, verb)])) {
    if (out.length >= max) break;
    // A word between only after an inflected verb (`logs users out`), never the bare verb
    // nor before `in`: FTS5's NEAR keeps no order, and "in the log", "out of time" or a
    // "check" beside an "out" are no phrasal verbs (measured: bench/recall_bench.ts forms
    // lost a hit on seeds 5 and 11 with them).
    if (stats.docs(v)) {
      out.push(v === verb || particle === "in" ? [v, particle] : [v, GAP, particle]);
    }
  }
  return out;
}

/**
 * A compound the relevance tier reads as the phrasal verb it names, in an
 * inflected form of the verb (`logout` -> "logs users out", "logged out",
 * "logging out"; `setup` -> "sets it up", "setting up"): the verb with `-s`,
 * `-ed` or `-ing` (its final `e` dropped or its last consonant doubled where
 * English spells it so; irregular pasts are left out), then at most one word
 * ({@link GAP}; none before `in`, as in {@link phrasalForms}), then the
 * particle. Those whose words the history holds; at most `max`. Empty for a
 * word that is no such compound.
 *
 * The bare verb is left out ("log out" is read by the word-forms tier, and in
 * the relevance tier it matched "log" beside any "out" in filler).
 */
export function phrasalReadings(stats: TermStats, word: string, max = 6): string[][] {
  const particle = PARTICLES.find((p) => word.endsWith(p) && word.length - p.length >= 3);
  if (!particle || !stats.docs(particle)) return [];
  const out: string[][] = [];
  for (const v of inflected(word.slice(0, -particle.length))) {
    if (out.length >= max) break;
    if (stats.docs(v)) out.push(particle === "in" ? [v, particle] : [v, GAP, particle]);
  }
  return out;
}

/** `-s`, `-ed` and `-ing` forms of a regular verb, as English spells them (`log` -> `logs`, `logged`, `logging`). */
export function inflected(verb: string): string[] {
  const out = new Set<string>();
  const e = verb.endsWith("e");
  const stem = e ? verb.slice(0, -1) : verb;
  // A short verb ending consonant-vowel-consonant doubles its consonant (`logged`, `setting`).
  const double = /^[^aeiou]*[aeiou][b-df-hj-np-tvz]$/.test(verb) ? verb + verb.at(-1) : undefined;
  out.add(/(?:s|sh|ch|x|z)$/.test(verb) ? verb + "es" : verb + "s");
  out.add(stem + "ed");
  out.add(stem + "ing");
  if (double) out.add(double + "ed"), out.add(double + "ing");
  return [...out];
}

/**
 * The compounds a past form of a verb names with its particle left out
 * (`timed` -> `timeout`, `timeouts`; `logged` -> `login`, `logout`): "the
 * request timed" is "it timed out", a timeout. The other way round of
 * {@link phrasalForms}: only a word ending in `-ed` (the past names the event
 * the compound names; an `-ing` form more often names an activity: `timing`,
 * `logging`), each compound of a form of its verb and a particle of
 * {@link PARTICLES} the history holds, with its own forms; at most `max`.
 *
 * @param forms the forms of a word the history holds (lib/search/expand.ts `wordForms`).
 */
export function particleCompounds(
  stats: TermStats,
  word: string,
  forms: (stats: TermStats, w: string) => readonly string[],
  max: number,
): string[] {
  if (!/^[a-z]{3,}ed$/.test(word) || max <= 0 || stats.docs(word)) return [];
  const out = new Set<string>();
  for (const v of forms(stats, word)) {
    // The bare verb only (`time`, `log`), not another inflection of it (`times` + `out`).
    if (v.endsWith("s") || v.endsWith("ed") || v.endsWith("ing")) continue;
    for (const p of PARTICLES) {
      if (!stats.docs(v + p)) continue;
      for (const f of forms(stats, v + p)) if (f.startsWith(v + p)) out.add(f);
    }
  }
  return [...out].slice(0, max);
}

/** One word of a query for the relevance tier: as typed, or two typed apart written as one. */
export interface JoinedWord {
  /** The word the history holds (`timezone`), or the word as typed. */
  word: string;
  /** The two words typed (`time`, `zone`), when {@link word} joins them. */
  parts?: [string, string];
}

/**
 * `words` (the query's words in order, stop words gone) with each two that
 * `query` writes side by side (a space or a hyphen between) and the history
 * holds as one word joined into it: `time zone` -> `timezone` when some event
 * says `timezone`. Not a verb and its particle (`log in`, `set up`: phrasal
 * verbs, which the word-forms tier reads the other way round), nor words of
 * fewer than three letters.
 */
export function joinedWords(stats: TermStats, words: string[], query: string): JoinedWord[] {
  const out: JoinedWord[] = [];
  const text = query.toLowerCase();
  for (let i = 0; i < words.length; i++) {
    const [a, b] = [words[i], words[i + 1]];
    const joinable = b !== undefined && /^[a-z]{3,}$/.test(a) && /^[a-z]{3,}$/.test(b) &&
      !PARTICLES.includes(b) && stats.docs(a + b) > 0 &&
      new RegExp(`(?:^|[^a-z])${a}(?:\\s+|-)${b}(?:[^a-z]|$)`).test(text);
    if (!joinable) {
      out.push({ word: a });
      continue;
    }
    out.push({ word: a + b, parts: [a, b] });
    i++;
  }
  return out;
}

/**
 * Two words of the query typed side by side (a space or a hyphen between) that the history
 * writes as one word (`data base`, `web socket`, `life cycle`, `git hub`): the term index of
 * each of the two, with that word. The literal tiers let each of them match it beside the
 * word as typed (lib/search/expand.ts `expand`), so a session holding `database` holds both
 * and one holding `data` and `base` apart still holds both. Trial 23: `data base` listed a
 * session saying "data extraction … knowledge base" and never the one saying `database`;
 * `life cycle` matched nothing where two sessions say `lifecycle`. Each word of two letters
 * or more, the two of five or more; not a verb and its particle (below).
 */
export function joinedPairs(
  stats: TermStats,
  parts: readonly { tokens: string[]; quoted: boolean }[],
  query: string,
): Map<number, JoinedPair> {
  // Read once a search: the ladder's tiers and the phrase lift (verbatim.ts `pairRows`).
  const known = pairsRead.get(stats);
  if (known?.parts === parts && known.query === query) return known.pairs;
  const out = new Map<number, JoinedPair>();
  pairsRead.set(stats, { parts, query, pairs: out });
  const text = query.toLowerCase();
  for (let i = 0; i + 1 < parts.length; i++) {
    const [p, q] = [parts[i], parts[i + 1]];
    if (p.quoted || q.quoted || p.tokens.length !== 1 || q.tokens.length !== 1) continue;
    const [a, b] = [p.tokens[0], q.tokens[0]];
    if (!/^[a-z]{2,}$/.test(a) || !/^[a-z]{2,}$/.test(b) || a.length + b.length < 5) continue;
    // In a question, a verb and its particle are the forms tier's, in every form of the verb
    // (`why did the backup job time out`: `timeout` beside `time` found sessions at this tier,
    // and the one where it "times out" was lost). Typed alone they are the word (`back up`,
    // `mark down`: trial 24 found none of the sessions saying `backup`, `markdown`).
    if (PARTICLES.includes(b) && parts.length > 2) continue;
    if (out.has(i)) continue;
    // Either number joins the word as held (`data bases` -> `database`, `data base` -> `databases`).
    const words = [a + b, b.endsWith("s") ? a + b.slice(0, -1) : a + b + "s"]
      .filter((w) => stats.docs(w) > 0);
    if (!words.length) continue;
    if (!new RegExp(`(?:^|[^a-z0-9])${a}(?:\\s+|-)${b}(?:[^a-z0-9]|$)`).test(text)) continue;
    const typed = `${a} ${b}`;
    out.set(i, { word: words[0], words, typed, first: true });
    out.set(i + 1, { word: words[0], words, typed, first: false });
  }
  return out;
}

const pairsRead = new WeakMap<
  TermStats,
  { parts: readonly unknown[]; query: string; pairs: Map<number, JoinedPair> }
>();

/** One of two words typed apart that the history writes as one ({@link joinedPairs}). */
export interface JoinedPair {
  /** The word the history writes (`database`). */
  word: string;
  /** It and the word in the other number, those the history holds (`databases`, `database`). */
  words: string[];
  /** The two as typed, a space between (`data base`). */
  typed: string;
  /** The first of the two. */
  first: boolean;
}

/** Shortest word read as two words written apart. */
const APART_MIN = 5;
/** The rarer half of a word written apart is in at most this share of events, or this many. */
const APART_SHARE = 0.05;
const APART_FLOOR = 100;

/**
 * The two words the history writes apart for one word typed whole (`vscode` -> `vs code`,
 * `nodejs` -> `node js`), the reverse of {@link joinedWords}: split where both halves are two
 * letters or more, neither a stop word nor a particle (a phrasal verb is the forms tier's:
 * `setup`, `logout`), the rarer half in at most {@link APART_SHARE} of events or
 * {@link APART_FLOOR} (a name written apart, not two common words side by side; it also
 * bounds the phrase read), and some event holds the two as a phrase (lib/search/expand.ts
 * `splitWords`, two words, the longest first word first). At most one split. Trial 21:
 * `configure vscode extensions` never found the session titled "Configure VS Code
 * extensions" whose first request says "configure my extensions within VS Code".
 */
export function writtenApart(stats: TermStats, word: string): string[][] {
  if (word.length < APART_MIN || /[^a-z]/.test(word)) return [];
  let events = 0;
  const accept = ([a, b]: string[]) => {
    if (STOP_WORDS.has(a) || STOP_WORDS.has(b) || PARTICLES.includes(a) || PARTICLES.includes(b)) {
      return false;
    }
    events ||= Math.max(1, Q.eventCount.get(stats.store, {})!.n);
    return Math.min(stats.docs(a), stats.docs(b)) <= Math.max(APART_FLOOR, APART_SHARE * events);
  };
  return splitWords(stats, word, { parts: 2, accept, max: 1 });
}

/** True for a change that read one word typed whole as the two the history writes (`notfound` -> `not found`). */
export function isApartWord(c: { from: string; to: readonly string[] }): boolean {
  return !c.from.includes(" ") && c.to.length > 0 && c.to.every((t) => t.includes(" "));
}

/**
 * True for a change that read two words typed apart as the one word the history writes
 * (`not found` -> `notfound`, `data base` -> `database`; {@link joinedPairs} at the exact tier).
 */
export function isJoinedPair(c: { from: string; to: readonly string[] }): boolean {
  return c.from.includes(" ") && c.to.length > 0 && c.to.every((t) => !t.includes(" ")) &&
    c.to[0].startsWith(c.from.split(" ")[0]);
}
