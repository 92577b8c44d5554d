/**
 * One rule for when a session happened, and whether deja knows.
 *
 * A session's time is **recorded** when its store wrote one (a timestamp per
 * line, a `created_at` column); it is **file-dated** when the store writes
 * none and the parser fell back to the store file's modification time
 * (`Session.timeFromFile`, the `time_from_file` column: a prompt history with
 * neither ids nor times such as Kimi's `user-history` or opencode's
 * `prompt-history.jsonl`, Cursor's workspace prompts, a Kimi `context.jsonl`,
 * Continue's sessions without dates). A file's mtime is only an upper bound:
 * a copied or restored store carries the day of the copy. Found by a new-user
 * trial on copied stores: such sessions were listed as the newest by `last`,
 * won the recency bonus of search and the "how/fix" picks, and piled up on the
 * copy day in the view's activity chart.
 *
 * So every command that orders or filters by time treats a file-dated session
 * as undated: after the dated ones, never inside a `--since` window (which
 * says how many it left out), with no recency bonus. It still shows the
 * file's time, marked `(file time)` (lib/memory/text.ts).
 *
 * SQL says the same with {@link FILE_DATED} (lib/schema_fragments.ts).
 *
 * @module
 */

/** What the rule reads of a session: a row (`time_from_file`) or a model/hit (`timeFromFile`). */
export interface Timed {
  started?: number | null;
  updated?: number | null;
  time_from_file?: number | boolean | null;
  timeFromFile?: boolean;
}

/** True when the session's times are only its store file's mtime (see the module). */
export function isFileDated(s: Timed): boolean {
  return Boolean(s.time_from_file) || s.timeFromFile === true;
}

/** The time shown for a session (epoch ms): last update, else start, recorded or not; null when none. */
export function shownTime(s: Timed): number | null {
  return s.updated ?? s.started ?? null;
}

/**
 * The session's last active time (epoch ms) when its store recorded it: `updated`,
 * else `started`; null when the session is file-dated or has no time.
 */
export function recordedTime(s: Timed): number | null {
  return isFileDated(s) ? null : shownTime(s);
}

/**
 * Newest first with recorded times before file-dated ones (each group newest
 * first by its shown time); sessions without any time last. A comparator for
 * `Array.prototype.sort`; equal sessions compare 0.
 */
export function datedFirst(a: Timed, b: Timed): number {
  const rank = (s: Timed) => (shownTime(s) === null ? 2 : isFileDated(s) ? 1 : 0);
  return rank(a) - rank(b) || (shownTime(b) ?? 0) - (shownTime(a) ?? 0);
}

/** Whether the session falls in a `--since` window (epoch ms): recorded time at or after `since`. */
export function inSince(s: Timed, since: number): boolean {
  const t = recordedTime(s);
  return t !== null && t >= since;
}

/** Below every epoch ms a store can hold, above none (integers stay exact under 2^53). */
const FILE_SHIFT = 2 ** 52;

/**
 * A sort key for a time: a recorded time as it is, a file's time below every
 * recorded one (still newest first among themselves), no time lowest
 * (`-Infinity`). Compare keys with {@link newerFirst}.
 */
export function timeRank(time: number | null | undefined, fileDated: boolean): number {
  if (time === null || time === undefined) return -Infinity;
  return fileDated ? time - FILE_SHIFT : time;
}

/** A comparator of two {@link timeRank} keys, the higher (newer) first; 0 when equal. */
export function newerFirst(a: number, b: number): number {
  return a === b ? 0 : b > a ? 1 : -1;
}
