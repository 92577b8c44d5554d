/**
 * prime-agent (PrimeIntellect-ai/prime-agent): pi session JSONL in a flat directory,
 * with `rlm.spawn` children under `session-artifacts/`.
 *
 * Store (docs/registry/prime.md: variable names and layout verified there in the harness's
 * `packages/coding-agent/src/config.ts`; the names confirmed again in third-party
 * readers via the search tool; no real store here):
 * - sessions `${DEJA_PRIME_ROOT:-${PRIME_AGENT_SESSION_DIR:-${PRIME_AGENT_CODING_AGENT_SESSION_DIR:-${PRIME_AGENT_CODING_AGENT_DIR:-~/.prime/agent}/sessions}}}/<uuid7>.jsonl`;
 * - children `<sessions>/../session-artifacts/<parentId>/sub-<n>/<childId>.jsonl`, whose
 *   headers carry `parentSession` and `rlmDepth > 0`; `semantic-edges.jsonl` there is an
 *   event log, not a transcript, and is not read.
 * The project is the header `cwd` (the directory is flat). The one tool is `ipython`;
 * its results' `details.diffs[{path, oldStr, newStr}]` become the result's edit spans.
 * Everything else is the shared pi reader's (`_pi.ts`).
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { piJsonlParser } from "./_pi.ts";

const CHILD = /[\\/]session-artifacts[\\/]([^\\/]+)[\\/]sub-[^\\/]+[\\/][^\\/]+\.jsonl$/;

/** The prime-agent parser. */
export const prime: Parser = piJsonlParser({
  id: "prime",
  roots(env) {
    const sessions = rootFrom(env, "prime", [
      ["PRIME_AGENT_SESSION_DIR", ""],
      ["PRIME_AGENT_CODING_AGENT_SESSION_DIR", ""],
      ["PRIME_AGENT_CODING_AGENT_DIR", "sessions"],
    ], "~/.prime/agent/sessions");
    return [sessions, join(dirname(sessions), "session-artifacts")];
  },
  accept: (_path, name) => name !== "semantic-edges.jsonl",
  parentOf: (path) => CHILD.exec(path)?.[1],
});
