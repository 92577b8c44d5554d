/**
 * Writes prepared session chunks (lib/prepare.ts: rendered, capped, redacted,
 * tokenised where they were parsed) into the store: the session row, events,
 * and the derived rows (`commands` with exit status, `files` with replaced
 * spans and written lines). Everything here needs the database; everything
 * that does not is done before, off the writer's thread where it can be. A secret value a
 * chunk names after events of its session were written is masked in those when the pass
 * ends (lib/mask_written.ts).
 *
 * Where the writer's CPU goes (issue 18; the 100 MB bench corpus: 67 sources
 * of one session each, 266 chunks, 54,508 events of 28 MB text), as
 * `deno task bench:writer` replays it through these statements under Bun, min
 * of runs on a shared 2-core machine (load 3-7): event rows ~0.42 s,
 * events_fts's INSERT ... SELECT ~0.36 s, the flush of its pending data ~0.36 s
 * (at the next statement's savepoint, here the vocab insert, itself ~0.05 s),
 * commits ~0.16 s (WAL checkpoints ~0.06 s of it), commands and files ~0.1 s,
 * JS around the statements ~0.1 s: ~1.45 s of the thread, a transaction per
 * source or batched alike (1.5 MB stores). The same 100 MB cut into 2,458
 * stores of 40 KB cost 3.7-4.4 s with a transaction per store (commits 2.4-3 s:
 * a segment per store, its merges, the pages every store touches) and 1.7-1.8 s
 * written several to a transaction (lib/write_batch.ts). In the real run
 * the writer's thread also takes ~0.55 s outside these statements (discovery,
 * planning, JSON.parse of the workers' chunks ~0.2 s, their garbage).
 * The five indexes on events together cost ~0.12 s of the rows' time and none
 * alone shows above run-to-run noise; the vocab rows and their trigram trigger
 * are ~10k terms, also below noise. Measured and left (no gain beyond noise,
 * or a loss): FTS5 automerge 0/16 with or without a final optimize (an
 * optimize alone ~0.25 s); a larger cache or mmap for this connection; each
 * event's text inserted into events_fts from JS instead of INSERT ... SELECT
 * (+0.7 s: every vtab INSERT flushes the pending data at its savepoint); the
 * checkpoints run by a second connection on a worker thread (writer thread
 * -0.07 s, the process's CPU the same, so no wall time on two cores, and one
 * more thread's memory); wal_autocheckpoint 4000 (-0.02 s) or 0 (the commits
 * -0.06 s, the close +0.07 s CPU and +0.25 s waiting on fsync); page_size 16 KB;
 * on 1.5 MB stores, all in one transaction (commits -0.1 s at most; 67
 * stores, and the per-store statements cost ~10 ms in all); positional
 * bindings for the event insert. events_fts with `columnsize=0` (no %_docsize
 * row per event): its INSERT ... SELECT of the whole corpus 0.46-0.49 s against
 * 0.50-0.56 (Deno, load 10), but bm25(), which ranks every search, then
 * tokenises each match's text for its length: a common word's 5000 best
 * matches 45-65 ms -> 140-180 ms of CPU.
 *
 * @module
 */
import { trace, tracing } from "../core/trace.ts";
import type { Session } from "../core/model.ts";
import { Q } from "./schema.ts";
import { mergeTimes } from "./merge.ts";
import type { Store } from "./store.ts";
import type { FoundSecrets, RedactionCounts } from "./redact.ts";
import { MAX_SESSION_SECRETS, type PreparedChunk, type PreparedEvent } from "./prepare.ts";
import { maskWritten } from "./mask_written.ts";
import { VocabWriter } from "./search/vocab.ts";
import { gateOf } from "./forget/gate.ts";
import { recordExcluded } from "./forget/exclusions.ts";
import { fnv1a32, plural } from "../core/text.ts";
import { type Contest, copyLoses, releaseCopies, wholeStore } from "./copies.ts";
import { fileTimeColumn, fileTimeOf } from "./session_time.ts";
import { notReopened } from "./resume_source.ts";
import { PROMPT_MATCH_MS } from "../core/prompt_history.ts";
import { basename } from "node:path";
import { storeState } from "./gone.ts";
import { dropEvents, dropSession } from "./drop_events.ts";
import { type HeldKeys, sessionHeldKeys } from "./held_keys.ts";

export { cap, MAX_RESULT, MAX_SPAN, MAX_TEXT } from "./prepare.ts";

