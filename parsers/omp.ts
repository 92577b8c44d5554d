/**
 * Oh My Pi (`@oh-my-pi/pi-coding-agent`, binary `omp`): pi's session JSONL under its own
 * config root, with named profiles and an XDG layout.
 *
 * Store (can1357/oh-my-pi `packages/utils/src/dirs.ts`, read via the search tool):
 * - `~/${PI_CONFIG_DIR:-.omp}/agent/sessions/-<cwd with / as ->/<ISO time>_<uuid>.jsonl`
 *   (single leading dash; observed in realdata/farm/omp, omp 18.2.3);
 * - named profiles `~/.omp/profiles/<name>/agent/sessions/`;
 * - after `omp config migrate`, `$XDG_DATA_HOME/omp/sessions/` and
 *   `$XDG_DATA_HOME/omp/profiles/<name>/sessions/` (no `agent` segment).
 * `DEJA_OMP_ROOT`, when set, is the only root. omp also honours `PI_CODING_AGENT_DIR`,
 * but that name is pi's too: it is left to the pi parser so one store is not indexed
 * twice.
 *
 * Format differences from pi (farm store): the first line is a fixed-width `title` slot
 * `{type:"title", v, title, updatedAt, pad}` rewritten in place, then the `session`
 * header; `model_change.model` is `provider/id`; `custom` entries
 * (`tool_execution_start`, `session_exit`) are bookkeeping; bash results carry
 * `details.exitCode` and a `Wall time:` line; `edit` uses omp's hash-anchored patch
 * language (only its path is kept) so the farm's README change was a whole-file `write`.
 * `agent.db` beside the sessions holds settings, model timings, usage and auth
 * credentials, no transcript (farm store, schema_version 6): it is not read.
 *
 * @module
 */
import { join } from "node:path";
import type { Env, Parser } from "../core/model.ts";
import { expandHome, overrideVar, xdgData } from "../core/paths.ts";
import { eachSubdir, piJsonlParser } from "./_pi.ts";

async function ompRoots(env: Env): Promise<string[]> {
  const override = env.get(overrideVar("omp"));
  if (override) return [expandHome(env, override)];
  const base = expandHome(env, join("~", env.get("PI_CONFIG_DIR") ?? ".omp"));
  const xdg = join(xdgData(env), "omp");
  return [
    join(base, "agent", "sessions"),
    ...await eachSubdir(join(base, "profiles"), "agent", "sessions"),
    join(xdg, "sessions"),
    ...await eachSubdir(join(xdg, "profiles"), "sessions"),
  ];
}

/** The omp parser. */
export const omp: Parser = piJsonlParser({ id: "omp", roots: ompRoots });
