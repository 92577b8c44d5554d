/**
 * One source of a run (lib/indexer.ts): what of it to read ({@link planSource}:
 * nothing when it is unchanged, its parse started otherwise), its writing in a
 * savepoint of the batch's transaction ({@link writeSource}), and a failed
 * read's record ({@link recordError}).
 *
 * @module
 */
import type { DriftKind, Env, Parser, SkipReason, SourceRef } from "../core/model.ts";
import { type DriftSummary, mergeDrift, mergeExamples, SourceCtx } from "./parse_ctx.ts";
import { Q } from "./schema.ts";
import { asIndexError, isCorruption, Store } from "./store.ts";
import {
  catchUpText,
  keptList,
  keptNote,
  type Loss,
  type MergePlan,
  SourceWriter,
  type WriteMode,
} from "./ingest.ts";
import { WriteBatch } from "./write_batch.ts";
import { releaseCopies } from "./copies.ts";
import type { PreparedChunk } from "./prepare.ts";
import {
  agedCounts,
  agedExamples,
  carriedBySessions,
  damageIn,
  maxCounts,
  withoutPending,
} from "./skips.ts";
import { damagedToNothing, damageLine, unreadIn } from "./store_damage.ts";
import { walDamage } from "./wal_check.ts";
import { ParsePool, type ParseRun, prepared } from "./parse_pool.ts";
import { redactDeep } from "./redact.ts";
import type { Label } from "./remote/label.ts";
import {
  fileHash,
  parseDrift,
  parseKept,
  parseSkipRecord,
  safeHeadHash,
  saveSource,
  stamp,
} from "./source_state.ts";
import { type SourceRow } from "./rows.ts";
import type { IndexOptions } from "./indexer.ts";
import { trace, traceNow, tracing } from "../core/trace.ts";
import { revisionOf } from "./version.ts";
import { fnv1a32 } from "../core/text.ts";
import { type HeldKeys, heldKeys, heldPlace } from "./held_keys.ts";
import { retireMovedFrom, storeState } from "./gone.ts";
import { dropSession } from "./drop_events.ts";
import { lockedAgain } from "./fresh/stamps.ts";

export interface SourceOutcome {
  /** Changed, but left for a full run (too large for an inline refresh). */
  pending?: boolean;
  read: boolean;
  sessions: number;
  /** `harness\u0000native id` of the sessions written (counted once over the run's stores). */
  written?: string[];
  events: number;
  skipped: Partial<Record<SkipReason, number>>;
  drift?: Partial<Record<DriftKind, number>>;
  error?: string;
  /** What a damaged read could not read (lib/store_damage.ts damageLine). */
  damage?: string;
  /**
   * A store that holds less than when last read, in words: an append store read again whole
   * because it shrank, or a store of whole sessions, whose read returned sessions with fewer
   * events than the index held; sessions deleted inside a database. The index follows it.
   */
  shrunk?: string;
  /** Stores of copies to read again: this store no longer holds their session (lib/copies.ts). */
  reread?: string[];
  /**
   * The store was gone when it came to be read (deleted or moved after discovery found it):
   * nothing of it is recorded, no error; what the index held of it stays (lib/gone.ts).
   */
  gone?: boolean;
}

/** A source to read: what its pass starts from, and its parse, started. */
export interface SourcePlan {
  src: SourceRef;
  /** Its parser (a damaged store is read again, see writeSource). */
  parser: Parser;
  prev: SourceRow | undefined;
  size: number;
  mtime: number;
  comps: string;
  offset: number;
  since: number;
  mode: WriteMode;
  hash: string | null;
  prevSkips: Partial<Record<SkipReason, number>>;
  /** Where earlier passes of the same append source (or a SQLite store's last read) skipped records. */
  prevExamples: string[];
  prevDrift: DriftSummary | undefined;
  /** Why a store the index holds is read whole as if for the first time: another revision of its parser read it. */
  readAgain?: "revision";
  /**
   * A rebuild's read: the store's sessions are what it holds now, damaged, emptied or cut short
   * (nothing is kept as the index held it; lib/indexer.ts says what went).
   */
  rebuild?: boolean;
  ctx: SourceCtx;
  chunks: ParseRun;
  label?: Label;
  /** Sessions (`harness\u0000native id`) the read leaves as the index holds them (IndexOptions.restore). */
  keep?: ReadonlySet<string>;
  /** A rebuild's sessions written so far this run (lib/ingest.ts SourceWriter `startOver`). */
  startOver?: ReadonlySet<string>;
}

/** A source's plan, or its outcome when there is nothing to read. */
export type Planned = SourcePlan | SourceOutcome;

/**
 * Decides what of `src` to read (nothing when it is unchanged) and starts its
 * parse. Writes to the index only outside a source's savepoint: a stamp
 * refreshed, an error recorded.
 */