/** How a pass treats sessions that already exist in the index. */
export type WriteMode =
  /**
   * The source was re-read whole: its old sessions were removed first; a session another
   * store holds is appended to when that store is an append log (its events merge by key), and
   * met as a copy, whole, when both stores hold whole sessions (lib/copies.ts).
   */
  | "full"
  /** The source was read from an offset: events continue existing sessions. */
  | "append"
  /** Each session yielded is complete: its old events are replaced. */
  | "sessions";

/** A session a pass would leave with less than the index held before it (see {@link SourceWriter.losses}). */
export interface Loss {
  /** `harness\u0000native id`, as {@link SourceWriter} keys sessions. */
  key: string;
  /** The harness's own session id. */
  id: string;
  /** Events the index held before this pass. */
  before: number;
  /** Events this pass read (0 when the read did not return the session). */
  after: number;
  /** Of {@link after}, events the index did not hold (a session cut short, then written to). */
  added?: number;
  /** The read returned the session without the title the index held ({@link SourceWriter.shortened}). */
  untitled?: boolean;
}

/**
 * What `deja sources --verbose` says of a damaged read that kept sessions:
 * `read partly at <path>: damaged, so the index kept what it held of 1 session
 * this read returned shorter or not at all: a179a6fe (4 events; read now 0)`. `why` says why
 * (a store cut short is not damaged).
 */
export function keptNote(path: string, losses: Loss[], why = "damaged"): string {
  return `read partly at ${path}: ${why}, so the index kept what it held of ${
    plural(losses.length, "session")
  } this read returned shorter or not at all: ${keptList(losses)}`;
}

/** The sessions of a {@link keptNote}, the first three by id: `a179a6fe (4 events; read now 0), 2 more`. */
export function keptList(losses: Loss[]): string {
  const list = losses.slice(0, 3).map((l) =>
    `${l.id.slice(0, 8)} (${l.before} events; read now ${l.after}${
      l.added ? `, ${l.added} of them new, added` : ""
    })`
  );
  if (losses.length > 3) list.push(`${losses.length - 3} more`);
  return list.join(", ");
}

/** Per store: the first event inserted since events_fts last caught up (Q.ftsFrom). */
const textFrom = new WeakMap<Store, number>();

/**
 * Indexes for search the text of the events inserted since the last call, of
 * every writer of `store`. Runs before any event is updated or deleted (their
 * triggers take the old text out of events_fts, so it must be there), when a
 * pass ends, and when a batch of sources commits (lib/write_batch.ts).
 */
export function catchUpText(store: Store): void {
  const from = textFrom.get(store);
  if (from === undefined) return;
  // In statements of about TEXT_PIECE_BYTES of text each (see TEXT_PIECE_BYTES), found a page
  // of sizes at a time: the sizes of a million events read at once held 70 MB (issue 18).
  let start = from, taken = 0, last = 0, pieces = 0;
  for (let next = from;;) {
    const page = Q.eventSizesFrom.all(store, { from: next, n: SIZES_PAGE });
    for (const { id, n } of page) {
      if (last && taken >= TEXT_PIECE_BYTES) {
        Q.ftsRange.run(store, { from: start, to: last });
        pieces++;
        start = id;
        taken = 0;
      }
      taken += n;
      last = id;
    }
    if (page.length < SIZES_PAGE) break;
    next = last + 1;
  }
  if (last) {
    Q.ftsRange.run(store, { from: start, to: last });
    pieces++;
  }
  if (tracing) trace(`text in ${pieces} pieces`);
  textFrom.delete(store);
}

/** Event sizes {@link catchUpText} reads at a time. */
const SIZES_PAGE = 4096;

/**
 * Bytes of event text one statement of {@link catchUpText} indexes. In a transaction SQLite
 * keeps a copy of each page that existed when a statement began and that it changes, until
 * it ends (in memory: lib/schema.ts `temp_store`); the text index's merges change such pages,
 * and so do its new segments when they reuse pages a deletion freed (a store read again).
 */
export const TEXT_PIECE_BYTES = 8 << 20;

/**
 * Where events_fts's catching up starts for `store` (undefined: nothing to
 * index), to put back after a rollback to a savepoint: text indexed since then
 * is rolled back with it.
 */
export function textMark(store: Store): number | undefined {
  return textFrom.get(store);
}

/** Puts back a {@link textMark}. */
export function resetTextMark(store: Store, mark: number | undefined): void {
  if (mark === undefined) textFrom.delete(store);
  else textFrom.set(store, mark);
}

