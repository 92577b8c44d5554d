/**
 * Parsing beside writing: the indexer hands a large source to a parse worker
 * thread (lib/parse_worker.ts) and writes its session chunks as they arrive, so
 * reading, JSON parsing, normalising, redacting and tokenising (lib/prepare.ts)
 * run off the writer's thread. Up to {@link POOL_SIZE} workers, one source at a
 * time each: the indexer asks for the next sources' parses while it writes the
 * current one (lib/indexer.ts AHEAD), they start in order as workers free up,
 * and a worker is free as soon as its source is parsed, so the writer, which
 * alone touches SQLite, does not wait between sources. A worker's chunks flow
 * through a bounded window over all its jobs (MAX_IN_FLIGHT in
 * lib/parse_job.ts), so memory stays bounded however large the store. Where no
 * worker can start (a runtime or build without worker support, an environment
 * that cannot cross a thread), sources are parsed in process as before.
 *
 * `DEJA_PARSE_WORKER=0` turns the worker off, `=1` uses it for every source
 * (tests); by default sources of {@link WORKER_MIN_BYTES} or more use it.
 *
 * @module
 */
import { Worker, type WorkerOptions } from "node:worker_threads";
import { GarbagePacer } from "../core/runtime.ts";
import type { Env, Parser, Session, SourceRef } from "../core/model.ts";
import type { SourceCtx } from "./parse_ctx.ts";
import { parserFor } from "../parsers/mod.ts";
import { absorb, type ParseEnd, type ParseJob } from "./parse_job.ts";
import { prepareChunk, type PreparedChunk } from "./prepare.ts";
import { VocabCollector } from "./search/tokenize.ts";
import type { Label } from "./remote/label.ts";

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
 * A parse worker's options: Bun's `smol` gives it a smaller heap that is collected
 * more often (Node and Deno ignore the key). Measured on the 100 MB bench corpus with
 * two workers: peak RSS 160–167 MB without, 148–154 MB with, the same wall time.
 */
const WORKER_OPTIONS = { smol: true } as WorkerOptions;

/** Sources smaller than this (bytes) are parsed in process: a thread hop costs more than it saves. */
export const WORKER_MIN_BYTES = 256 * 1024;

/**
 * Parse workers at most (measured on 2 cores: the parse side of a source cost
 * about 1.5 times its writing, so one worker kept the writer waiting).
 */
export const POOL_SIZE = 2;

/** A source's prepared chunks, being parsed; {@link cancel} when they will not be read to the end. */
export interface ParseRun extends AsyncIterable<PreparedChunk> {
  /** Stops a parse whose chunks are not (or no longer) wanted; nothing once they were all read. */
  cancel(): void;
}

type Msg =
  /** A prepared chunk as JSON text (lib/parse_worker.ts). */
  | { type: "chunk"; json: string }
  | { type: "done"; end: ParseEnd }
  | { type: "error"; message: string }
  /** The worker itself failed (its module did not load, it crashed). */
  | { type: "broken"; message: string };

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
 * Parse workers started on demand and shared by the sources of one index run.
 * Jobs wait in order for a free worker; a worker is free again as soon as it
 * has parsed its source to the end, while the writer may still be reading that
 * source's chunks, so it starts the next source at once. Before (a worker
 * freed when the writer had read its source, the next source planned only
 * then), a traced run of the 100 MB bench corpus (compiled binary, 4.3 s at
 * load 2) had each worker wait 1.2-1.3 s for a job, never for the writer's
 * acknowledgements, while the writer waited 1.2 s for chunks (issue 18). What
 * a worker may post ahead is bounded over all its jobs (MAX_IN_FLIGHT).
 */
export class ParsePool {
  private idle: Worker[] = [];
  private busy = new Set<Worker>();
  private waiting: WorkerRun[] = [];
  private failed = false;
  constructor(
    private env: Env,
    private size = POOL_SIZE,
    private gc = new GarbagePacer(GC_BYTES),
  ) {}

