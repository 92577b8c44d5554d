/**
 * Common English words (lib/search/english.gen.ts: SCOWL sizes 10 and 20): a word of the
 * query the history lacks that is one of them is a word the person meant, not
 * a typo of a look-alike the history holds. New-user trials, 2026-12: `winter`
 * was read as `linter`, `cash` as `crash`, `pocket` as `socket`, `vouch` as
 * `voucher`. Size 35 is left out: it holds `sever`, the usual typo of
 * `server` (tests/search_typo_lone_test.ts), and `kitten` with it. The list
 * is split the first time a word is looked up (only when the history lacks a
 * word of the query).
 *
 * @module
 */
import { ENGLISH } from "./english.gen.ts";

/**
 * English words of a programmer's day that those sizes lack (trial 90 F9: `crate` was read as
 * `create` in a history that never says `crate`, "a common English word never" though).
 */
const EVERYDAY_CODE =
  "crate crates helm rust yarn lint linter cargo cache cached shard shards vault probe probes " +
  "spawn forks stash flake flaky mocks stub stubs seeds scopes parser trait traits macro macros " +
  "tuple tuples";

let words: Set<string> | undefined;

/** True when `word` (lower case) is a common English word of 4 or more letters. */
export function isEnglish(word: string): boolean {
  return (words ??= new Set(`${ENGLISH} ${EVERYDAY_CODE}`.split(" "))).has(word);
}
