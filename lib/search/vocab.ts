/**
 * The index vocabulary: the distinct tokens written to events_fts, kept in the
 * `vocab` table with a trigram index (`vocab_tri`) so the fallback tiers can
 * find the tokens that contain a word (`code` -> `opencode`), share its stem,
 * or are spelt close to it, without scanning the text.
 *
 * Kept consistent under incremental indexing: {@link VocabWriter} adds the
 * tokens of every text ingest writes (after redaction), in the same
 * transaction; `deja forget` deletes the tokens no remaining event holds
 * ({@link pruneVocab}). A token of a replaced event may linger until then; the
 * tiers check every candidate against `events_vocab` (FTS5's own view of
 * events_fts), so a lingering token is never a match. A secret's word masked
 * after it was written leaves at once ({@link dropTerms}).
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { VocabCollector } from "./tokenize.ts";
import { distance } from "./distance.ts";
export { distance };

/**
 * Per store: the tokens this process wrote to `vocab` or will write (`pending`:
 * new ones not inserted yet, left for {@link flushVocab} when a batch of
 * sources defers them, lib/write_batch.ts; `flushed`: inserted since the last
 * {@link vocabCommitted}, so a rollback can insert them again, up to
 * {@link KEPT_FLUSHED}; past that `lost` says some were not kept, and a rollback
 * asks for {@link repairVocab} instead).
 */
interface VocabState {
  c: VocabCollector;
  pending: string[];
  flushed: string[];
  /** Inserts in the open transaction whose tokens `flushed` does not list (past KEPT_FLUSHED). */
  unkept: number;
  /** A rollback undid inserts whose tokens were not kept: `vocab` lacks some. */
  repair: boolean;
}

/** Where a savepoint began, to roll the tokens back to ({@link vocabMark}). */
export interface VocabMark {
  flushed: number;
  unkept: number;
}

/**
 * New tokens held before they are inserted, within the source's transaction: a source
 * of a million distinct words held them all until its commit (issue 18: 857k strings,
 * about 50 MB, and 74 MB more for the one insert of them all).
 */
export const FLUSH_TOKENS = 32_768;

/** Tokens inserted in an open transaction kept to insert again after a rollback. */
export const KEPT_FLUSHED = 65_536;

const collectors = new WeakMap<Store, VocabState>();

function stateOf(store: Store): VocabState {
  let s = collectors.get(store);
  if (!s) {
    s = { c: new VocabCollector(), pending: [], flushed: [], unkept: 0, repair: false };
    collectors.set(store, s);
  }
  return s;
}

/**
 * Collects the tokens of written chunks and inserts those new to this process
 * into `vocab` (a superset of what events_fts holds).
 */
export class VocabWriter {
  constructor(private store: Store) {}

  /**
   * Adds the tokens of a written chunk. Call inside the source's transaction: past
   * {@link FLUSH_TOKENS} new ones they are inserted at once.
   */
  add(tokens: readonly string[]): void {
    const s = stateOf(this.store);
    for (const t of s.c.addTokens(tokens)) s.pending.push(t);
    if (s.pending.length >= FLUSH_TOKENS) flushVocab(this.store);
  }

  /** Inserts the tokens new to this process. Call inside the source's transaction. */
  flush(): void {
    flushVocab(this.store);
  }
}

/**
 * Inserts the tokens added since the last flush, of every writer of `store`.
 * Call inside the transaction that wrote them.
 */
export function flushVocab(store: Store): void {
  const s = collectors.get(store);
  if (!s?.pending.length) return;
  Q.insertVocab.run(store, { terms: JSON.stringify(s.pending) });
  if (s.flushed.length + s.pending.length <= KEPT_FLUSHED) {
    for (const t of s.pending) s.flushed.push(t);
  } else s.unkept++;
  s.pending = [];
}

/**
 * The savepoint of a source that inserted tokens was released: they stay in the open
 * transaction, and are no longer kept to insert again (a rollback of a later source's
 * savepoint does not undo them; one of the whole transaction, rare, repairs instead).
 * So what is kept is one source's, never a batch's (issue 18).
 */
export function vocabReleased(store: Store): void {
  const s = collectors.get(store);
  if (!s?.flushed.length) return;
  s.flushed = [];
  s.unkept++;
}

/** Where the tokens inserted so far stand, for a savepoint's {@link vocabRolledBack}. */
export function vocabMark(store: Store): VocabMark {
  const s = collectors.get(store);
  return { flushed: s?.flushed.length ?? 0, unkept: s?.unkept ?? 0 };
}

/**
 * The transaction that {@link flushVocab} wrote in committed: its tokens are in `vocab` for
 * good. When an earlier rollback lost tokens it had inserted, they are put back now
 * ({@link repairVocab}).
 */
