/**
 * The named queries of search (lib/search/): term counts, titles, the
 * vocabulary and its trigrams, matching rows, session signals, learned
 * associations. Part of {@link Q} (lib/schema.ts), prepared against a fresh
 * schema by tests/schema_test.ts like every other.
 *
 * @module
 */
import { type NoParams, query } from "./sql.ts";
import { MAX_VOCAB_TOKEN } from "./search/tokenize.ts";
import type { MatchRow } from "./rows.ts";
import {
  type CountRow as N,
  type IdRow as Id,
  type TermRow as Term,
  TOP_LEVEL,
  UNDATED,
} from "./schema_fragments.ts";

/** Search's named queries (spread into {@link Q}). */
export const SEARCH_Q = {
  /** The number of events holding `term` (no row when none). */
  termDocs: query<Term, { doc: number }>(`SELECT doc FROM events_vocab WHERE term = ?`, ["term"]),
  /** Events of the sessions `ids` (a JSON array of row ids) that `match` (an FTS5 query) finds. */
  matchDocsIn: query<{ match: string; ids: string }, { n: number }>(
    `SELECT count(*) AS n FROM events_fts JOIN events e ON e.id = events_fts.rowid
    WHERE events_fts MATCH ? AND e.session_id IN (SELECT value FROM json_each(?))`,
    ["match", "ids"],
  ),
  /** Session titles holding `like` (a LIKE pattern, `\\` escapes), at most 200. */
  titlesLike: query<{ like: string }, { title: string }>(
    `SELECT title FROM sessions WHERE title LIKE ? ESCAPE '\\' LIMIT 200`,
    ["like"],
  ),
  /**
   * Sessions whose title holds `like` (a LIKE pattern, `\\` escapes) — extended with ` AND
   * title LIKE ? ESCAPE '\\'` per further word — or any character beyond ASCII (LIKE folds
   * ASCII case only; the caller checks every row itself), with what the search filters read
   * (lib/search/title.ts). A scan of the sessions table: about 2 ms for 5,000 titles.
   */
  titledSessions: query<
    { like: string },
    {
      id: number;
      harness: string;
      project: string | null;
      title: string;
      updated: number | null;
      time_from_file: number;
    }
  >(
    `SELECT id, harness, project, title, COALESCE(updated, started) AS updated, time_from_file
    FROM sessions WHERE length(title) <> length(CAST(title AS BLOB)) OR title LIKE ? ESCAPE '\\'`,
    ["like"],
  ),
  /**
   * Sessions whose calls changed the file at `path`, or at a path ending in `/` + it (`like`:
   * `%/style.css`): a path typed as a query (lib/search/changed.ts).
   */
  changedFile: query<{ path: string; like: string }, Id>(
    `SELECT DISTINCT session_id AS id FROM files
    WHERE op <> 'read' AND failed = 0 AND (path = ? OR path LIKE ? ESCAPE '\\')`,
    ["path", "like"],
  ),
  /**
   * Of the first `limit` events matching `match` (rowid order: a session's events lie
   * together), how many were read and how many sessions they belong to (session-level IDF,
   * lib/search/sessionrank.ts). The session of each is read from events_rank, not from the
   * events table's rows with their text (half the time, issue 15).
   */
  termSessions: query<{ match: string; limit: number }, { k: number; s: number }>(
    `SELECT COUNT(*) AS k, COUNT(DISTINCT e.session_id) AS s
    FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ? LIMIT ?) m
    JOIN events e INDEXED BY events_rank ON e.id = m.rowid`,
    ["match", "limit"],
  ),
  /**
   * Lines of the pasted dumps (flag bit 4) of sessions `ids` (a JSON array), per session: a
   * dump of many lines is many records for the length of a session (lib/search/sessionrank.ts).
   * The flagged events are found in events_flags and their bits read from events_rank, which
   * holds them: only a dump's own row is read. Reading each flagged row for its bits read
   * the text of every conclusion too (the bits follow the text in the row): ~2,000 rows of
   * 2.8 MB on the 100 MB bench, 25-60 ms of a cold query of two common words (issue 15).
   */
  pasteLines: query<{ ids: string }, { session_id: number; n: number }>(
    `SELECT e.session_id AS session_id,
      SUM(length(e.text) - length(replace(e.text, char(10), ''))) AS n
    FROM events e WHERE e.id IN (
      SELECT r.id FROM events f INDEXED BY events_flags
      CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
      WHERE f.session_id IN (SELECT value FROM json_each(?)) AND f.flags != 0
        AND (r.flags & 4) != 0)
    GROUP BY e.session_id`,
    ["ids"],
  ),
  /** The number of sessions, subagents included (session-level IDF). */
  sessionCount: query<NoParams, N>(`SELECT COUNT(*) AS n FROM sessions`),
  /** The row ids of the undated sessions (what `--since` leaves out, lib/session_time.ts). */
  undatedIds: query<NoParams, { id: number }>(`SELECT id FROM sessions s WHERE ${UNDATED}`),
  /** An upper bound of the number of events (for IDF). */
  eventCount: query<NoParams, N>(`SELECT COALESCE(MAX(id), 0) AS n FROM events`),
  /** Stores whose read cut a record's middle past its size limit (lib/prepare.ts `cut_long`). */
  sourcesShortened: query<NoParams, N>(
    // Those still holding a session: a forgotten one's store shortened nothing searchable (trial 67).
    `SELECT count(*) AS n FROM sources src WHERE skipped LIKE '%"cut_long"%'
    AND EXISTS (SELECT 1 FROM sessions s WHERE s.source = src.path)`,
  ),
  /**
   * Adds the terms of `terms` (a JSON array) to the vocabulary, in one statement: the
   * vocab_ai trigger then writes vocab_tri once per statement, not a small FTS5 segment
   * per term (a statement per term cost ten times as much).
   */
  insertVocab: query<{ terms: string }>(
    `INSERT OR IGNORE INTO vocab(term) SELECT value FROM json_each(?)`,
    ["terms"],
  ),
  deleteVocab: query<Term>(`DELETE FROM vocab WHERE term = ?`, ["term"]),
  /** Whether `vocab` holds `term`. */
  vocabHolds: query<Term, { one: number }>(`SELECT 1 AS one FROM vocab WHERE term = ?`, [
    "term",
  ]),
  /** Every token of the text index `vocab` lacks, added (lib/search/vocab.ts repairVocab). */
  repairVocab: query(
    `INSERT OR IGNORE INTO vocab(term) SELECT term FROM events_vocab
      WHERE length(term) BETWEEN 2 AND ${MAX_VOCAB_TOKEN} AND term GLOB '*[^0-9]*'`,
  ),
  /** Terms containing `match` (a trigram MATCH expression: a quoted substring of 3+ characters). */
  /** Terms matching a GLOB (a scan of the vocabulary: lib/search/vocab.ts `containing`, CJK). */
  vocabGlob: query<{ glob: string }, Term>(
    `SELECT term FROM vocab WHERE term GLOB ? LIMIT 2000`,
    ["glob"],
  ),
  vocabContaining: query<{ match: string }, Term>(
    `SELECT term FROM vocab_tri WHERE vocab_tri MATCH ? LIMIT 2000`,
    ["match"],
  ),
  /** Terms in [low, high) (a prefix range). */
  vocabRange: query<{ low: string; high: string }, Term>(
    `SELECT term FROM vocab WHERE term >= ? AND term < ? LIMIT 500`,
    ["low", "high"],
  ),
  /**
   * Terms of the text index in [low, high) (a prefix range of FTS5's own term list, which
   * holds every indexed word, also those `vocab` leaves out: lib/prepare.ts `vocabText`). A
   * range scan of the index's terms (fts5vocab takes the bounds), not a scan of all of them.
   */
  termRange: query<{ low: string; high: string }, Term>(
    `SELECT term FROM events_vocab WHERE term >= ? AND term < ? LIMIT 500`,
    ["low", "high"],
  ),
  /** Close-spelling candidates: length in [min, max], first or second character as given. */
  vocabNear: query<{ min: number; max: number; first: string; second: string }, Term>(
    `SELECT term FROM vocab WHERE length(term) BETWEEN ? AND ?
    AND (substr(term, 1, 1) = ? OR substr(term, 2, 1) = ?)`,
    ["min", "max", "first", "second"],
  ),
  vocabSize: query<NoParams, N>(`SELECT COUNT(*) AS n FROM vocab`),
  /** Events matching `match` (FTS5), with filters appended by lib/search/retrieve.ts (`extend`). */
  searchRows: query<{ match: string }, MatchRow>(
    `SELECT e.id AS event_id, e.session_id AS session_id, e.seq AS seq, e.kind AS kind,
      e.time AS time, e.flags AS flags, bm25(events_fts) AS bm25
    FROM events_fts JOIN events e INDEXED BY events_rank ON e.id = events_fts.rowid
    JOIN sessions s ON s.id = e.session_id
    WHERE events_fts MATCH ?`,
    ["match"],
  ),
  /**
   * The sessions of events matching `match` (FTS5), unranked, at most `limit` rows: read until
   * one is not listed (a word's other forms, lib/search/ladder.ts `unreadForms`).
   */
  matchSessions: query<{ match: string; limit: number }, { session_id: number }>(
    `SELECT e.session_id AS session_id FROM events_fts
    JOIN events e INDEXED BY events_rank ON e.id = events_fts.rowid
    WHERE events_fts MATCH ? LIMIT ?`,
    ["match", "limit"],
  ),
  /** The best `limit` events matching `match`, ranked in FTS5 first (lib/search/retrieve.ts). */
  topRows: query<{ match: string; limit: number }, MatchRow>(
    `SELECT e.id AS event_id, e.session_id AS session_id, e.seq AS seq, e.kind AS kind,
      e.time AS time, e.flags AS flags, m.bm25 AS bm25
    FROM (SELECT rowid, bm25(events_fts) AS bm25 FROM events_fts WHERE events_fts MATCH ?
      ORDER BY bm25(events_fts) LIMIT ?) m
    JOIN events e INDEXED BY events_rank ON e.id = m.rowid`,
    ["match", "limit"],
  ),
  /** Events a regular expression is tested on; filters appended by lib/search/regex.ts. */
  scanRows: query<NoParams, Omit<MatchRow, "bm25"> & { text: string }>(
    `SELECT e.id AS event_id, e.session_id AS session_id, e.seq AS seq, e.kind AS kind,
      e.time AS time, e.flags AS flags, e.text AS text
    FROM events e JOIN sessions s ON s.id = e.session_id WHERE 1 = 1`,
  ),
  /**
   * The last conclusion and the last giving-up (seq) per session of `ids` (a JSON array).
   * The flagged events come from events_flags, their bits from events_rank: no event row is
   * read (as {@link SEARCH_Q.pasteLines}; reading the rows was ~2,000 texts, 25-150 ms of a
   * cold query of two common words on the 100 MB bench, issue 15).
   */
  sessionSignals: query<
    { ids: string },
    { session_id: number; concluded: number | null; gave_up: number | null }
  >(
    `SELECT r.session_id AS session_id, MAX(CASE WHEN r.flags & 1 THEN r.seq END) AS concluded,
      MAX(CASE WHEN r.flags & 2 THEN r.seq END) AS gave_up
    FROM events f INDEXED BY events_flags
    CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
    WHERE f.flags != 0 AND f.session_id IN (SELECT value FROM json_each(?))
    GROUP BY r.session_id`,
    ["ids"],
  ),
  /** The texts of events `ids` (a JSON array). */
  eventTexts: query<{ ids: string }, { id: number; text: string }>(
    `SELECT id, text FROM events WHERE id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /** Sessions `ids` (a JSON array) and their subagents' row ids. */
  withChildren: query<{ ids: string }, Id>(
    `SELECT c.id AS id FROM sessions p JOIN sessions c
      ON c.harness = p.harness AND (c.id = p.id OR c.parent = p.native_id)
    WHERE p.id IN (SELECT value FROM json_each(?))`,
    ["ids"],
  ),
  /**
   * Every session: its project, whether it is a subagent filed under an indexed parent
   * (`sub`), and whether it is one listed on its own, its parent not indexed (`alone`).
   */
  sessionKinds: query<
    NoParams,
    { id: number; harness: string; project: string | null; sub: number; alone: number }
  >(
    `SELECT id, harness, project, NOT ${TOP_LEVEL} AS sub,
      s.parent IS NOT NULL AND ${TOP_LEVEL} AS alone FROM sessions s`,
  ),
  /** Every session with a project. */
  sessionProjects: query<NoParams, { id: number; harness: string; project: string }>(
    `SELECT id, harness, project FROM sessions WHERE project IS NOT NULL`,
  ),
  /** Average events per top-level session (session-level BM25's average length). */
  avgSessionEvents: query<NoParams, N>(
    `SELECT COALESCE(AVG(events), 0) AS n FROM sessions WHERE parent IS NULL`,
  ),
  /** Words the history uses with `term` (lib/search/assoc.ts), strongest first. */
  assocOf: query<Term, { other: string; weight: number }>(
    `SELECT other, weight FROM assoc WHERE term = ? ORDER BY weight DESC`,
    ["term"],
  ),
  assocClear: query(`DELETE FROM assoc`),
  assocInsert: query<{ term: string; other: string; weight: number }>(
    `INSERT OR REPLACE INTO assoc (term, other, weight) VALUES (?, ?, ?)`,
    ["term", "other", "weight"],
  ),
  /**
   * The fields a session states its problem and answer in (lib/search/assoc.ts): its title,
   * its first user turns that are not pasted dumps, its summaries and its conclusions
   * (flag bits: 1 conclusion, 4 paste), each clipped to 2,000 characters; of the newest
   * `sessions` sessions only (by their last time, then their row). The events are
   * picked by their kind, seq and flags in events_rank and only the picked rows are read, as
   * in {@link headsOf}: tested on the rows, every event's row was read whole (flags come after
   * the text).
   */
  assocFields: query<{ sessions: number }, { session_id: number; text: string }>(
    `WITH newest(id) AS (
      SELECT id FROM sessions ORDER BY COALESCE(updated, started, 0) DESC, id DESC LIMIT ?)
    SELECT id AS session_id, substr(title, 1, 2000) AS text FROM sessions
    WHERE title IS NOT NULL AND id IN newest
    UNION ALL
    SELECT session_id, substr(text, 1, 2000) FROM events WHERE id IN (
      SELECT id FROM events INDEXED BY events_rank
      WHERE (kind = 'user' AND seq < 6 AND (flags & 4) = 0) OR kind = 'summary' OR (flags & 1) != 0)
    AND session_id IN newest`,
    ["sessions"],
  ),
  /**
   * Where the sessions `ids` state their problem (lib/search/fielded.ts): the title (seq -1),
   * the user turns among the first six that are not pasted dumps (flag bit 4) and the
   * summaries, each clipped to 2,000 characters. The events are picked by their kind, seq
   * and flags in events_rank (their ids from events_session) and only the picked rows are
   * read: tested on each event's own row, every event of thirty sessions was read, and a
   * user turn's flags (after its text in the row) read the whole text (issue 15).
   */
  headsOf: query<{ ids: string }, { session_id: number; kind: string; seq: number; text: string }>(
    `SELECT id AS session_id, 'title' AS kind, -1 AS seq, substr(title, 1, 2000) AS text
    FROM sessions WHERE id IN (SELECT value FROM json_each(?)) AND title IS NOT NULL
    UNION ALL
    SELECT session_id, kind, seq, substr(text, 1, 2000) FROM events WHERE id IN (
      SELECT r.id FROM events f INDEXED BY events_session
      CROSS JOIN events r INDEXED BY events_rank ON r.id = f.id
      WHERE f.session_id IN (SELECT value FROM json_each(?))
        AND ((r.kind = 'user' AND r.seq < 6 AND (r.flags & 4) = 0) OR r.kind = 'summary'))`,
    ["ids", "ids"],
  ),
  /** Who holds a term: events matching `match`, filters appended by lib/search/sessionrank.ts. */
  termEvents: query<
    { match: string },
    { event_id: number; session_id: number; kind: string; flags: number }
  >(
    `SELECT e.id AS event_id, e.session_id AS session_id, e.kind AS kind, e.flags AS flags
    FROM events_fts JOIN events e INDEXED BY events_rank ON e.id = events_fts.rowid
    JOIN sessions s ON s.id = e.session_id
    WHERE events_fts MATCH ?`,
    ["match"],
  ),
  /**
   * Whether any of the sessions `ids` is dated within `[from, to)` (epoch ms): its span
   * `[started, updated]` meets it, as lib/search/timewords.ts `sessionMeets` reads it; a
   * session dated only by a shared file's mtime (`time_from_file` 2, lib/session_time.ts
   * SHARED_FILE) is in no window.
   */
  anyInWindow: query<{ ids: string; from: number; to: number }, { n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM sessions
    WHERE id IN (SELECT value FROM json_each(?)) AND time_from_file != 2
      AND coalesce(updated, started) >= ? AND coalesce(started, updated) < ? LIMIT 1)`,
    ["ids", "from", "to"],
  ),
  /**
   * How many of the events `ids` the sessions `sessions` hold too: an event of the same kind,
   * time and text (a copied record, lib/search/results.ts `foldCopies`). The sessions' events
   * are read once, each looked up among the few matched ones.
   */
  eventsHeldBy: query<{ ids: string; sessions: string }, { n: number }>(
    `WITH a AS MATERIALIZED (SELECT id, time, kind, text FROM events
      WHERE id IN (SELECT value FROM json_each(?)))
    SELECT count(DISTINCT a.id) AS n FROM events b JOIN a
      ON a.time = b.time AND a.kind = b.kind AND a.text = b.text
    WHERE b.session_id IN (SELECT value FROM json_each(?))`,
    ["ids", "sessions"],
  ),
} as const;