/**
 * Event keys a pass remembers per session before it looks them up instead
 * (memory bound). Remembered as 32-bit hashes ({@link fnv1a32}), not strings:
 * a hash costs no allocation of its own. As strings (15-character stored keys,
 * plus the call ids of results), 100,000 of them held ~35 MB of RSS until the
 * cap dropped them. Compiled binary, issue 18: a 1 GB session alone peaked at
 * 122-128 MB with strings, 110-111 with hashes (CPU the same); the scale run
 * (`deno task bench --scale`, 3 GB) at 155 MB before, 127 after. Two keys
 * sharing a hash only cost a lookup: the index, not the set, says whether a
 * key was written.
 */
export const MAX_FRESH_KEYS = 100_000;

interface Slot {
  id: number;
  nextSeq: number;
  /**
   * Hashes of the keys written in this pass, when the session had no events
   * before it: a key whose hash is not in the set cannot be in the index, so
   * no lookup is needed.
   */
  fresh?: Set<number>;
  /**
   * Hashes of the call ids of the results written in this pass, kept while
   * {@link fresh} is: a call whose id's hash is not in it has no result in the
   * index to take its status from.
   */
  results?: Set<number>;
  /**
   * The model of the session's latest reply written (undefined: none yet; null: not looked
   * up in the index yet): an event whose model differs from it stores its model.
   */
  model?: string | null;
  /**
   * Of a session this pass created: the models its events stored, in order of first use,
   * so {@link modelsJson} need not read them back (a query per session: ~0.1 s of the
   * writer's thread over 2,282 sessions of 40 KB).
   */
  models?: string[];
  /**
   * Of such a session: the model its row was written with (its replies'); where it names
   * none, a lone model its events name (a reply left empty, a failed turn's error) is kept in
   * `models`.
   */
  rowModel?: string | null;
  /**
   * A prompt history's prompts of a session the index holds from its transcript
   * (`Session.prompts`): only the prompts it lacks are written, and the session
   * stays the transcript's.
   */
  prompts?: boolean;
  /** Of a session written over what the index holds ({@link MergePlan}): new events' seqs. */
  at?: ReadonlyMap<number, number>;
  /**
   * Secret values a chunk named after the index held events of the session (its chunks before,
   * or an earlier run's part): masked in them when the pass ends (lib/mask_written.ts). At most
   * MAX_SESSION_SECRETS; in memory only.
   */
  named?: FoundSecrets;
  /** The last event row id written before the last chunk that added to {@link named}. */
  namedAfter?: number;
}

/**
 * How a pass writes a session over what the index holds of it (lib/index_source.ts `fateOf`:
 * a session file cut short, then perhaps edited or written to): the events of the same key
 * are written over, the others appended, and besides:
 */
export interface MergePlan {
  /** Seqs of the events held that go (deleted inside the file, or edited: replaced). */
  drop: readonly number[];
  /** A new event's key hash -> the seq it takes (an event edited in place, in its place). */
  at: ReadonlyMap<number, number>;
}

/** Writes the sessions of one source pass. Use inside a store transaction. */
export class SourceWriter {
  private slots = new Map<string, Slot>();
  private vocab: VocabWriter;
  /** Sessions of this pass the gate left out (later chunks of them are left out too). */
  private leftOut = new Set<string>();
  /** {@link MAX_FRESH_KEYS}; tests lower it. */
  maxFreshKeys = MAX_FRESH_KEYS;
  /** Secrets redacted in the texts written, by kind. */
  readonly redactions: RedactionCounts = {};
  /**
   * Every value a cue named in the chunks of this pass, of any session (at most
   * 16 * MAX_SESSION_SECRETS): masked in the parser state the source keeps (lib/index_source.ts),
   * which may hold a title that repeats one (trial 114 F1). In memory only.
   */
  readonly named: FoundSecrets = new Map();
  sessions = 0;
  events = 0;
  /** `harness\u0000native id` of each session this pass wrote (lib/indexer.ts counts copies by them). */
  get written(): string[] {
    return [...this.slots.keys()];
  }
  /**
   * Sessions this pass replaces: key -> their id, event count and whether they had a title
   * before it, and whether this store is the one the index held them from (`own`).
   */
  private before = new Map<
    string,
    { id: string; events: number; titled?: boolean; own?: boolean }
  >();

