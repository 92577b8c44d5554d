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
import { REDACTION, revisionOf } from "../version.ts";

/** Stores an older reader or redaction read: their harnesses, how many, how many by older rules. */
export interface Revised {
  harnesses: string[];
  stores: number;
  redaction: number;
}

/**
 * The harnesses of such stores (of the harnesses `only` names, when given), how many stores (read without error), and how many of them an
 * older secrets redaction read (`redaction`: their text may hold what the rules of now mask).
 */
export function revisedStores(
  store: Store,
  only?: readonly string[],
): Revised {
  const harnesses = new Set<string>();
  let stores = 0;
  let redaction = 0;
  for (const r of Q.readerRevisions.all(store, {})) {
    if ((r.reader ?? 0) === revisionOf(r.harness) || (only && !only.includes(r.harness))) continue;
    harnesses.add(r.harness);
    stores += r.n;
    if (olderRules(r.reader)) redaction += r.n;
  }
  return { harnesses: [...harnesses], stores, redaction };
}

/**
 * Meta key set by a refresh on use that read stores an older secrets redaction had read, and
 * by a full run reading them until it ends: the next full run makes the vocabulary again,
 * merges the text index and writes the file again whole, as a run starting with such stores
 * does (trial 132 F3: a search that read every store again left the old values in
 * `vocab`, and no run after made it again). Until then no stat manifest vouches for the index,
 * and a command starts that run.
 */
export const VOCAB_OWED_KEY = "vocab_owed";

/** True when a refresh on use left the vocabulary to be made again ({@link VOCAB_OWED_KEY}). */
export function vocabOwed(store: Store): boolean {
  return Q.getMeta.get(store, { key: VOCAB_OWED_KEY }) !== undefined;
}

/** True when a store's reader revision was counted under an older secrets redaction. */
function olderRules(reader: number | null): boolean {
  return Math.floor((reader ?? 0) / 1000) < REDACTION;
}

/**
 * Stores (read without error) whose text an older secrets redaction wrote: until they are read
 * again, what the index gives back may hold what the rules of now mask (trial 129 F3). Hooks
 * and MCP give nothing from such an index; the CLI says it.
 */
export function olderRedaction(store: Store): number {
  return Q.olderReaders.get(store, { below: REDACTION * 1000 })?.n ?? 0;
}

/** Why a run reads stores again whole: `deja: read 31 stores again: new secret-redaction rules`. */
export function rereadLine(r: Revised): string {
  const n = (k: number) => (k === 1 ? "1 store" : `${k} stores`);
  const why = r.redaction
    ? "new secret-redaction rules" +
      (r.redaction < r.stores ? `, and deja reads ${r.harnesses.join(", ")} better now` : "")
    : `deja reads ${r.harnesses.join(", ")} better now`;
  return `read ${n(r.stores)} again whole: ${why}`;
}