export async function planSource(
  store: Store,
  env: Env,
  parser: Parser,
  src: SourceRef,
  rebuild: boolean,
  opts: IndexOptions & {
    pool?: ParsePool;
    keep?: ReadonlySet<string>;
    startOver?: ReadonlySet<string>;
  } = {},
  label?: Label,
): Promise<Planned> {
  const none: SourceOutcome = { read: false, sessions: 0, events: 0, skipped: {} };
  const [size, mtime] = stamp(src.path);
  const comps = JSON.stringify((src.companions ?? []).map(stamp));
  // A rebuild reads the source as if for the first time, replacing what it had; so does a
  // read by another revision of its parser (lib/version.ts REVISIONS): a fix reaches it.
  const row = rebuild ? undefined : Q.sourceByPath.get(store, { path: src.path });
  const again = row !== undefined && (row.reader ?? 0) !== revisionOf(src.harness);
  const readAgain = again ? "revision" : undefined;
  const prev = again ? undefined : row;
  const unchanged = prev && prev.kind === src.kind && prev.size === size && prev.mtime === mtime &&
    (prev.companions ?? "[]") === comps && !prev.error;
  if (unchanged) return none;
  if (opts.inlineMaxBytes !== undefined) {
    const grown = prev && prev.kind === "append" && src.kind === "append" && size >= prev.offset
      ? size - prev.offset
      : size;
    if (grown > opts.inlineMaxBytes) return { ...none, pending: true };
  }

  let offset = 0;
  let state: unknown = undefined;
  let since = 0;
  let mode: WriteMode = "full";
  let hash: string | null = null;
  let prevSkips: Partial<Record<SkipReason, number>> = {};
  let prevExamples: string[] = [];
  let prevDrift: DriftSummary | undefined;
  // The content-unchanged shortcuts below hold only while nothing else the sessions were read
  // from moved: a companion (a list beside the file) changed, or the file's mtime moved and a
  // session of it is dated by that mtime (`time_from_file`): then the source is read again whole.
  const sameElse = prev !== undefined && (prev.companions ?? "[]") === comps &&
    (prev.mtime === mtime || !Q.sourceDatedByFile.get(store, { source: src.path }));
  if (
    src.kind === "append" && prev && prev.kind === "append" && prev.offset > 0 && sameElse
  ) {
    // The same size with another mtime may be a rewrite in place (a secret scrubbed with
    // `sed -i`, trial 29): the head hash sees only the first and last few KB, so the store is
    // read again whole. A file that only grew keeps its shortcut.
    const rewritten = size === prev.offset && prev.mtime !== mtime;
    if (
      !rewritten && size >= prev.offset &&
      prev.head_hash === await safeHeadHash(src.path, prev.offset)
    ) {
      if (size === prev.offset) {
        saveSource(store, src, {
          size,
          mtime,
          companions: comps,
          offset: prev.offset,
          headHash: prev.head_hash,
          state: prev.state,
          watermark: 0,
          hash: null,
          // Ends where the last pass stopped: a line it found unfinished is gone, not pending.
          skipped: withoutPending(parseSkipRecord(prev.skipped)),
          drift: prev.drift,
        });
        return none;
      }
      // A store holding less than the index kept of it is read whole again as it grows: what
      // it holds again, or adds, is weighed against what was kept (trial 34: a file restored
      // whole after a cut stayed "holds less than before").
      if (!parseKept(prev.skipped)) {
        offset = prev.offset;
        state = prev.state ? JSON.parse(prev.state) : undefined;
        mode = "append";
        // A line the last pass found unfinished is this pass's to read (or count) again.
        const carried = withoutPending(parseSkipRecord(prev.skipped));
        prevSkips = carried.counts;
        prevExamples = carried.examples;
        prevDrift = parseDrift(prev.drift);
      }
    }
  } else if (src.kind === "document") {
    try {
      hash = await fileHash(src.path);
    } catch (e) {
      return recordError(store, src, prev, (e as Error).message);
    }
    if (prev && prev.hash === hash && !prev.error && sameElse) {
      saveSource(store, src, {
        size,
        mtime,
        companions: comps,
        offset: 0,
        headHash: null,
        state: null,
        watermark: 0,
        hash,
        skipped: parseSkipRecord(prev.skipped),
        drift: prev.drift,
      });
      return none;
    }
  } else if (src.kind === "sqlite" && !rebuild && !again) {
    since = prev && prev.kind === "sqlite" ? prev.watermark : 0;
    mode = "sessions";
    if (since > 0 && prev) {
      // Past the watermark: the sessions not read again keep what the last read skipped in them.
      const carried = carriedBySessions(parseSkipRecord(prev.skipped));
      prevSkips = carried.counts;
      prevExamples = carried.examples;
    }
  }

  // Read past the watermark: the sessions held, so that one the store holds and the index
  // lost is read again whatever its time (trial 89 F1: a store put back from a copy).
  const held = mode === "sessions" && since > 0
    ? new Set(Q.keysOfSource.all(store, { source: src.path }).map((r) => r.native_id))
    : undefined;
  const ctx = new SourceCtx(env, offset, state, since, held);
  const chunks: ParseRun = opts.pool
    ? opts.pool.parse(parser, src, ctx, size - offset, label)
    : { [Symbol.asyncIterator]: () => prepared(parser.parse(src, ctx), label, ctx), cancel() {} };
  return {
    src,
    parser,
    prev,
    size,
    mtime,
    comps,
    offset,
    since,
    mode,
    hash,
    prevSkips,
    prevExamples,
    prevDrift,
    ...(readAgain ? { readAgain } : {}),
    // Not a restore's read (`forget --unforget`), which keeps every session held as it is.
    ...(opts.rebuild ? { rebuild: true } : {}),
    ctx,
    chunks,
    ...(label ? { label } : {}),
    ...(opts.keep ? { keep: opts.keep } : {}),
    ...(opts.startOver ? { startOver: opts.startOver } : {}),
  };
}