  /** Sessions held by another whole store that this pass met (lib/copies.ts). */
  private contested = new Map<string, Contest & { updated?: number }>();
  /** Sessions this store held before a whole read removed them (their copies may hold them). */
  private held = new Map<string, { harness: string; id: string }>();
  /** Stores of copies to read again: this store no longer holds their session (lib/copies.ts). */
  readonly reread: string[] = [];
  /** The store holds whole sessions (a document or a database, not an append log). */
  private whole: boolean;
  /** {@link constructor}'s `startOver`. */
  private startOver?: ReadonlySet<string>;
  /** {@link constructor}'s `merge`. */
  private merge: ReadonlyMap<string, MergePlan>;
  /**
   * Sessions of an append log this pass took from its old path, gone (the file moved), with
   * what the index held of them: lib/index_source.ts weighs the read against it, as it weighs
   * a file read again whole (trial 34: moved and cut short, 14 events became 7 silently).
   */
  readonly movedHeld = new Map<string, HeldKeys>();
  /** The gone paths this pass took sessions from (the file moved): retired once they hold none. */
  readonly movedFrom = new Set<string>();

  /**
   * @param opts.keep sessions (`harness\u0000native id`) this pass leaves as the
   *   index holds them: not removed in `full` mode, their chunks not written.
   * @param opts.merge sessions this pass writes over what the index holds of them, as each
   *   one's {@link MergePlan} says: not removed in `full` mode (a session file cut short,
   *   then perhaps edited or written to).
   * @param opts.whole the store holds each of its sessions whole (a document or a
   *   database): a session another such store holds is a copy (lib/copies.ts).
   * @param opts.startOver a rebuild's sessions written so far this run: a session
   *   the index holds from before the run, not among them, is started again
   *   (what the old index held of it, from whatever store, goes), so that a
   *   rebuild makes of each session what a first index makes of it.
   */
  constructor(
    private store: Store,
    readonly source: string,
    readonly mode: WriteMode,
    opts: {
      keep?: ReadonlySet<string>;
      merge?: ReadonlyMap<string, MergePlan>;
      whole?: boolean;
      startOver?: ReadonlySet<string>;
    } = {},
  ) {
    const keep = opts.keep ?? new Set();
    const merge = this.merge = opts.merge ?? new Map();
    this.whole = opts.whole === true;
    if (opts.startOver) this.startOver = opts.startOver;
    this.vocab = new VocabWriter(store);
    for (const k of keep) this.leftOut.add(k);
    if (mode === "full") {
      // Read whole: the copies this store holds are found again as it is read.
      if (this.whole) Q.clearCopiesOf.run(store, { source });
      const old = Q.sessionsOfSource.all(store, { source });
      // An earlier source of the same batch may have written these sessions' events.
      if (old.length) catchUpText(store);
      for (const { id } of old) {
        const row = Q.sessionById.get(store, { id });
        const k = row ? `${row.harness}\u0000${row.native_id}` : "";
        if (keep.has(k) || merge.has(k)) continue;
        if (row) {
          this.before.set(k, {
            id: row.native_id,
            events: row.events,
            titled: row.title !== null,
            own: true,
          });
          this.held.set(k, { harness: row.harness, id: row.native_id });
        }
        dropSession(store, id);
      }
    }
  }

  /**
   * After {@link finish}: the sessions this pass took from another whole store
   * whose copy there is the better one (lib/copies.ts copyLoses), as losses.
   */
  lostCopies(damaged: boolean): Loss[] {
    const out: Loss[] = [];
    for (const c of this.contested.values()) {
      const slot = this.slots.get(c.key);
      const events = slot ? Q.sessionById.get(this.store, { id: slot.id })?.events ?? 0 : 0;
      if (copyLoses(this.store, c, { events, damaged, updated: c.updated })) {
        out.push({ key: c.key, id: c.id, before: c.holderEvents, after: events });
      }
    }
    return out;
  }

  /**
   * After {@link finish}: the sessions this pass replaced with fewer events than
   * the index held, or (read whole) did not return at all. A read of a damaged
   * store must not leave these so (lib/indexer.ts reads it again keeping them).
   */
  losses(): Loss[] {
    return this.replaced().filter((l) => l.after < l.before || !this.slots.has(l.key));
  }

  /** After {@link finish}: every session this pass replaced, with its events before and after. */
  replaced(): Loss[] {
    const out: Loss[] = [];
    for (const [key, b] of this.before) {
      const slot = this.slots.get(key);
      const after = slot ? Q.sessionById.get(this.store, { id: slot.id })?.events ?? 0 : 0;
      out.push({ key, id: b.id, before: b.events, after });
    }
    return out;
  }

  /**
   * After {@link finish}: the sessions the index held from this store that this pass read
   * again, whole, with fewer events than it held; `untitled` when the read also returned
   * the session without the title it had. (Those the read did not return are in {@link losses}.)
   */
  shortened(): Loss[] {
    const out: Loss[] = [];
    for (const [key, b] of this.before) {
      const slot = this.slots.get(key);
      if (!slot || !b.own) continue;
      const row = Q.sessionById.get(this.store, { id: slot.id });
      const after = row?.events ?? 0;
      if (after >= b.events) continue;
      out.push({ key, id: b.id, before: b.events, after, untitled: !!b.titled && !row?.title });
    }
    return out;
  }