export function vocabCommitted(store: Store): void {
  const s = collectors.get(store);
  if (!s) return;
  s.flushed = [];
  s.unkept = 0;
  if (s.repair) {
    // Tried again after the next commit when it cannot run now (the index busy): what it
    // adds is for the fallback tiers only, never worth failing a run.
    try {
      repairVocab(store);
      s.repair = false;
    } catch { /* left for the next commit */ }
  }
}

/**
 * The transaction that {@link flushVocab} wrote in was rolled back, or its savepoint that
 * began at `mark`: the tokens inserted since are pending again. The tokens seen stay seen:
 * a parse worker sends each token once per run (lib/prepare.ts), so a later chunk that
 * holds one of them does not list it again. Tokens inserted since and not kept are put
 * back from the text index after the next commit ({@link repairVocab}).
 */
export function vocabRolledBack(store: Store, mark: VocabMark = { flushed: 0, unkept: 0 }): void {
  const s = collectors.get(store);
  if (!s) return;
  s.pending = s.flushed.slice(mark.flushed).concat(s.pending);
  s.flushed.length = Math.min(s.flushed.length, mark.flushed);
  if (s.unkept > mark.unkept) s.repair = true;
  s.unkept = Math.min(s.unkept, mark.unkept);
}

/**
 * Inserts into `vocab` every token of the text index it lacks (those a rolled-back
 * transaction had inserted and did not keep to insert again: {@link vocabRolledBack}).
 * One pass over the text index's vocabulary, in a transaction of its own; rare (a store
 * whose read failed after more than {@link KEPT_FLUSHED} new tokens).
 */
export function repairVocab(store: Store): void {
  store.tx(() => Q.repairVocab.run(store, {}));
}

/** Forgets what this process believes is in `vocab` (after a prune). */
export function resetVocabCache(store: Store): void {
  collectors.delete(store);
}

/**
 * Deletes from `vocab` each of `terms` that no event holds any more.
 *
 * @returns how many were deleted.
 */
export function pruneVocab(store: Store, terms: Iterable<string>): number {
  let n = 0;
  for (const t of terms) {
    if (docs(store, t) === 0) {
      Q.deleteVocab.run(store, { term: t });
      n++;
    }
  }
  resetVocabCache(store);
  return n;
}

/**
 * Takes out of `vocab`, and out of the tokens waiting to be inserted, each of `terms` that no
 * event holds any more, leaving the rest of what this process knows of `vocab` as it is (a
 * secret masked in events written before it was known to be one, lib/mask_written.ts; run
 * once events_fts holds the masked texts). Unlike {@link pruneVocab}, pending tokens of the
 * open transaction stay pending.
 *
 * @returns how many were taken out.
 */
export function dropTerms(store: Store, terms: Iterable<string>): number {
  const s = collectors.get(store);
  const pending = new Set(s?.pending);
  const gone = new Set<string>();
  for (const t of terms) {
    // Only a term written or to be written is looked up in events_fts (a few ms each while
    // the writer's transaction holds many segments).
    if (!pending.has(t) && !Q.vocabHolds.get(store, { term: t })) continue;
    if (docs(store, t) === 0) gone.add(t);
  }
  if (!gone.size) return 0;
  if (s) s.pending = s.pending.filter((t) => !gone.has(t));
  for (const t of gone) Q.deleteVocab.run(store, { term: t });
  return gone.size;
}

/** Events holding `term` (an index token), from FTS5's own vocabulary. */
export function docs(store: Store, term: string): number {
  const r = Q.termDocs.get(store, { term });
  return r?.doc ?? 0;
}

/** How many events hold a term: {@link docs}, or a search's cache of it (lib/search/expand.ts). */
export type DocCount = (term: string) => number;

/**
 * Tokens of the vocabulary that contain `part` (3+ characters; 2 when they are CJK, whose
 * words are written without spaces, {@link isCjk}), at most `max`, most used first.
 */
export function containing(
  store: Store,
  part: string,
  max: number,
  count: DocCount = (t) => docs(store, t),
): string[] {
  // A word of two CJK characters (`文件`, `오류`) is too short for the trigram index: the
  // vocabulary is scanned for it (trial 30: found by --re only).
  const rows = part.length >= 3
    ? Q.vocabContaining.all(store, { match: `"${part.replaceAll('"', '""')}"` })
    : part.length === 2 && isCjk(part)
    ? Q.vocabGlob.all(store, { glob: `*${part}*` })
    : [];
  const terms = rows.map((r) => r.term).filter((t) => t !== part && t.includes(part));
  return byUse(count, terms.slice(0, 300), max);
}

/**
 * Whether `word` is written in CJK characters alone (Han, kana, Hangul): a script written
 * without spaces between words, whose index tokens are whole runs of them (a clause up to
 * its punctuation), so any part of a token may be a word.
 */
export function isCjk(word: string): boolean {
  return CJK.test(word);
}

const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+$/u;

/** Shortest prefix also looked up in the text index's own term list ({@link withPrefix}). */
export const TERM_PREFIX = 4;