/**
 * Writes a planned source in a savepoint of `batch`'s transaction: its
 * sessions, then its stamp.
 */
export async function writeSource(
  store: Store,
  plan: SourcePlan,
  batch: WriteBatch,
  /** Told the byte an append store's read reached, at each chunk written (a progress line). */
  reached?: (at: number, size: number) => void,
): Promise<SourceOutcome> {
  const { src, prev, size, mtime, comps, offset, since, mode, hash, label } = plan;
  let ctx = plan.ctx;
  const examples: string[] = [];
  const none: SourceOutcome = { read: false, sessions: 0, events: 0, skipped: {} };
  // What the write may change: what it reads, and what a read of the whole store replaces (a
  // 64 MB chat cut to 1 MB deletes 64 MB of events): lib/write_batch.ts writes it alone when large.
  const weight = Math.max(size - offset, mode !== "append" ? prev?.size ?? 0 : 0);
  try {
    batch.begin(weight);
  } catch (e) {
    plan.chunks.cancel();
    if (isCorruption(e)) throw asIndexError(e, store.path);
    return { ...none, error: `index busy: ${(e as Error).message}` };
  }
  let writer: SourceWriter;
  // Whether an error came from the harness store (the parser) or from the index (the writer).
  let parsing = false;
  try {
    const pass = async (
      chunks: AsyncIterable<PreparedChunk>,
      keep?: ReadonlySet<string>,
      merge?: ReadonlyMap<string, MergePlan>,
    ) => {
      // Read whole: the same sessions indexed under another of their paths go first.
      if (mode !== "append") { for (const other of src.supersedes ?? []) dropSource(store, other); }
      writer = new SourceWriter(store, src.path, mode, {
        keep,
        ...(merge ? { merge } : {}),
        whole: src.kind !== "append",
        ...(plan.startOver ? { startOver: plan.startOver } : {}),
      });
      parsing = true;
      // The trace's wait: time the writer spent for this source's chunks to come.
      let waited = 0, since = traceNow(), n = 0;
      if (tracing) trace(`write ${src.path} ${size - offset}`);
      for await (const chunk of chunks) {
        parsing = false;
        if (tracing) waited += traceNow() - since;
        writer.write(chunk);
        if (reached && chunk.at !== undefined) reached(chunk.at, size);
        if (tracing) since = traceNow(), n++;
        parsing = true;
      }
      parsing = false;
      if (tracing) waited += traceNow() - since;
      writer.finish(true);
      if (tracing) trace(`wrote ${src.path} chunks ${n} waited ${waited.toFixed(1)}`);
      return writer;
    };
    // An append store read whole again (it shrank, or its start changed, with an earlier
    // read; or a new revision of its parser read it): the keys of the events it held, to weigh
    // the read against (below). A rebuild follows the stores (lib/indexer.ts says what it
    // dropped).
    const shrank = mode === "full" && src.kind === "append" &&
      (prev !== undefined || plan.readAgain === "revision");
    const heldBefore = shrank ? heldKeys(store, src.path) : undefined;
    writer = await pass(plan.chunks, plan.keep);
    // A database read that returns less than the index held, read through a damaged -wal:
    // SQLite stopped applying it at the damage and said nothing, so what looks deleted is
    // damage (trial 114 F4: one bad frame read as 5 of 14 events, or a session, deleted).
    const walWhy = src.kind === "sqlite" && !plan.rebuild && !damageIn(ctx.counts) &&
        readsLess(store, src.path, writer, mode === "sessions" ? ctx.endHolds : undefined)
      ? walDamage(`${src.path}-wal`)
      : null;
    if (walWhy) ctx.skip("corrupt", `${src.path}-wal`, walWhy);
    // A damaged store's read replaces no session with less than the index held: read again,
    // keeping those sessions as they are (an undamaged read replaces them as the store says).
    // So does a store found empty that held sessions (as a store deleted keeps them: gone, kept).
    // Any store read whole counts: an append store is read whole again when it shrank (trial
    // 30: a Claude session emptied or overwritten with garbage left the index without a word).
    const damaged = !!damageIn(ctx.counts) || (mode === "full" && !!ctx.counts.empty);
    // A session of an append store read whole again is weighed against what the index held
    // (fateOf): what was cut off its end is kept (trials 31-32: a file cut short lost its
    // events), what was written after is added (trial 33), what was edited or deleted inside
    // it is followed (trial 35: a record deleted to scrub it stayed), and a read that cannot
    // be told from a rewrite is followed, and said (trial 30). So is a session of a log moved
    // here from its old path, gone (trial 34: moved and cut short, 7 of 14 events went): it
    // goes with the file. A new revision's reader that leaves a session out (not a session
    // to it) is followed.
    const dropsOwn = plan.readAgain === "revision" && !!ctx.counts.not_session;
    // A rebuild keeps nothing as held (trial 36: an emptied store's session stayed).
    const moved = plan.rebuild ? new Map<string, HeldKeys>() : writer.movedHeld;
    const weighed = moved.size ? new Map([...heldBefore ?? [], ...moved]) : heldBefore;
    /** Sessions left as the index holds them (not written), and those written over it. */
    const losses: Loss[] = [];
    const merges = new Map<string, MergePlan>();
    const continued: Loss[] = [];
    const shorter: Loss[] = [];
    /** Sessions a store of whole sessions returned emptied of events and title: kept. */
    const older: Loss[] = [];
    /** Seqs of the events kept that their store no longer holds, by session: marked KEPT. */
    const marks = new Map<string, number[]>();
    if (shrank || moved.size) {
      for (const l of writer.replaced()) {
        if (!shrank && !moved.has(l.key)) continue;
        const f = fateOf(store, l, weighed, dropsOwn);
        if (damaged && f.kind !== "rewritten") {
          // A damaged read's gaps are damage, not deletions: every event it misses is kept,
          // and marked so (trial 37: a record damaged in the middle went at the next append),
          // and only what came after it is added.
          const gaps = f.kind === "whole" ? f.gaps : [...f.plan?.drop ?? [], ...f.mark];
          if (f.kind === "whole" && !gaps.length) continue;
          if (gaps.length) marks.set(l.key, gaps);
          if (f.added && l.after) {
            merges.set(l.key, NO_CHANGE);
            continued.push({ ...l, added: f.added });
          } else losses.push(l);
          continue;
        }
        if (f.kind === "kept" && f.mark.length) marks.set(l.key, f.mark);
        // What the read returned is written over what was held (an event edited in place
        // keeps its key).
        if (f.kind === "kept" && l.after) {
          merges.set(l.key, f.plan ?? NO_CHANGE);
          continued.push(f.added ? { ...l, added: f.added } : l);
        } else if (f.kind === "kept" || (damaged && l.after < l.before)) losses.push(l);
        else if (f.kind === "rewritten" && l.after < l.before && plan.readAgain !== "revision") {
          shorter.push(l);
        }
      }
    } else if (
      damaged && (!plan.rebuild || unreadIn(ctx.counts)) &&
      (src.kind !== "append" || mode === "full")
    ) {
      // A rebuild takes a store emptied, or of lines that are not JSON, as it is now (trial
      // 36); one whose pages or bytes could not be read tells nothing of what it holds.
      losses.push(...writer.losses());
    } else if (src.kind !== "append" && !plan.rebuild && plan.readAgain !== "revision") {
      // A store of whole sessions (a database, a document) read again that returns a session
      // with fewer events than the index held: the harnesses delete messages in normal use
      // (opencode's revert drops those after the point reverted to, Crush deletes a summary
      // cancelled), so the index follows it, and says so (trial 111 F6: 10 messages deleted
      // in a Crush session left the index without a word). A session back with none of its
      // events and without its title, its row still there, is no such edit but an older state
      // of the store: kept as indexed (trial 111 F1: random bytes in opencode's -wal made
      // SQLite drop the frames after the first bad one, and the session's 14 events and
      // title left the index silently).
      for (const l of writer.shortened()) (l.after === 0 && l.untitled ? older : shorter).push(l);
      losses.push(...older);
    }
    const kept = losses.length + continued.length;
    const added = continued.reduce((n, l) => n + (l.added ?? 0), 0);
    // A session another store holds a better copy of stays as that store gave it (lib/copies.ts).
    const copies = writer.lostCopies(damaged);
    if (kept || copies.length) {
      batch.undo();
      batch.begin(weight);
      ctx = new SourceCtx(ctx.env, offset, undefined, since, ctx.held);
      const keep = new Set([...plan.keep ?? [], ...[...losses, ...copies].map((l) => l.key)]);
      writer = await pass(prepared(plan.parser.parse(src, ctx), label, ctx), keep, merges);
      if (walWhy) ctx.skip("corrupt", `${src.path}-wal`, walWhy);
      for (const [k, seqs] of marks) {
        const [harness, native_id] = k.split("\u0000");
        // In runs of seqs: a tail kept is one statement.
        for (let i = 0; i < seqs.length;) {
          let j = i;
          while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
          Q.markKept.run(store, { harness, native_id, from: seqs[i], to: seqs[j] });
          i = j + 1;
        }
      }
      if (kept) {
        const why = damaged
          ? "damaged"
          : older.length
          ? `it returned ${
            older.length === 1 ? "a session" : "sessions"
          } without the events and title the index held, the store's row still there: an older state of it (a copy put back, or damage SQLite does not report, such as a write-ahead log it stopped applying at a bad frame)`
          : "it holds less than before";
        examples.unshift(keptNote(src.path, [...losses, ...continued], why));
      }
    }
    // A database emptied, or no longer of its harness's schema (another program's file put in
    // its place), returns none of the sessions the index holds from it: kept as indexed, and
    // said so as of a file emptied (trial 91 F5: show, sources and doctor said nothing).
    const unsaid = mode === "sessions" && (ctx.counts.empty || ctx.counts.unknown_schema)
      ? Q.keysOfSource.all(store, { source: src.path }).map((r) => r.native_id)
      : [];
    // A database read past its watermark lists the sessions it holds: one the index holds from
    // it that it does not list was deleted inside it, and goes, as a read of the whole store
    // drops it (trial 86 F3: a session deleted in Crush stayed searchable, nothing said so).
    const deleted = mode === "sessions" && !damaged && ctx.endHolds
      ? dropDeletedInside(store, src.path, ctx.endHolds, writer)
      : [];
    // Said by `deja index`, and kept in the store's record for `deja sources`: a run on use
    // (lib/fresh) may be the one that met it.
    const shrunk = shrunkNote(src.path, src.kind === "append", shorter, deleted);
    if (shrunk) examples.unshift(`shrunk at ${shrunk}`);
    if (label) Q.setOriginOfSource.run(store, { origin: label.origin, source: src.path });
    for (const from of writer.movedFrom) retireMovedFrom(store, from);
    if (mode !== "append") Q.clearRedactions.run(store, { source: src.path });
    for (const [kind, count] of Object.entries(writer.redactions)) {
      Q.addRedactions.run(store, { source: src.path, kind, count });
    }
    // An append pass adds to the passes before; a SQLite read past its watermark may read a
    // session again with the same skips (lib/skips.ts carriedBySessions).
    const counts = mode === "sessions"
      ? maxCounts(plan.prevSkips, ctx.counts)
      : { ...plan.prevSkips };
    if (mode !== "sessions") {
      for (const [k, v] of Object.entries(ctx.counts)) {
        counts[k as SkipReason] = (counts[k as SkipReason] ?? 0) + (v ?? 0);
      }
    }
    const drift = mergeDrift(plan.prevDrift, ctx.drifted());
    const endOffset = src.kind === "append" ? ctx.endOffset ?? offset : 0;
    const hh = src.kind === "append" && endOffset > 0
      ? await safeHeadHash(src.path, endOffset)
      : null;
    const [keptSize, keptMtime] = src.kind === "append"
      ? stampAsRead(src.path, size, mtime, endOffset)
      : [size, mtime];
    saveSource(store, src, {
      size: keptSize,
      mtime: keptMtime,
      companions: comps,
      offset: endOffset,
      headHash: hh,
      // Masked as the session's texts are, with the values its cues named: a title kept here
      // comes back as the session's title at the next append (trial 114 F1).
      state: ctx.endState === undefined
        ? null
        : JSON.stringify(redactDeep(ctx.endState, {}, writer.named)),
      // A damaged read moves no watermark: the next read (of the store repaired) reads again
      // every session this one may have returned short, whole.
      watermark: damageIn(ctx.counts) ? since : ctx.endWatermark ?? since,
      hash,
      skipped: {
        counts,
        examples: [...examples, ...mergeExamples(plan.prevExamples, ctx.examples)],
        ...(kept
          ? { kept, keptIds: keptIds(losses, continued) }
          : unsaid.length
          ? { kept: unsaid.length, keptIds: unsaid.slice(0, 200) }
          : {}),
      },
      drift: JSON.stringify(drift),
    });
    batch.keep(size - offset);
    // Said as `deja sources` and `deja doctor` say it: a cut-off last line is `truncated`.
    const seen = agedCounts(ctx.counts as Record<string, number>, mtime);
    const damage = damageLine(
      src.path,
      seen,
      agedExamples(ctx.examples, mtime),
      kept || unsaid.length,
      added,
    );
    // A copy of sessions held from another store was read (lib/copies.ts): not nothing.
    const held = (Q.sourceTotals.get(store, { source: src.path })?.sessions ?? 0) +
      (Q.copyCount.get(store, { source: src.path })?.n ?? 0);
    const nothing = damagedToNothing(src.path, damage, held, ctx.counts);
    if (nothing) {
      const skipped = Q.sourceByPath.get(store, { path: src.path })?.skipped ?? null;
      Q.sourceError.run(store, { error: nothing, indexed_at: Date.now(), skipped, path: src.path });
    }
    // `deja index` names the sessions kept, as `deja sources --verbose` does (keptNote).
    const said = damage && kept ? `${damage}: ${keptList([...losses, ...continued])}` : damage;
    return {
      ...(nothing ? { error: nothing } : said ? { damage: said } : {}),
      ...(shrunk ? { shrunk } : {}),
      read: true,
      sessions: writer.sessions,
      written: writer.written,
      ...(writer.reread.length ? { reread: writer.reread } : {}),
      events: writer.events,
      skipped: seen,
      drift: ctx.driftCounts,
    };
  } catch (e) {
    if (!parsing && isCorruption(e)) throw asIndexError(e, store.path);
    try {
      batch.undo();
    } catch (u) {
      // The batch itself failed: its earlier sources are lost with it, and this one says why.
      batch.abort();
      if (isCorruption(u)) throw asIndexError(u, store.path);
    }
    const out = recordError(store, src, prev, (e as Error).message ?? String(e));
    return out.gone ? out : { ...out, read: true, skipped: ctx.counts };
  } finally {
    plan.chunks.cancel(); // a writer that stopped early: the parse is stopped too
  }
}

