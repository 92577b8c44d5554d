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
 * Skip counts as text: `skipped: 1 malformed_json, repaired: 1 invalid_utf8`
 * (reasons in {@link REPAIRED_REASONS} kept their record); "" when none.
 */
export function skipsText(counts: Partial<Record<string, number>>): string {
  const part = (label: string, repaired: boolean) => {
    const list = Object.entries(counts)
      .filter(([k, v]) => v && REPAIRED_REASONS.has(k) === repaired)
      .map(([k, v]) => `${v} ${k}`);
    return list.length ? `${label}: ${list.join(", ")}` : "";
  };
  return [part("skipped", false), part("repaired", true)].filter(Boolean).join(", ");
}

/**
 * Skip reasons that say a store is damaged: pages or records it holds could
 * not be read. A read reporting one of them replaces no session with less than
 * the index held (lib/indexer.ts, `SourceWriter.losses` in lib/ingest.ts).
 */
export const DAMAGE_REASONS: ReadonlySet<string> = new Set<SkipReason>([
  "corrupt",
  "unreadable",
  "malformed_json",
]);

/** The first reason in `counts` that says the store is damaged ({@link DAMAGE_REASONS}), if any. */
export function damageIn(counts: Partial<Record<string, number>>): string | undefined {
  return Object.keys(counts).find((k) => counts[k] && DAMAGE_REASONS.has(k));
}
