/**
 * `deja index`: discover every harness's stores, re-read what changed, and
 * write it to the index, each source in a savepoint of its own (its writes
 * stand or fall together), small ones several to a transaction
 * (lib/write_batch.ts).
 *
 * What "changed" means per source kind:
 * - append (JSONL): size and mtime differ. When the file grew and the bytes
 *   before the stored offset are unchanged (a hash of its head and of the 4 KiB
 *   before the offset), parsing resumes at the offset; a file that shrank or
 *   whose prefix changed is re-read whole.
 * - document: size or mtime differ *and* the content hash differs.
 * Either is read again whole, whatever its content, when a companion (a file
 * read beside it) changed, or when its mtime moved and a session of it is
 * dated by that mtime (`time_from_file`).
 * - sqlite: size or mtime of the database or its `-wal` differ; the parser
 *   re-reads from its watermark.
 * An unchanged source is never opened: a no-op run reads no file bodies.
 *
 * @module
 */
import { oneLine } from "../core/text.ts";
import type {
  DiscoverCtx,
  Discovery,
  DriftKind,
  Env,
  Parser,
  SkipReason,
  SourceRef,
} from "../core/model.ts";
import { applyWriterSettings, Q } from "./schema.ts";
import { READERS, REDACTION, REVISIONS } from "./version.ts";
import {
  rereadLine,
  type Revised,
  revisedStores,
  VOCAB_OWED_KEY,
  vocabOwed,
} from "./fresh/revised.ts";
import { reredactGone } from "./fresh/reredact.ts";
import { rewriteFile } from "./rewrite_file.ts";
import { existsSync, lstatSync, statSync } from "node:fs";
import { DejaError } from "../core/errors.ts";
import { readTombstones, tombstoneFile } from "./forget/tombstones.ts";
import { emptySummary } from "./index_summary.ts";
import { basename, dirname, join, sep } from "node:path";
import { ensureReplays, markReplays } from "./replays.ts";
import {
  acquireWriterLock,
  asIndexError,
  checkIndex,
  clearDamage,
  type DeletedIndex,
  deletedIndex,
  IndexDamaged,
  indexPath,
  isDiskFull,
  isLogLost,
  moveIndexAside,
  NOT_DEJA,
  readOnlyIndexError,
  readOnlyWhy,
  Store,
} from "./store.ts";
import { dataDir, isAbsoluteAny } from "../core/paths.ts";
import { WriteBatch } from "./write_batch.ts";
import { newlyGone } from "./gone.ts";
import { releaseGoneHolders } from "./copies.ts";
import { rebuildVocab } from "./search/vocab_rebuild.ts";
import { markRebuild, pendingRebuild, rebuildDone } from "./rebuild_mark.ts";
import { GROUP_BYTES, GROUP_SOURCES, JOB_DEPTH, ParsePool, poolSize } from "./parse_pool.ts";
import { dropExcluded, makeGate, setGate } from "./forget/gate.ts";
import { reapplyTombstones, type Reforgotten } from "./forget/reapply.ts";
import { releaseExcluded } from "./forget/exclusions.ts";
import { NORMALIZE_PROJECTS_SQL } from "./project_path.ts";
import { saveManifest } from "./fresh/noop.ts";
import { buildAssociations } from "./search/assoc.ts";
import {
  FRESH_KEY,
  type FreshMap,
  harnessDirs,
  parseFreshMap,
  placesStamp,
  stampDirs,
} from "./fresh/map.ts";
import { sweepCopies } from "../core/sqlite_read.ts";
import { isNotAStore, problemLine, withPermissionHint } from "../core/fs.ts";
import type { Label } from "./remote/label.ts";
import { type MirrorPass, mirrorPasses } from "./remote/passes.ts";
import { rebaser } from "./remote/mirror.ts";
import { stamp } from "./source_state.ts";
import {
  dropSource,
  type Planned,
  planSource,
  type SourceOutcome,
  writeSource,
} from "./index_source.ts";
import { trace } from "../core/trace.ts";
import { cores } from "../core/runtime.ts";
import { clearIdle, whenIdle } from "./idle.ts";

/** Per-harness result of one run. */
export interface HarnessSummary {
  harness: string;
  /** Roots discovery looked at. */
  roots: string[];
  /** Stores found. */
  found: number;
  /** Stores re-read this run. */
  read: number;
  /**
   * Sessions written (new or changed) this run, one per store that holds them:
   * a session two stores hold (copies of one file) counts twice, see {@link copies}.
   */
  sessions: number;
  /**
   * Of {@link sessions}, writes of a session another store read this run also
   * wrote (copies of one file under other names): the index gained
   * `sessions - copies` distinct sessions. Absent when none.
   */
  copies?: number;
  /** Events written this run. */
  events: number;
  /** Records skipped this run, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
  /** Drift noted this run, by kind (`deja drift` shows it). */
  drift: Partial<Record<DriftKind, number>>;
  /** `path: message` for each store that could not be read (and each discovery problem). */
  errors: string[];
  /** Stores that could not be read this run. */
  failed: number;
  /**
   * What discovery passed over that is no store (a link to nothing, a FIFO or
   * device where a store would be), `path: why`: information, not an error.
   * Absent when none.
   */
  not_read?: string[];
  /**
   * Stores discovery found that were gone when they came to be read (deleted or moved
   * while the run went on): counted, no error. Absent when none.
   */
  gone_while_read?: { count: number; first: string };
  /**
   * Stores that hold less than when last read, the index following them (index_source.ts
   * `shrunk`). Absent when none.
   */
  shrunk?: string[];
  /** Per store this run found damaged, what it could not read (lib/store_damage.ts damageLine). Absent when none. */
  damaged?: string[];
  /** The remote whose mirror was read (absent: this machine's stores). */
  origin?: string;
  /**
   * Discovery reported a problem, so stores may be missing from `found` (not for a FIFO,
   * socket or device itself, which is no store: see `passedOver`).
   */
  discoveryFailed?: boolean;
}