/**
 * The stamp an append store's row keeps after a read that ended at `endOffset`, the file
 * stamped `size`/`mtime` when the read was planned. A file that grew while it was read (the
 * session an agent is writing) was read past `size`: its row keeps `endOffset` as its size and
 * its mtime after the read, so the next run finds it unchanged, or grown past the offset, an
 * append read from there. Kept with the stamp of its start, the next run took the file ending
 * at the offset with another mtime for one rewritten in place and read it whole again (trial
 * 122 F1: 22.7 s to add nothing to a 1 GB session). A file read no further than `size`, or cut
 * below the offset since, keeps the stamp of its start: the next run sees any change.
 */
function stampAsRead(
  path: string,
  size: number,
  mtime: number,
  endOffset: number,
): [number, number] {
  // Read no further than planned: nothing to stamp again (a growth after the read's end is an
  // append the next run sees as one), and no stat more per store (issue 18).
  if (endOffset <= size) return [size, mtime];
  const [now, nowMtime] = stamp(path);
  return now >= endOffset ? [endOffset, nowMtime] : [size, mtime];
}

/**
 * Records that `src` could not be read, keeping its previous stamp. A store no
 * longer there (deleted or moved since discovery found it; trial 29: sessions
 * removed while `deja index` ran were errors until the next run) is no error:
 * nothing is recorded and the outcome says `gone`.
 */
