/**
 * Projects a search leaves out by default: throwaway working directories
 * (temp dirs, eval-harness sandboxes; indexed, hidden unless asked for) and
 * the projects a person excluded (`${XDG_CONFIG_HOME:-~/.config}/deja/exclude`,
 * one pattern a line, `#` comments, plus `DEJA_EXCLUDE_PROJECTS`, comma
 * separated; never indexed, and hidden if indexed before the pattern was
 * added).
 *
 * A pattern matches a project path case-insensitively: as a substring, or as
 * a glob when it holds `*`, `?` or `[` (`*` matches any run of characters,
 * `/` included; the glob must match the whole path).
 *
 * @module
 */
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { expandHome } from "../../core/paths.ts";
import { readTextSync } from "../../core/fsread.ts";

/** Path of the exclusions file. */
export function excludeFile(env: Env): string {
  return join(expandHome(env, env.get("XDG_CONFIG_HOME") ?? "~/.config"), "deja", "exclude");
}

/** The exclusion patterns: the file's lines, then `DEJA_EXCLUDE_PROJECTS`. */
export function excludePatterns(env: Env): string[] {
  const out: string[] = [];
  try {
    for (const line of readTextSync(excludeFile(env)).split(/\r?\n/)) {
      const t = line.replace(/#.*$/, "").trim();
      if (t) out.push(t);
    }
  } catch { /* no file: nothing excluded */ }
  for (const p of (env.get("DEJA_EXCLUDE_PROJECTS") ?? "").split(",")) {
    if (p.trim()) out.push(p.trim());
  }
  return out;
}

function globRe(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "i");
}

/** A matcher for `patterns` (see the module doc); never matches a project-less session. */
export function projectMatcher(
  patterns: string[],
): (project: string | null | undefined) => boolean {
  if (!patterns.length) return () => false;
  const globs = patterns.filter((p) => /[*?[]/.test(p)).map(globRe);
  const subs = patterns.filter((p) => !/[*?[]/.test(p)).map((p) => p.toLowerCase());
  return (project) => {
    if (!project) return false;
    const low = project.toLowerCase();
    return subs.some((s) => low.includes(s)) || globs.some((g) => g.test(project));
  };
}

const TEMP_ROOTS =
  /^(?:\/tmp\/|\/var\/tmp\/|\/private\/tmp\/|\/private\/var\/folders\/|\/var\/folders\/|\/dev\/shm\/|[a-z]:[\\/](?:windows[\\/])?temp[\\/]|[a-z]:[\\/]users[\\/][^\\/]+[\\/]appdata[\\/]local[\\/]temp[\\/])/i;
/** Segments that mark a sandbox wherever they are (random suffixes, test runners). */
const SANDBOX_SEGMENT =
  /[\\/](?:tmp[._-][a-z0-9]{6,}|pytest-of-[^\\/]+|pytest-\d+|sandbox[-_][0-9a-z]{6,}|(?:eval|bench|swe|task|trial|run)[-_][0-9a-f]{6,}[^\\/]*|worktree-[0-9a-f]{6,})(?:[\\/]|$)/i;
const TEMP_SEGMENT =
  /[\\/](?:tmp[._-]?[a-z0-9]{6,}|tmp|temp|pytest-of-[^\\/]+|pytest-\d+|\.tmp[^\\/]*|sandbox[-_][0-9a-z]{6,}|(?:eval|bench|swe|task|trial|run)[-_][0-9a-f]{6,}[^\\/]*|worktree-[0-9a-f]{6,})(?:[\\/]|$)/i;

/**
 * True when `project` looks like a throwaway working directory: under a
 * system temp root (`/tmp`, `/var/folders`, `%TEMP%`, `$TMPDIR`), or with a
 * path segment such as `tmp.k3J9x2`, `tmp`, `pytest-of-*`, `sandbox-<id>`,
 * `eval-3fa9c1…`, `worktree-<hex>`.
 */
export function isThrowaway(project: string | null | undefined, env?: Env): boolean {
  if (!project) return false;
  // A project inside the home directory is one the person chose, even under
  // ~/tmp or in a home that itself sits in a temp dir: only sandbox-looking
  // segments (random suffixes, test runners) make it throwaway there.
  const home = env?.home;
  if (home && home.length > 1 && (project + "/").startsWith(home.replace(/\/?$/, "/"))) {
    return SANDBOX_SEGMENT.test(project.slice(home.length));
  }
  if (TEMP_ROOTS.test(project + "/") || TEMP_SEGMENT.test(project)) return true;
  const tmpdir = env?.get("TMPDIR");
  return Boolean(
    tmpdir && tmpdir.length > 1 && (project + "/").startsWith(tmpdir.replace(/\/?$/, "/")),
  );
}
