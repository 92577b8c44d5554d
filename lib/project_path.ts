/**
 * The one rule for a session's project path as the index keeps it. Parsers
 * hand over the directory as the harness wrote it; ingest applies
 * {@link normalizeProject} before anything else sees it (the exclusion gate,
 * the sessions table), so `last`, `stats`, `--project` and the hooks count one
 * project once.
 *
 * @module
 */

import { DejaError } from "../core/errors.ts";
import { absolutePath } from "../core/paths.ts";
import { MAX_LIKE_TEXT, overLikeBound } from "./query.ts";
import type { Store } from "./store.ts";

/** A drive letter in lower case, after a remote's `<name>:` label or none (lib/remote/label.ts). */
const DRIVE = /^((?:[a-z][a-z0-9_-]{0,31}:)?)([a-z]):(?=[\\/]|$)/;

/**
 * `p` with a Windows drive letter in upper case (`c:\Users\x` -> `C:\Users\x`):
 * Claude Code's VS Code extension writes `c:\…` where its CLI writes `C:\…` for
 * the same folder (observed on 2.1.81, real store). Anything else is kept as written.
 *
 * @example normalizeProject("c:\\Users\\x\\proj") === "C:\\Users\\x\\proj"
 */
export function normalizeProject(p: string): string {
  // A remote's project too (trial 79: `box:c:\x` and `box:C:\x` were two projects).
  return p.replace(DRIVE, (_, label: string, d: string) => `${label}${d.toUpperCase()}:`);
}

/** Brings rows indexed before {@link normalizeProject} existed in line (idempotent; every run). */
export const NORMALIZE_PROJECTS_SQL =
  `UPDATE sessions SET project = upper(substr(project, 1, 1)) || substr(project, 2)
    WHERE project GLOB '[a-z]:[\\/]*' OR project GLOB '[a-z]:';
  UPDATE sessions SET project = substr(project, 1, instr(project, ':'))
      || upper(substr(project, instr(project, ':') + 1, 1)) || substr(project, instr(project, ':') + 2)
    WHERE instr(project, ':') BETWEEN 2 AND 33
      AND substr(project, instr(project, ':') + 1) GLOB '[a-z]:[\\/]*'
      AND substr(project, 1, instr(project, ':') - 1) NOT GLOB '*[^a-z0-9_-]*'`;

/**
 * A `--project` text as the user meant it: a leading `~` (`~`, `~/x`, `~\x`) is
 * `home`, as deja prints a project under the home directory (core/text.ts `tilde`)
 * and a quoted `'~/x'` reaches deja unexpanded; a path relative to the current
 * directory (`.`, `..`, `./x`, `../x`) is made absolute against `cwd` when given;
 * trailing separators are dropped (`~/proj/x/` names `~/proj/x`, which the index
 * keeps without one) except on a root (`/`, `C:\`). Anything else (a bare name,
 * `app/api`) is kept as typed.
 *
 * @throws {DejaError} (exit 2) when the text is longer than {@link MAX_LIKE_TEXT}.
 * @example projectArg("~/proj/x/", "/home/u") === "/home/u/proj/x"
 * @example projectArg("../x", "/home/u", "/home/u/proj/y") === "/home/u/proj/x"
 */
export function projectArg(text: string, home: string, cwd = ""): string {
  if (overLikeBound(text)) {
    throw new DejaError(
      `the --project value is longer than ${MAX_LIKE_TEXT} characters`,
      "give a part of the project's path, such as its folder name",
      2,
    );
  }
  // Trial 103 F3: `--project .` and `--project ../x` were matched as text, so the
  // current directory's sessions were "no session … in project .".
  const full = home && /^~(?:[\\/]|$)/.test(text)
    ? home.replace(/[\\/]+$/, "") + text.slice(1)
    : cwd && RELATIVE.test(text)
    ? absolutePath(text, cwd)
    : text;
  const root = /^(?:[A-Za-z]:)?[\\/]/.exec(full)?.[0] ?? "";
  const rest = full.slice(root.length).replace(/[\\/]+$/, "");
  return rest ? root + rest : root || full;
}

