/**
 * Parsing beside writing: the indexer hands its sources to parse worker
 * threads (lib/parse_worker.ts) and writes their session chunks as they arrive, so
 * reading, JSON parsing, normalising, redacting and tokenising (lib/prepare.ts)
 * run off the writer's thread. Up to {@link POOL_SIZE} workers, each parsing one
 * job at a time (a large source, or consecutive small ones, see {@link GROUP_BYTES})
 * with the next posted behind it ({@link JOB_DEPTH}): the indexer asks for the
 * next sources' parses while it writes the current one (lib/indexer.ts aheadOf),
 * they are posted in order as workers have room, and a worker starts its next
 * job as soon as it has parsed one, so the writer, which alone touches SQLite,
 * does not wait between sources. A worker's chunks flow
 * through a bounded window over all its jobs (MAX_IN_FLIGHT in
 * lib/parse_job.ts), so memory stays bounded however large the store. Where no
 * worker can start (a runtime or build without worker support, an environment
 * that cannot cross a thread), sources are parsed in process as before.
 *
 * Where a full index's wall time goes (issue 18; the 100 MB bench corpus of
 * `deno task bench`, 67 stores, 54,508 events; the compiled Bun binary, CPU
 * per thread read from /proc/<pid>/task/<tid>/stat every 50 ms to its end, one
 * run at load ~10 on 2 cores): the writer's thread is the longest, ~1.85-1.9 s
 * of CPU, and CPU-bound (lib/ingest.ts: the statements ~1.0-1.2 s, below, plus
 * discovery, planning, decoding the workers' chunks and their garbage); each of
 * the two workers ~1.04-1.10 s (lib/parse_worker.ts: reading, JSON.parse, the
 * parser, redaction, tokens); the JIT's threads ~0.35 s. The bench in the same
 * session: the binary's full index 10.4 s wall, 4.9 s CPU (9.6 MB/s), peak RSS
 * 116 MB, index 55.8 MB (56% of the corpus); wall figures at that load are
 * mostly waiting for a core. Run under SCHED_FIFO (14 runs at load 4-6, per
 * thread from /proc every 20 ms) the same index took 2.2-3.0 s wall for 4.4-5.6
 * s of CPU, the wall within ~0.1 s of half the CPU: the writer (1.6-2.2 s) is
 * the longest thread, but both cores are busy nearly all the run, so CPU cut
 * from any thread (the workers, the JIT's, mimalloc's scavenger ~0.15 s)
 * shortens it about as much as the same CPU cut from the writer.
 *
 * The writer's statements (`deno task bench:writer --no-queries`, under Bun
 * with FTL off as the binary runs, SCHED_FIFO, load 4-6; timing each call
 * had added ~0.5 s, its clock reads costing more than most statements):
 * ~1.0-1.2 s of the thread. Taken out one at a time (`--skip`): events_fts,
 * its INSERT ... SELECT and the flush of its pending data, ~0.45-0.5 s; the
 * event rows with their six indexes and the commits of their pages ~0.4-0.45
 * s; commands, files and their statuses ~0.1 s; vocab ~0.04 s; the JS around
 * them, the session rows and the commits ~0.08-0.1 s. `perf record` of the
 * binary's writer thread: ~17% of its samples in JIT-compiled JavaScript,
 * ~26% in the kernel (file I/O ~8%, page faults ~7%, `madvise` ~2%), the rest
 * SQLite, the runtime and libc. `strace` of the same: ~10.8k WAL frames
 * written, ~7.9k pages (65 MB) checkpointed into the database, ~20k reads of 8
 * KB pages (~14.7k from the WAL, ~5.6k from the database: what the 2 MB cache
 * let go, and the checkpoints' copies); ~650 `madvise` calls, in four bursts
 * of ~150 about a second apart (as the writer's collections, GC_BYTES, come),
 * the rest on other threads. So what a write costs is SQLite's own work on the
 * rows and the text index; the statements' number is not (below). After the
 * last write the association pass read the whole events table for its few
 * fields, 35-74 ms of the run's tail; it reads only their rows since
 * (lib/schema_search.ts assocFields, 14-24 ms).
 *
 * Measured in the previous session and not kept (none shortened the run beyond
 * noise; not measured again): the journal in WAL or MEMORY mode; a bigger
 * `cache_size`; another FTS5 `hashsize` (the pending data kept before a
 * flush); other batch sizes; the writer's garbage collection steered; other
 * JIT thresholds; the events' indexes created after the rows (deferred).
 *
 * Measured and not kept (issue 18, this breakdown's session): events inserted
 * up to 32 rows a statement (their command and file rows written after each
 * group, in order, the ids counted back from the last rowid), with the status
 * UPDATEs left out for calls of a session written afresh that had no command
 * or file row (1,410 of 2,038 `setCommandExit` and 628 of 2,038 `failFiles`
 * left): the replayed writer 0.96-1.35 s against 0.95-1.23 s (3 alternated
 * triples under SCHED_FIFO), the binary's writer thread 1.70-2.49 s against
 * 1.47-1.93 s (7 pairs at load 3-6); the rows alone in a micro-benchmark,
 * median 400 ms one a statement against 340 ms 32 a statement, within its
 * noise. FTS5 `pgsz` 8000 (leaves as large as the 8 KB page, half as many
 * rows in events_fts_data, the index +0.07 MB): the replayed writer median
 * 1.03 s against 1.07 s (9 runs each under SCHED_FIFO), the binary's writer
 * thread 1.67-2.52 s against 1.77-2.29 s (4 pairs).
 *
 * `DEJA_PARSE_WORKER=0` turns the worker off, `=1` uses it for every source
 * (tests); by default a job of {@link WORKER_MIN_BYTES} or more uses it.
 *
 * @module
 */
