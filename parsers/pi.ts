/**
 * pi (`@mariozechner/pi-coding-agent`, badlogic/pi-mono): one JSONL file per session.
 *
 * Store: `${DEJA_PI_ROOT:-${PI_CODING_AGENT_SESSION_DIR:-${PI_CODING_AGENT_DIR:-~/.pi/agent}/sessions}}`
 * `/--<cwd, leading slash dropped, / \ : as ->--/<ISO time>_<uuid>.jsonl`
 * (`PI_CODING_AGENT_DIR` and the `--…--` encoding from pi-mono `config.ts` and
 * `core/session-manager.ts`, read via the search tool; layout observed in
 * realdata/farm/pi, pi 0.73.1). `auth.json` and `models.json` beside the sessions are
 * never read. The format and the mapping are the shared pi reader's (`_pi.ts`,
 * `_pi_events.ts`, `_pi_tools.ts`): times are ISO strings on entries and epoch ms inside
 * messages, both read through toMillis; the project is the header's `cwd`.
 *
 * @module
 */
import type { Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { piJsonlParser } from "./_pi.ts";

/** The pi parser. */
export const pi: Parser = piJsonlParser({
  id: "pi",
  roots: (env) => [
    rootFrom(
      env,
      "pi",
      [["PI_CODING_AGENT_SESSION_DIR", ""], ["PI_CODING_AGENT_DIR", "sessions"]],
      "~/.pi/agent/sessions",
    ),
  ],
});
