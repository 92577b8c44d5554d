/**
 * Parsing beside writing: the indexer hands a large source to one parse worker
 * thread (lib/parse_worker.ts) and writes its session chunks as they arrive, so
 * reading, JSON parsing, normalising, redacting and tokenising (lib/prepare.ts)
 * run on one core while SQLite inserts on the other. One worker per run, one source at a time; chunks flow through
 * a bounded window (MAX_IN_FLIGHT in lib/parse_job.ts), so memory stays bounded however
 * large the store. Where no worker can start (a runtime or build without
 * worker support, an environment that cannot cross a thread), sources are
 * parsed in process as before.
 *
 * `DEJA_PARSE_WORKER=0` turns the worker off, `=1` uses it for every source
 * (tests); by default sources of {@link WORKER_MIN_BYTES} or more use it.
 *
 * @module
 */
import { Worker } from "node:worker_threads";
import { collectGarbage } from "../core/runtime.ts";
import type { Env, Parser, Session, SourceRef } from "../core/model.ts";
import type { SourceCtx } from "./parse_ctx.ts";
import { parserFor } from "../parsers/mod.ts";
import { absorb, type ParseEnd, type ParseJob } from "./parse_job.ts";
import { prepareChunk, type PreparedChunk } from "./prepare.ts";
import { VocabCollector } from "./search/tokenize.ts";
import type { Label } from "./remote/label.ts";

/** Chunks taken from the worker between two garbage collection hints (core/runtime.ts). */
const GC_CHUNKS = 32;

/** Sources smaller than this (bytes) are parsed in process: a thread hop costs more than it saves. */
export const WORKER_MIN_BYTES = 256 * 1024;

type Msg =
  | { type: "chunk"; chunk: PreparedChunk }
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

/** A lazily started parse worker, shared by the sources of one index run. */
export class ParsePool {
  private worker?: Worker;
  private failed = false;

  constructor(private env: Env) {}

  /**
   * The chunks of `src` as `parser` yields them, labelled with `label` (a
   * remote's) and prepared for the writer (lib/prepare.ts), in the worker when
   * it pays and one can run, else in process; either way `ctx` ends as the
   * parser left it. A parser's error is thrown from the iteration.
   */
  parse(
    parser: Parser,
    src: SourceRef,
    ctx: SourceCtx,
    size: number,
    label?: Label,
  ): AsyncIterable<PreparedChunk> {
    const mode = this.env.get("DEJA_PARSE_WORKER");
    const vars = this.env.vars?.();
    // The worker knows the registered parsers only (a test's own parser stays in process).
    const wanted = (mode === "1" || (mode !== "0" && size >= WORKER_MIN_BYTES)) &&
      parserFor(parser.id) === parser;
    const worker = wanted && vars ? this.start() : undefined;
    if (!worker || !vars) return prepared(parser.parse(src, ctx), label);
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
    // A writer that stops early leaves the worker mid-source: it is stopped, the next starts anew.
    return stream(worker, job, ctx, {
      abandon: () => {
        worker.terminate();
        if (this.worker === worker) this.worker = undefined;
      },
      // A worker that cannot run at all: this source and the rest are parsed in process.
      fallback: () => {
        this.failed = true;
        return prepared(parser.parse(src, ctx), label);
      },
    });
  }

  /** Stops the worker (call once the run is over). */
  close(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      this.worker = new Worker(workerUrl());
      this.worker.unref();
    } catch {
      this.failed = true;
    }
    return this.worker;
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

/** Messages of one job as an async iteration, acknowledging each chunk taken. */
async function* stream(
  worker: Worker,
  job: ParseJob,
  ctx: SourceCtx,
  on: { abandon(): void; fallback(): AsyncIterable<PreparedChunk> },
): AsyncGenerator<PreparedChunk> {
  let finished = false;
  let taken = 0;
  const queue: Msg[] = [];
  let wake: (() => void) | undefined;
  const push = (m: Msg) => {
    queue.push(m);
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onMessage = (m: Msg) => push(m);
  const onError = (e: Error) => push({ type: "broken", message: e?.message ?? String(e) });
  const onExit = () => push({ type: "broken", message: "parse worker stopped" });
  worker.on("message", onMessage);
  worker.on("error", onError);
  worker.on("exit", onExit);
  worker.ref();
  try {
    worker.postMessage({ type: "parse", job });
    for (;;) {
      while (!queue.length) await new Promise<void>((r) => (wake = r));
      const m = queue.shift()!;
      if (m.type === "broken" && taken === 0) {
        on.abandon();
        finished = true;
        yield* on.fallback();
        return;
      }
      if (m.type === "error" || m.type === "broken") throw new Error(m.message);
      if (m.type === "done") {
        absorb(ctx, m.end);
        finished = true;
        return;
      }
      worker.postMessage({ type: "ack" });
      // The writer's copies of the chunks are garbage once written; Bun collects their text late.
      if (++taken % GC_CHUNKS === 0) collectGarbage();
      yield m.chunk;
    }
  } finally {
    worker.off("message", onMessage);
    worker.off("error", onError);
    worker.off("exit", onExit);
    worker.unref();
    if (!finished) on.abandon();
  }
}
