/**
 * How skip counts read: which reasons kept their record (repaired) and which
 * lost it, as one line of text. Small on purpose: the CLI loads it without the
 * parse machinery.
 *
 * @module
 */
import type { SkipReason } from "../core/model.ts";

/** Skip reasons whose record is kept, repaired (bad bytes read as U+FFFD): not lost. */
export const REPAIRED_REASONS: ReadonlySet<string> = new Set<SkipReason>(["invalid_utf8"]);

/**
 * Skip reasons of a record not read yet but not lost: a last line the harness
 * is still writing, read by the next pass once it is complete. A count of one
 * says how the store's last read ended; it is not carried into later passes.
 */
export const PENDING_REASONS: ReadonlySet<string> = new Set<SkipReason>(["partial_line"]);

/**
 * How long a store may stay unchanged with an unfinished last line
 * ({@link PENDING_REASONS}) before that line counts as cut off: 10 minutes.
 * A harness writes a line in one go (milliseconds); a file untouched that
 * long with half a line at its end was cut (a copy, a crash), and is reported
 * `truncated` (damage) instead of "still being written" forever. The next
 * read still starts before that line, so a harness that finishes it later
 * loses nothing.
 */
export const STALE_PARTIAL_MS = 10 * 60_000;

/**
 * `counts` as they read now: pending reasons of a store whose file is
 * unchanged since `mtimeMs` for over {@link STALE_PARTIAL_MS} become
 * `truncated`. Counts with no pending reason, or no known mtime, as given.
 */
export function agedCounts(
  counts: Record<string, number>,
  mtimeMs: number | null | undefined,
  now = Date.now(),
): Record<string, number> {
  if (mtimeMs == null || mtimeMs < 0 || now - mtimeMs <= STALE_PARTIAL_MS) return counts;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(counts)) {
    const key = PENDING_REASONS.has(k) ? "truncated" : k;
    out[key] = (out[key] ?? 0) + v;
  }
  return out;
}

/**
 * Skip notes (`<reason> at <where>[: detail]`) as they read now, by the rule of
 * {@link agedCounts}: a pending note of a store unchanged for over
 * {@link STALE_PARTIAL_MS} reads `truncated at <where>: last line cut off …`,
 * so that every command names that state with the one word its count uses.
 */
export function agedExamples(
  examples: readonly string[],
  mtimeMs: number | null | undefined,
  now = Date.now(),
): string[] {
  if (mtimeMs == null || mtimeMs < 0 || now - mtimeMs <= STALE_PARTIAL_MS) return [...examples];
  return examples.map((x) => {
    const reason = x.slice(0, x.indexOf(" "));
    if (!PENDING_REASONS.has(reason)) return x;
    const where = x.slice(reason.length + " at ".length).split(": ")[0];
    return `truncated at ${where}: ${CUT_DETAIL}`;
  });
}

/** What a `truncated` note says of the line ({@link agedExamples}). */
const CUT_DETAIL = `last line cut off (unfinished, the file unchanged for over ${
  STALE_PARTIAL_MS / 60_000
} minutes)`;

/** True when a count of `reason` means records were lost (neither repaired nor pending). */
export function isLoss(reason: string): boolean {
  return !REPAIRED_REASONS.has(reason) && !PENDING_REASONS.has(reason) &&
    !BY_DESIGN_REASONS.has(reason) && !SHORTENED_REASONS.has(reason);
}

/**
 * Skip reasons of events the index keeps shortened (their middle not searchable), not
 * lost: printed as `shortened`.
 */
export const SHORTENED_REASONS: ReadonlySet<string> = new Set<SkipReason>(["cut_long"]);

/**
 * Skip reasons of what is left out on purpose, not lost: records the harness
 * writes that are no conversation (a cache warm-up). Printed as `left out`.
 */
export const BY_DESIGN_REASONS: ReadonlySet<string> = new Set<SkipReason>(["not_session"]);

/**
 * Skip counts as text: `skipped: 1 malformed_json, repaired: 1 invalid_utf8,
 * unfinished: 1 partial_line` (reasons in {@link REPAIRED_REASONS} kept their
 * record, those in {@link PENDING_REASONS} are read later); "" when none.
 */
