/**
 * The index schema, its version, the pragmas, and every named query (those
 * of search live in lib/schema_search.ts and are part of {@link Q}).
 *
 * One schema, kept in `PRAGMA user_version`; migrations run in order on open.
 * Every statement below is prepared against a fresh schema by
 * tests/schema_test.ts, so a typo fails a test, not a user's search.
 *
 * @module
 */

import { type NoParams, query } from "./sql.ts";
import { projectFilterSql } from "./project_path.ts";
import { type IdRow as Id, TOP_LEVEL, UNDATED } from "./schema_fragments.ts";
import { SEARCH_Q } from "./schema_search.ts";
import type {
  CommandAtRow,
  CommandRow,
  CommandRunRow,
  EventRow,
  FileAtRow,
  FileRow,
  SessionRow,
  SourceReportRow,
  SourceRow,
} from "./rows.ts";

// Its own module: the no-op index run reads it without loading the queries (lib/fresh/quick.ts).
export { SCHEMA_VERSION } from "./schema_version.ts";

/** Pragmas applied to every connection to the index. */
export const PRAGMAS = [
  "PRAGMA page_size = 8192",
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  "PRAGMA temp_store = MEMORY",
  "PRAGMA cache_size = -16000",
];

/**
 * Pragmas of a new index file, before its first table: it keeps a map of its pages, so a
 * full run can give freed ones back (lib/indexer.ts). Set on an index that exists, this
 * is a write (a read-only connection fails on it) and changes nothing without a VACUUM.
 */
export const NEW_FILE_PRAGMAS = ["PRAGMA auto_vacuum = INCREMENTAL"];

/** Bytes of pending FTS5 data the writer holds before writing a segment ({@link applyWriterSettings}). */
export const FTS_HASH_BYTES = 8 << 20;

/**
 * Pragmas of the indexing connection, after {@link PRAGMAS}: a 2 MB page cache.
 * Writing appends (rows, FTS5 segments) and hardly reads back, so the smaller
 * cache costs no measurable CPU (16, 4 and 2 MB measured alike), and it pays for
 * part of the second parse worker's memory (lib/parse_pool.ts; peak RSS of a
 * 100 MB index run with two workers: about 157 MB with 16 MB, 140-155 with 2-4,
 * varying with when the collector runs).
 */
export const WRITER_PRAGMAS = ["PRAGMA cache_size = -2000"];

/**
 * FTS5 keeps up to `hashsize` bytes of new terms in memory before it writes them
 * out as a segment (default 1 MB): a batch of sources (lib/write_batch.ts, 8 MB
 * read) then became several segments, merged again at once. 8 MB is about one
 * segment per batch. The writer thread on the 100 MB bench corpus (`deno task
 * bench:writer` under Bun, min of runs): events_fts's insert ~0.50 -> ~0.33 s,
 * its flush ~0.10 -> ~0.16 s, the thread ~1.27 -> ~1.16 s; the same rows and
 * search results. Written once (a config row of events_fts), read by every
 * connection; nothing is written when the row is there.
 */
const FTS_HASH_SQL = `INSERT INTO events_fts(events_fts, rank) SELECT 'hashsize', ${FTS_HASH_BYTES}
  WHERE NOT EXISTS (SELECT 1 FROM events_fts_config WHERE k = 'hashsize' AND v = ${FTS_HASH_BYTES})`;

/**
 * The first build's writer does not wait for the disk: `synchronous = OFF`, so
 * SQLite never calls fsync (a WAL checkpoint otherwise syncs the log and the
 * database, ~27 times over a 100 MB first build). The index is derived from the
 * stores and holds nothing of the user's yet, so what this risks (an index left
 * damaged by a power cut during the build or in the seconds after) is named by
 * the next run and rebuilt by `deja index --rebuild`; a crash of deja itself
 * loses nothing either way. Later runs (and every rebuild, which keeps notes and
 * forgotten sessions) keep `NORMAL`. Compiled binary, full index of the 100 MB
 * bench corpus, 2 cores at load ~1.5 (a VM whose disk makes fsync dear): wall
 * 2.30-2.37 -> 2.05-2.10 s with mimalloc keeping freed memory (measured and
 * not kept, core/runtime.ts); without it, beside this session's faster association
 * pass, 2.87-3.28 -> 2.73-2.87 s (load 2.2-2.5); CPU the same.
 */
export const FIRST_BUILD_PRAGMAS = ["PRAGMA synchronous = OFF"];

/**
 * Applies {@link WRITER_PRAGMAS} (and {@link FIRST_BUILD_PRAGMAS} when
 * `firstBuild`) and the FTS5 setting of the indexing connection to `db`.
 */
export function applyWriterSettings(
  db: { exec(sql: string): unknown },
  firstBuild = false,
): void {
  for (const p of WRITER_PRAGMAS) db.exec(p);
  if (firstBuild) { for (const p of FIRST_BUILD_PRAGMAS) db.exec(p); }
  try {
    db.exec(FTS_HASH_SQL);
  } catch {
    // A damaged events_fts: the run reports it where it first reads the index.
  }
}

export { MIGRATIONS } from "./schema_migrations.ts";

/** A command row with its event's seq and what tells its outcome ({@link Q.commandsInOrder}). */
const COMMANDS_AT = () =>
  `SELECT c.event_id AS event_id, c.call_id AS call_id, c.command AS command,
      c.exit AS exit, c.is_error AS is_error, c.time AS time, e.seq AS seq,
      ${OUTPUT_IF_UNKNOWN} AS output, ${ERROR_HEAD} AS head, ${NO_RESULT} AS no_result
    FROM commands c JOIN events e ON e.id = c.event_id`;

/**
 * The output of command `c` when the store records no status for it, or one a
 * pipe's last program may have returned, or a 0 of a command naming PowerShell (NULL
 * otherwise): its tool result's text, for lib/memory/outcome.ts to judge (its `POWERSHELL`
 * tells which of those PowerShell ran).
 */
const OUTPUT_IF_UNKNOWN = `CASE WHEN (c.exit IS NULL OR instr(c.command, '|') > 0
      OR (c.exit = 0 AND (c.command LIKE '%pwsh%' OR c.command LIKE '%powershell%')))
      AND c.is_error = 0 AND c.call_id IS NOT NULL
      THEN (SELECT r.text FROM events r WHERE r.session_id = c.session_id
        AND r.call_id = c.call_id AND r.kind = 'tool_result' ORDER BY r.seq LIMIT 1) END`;

/**
 * The head of the result of command `c` when the harness marked it an error (NULL otherwise):
 * where a harness says it stopped the run (`Command timed out after 2m 0.0s`,
 * lib/memory/outcome.ts `runEnd`).
 */
const ERROR_HEAD = `CASE WHEN c.is_error <> 0 AND c.call_id IS NOT NULL
      THEN (SELECT substr(r.text, 1, 200) FROM events r WHERE r.session_id = c.session_id
        AND r.call_id = c.call_id AND r.kind = 'tool_result' ORDER BY r.seq LIMIT 1) END`;

/**
 * 1 when command `c` has a call id and no tool result at all (the session ended before it
 * ran or finished, or it was refused), else 0: such a run is no success (lib/memory/fix.ts).
 * Observed on Crush (a session's last message a `git stash` call) and Continue.
 */
const NO_RESULT = `(c.exit IS NULL AND c.is_error = 0 AND c.call_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM events r WHERE r.session_id = c.session_id
        AND r.call_id = c.call_id AND r.kind = 'tool_result'))`;

/** The columns of a file touch with its event's position ({@link FileAtRow}). */
const FILE_AT = `f.id AS id, f.event_id AS event_id, f.session_id AS session_id,
      f.call_id AS call_id, f.path AS path, f.op AS op, f.old AS old, f.new AS new,
      f.failed AS failed, COALESCE(f.time, e.time) AS time, e.seq AS seq`;

/**
 * The columns of a command run ({@link CommandRunRow}) over `c` (commands) and `s` (sessions);
 * a run without its own time takes its session's, and that one's `time_from_file`.
 */
const COMMAND_RUN = `c.command AS command, c.exit AS exit, c.is_error AS is_error,
      c.call_id AS call_id,
      COALESCE(c.time, s.updated, s.started) AS time, c.session_id AS session_id,
      CASE WHEN c.time IS NULL THEN s.time_from_file ELSE 0 END AS time_from_file,
      ${OUTPUT_IF_UNKNOWN} AS output, ${ERROR_HEAD} AS head`;

/** A call another session also holds (lib/replays.ts). */
export interface SharedCallRow {
  event_id: number;
  call_id: string;
  what: string;
  session_id: number;
  harness: string;
  sub: number;
  started: number | null;
  updated: number | null;
}

/** A quarter of an hour in ms: {@link Q.viewActiveQuarters}' unit. */
export const QUARTER_HOUR_MS = 900_000;

/**
 * Named queries: SQL, named parameters (one per `?`, in order) and row type
 * together (lib/sql.ts).
 */
