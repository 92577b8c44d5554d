/**
 * The remotes' mirrors as `deja index` reads them: one pass per remote with
 * its mirror's env and its label; a mirror mid-sync (or never synced) is not
 * readable and is left as the index has it.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { loadRemotes, mirrorDir } from "./config.ts";
import type { Label } from "./label.ts";
import { remoteMirrorEnv } from "./mirror.ts";

/** One remote's mirror, for the indexer. */
export interface MirrorPass {
  /** The mirror directory (every source read from it is under it). */
  dir: string;
  env: Env;
  label: Label;
  /** The last sync completed: the mirror holds whole files only. */
  readable: boolean;
}

/** Every configured remote's mirror pass ([] when there are none or the file is unreadable). */
export function mirrorPasses(env: Env): MirrorPass[] {
  let remotes;
  try {
    remotes = loadRemotes(env);
  } catch {
    return []; // `deja remote list` reports the broken file; indexing goes on
  }
  return remotes.map((r) => ({
    dir: mirrorDir(env, r.name),
    env: remoteMirrorEnv(env, r),
    label: { origin: r.name, pathMaps: r.pathMaps ?? [], mirror: mirrorDir(env, r.name) },
    readable: Boolean(r.sync?.complete && r.sync.home),
  }));
}