  /**
   * The chunks of `src` as `parser` yields them, labelled with `label` (a
   * remote's) and prepared for the writer (lib/prepare.ts). In a worker when it
   * pays, the parse starts as soon as a worker is free (its first chunks wait
   * in the bounded window); else it runs in process as the chunks are read.
   * Either way `ctx` ends as the parser left it. A parser's error is thrown
   * from the iteration.
   */
  parse(
    parser: Parser,
    src: SourceRef,
    ctx: SourceCtx,
    size: number,
    label?: Label,
  ): ParseRun {
    const mode = this.env.get("DEJA_PARSE_WORKER");
    // The worker knows the registered parsers only (a test's own parser stays in process).
    const wanted = (mode === "1" || (mode !== "0" && size >= WORKER_MIN_BYTES)) &&
      parserFor(parser.id) === parser;
    // The environment is copied for a worker's job only: a copy per store cost a run over
    // thousands of small stores ~0.3 ms each under Deno (issue 18).
    const vars = wanted && !this.failed ? this.env.vars?.() : undefined;
    if (!vars) return inProcess(parser, src, ctx, label);
    const job: ParseJob = {
      parser: parser.id,
      src,
      offset: ctx.offset,
      state: ctx.state,
      since: ctx.since,
      vars,
      home: this.env.home,
      ...(label ? { label } : {}),
    };
    const run = new WorkerRun(job, ctx, {
      took: (bytes) => this.gc.took(bytes),
      release: (w) => {
        this.busy.delete(w);
        this.idle.push(w);
        this.pump();
      },
      // A worker stopped mid-source (the writer stopped early, or it broke): the next starts anew.
      abandon: (w) => {
        this.busy.delete(w);
        w.terminate();
        this.pump();
      },
      unqueue: (r) => {
        const i = this.waiting.indexOf(r);
        if (i >= 0) this.waiting.splice(i, 1);
      },
      // A worker that cannot run at all: this source and the rest are parsed in process.
      fallback: () => {
        this.failed = true;
        return prepared(parser.parse(src, ctx), label);
      },
    });
    this.waiting.push(run);
    this.pump();
    return run;
  }

  /** Jobs waiting for a free worker. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Stops the workers (call once the run is over). */
  close(): void {
    for (const w of [...this.idle, ...this.busy]) w.terminate();
    this.idle = [];
    this.busy.clear();
    this.waiting = [];
  }

  /** Starts waiting jobs on free workers, in order; with no worker at all, they fall back. */
  private pump(): void {
    while (this.waiting.length) {
      const w = this.take();
      if (!w) break;
      this.waiting.shift()!.start(w);
    }
    if (this.failed) {
      for (const r of this.waiting.splice(0)) r.fail("no parse worker");
    }
  }

  /** An idle worker, a new one while fewer than {@link size} run, else none. */
  private take(): Worker | undefined {
    if (this.failed) return undefined;
    let w = this.idle.pop();
    if (!w && this.busy.size < this.size) {
      try {
        w = new Worker(workerUrl(), WORKER_OPTIONS);
        w.unref();
      } catch {
        this.failed = true;
      }
    }
    if (w) this.busy.add(w);
    return w;
  }
}

/** `chunks` prepared in process (a small source, or no worker). */
export async function* prepared(
  chunks: AsyncIterable<Session>,
  label?: Label,
): AsyncGenerator<PreparedChunk> {
  const vocab = new VocabCollector();
  for await (const c of chunks) yield prepareChunk(c, vocab, label);
}

/** A parse in process: it runs as its chunks are read. */
function inProcess(parser: Parser, src: SourceRef, ctx: SourceCtx, label?: Label): ParseRun {
  const gen = prepared(parser.parse(src, ctx), label);
  return {
    [Symbol.asyncIterator]: () => gen,
    cancel: () => void gen.return(undefined).catch(() => {}),
  };
}