/**
 * SQL for the project column `col` as a `--project` filter compares it: every `\`
 * read as `/`, so `C:/Users/x` and `C:\Users\x` name one Windows project.
 */
export function projectKeySql(col: string): string {
  return `replace(${col}, '\\', '/')`;
}

/**
 * SQL for the project column `col` as a `--project` filter's LIKE pattern ({@link projectLike})
 * reads it: {@link projectKeySql} with a `/` after it, so a directory's pattern matches it
 * and the projects under it alike.
 */
export function projectFilterSql(col: string): string {
  return `(${projectKeySql(col)} || '/')`;
}

/**
 * The LIKE pattern (escape `\`, case-insensitive for ASCII as LIKE is) of a
 * `--project` filter, against {@link projectFilterSql} of the column: a directory (an
 * absolute path, as `.` or `~/x` are read: {@link projectArg}) names itself and the projects
 * under it, not a sibling that starts alike (trial 105 F1: `--project .` in `proj/app`
 * took in `proj/application`); other text, anywhere in the path.
 *
 * @example projectLike("C:\\Users\\x") === "C:/Users/x/%"
 * @example projectLike("app") === "%app%"
 */
export function projectLike(text: string): string {
  const key = projectKey(text);
  if (ABSOLUTE.test(key)) return `${projectKeyLike(key.replace(/\/+$/, ""))}/%`;
  return `%${projectKeyLike(text)}%`;
}

/**
 * `text` as a LIKE pattern (escape `\`) that matches exactly the
 * {@link projectKeySql} of a project `text` names: separators as `/`, `%`/`_` escaped.
 */
export function projectKeyLike(text: string): string {
  return text.replaceAll("\\", "/").replace(/[%_]/g, (c) => `\\${c}`);
}

/**
 * The LIKE pattern, against {@link projectFilterSql}, of the project that is `dir` itself
 * (separators aside, a trailing one dropped): the session start's and handoff's "sessions of
 * this folder".
 */
export function projectExactLike(dir: string): string {
  return `${projectKeyLike(projectKey(dir).replace(/\/+$/, "") || "/")}/`;
}

/** True when `project` passes the `--project` filter `text` (the rule of {@link projectLike}, in code). */
export function projectHolds(project: string | null | undefined, text: string): boolean {
  if (!project) return false;
  const key = projectKey(text).toLowerCase();
  const own = projectKey(project).toLowerCase();
  if (ABSOLUTE.test(key)) return (own + "/").startsWith(key.replace(/\/+$/, "") + "/");
  return own.includes(key);
}

/** `p` with every `\` as `/`: {@link projectKeySql} in code. */
export function projectKey(p: string): string {
  return p.replaceAll("\\", "/");
}

/** A path relative to the current directory as typed: `.`, `..`, `./x`, `../x` (either separator). */
const RELATIVE = /^\.\.?(?:[\\/]|$)/;

/** An absolute path, POSIX or Windows (a name `deja remember --project ops` kept is not). */
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

/** A Windows path: a drive (`C:\x`, `c:/x`, `C:`) or a UNC share (`\\host\x`). */
const WINDOWS_PATH = /^(?:[A-Za-z]:(?:[\\/]|$)|\\\\)/;

/** True when `text` is a Windows path ({@link WINDOWS_PATH}): never one to resolve against a POSIX directory. */
export function isWindowsPath(text: string): boolean {
  return WINDOWS_PATH.test(text);
}

/**
 * The indexed project whose path `text` is, as deja prints it: separators aside, a
 * trailing one dropped, a leading `~` as `home` ({@link projectArg}), a Windows drive
 * path's case aside (`c:\users\x` names `C:\Users\x`, as Windows folds it). Names
 * earlier notes were filed under (not absolute paths) are no candidates.
 *
 * @returns the project as the index keeps it; undefined when no project's path is `text`.
 */
