/**
 * What an index run's summary of a harness means, for the commands that print
 * it (`deja index`, `--watch`, `deja install`'s first index) without loading
 * the indexer.
 *
 * @module
 */
import type { HarnessSummary } from "./indexer.ts";

/**
 * Distinct sessions a harness's run wrote: {@link HarnessSummary.sessions}
 * (one per store that holds a session) less the copies (a session three
 * stores hold is one session and two copies).
 */
export function sessionsWritten(h: Pick<HarnessSummary, "sessions" | "copies">): number {
  return h.sessions - (h.copies ?? 0);
}

/** A harness's summary before anything is read: no store read, nothing written or skipped. */
export function emptySummary(
  harness: string,
  o: { roots?: string[]; found?: number; origin?: string } = {},
): HarnessSummary {
  return {
    harness,
    roots: o.roots ?? [],
    found: o.found ?? 0,
    read: 0,
    sessions: 0,
    events: 0,
    skipped: {},
    drift: {},
    errors: [],
    failed: 0,
    ...(o.origin ? { origin: o.origin } : {}),
  };
}
