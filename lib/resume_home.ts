/**
 * The variable a harness's resume command must be given when the session's store is not
 * where the command looks (trial 94 F6: with `DEJA_CODEX_ROOT` read from a copy,
 * `codex resume <id>` looked in `~/.codex` and would not find the session), and why not where
 * no variable can make it look there (trial 97 F6), which `deja resume` refuses with exit 2
 * (trial 130 F1: it printed the command, said it would not find the session, and exited 0).
 *
 * - Codex reads its sessions under `${CODEX_HOME:-~/.codex}/sessions`; Claude Code its projects
 *   under `${CLAUDE_CONFIG_DIR:-~/.claude}/projects` (docs/registry/codex.md, claude.md; the
 *   same variables deja's own readers honour, parsers/codex.ts and claude.ts). A Claude store
 *   in a folder not named `projects` is reached by no variable.
 * - Gemini CLI reads `<home>/.gemini/tmp/<project>/chats`, its home `GEMINI_CLI_HOME` or the
 *   user's (gemini-cli `packages/core/src/utils/paths.ts` `homedir()`, read via the search
 *   tool, 2026-12); a store not in a folder named `.gemini` is reached by none.
 * - opencode opens `OPENCODE_DB` when set (absolute, or relative to its data folder), else
 *   `opencode.db` in `${XDG_DATA_HOME:-~/.local/share}/opencode` (or `opencode-<channel>.db`
 *   for a build of another channel: opencode `packages/opencode/src/storage/db.ts`
 *   `Database.Path`, `flag/flag.ts`, read via the search tool, 2026-12). `OPENCODE_DB`
 *   names the very file and moves nothing else (`XDG_DATA_HOME` would move its logins too);
 *   the JSON tree of builds before 1.2 (`<data>/opencode/storage/`) is reached by
 *   `XDG_DATA_HOME`.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import { realpathSync } from "node:fs";
import type { Env } from "../core/model.ts";

/**
 * Per harness: the variable that moves its home, the folders of the store in it, the home
 * the command reads without the variable; `warn`: say so of a store in no such folder.
 */
const HOMES: Record<
  string,
  {
    variable: string;
    under: string[];
    /** Another folder of the store in the home (Codex's archived threads). */
    also?: string[];
    fallback: (env: Env) => string;
    warn: boolean;
  }
> = {
  codex: {
    variable: "CODEX_HOME",
    under: ["sessions"],
    // `codex resume` finds an archived thread under `$CODEX_HOME/archived_sessions` too (trial
    // 100 F4: an archived session's command lacked the variable).
    also: ["archived_sessions"],
    fallback: (env) => join(env.home, ".codex"),
    warn: false,
  },
  claude: {
    variable: "CLAUDE_CONFIG_DIR",
    under: ["projects"],
    fallback: (env) => join(env.home, ".claude"),
    warn: true,
  },
  gemini: {
    variable: "GEMINI_CLI_HOME",
    under: [".gemini", "tmp"],
    fallback: (env) => env.home,
    warn: true,
  },
};

/** What a resume command needs to find a session's store: variables, or why none can do. */
export interface HomeNeeds {
  /** `{ VARIABLE: value }` the command must run with. */
  vars?: Record<string, string>;
  /** Why the command will not find the session, where no variable can make it. */
  warning?: string;
  /** With `warning`: the folder the command reads its sessions from (its home's). */
  reads?: string;
}

/**
 * What harness `harness`'s resume command needs under `env` to find the session whose store
 * file the index read is `source` (see the module doc); undefined when it finds it as is, or
 * when the path says nothing deja can tell (a Windows path, a harness not listed).
 */
export function homeNeeds(harness: string, source: string, env: Env): HomeNeeds | undefined {
  if (!source.startsWith("/")) return undefined;
  if (harness === "opencode") return opencodeNeeds(source, env);
  const h = HOMES[harness];
  if (!h) return undefined;
  const parts = source.split("/");
  const under = lastRun(parts, h.under);
  const i = under < 0 && h.also ? lastRun(parts, h.also) : under;
  const used = env.get(h.variable) || h.fallback(env);
  if (i < 0) {
    if (!h.warn) return undefined;
    const where = join(used, ...h.under);
    return {
      warning: `its store (${dirname(source)}) is in no folder ${harness}'s command reads ` +
        `(${where}, or the same under another ${h.variable})`,
      reads: where,
    };
  }
  const home = parts.slice(0, i).join("/") || "/";
  return samePlace(home, used) ? undefined : { vars: { [h.variable]: home } };
}

/** opencode: the database file by `OPENCODE_DB`, the JSON tree by `XDG_DATA_HOME`. */
function opencodeNeeds(source: string, env: Env): HomeNeeds | undefined {
  const xdg = env.get("XDG_DATA_HOME") || join(env.home, ".local", "share");
  const data = join(xdg, "opencode");
  if (source.endsWith(".db")) {
    const set = env.get("OPENCODE_DB");
    const opened = set ? (isAbsolute(set) ? set : join(data, set)) : join(data, "opencode.db");
    if (samePlace(source, opened)) return undefined;
    // A channel's own database beside the default one: the build of that channel opens it.
    if (!set && samePlace(dirname(source), data) && /^opencode-.+\.db$/.test(basename(source))) {
      return undefined;
    }
    return { vars: { OPENCODE_DB: source } };
  }
  const parts = source.split("/");
  const i = lastRun(parts, ["opencode", "storage"]);
  if (i < 0) return undefined;
  const home = parts.slice(0, i).join("/") || "/";
  return samePlace(home, xdg) ? undefined : { vars: { XDG_DATA_HOME: home } };
}

/** Index of the last place `run` stands whole in `parts` (not at 0), -1 when nowhere. */
function lastRun(parts: readonly string[], run: readonly string[]): number {
  for (let i = parts.length - run.length; i > 0; i--) {
    if (run.every((p, k) => parts[i + k] === p)) return i;
  }
  return -1;
}

function samePlace(a: string, b: string): boolean {
  if (a.replace(/\/+$/, "") === b.replace(/\/+$/, "")) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
