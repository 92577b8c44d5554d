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
