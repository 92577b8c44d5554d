/**
 * What a later freshness check needs to know without running discovery: per
 * harness, the directories whose contents hold its stores (with their mtimes
 * at the last index run), and per source the companion files (a `-wal`, a
 * sidecar) whose stamps the index keeps. Written by every `deja index` run to
 * the `meta` table under {@link FRESH_KEY}.
 *
 * A new store appears as a new entry in one of these directories, which
 * changes that directory's mtime; a new directory changes its parent's; a
 * store named in a registry file (Crush's projects.json) changes that file's
 * mtime, which is stamped with them. So a stat of these directories and files
 * tells whether discovery could find anything new.
 *
 * @module
 */
import { dirname, sep } from "node:path";
import type { Env, SourceRef } from "../../core/model.ts";
import { storeVariables } from "../../core/registry.ts";
import { mtimeOf } from "../../core/stat.ts";

/** The `meta` key the map is kept under. */
export const FRESH_KEY = "fresh_map";

/** How many directory levels above a store are watched (a root stops the walk earlier). */
const MAX_LEVELS = 6;

/** The freshness map (JSON in `meta`). */
export interface FreshMap {
  /**
   * harness id -> directory, or file its discovery reads to find stores
   * (Discovery.reads: Crush's projects.json) -> mtime in epoch ms (-1: did
   * not exist, -2: changed while discovery ran).
   */
  dirs: Record<string, Record<string, number>>;
  /** harness id -> source path -> its companion paths, in the order the index stamps them. */
  companions: Record<string, Record<string, string[]>>;
  /**
   * harness id -> {@link placesStamp} when it was discovered: the variables
   * that place stores (HOME, `DEJA_<ID>_ROOT`, `CLAUDE_CONFIG_DIR`, ...), so a
   * run under other values knows the directories above are not its own.
   */
  places?: Record<string, string>;
}

/** The values of every variable that places a harness's stores (core/registry.ts), and HOME. */
export function placesStamp(env: Env): string {
  return JSON.stringify([env.home, ...storeVariables().map((v) => env.get(v) ?? null)]);
}

export { mtimeOf };

/**
 * The directories to watch for one harness: its roots, and every directory
 * between a root and each store under it. A store outside every root (a
 * project's own `.crush/crush.db`, aider's history in a project) adds only
 * its own directory: walking up from there would reach busy places such as
 * `/tmp` or the home directory, whose mtime changes all the time. A store
 * that is itself a root adds nothing more: its own stamp shows it appear.
 */
export function harnessDirs<S extends Pick<SourceRef, "path">>(
  roots: readonly string[],
  sources: readonly S[],
): string[] {
  const out = new Set<string>(roots);
  const inside = (d: string) =>
    roots.some((r) => d === r || d.startsWith(r.endsWith(sep) ? r : r + sep));
  for (const s of sources) {
    // A store that is itself a root (deja's notes file, aider's history) is stamped as that root:
    // its directory (the data directory, the home directory) changes all the time.
    if (roots.includes(s.path)) continue;
    let d = dirname(s.path);
    if (!inside(d)) {
      out.add(d);
      continue;
    }
    for (let i = 0; i < MAX_LEVELS && !out.has(d) && inside(d); i++) {
      out.add(d);
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  return [...out];
}

/** Stamps `dirs` now. */
export function stampDirs(dirs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of dirs) out[d] = mtimeOf(d);
  return out;
}

/** Parses the stored map; an absent or damaged one is empty (the next index run writes it). */
export function parseFreshMap(json: string | undefined | null): FreshMap {
  if (!json) return { dirs: {}, companions: {}, places: {} };
  try {
    const v = JSON.parse(json) as Partial<FreshMap>;
    return { dirs: v.dirs ?? {}, companions: v.companions ?? {}, places: v.places ?? {} };
  } catch {
    return { dirs: {}, companions: {}, places: {} };
  }
}
