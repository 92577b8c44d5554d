/**
 * Sources written together in one transaction, each in a savepoint of its own
 * (issue 18). Every source's writes still stand or fall together (a failed
 * source is rolled back to its savepoint, alone), but a run over thousands of
 * small stores pays per batch, not per store, for what a commit costs: the
 * WAL frames of the pages every source touches, FTS5 flushing its pending data
 * into a segment of its own, and the merges of those segments. The text of the
 * batch's events reaches events_fts, and their new tokens `vocab`, once, when
 * it commits (lib/ingest.ts {@link catchUpText}).
 *
 * Measured with `deno task bench:writer` under Bun (100 MB of Claude Code
 * sessions cut into 2,458 stores of 40 KB): the writer's thread 3.7-4.4 s with
 * a transaction per store, 1.7-1.8 s batched. The compiled binary's full index
 * of those stores, min of 3 alternating runs at load 8 on 2 cores: CPU 7.5 ->
 * 5.8 s, wall 11.7 -> 8.5 s, the same rows, events_fts terms and search results.
 *
 * A source of {@link BATCH_BYTES} or more is written alone, in a transaction of its own with
 * no savepoint: while a savepoint is open, SQLite keeps a copy of every page that existed
 * when it began and is changed before its release (its sub-journal, in memory with
 * `temp_store = MEMORY`). A first read changes few such pages; a store read again changes
 * every page its old sessions held, as they are deleted and the freed pages reused. A 64 MB
 * Gemini chat edited and read again peaked at 216-231 MB (its first read 124); alone, it
 * is rolled back with its transaction, which the WAL undoes without a copy.
 *
 * @module
 */
import type { Store } from "./store.ts";
import { catchUpText, resetTextMark, textMark } from "./ingest.ts";
import {
  flushVocab,
  vocabCommitted,
  type VocabMark,
  vocabMark,
  vocabReleased,
  vocabRolledBack,
} from "./search/vocab.ts";
import { trace } from "../core/trace.ts";

/** Bytes read into one batch before it commits (a larger store commits alone). */
export const BATCH_BYTES = 8 << 20;
/**
 * Sources in one batch at most. Stores of 40 KB fill {@link BATCH_BYTES} at about 200: each
 * commit flushes FTS5 segments of events_fts and vocab_tri and writes the WAL, so at 64 a
 * run over thousands of small stores committed three times as often as one over large ones
 * (measured on the 2,460 stores of 40 KB: the commits' share 1.5 -> 1.1 s, issue 18).
 */
export const BATCH_SOURCES = 256;

/** One open transaction over consecutive sources, a savepoint per source. */
export class WriteBatch {
  private open = false;
  private bytes = 0;
  private sources = 0;
  /** events_fts's catching-up mark when the current source's savepoint began. */
  private mark: number | undefined;
  /** The current source is written alone, in the transaction with no savepoint. */
  private alone = false;
  /** The vocabulary's inserts when the current source's savepoint began. */
  private vocab: VocabMark = { flushed: 0, unkept: 0 };

  constructor(
    private store: Store,
    private maxBytes = BATCH_BYTES,
    private maxSources = BATCH_SOURCES,
  ) {}

  /**
   * Starts a source that may change `bytes` of the index (what it reads, or more when it
   * replaces what an earlier read wrote): the batch's transaction when none is open, then the
   * source's savepoint. A source of {@link maxBytes} or more commits the batch before it and
   * is written alone, with no savepoint (see the module doc).
   */
  begin(bytes = 0): void {
    this.alone = bytes >= this.maxBytes;
    if (this.alone) this.commit();
    if (!this.open) {
      this.store.db.exec("BEGIN IMMEDIATE");
      this.open = true;
    }
    this.mark = textMark(this.store);
    this.vocab = vocabMark(this.store);
    if (!this.alone) this.store.db.exec("SAVEPOINT source");
  }

  /** Keeps the source's writes (`bytes` read); commits the batch when it is full. */
  keep(bytes: number): void {
    if (!this.alone) {
      this.store.db.exec("RELEASE source");
      vocabReleased(this.store);
    }
    this.bytes += bytes;
    // A source written alone commits here, whatever it read.
    if (++this.sources >= this.maxSources || this.bytes >= this.maxBytes || this.alone) {
      this.commit();
    }
  }

  /** Undoes the source's writes; the batch's earlier sources stay. */
  undo(): void {
    if (this.alone) {
      // The transaction holds this source alone.
      this.store.db.exec("ROLLBACK");
      this.reset();
    } else {
      this.store.db.exec("ROLLBACK TO source");
      this.store.db.exec("RELEASE source");
    }
    // Text an earlier source left to index may have been indexed after the savepoint.
    resetTextMark(this.store, this.mark);
    // Tokens a long source inserted as it went (lib/search/vocab.ts FLUSH_TOKENS) went with it.
    vocabRolledBack(this.store, this.vocab);
  }

  /** Indexes the batch's text and tokens and commits it (nothing when none is open). */
  commit(): void {
    if (!this.open) return;
    trace(`commit ${this.sources} sources`);
    try {
      catchUpText(this.store);
      trace("text indexed");
      flushVocab(this.store);
      trace("vocabulary written");
      this.store.db.exec("COMMIT");
      vocabCommitted(this.store);
      trace("committed");
    } catch (e) {
      this.abort();
      throw e;
    }
    this.reset();
  }

  /** Rolls the whole batch back (the index failed). */
  abort(): void {
    if (this.open) {
      try {
        this.store.db.exec("ROLLBACK");
      } catch { /* nothing open */ }
    }
    resetTextMark(this.store, undefined);
    vocabRolledBack(this.store);
    this.reset();
  }

  private reset(): void {
    this.open = false;
    this.bytes = 0;
    this.sources = 0;
  }
}