  /** Writes one prepared session chunk. */
  write(chunk: PreparedChunk): void {
    const k = `${chunk.harness}\u0000${chunk.id}`;
    for (const [v, kind] of chunk.named ?? []) {
      if (this.named.size < 16 * MAX_SESSION_SECRETS) this.named.set(v, kind);
    }
    if (this.leftOut.has(k)) return this.copyLeftOut(chunk);
    if (!this.slots.has(k) && gateOf(this.store)?.check(chunk, this.source)) {
      this.leftOut.add(k);
      return;
    }
    if (!this.slots.has(k) && this.staleCopy(chunk)) {
      this.leftOut.add(k);
      return this.copyLeftOut(chunk);
    }
    // Before the rows: a later chunk of the session does not list these again (lib/prepare.ts).
    this.vocab.add(chunk.tokens);
    chunk.kept?.();
    const slot = this.slot(chunk);
    // Values named now that events the index holds already may repeat bare (trial 111 F5).
    if (chunk.named && slot.nextSeq > 0) this.noteNamed(slot, chunk.named);
    for (const e of chunk.events) {
      if (slot.prompts && this.holdsPrompt(slot.id, e)) continue;
      this.writeEvent(slot, e);
    }
    for (const [kind, n] of Object.entries(chunk.redactions)) {
      this.redactions[kind] = (this.redactions[kind] ?? 0) + n;
    }
  }

  /** Keeps `named` for {@link maskNamed}, at most MAX_SESSION_SECRETS a session. */
  private noteNamed(slot: Slot, named: readonly [string, string][]): void {
    slot.namedAfter = Q.maxEventId.get(this.store, {})!.id;
    const to = slot.named ??= new Map();
    for (const [v, kind] of named) if (to.size < MAX_SESSION_SECRETS) to.set(v, kind);
  }

  /**
   * Masks in each session the values its later chunks named (lib/mask_written.ts). events_fts
   * catches up first when it lacks events of the session written before the last chunk that
   * named some (those after it were masked as they were prepared); else it is not moved ahead
   * of its batch (lib/write_batch.ts): a full index of the bench corpus with every session
   * naming 8 values late cost ~0.4 s more CPU of ~4 s when each source caught up.
   */
  private maskNamed(): void {
    for (const slot of this.slots.values()) {
      if (!slot.named) continue;
      const from = textFrom.get(this.store);
      const to = slot.namedAfter ?? 0;
      if (
        from !== undefined && from <= to &&
        Q.sessionHoldsIds.get(this.store, { session: slot.id, from, to })
      ) this.indexText();
      maskWritten(this.store, slot.id, slot.named, this.redactions, () => this.indexText());
      slot.named = slot.namedAfter = undefined;
    }
  }

  /** Sessions {@link copyLeftOut} looked at (once each, not once a chunk). */
  private copiesSeen = new Set<string>();

  /** A session of this whole store left as the index holds it from another store: a copy. */
  private copyLeftOut(c: Omit<Session, "events">): void {
    if (!this.whole) return;
    const k = `${c.harness}\u0000${c.id}`;
    if (this.copiesSeen.has(k)) return;
    this.copiesSeen.add(k);
    const row = Q.sessionByKey.get(this.store, { harness: c.harness, native_id: c.id });
    if (row && row.source !== this.source) {
      Q.addCopy.run(this.store, { harness: c.harness, native_id: c.id, source: this.source });
    }
  }

  /**
   * True when `c` is a whole copy of a session the index holds from another
   * store that was updated later (opencode channel builds keep the same session
   * in `opencode.db` and `opencode-<channel>.db`): the newer copy stays.
   */
  private staleCopy(c: Omit<Session, "events">): boolean {
    if (!c.whole || c.updated === undefined) return false;
    const row = Q.sessionByKey.get(this.store, { harness: c.harness, native_id: c.id });
    return !!row && row.source !== this.source && typeof row.updated === "number" &&
      row.updated > c.updated;
  }

