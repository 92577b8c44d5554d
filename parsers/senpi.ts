/**
 * Senpi (`@code-yeongyu/senpi`, "OmO Native"): pi session JSONL under its own agent
 * directory, or a project-local one.
 *
 * Store (docs/registry/senpi.md, verified there in code-yeongyu/senpi `config.ts` and
 * `core/session-manager.ts`; the variable names confirmed again in other projects'
 * launchers via the search tool; no real store here):
 * - `${DEJA_SENPI_ROOT:-${SENPI_CODING_AGENT_SESSION_DIR:-${SENPI_CODING_AGENT_DIR:-~/.senpi/agent}/sessions}}`
 *   `/--<cwd encoded as pi does>--/<time>_<id>.jsonl`;
 * - a project-local store `<project>/.senpi/agent/sessions/` (Senpi takes the nearest
 *   `.senpi/agent` above its cwd): looked for in every project directory deja knows.
 * The first run moves `~/.pi/agent` to `~/.senpi/agent`, so a transcript can be seen by
 * both parsers under the same header id. With codemode on, shell calls run inside an
 * `eval` cell; the calls it made (`details.toolCalls[{name, args}]` on its result)
 * become tool calls of their own. `extensions/terminal/*.json` is extension state, not
 * read. Everything else is the shared pi reader's (`_pi.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type { Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { piJsonlParser } from "./_pi.ts";

/** The Senpi parser. */
export const senpi: Parser = piJsonlParser({
  id: "senpi",
  roots: (env) => [
    rootFrom(env, "senpi", [
      ["SENPI_CODING_AGENT_SESSION_DIR", ""],
      ["SENPI_CODING_AGENT_DIR", "sessions"],
    ], "~/.senpi/agent/sessions"),
  ],
  probes: (known) => known.map((p) => join(p, ".senpi", "agent", "sessions")),
});
