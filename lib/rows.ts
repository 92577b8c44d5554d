/**
 * Row types of the index tables, one per table, declared once (lib/schema.ts
 * has the columns; a query's row type is one of these or a `Pick` of one).
 *
 * @module
 */

/** A row of the sessions table. */
export interface SessionRow {
  id: number;
  harness: string;
  native_id: string;
  project: string | null;
  title: string | null;
  started: number | null;
  updated: number | null;
  /**
   * When `started`/`updated` are a store file's mtime (the store records no time for the
   * session; `Session.timeFromFile`): 1 for the session's own file, 2 for a file many
   * sessions share (undated, lib/session_time.ts); else 0. Absent in rows built by hand.
   */
  time_from_file?: number;
  model: string | null;
  parent: string | null;
  source: string;
  events: number;
  /** The remote it was read from (`deja remote`); null for this machine's. */
  origin?: string | null;
  /**
   * JSON array of the models the session's replies used, in order of first use, when
   * there were 2 or more (schema 12); null otherwise. Absent in rows built by hand.
   */
  models?: string | null;
}

/** A row of the events table. */
export interface EventRow {
  id: number;
  seq: number;
  kind: string;
  text: string;
  time: number | null;
  tool: string | null;
  call_id: string | null;
  data: string | null;
  /** The reply's model where the session's model changes (schema 12), else null. Absent in rows built by hand. */
  model?: string | null;
}

/** A row of the sources table: one store deja read, with what it knows to skip unchanged ones. */
export interface SourceRow {
  path: string;
  harness: string;
  /** `append` | `document` | `sqlite`. */
  kind: string;
  /** Bytes; null before the first read. */
  size: number | null;
  /** Epoch ms. */
  mtime: number | null;
  /** JSON `[[size, mtime], ...]` of companions such as `-wal`. */
  companions: string | null;
  /** Bytes read so far (append sources). */
  offset: number;
  head_hash: string | null;
  /** Parser state JSON. */
  state: string | null;
  watermark: number;
  /** Documents: content hash. */
  hash: string | null;
  sessions: number;
  events: number;
  /** JSON `{counts, examples}`. */
  skipped: string | null;
  error: string | null;
  /** Epoch ms. */
  indexed_at: number | null;
  /** JSON `{counts, notes, version}` (lib/parse_ctx.ts DriftSummary). */
  drift: string | null;
  /** The reader revision of the harness's parser that read it (lib/version.ts REVISIONS). */
  reader: number;
}

/** The columns of a store `deja sources` reads (lib/schema.ts `sourcesReport`). */
export type SourceReportRow = Pick<
  SourceRow,
  "path" | "harness" | "size" | "mtime" | "sessions" | "skipped" | "error" | "indexed_at"
>;

/** A row of the commands table: one shell command a session ran. */
export interface CommandRow {
  event_id: number;
  session_id: number;
  call_id: string | null;
  command: string;
  /** Null when the store does not say. */
  exit: number | null;
  /** 1 when the store marked the result an error, else 0. */
  is_error: number;
  /** Epoch ms. */
  time: number | null;
}

/** A row of the files table: one read, edit or write of a file. */
export interface FileRow {
  id: number;
  event_id: number;
  session_id: number;
  call_id: string | null;
  path: string;
  /** `read` | `edit` | `write`. */
  op: string;
  /** Edit: the replaced span. */
  old: string | null;
  /** Edit: the replacement; write: the content. */
  new: string | null;
  /** 1 when the call's result was an error (nothing changed), else 0. */
  failed: number;
  /** Epoch ms. */
  time: number | null;
}

/** A file touch with its event's position in the session (time falls back to the event's). */
export type FileAtRow = FileRow & { seq: number };

/**
 * A command run as the work-memory queries select it: its outcome, and its
 * tool result's text when the store recorded no status (lib/memory/outcome.ts judges it).
 */
export interface CommandRunRow {
  command: string;
  exit: number | null;
  is_error: number;
  /** Epoch ms. */
  time: number | null;
  session_id: number;
  /** The session's `time_from_file` when `time` is the session's (the run has none), else 0. */
  time_from_file?: number;
  output: string | null;
  /** The first 200 characters of its result when the harness marked it an error, else null. */
  head?: string | null;
  /** The call id linking it to its result (null when the store has none). */
  call_id?: string | null;
  /** 1 when the call has no tool result at all (`how`'s rows; lib/schema.ts `NO_RESULT`). */
  no_result?: number;
}

/** A command of one session in order, with its event's position. */
export type CommandAtRow = Omit<CommandRunRow, "session_id" | "no_result"> & {
  event_id: number;
  call_id: string | null;
  seq: number;
  /** 1 when the call has no tool result at all (it never ran or never finished), else 0. */
  no_result: number;
};

/** One event a search retrieves (lib/search/). */
export interface MatchRow {
  event_id: number;
  session_id: number;
  seq: number;
  kind: string;
  /** Epoch ms. */
  time: number | null;
  flags: number;
  /** FTS5 BM25: lower (more negative) is better. */
  bm25: number;
}