export const Q = {
  /** One session by its harness and native id. */
  sessionByKey: query<{ harness: string; native_id: string }, SessionRow>(
    `SELECT * FROM sessions WHERE harness = ? AND native_id = ?`,
    ["harness", "native_id"],
  ),
  /** A new session row; returns its id. */
  insertSession: query<
    Omit<SessionRow, "id" | "events" | "origin"> & { time_from_file: number },
    Id
  >(
    `INSERT INTO sessions (harness, native_id, project, title, started, updated, time_from_file,
      model, parent, source)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      "harness",
      "native_id",
      "project",
      "title",
      "started",
      "updated",
      "time_from_file",
      "model",
      "parent",
      "source",
    ],
  ),
  /** A session's fields rewritten (merged by lib/ingest.ts). */
  updateSession: query<
    Omit<SessionRow, "harness" | "native_id" | "events" | "origin"> & { time_from_file: number }
  >(
    `UPDATE sessions SET project = ?, title = ?, started = ?, updated = ?, time_from_file = ?,
    model = ?, parent = ?, source = ? WHERE id = ?`,
    [
      "project",
      "title",
      "started",
      "updated",
      "time_from_file",
      "model",
      "parent",
      "source",
      "id",
    ],
  ),
  /** How many events session `session` holds (lib/drop_events.ts). */
  eventCountOf: query<{ session: number }, { n: number }>(
    `SELECT COUNT(*) AS n FROM events WHERE session_id = ?`,
    ["session"],
  ),
  /**
   * The id and text size (bytes) of each event of session `session`, in id order
   * (lib/drop_events.ts). Only the two numbers reach a sorter: with a window function over
   * the rows, SQLite kept every row's text in a temporary table (in memory: 61 MB for a
   * 64 MB chat).
   */
  eventSizes: query<{ session: number }, { id: number; n: number }>(
    `SELECT id, octet_length(text) AS n FROM events WHERE session_id = ? ORDER BY id`,
    ["session"],
  ),
  /** Removes the events of session `session` up to event id `through`. */
  deleteSessionEventsThrough: query<{ session: number; through: number }>(
    `DELETE FROM events WHERE session_id = ? AND id <= ?`,
    ["session", "through"],
  ),
  /** Removes the events of the sessions `ids` (a JSON array of row ids). */
  deleteEventsOfSessions: query<{ ids: string }>(
    `DELETE FROM events WHERE session_id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /** Row ids of the sessions read from `source` (a store path). */
  sessionsOfSource: query<{ source: string }, Id>(`SELECT id FROM sessions WHERE source = ?`, [
    "source",
  ]),
  /** The sessions read from `source` (a store path): row id, harness and native id. */
  keysOfSource: query<{ source: string }, { id: number; harness: string; native_id: string }>(
    `SELECT id, harness, native_id FROM sessions WHERE source = ?`,
    ["source"],
  ),
  /**
   * Whether any session read from `source` holds a reply (an assistant turn or a tool
   * call): a store of prompts alone (a prompt history) records none (lib/memory/ending.ts).
   */
  sourceHasReplies: query<{ source: string }, { yes: number }>(
    `SELECT EXISTS (SELECT 1 FROM sessions s JOIN events e ON e.session_id = s.id
      WHERE s.source = ? AND e.kind IN ('assistant', 'tool_call')) AS yes`,
    ["source"],
  ),
  /** Whether any session of harness `harness` holds a reply (lib/memory/ending.ts). */
  harnessHasReplies: query<{ harness: string }, { yes: number }>(
    `SELECT EXISTS (SELECT 1 FROM sessions s JOIN events e ON e.session_id = s.id
      WHERE s.harness = ? AND e.kind IN ('assistant', 'tool_call')) AS yes`,
    ["harness"],
  ),
  /** Whether any session of harness `harness` holds a tool result (lib/memory/ending.ts). */
  harnessHasResults: query<{ harness: string }, { yes: number }>(
    `SELECT EXISTS (SELECT 1 FROM sessions s JOIN events e ON e.session_id = s.id
      WHERE s.harness = ? AND e.kind = 'tool_result') AS yes`,
    ["harness"],
  ),
  /** Removes one session (its events and derived rows follow by cascade). */
  deleteSession: query<Id>(`DELETE FROM sessions WHERE id = ?`, ["id"]),
  /**
   * A user event of session `session` whose text, trimmed, is `text`, within `ms` of `time`
   * (epoch ms; any time when either is unknown): a prompt it holds (lib/ingest.ts).
   */
  userPromptNear: query<
    { session: number; text: string; time: number | null; ms: number },
    Id
  >(
    `SELECT id FROM events WHERE session_id = ? AND kind = 'user'
    AND trim(text, ' ' || char(9, 10, 13)) = ?
    AND (time IS NULL OR ? IS NULL OR abs(time - ?) <= ?) LIMIT 1`,
    ["session", "text", "time", "time", "ms"],
  ),
  /** The highest seq of session `session` (-1 when it has no events). */
  maxSeq: query<{ session: number }, { seq: number }>(
    `SELECT COALESCE(MAX(seq), -1) AS seq FROM events WHERE session_id = ?`,
    ["session"],
  ),
  /** The event of session `session` with stored key `key` or, written before digests, `long`. */
  eventByKey: query<{ session: number; key: string; long: string }, Id>(
    `SELECT id FROM events WHERE session_id = ? AND key IN (?, ?) LIMIT 1`,
    ["session", "key", "long"],
  ),
  /**
   * A new event row (indexed for search by {@link Q.ftsFrom}); its id is the run's
   * `lastInsertRowid` (a `RETURNING` clause doubled the cost of the bulk of a full index).
   */
  insertEvent: query<
    {
      session: number;
      seq: number;
      kind: string;
      text: string;
      time: number | null;
      key: string | null;
      tool: string | null;
      call_id: string | null;
      data: string | null;
      flags: number;
      /** The reply's model where it changes in the session, else null. */
      model: string | null;
    }
  >(
    `INSERT INTO events (session_id, seq, kind, text, time, key, tool, call_id, data, flags, model)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ["session", "seq", "kind", "text", "time", "key", "tool", "call_id", "data", "flags", "model"],
  ),
  /** The model of the last switch of session `session` (the model its latest reply used). */
  lastModel: query<{ session: number }, { model: string }>(
    `SELECT model FROM events WHERE session_id = ? AND model IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    ["session"],
  ),
  /** Every model switch of session `session`, in order (events_model). */
  modelChanges: query<{ session: number }, { model: string }>(
    `SELECT model FROM events WHERE session_id = ? AND model IS NOT NULL ORDER BY seq`,
    ["session"],
  ),
  /** A session's models in order of first use (JSON array), or null for fewer than 2. */
  setModels: query<{ models: string | null; id: number }>(
    `UPDATE sessions SET models = ? WHERE id = ?`,
    ["models", "id"],
  ),
  /**
   * Indexes for search every event from row id `from` on (those a writer inserted
   * since its last call; the events_ai trigger of schema 1-4 did this per row).
   */
  ftsFrom: query<{ from: number }>(
    `INSERT INTO events_fts(rowid, text) SELECT id, text FROM events WHERE id >= ?`,
    ["from"],
  ),
  /** Indexes for search the events of row ids `from` to `to` (lib/ingest.ts catchUpText). */
  ftsRange: query<{ from: number; to: number }>(
    `INSERT INTO events_fts(rowid, text) SELECT id, text FROM events WHERE id BETWEEN ? AND ?`,
    ["from", "to"],
  ),
  /** The id and text size (bytes) of up to `n` events from row id `from` on, in id order. */
  eventSizesFrom: query<{ from: number; n: number }, { id: number; n: number }>(
    `SELECT id, octet_length(text) AS n FROM events WHERE id >= ? ORDER BY id LIMIT ?`,
    ["from", "n"],
  ),
  /** An event rewritten in place (a later record with the same key). */
  updateEvent: query<
    Omit<EventRow, "seq" | "model"> & { flags: number }
  >(
    `UPDATE events SET kind = ?, text = ?, time = ?, tool = ?, call_id = ?, data = ?, flags = ?
    WHERE id = ?`,
    ["kind", "text", "time", "tool", "call_id", "data", "flags", "id"],
  ),
  // --- secret values named after their repeats were written (lib/mask_written.ts) ---
  // `values` is a JSON array of the values; a row is returned when it holds any of them.
  /** Events of session `session` events_fts matches for `match` (a phrase). */
  eventsMatching: query<{ match: string; session: number }, { id: number }>(
    `SELECT e.id FROM events_fts JOIN events e ON e.id = events_fts.rowid
    WHERE events_fts MATCH ? AND e.session_id = ?`,
    ["match", "session"],
  ),
  /** Events of session `session` whose text holds one of `values`. */
  eventsWithText: query<{ session: number; values: string }, { id: number }>(
    `SELECT id FROM events WHERE session_id = ?
    AND EXISTS (SELECT 1 FROM json_each(?) WHERE instr(text, value) > 0)`,
    ["session", "values"],
  ),
  /** Whether session `session` holds an event of row id `from` to `to`. */
  sessionHoldsIds: query<{ session: number; from: number; to: number }, { one: number }>(
    `SELECT 1 AS one FROM events WHERE session_id = ? AND id BETWEEN ? AND ? LIMIT 1`,
    ["session", "from", "to"],
  ),
  /** The largest event row id (0 when none). */
  maxEventId: query<Record<string, never>, { id: number }>(
    `SELECT coalesce(max(id), 0) AS id FROM events`,
    [],
  ),
  /** Calls of session `session` whose data (their input) holds one of `values`. */
  callsHolding: query<{ session: number; values: string }, { id: number }>(
    `SELECT id FROM events WHERE session_id = ? AND kind = 'tool_call' AND data IS NOT NULL
    AND EXISTS (SELECT 1 FROM json_each(?) WHERE instr(data, value) > 0)`,
    ["session", "values"],
  ),
  /** An event's text and data. */
  eventTextData: query<{ id: number }, { text: string; data: string | null }>(
    `SELECT text, data FROM events WHERE id = ?`,
    ["id"],
  ),
  /** An event's text masked (its events_fts entry follows by trigger). */
  setEventText: query<{ text: string; id: number }>(
    `UPDATE events SET text = ? WHERE id = ?`,
    ["text", "id"],
  ),
  /** An event's data masked. */
  setEventData: query<{ data: string | null; id: number }>(
    `UPDATE events SET data = ? WHERE id = ?`,
    ["data", "id"],
  ),
  /** Command rows of session `session` holding one of `values`. */
  commandRowsHolding: query<
    { session: number; values: string },
    { event_id: number; command: string }
  >(
    `SELECT event_id, command FROM commands WHERE session_id = ? AND EXISTS
    (SELECT 1 FROM json_each(?) WHERE instr(command, value) > 0)`,
    ["session", "values"],
  ),
  /** A command row masked. */
  setCommand: query<{ command: string; event: number }>(
    `UPDATE commands SET command = ? WHERE event_id = ?`,
    ["command", "event"],
  ),
  /** File rows of session `session` whose spans hold one of `values`. */
  filesHolding: query<
    { session: number; values: string },
    { id: number; old: string | null; new: string | null }
  >(
    `SELECT id, old, new FROM files WHERE session_id = ? AND EXISTS
    (SELECT 1 FROM json_each(?) WHERE instr(old, value) > 0 OR instr(new, value) > 0)`,
    ["session", "values"],
  ),
  /** A file row's spans masked. */
  setFileSpans: query<{ old: string | null; new: string | null; id: number }>(
    `UPDATE files SET old = ?, new = ? WHERE id = ?`,
    ["old", "new", "id"],
  ),
  /** A session's title masked. */
  setTitle: query<{ title: string | null; id: number }>(
    `UPDATE sessions SET title = ? WHERE id = ?`,
    ["title", "id"],
  ),
  /** Removes the command row of event `event`. */
  deleteDerived: query<{ event: number }>(`DELETE FROM commands WHERE event_id = ?`, ["event"]),
  /** Removes the file rows of event `event`. */
  deleteDerivedFiles: query<{ event: number }>(`DELETE FROM files WHERE event_id = ?`, [
    "event",
  ]),
  /** A shell command a call ran. */
  insertCommand: query<
    Pick<CommandRow, "event_id" | "session_id" | "call_id" | "command" | "time">
  >(
    `INSERT INTO commands (event_id, session_id, call_id, command, time) VALUES (?, ?, ?, ?, ?)`,
    ["event_id", "session_id", "call_id", "command", "time"],
  ),
  /** A file a call or result touched. */
  insertFile: query<Omit<FileRow, "id" | "failed">>(
    `INSERT INTO files (event_id, session_id, call_id, path, op, old, new, time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ["event_id", "session_id", "call_id", "path", "op", "old", "new", "time"],
  ),
  /** A call's status from its result (exit kept when the result gives none). */
  setCommandExit: query<{ exit: number | null; is_error: number; session: number; call: string }>(
    `UPDATE commands SET exit = COALESCE(?, exit), is_error = ? WHERE session_id = ? AND call_id = ?`,
    ["exit", "is_error", "session", "call"],
  ),
  /**
   * A call's command dropped: its result says it never ran (`notRun`: refused,
   * denied, cancelled), so it is no failed command, and no command at all.
   */
  deleteCommandOfCall: query<{ session: number; call: string }>(
    `DELETE FROM commands WHERE session_id = ? AND call_id = ?`,
    ["session", "call"],
  ),
  /**
   * A call's file touches marked failed (its result was an error): an edit or
   * write that changed nothing, a read that found nothing (a `view` of a missing file).
   */
  /** What a call's write replaced (its result says: lib/ingest.ts `applyResult`). */
  setWriteOld: query<{ old: string; session: number; call: string }>(
    `UPDATE files SET old = ? WHERE session_id = ? AND call_id = ? AND op = 'write'`,
    ["old", "session", "call"],
  ),
  failFiles: query<{ session: number; call: string }>(
    `UPDATE files SET failed = 1 WHERE session_id = ? AND call_id = ?`,
    ["session", "call"],
  ),
  /** A result recorded before its call (rare; streamed stores): its status JSON. */
  /** The text of the first result of call `call` (a move command's output, lib/memory/moves.ts). */
  resultTextForCall: query<{ session: number; call: string }, { text: string }>(
    `SELECT text FROM events WHERE session_id = ? AND call_id = ? AND kind = 'tool_result' LIMIT 1`,
    ["session", "call"],
  ),
  resultForCall: query<{ session: number; call: string }, { data: string | null }>(
    `SELECT data FROM events WHERE session_id = ? AND call_id = ? AND kind = 'tool_result' LIMIT 1`,
    ["session", "call"],
  ),
  /** Recounts the events of session `id`. */
  countEvents: query<Id>(
    `UPDATE sessions SET events = (SELECT COUNT(*) FROM events WHERE session_id = sessions.id) WHERE id = ?`,
    ["id"],
  ),
  sourceByPath: query<{ path: string }, SourceRow>(`SELECT * FROM sources WHERE path = ?`, [
    "path",
  ]),
  /** A source's whole row written (inserted or replaced). */
  upsertSource: query<SourceRow>(
    `INSERT INTO sources (path, harness, kind, size, mtime, companions, offset, head_hash, state, watermark, hash, sessions, events, skipped, error, indexed_at, drift, reader)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(path) DO UPDATE SET harness = excluded.harness, kind = excluded.kind, size = excluded.size,
      mtime = excluded.mtime, companions = excluded.companions, offset = excluded.offset,
      head_hash = excluded.head_hash, state = excluded.state, watermark = excluded.watermark,
      hash = excluded.hash, sessions = excluded.sessions, events = excluded.events,
      skipped = excluded.skipped, error = excluded.error, indexed_at = excluded.indexed_at,
      drift = excluded.drift, reader = excluded.reader`,
    [
      ...["path", "harness", "kind", "size", "mtime", "companions", "offset", "head_hash"] as const,
      ...["state", "watermark", "hash", "sessions", "events", "skipped", "error"] as const,
      ...["indexed_at", "drift", "reader"] as const,
    ],
  ),
  /** A source's read failed: the message, when (epoch ms), the skip notes left; its stamp stays. */
  sourceError: query<Pick<SourceRow, "error" | "indexed_at" | "skipped" | "path">>(
    `UPDATE sources SET error = ?, indexed_at = ?, skipped = ? WHERE path = ?`,
    ["error", "indexed_at", "skipped", "path"],
  ),
  /** The session and event totals of the sessions read from `source` (a source path). */
  sourceTotals: query<{ source: string }, Pick<SourceRow, "sessions" | "events">>(
    `SELECT COUNT(*) AS sessions, COALESCE(SUM(events), 0) AS events FROM sessions WHERE source = ?`,
    ["source"],
  ),
  /** A session read from `source` (a store path) dated by the file's mtime (either kind), if any. */
  sourceDatedByFile: query<{ source: string }, { one: number }>(
    `SELECT 1 AS one FROM sessions WHERE source = ? AND time_from_file <> 0 LIMIT 1`,
    ["source"],
  ),
  /** Adds `count` secrets of `kind` redacted in `source` (a store path). */
  addRedactions: query<{ source: string; kind: string; count: number }>(
    `INSERT INTO redactions (source, kind, count) VALUES (?, ?, ?)
    ON CONFLICT(source, kind) DO UPDATE SET count = count + excluded.count`,
    ["source", "kind", "count"],
  ),
  /** Forgets what was redacted in `source` (a store path). */
  clearRedactions: query<{ source: string }>(`DELETE FROM redactions WHERE source = ?`, [
    "source",
  ]),
  /** What the freshness check stats of every known store. */
  staleCheckSources: query<
    NoParams,
    Pick<
      SourceRow,
      | "path"
      | "harness"
      | "kind"
      | "size"
      | "mtime"
      | "companions"
      | "offset"
      | "error"
      | "indexed_at"
    >
  >(
    `SELECT path, harness, kind, size, mtime, companions, offset, error, indexed_at FROM sources`,
  ),
  /** Each harness's reader revisions among its stores (lib/fresh/freshen.ts). */
  readerRevisions: query<NoParams, { harness: string; reader: number | null; n: number }>(
    `SELECT harness, reader, count(*) AS n FROM sources WHERE error IS NULL GROUP BY harness, reader`,
  ),
  /**
   * Stores (read without error) whose reader revision is below `below`: those an older secrets
   * redaction read (lib/fresh/revised.ts `olderRedaction`). A count, not {@link readerRevisions}'
   * groups: every hook and MCP call asks it (40,000 rows: 1.6 ms against 8.9 ms).
   */
  olderReaders: query<{ below: number }, { n: number }>(
    `SELECT count(*) AS n FROM sources WHERE error IS NULL AND coalesce(reader, 0) < ?`,
    ["below"],
  ),
  allSources: query<NoParams, SourceRow>(`SELECT * FROM sources ORDER BY harness, path`),
  /**
   * What `deja sources` says of each store: the columns it reads alone (every column of
   * 40,000 rows held 56 MB of heap; issue 18).
   */
  sourcesReport: query<NoParams, SourceReportRow>(
    `SELECT path, harness, size, mtime, sessions, skipped, error, indexed_at
      FROM sources ORDER BY harness, path`,
  ),
  /** The sources `deja drift` reads, of one harness or (null) all. */
  driftSources: query<
    { harness: string | null },
    Pick<SourceRow, "path" | "harness" | "skipped" | "drift">
  >(
    `SELECT path, harness, skipped, drift FROM sources
    WHERE (? IS NULL OR harness = ?) ORDER BY harness, path`,
    ["harness", "harness"],
  ),
  /** Redaction counts per harness and kind. */
  redactionsByHarness: query<NoParams, { harness: string; kind: string; count: number }>(
    `SELECT s.harness AS harness, r.kind AS kind, SUM(r.count) AS count
    FROM redactions r JOIN sources s ON s.path = r.source GROUP BY s.harness, r.kind`,
  ),
  /** Every project the index knows. */
  projects: query<NoParams, { project: string }>(
    `SELECT DISTINCT project FROM sessions WHERE project IS NOT NULL`,
  ),
  /** The sessions of `projects` (a JSON array): an exclusion taking effect. */
  sessionsOfProjects: query<{ projects: string }, SessionRow>(
    `SELECT * FROM sessions WHERE project IN (SELECT value FROM json_each(?))`,
    ["projects"],
  ),
  /**
   * Stores whose skip notes name a session left out (`… (session <id>)`, a cache warm-up):
   * `like` is a LIKE pattern; `deja show` of such an id says why it is not there.
   */
  skipsNaming: query<{ like: string }, Pick<SourceRow, "path" | "skipped">>(
    `SELECT path, skipped FROM sources WHERE skipped LIKE ? ESCAPE '\\' LIMIT 5`,
    ["like"],
  ),
  sessionsByPrefix: query<{ like: string; harness: string | null }, SessionRow>(
    `SELECT * FROM sessions s WHERE native_id LIKE ? ESCAPE '\\' AND (? IS NULL OR harness = ?)
    ORDER BY ${UNDATED}, updated DESC LIMIT 20`,
    // like: a native id prefix as a LIKE pattern; newest first, undated ones after the dated
    ["like", "harness", "harness"],
  ),
  /**
   * The sessions whose own id starts so: a local session's `native_id`, a remote's own id after
   * `<remote>:` (`box:cafe0001-…` for `cafe0001`), or its whole id when the prefix goes past the
   * remote's name (`box:ca`); not a remote's sessions the prefix matches by the remote's name
   * alone (`n`: the prefix's length, in characters; `box:` is longer than `box`).
   */
  sessionsByOwnPrefix: query<{ like: string; harness: string | null; n: number }, SessionRow>(
    `SELECT * FROM sessions s WHERE (? IS NULL OR harness = ?) AND (
      (native_id LIKE ? ESCAPE '\\' AND (origin IS NULL OR length(origin) < ?))
      OR (origin IS NOT NULL AND substr(native_id, 1, length(origin) + 1) = origin || ':'
        AND substr(native_id, length(origin) + 2) LIKE ? ESCAPE '\\'))
    ORDER BY ${UNDATED}, updated DESC LIMIT 20`,
    ["harness", "harness", "like", "n", "like"],
  ),
  eventsOfSession: query<{ session: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? ORDER BY seq`,
    ["session"],
  ),
  /**
   * The events of one session without their text (`deja show`, which reads the text a page
   * at a time: lib/cli/cmd_show.ts): `text` is its first character that is not ASCII white
   * space ('' when none), what tells a said or typed turn (lib/memory/ending.ts); `n` its
   * size in bytes.
   */
  eventMetaOfSession: query<{ session: number }, EventRow & { n: number }>(
    `SELECT id, seq, kind, time, tool, call_id, data, model, octet_length(text) AS n,
      substr(ltrim(text, ' ' || char(9) || char(10) || char(13)), 1, 1) AS text
      FROM events WHERE session_id = ? ORDER BY seq`,
    ["session"],
  ),
  /** {@link Q.eventMetaOfSession} a page at a time: `limit` events after seq `after`. */
  eventMetaPage: query<{ session: number; after: number; limit: number }, EventRow & { n: number }>(
    `SELECT id, seq, kind, time, tool, call_id, data, model, octet_length(text) AS n,
      substr(ltrim(text, ' ' || char(9) || char(10) || char(13)), 1, 1) AS text
      FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ["session", "after", "limit"],
  ),
  /** The text of a session's events from seq `from` to `to`. */
  eventTextsBetween: query<
    { session: number; from: number; to: number },
    { id: number; text: string }
  >(
    `SELECT id, text FROM events WHERE session_id = ? AND seq BETWEEN ? AND ?`,
    ["session", "from", "to"],
  ),
  /**
   * A session's events of one kind after seq `after`, in order, and the same backwards: the
   * digest (lib/memory/digest.ts) reads them a row at a time rather than the session whole.
   */
  eventsOfKindAfter: query<{ session: number; kind: string; after: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? AND kind = ? AND seq > ? ORDER BY seq`,
    ["session", "kind", "after"],
  ),
  eventsOfKindBackFrom: query<{ session: number; kind: string; after: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? AND kind = ? AND seq > ? ORDER BY seq DESC`,
    ["session", "kind", "after"],
  ),
  /** A session's events strictly between two seqs, in order. */
  eventsBetweenSeqs: query<{ session: number; from: number; to: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq`,
    ["session", "from", "to"],
  ),
  /**
   * What a session's events before seq `seq` leave a page of the view (lib/view/session.ts):
   * their latest time, and the model the last one of them that names one names.
   */
  pageBefore: query<
    { session: number; seq: number },
    { time: number | null; model: string | null }
  >(
    `SELECT (SELECT max(time) FROM events WHERE session_id = ? AND seq < ?) AS time,
      (SELECT model FROM events WHERE session_id = ? AND seq < ? AND model IS NOT NULL
        ORDER BY seq DESC LIMIT 1) AS model`,
    ["session", "seq", "session", "seq"],
  ),
  /** The keys of the events of store `source`'s sessions (lib/index_source.ts tells a cut). */
  eventKeysOfSource: query<
    { source: string },
    {
      harness: string;
      native_id: string;
      key: string;
      time: number | null;
      seq: number;
      flags: number;
    }
  >(
    `SELECT s.harness, s.native_id, e.key, e.time, e.seq, e.flags FROM sessions s
      JOIN events e ON e.session_id = s.id
      WHERE s.source = ? AND e.key IS NOT NULL ORDER BY s.id, e.seq`,
    ["source"],
  ),
  /** The keys of one session's events, in order (null for an event written without one). */
  eventKeysOfSession: query<
    { harness: string; native_id: string },
    { key: string | null; time: number | null; seq: number; flags: number }
  >(
    `SELECT e.key, e.time, e.seq, e.flags FROM sessions s JOIN events e ON e.session_id = s.id
      WHERE s.harness = ? AND s.native_id = ? ORDER BY e.seq`,
    ["harness", "native_id"],
  ),
  /**
   * Marks the events from seq `from` to `to` of session `harness`/`native_id` kept
   * (lib/search/signals.ts KEPT).
   */
  markKept: query<{ harness: string; native_id: string; from: number; to: number }>(
    `UPDATE events SET flags = flags | 16 WHERE session_id =
      (SELECT id FROM sessions WHERE harness = ? AND native_id = ?) AND seq BETWEEN ? AND ?`,
    ["harness", "native_id", "from", "to"],
  ),
  /** Deletes the event at `seq` of session `session` (its text leaves events_fts by trigger). */
  deleteEventAtSeq: query<{ session: number; seq: number }>(
    `DELETE FROM events WHERE session_id = ? AND seq = ?`,
    ["session", "seq"],
  ),
  /** Whether the assistant said or called anything after seq `after`. */
  actedAfter: query<{ session: number; after: number }, { yes: number }>(
    `SELECT 1 AS yes FROM events WHERE session_id = ? AND seq > ?
      AND kind IN ('assistant', 'tool_call') LIMIT 1`,
    ["session", "after"],
  ),
  /** A session's results of calls that never ran (`{"notRun":true}`, core/model.ts), in order. */
  notRunResults: query<{ session: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? AND kind = 'tool_result' AND call_id IS NOT NULL
      AND instr(data, '"notRun":true') > 0 ORDER BY seq`,
    ["session"],
  ),
  /** The text of the first result of a session's call `call` (a failed run's output, `ctx`). */
  resultText: query<{ session: number; call: string }, { text: string }>(
    `SELECT text FROM events WHERE session_id = ? AND call_id = ? AND kind = 'tool_result'
      ORDER BY seq LIMIT 1`,
    ["session", "call"],
  ),
  /** The text of a session's last call with id `call`. */
  callText: query<{ session: number; call: string }, { text: string }>(
    `SELECT text FROM events WHERE session_id = ? AND call_id = ? AND kind = 'tool_call'
      ORDER BY seq DESC LIMIT 1`,
    ["session", "call"],
  ),
  /** The commands of one session (row id). */
  commandsOfSession: query<{ session: number }, CommandRow>(
    `SELECT * FROM commands WHERE session_id = ?`,
    ["session"],
  ),
  /** The file touches of one session (row id). */
  // In the session's order, each with its event's seq (trial 63: `show --json`'s files[] had
  // no order a script could rely on, and no place in the session).
  filesOfSession: query<{ session: number }, FileRow & { seq: number }>(
    `SELECT f.*, e.seq AS seq FROM files f JOIN events e ON e.id = f.event_id
      WHERE f.session_id = ? ORDER BY e.seq, f.id`,
    ["session"],
  ),
  childrenOf: query<{ harness: string; parent: string }, SessionRow>(
    `SELECT * FROM sessions WHERE harness = ? AND parent = ? ORDER BY started`,
    ["harness", "parent"], // parent: the parent's native id
  ),
  /** Every session's row id, harness and project (MCP's filters, lib/mcp/answers.ts). */
  sessionPlaces: query<NoParams, { id: number; harness: string; project: string | null }>(
    `SELECT id, harness, project FROM sessions`,
  ),
  sessionsByIds: query<{ ids: string }, SessionRow>(
    `SELECT * FROM sessions WHERE id IN (SELECT value FROM json_each(?))`,
    ["ids"], // a JSON array of session row ids
  ),
  /** Sessions with a row id in [from, to) (lib/search/sessions.ts reads ahead). */
  sessionsInRange: query<{ from: number; to: number }, SessionRow>(
    `SELECT * FROM sessions WHERE id >= ? AND id < ?`,
    ["from", "to"],
  ),
  /** A value of the meta table. */
  getMeta: query<{ key: string }, { value: string }>(`SELECT value FROM meta WHERE key = ?`, [
    "key",
  ]),
  /** Writes a value of the meta table. */
  setMeta: query<{ key: string; value: string }>(
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ["key", "value"],
  ),
  /** Totals of the index. */
  stats: query<NoParams, { sessions: number; events: number; sources: number }>(
    `SELECT (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM events) AS events,
    (SELECT COUNT(*) FROM sources) AS sources`,
  ),

  // --- work memory (lib/memory: ctx, blame, restore, fix, how, last) ---
  sessionById: query<Id, SessionRow>(`SELECT * FROM sessions WHERE id = ?`, ["id"]),
  /** Whether session `session` holds a reply or a call: something was done, not only asked. */
  answered: query<{ session: number }, { n: number }>(
    `SELECT 1 AS n FROM events WHERE session_id = ? AND kind IN ('assistant', 'tool_call')
    AND (kind = 'tool_call' OR length(text) > 0) LIMIT 1`,
    ["session"],
  ),
  /**
   * One row when session `session` did something worth resuming: it was answered ({@link
   * Q.answered}), and holds a tool call or a request of more than a greeting's length (the
   * session start and `handoff` pass over a "hi" / "Hello!" exchange).
   */
  didSomething: query<{ session: number }, { n: number }>(
    `SELECT 1 AS n WHERE EXISTS (SELECT 1 FROM events WHERE session_id = ?
      AND kind IN ('assistant', 'tool_call') AND (kind = 'tool_call' OR length(text) > 0))
    AND EXISTS (SELECT 1 FROM events WHERE session_id = ?
      AND (kind = 'tool_call' OR (kind = 'user' AND length(trim(text)) >= 16)))`,
    ["session", "session"],
  ),
  /**
   * Subagents whose parent the index lacks, of the projects matching `project` (a LIKE pattern
   * against {@link projectFilterSql}): row id and native id. Gemini CLI's background skill
   * extraction is one always (its chat is filed under no parent session).
   */
  orphanSubagents: query<{ project: string }, { id: number; native_id: string }>(
    `SELECT s.id, s.native_id FROM sessions s WHERE s.parent IS NOT NULL AND ${TOP_LEVEL}
      AND ${projectFilterSql("s.project")} LIKE ? ESCAPE '\\'`,
    ["project"],
  ),
  /** Sessions written to at or after `since` (epoch ms): the MCP server's running conversation. */
  sessionsUpdatedSince: query<
    { since: number },
    {
      id: number;
      harness: string;
      project: string | null;
      parent: string | null;
      started: number | null;
      updated: number;
    }
  >(
    `SELECT id, harness, project, parent, started, updated FROM sessions
    WHERE updated >= ? AND harness <> 'deja'`,
    ["since"],
  ),
  /** The commands of session `session` in order, with their event's seq (and output: OUTPUT_IF_UNKNOWN; no_result: NO_RESULT). */
  commandsInOrder: query<{ session: number }, CommandAtRow>(
    `${COMMANDS_AT()} WHERE c.session_id = ? ORDER BY e.seq`,
    ["session"],
  ),
  /**
   * {@link Q.commandsInOrder} of the commands whose text holds `rm`, `mv` or `unlink` (those
   * that may remove or move files: lib/memory/moves.ts), so a session's other commands and
   * their outputs are not read for them (the edit hook asks it of a file's last session).
   */
  moveCommandsInOrder: query<{ session: number }, CommandAtRow>(
    `${COMMANDS_AT()} WHERE c.session_id = ? AND (instr(c.command, 'rm') > 0
      OR instr(c.command, 'mv') > 0 OR instr(c.command, 'unlink') > 0
      OR instr(c.command, 'cp') > 0) ORDER BY e.seq`,
    ["session"],
  ),
  /**
   * The commands the person ran in a harness's `!` shell mode in session `session` that may
   * remove or move files (a user event `!<command>`), in order, each with the notice that holds
   * its output when one follows it (trial 106 F2: `! mv app.py lib/` was no move to blame).
   */
  personMovesInOrder: query<
    { session: number },
    { seq: number; command: string; output: string | null }
  >(
    // The user turns picked by their kind in events_rank (as `userSeqs`): only their rows are
    // read, not every event of the session (the digest and the pre-edit hook ask this).
    `SELECT e.seq AS seq, substr(e.text, 2) AS command,
      (SELECT n.text FROM events n WHERE n.session_id = e.session_id AND n.seq = e.seq + 1
        AND n.kind = 'notice') AS output
    FROM events e WHERE e.id IN (
      SELECT r.id FROM events f INDEXED BY events_session
      CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
      WHERE f.session_id = ? AND r.kind = 'user')
      AND substr(e.text, 1, 1) = '!'
      AND (instr(e.text, 'rm') > 0 OR instr(e.text, 'mv') > 0 OR instr(e.text, 'unlink') > 0
        OR instr(e.text, 'cp') > 0)
    ORDER BY e.seq`,
    ["session"],
  ),
  /**
   * The calls of session `session` whose stored input names a patch's rename or deletion
   * (`*** Move to:`, `*** Delete File:`) and whose file rows did not fail, in order, with that
   * input (lib/memory/moves.ts `patchMoves`; trial 94 F2, F3).
   */
  patchMovesInOrder: query<{ session: number }, { seq: number; data: string }>(
    `SELECT e.seq AS seq, e.data AS data FROM events e
    WHERE e.session_id = ? AND e.kind = 'tool_call' AND e.data IS NOT NULL
      AND (instr(e.data, '*** Move to: ') > 0 OR instr(e.data, '*** Delete File: ') > 0)
      AND NOT EXISTS (SELECT 1 FROM files f WHERE f.event_id = e.id AND f.failed = 1)
    ORDER BY e.seq`,
    ["session"],
  ),
  /**
   * The sessions with a command that names `name` beside `mv` or `cp` (that may have moved or
   * copied a file to that name: lib/memory/renames.ts; trial 97 F1).
   */
  sessionsMovingName: query<{ name: string }, { session: number }>(
    `SELECT DISTINCT session_id AS session FROM commands
    WHERE (instr(command, 'mv') > 0 OR instr(command, 'cp') > 0) AND instr(command, ?) > 0
    UNION SELECT DISTINCT session_id FROM events
    WHERE kind = 'user' AND substr(text, 1, 1) = '!'
      AND (instr(text, 'mv') > 0 OR instr(text, 'cp') > 0) AND instr(text, ?) > 0`,
    ["name", "name"],
  ),
  /**
   * Sessions whose commands name `name` beside `rm` or `unlink` (as {@link Q.sessionsMovingName}
   * for moves): those that may have removed a file of that name (lib/memory/renames.ts).
   */
  sessionsRemovingName: query<{ name: string }, { session: number }>(
    `SELECT DISTINCT session_id AS session FROM commands
    WHERE (instr(command, 'rm') > 0 OR instr(command, 'unlink') > 0) AND instr(command, ?) > 0
    UNION SELECT DISTINCT session_id FROM events
    WHERE kind = 'user' AND substr(text, 1, 1) = '!'
      AND (instr(text, 'rm') > 0 OR instr(text, 'unlink') > 0) AND instr(text, ?) > 0`,
    ["name", "name"],
  ),
  /**
   * {@link Q.commandsInOrder} of every session, of the commands whose text holds `like` (a LIKE
   * pattern, `\` its escape), with the session and its project, replays left out: those that
   * may have read a file of that name (lib/memory/shell_reads.ts).
   */
  commandsNaming: query<
    { like: string },
    CommandAtRow & { session_id: number; project: string | null }
  >(
    `SELECT a.*, c.session_id AS session_id, s.project AS project
    FROM (${COMMANDS_AT()} WHERE c.command LIKE ? ESCAPE '\\'
      AND c.event_id NOT IN (SELECT event_id FROM replays)) a
    JOIN commands c ON c.event_id = a.event_id JOIN sessions s ON s.id = c.session_id`,
    ["like"],
  ),
  /**
   * The commands whose text or whose session's project holds `like` (a LIKE pattern, `\` its
   * escape), with the session and its project, replays left out: those that may have read a
   * file under a folder of that name (lib/memory/shell_reads.ts `shellReadsIn`).
   */
  commandsNamingOrIn: query<
    { like: string },
    { command: string; session: number; project: string | null }
  >(
    `SELECT c.command AS command, c.session_id AS session, s.project AS project
    FROM commands c JOIN sessions s ON s.id = c.session_id
    WHERE (c.command LIKE ? ESCAPE '\\' OR s.project LIKE ? ESCAPE '\\')
      AND c.event_id NOT IN (SELECT event_id FROM replays)`,
    ["like", "like"],
  ),
  /** {@link Q.commandsInOrder} after seq `after` (what ran after a reply: lib/memory/digest.ts). */
  commandsAfter: query<{ session: number; after: number }, CommandAtRow>(
    `${COMMANDS_AT()} WHERE c.session_id = ? AND e.seq > ? ORDER BY e.seq`,
    ["session", "after"],
  ),
  /** The files session `session` read without error before seq `before` (lib/memory/digest.ts). */
  readsBefore: query<{ session: number; before: number }, { path: string; time: number | null }>(
    `SELECT f.path AS path, f.time AS time FROM files f JOIN events e ON e.id = f.event_id
    WHERE f.session_id = ? AND f.op = 'read' AND f.failed = 0 AND e.seq < ? ORDER BY e.seq`,
    ["session", "before"],
  ),
  /**
   * The edit rows of the events `ids` (a JSON array), in each call's order, with the call's
   * input (lib/memory/edit_lines.ts `replacingAll`: which replaced every occurrence).
   */
  editInputs: query<
    { ids: string },
    { id: number; event_id: number; op: string; data: string | null }
  >(
    `SELECT f.id AS id, f.event_id AS event_id, f.op AS op, e.data AS data
    FROM files f JOIN events e ON e.id = f.event_id
    WHERE f.event_id IN (SELECT value FROM json_each(?)) AND f.op = 'edit' ORDER BY f.event_id, f.id`,
    ["ids"],
  ),
  /** The file touches of session `session` in order, with their event's seq. */
  filesInOrder: query<{ session: number }, FileAtRow & { input: string | null }>(
    `SELECT ${FILE_AT}, e.data AS input
    FROM files f JOIN events e ON e.id = f.event_id WHERE f.session_id = ? ORDER BY e.seq, f.id`,
    ["session"],
  ),
  /**
   * Command calls of the ids `ids` (a JSON array: {@link Q.repeatedCommandCalls}), with their
   * session (lib/replays.ts): `what` is the call's time and command (a replay keeps both).
   */
  sharedCommandCalls: query<{ ids: string }, SharedCallRow>(
    `SELECT x.event_id AS event_id, x.call_id AS call_id, e.time || ' ' || x.command AS what,
      x.session_id AS session_id, s.harness AS harness, s.parent IS NOT NULL AS sub,
      s.started AS started, s.updated AS updated
    FROM commands x JOIN sessions s ON s.id = x.session_id JOIN events e ON e.id = x.event_id
    WHERE e.time IS NOT NULL AND x.call_id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /** File calls as {@link Q.sharedCommandCalls}: `what` is the time, operation, path and texts. */
  sharedFileCalls: query<{ ids: string }, SharedCallRow>(
    `SELECT x.event_id AS event_id, x.call_id AS call_id,
      e.time || ' ' || x.op || ' ' || x.path || ' ' || coalesce(length(x.old), '-') || ' ' ||
        coalesce(length(x.new), '-') || ' ' || coalesce(substr(x.new, 1, 200), '') AS what,
      x.session_id AS session_id, s.harness AS harness, s.parent IS NOT NULL AS sub,
      s.started AS started, s.updated AS updated
    FROM files x JOIN sessions s ON s.id = x.session_id JOIN events e ON e.id = x.event_id
    WHERE e.time IS NOT NULL AND x.call_id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /** Call ids (16 characters or more) two or more command rows hold (lib/replays.ts). */
  repeatedCommandCalls: query<NoParams, { call_id: string }>(
    `SELECT call_id FROM commands WHERE length(call_id) >= 16
    GROUP BY call_id HAVING COUNT(*) > 1`,
  ),
  /** Call ids (16 characters or more) two or more file rows hold (lib/replays.ts). */
  repeatedFileCalls: query<NoParams, { call_id: string }>(
    `SELECT call_id FROM files WHERE length(call_id) >= 16
    GROUP BY call_id HAVING COUNT(*) > 1`,
  ),
  clearReplays: query<NoParams>(`DELETE FROM replays`),
  allReplays: query<NoParams, { id: number; owner: number }>(
    `SELECT event_id AS id, owner FROM replays`,
  ),
  insertReplay: query<{ event: number; owner: number }>(
    `INSERT OR REPLACE INTO replays (event_id, owner) VALUES (?, ?)`,
    ["event", "owner"],
  ),
  /** The events of session `session`'s calls that replay another session's (lib/replays.ts). */
  replaysOfSession: query<{ session: number }, { id: number; owner: number }>(
    `SELECT r.event_id AS id, r.owner AS owner FROM replays r JOIN events e ON e.id = r.event_id
    WHERE e.session_id = ?`,
    ["session"],
  ),
  /** Touches of a file: `like` on the path with '/' separators (escaped with \), or the exact `path`. */
  fileTouches: query<{ like: string; path: string }, FileAtRow>(
    `SELECT ${FILE_AT}
    FROM files f JOIN events e ON e.id = f.event_id
    WHERE (replace(f.path, char(92), '/') LIKE ? ESCAPE '\\' OR f.path = ?)
      AND f.event_id NOT IN (SELECT event_id FROM replays)`,
    ["like", "path"],
  ),
  /**
   * The recorded paths that start with `like` (a LIKE pattern over the path with `/` for `\`)
   * and the sessions that touched them, replays left out (`blame` of a folder: trial 130 F5).
   */
  filesLike: query<{ like: string }, { path: string; session: number }>(
    `SELECT DISTINCT f.path AS path, f.session_id AS session FROM files f
    WHERE replace(f.path, char(92), '/') LIKE ? ESCAPE '\\'
      AND f.event_id NOT IN (SELECT event_id FROM replays)`,
    ["like"],
  ),
  /** A window of a session's events, `from` and `to` seq included. */
  eventsBetween: query<{ session: number; from: number; to: number }, EventRow>(
    `SELECT * FROM events WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`,
    ["session", "from", "to"],
  ),
  /** Tool results holding the words of `match` (an FTS5 MATCH expression; fix). */
  resultsMatching: query<
    { match: string },
    { id: number; session_id: number; seq: number; call_id: string | null; text: string }
  >(
    `SELECT e.id AS id, e.session_id AS session_id, e.seq AS seq,
      e.call_id AS call_id, e.text AS text
    FROM events_fts JOIN events e ON e.id = events_fts.rowid
    WHERE events_fts MATCH ? AND e.kind = 'tool_result' LIMIT 5000`,
    ["match"],
  ),
  /**
   * Calls whose result says they never ran (refused, denied, cancelled: `data` holds
   * `"notRun":true`), their text holding every word (a JSON array, lower case); at most 50.
   */
  notRunCalls: query<{ words: string }, { text: string; session_id: number; time: number | null }>(
    `SELECT c.text AS text, c.session_id AS session_id, c.time AS time
    FROM events r JOIN events c
      ON c.session_id = r.session_id AND c.call_id = r.call_id AND c.kind = 'tool_call'
    WHERE r.kind = 'tool_result' AND r.data LIKE '%"notRun":true%'
      AND NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE instr(lower(c.text), w.value) = 0)
    LIMIT 50`,
    ["words"],
  ),
  /** Command runs holding every word (a JSON array, lower case), in a project (LIKE pattern or null; how). */
  commandRuns: query<{ words: string; project: string | null }, CommandRunRow>(
    // Whether each call got a result (trial 103 F7: `how` said "ran 1 time … exit unknown" of
    // calls that never finished, where ctx says "no result").
    `SELECT ${COMMAND_RUN}, ${NO_RESULT} AS no_result
    FROM commands c JOIN sessions s ON s.id = c.session_id
    WHERE NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE instr(lower(c.command), w.value) = 0)
      AND (? IS NULL OR ${projectFilterSql("s.project")} LIKE ? ESCAPE '\\')
      AND c.event_id NOT IN (SELECT event_id FROM replays)`,
    ["words", "project", "project"],
  ),
  /**
   * Commands the person ran themselves in a harness's `!` shell mode (a `user` event
   * `!<command>`: Claude Code's `<bash-input>`, opencode's shell parts; parsers/_message_blocks.ts,
   * parsers/_opencode_events.ts) whose text the full-text expression `match` finds, in a project
   * (LIKE pattern or null; how). As command runs: no exit status is recorded, and the output is
   * the harness's notice right after it, when one follows. Trial 103 F9: `how` never listed them.
   * Through the full-text index, each match's kind read from `events_rank` (covering) before
   * its text, so only user events' texts are read (`how npm` on 33,000 events: 3 ms, 13 ms when
   * every match's row was read).
   */
  userCommandRuns: query<
    { match: string; project: string | null },
    CommandRunRow & { event_id: number }
  >(
    `SELECT substr(e.text, 2) AS command, NULL AS exit, 0 AS is_error, NULL AS call_id,
      e.id AS event_id, COALESCE(e.time, s.updated, s.started) AS time,
      e.session_id AS session_id,
      CASE WHEN e.time IS NULL THEN s.time_from_file ELSE 0 END AS time_from_file,
      (SELECT CASE WHEN n.kind = 'notice' THEN n.text END FROM events n
        WHERE n.session_id = e.session_id AND n.seq > e.seq ORDER BY n.seq LIMIT 1) AS output,
      NULL AS head, 0 AS no_result
    FROM events_fts CROSS JOIN events k INDEXED BY events_rank ON k.id = events_fts.rowid
      CROSS JOIN events e ON e.id = k.id JOIN sessions s ON s.id = e.session_id
    WHERE events_fts MATCH ? AND k.kind = 'user' AND substr(e.text, 1, 1) = '!'
      AND length(trim(substr(e.text, 2))) > 0 AND s.harness <> 'deja'
      AND (? IS NULL OR ${projectFilterSql("s.project")} LIKE ? ESCAPE '\\')
    LIMIT 5000`,
    ["match", "project", "project"],
  ),
  /** The text of session `session`'s first user event after seq `after`, within `span` (hooks). */
  nextUserText: query<{ session: number; after: number; span: number }, { text: string }>(
    `SELECT text FROM events WHERE session_id = ? AND seq > ? AND seq <= ? + ? AND kind = 'user'
    ORDER BY seq LIMIT 1`,
    ["session", "after", "after", "span"],
  ),
  /** The file paths the index holds that end as `like` says (`%` + a file name; hooks). */
  filePathsLike: query<{ like: string }, { path: string }>(
    `SELECT DISTINCT path FROM files WHERE path LIKE ? ESCAPE '\\' LIMIT 200`,
    ["like"],
  ),
  /** Successful edits and writes of the file at exactly `path`, without their spans (hooks). */
  fileChangesAt: query<
    { path: string },
    { session_id: number; op: string; time: number | null; seq: number }
  >(
    `SELECT f.session_id AS session_id, f.op AS op,
      COALESCE(f.time, e.time) AS time, e.seq AS seq
    FROM files f JOIN events e ON e.id = f.event_id
    WHERE f.path = ? AND f.op <> 'read' AND f.failed = 0
      AND f.event_id NOT IN (SELECT event_id FROM replays)`,
    ["path"],
  ),
  /** The failed edits and writes of the file at `path`, newest first, with their call ids. */
  failedChangesAt: query<
    { path: string },
    { session_id: number; call_id: string | null; time: number | null; seq: number }
  >(
    `SELECT f.session_id AS session_id, f.call_id AS call_id,
      COALESCE(f.time, e.time) AS time, e.seq AS seq
    FROM files f JOIN events e ON e.id = f.event_id
    WHERE f.path = ? AND f.op <> 'read' AND f.failed = 1
      AND f.event_id NOT IN (SELECT event_id FROM replays)
    ORDER BY COALESCE(f.time, e.time) DESC, e.seq DESC LIMIT 20`,
    ["path"],
  ),
  /**
   * The files session `session` changed between seqs `from` and `to` whose last change there
   * failed (one that failed, then succeeded, is not among them).
   */
  failedChangesIn: query<{ session: number; from: number; to: number }, { path: string }>(
    `SELECT path FROM (
      SELECT f.path AS path, f.failed AS failed, max(e.seq) FROM files f
      JOIN events e ON e.id = f.event_id
      WHERE f.session_id = ? AND e.seq BETWEEN ? AND ? AND f.op <> 'read'
      GROUP BY f.path) WHERE failed = 1`,
    ["session", "from", "to"],
  ),
  /** Runs of commands holding `text` (case-sensitive) in a project (a LIKE pattern; hooks). */
  commandsHolding: query<{ text: string; project: string }, CommandRunRow>(
    `SELECT ${COMMAND_RUN}
    FROM commands c JOIN sessions s ON s.id = c.session_id
    WHERE instr(c.command, ?) > 0 AND s.project LIKE ? ESCAPE '\\'
      AND c.event_id NOT IN (SELECT event_id FROM replays)`,
    ["text", "project"],
  ),
  // A session is listed on its own when it has no parent or its parent is not indexed
  // (a subagent whose parent's store is gone or was never read).
  // harnesses: a JSON array or null for all; project: a LIKE pattern or null; since: epoch ms
  // or null (an undated session is returned to be counted, lib/session_time.ts); limit: -1 for none.
  // Undated sessions come after the dated ones.
  lastSessions: query<
    { harnesses: string | null; project: string | null; since: number | null; limit: number },
    SessionRow
  >(
    // A session that holds no event has nothing to show (trial 30: a Cline task of `[]`).
    `SELECT * FROM sessions s WHERE ${TOP_LEVEL} AND events > 0
      AND (? IS NULL OR harness IN (SELECT value FROM json_each(?)))
      AND (? IS NULL OR ${projectFilterSql("project")} LIKE ? ESCAPE '\\')
      AND (? IS NULL OR ${UNDATED} OR COALESCE(updated, started, 0) >= ?)
    ORDER BY ${UNDATED}, COALESCE(updated, started, 0) DESC, harness, native_id LIMIT ?`,
    ["harnesses", "harnesses", "project", "project", "since", "since", "limit"],
  ),
  /**
   * Whether session `session` holds an event timed in `[from, to)` (epoch ms), and whether it
   * holds a timed event at all (`deja last yesterday`, trial 103 F5: a session whose span only
   * covered the day was listed for it). Walks the session's events by the session index; a
   * session of its window stops at its first event.
   */
  activeIn: query<
    { session: number; from: number; to: number },
    { inside: number; timed: number }
  >(
    `SELECT EXISTS (SELECT 1 FROM events INDEXED BY events_session
        WHERE session_id = ? AND time >= ? AND time < ?) AS inside,
      EXISTS (SELECT 1 FROM events INDEXED BY events_session
        WHERE session_id = ? AND time IS NOT NULL) AS timed`,
    ["session", "from", "to", "session"],
  ),
  /**
   * A session's first `limit` user turns (the first prompt describes a session without a
   * title: `deja last`, each search result). The turns are picked by their kind in events_rank
   * and only their rows are read: filtered on the rows, a session of few prompts among
   * thousands of tool calls read every row (common words on the 100 MB bench, ten results:
   * median cold query +22 ms).
   */
  userTurns: query<{ session: number; limit: number }, { text: string }>(
    `SELECT text FROM events WHERE id IN (
      SELECT r.id FROM events f INDEXED BY events_session
      CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
      WHERE f.session_id = ? AND r.kind = 'user' ORDER BY f.seq LIMIT ?)
    ORDER BY seq`,
    ["session", "limit"],
  ),
  /** The seqs of a session's user turns, in order (lib/memory/fix.ts: a new request after an error). */
  userSeqs: query<{ session: number }, { seq: number }>(
    `SELECT f.seq AS seq FROM events f INDEXED BY events_session
      CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
      WHERE f.session_id = ? AND r.kind = 'user' ORDER BY f.seq`,
    ["session"],
  ),
  /** A session's first user event (the snippet of a session an embeddings search added). */
  firstUserEvent: query<Id, Pick<EventRow, "id" | "seq" | "time" | "text">>(
    `SELECT id, seq, time, text FROM events WHERE session_id = ? AND kind = 'user'
    ORDER BY seq LIMIT 1`,
    ["id"],
  ),
  /** A session's tool calls with decoded input (lib/memory/order.ts finds a subagent's spawn). */
  toolCallsWithData: query<Id, Pick<EventRow, "seq" | "time" | "data">>(
    `SELECT seq, time, data FROM events WHERE session_id = ? AND kind = 'tool_call'
    AND data IS NOT NULL ORDER BY seq`,
    ["id"],
  ),
  /** A session's last assistant text (its final answer; lib/embeddings/). */
  lastAnswer: query<Id, { text: string }>(
    `SELECT text FROM events WHERE session_id = ? AND kind = 'assistant' ORDER BY seq DESC LIMIT 1`,
    ["id"],
  ),

  // --- search (lib/search/): lib/schema_search.ts ---
  ...SEARCH_Q,
  /** The sessions `deja forget` selectors pick; each selector null for any (LIKE patterns, epoch ms). */
  forgetCandidates: query<
    {
      prefix: string | null;
      harness: string | null;
      project: string | null;
      before: number | null;
    },
    SessionRow
  >(
    `SELECT * FROM sessions
    WHERE (? IS NULL OR native_id LIKE ? ESCAPE '\\') AND (? IS NULL OR harness = ?)
      AND (? IS NULL OR ${projectFilterSql("project")} LIKE ? ESCAPE '\\')
      AND (? IS NULL OR COALESCE(updated, started) < ?)`,
    ["prefix", "prefix", "harness", "harness", "project", "project", "before", "before"],
  ),
  /** The undated sessions the other `deja forget` selectors pick (a date bound never picks them). */
  forgetUndated: query<
    { prefix: string | null; harness: string | null; project: string | null },
    { n: number }
  >(
    `SELECT COUNT(*) AS n FROM sessions
    WHERE (? IS NULL OR native_id LIKE ? ESCAPE '\\') AND (? IS NULL OR harness = ?)
      AND (? IS NULL OR ${projectFilterSql("project")} LIKE ? ESCAPE '\\')
      AND updated IS NULL AND started IS NULL`,
    ["prefix", "prefix", "harness", "harness", "project", "project"],
  ),
  /**
   * The sessions `keys` names (a JSON array of `[harness, native id]` pairs), and those whose
   * parent it names (lib/forget/reapply.ts: what the index holds of forgotten sessions).
   */
  sessionsOfKeys: query<{ keys: string }, SessionRow>(
    `WITH k(harness, id) AS (
      SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))
    SELECT * FROM sessions WHERE id IN (
      SELECT s.id FROM k JOIN sessions s ON s.harness = k.harness AND s.native_id = k.id
      UNION SELECT s.id FROM k JOIN sessions s ON s.harness = k.harness AND s.parent = k.id)`,
    ["keys"],
  ),
  /** The subagents, at any depth, of sessions `ids` (a JSON array of row ids). */
  childrenOfMany: query<{ ids: string }, SessionRow>(
    `WITH RECURSIVE k(id) AS (
      SELECT c.id FROM sessions p JOIN sessions c ON c.harness = p.harness AND c.parent = p.native_id
        WHERE p.id IN (SELECT value FROM json_each(?))
      UNION SELECT c.id FROM k JOIN sessions p ON p.id = k.id
        JOIN sessions c ON c.harness = p.harness AND c.parent = p.native_id)
    SELECT * FROM sessions WHERE id IN (SELECT id FROM k)`,
    ["ids"],
  ),
  /** Deletes sessions `ids` (a JSON array of row ids). */
  deleteSessions: query<{ ids: string }>(
    `DELETE FROM sessions WHERE id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /** Sets a source's session and event totals. */
  setSourceTotals: query<Pick<SourceRow, "sessions" | "events" | "path">>(
    `UPDATE sources SET sessions = ?, events = ? WHERE path = ?`,
    ["sessions", "events", "path"],
  ),
  /** Store paths of harness `harness`'s sources. */
  /** The native ids of a harness's sessions (`deja forget --unforget` keeps them as they are). */
  /** Every session held: its harness, native id and store. */
  sessionKeysAll: query<
    NoParams,
    { harness: string; native_id: string; source: string; events: number }
  >(`SELECT harness, native_id, source, events FROM sessions`),
  sessionIdsOfHarness: query<{ harness: string }, { native_id: string }>(
    `SELECT native_id FROM sessions WHERE harness = ?`,
    ["harness"],
  ),
  sourcesOfHarness: query<{ harness: string }, { path: string }>(
    `SELECT path FROM sources WHERE harness = ?`,
    ["harness"],
  ),
  /**
   * A store of the same harness still indexed with the same stamp as `path`'s
   * (size, mtime and content hash): the same file reached by another path
   * (a link, a move that kept the mtime). Null when there is none.
   */
  sourceTwin: query<{ path: string }, { path: string }>(
    `SELECT t.path FROM sources s JOIN sources t ON t.harness = s.harness AND t.path <> s.path
      AND t.size = s.size AND t.mtime = s.mtime AND t.error IS NULL
      AND coalesce(t.head_hash, t.hash) = coalesce(s.head_hash, s.hash)
    WHERE s.path = ? AND coalesce(s.head_hash, s.hash) IS NOT NULL LIMIT 1`,
    ["path"],
  ),
  /** Files the sessions read from store `from` under store `to`. */
  repointSessions: query<{ to: string; from: string }>(
    `UPDATE sessions SET source = ? WHERE source = ?`,
    ["to", "from"],
  ),
  /**
   * Distinct sessions and their events per harness, of the stores outside
   * `mirrors` (a remote's mirror dir; `deja sources` counts those per remote).
   */
  sessionsPerHarness: query<
    { mirrors: string },
    { harness: string; sessions: number; events: number }
  >(
    `SELECT harness, count(*) AS sessions, coalesce(sum(events), 0) AS events FROM sessions
    WHERE substr(source, 1, length(?)) <> ? GROUP BY harness`,
    ["mirrors", "mirrors"],
  ),
  /** Records that `source` holds a session the index holds from another store (lib/copies.ts). */
  addCopy: query<{ harness: string; native_id: string; source: string }>(
    `INSERT OR IGNORE INTO copies (harness, native_id, source) VALUES (?, ?, ?)`,
    ["harness", "native_id", "source"],
  ),
  /** `source` no longer counts as a copy of the session (it holds it, or no longer has it). */
  removeCopy: query<{ harness: string; native_id: string; source: string }>(
    `DELETE FROM copies WHERE harness = ? AND native_id = ? AND source = ?`,
    ["harness", "native_id", "source"],
  ),
  /** Forgets every copy `source` held (it is read again whole, or gone from the index). */
  clearCopiesOf: query<{ source: string }>(`DELETE FROM copies WHERE source = ?`, ["source"]),
  /** The stores that hold a copy of one session. */
  copiesOf: query<{ harness: string; native_id: string }, { source: string }>(
    `SELECT source FROM copies WHERE harness = ? AND native_id = ?`,
    ["harness", "native_id"],
  ),
  /** How many sessions `source` holds copies of (the index holds them from other stores). */
  copyCount: query<{ source: string }, { n: number }>(
    `SELECT COUNT(*) AS n FROM copies WHERE source = ?`,
    ["source"],
  ),
  /** Each store a session with copies is held from, with a store holding a copy of it. */
  copyHolders: query<NoParams, { holder: string; source: string }>(
    `SELECT DISTINCT s.source AS holder, c.source AS source FROM copies c
    JOIN sessions s ON s.harness = c.harness AND s.native_id = c.native_id`,
  ),
  /** Forgets a source: the next index reads the store again from its start. */
  forgetSource: query<{ path: string }>(`DELETE FROM sources WHERE path = ?`, ["path"]),
  /** Resets a source's stamp so the next index (and freshen's stat pass) reads the store again whole. */
  resetSourceStamp: query<{ path: string }>(
    `UPDATE sources SET size = -1, mtime = -1, offset = 0, head_hash = NULL,
    state = NULL, watermark = 0, hash = NULL, error = NULL WHERE path = ?`,
    ["path"],
  ),
  /** Sessions, events and first and last activity (epoch ms) per harness (`deja stats`). */
  statsByHarness: query<
    NoParams,
    {
      harness: string;
      sessions: number;
      events: number;
      first: number | null;
      last: number | null;
      file_dated: number;
      undated: number;
      file_first: number | null;
      file_last: number | null;
    }
  >(
    // Sessions dated only by their store file's modification time kept apart (lib/stats.ts).
    `SELECT harness, COUNT(*) AS sessions, SUM(events) AS events,
      MIN(CASE WHEN time_from_file <> 0 THEN NULL ELSE COALESCE(started, updated) END) AS first,
      MAX(CASE WHEN time_from_file <> 0 THEN NULL ELSE COALESCE(updated, started) END) AS last,
      SUM(time_from_file <> 0) AS file_dated,
      SUM(${UNDATED}) AS undated,
      MIN(CASE WHEN time_from_file <> 0 THEN COALESCE(started, updated) END) AS file_first,
      MAX(CASE WHEN time_from_file <> 0 THEN COALESCE(updated, started) END) AS file_last
    FROM sessions s GROUP BY harness ORDER BY sessions DESC`,
  ),
  /** The ten projects with the most top-level sessions. */
  /**
   * Projects by top-level sessions, most first, with whether notes are among them
   * (`deja stats` leaves out the hidden ones, then keeps ten).
   */
  /**
   * Sessions and events per machine and harness (`origin` null: this one), for `deja stats`'
   * machine split (trial 101 F4: remote sessions were counted into the harnesses unsaid).
   */
  statsByOrigin: query<
    NoParams,
    { origin: string | null; harness: string; sessions: number; events: number }
  >(
    `SELECT origin, harness, COUNT(*) AS sessions, COALESCE(SUM(events), 0) AS events
    FROM sessions GROUP BY origin, harness ORDER BY origin IS NOT NULL, origin, sessions DESC`,
  ),
  /** Top-level sessions with no project (`deja stats`, trial 101 F5: left out of its list unsaid). */
  noProjectSessions: query<NoParams, { n: number }>(
    `SELECT COUNT(*) AS n FROM sessions s WHERE (project IS NULL OR project = '') AND ${TOP_LEVEL}`,
  ),
  topProjects: query<NoParams, { project: string; sessions: number; notes: number }>(
    `SELECT project, COUNT(*) AS sessions, MAX(harness = 'deja') AS notes FROM sessions s
    WHERE project IS NOT NULL AND ${TOP_LEVEL} GROUP BY project ORDER BY sessions DESC, project`,
  ),
  /** Redaction counts per source and kind, most first. */
  redactionsBySource: query<
    NoParams,
    { source: string; harness: string; kind: string; count: number }
  >(
    `SELECT r.source AS source, COALESCE(s.harness, '') AS harness, r.kind AS kind,
      r.count AS count FROM redactions r LEFT JOIN sources s ON s.path = r.source
    ORDER BY r.count DESC, r.source, r.kind`,
  ),
  /** Every event text of sessions `ids` (a JSON array; forget collects their words). */
  /** Every event's kind and text, in no order (lib/search/vocab_rebuild.ts). */
  allEventTexts: query<NoParams, { kind: string; text: string }>(`SELECT kind, text FROM events`),
  textsOfSessions: query<{ ids: string }, { text: string }>(
    `SELECT text FROM events WHERE session_id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),

  // --- deja view (lib/view/) ---
  /**
   * Top-level sessions: when they started and were last active (epoch ms), whether those are
   * only the store file's mtime (`time_from_file`), and where (the list's filters, the
   * activity charts, the projects page).
   */
  viewSessionTimes: query<
    NoParams,
    {
      id: number;
      harness: string;
      project: string | null;
      time: number | null;
      last: number | null;
      time_from_file: number;
    }
  >(
    `SELECT id, harness, project, COALESCE(started, updated) AS time,
      COALESCE(updated, started) AS last, time_from_file FROM sessions s
    WHERE ${TOP_LEVEL}`,
  ),
  /**
   * The quarter-hours (epoch ms / {@link QUARTER_HOUR_MS}) each session has events in, each once:
   * the days a session was active, whatever the time zone (every zone's offset is a whole number
   * of quarter-hours), for the activity charts (trial 112 F3: a session was charted only on the
   * day it started). Read from the covering index `events_rank`, no event text.
   */
  viewActiveQuarters: query<NoParams, { id: number; q: number }>(
    `SELECT DISTINCT session_id AS id, time / ${QUARTER_HOUR_MS} AS q FROM events
    WHERE time IS NOT NULL`,
  ),
  /**
   * Subagents filed under a parent the index holds (not top-level: {@link TOP_LEVEL}), each
   * with its parent's row id (the view says how many it counts with their parents).
   */
  viewFiledSubagents: query<NoParams, { id: number; parent_id: number }>(
    `SELECT s.id AS id, p.id AS parent_id FROM sessions s
    JOIN sessions p ON p.harness = s.harness AND p.native_id = s.parent`,
  ),
  /** Which of `dirs` (a JSON array) are the project of some session (`deja how`'s project here). */
  projectsAmong: query<{ dirs: string }, { project: string }>(
    `SELECT DISTINCT project FROM sessions WHERE project IN (SELECT value FROM json_each(?))`,
    ["dirs"],
  ),
  /** Row ids of the sessions of exactly `project`. */
  sessionIdsOf: query<{ project: string }, { id: number }>(
    `SELECT id FROM sessions WHERE project = ?`,
    ["project"],
  ),
  /** The sessions of `project`. */
  viewProjectSessions: query<{ project: string }, SessionRow>(
    `SELECT * FROM sessions WHERE project = ? ORDER BY id`,
    ["project"],
  ),
  /** Files the sessions of `project` touched, most touched first; counts are of calls, not spans. */
  viewProjectFiles: query<
    { project: string },
    {
      path: string;
      n: number;
      reads: number;
      edits: number;
      writes: number;
      failed: number;
      sessions: number;
    }
  >(
    // A Windows path is one file whichever separators an agent wrote in it (trial 56: one
    // file was two rows, once with `/` inside its Windows path). A call whose result was an
    // error is failed, not a read, edit or write (trial 63: the page said "edits 1, writes 1"
    // of a file whose blame said "0 edits · 0 writes · 2 failed").
    `SELECT CASE WHEN f.path GLOB '[A-Za-z]:[\\/]*' THEN replace(f.path, '/', '\\') ELSE f.path END
        AS path, COUNT(DISTINCT f.event_id) AS n,
      COUNT(DISTINCT CASE WHEN f.op = 'read' AND f.failed = 0 THEN f.event_id END) AS reads,
      COUNT(DISTINCT CASE WHEN f.op = 'edit' AND f.failed = 0 THEN f.event_id END) AS edits,
      COUNT(DISTINCT CASE WHEN f.op = 'write' AND f.failed = 0 THEN f.event_id END) AS writes,
      COUNT(DISTINCT CASE WHEN f.failed <> 0 THEN f.event_id || ' ' || f.op END) AS failed,
      COUNT(DISTINCT f.session_id) AS sessions
    FROM files f JOIN sessions s ON s.id = f.session_id WHERE s.project = ?
      AND f.event_id NOT IN (SELECT event_id FROM replays)
    GROUP BY 1 ORDER BY n DESC, 1 LIMIT 25`,
    ["project"],
  ),
  /**
   * The latest `limit` command runs outside the sessions `hidden` lists (a JSON array of row
   * ids: throwaway and excluded projects, as search leaves them out), for the failed-commands
   * chart (output as in commandsInOrder).
   */
  /** Events of the sessions `hidden` names (a JSON array of row ids). */
  viewEventsOf: query<{ hidden: string }, { n: number }>(
    `SELECT count(*) AS n FROM events WHERE session_id IN (SELECT value FROM json_each(?))`,
    ["hidden"],
  ),
  viewRecentCommands: query<
    { hidden: string; limit: number },
    { command: string; exit: number | null; is_error: number; output: string | null }
  >(
    `SELECT c.command AS command, c.exit AS exit, c.is_error AS is_error,
      ${OUTPUT_IF_UNKNOWN} AS output
    FROM commands c WHERE c.session_id NOT IN (SELECT value FROM json_each(?))
      AND c.event_id NOT IN (SELECT event_id FROM replays)
    ORDER BY c.time DESC LIMIT ?`,
    ["hidden", "limit"],
  ),

  // --- remote sources (lib/remote/) ---
  /** The sessions of a store read from a remote's mirror get their machine. */
  setOriginOfSource: query<{ origin: string; source: string }>(
    `UPDATE sessions SET origin = ? WHERE source = ?`,
    ["origin", "source"],
  ),
  /** Row ids of one machine's sessions. */
  sessionsOfOrigin: query<{ origin: string }, Id>(`SELECT id FROM sessions WHERE origin = ?`, [
    "origin",
  ]),
  /** Whether the index holds any session from the machine `origin` (a row, or none). */
  anyOfOrigin: query<{ origin: string }, { one: number }>(
    `SELECT 1 AS one FROM sessions WHERE origin = ? LIMIT 1`,
    ["origin"],
  ),
  /** Row ids of the sessions (not subagents) whose model's name holds `text` (any case). */
  sessionIdsOfModel: query<{ text: string }, Id>(
    `SELECT id FROM sessions WHERE parent IS NULL
    AND instr(lower(COALESCE(model, '') || ' ' || COALESCE(models, '')), lower(?)) > 0`,
    ["text"],
  ),
  /** Whether any session, a subagent too, names a model holding `text` (any case). */
  anyOfModel: query<{ text: string }, { yes: number }>(
    `SELECT EXISTS (SELECT 1 FROM sessions
      WHERE instr(lower(COALESCE(model, '') || ' ' || COALESCE(models, '')), lower(?)) > 0) AS yes`,
    ["text"],
  ),
  /**
   * Sessions none of whose models holds `text` (any case): `--model` (lib/search/sessions.ts
   * `originHidden`). `model` is the last reply's, `models` every one of a session that switched.
   */
  sessionsNotOfModel: query<{ text: string }, Id>(
    `SELECT id FROM sessions
    WHERE instr(lower(COALESCE(model, '') || ' ' || COALESCE(models, '')), lower(?)) = 0`,
    ["text"],
  ),
  /** Row ids of every session not from `origin` (null: this machine). */
  sessionsNotOfOrigin: query<{ origin: string | null }, Id>(
    `SELECT id FROM sessions WHERE origin IS NOT ?`,
    ["origin"],
  ),
  /** Source rows under a mirror directory (`like`: a path LIKE pattern escaped with \). */
  sourcesUnder: query<{ like: string }, { path: string }>(
    `SELECT path FROM sources WHERE path LIKE ? ESCAPE '\\'`,
    ["like"],
  ),
  /** Sessions and last update (epoch ms) per origin (local: null). */
  originTotals: query<
    NoParams,
    { origin: string | null; sessions: number; last: number | null }
  >(
    `SELECT origin, COUNT(*) AS sessions, MAX(COALESCE(updated, started)) AS last
    FROM sessions GROUP BY origin ORDER BY origin`,
  ),
} as const;
