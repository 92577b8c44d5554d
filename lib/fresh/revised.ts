/**
 * The stores the index holds as read by an older reader of their harness or an older secrets
 * redaction (lib/version.ts `revisionOf`): the next full run reads them again whole. Asked by
 * a command's freshness check (it starts that run), by the indexer (a run that starts with any
 * makes the vocabulary again) and before the stat manifest is written (none vouches for an
 * index holding any).
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { revisionOf } from "../version.ts";

/** The harnesses of such stores, and how many stores (read without error). */
export function revisedStores(store: Store): { harnesses: string[]; stores: number } {
  const harnesses = new Set<string>();
  let stores = 0;
  for (const r of Q.readerRevisions.all(store, {})) {
    if ((r.reader ?? 0) === revisionOf(r.harness)) continue;
    harnesses.add(r.harness);
    stores += r.n;
  }
  return { harnesses: [...harnesses], stores };
}