export function recordError(
  store: Store,
  src: SourceRef,
  prev: SourceRow | undefined,
  message: string,
): SourceOutcome {
  if (storeState(src.path) === "gone") {
    return { read: false, sessions: 0, events: 0, skipped: {}, gone: true };
  }
  // Store errors often start with the path already; say it once.
  if (message.startsWith(`${src.path}: `)) message = message.slice(src.path.length + 2);
  // A lock met again is counted: its next retry waits longer (lib/fresh/stamps.ts). (`prev` is
  // no row of a store never read, nor of one its reader read before a fix.)
  message = lockedAgain(message, Q.sourceByPath.get(store, { path: src.path })?.error);
  // Keep the previous stamp and offset so the next run retries from where the last good pass ended.
  try {
    if (prev) {
      // The notes of the last read are this failure's: what an earlier whole read skipped or
      // kept is replaced (an append store's are kept: its next pass resumes after them).
      const skipped = prev.kind === "append" && src.kind === "append" ? prev.skipped : null;
      Q.sourceError.run(store, { error: message, indexed_at: Date.now(), skipped, path: src.path });
    } else {
      Q.upsertSource.run(store, {
        path: src.path,
        harness: src.harness,
        kind: src.kind,
        size: -1,
        mtime: -1,
        companions: "[]",
        offset: 0,
        head_hash: null,
        state: null,
        watermark: 0,
        hash: null,
        sessions: 0,
        events: 0,
        skipped: null,
        error: message,
        indexed_at: Date.now(),
        drift: null,
        reader: 0,
      });
    }
  } catch { /* the index itself is failing; the summary still says why */ }
  return { read: false, sessions: 0, events: 0, skipped: {}, error: message };
}

