/**
 * Parsing beside writing: the indexer hands a large source to a parse worker
 * thread (lib/parse_worker.ts) and writes its session chunks as they arrive, so
 * reading, JSON parsing, normalising, redacting and tokenising (lib/prepare.ts)
 * run off the writer's thread. Up to {@link POOL_SIZE} workers, one source each:
 * a job starts as soon as it is asked for, so the indexer starts the next
 * source's parse while it writes the current one (lib/indexer.ts), and the
 * writer, which alone touches SQLite, does not wait between sources. Each
 * job's chunks flow through a bounded window (MAX_IN_FLIGHT in
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
 * Parse workers at most: one for the source being written, one for the next
 * (measured on 2 cores: the parse side of a source costs about 1.5 times its
 * writing, so one worker kept the writer waiting).
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

/** Parse workers started on demand and shared by the sources of one index run. */
export class ParsePool {
  private idle: Worker[] = [];
  private busy = new Set<Worker>();
  private failed = false;
  constructor(
    private env: Env,
    private size = POOL_SIZE,
    private gc = new GarbagePacer(GC_BYTES),
  ) {}

  /**
   * The chunks of `src` as `parser` yields them, labelled with `label` (a
   * remote's) and prepared for the writer (lib/prepare.ts). In a worker when it
   * pays and one is free, the parse starts at once (its first chunks wait in
   * the bounded window); else it runs in process as the chunks are read. Either
   * way `ctx` ends as the parser left it. A parser's error is thrown from the
   * iteration.
   */
  parse(
    parser: Parser,
    src: SourceRef,
    ctx: SourceCtx,
    size: number,
    label?: Label,
  ): ParseRun {
    const mode = this.env.get("DEJA_PARSE_WORKER");
    const vars = this.env.vars?.();
    // The worker knows the registered parsers only (a test's own parser stays in process).
    const wanted = (mode === "1" || (mode !== "0" && size >= WORKER_MIN_BYTES)) &&
      parserFor(parser.id) === parser;
    const worker = wanted && vars ? this.take() : undefined;
    if (!worker || !vars) return inProcess(parser, src, ctx, label);
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
    return new WorkerRun(worker, job, ctx, {
      took: (bytes) => this.gc.took(bytes),
      release: () => {
        this.busy.delete(worker);
        this.idle.push(worker);
      },
      // A writer that stops early leaves the worker mid-source: it is stopped, the next starts anew.
      abandon: () => {
        this.busy.delete(worker);
        worker.terminate();
      },
      // A worker that cannot run at all: this source and the rest are parsed in process.
      fallback: () => {
        this.failed = true;
        return prepared(parser.parse(src, ctx), label);
      },
    });
  }

  /** Stops the workers (call once the run is over). */
  close(): void {
    for (const w of [...this.idle, ...this.busy]) w.terminate();
    this.idle = [];
    this.busy.clear();
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

/** One job in a worker: posted at once, its messages queued until read, each chunk taken acknowledged. */
class WorkerRun implements ParseRun {
  private queue: Msg[] = [];
  private wake?: () => void;
  /** Read by the writer (an iteration began). */
  private reading = false;
  /** Detached from its worker. */
  private ended = false;
  private readonly listeners: {
    message(m: Msg): void;
    error(e: Error): void;
    exit(): void;
  };

  constructor(
    private worker: Worker,
    job: ParseJob,
    private ctx: SourceCtx,
    private on: {
      /** A chunk of `bytes` of text was taken (the pool paces collections by them). */
      took(bytes: number): void;
      release(): void;
      abandon(): void;
      fallback(): AsyncIterable<PreparedChunk>;
    },
  ) {
    const push = (m: Msg) => {
      this.queue.push(m);
      const w = this.wake;
      this.wake = undefined;
      w?.();
    };
    this.listeners = {
      message: (m) => push(m),
      error: (e) => push({ type: "broken", message: e?.message ?? String(e) }),
      exit: () => push({ type: "broken", message: "parse worker stopped" }),
    };
    worker.on("message", this.listeners.message);
    worker.on("error", this.listeners.error);
    worker.on("exit", this.listeners.exit);
    worker.ref();
    worker.postMessage({ type: "parse", job });
  }

  cancel(): void {
    if (!this.reading && !this.ended) this.end(false);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<PreparedChunk> {
    if (this.reading || this.ended) throw new Error("a parse is read once");
    this.reading = true;
    let finished = false;
    let taken = false;
    try {
      for (;;) {
        while (!this.queue.length) await new Promise<void>((r) => (this.wake = r));
        const m = this.queue.shift()!;
        if (m.type === "broken" && !taken) {
          this.end(false);
          finished = true;
          yield* this.on.fallback();
          return;
        }
        if (m.type === "error" || m.type === "broken") throw new Error(m.message);
        if (m.type === "done") {
          absorb(this.ctx, m.end);
          finished = true;
          return;
        }
        this.worker.postMessage({ type: "ack" });
        taken = true;
        this.on.took(m.json.length);
        yield JSON.parse(m.json) as PreparedChunk;
      }
    } finally {
      if (!this.ended) this.end(finished);
    }
  }

  /** Detaches from the worker: back to the pool when its job finished, else stopped. */
  private end(finished: boolean): void {
    this.ended = true;
    const w = this.worker;
    w.off("message", this.listeners.message);
    w.off("error", this.listeners.error);
    w.off("exit", this.listeners.exit);
    w.unref();
    if (finished) this.on.release();
    else this.on.abandon();
  }
}