/**
 * Tokens that start with `prefix`: of the vocabulary or, when it holds none, for a prefix of
 * {@link TERM_PREFIX}+ characters, of the text index's own term list, which holds every indexed word — `vocab` reads
 * only the head of a long tool result (lib/prepare.ts `vocabText`), so a word first written
 * deep in one was no completion (trial 121 H1: `worktre` found nothing, `worktree` two
 * sessions). A range of the term list: a prefix that long spans few terms.
 */
export function withPrefix(store: Store, prefix: string): string[] {
  const range = { low: prefix, high: prefix + "\uffff" };
  const out = Q.vocabRange.all(store, range).map((r) => r.term);
  // Only when the vocabulary has none: a range of the term list reads the doclists of every
  // term in it (fts5vocab counts them), ~40 ms for `erro` in the 56 MB bench index, which
  // grows with the index; the words the vocabulary lacks are the rare ones.
  if (out.length || prefix.length < TERM_PREFIX) return out;
  return Q.termRange.all(store, range).map((r) => r.term);
}

/** Shortest word whose close spellings are also looked for in the text index's term list. */
const TYPO_RANGE = 6;

/**
 * Tokens within `maxDist` edits (Damerau-Levenshtein: insert, delete, replace,
 * swap two neighbours) of `word` that share its first or second letter, at
 * most `max`, closest and then most used first; where the vocabulary and the
 * term list's range of its first letters have none, those one edit away
 * anywhere in the word that the text index holds ({@link oneEdit}).
 */
export function near(
  store: Store,
  word: string,
  maxDist: number,
  max: number,
  count: DocCount = (t) => docs(store, t),
): string[] {
  const rows = Q.vocabNear.all(store, {
    min: word.length - maxDist,
    max: word.length + maxDist,
    first: word[0],
    second: word[1] ?? word[0],
  });
  // A word written only deep in a long tool result is in the text index's term list, not in
  // `vocab` (lib/prepare.ts `vocabText`): those sharing the word's first letters are candidates
  // too, a range of that list (trial 121 H1: `confirmaton`, `notifcation` found nothing).
  // Read only when the vocabulary offers no spelling some event holds, for the cost of a range
  // of the term list ({@link withPrefix}).
  const closest = (terms: Iterable<string>) => {
    const found: Array<[string, number]> = [];
    for (const term of terms) {
      if (term === word || Math.abs(term.length - word.length) > maxDist) continue;
      const d = distance(word, term, maxDist);
      if (d <= maxDist) found.push([term, d]);
    }
    found.sort((a, b) => a[1] - b[1]);
    const best = found.length ? found[0][1] : 0;
    // Only the closest ring: one edit away beats two.
    return byUse(count, found.filter((f) => f[1] === best).map((f) => f[0]), max);
  };
  const got = closest(rows.map((r) => r.term));
  if (got.length) return got;
  if (word.length >= TYPO_RANGE) {
    const low = word.slice(0, TERM_PREFIX);
    const ranged = closest(
      Q.termRange.all(store, { low, high: low + "\uffff" }).map((r) => r.term),
    );
    if (ranged.length) return ranged;
  }
  // A typo among those first letters (`wrktree` of `worktree`) is outside that range: each
  // word one edit away is looked up in the term list itself (trial 121 H1: `wrktree` was "in
  // no searchable text" beside two sessions writing `worktree` deep in a tool result).
  if (word.length < PROBE_MIN || !/^[\p{L}\p{N}]+$/u.test(word)) return [];
  return byUse(count, [...oneEdit(word)], max);
}

/** Shortest word whose every spelling one edit away is looked up in the term list ({@link near}). */
const PROBE_MIN = 4;

/** Letters put in or replaced at each place of a word ({@link oneEdit}), beside its own. */
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * Every spelling one edit from `word`: a letter left out, two neighbours swapped, a letter
 * replaced or put in (a to z, or one of the word's own). About 55 per letter: ~390 for a
 * word of seven, each an exact lookup in the text index's term list (cached per search by
 * `count`): ~5-20 ms on the 56 MB bench index, cold.
 */
export function oneEdit(word: string): Set<string> {
  const chars = [...word];
  const letters = new Set([...LETTERS, ...chars]);
  const out = new Set<string>();
  const at = (i: number, put: string, skip: number) =>
    chars.slice(0, i).join("") + put + chars.slice(i + skip).join("");
  for (let i = 0; i < chars.length; i++) {
    out.add(at(i, "", 1));
    if (i + 1 < chars.length) out.add(at(i, chars[i + 1] + chars[i], 2));
    for (const c of letters) out.add(at(i, c, 1));
  }
  for (let i = 0; i <= chars.length; i++) for (const c of letters) out.add(at(i, c, 0));
  out.delete(word);
  return out;
}

/** `terms` that some event holds (by `count`), most used first, at most `max`. */
export function byUse(count: DocCount, terms: string[], max: number): string[] {
  return terms
    .map((t) => [t, count(t)] as const)
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([t]) => t);
}