/**
 * One job in a worker: queued until {@link start}ed on one, then posted, its
 * messages queued until read, each chunk taken acknowledged. The worker is
 * handed back once the job's last message came; chunks not read by then are
 * acknowledged when the run is cancelled.
 */
class WorkerRun implements ParseRun {
  private queue: Msg[] = [];
  private wake?: () => void;
  private worker?: Worker;
  /** Read by the writer (an iteration began). */
  private reading = false;
  /** The worker sent the job's last message (or broke): it no longer serves this run. */
  private parsed = false;
  /** Not wanted any more. */
  private cancelled = false;
  private readonly listeners = {
    message: (m: Msg) => this.push(m),
    error: (e: Error) => this.push({ type: "broken", message: e?.message ?? String(e) }),
    exit: () => this.push({ type: "broken", message: "parse worker stopped" }),
  };

  constructor(
    private job: ParseJob,
    private ctx: SourceCtx,
    private on: {
      /** A chunk of `bytes` of text was taken (the pool paces collections by them). */
      took(bytes: number): void;
      /** The job's parse ended: `w` may take the next. */
      release(w: Worker): void;
      /** `w` is stopped mid-job or broken. */
      abandon(w: Worker): void;
      /** The run, not started, is not wanted. */
      unqueue(r: WorkerRun): void;
      fallback(): AsyncIterable<PreparedChunk>;
    },
  ) {}

  /** Posts the job to `worker`. */
  start(worker: Worker): void {
    this.worker = worker;
    worker.on("message", this.listeners.message);
    worker.on("error", this.listeners.error);
    worker.on("exit", this.listeners.exit);
    worker.ref();
    worker.postMessage({ type: "parse", job: this.job });
  }

  /** No worker can take the job: the iteration falls back to parsing in process. */
  fail(message: string): void {
    this.queue.push({ type: "broken", message });
    this.wakeUp();
  }

  private push(m: Msg): void {
    this.queue.push(m);
    if (m.type !== "chunk") this.detach(m.type !== "broken");
    this.wakeUp();
  }

  private wakeUp(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  cancel(): void {
    if (!this.reading) this.stop();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<PreparedChunk> {
    if (this.reading || this.cancelled) throw new Error("a parse is read once");
    this.reading = true;
    let taken = false;
    try {
      for (;;) {
        while (!this.queue.length) await new Promise<void>((r) => (this.wake = r));
        const m = this.queue.shift()!;
        if (m.type === "broken" && !taken) {
          yield* this.on.fallback();
          return;
        }
        if (m.type === "error" || m.type === "broken") throw new Error(m.message);
        if (m.type === "done") {
          absorb(this.ctx, m.end);
          return;
        }
        this.ack();
        taken = true;
        this.on.took(m.json.length);
        yield JSON.parse(m.json) as PreparedChunk;
      }
    } finally {
      this.stop();
    }
  }

  /** Acknowledges a chunk taken (or dropped) to the worker that posted it. */
  private ack(): void {
    try {
      this.worker?.postMessage({ type: "ack" });
    } catch { /* the worker is gone */ }
  }

  /** Ends the run where it is: not started, dropped; mid-parse, its worker stopped; parsed, the chunks left acknowledged. */
  private stop(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    if (!this.worker) this.on.unqueue(this);
    else if (!this.parsed) this.detach(false);
    else for (const m of this.queue.splice(0)) if (m.type === "chunk") this.ack();
  }

  /** Detaches from the worker: back to the pool when its job ended, else stopped. */
  private detach(ended: boolean): void {
    if (this.parsed || !this.worker) return;
    this.parsed = true;
    const w = this.worker;
    w.off("message", this.listeners.message);
    w.off("error", this.listeners.error);
    w.off("exit", this.listeners.exit);
    w.unref();
    if (ended) this.on.release(w);
    else this.on.abandon(w);
  }
}