/** Removes what the index holds from one store path: its sessions, its row, its redaction counts. */
export function dropSource(store: Store, path: string): void {
  const sessions = Q.sessionsOfSource.all(store, { source: path });
  // Events of these sessions written earlier in the batch must be in events_fts before they go.
  if (sessions.length) catchUpText(store);
  for (const { id } of sessions) {
    const row = Q.sessionById.get(store, { id });
    dropSession(store, id);
    // The stores still holding a copy of it are read again (lib/copies.ts).
    if (row) releaseCopies(store, row.harness, row.native_id);
  }
  Q.forgetSource.run(store, { path });
  Q.clearRedactions.run(store, { source: path });
  Q.clearCopiesOf.run(store, { source: path });
}

/** A session written over what the index holds, nothing held dropped or replaced. */
const NO_CHANGE: MergePlan = { drop: [], at: new Map() };

/**
 * What became of session `l` in an append store read whole again (or moved), told by the
 * keys and times of the events this read wrote of it, in order, against those the index held
 * (`held`): a diff. The events held that the read still returns must come in the order held;
 * between two of them, events held and missing now were deleted (they go), or, as many new
 * ones in their place, edited (the new ones take their places). Events the index kept before,
 * their store no longer holding them (KEPT), are not missed: they stay. After the last event
 * returned:
 * - nothing held missing, nothing kept: `whole`, the read is the session (`gaps`: what it
 *   misses inside; `added`: what is new);
 * - events held missing (the file was cut short, a restore from an older copy), or events
 *   kept before: `kept`, those at the end kept (`mark`: to mark KEPT) and the new ones added
 *   whatever their time (`added`), with `plan` for what changed before them;
 * - unless as many events are new as missing at the end and none newer than any held (or
 *   the first new ones at the times of the missing ones, then more appended): the last ones
 *   edited in place (`whole`, or `kept` with them replaced when events were kept before).
 * A session not returned at all is `kept` (unless `leftOut`: the reader said it is none);
 * events out of the order held, or without keys, cannot be told: `rewritten`, followed.
 */
