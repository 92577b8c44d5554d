/**
 * The index schema, its version, the pragmas, and every named query.
 *
 * One schema, kept in `PRAGMA user_version`; migrations run in order on open.
 * Every statement below is prepared against a fresh schema by
 * tests/schema_test.ts, so a typo fails a test, not a user's search.
 *
 * @module
 */

/** Current schema version (stored in `PRAGMA user_version`). */
export const SCHEMA_VERSION = 1;

/** Pragmas applied to every connection to the index. */
export const PRAGMAS = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  "PRAGMA temp_store = MEMORY",
  "PRAGMA cache_size = -16000",
];

/** Migrations: index i upgrades version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id        INTEGER PRIMARY KEY,
    harness   TEXT NOT NULL,
    native_id TEXT NOT NULL,
    project   TEXT,
    title     TEXT,
    started   INTEGER,            -- epoch ms
    updated   INTEGER,            -- epoch ms
    model     TEXT,
    parent    TEXT,               -- native id of the parent session (same harness)
    source    TEXT NOT NULL,      -- store path it was read from
    events    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (harness, native_id)
  );
  CREATE INDEX sessions_source ON sessions(source);
  CREATE INDEX sessions_parent ON sessions(harness, parent);

  CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT NOT NULL,     -- user | assistant | tool_call | tool_result | summary
    text       TEXT NOT NULL,
    time       INTEGER,           -- epoch ms
    key        TEXT,              -- parser dedupe key
    tool       TEXT,              -- tool name (calls and results)
    call_id    TEXT,
    data       TEXT               -- JSON: decoded input of a call, {exit,isError} of a result
  );
  CREATE INDEX events_session ON events(session_id, seq);
  CREATE UNIQUE INDEX events_key ON events(session_id, key) WHERE key IS NOT NULL;
  CREATE INDEX events_call ON events(session_id, call_id) WHERE call_id IS NOT NULL;

  CREATE VIRTUAL TABLE events_fts USING fts5(
    text, content = 'events', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN
    INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER events_ad AFTER DELETE ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, text) VALUES ('delete', old.id, old.text);
  END;
  CREATE TRIGGER events_au AFTER UPDATE OF text ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text);
  END;

  CREATE TABLE commands (
    event_id   INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id    TEXT,
    command    TEXT NOT NULL,
    exit       INTEGER,           -- NULL when the store does not say
    is_error   INTEGER NOT NULL DEFAULT 0,
    time       INTEGER
  );
  CREATE INDEX commands_session ON commands(session_id, call_id);

  CREATE TABLE files (
    id         INTEGER PRIMARY KEY,
    event_id   INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id    TEXT,
    path       TEXT NOT NULL,
    op         TEXT NOT NULL,     -- read | edit | write
    old        TEXT,              -- edit: replaced span
    new        TEXT,              -- edit: replacement; write: content
    failed     INTEGER NOT NULL DEFAULT 0,  -- the call's result was an error: nothing changed
    time       INTEGER
  );
  CREATE INDEX files_path ON files(path);
  CREATE INDEX files_event ON files(event_id);
  CREATE INDEX files_session ON files(session_id, call_id);

  CREATE TABLE sources (
    path       TEXT PRIMARY KEY,
    harness    TEXT NOT NULL,
    kind       TEXT NOT NULL,     -- append | document | sqlite
    size       INTEGER,           -- bytes
    mtime      INTEGER,           -- epoch ms
    companions TEXT,              -- JSON [[size, mtime], ...] of -wal and the like
    offset     INTEGER NOT NULL DEFAULT 0,
    head_hash  TEXT,
    state      TEXT,              -- parser state JSON
    watermark  REAL NOT NULL DEFAULT 0,
    hash       TEXT,              -- documents: content hash
    sessions   INTEGER NOT NULL DEFAULT 0,
    events     INTEGER NOT NULL DEFAULT 0,
    skipped    TEXT,              -- JSON {counts, examples}
    error      TEXT,
    indexed_at INTEGER
  );

  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT
  );

  CREATE TABLE redactions (
    source TEXT NOT NULL,
    kind   TEXT NOT NULL,
    count  INTEGER NOT NULL,
    PRIMARY KEY (source, kind)
  );
  `,
];

/** Named queries. Parameters are positional (`?`) in the order each comment gives. */
export const Q = {
  // harness, native_id
  sessionByKey: `SELECT * FROM sessions WHERE harness = ? AND native_id = ?`,
  // harness, native_id, project, title, started, updated, model, parent, source
  insertSession:
    `INSERT INTO sessions (harness, native_id, project, title, started, updated, model, parent, source)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  // project, title, started, updated, model, parent, source, id
  updateSession: `UPDATE sessions SET project = ?, title = ?, started = ?, updated = ?, model = ?,
    parent = ?, source = ? WHERE id = ?`,
  // session id
  deleteSessionEvents: `DELETE FROM events WHERE session_id = ?`,
  // source
  sessionsOfSource: `SELECT id FROM sessions WHERE source = ?`,
  // id
  deleteSession: `DELETE FROM sessions WHERE id = ?`,
  // session id
  maxSeq: `SELECT COALESCE(MAX(seq), -1) AS seq FROM events WHERE session_id = ?`,
  // session id, key
  eventByKey: `SELECT id FROM events WHERE session_id = ? AND key = ?`,
  // session_id, seq, kind, text, time, key, tool, call_id, data
  insertEvent: `INSERT INTO events (session_id, seq, kind, text, time, key, tool, call_id, data)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  // kind, text, time, tool, call_id, data, id
  updateEvent:
    `UPDATE events SET kind = ?, text = ?, time = ?, tool = ?, call_id = ?, data = ? WHERE id = ?`,
  // event id
  deleteDerived: `DELETE FROM commands WHERE event_id = ?`,
  // event id
  deleteDerivedFiles: `DELETE FROM files WHERE event_id = ?`,
  // event_id, session_id, call_id, command, time
  insertCommand:
    `INSERT INTO commands (event_id, session_id, call_id, command, time) VALUES (?, ?, ?, ?, ?)`,
  // event_id, session_id, call_id, path, op, old, new, time
  insertFile: `INSERT INTO files (event_id, session_id, call_id, path, op, old, new, time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  // exit, is_error, session_id, call_id
  setCommandExit:
    `UPDATE commands SET exit = COALESCE(?, exit), is_error = ? WHERE session_id = ? AND call_id = ?`,
  // session_id, call_id
  failFiles:
    `UPDATE files SET failed = 1 WHERE session_id = ? AND call_id = ? AND op IN ('edit', 'write')`,
  // session_id, call_id: a result recorded before its call (rare; streamed stores)
  resultForCall:
    `SELECT data FROM events WHERE session_id = ? AND call_id = ? AND kind = 'tool_result' LIMIT 1`,
  // session id
  countEvents:
    `UPDATE sessions SET events = (SELECT COUNT(*) FROM events WHERE session_id = sessions.id) WHERE id = ?`,
  // path
  sourceByPath: `SELECT * FROM sources WHERE path = ?`,
  // path, harness, kind, size, mtime, companions, offset, head_hash, state, watermark, hash, sessions, events, skipped, error, indexed_at
  upsertSource:
    `INSERT INTO sources (path, harness, kind, size, mtime, companions, offset, head_hash, state, watermark, hash, sessions, events, skipped, error, indexed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(path) DO UPDATE SET harness = excluded.harness, kind = excluded.kind, size = excluded.size,
      mtime = excluded.mtime, companions = excluded.companions, offset = excluded.offset,
      head_hash = excluded.head_hash, state = excluded.state, watermark = excluded.watermark,
      hash = excluded.hash, sessions = excluded.sessions, events = excluded.events,
      skipped = excluded.skipped, error = excluded.error, indexed_at = excluded.indexed_at`,
  // error, indexed_at, path
  sourceError: `UPDATE sources SET error = ?, indexed_at = ? WHERE path = ?`,
  // source path
  sourceTotals:
    `SELECT COUNT(*) AS sessions, COALESCE(SUM(events), 0) AS events FROM sessions WHERE source = ?`,
  // source, kind, count
  addRedactions: `INSERT INTO redactions (source, kind, count) VALUES (?, ?, ?)
    ON CONFLICT(source, kind) DO UPDATE SET count = count + excluded.count`,
  // source
  clearRedactions: `DELETE FROM redactions WHERE source = ?`,
  allSources: `SELECT * FROM sources ORDER BY harness, path`,
  redactionsByHarness: `SELECT s.harness AS harness, r.kind AS kind, SUM(r.count) AS count
    FROM redactions r JOIN sources s ON s.path = r.source GROUP BY s.harness, r.kind`,
  projects: `SELECT DISTINCT project FROM sessions WHERE project IS NOT NULL`,
  // native id prefix (LIKE pattern), harness or NULL
  sessionsByPrefix:
    `SELECT * FROM sessions WHERE native_id LIKE ? ESCAPE '\\' AND (? IS NULL OR harness = ?)
    ORDER BY updated DESC LIMIT 20`,
  // session id
  eventsOfSession: `SELECT * FROM events WHERE session_id = ? ORDER BY seq`,
  // session id
  commandsOfSession: `SELECT * FROM commands WHERE session_id = ?`,
  // session id
  filesOfSession: `SELECT * FROM files WHERE session_id = ?`,
  // harness, native id
  childrenOf: `SELECT * FROM sessions WHERE harness = ? AND parent = ? ORDER BY started`,
  // MATCH expression, [filters appended by search.ts]
  searchEvents: `SELECT e.id AS event_id, e.session_id AS session_id, e.seq AS seq, e.kind AS kind,
      e.time AS time, e.tool AS tool, bm25(events_fts) AS score
    FROM events_fts JOIN events e ON e.id = events_fts.rowid
    JOIN sessions s ON s.id = e.session_id
    WHERE events_fts MATCH ?`,
  // MATCH expression, event id: the snippet of one matching event (computed only for shown events)
  snippet: `SELECT snippet(events_fts, 0, char(1), char(2), '…', 16) AS snip FROM events_fts
    WHERE events_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
  // ids (JSON array)
  sessionsByIds: `SELECT * FROM sessions WHERE id IN (SELECT value FROM json_each(?))`,
  // key
  getMeta: `SELECT value FROM meta WHERE key = ?`,
  // key, value
  setMeta:
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  stats:
    `SELECT (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM events) AS events,
    (SELECT COUNT(*) FROM sources) AS sources`,
} as const;
