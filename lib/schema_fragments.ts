/**
 * SQL fragments and row shapes the named queries of lib/schema.ts and
 * lib/schema_search.ts share.
 *
 * @module
 */

/**
 * A session row `s` that stands on its own: no parent, or a parent that is not
 * indexed (its subagent is then listed as a session, not filed under nothing).
 */
export const TOP_LEVEL = `(s.parent IS NULL OR NOT EXISTS (SELECT 1 FROM sessions p
    WHERE p.harness = s.harness AND p.native_id = s.parent))`;

/** A count, a sum or an average. */
export type CountRow = { n: number };
/** One row id. */
export type IdRow = { id: number };
/** One term of the vocabulary. */
export type TermRow = { term: string };

/**
 * A session row `s` that is undated: its times are only the mtime of a file
 * many sessions share (a prompt history; `time_from_file` 2, lib/session_time.ts
 * SHARED_FILE, says what commands do with it). Its own file's mtime (1) dates it.
 */
export const UNDATED = `(s.time_from_file = 2)`;
