/**
 * Exclusions that can be lifted. An exclusion pattern takes effect at once:
 * the gate leaves the sessions of matching projects out at ingest, and every
 * index run drops those indexed before ({@link ./gate.ts}). Both record which
 * stores each pattern dropped sessions from, in `meta` under
 * {@link EXCLUDED_KEY} (`{pattern: [store path, ...]}`). When a recorded
 * pattern is no longer in the exclude set, its stores are *released*: their
 * stamps are reset so the next index run (or freshen on use) reads them again
 * whole and the sessions come back.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { excludePatterns } from "../search/junk.ts";

/** The `meta` key holding `{pattern: [store path, ...]}`. */
export const EXCLUDED_KEY = "excluded_sources";

/** Pattern -> store paths it dropped sessions from. */
export type ExcludedBy = Map<string, Set<string>>;

function readRecord(store: Store): Record<string, string[]> {
  const raw = Q.getMeta.get(store, { key: EXCLUDED_KEY })?.value;
  try {
    const v = raw ? JSON.parse(raw) : {};
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function writeRecord(store: Store, rec: Record<string, string[]>): void {
  Q.setMeta.run(store, { key: EXCLUDED_KEY, value: JSON.stringify(rec) });
}

/**
 * Adds `found` (pattern -> stores) to the record kept in the index and empties
 * `found`. Call inside the transaction that left the sessions out, so the
 * record and the stamp saying "read" commit together.
 */
export function recordExcluded(store: Store, found: ExcludedBy): void {
  if (!found.size) return;
  const rec = readRecord(store);
  for (const [pattern, paths] of found) {
    rec[pattern] = [...new Set([...(rec[pattern] ?? []), ...paths])].sort();
  }
  found.clear();
  writeRecord(store, rec);
}

/** A store whose sessions a pattern no longer in force had dropped. */
export interface Released {
  path: string;
  harness: string;
}

/**
 * The stores to read again because a pattern that dropped sessions from them
 * is no longer in the exclude set of `env` (read only; see {@link releaseExcluded}).
 */
export function releasedSources(store: Store, env: Env): Released[] {
  const rec = readRecord(store);
  const now = new Set(excludePatterns(env));
  const paths = new Set<string>();
  for (const [pattern, ps] of Object.entries(rec)) {
    if (!now.has(pattern) && Array.isArray(ps)) { for (const p of ps) paths.add(String(p)); }
  }
  const out: Released[] = [];
  for (const path of paths) {
    const row = Q.sourceByPath.get(store, { path });
    if (row) out.push({ path, harness: row.harness });
  }
  return out;
}

/**
 * Resets the stamps of every released store (so it is read again whole) and
 * forgets the lifted patterns. Call with the writer lock held, before the
 * index run reads any store.
 *
 * @returns the stores reset.
 */
export function releaseExcluded(store: Store, env: Env): Released[] {
  const released = releasedSources(store, env);
  const rec = readRecord(store);
  const now = new Set(excludePatterns(env));
  const lifted = Object.keys(rec).filter((p) => !now.has(p));
  if (!lifted.length) return released;
  store.tx(() => {
    for (const r of released) Q.resetSourceStamp.run(store, { path: r.path });
    for (const p of lifted) delete rec[p];
    writeRecord(store, rec);
  });
  return released;
}