import { Worker, type WorkerOptions } from "node:worker_threads";
import { GarbagePacer } from "../core/runtime.ts";
import type { Env, Parser, Session, SourceRef } from "../core/model.ts";
import type { SourceCtx } from "./parse_ctx.ts";
import { parserFor } from "../parsers/mod.ts";
import type { ParseJob } from "./parse_job.ts";
import { type ParseRun, WorkerLane, WorkerRun } from "./parse_run.ts";
import { prepareChunk, type PreparedChunk, SessionSecrets } from "./prepare.ts";
import { VocabCollector } from "./search/tokenize.ts";
import type { Label } from "./remote/label.ts";
import { trace, tracing } from "../core/trace.ts";

/**
 * Bytes of chunk text the writer takes from the workers between two garbage
 * collection hints (core/runtime.ts), counted over all the run's sources. The
 * writer's copies of the chunks are garbage once written, but their text lives
 * outside the collector's heap and Bun collects it late (issue 18): on the
 * 100 MB bench corpus (67 sources of 1.5 MB, about 6 chunks each, 45 MB of
 * chunk text) the writer's heap then rose until the run's end. A hint every
 * 8 chunks of a source never came (no source had 8); one every 8 MB of the
 * run's chunk text (5 full collections, ~0.1 s of CPU) took the compiled
 * binary's peak RSS from 129-150 MB (median 137) to 127-135 (median 129) in 6
 * alternating runs, CPU within noise; 2 and 4 MB peaked as 8, a hint that does
 * not wait (`Bun.gc(false)`) as none.
 */
export const GC_BYTES = 8 << 20;

/**
 * What each source counts towards the writer's next collection ({@link GC_BYTES}) besides its
 * chunks' text: the garbage of a source's own work (its context, statements, stamps, paths),
 * which the chunk bytes of a small store do not tell of. A first index of 40,000 stores of
 * 8.6 KB (trial 28) counted about 25 collections in all and peaked at 170-179 MB; with
 * 16 KB a source 141-142 MB, with 32 KB 125-130 MB, with 64 KB 123 MB and a second slower
 * (the compiled binary, wall time 16.1-17.3 s without, 16.9-17.9 s with 32 KB).
 */
export const SOURCE_GC_BYTES = 32 << 10;

/**
 * A parse worker's options: Bun's `smol` gives it a smaller heap that is collected
 * more often (Node and Deno ignore the key). Measured on the 100 MB bench corpus with
 * two workers: peak RSS 160–167 MB without, 148–154 MB with, the same wall time.
 */
const WORKER_OPTIONS = { smol: true } as WorkerOptions;

/**
 * Jobs smaller than this (bytes) are parsed in process: a thread hop costs more than it saves.
 * A smaller source goes to a worker with the small ones after it ({@link GROUP_BYTES}).
 */
export const WORKER_MIN_BYTES = 256 * 1024;