/** Options of {@link runIndex}. */
export interface IndexOptions {
  /**
   * Re-read every selected store whole and drop sessions whose store is gone.
   * Done in place, one source at a time, so searches keep working meanwhile;
   * only an index that cannot be opened at all is deleted first.
   */
  rebuild?: boolean;
  /** Only these harness ids. */
  only?: string[];
  /**
   * Read every selected store whole, writing only the sessions the index does not hold when
   * the harness's turn comes (what `deja forget --unforget` brings back, from every store that
   * holds a part of it): each session held stays as it is, with the events other stores merged
   * into it. (A store read whole otherwise replaces its sessions, and a session of two append
   * logs, Codex's rollout and history.jsonl, lost the other log's events.)
   */
  restore?: boolean;
  /** How long to wait for another writer, in milliseconds (default 0: fail at once). */
  waitMs?: number;
  /** The hint when another writer holds the index (lib/store.ts `acquireWriterLock`). */
  busyHint?: string;
  /** Called with how long the run waited for the writer lock, in milliseconds. */
  waited?(ms: number): void;
  /** The run is one of `deja index --watch`'s (said to a writer the lock turns away). */
  watch?: boolean;
  /** Progress line for a terminal. */
  progress?(line: string): void;
  /**
   * A `performance.now()` time after which no further store is read (freshen
   * on use); the stores left are counted in {@link IndexResult.pending}.
   */
  deadline?: number;
  /** Stores with more bytes than this to read are left for a full run (counted as pending). */
  inlineMaxBytes?: number;
  /**
   * Read the mirrors of remotes (`deja remote sync`) too; default: on a full
   * run (no `deadline`, no `inlineMaxBytes`), off on a refresh on use.
   */
  remotes?: boolean;
  /**
   * Tell of stores newly gone ({@link IndexResult.gone}); off for a run no one
   * reads (`--quiet`, a background run), so the telling is not used up unseen.
   */
  tellGone?: boolean;
}

/** Result of one run. */
export interface IndexResult {
  harnesses: HarnessSummary[];
  /** Sessions removed because their project is excluded (added to the exclude list since). */
  excluded: number;
  /** Wall time in milliseconds. */
  ms: number;
  /**
   * Of {@link ms}, the time spent waiting for another writer (`deja index` sets it, when 10 ms
   * or more).
   */
  waitedMs?: number;
  /** Stores that changed but were left unread (deadline or size, see {@link IndexOptions}). */
  pending: number;
  /** Where a rebuild moved a damaged index (absent when nothing was moved). */
  movedAside?: string;
  /** What it moved aside was another program's database, not a deja index (lib/store.ts `foreignIndex`). */
  notDeja?: true;
  /**
   * The index file was deleted while the manifest beside it said it held sessions, and this
   * run built a new one (lib/store.ts `deletedIndex`): what the old one held, and how many of
   * its stores are gone since (their sessions went with it). Absent otherwise, and on a rebuild.
   */
  deleted?: DeletedIndex;
  /**
   * Stores found gone (deleted or moved) that no earlier run told of; their
   * sessions stay in the index (lib/gone.ts). Absent when none, on a refresh on
   * use, and on a rebuild (which drops them).
   */
  gone?: string[];
  /**
   * What a rebuild dropped that the index held before it: the sessions no store returned
   * (those of stores gone), and the events of sessions their stores hold fewer of (what a plain
   * run kept of a file cut short). A plain run keeps both; a rebuild starts from the stores.
   */
  dropped?: Dropped;
  /**
   * Forgotten sessions the index held again (it lost the writes that removed them), removed
   * again now (lib/forget/reapply.ts). Absent when none.
   */
  reforgotten?: Reforgotten;
  /**
   * Stores this run read again whole because an older reader of their harness or an older
   * secrets redaction had read them (lib/fresh/revised.ts): their harnesses, how many, and how
   * many of them for the redaction. Absent when none.
   */
  reread?: Revised;
  /**
   * The harnesses of a rebuild a signal interrupted, which this plain run finished as a
   * rebuild (lib/rebuild_mark.ts; trial 123 F2). Absent when none.
   */
  resumedRebuild?: string[];
}

/** {@link IndexResult.dropped}: how many, and the first few. */
export interface Dropped {
  /** Sessions no store returns now. */
  count: number;
  first: { harness: string; id: string; source: string }[];
  /** Sessions of fewer events than the index held (kept of a store cut short): their events dropped. */
  shortened: {
    count: number;
    events: number;
    first: { harness: string; id: string; source: string; before: number; after: number }[];
  };
}

/**
 * Runs one index pass.
 *
 * A damaged index file stops a plain run with {@link IndexDamaged} (one line,
 * naming the file). A rebuild repairs it: the file is checked first
 * (`quick_check`), and when it is damaged, or cannot be opened, or damage shows
 * during the pass, it is moved aside to `index.db.corrupt-<time>` and a new
 * one is started; notes and tombstones live beside it and are kept.
 *
 * @throws {DejaError} when the index is busy, damaged (without `rebuild`) or
 *   cannot be opened.
 */