function fateOf(
  store: Store,
  l: Loss,
  held: Map<string, HeldKeys> | undefined,
  leftOut = false,
): { kind: "rewritten" } | Whole | Kept {
  const before = held?.get(l.key);
  const n = before?.seqs.length ?? 0;
  if (l.after === 0) {
    if (leftOut) return { kind: "rewritten" };
    return { kind: "kept", added: 0, mark: before ? [...before.seqs] : [] };
  }
  if (!before || !n) return { kind: "rewritten" };
  const [harness, id] = l.key.split("\u0000");
  const drop: number[] = [];
  const at = new Map<number, number>();
  /** The new events read since the last held one: key hashes and times. */
  let fresh: { h: number; time: number | null }[] = [];
  let last = -1, keptBefore = 0, inserted = 0;
  /** The places after `from` up to `to` (excluded) whose events were not kept before. */
  const missed = (from: number, to: number) => {
    const out: number[] = [];
    for (let p = from + 1; p < to; p++) {
      if (before.kept[p]) keptBefore++;
      else out.push(p);
    }
    return out;
  };
  for (const r of Q.eventKeysOfSession.iterate(store, { harness, native_id: id })) {
    if (r.key === null) return { kind: "rewritten" };
    const h = fnv1a32(r.key) | 0;
    const place = heldPlace(before, h);
    if (place < 0) {
      fresh.push({ h, time: r.time });
      continue;
    }
    if (place <= last) return { kind: "rewritten" };
    // Missing here: deleted; new here: each takes the place of one missing, in order, and
    // those beyond are appended (nothing held is lost for want of a place; trial 36: a
    // record deleted, then the file restored, lost the one appended meanwhile).
    const gone = missed(last, place);
    gone.forEach((p, i) => {
      drop.push(before.seqs[p]);
      if (i < fresh.length) at.set(fresh[i].h, before.seqs[p]);
    });
    inserted += Math.max(0, fresh.length - gone.length);
    fresh = [];
    last = place;
  }
  const tail = missed(last, n);
  if (!tail.length && !keptBefore) {
    return { kind: "whole", gaps: drop, added: fresh.length + inserted };
  }
  const newer = fresh.every((e) => e.time !== null && e.time > before.latest);
  let mark = tail.map((p) => before.seqs[p]);
  let added = fresh.length + inserted;
  // The last events edited in place: as many new ones as missing, none newer; or those, each
  // at the time of the one it edits, then more (trials 72, 74: the last reply scrubbed and
  // records appended before deja read the file: the old reply was kept as cut off, its words
  // still found). Otherwise what is
  // missing at the end is kept and what is new added, whatever its time (trial 36: new
  // records dated before the last kept one dropped all that was kept).
  // Edited in place, a record keeps its time to the millisecond: the first new ones carrying
  // the missing ones' times are those, the rest were written after (a cut file written to
  // anew has other times, trial 36).
  const k = tail.length;
  const editedThenAppended = k > 0 && fresh.length > k &&
    tail.every((p, i) => fresh[i].time !== null && fresh[i].time === before.times[p]);
  if (fresh.length && ((!newer && fresh.length === k) || editedThenAppended)) {
    const appended = fresh.length - k;
    if (!keptBefore) {
      return { kind: "whole", gaps: [...drop, ...mark], added: inserted + appended };
    }
    tail.forEach((p, i) => {
      drop.push(before.seqs[p]);
      at.set(fresh[i].h, before.seqs[p]);
    });
    mark = [];
    added = inserted + appended;
  }
  return { kind: "kept", added, mark, ...(drop.length || at.size ? { plan: { drop, at } } : {}) };
}