/**
 * Bytes of consecutive small sources (each under {@link WORKER_MIN_BYTES}) one
 * worker job takes at most, and {@link GROUP_SOURCES} sources at most. A
 * job's overhead (messages, the environment's copy) was larger than a small
 * store's parse, so thousands of small stores were all parsed on the writer's
 * thread while the second core idled (issue 18); in jobs of many they are
 * parsed beside the writing like large ones. The indexer plans enough small
 * sources ahead to fill a job per worker (lib/indexer.ts aheadBytesOf).
 */
export const GROUP_BYTES = 512 * 1024;
// Small sources at the end of the queue wait for the next ones planned (ParsePool.pump): with
// two jobs per worker a worker had room more often, and the few planned last, too small for a
// job alone, were parsed on the writer's thread (181 of 2,522 stores of 40 KB, against 2 since;
// wall 3.59-3.80 -> 3.42-3.51 s in 3 alternating runs under SCHED_FIFO at load 8, RSS alike).

/** Sources in one worker job at most. */
export const GROUP_SOURCES = 64;

/**
 * Parse workers at most; a run on fewer than three cores starts one ({@link poolSize}). The parse side of a source once cost about 1.5 times
 * its writing, and two workers kept a 2-core writer fed (measured before on
 * 2,282 stores of 40 KB, compiled binary, 4 alternating runs: one worker
 * 3.37-3.95 s wall against 3.32-3.82 with two). Since, the parse side costs
 * about what the writing does (per thread, a full index of the 100 MB bench
 * corpus: the writer ~1.1 s of CPU, the two workers ~1.16 s together), so on
 * 2 cores a second worker only takes CPU from the writer's core: measured again (issue 18,
 * compiled Bun binary, idle 2-core machine, 4-5 alternated runs), the 100 MB
 * bench corpus of 1.5 MB sessions indexed in 1.26-1.30 s wall, 2.3 s CPU, peak
 * RSS 108-111 MB with one worker against 1.42-1.56 s, 2.6 s, 135-142 MB with
 * two; its 2,282 stores of 40 KB in 1.83-1.98 s, 3.1 s, 111-114 MB against
 * 2.03-2.21 s, 3.5 s, 129-134 MB. With more cores a second worker has a core
 * of its own, and parsing stays ahead of the one writer.
 */
export const POOL_SIZE = 2;

/** Parse workers for a run on `n` cores: one less, at least one, at most {@link POOL_SIZE}. */
export function poolSize(n: number): number {
  return Math.min(POOL_SIZE, Math.max(1, n - 1));
}

/**
 * Jobs posted to one worker at most: the one it parses and the next ones, so
 * that it starts the next as soon as it ends one. With one, a worker that
 * ended its job waited for the writer's thread to hear so, and the writer was
 * writing a source or committing a batch: a traced run of the 100 MB bench
 * corpus (2 workers, DEJA_TRACE_INDEX=1) had each worker idle a third of the
 * run, and the writer wait for chunks as long (issue 18).
 *
 * Two were not enough either: a batch's commit (FTS5 indexing its text, 40-55
 * ms on the writer's thread) outlasted the ~15 ms two jobs of small stores
 * hold, and both workers idled until it ended, twelve times a run (traced:
 * the writer then waited 446 ms for chunks; with six, 285 ms, the workers
 * parsing until the commit's end). A worker's memory stays bounded by its
 * credit (lib/parse_worker.ts `mayPost`), not by the jobs it holds. Measured
 * on the 2,282 stores of 40 KB, compiled binary, 5 alternating pairs: wall
 * 1.87-1.96 s (median 1.95) with two against 1.74-1.92 s (1.81) with six,
 * peak RSS 119-123 MB against 124-127; ten were no faster than six.
 */
export const JOB_DEPTH = 6;

export type { ParseRun };

/** How many jobs the pool posted to workers, and of how many sources. */
export interface PoolStats {
  jobs: number;
  sources: number;
}