export async function runIndex(
  env: Env,
  parsers: readonly Parser[],
  opts: IndexOptions = {},
): Promise<IndexResult> {
  const t0 = performance.now();
  trace("index run");
  // A run with a deadline is a refresh on use: short, so another writer waits for it.
  const lock = acquireWriterLock(
    dataDir(env),
    opts.waitMs ?? 0,
    opts.deadline === undefined
      ? { watch: opts.watch }
      : { doing: "refreshing it on use", brief: true },
    opts.busyHint,
  );
  opts.waited?.(lock.waitedMs);
  const path = indexPath(env);
  // Where large sources are parsed while the previous chunks are written.
  const pool = new ParsePool(env, poolSize(cores()));
  try {
    sweepCopies(env); // store copies a killed run left behind
    let movedAside: string | undefined;
    const aside = () => (movedAside = moveIndexAside(path));
    let notDeja = false;
    if (opts.rebuild && existsSync(path)) {
      const damage = checkIndex(path);
      notDeja = damage?.startsWith(NOT_DEJA) ?? false;
      if (damage !== null) aside();
    }
    let pass: Pass;
    try {
      pass = await onePass(env, path, parsers, pool, opts, Boolean(opts.rebuild) && aside);
    } catch (e) {
      // Damage quick_check cannot see (an FTS5 segment) shows only when a page is read.
      if (!(opts.rebuild && e instanceof IndexDamaged && !movedAside)) throw e;
      aside();
      pool.close(); // the jobs of the pass that stopped are not read
      pass = await onePass(env, path, parsers, pool, opts, false);
    }
    // A later no-op run answers from the stat manifest while the index stays as this one left it
    // (not while stores newly gone are left to tell of: that run reads the index).
    const { untold, file, ...res } = pass;
    // The file deleted or replaced while this run wrote it: what it wrote went with the old
    // one (trial 67: "400 sessions written; the index holds 0", exit 0).
    if (file && fileId(path) !== file) {
      throw new DejaError(
        `the index ${path} was deleted or replaced while this run wrote it: what it wrote is not ` +
          "in the file there now",
        "run 'deja index' again",
        2,
      );
    }
    // A new index: what a command found damaged in the old one is no longer so.
    if (opts.rebuild) clearDamage(path);
    if (opts.deadline === undefined && opts.inlineMaxBytes === undefined && !untold) {
      saveManifest(path);
      trace("manifest saved");
    }
    // What the damaged index held that no store returns now is named as a rebuild names it
    // (trial 67: two sessions whose files were emptied or deleted went without a word).
    const lost = movedAside ? droppedAfterAside(movedAside, path) : undefined;
    return {
      ...res,
      ms: performance.now() - t0,
      ...(movedAside ? { movedAside } : {}),
      ...(movedAside && notDeja ? { notDeja: true as const } : {}),
      ...(lost ? { dropped: lost } : {}),
    };
  } finally {
    pool.close();
    lock.release();
  }
}

/** What one pass over the harnesses yields. */
type Pass =
  & Pick<
    IndexResult,
    | "harnesses"
    | "excluded"
    | "pending"
    | "gone"
    | "dropped"
    | "reforgotten"
    | "resumedRebuild"
    | "deleted"
  >
  & {
    /** Stores newly gone that this run did not tell of: the next run must not be a stat pass. */
    untold?: boolean;
    /** The index file this pass wrote (device and inode), to know it is still the one in place. */
    file?: string;
  };

/** Device and inode of the file at `path`, or undefined when there is none. */
function fileId(path: string): string | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : undefined;
}

