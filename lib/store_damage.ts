/**
 * Which stores the index's last reads found damaged or could not read, per
 * harness, from the `sources` rows alone (no discovery): what `deja doctor`
 * reports in short, pointing at `deja sources --verbose` for the details.
 *
 * @module
 */
import { join, sep } from "node:path";
import type { Env } from "../core/model.ts";
import { dataDir } from "../core/paths.ts";
import type { SourceRow } from "./rows.ts";
import { isLoss } from "./skips.ts";
import { parseKept, parseSkips } from "./source_state.ts";
import { storeState } from "./gone.ts";

/** One harness's stores whose last read failed or lost records. */
export interface HarnessDamage {
  harness: string;
  /** Stores whose last read failed (nothing of them read). */
  failed: number;
  /** The most recent failure, `path: message`, or null. */
  last_error: string | null;
  /** Stores whose last read skipped records (not only repaired them) or kept sessions as indexed. */
  damaged: number;
  /** Records those reads lost, by reason (repaired and pending reasons left out). */
  skipped: Record<string, number>;
  /** Sessions damaged reads returned shorter or not at all, kept as indexed. */
  kept: number;
}

/** What one store's recorded skips say: counts by reason, the lost ones, sessions kept as indexed. */
export interface StoreSkips {
  counts: Record<string, number>;
  /** Reasons that lost records (repaired and pending ones left out), with their counts. */
  lost: Array<[string, number]>;
  kept: number;
  /** The store's last read lost records or kept sessions as indexed. */
  damaged: boolean;
}

/** Reads a `sources.skipped` value (lib/source_state.ts) as {@link StoreSkips}. */
export function storeSkips(skipped: string | null): StoreSkips {
  const counts = parseSkips(skipped) as Record<string, number>;
  const lost = Object.entries(counts).filter(([k, v]) => v && isLoss(k));
  const kept = parseKept(skipped);
  return { counts, lost, kept, damaged: lost.length > 0 || kept > 0 };
}

/**
 * Per harness (in row order), the stores still in place whose last read failed
 * or was damaged, or that cannot be read now; harnesses with none are left out,
 * and so are the stores read from remote mirrors (`deja remote`) and stores
 * that are gone (lib/gone.ts).
 */
export function storeDamage(
  env: Env,
  rows: ReadonlyArray<Pick<SourceRow, "path" | "harness" | "skipped" | "error" | "indexed_at">>,
): HarnessDamage[] {
  const mirrors = join(dataDir(env), "remotes") + sep;
  const by = new Map<string, HarnessDamage & { at: number }>();
  for (const r of rows) {
    if (r.path.startsWith(mirrors)) continue;
    const state = storeState(r.path);
    if (state === "gone") continue;
    // One a stat cannot reach now (permission denied) failed, whatever its last read said.
    const error = state === "unreadable" ? "cannot be read now" : r.error;
    const { lost, kept, damaged } = storeSkips(r.skipped);
    if (!error && !damaged) continue;
    const h = by.get(r.harness) ?? {
      harness: r.harness,
      failed: 0,
      last_error: null,
      damaged: 0,
      skipped: {},
      kept: 0,
      at: -1,
    };
    by.set(r.harness, h);
    if (error) {
      h.failed++;
      if ((r.indexed_at ?? 0) > h.at) {
        h.at = r.indexed_at ?? 0;
        h.last_error = `${r.path}: ${error}`;
      }
    }
    if (damaged) {
      h.damaged++;
      h.kept += kept;
      for (const [k, v] of lost) h.skipped[k] = (h.skipped[k] ?? 0) + v;
    }
  }
  return [...by.values()].map(({ at: _, ...h }) => h);
}

/**
 * One harness's damage in a few words: `1 store failed (path: file is not a
 * database)`, `2 stores damaged: skipped 3 malformed_json, kept 1 session as
 * indexed`.
 */
export function damageSummary(h: HarnessDamage): string {
  const stores = (n: number) => `${n} store${n === 1 ? "" : "s"}`;
  const parts: string[] = [];
  if (h.failed) parts.push(`${stores(h.failed)} failed (${h.last_error})`);
  if (h.damaged) {
    const what = [
      ...Object.keys(h.skipped).length
        ? [`skipped ${Object.entries(h.skipped).map(([k, v]) => `${v} ${k}`).join(", ")}`]
        : [],
      ...h.kept ? [`kept ${h.kept} session${h.kept === 1 ? "" : "s"} as indexed`] : [],
    ];
    parts.push(`${stores(h.damaged)} damaged: ${what.join(", ")}`);
  }
  return `${h.harness}: ${parts.join("; ")}`;
}