/**
 * Where the worker's module is: beside this one from source (Deno, Bun), and
 * under the bundle's root as `lib/parse_worker.js` in a `bun build --compile`
 * binary, whose compile:bun task names it as a second entry point.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  const m = /^(.*(?:\$bunfs|~BUN)\/root\/)/.exec(here);
  return m ? new URL("lib/parse_worker.js", m[1]) : new URL("./parse_worker.ts", here);
}

/**
 * Parse workers started on demand and shared by the sources of one index run. Jobs wait in order for a worker with room: one with
 * fewer than {@link JOB_DEPTH} jobs posted, an idle one first. A worker ends a
 * job when it has parsed it, while the writer may still be reading that job's
 * chunks, and starts the next one posted to it at once. Before (a worker
 * freed when the writer had read its source, the next source planned only
 * then), a traced run of the 100 MB bench corpus (compiled binary, 4.3 s at
 * load 2) had each worker wait 1.2-1.3 s for a job, never for the writer's
 * acknowledgements, while the writer waited 1.2 s for chunks (issue 18); with
 * one job per worker freed when parsed, still about a third of the run (the
 * writer heard of the end only between two of its writes). What a worker may
 * post ahead is bounded over all its jobs (MAX_IN_FLIGHT).
 *
 * Measured and not kept: starting both workers when a first build begins,
 * before the index opens and discovery runs (their start-up then overlapped
 * the writer's). Their start-up slowed the index's opening from ~15 to
 * 50-110 ms on 2 cores, and the first store was written no sooner (at
 * 339-429 ms against 317-402 without, 4 alternating traced runs under
 * SCHED_FIFO at load 10). Nor was one worker started once the index is open
 * (its start-up overlapping discovery): the writer's first chunk came 54-101
 * ms after the opening against 90-119, but with the first chunk of 8 events
 * (lib/parse_worker.ts) and the relaunch in bin.ts the run's end did not
 * follow (4 traced runs at load 9-11: first chunk at 203-227 ms against
 * 261-324, end 2.63-2.74 s against 2.53-2.73). The writer's idle (~250-450 ms
 * a run) sits in the first three sources, which the workers parse with a cold
 * JIT slower than the writer writes them.
 */
export class ParsePool {
  private lanes: WorkerLane[] = [];
  private waiting: WorkerRun[] = [];
  private failed = false;
  private holds = 0;
  /** Jobs posted to workers, and their sources. */
  readonly stats: PoolStats = { jobs: 0, sources: 0 };
  constructor(
    private env: Env,
    readonly size = POOL_SIZE,
    private gc = new GarbagePacer(GC_BYTES),
    private depth = JOB_DEPTH,
  ) {}

  /**
   * The chunks of `src` (`size` bytes to read) as `parser` yields them,
   * labelled with `label` (a remote's) and prepared for the writer
   * (lib/prepare.ts). In a worker when it pays, the parse starts as soon as a
   * worker is free (its first chunks wait in the bounded window); else it runs
   * in process as the chunks are read. Either way `ctx` ends as the parser left
   * it. A parser's error is thrown from the iteration.
   */
  parse(
    parser: Parser,
    src: SourceRef,
    ctx: SourceCtx,
    size: number,
    label?: Label,
  ): ParseRun {
    this.gc.took(SOURCE_GC_BYTES);
    // The worker knows the registered parsers only (a test's own parser stays in process).
    if (!this.wanted() || parserFor(parser.id) !== parser) {
      return inProcess(parser, src, ctx, label);
    }
    const job: ParseJob = {
      parser: parser.id,
      src,
      offset: ctx.offset,
      state: ctx.state,
      since: ctx.since,
      ...(ctx.held ? { held: [...ctx.held] } : {}),
      ...(label ? { label } : {}),
    };
    const run = new WorkerRun(job, size, ctx, {
      took: (bytes) => this.gc.took(bytes),
      unqueue: (r) => {
        const i = this.waiting.indexOf(r);
        if (i >= 0) this.waiting.splice(i, 1);
      },
      // A worker that cannot run at all: this source and the rest are parsed in process.
      fallback: () => {
        this.failed = true;
        return prepared(parser.parse(src, ctx), label, ctx);
      },
      inProcess: () => prepared(parser.parse(src, ctx), label, ctx),
      demand: () => this.pump(),
    });
    this.waiting.push(run);
    this.pump();
    return run;
  }

