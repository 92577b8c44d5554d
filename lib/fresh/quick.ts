/**
 * The no-op index run from the stat manifest alone (./manifest.ts): whether
 * the index is up to date for the harnesses asked, answered with a stat pass
 * (./stamps.ts) and without opening SQLite or loading a query. `deja index` as
 * people type it starts here, before the commands load (bin.ts,
 * lib/cli/index_quick.ts); ./noop.ts starts here too, then asks the index
 * itself when the manifest cannot vouch.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env } from "../../core/model.ts";
import { harnessIds } from "../../core/registry.ts";
import { SCHEMA_VERSION } from "../schema_version.ts";
import { compareStamps, isFresh } from "./stamps.ts";
import { readManifest, touchManifest } from "./manifest.ts";
import { excludePatterns } from "../search/junk.ts";
import { loadRemotes } from "../remote/config.ts";
import type { HarnessSummary } from "../indexer.ts";
import { emptySummary } from "../index_summary.ts";
import type { NoopResult } from "./noop.ts";

/**
 * The harness ids a no-op run covers (`only`, else all), or null when a full run is
 * needed whatever the stores hold: no index at `path`, a harness deja does not know, an
 * exclusion pattern or a remote (see ./noop.ts).
 */
export function selectedHarnesses(
  env: Env,
  path: string,
  only: readonly string[] | undefined,
): string[] | null {
  if (!existsSync(path)) return null;
  const ids = harnessIds();
  if (only?.some((h) => !ids.includes(h))) return null;
  const selected = only ? ids.filter((h) => only.includes(h)) : ids;
  if (excludePatterns(env).length || remotesConfigured(env)) return null;
  return selected;
}

/**
 * The result of a no-op run of the harnesses `selected` ({@link selectedHarnesses}) from the
 * stat manifest of the index at `path`, its time recorded (the manifest's mtime), or null when
 * the manifest cannot vouch for the index.
 */
export function manifestUpToDate(
  env: Env,
  path: string,
  selected: string[],
  t0: number = performance.now(),
): NoopResult | null {
  const quick = fromManifest(env, path, selected);
  if (!quick) return null;
  touchManifest(path);
  return { ...quick, ms: performance.now() - t0 };
}

/** The answer from the stat manifest, null when it cannot vouch for the index (see the module doc). */
function fromManifest(env: Env, path: string, selected: string[]): NoopResult | null {
  const m = readManifest(path, SCHEMA_VERSION);
  if (!m || m.excluded || !allClean(m.harnesses, selected)) return null;
  const stale = compareStamps({ rows: m.rows, map: m.map, lastIndex: 0 }, {
    env,
    harnesses: selected,
  });
  if (!isFresh(stale) || stale.failed) return null;
  const harnesses = unchanged(m.harnesses, selected);
  return { harnesses, excluded: 0, pending: 0, ms: 0, totals: m.totals };
}

/** True when every selected harness's last full run read all it found, without an error. */
export function allClean(last: readonly HarnessSummary[], selected: readonly string[]): boolean {
  const byId = new Map(last.map((h) => [h.harness, h]));
  const clean = (h: HarnessSummary | undefined) =>
    h !== undefined && !h.origin && !h.errors?.length && !h.failed && !h.discoveryFailed;
  return selected.every((id) => clean(byId.get(id)));
}

/** The summaries of a run that read nothing: what the last full run found, nothing read. */
export function unchanged(
  last: readonly HarnessSummary[],
  selected: readonly string[],
): HarnessSummary[] {
  return last
    .filter((h) => selected.includes(h.harness))
    .map((h) => emptySummary(h.harness, { roots: h.roots, found: h.found }));
}

/** True when a remote is configured: its mirror is read by full runs only. */
function remotesConfigured(env: Env): boolean {
  try {
    return loadRemotes(env).length > 0;
  } catch {
    return true;
  }
}
