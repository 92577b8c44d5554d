/**
 * The index's migrations, oldest first: migration i upgrades an index of
 * schema version i to i + 1 (lib/store.ts runs them on open, in one
 * transaction each). The schema as a whole, its version and its named queries
 * are in lib/schema.ts; each migration's comment says why it exists and what
 * it measured.
 *
 * @module
 */

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
    kind       TEXT NOT NULL,     -- user | assistant | tool_call | tool_result | summary | notice
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
  // 1 -> 2: what each source's parser did not know (`deja drift`).
  `
  ALTER TABLE sources ADD COLUMN drift TEXT;  -- JSON {counts, notes, version} (lib/parse_ctx.ts DriftSummary)
  `,
  // 2 -> 3: search (lib/search/): literal tokens in events_fts (word forms are a tier of their
  // own, not folded into every match), the vocabulary of distinct tokens with a trigram index
  // (substrings, close spellings), per-event signals (conclusion, gave up, pasted dump, error).
  `
  DROP TRIGGER events_ai;
  DROP TRIGGER events_ad;
  DROP TRIGGER events_au;
  DROP TABLE events_fts;
  CREATE VIRTUAL TABLE events_fts USING fts5(
    text, content = 'events', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO events_fts(events_fts) VALUES ('rebuild');
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
  -- term -> doc (events holding it), cnt (occurrences): always what events_fts holds.
  CREATE VIRTUAL TABLE events_vocab USING fts5vocab(events_fts, 'row');

  ALTER TABLE events ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;  -- lib/search/signals.ts bits
  CREATE INDEX events_flags ON events(session_id, seq) WHERE flags != 0;

  -- Distinct tokens written to the index (a superset of events_vocab: ingest adds, forget prunes).
  CREATE TABLE vocab (
    id   INTEGER PRIMARY KEY,
    term TEXT NOT NULL UNIQUE
  );
  CREATE INDEX vocab_len ON vocab(length(term));
  CREATE VIRTUAL TABLE vocab_tri USING fts5(
    term, content = 'vocab', content_rowid = 'id', tokenize = 'trigram'
  );
  CREATE TRIGGER vocab_ai AFTER INSERT ON vocab BEGIN
    INSERT INTO vocab_tri(rowid, term) VALUES (new.id, new.term);
  END;
  CREATE TRIGGER vocab_ad AFTER DELETE ON vocab BEGIN
    INSERT INTO vocab_tri(vocab_tri, rowid, term) VALUES ('delete', old.id, old.term);
  END;
  INSERT OR IGNORE INTO vocab(term)
    SELECT term FROM events_vocab WHERE length(term) BETWEEN 2 AND 48 AND term GLOB '*[^0-9]*';
  `,
  // 3 -> 4: remote sources (lib/remote/): the machine a session was read from (NULL: this one).
  `
  ALTER TABLE sessions ADD COLUMN origin TEXT;
  CREATE INDEX sessions_origin ON sessions(origin) WHERE origin IS NOT NULL;
  `,
  // 4 -> 5: new events reach events_fts in batches (lib/ingest.ts, Q.ftsFrom), not one by
  // one through a trigger: one INSERT ... SELECT per source costs a third of the CPU of a
  // trigger per row and leaves fewer, larger segments. Updates and deletes keep their triggers.
  `
  DROP TRIGGER events_ai;
  `,
  // 5 -> 6: words the history uses together (lib/search/assoc.ts), rebuilt after a full index run.
  `
  CREATE TABLE assoc (
    term   TEXT NOT NULL,
    other  TEXT NOT NULL,
    weight REAL NOT NULL,          -- normalised PMI of the two words' sessions, (0, 1]
    PRIMARY KEY (term, other)
  ) WITHOUT ROWID;
  `,
  // 6 -> 7: what ranking reads of a matching event, by its id, without reading the event's row
  // (Q.topRows: a common word's best 5000 matches otherwise read most of the events table, a
  // sixth of a cold search's CPU; issue 18). Rows with their small columns first do not
  // replace it: the cost is a table page per match, not the text before them (measured in
  // bench/writer_replay.ts).
  `
  CREATE INDEX events_rank ON events(id, session_id, seq, kind, time, flags);
  `,
  // 7 -> 8: events_call holds tool results only, in seq order: both its readers look for the
  // first result of a call (Q.resultForCall; a command's output when the store records no
  // status, OUTPUT_IF_UNKNOWN). Before, that output's ORDER BY seq made SQLite walk the
  // session's events in events_session for every command (100 MB bench corpus, where Claude
  // Code records no exit code: Q.commandsHolding of a hook 1.2-1.6 s -> 0.12-0.14 s), and a
  // call's own entry was upkeep nothing read (half the entries; 1.5 -> 0.9 MB).
  `
  DROP INDEX events_call;
  CREATE INDEX events_call ON events(session_id, call_id, seq)
    WHERE call_id IS NOT NULL AND kind = 'tool_result';
  `,
  // 8 -> 9: a session whose store records no time is dated by its file's mtime
  // (Session.timeFromFile); commands mark such a time. Sessions indexed before are found by
  // their time being exactly their source's mtime, for the parsers that fall back to it (Kimi
  // context files, Continue sessions, the Cline family's task files); the next read of a
  // source sets the column again.
  `
  ALTER TABLE sessions ADD COLUMN time_from_file INTEGER NOT NULL DEFAULT 0;  -- 1: file's mtime
  UPDATE sessions SET time_from_file = 1
    WHERE harness IN ('kimi', 'continue', 'cline', 'roo', 'kilocode')
      AND updated = (SELECT mtime FROM sources WHERE sources.path = sessions.source);
  `,
  // 9 -> 10: the stores that hold a session the index holds from another store (copies of a
  // Continue file, a Crush database copied into another project): when the store it is held
  // from goes, or stops holding it, these are read again and the best of them holds it
  // (lib/copies.ts). Rows only for sessions two whole-session stores (documents, databases)
  // both hold; the store a session is held from is sessions.source.
  `
  CREATE TABLE copies (
    harness   TEXT NOT NULL,
    native_id TEXT NOT NULL,
    source    TEXT NOT NULL,
    PRIMARY KEY (harness, native_id, source)
  ) WITHOUT ROWID;
  CREATE INDEX copies_source ON copies(source);
  `,
  // 10 -> 11: the reader revision of the harness's parser that last read each store
  // (lib/version.ts REVISIONS): a store read by another revision is read again whole, so a
  // parser fix reaches sessions indexed before it. Stores indexed before read as revision 0.
  `
  ALTER TABLE sources ADD COLUMN reader INTEGER NOT NULL DEFAULT 0;
  `,
  // 11 -> 12: sessions that switch model mid-way (Event.model): an event row names its reply's
  // model where it changes (the first reply with a model, then each switch; NULL elsewhere, so
  // a session of one model adds one value), and a session of 2 or more models lists them in
  // order of first use (JSON array; NULL for fewer). The partial index finds a session's
  // switches without reading its events. Stores indexed before get them when read again
  // (lib/version.ts REVISIONS raised for each parser that reads the model per reply).
  `
  ALTER TABLE events ADD COLUMN model TEXT;
  ALTER TABLE sessions ADD COLUMN models TEXT;
  CREATE INDEX events_model ON events(session_id, seq) WHERE model IS NOT NULL;
  `,
  // 12 -> 13: tool calls one session replays from another (lib/replays.ts: a Claude Code
  // compaction subagent replays its parent's records, a resumed session may copy the one it
  // resumed): the call's event, and the session whose call it is. Counts across sessions
  // (how, blame, fix, the view's charts) leave these out; the session itself shows them.
  // Filled at the end of the next index run that writes, and rewritten by each.
  `
  CREATE TABLE replays (
    event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
    owner    INTEGER NOT NULL
  );
  `,
  // 13 -> 14: a run reads the stores of one harness at a time (what it held before, what is
  // gone since), once or twice per harness, 41 of them: without an index each read scanned
  // every store's row (a first index of 40,000 stores: 82 scans of 7.3 ms, 0.6 s of 17 s).
  `
  CREATE INDEX sources_harness ON sources(harness);
  `,
];