/** Opens (creating) the index and indexes every selected harness into it. */
async function onePass(
  env: Env,
  path: string,
  parsers: readonly Parser[],
  pool: ParsePool,
  opts: IndexOptions,
  aside: false | (() => void),
): Promise<Pass> {
  let store: Store;
  // No index file yet: a first build, which holds nothing of the user's (lib/schema.ts FIRST_BUILD_PRAGMAS).
  const firstBuild = !existsSync(path);
  // An index deleted while its manifest says it held sessions: said by the run that replaces it
  // (not by a rebuild, which starts over from the stores as asked; trial 127 F5's neighbour).
  const deleted = firstBuild && !opts.rebuild ? deletedIndex(path) : null;
  try {
    store = Store.open(path, { create: true });
  } catch (e) {
    // A rebuild starts over from an index it cannot open (damaged, newer schema), keeping the file;
    // never from one on a full disk, which is sound (trial 111 F4: each rebuild set it aside).
    // Nor from one whose -wal was removed under another process that holds it (trial 114 F5).
    if (!aside || !existsSync(path) || isDiskFull(e, path) || isLogLost(e, path)) throw e;
    aside();
    store = Store.open(path, { create: true });
  }
  if (store.frozen) {
    // Opened as it is, read-only or in a folder deja may not write to (lib/store.ts): no run
    // can write it.
    store.close();
    throw readOnlyIndexError("'deja index'", readOnlyWhy(path));
  }
  applyWriterSettings(store.db, firstBuild);
  const file = fileId(path);
  trace("index open");
  try {
    // Forgotten sessions and excluded projects are left out of every source read,
    // and sessions of a project excluded since the last run leave the index now.
    setGate(store, makeGate(env, path));
    // Forgotten sessions the index holds again, having lost the writes that removed them.
    const reforgotten = reapplyTombstones(store);
    // Stores whose sessions a pattern since removed had dropped are read again whole.
    releaseExcluded(store, env);
    // Projects indexed before the path rule (lib/project_path.ts) are brought in line.
    store.db.exec(NORMALIZE_PROJECTS_SQL);
    const excluded = dropExcluded(store, env);
    // Sessions held from stores now gone are read again from the stores holding copies of them.
    store.tx(() => releaseGoneHolders(store));
    trace("gates set");
    const out: HarnessSummary[] = [];
    const seen = new Set<string>();
    const selected = parsers.filter((p) => !opts.only || opts.only.includes(p.id));
    const ids = selected.map((p) => p.id);
    const full = opts.deadline === undefined && opts.inlineMaxBytes === undefined;
    // A rebuild a signal interrupted is not forgotten: the next full run is one (trial 123 F2:
    // the next 'deja index' said "up to date" and kept what the rebuild was to drop).
    const resumed = !opts.rebuild && full
      ? pendingRebuild(store).filter((h) => ids.includes(h))
      : [];
    if (resumed.length) opts = { ...opts, rebuild: true };
    if (opts.rebuild) markRebuild(store, ids);
    // Stores an older reader or secrets redaction read (lib/version.ts REVISIONS, REDACTION):
    // what it let through leaves every table this run rewrites, and the pages it freed are
    // zeroed, not only the events read again (trial 128 F5: the vocabulary kept 30 passwords
    // after the re-read). Asked of the stores, not of the last run's record: a run of one
    // harness (`--harness`) leaves the others' to the next run (trial 129 F4).
    const older = opts.rebuild ? undefined : revisedStores(store);
    const revised = full ? older : undefined;
    // A refresh on use reading stores an older redaction read zeroes what it frees too, and
    // leaves the vocabulary to the next full run to make again (trial 132 F3: a search that
    // read every store again left the old values in `vocab`, and no run after made it again).
    const owed = full && vocabOwed(store);
    const reredact = (revised?.stores ?? 0) > 0 || owed;
    if (reredact || (older?.redaction ?? 0) > 0) store.db.exec("PRAGMA secure_delete = ON");
    if (!full && (older?.redaction ?? 0) > 0) {
      Q.setMeta.run(store, { key: VOCAB_OWED_KEY, value: "1" });
    }
    // Said, so that a run reading everything again is no mystery (trial 129 F5).
    const reread = revised && revisedStores(store, ids);
    if (reread?.stores) opts.progress?.(rereadLine(reread));
    // What older redaction rules let through may also lie where no row is: in the free space
    // of pages an older deja wrote and never zeroed (trial 135 F5). A run reading such stores
    // rewrites the file at its end; owed until then, so that a run cut short leaves it to the
    // next full run, as a refresh on use does.
    const scrub = owed || (reread?.redaction ?? 0) > 0;
    if (scrub && !owed) Q.setMeta.run(store, { key: VOCAB_OWED_KEY, value: "1" });
    // A rebuild drops what no store returns: the sessions held before it, to say which.
    const heldBefore = opts.rebuild ? sessionKeys(store) : undefined;
    const fresh = parseFreshMap(Q.getMeta.get(store, { key: FRESH_KEY })?.value);
    const run: RunState = {
      pending: 0,
      fresh,
      pool,
      ahead: new Map(),
      begun: new Set(),
      ...(opts.rebuild ? { rebuilt: new Set() } : {}),
    };
    // The harnesses after the first are discovered while the writer waits for a worker's
    // chunk (lib/idle.ts), not one after another once the last store is written.
    for (const parser of selected.slice(1)) {
      whenIdle(() => {
        if (!run.begun.has(parser.id)) run.ahead.set(parser.id, discoverAhead(env, parser));
      });
    }
    try {
      for (const parser of selected) {
        out.push(await indexHarness(store, env, parser, opts, seen, run));
      }
    } finally {
      clearIdle();
    }
    const reading = opts.remotes ?? full;
    const mirrors: MirrorPass[] = mirrorPasses(env);
    for (const m of mirrors) {
      if (!reading || !m.readable) continue;
      for (const parser of selected) {
        out.push(await indexHarness(store, m.env, parser, opts, seen, run, m.label));
      }
    }
    // Every source is read: the workers stop now, while the run's end is written (a worker's
    // end cost the writer's thread 50-90 ms when it came last, issue 18).
    pool.close();
    trace("pool closed");
    // A mirror not read this pass (mid-sync, or a refresh on use) keeps what it had.
    const kept = (path: string) =>
      mirrors.some((m) => (!reading || !m.readable) && path.startsWith(m.dir + "/"));
    // The steps after the stores take seconds on a big index (a rebuild's merge of the text
    // index, the events of stores gone it drops): the line says so, and a pipe's line every
    // 10 s gets its turn between them (trial 123 F3: 13-22 s without one).
    const finishing = (what: string) => opts.progress?.(`finishing · ${what}`);
    // A harness whose discovery reported a problem (a damaged registry, an unreadable
    // directory) may have missed stores that still exist: its indexed sources are kept.
    const complete = out.filter((h) => !h.origin && !h.discoveryFailed).map((h) => h.harness);
    if (opts.rebuild) {
      finishing("dropping what no store returns");
      dropVanished(store, complete, seen, kept);
    }
    const tell = opts.tellGone === true;
    const gone = full && !opts.rebuild ? newlyGone(store, complete, kept, tell, seen) : [];
    trace("gone checked");
    // Calls one session replays from another (lib/replays.ts): again whenever calls were
    // written or dropped, and once on an index whose table was never filled (after its
    // migration).
    finishing("marking replayed calls");
    if (out.some((h) => h.read > 0) || gone.length) markReplays(store);
    else ensureReplays(store);
    trace("replays marked");
    // Words the history uses together, for questions in other words (lib/search/assoc.ts).
    if (full) {
      finishing("words used together");
      buildAssociations(store);
    }
    trace("associations built");
    // A rebuild wrote every event again over the old ones: the text index held the new
    // segments beside the old ones' deletions, unmerged (trial 26: 174 -> 192 -> 233 MB over
    // two rebuilds of a 420 MB corpus). Merged into one, what was deleted goes.
    // Sessions of stores gone since cannot be read again: redacted again in place (trial 129 F2).
    if (reredact) {
      finishing("masking what stores gone since hold");
      reredactGone(store);
      trace("gone stores redacted again");
    }
    if (opts.rebuild || reredact) {
      // The words of the old events leave with them (a rebuild starts from the stores as they
      // are now; trial 76: a scrubbed word stayed in `vocab`).
      finishing("the vocabulary");
      rebuildVocab(store);
      trace("vocabulary rebuilt");
      finishing("merging the text index");
      store.db.exec("INSERT INTO events_fts(events_fts) VALUES ('optimize')");
      store.db.exec("INSERT INTO vocab_tri(vocab_tri) VALUES ('optimize')");
      trace("text index merged");
    }
    // A harness whose rebuild is still to finish keeps a run from vouching for the index.
    const rebuildLeft = opts.rebuild ? rebuildDone(store, ids) : pendingRebuild(store);
    // Pages freed by the events of stores read again (and by segment merges) go back to the
    // file system: 1.6 MB of the 100 MB bench's 60 MB index (issue 18), and more with each
    // re-read. A pragma that frees one page a step (`exec` stepped it once under Deno).
    if (scrub) {
      finishing("writing the index file again whole");
      try {
        rewriteFile(store);
        store.db.prepare("DELETE FROM meta WHERE key = ?").run(VOCAB_OWED_KEY);
        // The log's older frames hold the pages as they were: copied back and cut now, unless
        // a reader on an older snapshot holds them (they go when it ends).
        store.db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
        trace("index file rewritten");
      } catch (e) {
        // The copy a rewrite makes needs the index's size free again: without it the run's
        // work stands, the rewrite stays owed (meta `vocab_owed`) to the next full run, said.
        opts.progress?.(
          `could not write index.db again whole (${
            oneLine(String((e as Error)?.message ?? e), 120)
          }); the next 'deja index' tries again`,
        );
      }
    } else if (full) {
      finishing("giving free pages back");
      store.db.prepare("PRAGMA incremental_vacuum").all();
      trace("free pages given back");
    }
    Q.setMeta.run(store, { key: FRESH_KEY, value: JSON.stringify(fresh) });
    // A refresh on use is not a full pass: the last full run's record stays.
    if (opts.deadline === undefined && opts.inlineMaxBytes === undefined) {
      Q.setMeta.run(store, {
        key: "last_index",
        value: JSON.stringify({
          at: Date.now(),
          readers: READERS,
          redaction: REDACTION,
          revisions: REVISIONS,
          harnesses: out.map((h) => ({ ...h })),
        }),
      });
    }
    const dropped = heldBefore && droppedSince(store, heldBefore);
    return {
      harnesses: out,
      excluded,
      pending: run.pending,
      ...(gone.length ? (tell ? { gone } : { untold: true }) : {}),
      ...(rebuildLeft.length ? { untold: true } : {}),
      ...(resumed.length ? { resumedRebuild: resumed } : {}),
      ...(dropped ? { dropped } : {}),
      ...(reread?.stores ? { reread } : {}),
      ...(reforgotten ? { reforgotten } : {}),
      ...(deleted ? { deleted } : {}),
      ...(file ? { file } : {}),
    };
  } catch (e) {
    // Harness stores are read inside planSource/writeSource, which report their damage per source;
    // a corruption error that gets here came from the index.
    throw asIndexError(e, path);
  } finally {
    store.close();
    trace("index closed");
  }
}

