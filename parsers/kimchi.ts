/**
 * Kimchi Coding (`@getkimchi/kimchi`): pi session JSONL under Kimchi's own harness
 * directory.
 *
 * Store (docs/registry/kimchi.md, from the deja-vu registry; `KIMCHI_CODING_AGENT_DIR` and the
 * default `~/.config/kimchi/harness` confirmed in Kimchi's entry point via the search
 * tool, which joins the home directory with `.config` literally; no real store here):
 * `${DEJA_KIMCHI_ROOT:-${KIMCHI_CODING_AGENT_DIR:-~/.config/kimchi/harness}/sessions}/`,
 * flat (`<session>.jsonl`) per the notes or in pi's per-project folders; both are walked.
 * `$XDG_CONFIG_HOME/kimchi/harness/sessions` is read too when that variable is set.
 * With no project folder, the project is the header `cwd`. Everything else is the
 * shared pi reader's (`_pi.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type { Parser } from "../core/model.ts";
import { overrideVar, rootFrom, xdgConfig } from "../core/paths.ts";
import { piJsonlParser } from "./_pi.ts";

/** The Kimchi parser. */
export const kimchi: Parser = piJsonlParser({
  id: "kimchi",
  roots(env) {
    const main = rootFrom(
      env,
      "kimchi",
      [["KIMCHI_CODING_AGENT_DIR", "sessions"]],
      "~/.config/kimchi/harness/sessions",
    );
    if (env.get(overrideVar("kimchi")) || !env.get("XDG_CONFIG_HOME")) return [main];
    return [main, join(xdgConfig(env), "kimchi", "harness", "sessions")];
  },
});
