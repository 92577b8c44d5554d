/**
 * The variable a harness's resume command must be given when the session's store is not
 * where the command looks (trial 94 F6: with `DEJA_CODEX_ROOT` read from a copy,
 * `codex resume <id>` looked in `~/.codex` and would not find the session). Codex reads its
 * sessions under `${CODEX_HOME:-~/.codex}/sessions`; Claude Code its projects under
 * `${CLAUDE_CONFIG_DIR:-~/.claude}/projects` (docs/registry/codex.md, claude.md; the same
 * variables deja's own readers honour, parsers/codex.ts and claude.ts).
 *
 * @module
 */
import { join } from "node:path";
import { realpathSync } from "node:fs";
import type { Env } from "../core/model.ts";

/** Per harness: the variable that moves its home, the store's folder in it, the default home. */
const HOMES: Record<string, { variable: string; under: string; fallback: string }> = {
  codex: { variable: "CODEX_HOME", under: "sessions", fallback: ".codex" },
  claude: { variable: "CLAUDE_CONFIG_DIR", under: "projects", fallback: ".claude" },
};

/**
 * `{ VARIABLE: home }` when the home `source` (a store file the index read) lies in is not
 * the one harness `harness` would read under `env`; undefined when it is, or when the path
 * says no home (another layout, a Windows path).
 */
export function homeVars(
  harness: string,
  source: string,
  env: Env,
): Record<string, string> | undefined {
  const h = HOMES[harness];
  if (!h || !source.startsWith("/")) return undefined;
  const parts = source.split("/");
  const i = parts.lastIndexOf(h.under);
  if (i <= 0) return undefined;
  const home = parts.slice(0, i).join("/") || "/";
  const used = env.get(h.variable) ?? join(env.home, h.fallback);
  return samePlace(home, used) ? undefined : { [h.variable]: home };
}

function samePlace(a: string, b: string): boolean {
  if (a.replace(/\/+$/, "") === b.replace(/\/+$/, "")) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