  /**
   * Recounts events of every session this pass touched, and indexes their text
   * and new tokens; `deferred` leaves those two to the batch of sources this
   * pass is one of ({@link catchUpText} and flushVocab when it commits).
   */
  finish(deferred = false): void {
    // In the same transaction as the stamp: the stores an exclusion left sessions out of.
    const gate = gateOf(this.store);
    if (gate) recordExcluded(this.store, gate.excludedBy);
    this.maskNamed();
    if (!deferred) this.indexText();
    for (const slot of this.slots.values()) {
      Q.countEvents.run(this.store, { id: slot.id });
      // One model is the row's own, unless the row names none (trial 103 F8: a Crush session
      // whose one reply was empty named its model only in a notice).
      const models = slot.models
        ? slot.models.length > 1 || (slot.models.length === 1 && !slot.rowModel)
          ? JSON.stringify(slot.models)
          : null
        : modelsJson(this.store, slot.id);
      Q.setModels.run(this.store, { models, id: slot.id });
    }
    if (!deferred) this.vocab.flush();
    // Sessions this store no longer holds: the stores holding copies of them are read again.
    for (const [k, { harness, id }] of this.held) {
      if (!this.slots.has(k) && !this.leftOut.has(k)) {
        this.reread.push(...releaseCopies(this.store, harness, id));
      }
    }
  }

  /**
   * Whether session `id` holds prompt `e` already: a user event of the same
   * text (trimmed) within PROMPT_MATCH_MS of its time (any time when either
   * has none).
   */
  private holdsPrompt(id: number, e: PreparedEvent): boolean {
    if (e.kind !== "user") return false;
    const near = { session: id, text: e.text.trim(), time: e.time, ms: PROMPT_MATCH_MS };
    return Q.userPromptNear.get(this.store, near) !== undefined;
  }

  /** {@link catchUpText} of this writer's store. */
  private indexText(): void {
    catchUpText(this.store);
  }