/** The sessions the index holds, `harness\u0000native id` -> the store they were read from. */
function sessionKeys(store: Store): Map<string, { source: string; events: number }> {
  const out = new Map<string, { source: string; events: number }>();
  for (const r of Q.sessionKeysAll.iterate(store, {})) {
    out.set(`${r.harness}\u0000${r.native_id}`, { source: r.source, events: r.events });
  }
  return out;
}

/**
 * Of the sessions the index moved aside at `aside` held (as far as its damage lets them be
 * read), those the new index at `path` lacks or holds fewer events of; undefined when none,
 * or when the old file's sessions cannot be read at all.
 */
function droppedAfterAside(aside: string, path: string): Dropped | undefined {
  let before: Map<string, { source: string; events: number }>;
  try {
    const old = Store.open(aside, { readOnly: true });
    try {
      before = sessionKeys(old);
    } finally {
      old.close();
    }
  } catch {
    return undefined;
  }
  // A forgotten session is left out by its tombstone, not dropped (trial 69: it was named as
  // one "no store returns now").
  for (const t of readTombstones(tombstoneFile(path))) before.delete(`${t.harness}\u0000${t.id}`);
  const now = Store.open(path, { readOnly: true });
  try {
    return droppedSince(now, before);
  } finally {
    now.close();
  }
}

/**
 * Of the sessions `before` (from {@link sessionKeys}), those the index no longer holds, and
 * those it holds fewer events of (what a plain run kept of a store cut short).
 */