export function skipsText(counts: Partial<Record<string, number>>): string {
  const part = (label: string, group: (k: string) => boolean) => {
    const list = Object.entries(counts)
      .filter(([k, v]) => v && group(k))
      .map(([k, v]) => `${v} ${k}`);
    return list.length ? `${label}: ${list.join(", ")}` : "";
  };
  return [
    part("skipped", isLoss),
    part("repaired", (k) => REPAIRED_REASONS.has(k)),
    part("unfinished", (k) => PENDING_REASONS.has(k)),
    part("left out (not sessions)", (k) => BY_DESIGN_REASONS.has(k)),
    part("shortened (middle not searchable)", (k) => SHORTENED_REASONS.has(k)),
  ].filter(Boolean).join(", ");
}

/**
 * A stored read's skips without the pending ones ({@link PENDING_REASONS}):
 * what an append store's next pass carries on from (it reads that line again).
 */
export function withoutPending<T extends { counts: Partial<Record<string, number>> }>(
  rec: T & { examples: string[] },
): T & { examples: string[] } {
  const counts = Object.fromEntries(
    Object.entries(rec.counts).filter(([k]) => !PENDING_REASONS.has(k)),
  );
  const examples = rec.examples.filter((x) => !PENDING_REASONS.has(x.slice(0, x.indexOf(" "))));
  return { ...rec, counts, examples };
}

/**
 * Skip reasons that say a store is damaged: pages or records it holds could
 * not be read. A read reporting one of them replaces no session with less than
 * the index held (lib/indexer.ts, `SourceWriter.losses` in lib/ingest.ts).
 */
export const DAMAGE_REASONS: ReadonlySet<string> = new Set<string>([
  "corrupt",
  "unreadable",
  "malformed_json",
  "not_jsonl",
  // Not a parser's reason: an unfinished last line long unchanged ({@link agedCounts}).
  "truncated",
]);

/**
 * True when a skip of `reason` says the store's bytes are damaged
 * ({@link DAMAGE_REASONS}). The other lost records are information, not damage:
 * records the harness itself wrote in a shape deja does not read (`bad_shape`,
 * `unknown_record`, `unknown_schema`, `unsupported`, `empty`), lines over
 * deja's cap (`oversized`), a store busy this pass (`locked`, read next time).
 * `deja sources` lists them; `deja doctor` counts only damage as a problem.
 */
export function isDamage(reason: string): boolean {
  return DAMAGE_REASONS.has(reason);
}

/** The first reason in `counts` that says the store is damaged ({@link DAMAGE_REASONS}), if any. */
export function damageIn(counts: Partial<Record<string, number>>): string | undefined {
  return Object.keys(counts).find((k) => counts[k] && DAMAGE_REASONS.has(k));
}

/**
 * What a SQLite store's incremental read (past its watermark: only the sessions
 * updated since) carries of the last read's skips: the sessions it does not
 * read again still hold what was skipped in them. Damage and pending reasons
 * are not carried (the watermark did not move past a damaged read, so this
 * read covers it again). Counts merge by {@link maxCounts}: a session read
 * again with the same skips does not count them twice (a count may under-tell
 * when both reads skipped in different sessions; a full read sets it right).
 */
export function carriedBySessions<T extends { counts: Partial<Record<string, number>> }>(
  rec: T & { examples: string[] },
): T & { examples: string[] } {
  const keep = (k: string) => !PENDING_REASONS.has(k) && !DAMAGE_REASONS.has(k);
  const counts = Object.fromEntries(Object.entries(rec.counts).filter(([k]) => keep(k)));
  const examples = rec.examples.filter((x) => keep(x.slice(0, x.indexOf(" "))));
  return { ...rec, counts, examples };
}

/** Per reason the larger of two skip counts. */
export function maxCounts<K extends string>(
  a: Partial<Record<K, number>>,
  b: Partial<Record<K, number>>,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = { ...a };
  for (const [k, v] of Object.entries(b) as Array<[K, number | undefined]>) {
    out[k] = Math.max(out[k] ?? 0, v ?? 0);
  }
  return out;
}
