/**
 * gajae-code (`gjc`), an omp fork: pi session JSONL with sub-agent passes one level down.
 *
 * Store (docs/registry/gjc.md, from the deja-vu registry's reading of gjc's docs; the variable
 * names confirmed in third-party readers and gjc tooling via the search tool; no real
 * store here):
 * - `${DEJA_GJC_ROOT:-${GJC_CODING_AGENT_DIR:-~/${GJC_CONFIG_DIR:-.gjc}/agent}/sessions}/<project slug>/<session>.jsonl`,
 *   and `$XDG_DATA_HOME/gjc/sessions/` (omp's XDG layout);
 * - sub-agent passes `<project slug>/<session>/<n>-<name>.jsonl`: their own sessions,
 *   with `parent` = the header id of `<session>.jsonl` (shared rule in `_pi.ts`).
 * `service_tier_change` lines are bookkeeping. Everything else is the shared pi
 * reader's.
 *
 * @module
 */
import { join } from "node:path";
import type { Parser } from "../core/model.ts";
import { overrideVar, rootFrom, xdgData } from "../core/paths.ts";
import { piJsonlParser } from "./_pi.ts";

/** The gajae-code parser. */
export const gjc: Parser = piJsonlParser({
  id: "gjc",
  roots(env) {
    const home = `~/${env.get("GJC_CONFIG_DIR") ?? ".gjc"}/agent/sessions`;
    const main = rootFrom(env, "gjc", [["GJC_CODING_AGENT_DIR", "sessions"]], home);
    if (env.get(overrideVar("gjc"))) return [main];
    return [main, join(xdgData(env), "gjc", "sessions")];
  },
});