function droppedSince(
  store: Store,
  before: Map<string, { source: string; events: number }>,
): Dropped | undefined {
  const shorter: Dropped["shortened"]["first"] = [];
  let shortened = 0, events = 0;
  for (const r of Q.sessionKeysAll.iterate(store, {})) {
    const k = `${r.harness}\u0000${r.native_id}`;
    const b = before.get(k);
    before.delete(k);
    if (!b || r.events >= b.events) continue;
    shortened++;
    events += b.events - r.events;
    if (shorter.length < 5) {
      shorter.push({
        harness: r.harness,
        id: r.native_id,
        source: r.source,
        before: b.events,
        after: r.events,
      });
    }
  }
  if (!before.size && !shortened) return undefined;
  const first = [...before].slice(0, 5).map(([k, b]) => {
    const [harness, id] = k.split("\u0000");
    return { harness, id, source: b.source };
  });
  return { count: before.size, first, shortened: { count: shortened, events, first: shorter } };
}

/**
 * After a rebuild: sessions and source rows of stores that no longer exist are
 * removed, for the harnesses given (those whose discovery was complete), except
 * what `kept` says stays (a remote's mirror not read this pass).
 */
function dropVanished(
  store: Store,
  harnesses: string[],
  seen: Set<string>,
  kept: (path: string) => boolean,
): void {
  store.tx(() => {
    for (const h of harnesses) {
      for (const { path } of Q.sourcesOfHarness.all(store, { harness: h })) {
        if (!seen.has(path) && !kept(path)) dropSource(store, path);
      }
    }
  });
}

/** What one run carries across harnesses. */
interface RunState {
  /** Changed stores left unread. */
  pending: number;
  /** The freshness map, updated per harness discovered. */
  fresh: FreshMap;
  /** Where large sources are parsed while the previous chunks are written. */
  pool: ParsePool;
  /**
   * A rebuild's sessions written so far (`harness\u0000native id`): one the old index
   * holds is started again when first written (lib/ingest.ts SourceWriter `startOver`).
   */
  rebuilt?: Set<string>;
  /** Discoveries begun while the writer waited (this machine's stores only). */
  ahead: Map<string, Promise<Ahead>>;
  /** Harnesses whose turn began: not discovered ahead any more. */
  begun: Set<string>;
}

/** A discovery run ahead of its harness's turn (see {@link discoverAhead}). */
interface Ahead {
  at: number;
  found?: Discovery;
  error?: Error;
  problems: Array<[string, Error]>;
  /** It asked for the projects the index knows, which this run may still add: run again. */
  stale: boolean;
}

/**
 * Discovers `parser`'s stores of this machine ahead of its turn, its problems kept to be told
 * then. A discovery that asks for the projects the index knows (aider's) is run again at its
 * turn: the stores written before it may add some.
 */
function discoverAhead(env: Env, parser: Parser): Promise<Ahead> {
  const got: Ahead = { at: Date.now(), problems: [], stale: false };
  const dctx: DiscoverCtx = {
    env,
    get knownProjects(): string[] {
      got.stale = true;
      return [];
    },
    problem: (path, e) => got.problems.push([path, e]),
  };
  trace(`${parser.id} discover ahead`);
  let p: Promise<Discovery>;
  try {
    p = Promise.resolve(parser.discover(dctx));
  } catch (e) {
    p = Promise.reject(e);
  }
  return p.then((d) => ({ ...got, found: d }), (e) => ({ ...got, error: e as Error }))
    .then((a) => ({ ...a, stale: got.stale }));
}