  private slot(c: PreparedChunk): Slot {
    const k = `${c.harness}\u0000${c.id}`;
    const st = this.store;
    let row = Q.sessionByKey.get(st, { harness: c.harness, native_id: c.id });
    let slot = this.slots.get(k);
    if (row && !slot && this.startOver && !this.startOver.has(k)) {
      // A rebuild meets a session the old index held (from another store: this store's went
      // when the pass began): it starts again, as in a first index. Appended to, it kept the
      // events of every store that gave it some, once more each rebuild (trial 14: a Codex
      // rollout and the prompt history tied to it, 3 -> 6 -> 9 events).
      this.before.set(k, { id: c.id, events: row.events });
      this.indexText();
      dropSession(st, row.id);
      row = undefined;
    }
    if (!row) {
      const ins = Q.insertSession.get(st, {
        harness: c.harness,
        native_id: c.id,
        project: c.project ?? null,
        title: c.title ?? null,
        started: c.started ?? null,
        updated: c.updated ?? null,
        time_from_file: fileTimeColumn(c.timeFromFile),
        model: c.model ?? null,
        parent: c.parent ?? null,
        source: this.source,
      })!;
      // Held from this store now, it holds no copy of it (a rebuild left a row saying it did:
      // "(1 copy)" of a session one store held, trial 137 M3).
      Q.removeCopy.run(st, { harness: c.harness, native_id: c.id, source: this.source });
      slot = {
        id: ins.id,
        nextSeq: 0,
        fresh: new Set(),
        results: new Set(),
        models: [],
        rowModel: c.model ?? null,
      };
      this.slots.set(k, slot);
      this.sessions++;
      return slot;
    }
    const id = row.id;
    if (!slot && c.prompts && row.source !== this.source) {
      // A prompt history's prompts of a session held from its transcript: the session stays
      // the transcript's (its source, title, times), and gets only the prompts it lacks.
      slot = {
        id,
        nextSeq: Q.maxSeq.get(st, { session: id })!.seq + 1,
        model: null,
        prompts: true,
      };
      this.slots.set(k, slot);
      this.sessions++;
    }
    if (slot?.prompts) return slot;
    if (!slot) {
      // Held from a prompt history (its transcript was not there when that was read): a
      // transcript read whole takes the session, and the history is read again whole, to add
      // only the prompts the transcript lacks.
      const fromPrompts = !c.prompts && this.mode !== "append" && row.source !== this.source &&
        notReopened(row.harness, row.source)?.lives.kind === "prompts";
      if (fromPrompts) {
        Q.resetSourceStamp.run(st, { path: row.source });
        this.reread.push(row.source);
      }
      // Held from another store of whole sessions: this copy replaces it whole, and which
      // copy stays is decided when the pass ends (lib/copies.ts).
      const copy = this.whole && row.source !== this.source && wholeStore(st, row.source);
      if (copy) {
        this.contested.set(k, {
          key: k,
          harness: c.harness,
          id: c.id,
          holder: row.source,
          holderEvents: row.events,
          // A file's mtime dates no conversation: only recorded times make a copy newer.
          ...(row.updated !== null && !row.time_from_file ? { holderUpdated: row.updated } : {}),
          ...(c.updated !== undefined && !c.timeFromFile ? { updated: c.updated } : {}),
        });
        Q.addCopy.run(st, { harness: c.harness, native_id: c.id, source: row.source });
      }
      Q.removeCopy.run(st, { harness: c.harness, native_id: c.id, source: this.source });
      // The same file moved (Codex archiving a rollout into archived_sessions/, a home moved
      // or restored elsewhere): its old path is gone and it is read from its start under the
      // new one. Appended to, its keyless events were held twice (trial 14, second run: 2 -> 4
      // events; a moved home 1,801 -> 1,906).
      const moved = !copy && !fromPrompts && this.mode !== "append" &&
        row.source !== this.source && basename(row.source) === basename(this.source) &&
        storeState(row.source) === "gone";
      // An append log taking a session another store still holds (a resumed Claude Code
      // session's file copies its lines): that store holds a copy, read again when this one
      // stops holding the session (trial 26: the file rewritten without them, the session
      // left the index while its own file, unchanged, was never read again). One gone since
      // (a copy deleted, its holder read again) holds one too: the events only it held stay
      // in the session (gone, kept), and `deja show` and `deja sources` name it (trial 137
      // M3: the source named a file that held none of them, and "0 sessions kept").
      if (
        !this.whole && !copy && !fromPrompts && !moved && row.source !== this.source
      ) {
        Q.addCopy.run(st, { harness: c.harness, native_id: c.id, source: row.source });
      }
      // Moved, and to be added to as held (lib/index_source.ts): its events are kept.
      if (moved) this.movedFrom.add(row.source);
      const adding = moved && this.merge.has(k) && !c.whole;
      if (moved && !this.whole && !adding) {
        this.movedHeld.set(k, sessionHeldKeys(st, c.harness, c.id));
      }
      if (
        (this.mode === "sessions" || c.whole || copy || fromPrompts || moved) && !adding
      ) {
        this.before.set(k, {
          id: c.id,
          events: row.events,
          titled: row.title !== null,
          own: row.source === this.source,
        });
        this.indexText();
        dropEvents(st, [id]);
        slot = {
          id,
          nextSeq: 0,
          fresh: new Set(),
          results: new Set(),
          models: [],
          rowModel: c.model ?? null,
        };
        // Read whole again from a store of whole sessions: its times, title and model are the
        // read's, not merged with what the index held (trial 89 F3: a session deleted and made
        // again under its id kept the old one's start and, naming none, its model).
        if (this.mode === "sessions" || c.whole) {
          row = {
            ...row,
            started: null,
            updated: null,
            time_from_file: undefined,
            model: null,
            title: null,
          };
        }
      } else {
        slot = { id, nextSeq: Q.maxSeq.get(st, { session: id })!.seq + 1, model: null };
        const plan = this.merge.get(k);
        if (plan) {
          if (plan.drop.length) this.indexText();
          for (const seq of plan.drop) Q.deleteEventAtSeq.run(st, { session: id, seq });
          if (plan.at.size) slot.at = plan.at;
        }
      }
      this.slots.set(k, slot);
      this.sessions++;
    }
    const t = mergeTimes({
      started: row.started ?? undefined,
      updated: row.updated ?? undefined,
      timeFromFile: fileTimeOf(row.time_from_file),
    }, c);
    Q.updateSession.run(st, {
      project: c.project ?? row.project ?? null,
      title: c.title ?? row.title ?? null,
      started: t.started ?? null,
      updated: t.updated ?? null,
      time_from_file: fileTimeColumn(t.timeFromFile),
      model: c.model ?? row.model ?? null,
      parent: c.parent ?? row.parent ?? null,
      source: this.source,
      id,
    });
    return slot;
  }

