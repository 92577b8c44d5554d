/**
 * One rule for when a session happened, and whether deja knows.
 *
 * A session's time is **recorded** when its store wrote one (a timestamp per
 * line, a `created_at` column). When the store writes none, the parser falls
 * back to the store file's modification time (`Session.timeFromFile`, the
 * `time_from_file` column), and that means one of two things:
 *
 * - **own file** (`timeFromFile: true`, column {@link OWN_FILE}): the file
 *   holds this one session and is rewritten as it goes (a Kimi
 *   `context.jsonl`, a Continue session JSON, a Cline-family task folder, a
 *   Gemini checkpoint). Its mtime is the session's last write: a real "last
 *   active" time. Such a session is ordered, filtered by `--since`, picked and
 *   charted by that time like a recorded one. In a live store (the case that
 *   matters: the Kimi session being worked on now) it is the newest session;
 *   ranking it after months-old recorded sessions, and out of `--since today`,
 *   gave a wrong answer.
 * - **shared file** (`timeFromFile: "shared"`, column {@link SHARED_FILE}):
 *   the file holds many sessions (a prompt history with neither ids nor times:
 *   Kimi's `user-history`, opencode's `prompt-history.jsonl`, Cursor's
 *   workspace prompts). Its mtime is only the newest entry's time, an upper
 *   bound for the rest. Such a session is **undated**: listed after the dated
 *   ones, never inside a `--since` window (which says how many it left out),
 *   with no recency bonus in search, losing the how/fix/hook/blame/restore
 *   picks to dated runs, and not charted in the view's activity. (Found by a
 *   new-user trial: prompt histories were listed as the newest sessions and
 *   piled up on one day of the chart.)
 *
 * Either kind still shows the file's time, marked (lib/memory/text.ts
 * `sessionTime`, {@link hasFileTime}): an own file's `(file time)`, since a
 * copied or restored store's own files carry the day of the copy; a shared
 * file's `(undated: prompt history)`, since the time is not the session's at
 * all (`undated` in JSON).
 *
 * SQL says "undated" with {@link UNDATED} (lib/schema_fragments.ts).
 *
 * @module
 */

/** `time_from_file` of a session whose times are its own store file's mtime. */
export const OWN_FILE = 1;
/** `time_from_file` of a session whose times are the mtime of a file many sessions share. */
export const SHARED_FILE = 2;

/** Where a session's times came from when not recorded: its own file, or a file of many. */
export type FileTime = true | "shared";

/** The `time_from_file` column value of a session's {@link FileTime} (0 for recorded times). */
export function fileTimeColumn(t: FileTime | undefined | false): number {
  return t === "shared" ? SHARED_FILE : t ? OWN_FILE : 0;
}

/** The {@link FileTime} a `time_from_file` column value stands for (undefined for 0). */
export function fileTimeOf(column: number | null | undefined): FileTime | undefined {
  return column === SHARED_FILE ? "shared" : column ? true : undefined;
}

/** What the rule reads of a session: a row (`time_from_file`) or a model/hit (`timeFromFile`). */
export interface Timed {
  started?: number | null;
  updated?: number | null;
  time_from_file?: number | boolean | null;
  timeFromFile?: FileTime | boolean;
}

/** True when the session's times are a store file's mtime, of either kind: shown with the mark. */
export function hasFileTime(s: Timed): boolean {
  return Boolean(s.time_from_file) || Boolean(s.timeFromFile);
}

/** True when the session's times are only a shared file's mtime: undated (see the module). */
export function isUndated(s: Timed): boolean {
  return s.time_from_file === SHARED_FILE || s.timeFromFile === "shared";
}

/** The time shown for a session (epoch ms): last update, else start, of whatever source; null when none. */
export function shownTime(s: Timed): number | null {
  return s.updated ?? s.started ?? null;
}

/**
 * The session's last active time (epoch ms) when deja knows it — recorded, or
 * its own file's: `updated`, else `started`; null when the session is undated
 * or has no time.
 */
export function datedTime(s: Timed): number | null {
  return isUndated(s) ? null : shownTime(s);
}

/**
 * Newest first with dated sessions before undated ones (each group newest
 * first by its shown time); sessions without any time last. A comparator for
 * `Array.prototype.sort`; equal sessions compare 0.
 */
export function datedFirst(a: Timed, b: Timed): number {
  const rank = (s: Timed) => (shownTime(s) === null ? 2 : isUndated(s) ? 1 : 0);
  return rank(a) - rank(b) || (shownTime(b) ?? 0) - (shownTime(a) ?? 0);
}

/** Whether the session falls in a `--since` window (epoch ms): dated at or after `since`. */
export function inSince(s: Timed, since: number): boolean {
  const t = datedTime(s);
  return t !== null && t >= since;
}

/** Below every epoch ms a store can hold, above none (integers stay exact under 2^53). */
const UNDATED_SHIFT = 2 ** 52;

/**
 * A sort key for a time: a dated time as it is, an undated one (a shared
 * file's) below every dated one (still newest first among themselves), no
 * time lowest (`-Infinity`). Compare keys with {@link newerFirst}.
 */
export function timeRank(time: number | null | undefined, undated: boolean): number {
  if (time === null || time === undefined) return -Infinity;
  return undated ? time - UNDATED_SHIFT : time;
}

/** A comparator of two {@link timeRank} keys, the higher (newer) first; 0 when equal. */
export function newerFirst(a: number, b: number): number {
  return a === b ? 0 : b > a ? 1 : -1;
}