async function indexHarness(
  store: Store,
  env: Env,
  parser: Parser,
  opts: IndexOptions,
  seen: Set<string>,
  run: RunState,
  label?: Label,
): Promise<HarnessSummary> {
  const sum: HarnessSummary = emptySummary(parser.id, { origin: label?.origin });
  // Projects of this machine name directories here; a remote's are not looked for on it.
  // Read when a discovery asks (aider's; the other forty do not): a DISTINCT over the
  // sessions each harness cost the first build 0.2-0.4 ms apiece (issue 18).
  let known: string[] | undefined;
  const dctx: DiscoverCtx = {
    env,
    get knownProjects() {
      // A remote's projects (`box:/Users/x`, indexed beside this machine's) name no folder here.
      return known ??= label
        ? []
        : Q.projects.all(store, {}).map((r) => r.project).filter(isAbsoluteAny);
    },
    ...(label?.mirror ? { rebase: rebaser(label.mirror) } : {}),
    problem: (path, e) => {
      // Once per line: two layouts of one harness may walk the same folder (Kimi's).
      const line = problemLine(path, e);
      // A link to nothing or a FIFO is no store deja failed on: information, not an error.
      const list = isNotAStore(e) ? (sum.not_read ??= []) : sum.errors;
      if (!list.includes(line)) list.push(line);
      if (!passedOver(path, e)) sum.discoveryFailed = true;
    },
  };
  let sources: SourceRef[];
  let watch: string[] = [];
  let reads: string[] = [];
  let discoveredAt = Date.now();
  if (!label) run.begun.add(parser.id);
  const before = label ? undefined : run.ahead.get(parser.id);
  const early = before && await before;
  try {
    trace(`${parser.id} discover`);
    let d: Discovery;
    if (early && !early.stale) {
      discoveredAt = early.at;
      for (const [path, e] of early.problems) dctx.problem!(path, e);
      if (early.error) throw early.error;
      d = early.found!;
    } else d = await parser.discover(dctx);
    sum.roots = d.roots;
    sources = d.sources;
    watch = d.watch ?? [];
    reads = d.reads ?? [];
  } catch (e) {
    sum.errors.push(`discovery: ${(e as Error).message}`);
    sum.discoveryFailed = true;
    return sum;
  }
  if (!label) {
    // The directories of stores the index holds stay watched when they hold none now (gone):
    // one coming back, or a new one beside it, changes only their mtime.
    // (A remote's mirror is read by full runs only: not watched.)
    const mirrors = join(dataDir(env), "remotes") + sep;
    const held = Q.sourcesOfHarness.all(store, { harness: parser.id }).map((r) => r.path)
      .filter((p) => !p.startsWith(mirrors));
    // Most stores are both found and held: each path once (thousands of stores, issue 18).
    const paths = [...new Set([...sources.map((s) => s.path), ...held])];
    rememberLayout(run.fresh, parser.id, {
      roots: [...sum.roots, ...watch],
      reads,
      paths,
      sources,
      discoveredAt,
    });
    (run.fresh.places ??= {})[parser.id] = placesStamp(env);
  }
  sum.found = sources.length;
  trace(`${parser.id} found ${sources.length}`);
  let n = 0;
  const keep = opts.restore
    ? new Set(
      Q.sessionIdsOfHarness.all(store, { harness: parser.id }).map((r) =>
        `${parser.id}\u0000${r.native_id}`
      ),
    )
    : undefined;
  const plan = (src: SourceRef) =>
    planSource(
      store,
      env,
      parser,
      src,
      Boolean(opts.rebuild || opts.restore),
      {
        ...opts,
        pool: run.pool,
        ...(keep ? { keep } : {}),
        ...(run.rebuilt ? { startOver: run.rebuilt } : {}),
      },
      label,
    );
  // The next sources, planned and their parses started (in order, as workers free up) before
  // the current one is written.
  const ahead: { src: SourceRef; planned: Planned }[] = [];
  /** Bytes the sources in `ahead` are to read. */
  let aheadBytes = 0;
  // Small stores are written several to a transaction (lib/write_batch.ts).
  const batch = new WriteBatch(store);
  // Sessions written this run: one two stores hold is one the index gained, and one copy.
  const written = new Set<string>();
  /** Stores of copies to read again (lib/copies.ts): the store their session was held from left it. */
  const reread = new Set<string>();
  try {
    await writeAll();
    // Those read before they were released are read again now.
    for (const src of sources) {
      if (!reread.has(src.path)) continue;
      tally(src, await writeOrNot(await plan(src)));
    }
    batch.commit();
    trace(`${parser.id} written`);
  } catch (e) {
    batch.abort();
    throw e;
  }
  const copies = sum.sessions - written.size;
  if (copies > 0) sum.copies = copies;
  return sum;

  async function writeAll(): Promise<void> {
    for (const [i, src] of sources.entries()) {
      n++;
      opts.progress?.(`${parser.id} ${n}/${sources.length}`);
      seen.add(src.path);
      if (opts.deadline !== undefined && performance.now() > opts.deadline) {
        if (changedSince(store, src)) leftPending(src);
        continue;
      }
      const first = ahead[0]?.src === src ? ahead.shift()!.planned : undefined;
      if (first) aheadBytes -= bytesOf(first);
      const planned = first ?? await plan(src);
      // Refilled when short of sources, or of bytes (small ones are parsed several to a job).
      if (
        "chunks" in planned &&
        (ahead.length < aheadOf(run.pool.size) || aheadBytes < aheadBytesOf(run.pool.size) / 2)
      ) {
        const window = new Set([src.path, ...ahead.map((a) => a.src.path)]);
        // Planned together, so that the small ones among them can share a worker's job.
        const release = run.pool.hold();
        try {
          for (
            let j = i + 1 + ahead.length;
            j < sources.length && ahead.length < AHEAD_SOURCES &&
            (ahead.length < aheadOf(run.pool.size) || aheadBytes < aheadBytesOf(run.pool.size));
            j++
          ) {
            const next = sources[j];
            if (!aheadAllowed(sources[j - 1], next, opts) || window.has(next.path)) break;
            window.add(next.path);
            const p = await plan(next);
            aheadBytes += bytesOf(p);
            ahead.push({ src: next, planned: p });
          }
        } finally {
          release();
        }
      }
      tally(src, await writeOrNot(planned));
    }
  }

  function writeOrNot(planned: Planned): Promise<SourceOutcome> | SourceOutcome {
    if (!("chunks" in planned)) return planned;
    const progress = opts.progress;
    const line = `${parser.id} ${n}/${sources.length}`;
    // A big store says how far it is read, a line per chunk (the caller draws a few a second):
    // a 1 GB session took 25 s with the line standing still (trial 122 F2).
    const reached = progress && planned.size - planned.offset >= PROGRESS_BYTES
      ? (at: number, size: number) => progress(`${line} · ${readSoFar(planned.src.path, at, size)}`)
      : undefined;
    return writeSource(store, planned, batch, reached);
  }

  /**
   * A store this refresh on use leaves to a full run. One the index has no row of (new) is
   * found only by discovery, which the directory stamps just taken would skip: its directory
   * is stamped unknown, so the next check and the next `deja index` look again (trial 18: a
   * new 8.7 MB session, over the inline bound, was never read, and `deja index` said "up to
   * date").
   */
  function leftPending(src: SourceRef): void {
    run.pending++;
    const dirs = run.fresh.dirs[parser.id];
    if (dirs && !Q.sourceByPath.get(store, { path: src.path })) dirs[dirname(src.path)] = -2;
  }

  function tally(src: SourceRef, r: SourceOutcome): void {
    for (const p of r.reread ?? []) reread.add(p);
    if (r.pending) leftPending(src);
    // A store that failed is not read, whatever stage it failed at (lib/store_damage.ts).
    if (r.read && !r.error) sum.read++;
    if (r.damage) (sum.damaged ??= []).push(r.damage);
    if (r.shrunk) (sum.shrunk ??= []).push(r.shrunk);
    sum.sessions += r.sessions;
    for (const k of r.written ?? []) written.add(k);
    if (run.rebuilt) { for (const k of r.written ?? []) run.rebuilt.add(k); }
    sum.events += r.events;
    for (const [k, v] of Object.entries(r.skipped)) {
      sum.skipped[k as SkipReason] = (sum.skipped[k as SkipReason] ?? 0) + (v ?? 0);
    }
    for (const [k, v] of Object.entries(r.drift ?? {})) {
      sum.drift[k as DriftKind] = (sum.drift[k as DriftKind] ?? 0) + (v ?? 0);
    }
    if (r.gone) {
      const g = sum.gone_while_read ??= { count: 0, first: src.path };
      g.count++;
    }
    if (r.error) {
      sum.failed++;
      sum.errors.push(withPermissionHint(`${src.path}: ${r.error}`));
    }
  }
}