  private writeEvent(slot: Slot, e: PreparedEvent): void {
    const st = this.store;
    const sid = slot.id;
    let existing: { id: number } | undefined;
    if (e.key !== null) {
      const h = fnv1a32(e.key);
      if (!slot.fresh || slot.fresh.has(h)) {
        existing = Q.eventByKey.get(st, { session: sid, key: e.key, long: e.longKey ?? e.key });
      }
      slot.fresh?.add(h);
      // Bounded memory on a session of millions of events (issue 18's 2 GB session): past the
      // cap, keys are looked up in the index instead of remembered.
      if (slot.fresh && slot.fresh.size > this.maxFreshKeys) slot.fresh = slot.results = undefined;
    }
    let eventId: number;
    if (existing) {
      eventId = existing.id;
      this.indexText();
      Q.updateEvent.run(st, {
        kind: e.kind,
        text: e.text,
        time: e.time,
        tool: e.tool,
        call_id: e.callId,
        data: e.data,
        flags: e.flags,
        id: eventId,
      });
      Q.deleteDerived.run(st, { event: eventId });
      Q.deleteDerivedFiles.run(st, { event: eventId });
    } else {
      let model: string | null = null;
      if (e.model !== undefined) {
        if (slot.model === null) slot.model = Q.lastModel.get(st, { session: sid })?.model;
        if (e.model !== slot.model) model = slot.model = e.model;
        if (model !== null && slot.models && !slot.models.includes(model)) slot.models.push(model);
      }
      // One params object per row, not a row spread into another (54,508 of them on the bench corpus).
      eventId = Number(
        Q.insertEvent.run(st, {
          session: sid,
          seq: (slot.at && e.key !== null ? slot.at.get(fnv1a32(e.key) | 0) : undefined) ??
            slot.nextSeq++,
          kind: e.kind,
          text: e.text,
          time: e.time,
          key: e.key,
          tool: e.tool,
          call_id: e.callId,
          data: e.data,
          flags: e.flags,
          model,
        }).lastInsertRowid,
      );
      if (!textFrom.has(st)) textFrom.set(st, eventId);
      this.events++;
    }
    if (e.kind === "tool_call") this.derivedCall(slot, eventId, e);
    if (e.kind === "tool_result" && e.result) this.derivedResult(sid, eventId, e);
    if (e.kind === "tool_result" && e.callId && slot.results) {
      slot.results.add(fnv1a32(e.callId));
      if (slot.results.size > this.maxFreshKeys) slot.fresh = slot.results = undefined;
    }
  }

  private derivedCall(slot: Slot, eventId: number, e: PreparedEvent): void {
    const st = this.store;
    const sid = slot.id;
    const base = { event_id: eventId, session_id: sid, call_id: e.callId, time: e.time };
    if (e.command !== undefined) Q.insertCommand.run(st, { ...base, command: e.command });
    for (const f of e.files ?? []) Q.insertFile.run(st, { ...base, ...f });
    if (e.callId && (!slot.results || slot.results.has(fnv1a32(e.callId)))) {
      // A result recorded before its call (some stores stream out of order).
      const r = Q.resultForCall.get(st, { session: sid, call: e.callId });
      if (r?.data) {
        const info = JSON.parse(r.data) as { exit?: number; isError?: boolean; notRun?: boolean };
        this.applyResult(sid, e.callId, info);
      }
    }
  }

  private derivedResult(sid: number, eventId: number, e: PreparedEvent): void {
    const r = e.result!;
    if (e.callId) this.applyResult(sid, e.callId, r);
    const base = { event_id: eventId, session_id: sid, call_id: e.callId, time: e.time };
    for (const f of e.files ?? []) Q.insertFile.run(this.store, { ...base, ...f });
  }

  private applyResult(
    sid: number,
    call: string,
    { exit, isError, notRun, overwritten }: {
      exit?: number;
      isError?: boolean;
      notRun?: boolean;
      overwritten?: string;
    },
  ): void {
    if (notRun) {
      // A call that never ran (refused, denied, cancelled: core/model.ts `notRun`) is no
      // command, not a failed one; its file touches changed nothing.
      Q.deleteCommandOfCall.run(this.store, { session: sid, call });
      Q.failFiles.run(this.store, { session: sid, call });
      return;
    }
    const failed = isError === true || (exit !== undefined && exit !== 0);
    // The file a write replaced, kept as the write's old text (`deja restore` gives it back).
    if (overwritten !== undefined && !failed) {
      Q.setWriteOld.run(this.store, { old: overwritten, session: sid, call });
    }
    // A plain success changes nothing on the command row (exit stays unknown, not an error).
    if (exit === undefined && !failed) return;
    Q.setCommandExit.run(this.store, {
      exit: exit ?? null,
      is_error: failed ? 1 : 0,
      session: sid,
      call,
    });
    if (isError) Q.failFiles.run(this.store, { session: sid, call });
  }
}

/**
 * The models session `id` used in order of first use, from its events' model
 * switches, as the JSON array `sessions.models` holds; null for fewer than 2, but for one
 * its row does not name (a Crush reply left empty, trial 103 F8).
 */
function modelsJson(store: Store, id: number): string | null {
  const seen = new Set<string>();
  for (const { model } of Q.modelChanges.all(store, { session: id })) seen.add(model);
  if (seen.size === 1 && Q.sessionById.get(store, { id })?.model) return null;
  return seen.size ? JSON.stringify([...seen]) : null;
}