export function exactProject(store: Store, text: string, home: string): string | undefined {
  const want = projectKey(projectArg(text, home));
  if (!ABSOLUTE.test(want)) return undefined;
  // LIKE without a wildcard: equal, ASCII case aside; the case rule is applied below.
  const rows = store.db.prepare(
    `SELECT project, COUNT(*) AS n FROM sessions WHERE ${
      projectKeySql("project")
    } LIKE ? ESCAPE '\\' GROUP BY project ORDER BY n DESC, project`,
  ).all(projectKeyLike(want)) as { project: string }[];
  const same = (p: string) =>
    projectKey(p) === want ||
    (isWindowsPath(p) && isWindowsPath(want) && projectKey(p).toLowerCase() === want.toLowerCase());
  return rows.find((r) => projectKey(r.project) === want)?.project ??
    rows.find((r) => same(r.project))?.project;
}

/**
 * The indexed projects a `--project <text>` filter matches ({@link projectLike}), each with its
 * sessions, the most first.
 */
export function projectsLike(store: Store, text: string): { project: string; n: number }[] {
  return store.db.prepare(
    `SELECT project, COUNT(*) AS n FROM sessions WHERE ${
      projectFilterSql("project")
    } LIKE ? ESCAPE '\\' GROUP BY project ORDER BY n DESC, project`,
  ).all(projectLike(text)) as { project: string; n: number }[];
}

/**
 * The indexed project `text` names, the one rule for a `--project` that must name one
 * project (`deja view --out`, `deja remember`): the project whose path is `text`
 * (separators aside), else the one whose last folder is `text` (case aside), else the one
 * whose path holds it ({@link projectLike}). With `pathsOnly`, projects that are not
 * absolute paths (names earlier notes were filed under) are no candidates.
 *
 * @returns the project as the index keeps it; undefined when none matches.
 * @throws {DejaError} (exit 2) when several match, naming up to five.
 */
export function indexedProject(
  store: Store,
  text: string,
  opts: { pathsOnly?: boolean } = {},
): string | undefined {
  const rows = projectsLike(store, text)
    .filter((r) => !opts.pathsOnly || ABSOLUTE.test(r.project));
  const key = projectKey(text);
  const exact = rows.find((r) => projectKey(r.project) === key);
  if (exact) return exact.project;
  const folder = rows.filter((r) =>
    projectKey(r.project).replace(/\/+$/, "").split("/").pop()!.toLowerCase() ===
      key.toLowerCase()
  );
  if (folder.length === 1) return folder[0].project;
  const pick = folder.length ? folder : rows;
  if (pick.length === 1) return pick[0].project;
  if (!pick.length) return undefined;
  throw new DejaError(
    `'${text}' matches ${pick.length} projects`,
    `be more specific: ${pick.slice(0, 5).map((r) => r.project).join(", ")}${
      pick.length > 5 ? ", …" : ""
    }`,
    2,
  );
}

/**
 * Whether projects `a` and `b` are one: the same folder, or one inside the other (a session
 * run in a subfolder); separators aside, a Windows path's case aside.
 */
export function sameProject(a: string, b: string): boolean {
  const [x, y] = [folderKey(a), folderKey(b)];
  const inside = (p: string, q: string) => p.startsWith(q.endsWith("/") ? q : q + "/");
  return x === y || inside(x, y) || inside(y, x);
}

/** Whether `a` and `b` are the same folder, separators, a trailing one and a Windows path's case aside. */
export function sameFolder(a: string, b: string): boolean {
  return folderKey(a) === folderKey(b);
}

function folderKey(p: string): string {
  const k = projectKey(p).replace(/(?<=.)\/+$/, "");
  return isWindowsPath(p) ? k.toLowerCase() : k;
}