/**
 * {@link fateOf}: the read is the session; `gaps`, the seqs of the events held it misses
 * (deleted, edited: replaced), `added` the new events it holds.
 */
interface Whole {
  kind: "whole";
  gaps: number[];
  added: number;
}

/** {@link fateOf}: a session kept as the index held it, or written over what it held. */
interface Kept {
  kind: "kept";
  /** How to write it over what the index holds (absent: nothing held changed before its end). */
  plan?: MergePlan;
  /** New events after what was held. */
  added: number;
  /** Seqs of the events held that its store no longer holds: marked KEPT. */
  mark: number[];
}

/** The native ids of the sessions a read kept, for the store's record (the first 200). */
function keptIds(...lists: Loss[][]): string[] {
  return lists.flat().slice(0, 200).map((l) => l.id);
}

/**
 * Drops the sessions the index holds from database `path` whose native ids `holds` (every
 * session the store holds now) leaves out: deleted inside it. The stores holding copies of
 * them are added to the writer's `reread` (lib/copies.ts). Nothing goes when a session the
 * pass wrote is not in `holds`, or `holds` names sessions and none of those the index holds
 * from the store: the list does not name sessions as the parser does.
 *
 * @returns the native ids dropped.
 */
function dropDeletedInside(
  store: Store,
  path: string,
  holds: readonly string[],
  writer: SourceWriter,
): string[] {
  const here = new Set(holds);
  if (writer.written.some((k) => !here.has(k.slice(k.indexOf("\u0000") + 1)))) return [];
  const rows = Q.keysOfSource.all(store, { source: path });
  // A store that holds sessions but none the index holds from it: the same doubt.
  if (here.size && !rows.some((r) => here.has(r.native_id))) return [];
  const out: string[] = [];
  for (const row of rows) {
    if (here.has(row.native_id)) continue;
    // Events of this session written earlier in the batch must be in events_fts before they go.
    if (!out.length) catchUpText(store);
    dropSession(store, row.id);
    writer.reread.push(...releaseCopies(store, row.harness, row.native_id));
    out.push(row.native_id);
  }
  return out;
}

/**
 * Whether a pass over a database returned less than the index held from it: a session
 * with fewer events, or not at all (`holds`: the sessions a read past the watermark
 * says the store holds).
 */
function readsLess(
  store: Store,
  path: string,
  writer: SourceWriter,
  holds: readonly string[] | undefined,
): boolean {
  if (writer.losses().length) return true;
  if (!holds) return false;
  const here = new Set(holds);
  return Q.keysOfSource.all(store, { source: path }).some((r) => !here.has(r.native_id));
}

/** {@link SourceOutcome.shrunk} of a database that sessions were deleted inside. */
function deletedLine(path: string, ids: string[]): string {
  const list = ids.slice(0, 3).map((id) => id.slice(0, 8));
  if (ids.length > 3) list.push(`${ids.length - 3} more`);
  return `${path}: ${
    ids.length === 1 ? "1 session was" : `${ids.length} sessions were`
  } deleted inside it since it was last read; the index follows it (${list.join(", ")})`;
}

/**
 * {@link SourceOutcome.shrunk}: `path: holds less than when last read (rewritten shorter);
 * the index follows it: 1 session now shorter (a1b2c3d4 14 -> 7 events)` (a store of whole
 * sessions: `messages deleted inside it`), and the sessions deleted inside a database; null
 * when neither.
 */
function shrunkNote(
  path: string,
  append: boolean,
  shorter: Loss[],
  deleted: string[],
): string | null {
  const gone = deleted.length ? deletedLine(path, deleted) : null;
  if (!shorter.length) return gone;
  const list = shorter.slice(0, 3).map((l) =>
    `${l.id.slice(0, 8)} ${l.before} -> ${l.after} events`
  );
  if (shorter.length > 3) list.push(`${shorter.length - 3} more`);
  const line = `${path}: holds less than when last read (${
    append ? "rewritten shorter" : "messages deleted inside it"
  }); the index follows it: ${
    shorter.length === 1 ? "1 session" : `${shorter.length} sessions`
  } now shorter (${list.join(", ")})`;
  return gone ? `${line}; ${gone.slice(path.length + 2)}` : line;
}