  /**
   * Holds back the jobs asked for until the returned function is called, so
   * that sources planned together can share a worker job (the indexer plans
   * several small ones at once).
   */
  hold(): () => void {
    this.holds++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.holds--;
      this.pump();
    };
  }

  /** Jobs waiting for a free worker. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Stops the workers (call once the run is over). */
  close(): void {
    for (const l of this.lanes) {
      l.detach();
      l.worker.terminate();
    }
    this.lanes = [];
    this.waiting = [];
  }

  /** Whether sources may go to a worker (the environment lets them, and one can run). */
  private wanted(): boolean {
    return this.env.get("DEJA_PARSE_WORKER") !== "0" && !this.failed &&
      typeof this.env.vars === "function";
  }

  /**
   * Starts waiting jobs on free workers, in order: a large source alone,
   * consecutive small ones together; small ones too few to pay for a job are
   * parsed in process (the environment's DEJA_PARSE_WORKER=1 sends them all),
   * except those at the end of the queue, which wait for the next sources
   * planned to share a job with them until the writer reads the first of them.
   * With no worker at all, they fall back.
   */
  private pump(): void {
    const always = this.env.get("DEJA_PARSE_WORKER") === "1";
    while (this.waiting.length && !this.holds && !this.failed) {
      const runs = this.next();
      if (!always && runs.reduce((n, r) => n + r.bytes, 0) < WORKER_MIN_BYTES) {
        if (runs.length === this.waiting.length && !runs[0].demanded) break;
        this.waiting.splice(0, runs.length);
        for (const r of runs) r.local();
        continue;
      }
      const lane = this.free();
      if (!lane) break;
      this.waiting.splice(0, runs.length);
      this.stats.jobs++;
      this.stats.sources += runs.length;
      if (tracing) {
        const bytes = runs.reduce((n, r) => n + r.bytes, 0);
        trace(
          `job ${this.stats.jobs} to worker ${lane.worker.threadId}: ${runs.length} sources ${bytes}`,
        );
      }
      lane.post(runs, this.env.vars!(), this.env.home);
    }
    if (this.failed) {
      for (const r of this.waiting.splice(0)) r.fail("no parse worker");
    }
  }

  /** The next job's runs: the first waiting alone when large, else the small ones from it on. */
  private next(): WorkerRun[] {
    const runs = [this.waiting[0]];
    if (runs[0].bytes >= WORKER_MIN_BYTES) return runs;
    let bytes = runs[0].bytes;
    for (const r of this.waiting.slice(1, GROUP_SOURCES)) {
      if (r.bytes >= WORKER_MIN_BYTES || bytes + r.bytes > GROUP_BYTES) break;
      runs.push(r);
      bytes += r.bytes;
    }
    return runs;
  }

  /**
   * The lane to post the next job to: the one with fewest jobs under
   * {@link depth} (an idle worker first), a new one while fewer than
   * {@link size} run and none is idle, else none.
   */
  private free(): WorkerLane | undefined {
    let best: WorkerLane | undefined;
    for (const l of this.lanes) if (!best || l.depth < best.depth) best = l;
    if ((!best || best.depth > 0) && this.lanes.length < this.size && this.spawn()) {
      return this.lanes[this.lanes.length - 1];
    }
    return best && best.depth < this.depth ? best : undefined;
  }

  /** Starts one more worker; false when none can start (the pool falls back). */
  private spawn(): boolean {
    let w: Worker;
    try {
      w = new Worker(workerUrl(), WORKER_OPTIONS);
      w.unref();
    } catch {
      this.failed = true;
      return false;
    }
    trace(`worker ${w.threadId} spawned`);
    const lane: WorkerLane = new WorkerLane(w, {
      release: (l) => {
        trace(`worker ${l.worker.threadId} ended a job`);
        this.pump();
      },
      // A worker stopped mid-source (the writer stopped early, or it broke): the next starts
      // anew, and the jobs that waited behind it are posted again.
      abandon: (l, requeue) => {
        this.lanes = this.lanes.filter((x) => x !== l);
        l.worker.terminate();
        for (const r of requeue) r.unjoin();
        this.waiting.unshift(...requeue);
        this.pump();
      },
    });
    this.lanes.push(lane);
    return true;
  }
}

/** `chunks` prepared in process (a small source, or no worker). */
export async function* prepared(
  chunks: AsyncIterable<Session>,
  label?: Label,
  ctx?: Pick<SourceCtx, "skip" | "endOffset">,
): AsyncGenerator<PreparedChunk> {
  const vocab = new VocabCollector();
  const secrets = new SessionSecrets();
  const cut = ctx && ((where: string, detail: string) => ctx.skip("cut_long", where, detail));
  for await (const c of chunks) {
    const p = prepareChunk(c, vocab, label, cut, secrets);
    if (ctx?.endOffset !== undefined) p.at = ctx.endOffset;
    yield p;
  }
}

/** A parse in process: it runs as its chunks are read. */
function inProcess(parser: Parser, src: SourceRef, ctx: SourceCtx, label?: Label): ParseRun {
  const gen = prepared(parser.parse(src, ctx), label, ctx);
  return {
    [Symbol.asyncIterator]: () => gen,
    cancel: () => void gen.return(undefined).catch(() => {}),
  };
}