/** The bytes a store's read takes for the progress line to say how far it is (F2). */
export const PROGRESS_BYTES = 8 << 20;

/** `session.jsonl 412/1024 MiB`: how far the read of a store is (at least a MiB). */
export function readSoFar(path: string, at: number, size: number): string {
  const mib = (b: number) => Math.floor(b / (1 << 20));
  return `${basename(path)} ${mib(Math.min(at, size))}/${mib(size)} MiB`;
}

/** What {@link rememberLayout} records of one harness's discovery. */
interface Layout {
  /** Its roots, with the directories discovery watches. */
  roots: string[];
  /** The files discovery read to find stores (Discovery.reads). */
  reads: string[];
  /** The stores found and those the index holds. */
  paths: string[];
  sources: SourceRef[];
  /** Epoch ms discovery began. */
  discoveredAt: number;
}

/**
 * Records where `harness`'s stores live for the freshness check: the
 * directories of `paths` up to the `roots`, and the files discovery `reads`
 * (stamped alike, by mtime). One changed since discovery began is stamped
 * unknown (-2), so a store created, or named, while discovery ran is looked
 * for again by the next check.
 */
/**
 * Whether discovery's problem `e` at `path` is a FIFO, socket or device itself where a store
 * would be: no store, said as "not read", and no sign that discovery missed any, so the
 * harness's run stays complete and the next run with nothing changed is a no-op (trial 122
 * F3: every `deja index` took the full way for one FIFO, and read the whole index first). It
 * cannot become a store without its folder's mtime moving, which the stat pass watches. A
 * link to one (its target may become a file unseen) or to nothing (it may have been a folder
 * of stores) still marks the discovery incomplete.
 */
function passedOver(path: string, e: Error): boolean {
  if ((e as { code?: string }).code !== "ENOTREG") return false;
  try {
    return !lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function rememberLayout(fresh: FreshMap, harness: string, l: Layout): void {
  const dirs = stampDirs([
    ...harnessDirs(l.roots, l.paths.map((path) => ({ path }))),
    ...l.reads,
  ]);
  for (const [d, m] of Object.entries(dirs)) if (m >= l.discoveredAt - 1) dirs[d] = -2;
  fresh.dirs[harness] = dirs;
  const comps: Record<string, string[]> = {};
  for (const s of l.sources) if (s.companions?.length) comps[s.path] = s.companions;
  fresh.companions[harness] = comps;
}

/** True when `src`'s stamp differs from what the index recorded (it is unread, not fresh). */
function changedSince(store: Store, src: SourceRef): boolean {
  const prev = Q.sourceByPath.get(store, { path: src.path });
  if (!prev) return true;
  const [size, mtime] = stamp(src.path);
  return prev.size !== size || prev.mtime !== mtime;
}

/**
 * Sources planned, their parses started, beyond the one being written: enough
 * that every parse worker holds its next job when it ends one (lib/parse_pool.ts
 * `workers`, JOB_DEPTH jobs each), and one more. What they hold is bounded
 * per worker (MAX_IN_FLIGHT chunks), not per source.
 */
export function aheadOf(workers: number): number {
  return workers * JOB_DEPTH + 1;
}

/**
 * Bytes to read that the sources planned ahead reach when small ones are planned (up to
 * {@link AHEAD_SOURCES} of them): JOB_DEPTH worker jobs of small sources per worker
 * (lib/parse_pool.ts GROUP_BYTES), and the next ones waiting. Planned again when they
 * drop below half, so that a worker's next job finds several waiting, not one.
 */
export function aheadBytesOf(workers: number): number {
  return (workers * JOB_DEPTH + 2) * GROUP_BYTES;
}

/** Sources planned ahead at most. */
export const AHEAD_SOURCES = 2 * GROUP_SOURCES;

/** The bytes `p` is to read (none when there is nothing to read). */
function bytesOf(p: Planned): number {
  return "chunks" in p ? p.size - p.offset : 0;
}

/**
 * Whether `next`'s parse may start while `src` (the source before it) is written: a full run's
 * sources only (a refresh on use may stop before `next`), and neither replaces
 * another source's sessions (a plan reads the source's row, which writing a
 * source that supersedes it removes).
 */
function aheadAllowed(src: SourceRef, next: SourceRef, opts: IndexOptions): boolean {
  return opts.deadline === undefined && !src.supersedes?.length && !next.supersedes?.length &&
    next.path !== src.path;
}
