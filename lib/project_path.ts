/**
 * The one rule for a session's project path as the index keeps it. Parsers
 * hand over the directory as the harness wrote it; ingest applies
 * {@link normalizeProject} before anything else sees it (the exclusion gate,
 * the sessions table), so `last`, `stats`, `--project` and the hooks count one
 * project once.
 *
 * @module
 */

const DRIVE = /^([a-z]):(?=[\\/]|$)/;

/**
 * `p` with a Windows drive letter in upper case (`c:\Users\x` -> `C:\Users\x`):
 * Claude Code's VS Code extension writes `c:\…` where its CLI writes `C:\…` for
 * the same folder (observed on 2.1.81, real store). Anything else is kept as written.
 *
 * @example normalizeProject("c:\\Users\\x\\proj") === "C:\\Users\\x\\proj"
 */
export function normalizeProject(p: string): string {
  return DRIVE.test(p) ? p[0].toUpperCase() + p.slice(1) : p;
}

/** Brings rows indexed before {@link normalizeProject} existed in line (idempotent; every run). */
export const NORMALIZE_PROJECTS_SQL =
  `UPDATE sessions SET project = upper(substr(project, 1, 1)) || substr(project, 2)
    WHERE project GLOB '[a-z]:[\\/]*' OR project GLOB '[a-z]:'`;
