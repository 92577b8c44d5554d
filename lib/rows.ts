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
  model: string | null;
  parent: string | null;
  source: string;
  events: number;
  /** The remote it was read from (`deja remote`); null for this machine's. */
  origin?: string | null;
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
}
