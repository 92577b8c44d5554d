/**
 * The writer's side of a parse worker's job (lib/parse_pool.ts): a
 * {@link WorkerGroup} posts consecutive sources to one worker in one message
 * and routes the worker's answers, which come in the sources' order, to each
 * source's {@link WorkerRun}, which the writer reads as that source's chunks.
 *
 * @module
 */
import type { Worker } from "node:worker_threads";
import type { SourceCtx } from "./parse_ctx.ts";
import { absorb, type ParseBatch, type ParseEnd, type ParseJob } from "./parse_job.ts";
import type { PreparedChunk } from "./prepare.ts";
import { decodeChunk, wireBytes, type WireChunk } from "./chunk_wire.ts";

/** A source's prepared chunks, being parsed; {@link cancel} when they will not be read to the end. */
export interface ParseRun extends AsyncIterable<PreparedChunk> {
  /** Stops a parse whose chunks are not (or no longer) wanted; nothing once they were all read. */
  cancel(): void;
}

type Msg =
  /** A prepared chunk on the wire (lib/chunk_wire.ts). */
  | ({ type: "chunk" } & WireChunk)
  | { type: "done"; end: ParseEnd }
  | { type: "error"; message: string }
  /** The worker itself failed (its module did not load, it crashed). */
  | { type: "broken"; message: string }
  /** The source is parsed in process after all (a worker job would cost more than it saves). */
  | { type: "local" };

/** What a run asks of its pool. */
export interface RunHooks {
  /** A chunk of `bytes` of text was taken (the pool paces collections by them). */
  took(bytes: number): void;
  /** The run, not started, is not wanted. */
  unqueue(r: WorkerRun): void;
  /** No worker can run at all: this source is parsed in process, and the pool's later ones too. */
  fallback(): AsyncIterable<PreparedChunk>;
  /** The source parsed in process. */
  inProcess(): AsyncIterable<PreparedChunk>;
}

/**
 * One source's job: queued until its group starts on a worker, its messages
 * queued until read, each chunk taken acknowledged. Chunks not read (the run
 * cancelled) are acknowledged as they come.
 */
export class WorkerRun implements ParseRun {
  private queue: Msg[] = [];
  private wake?: () => void;
  private group?: WorkerGroup;
  /** Read by the writer (an iteration began). */
  private reading = false;
  /** The job's last message came (or the worker broke). */
  private parsed = false;
  /** Not wanted any more. */
  private cancelled = false;

  constructor(
    readonly job: ParseJob,
    /** Bytes to parse. */
    readonly bytes: number,
    private ctx: SourceCtx,
    private on: RunHooks,
  ) {}

  /** Joins `group`, which posts the job. */
  joined(group: WorkerGroup): void {
    this.group = group;
  }

  /** A message of this job from its group's worker. */
  push(m: Msg): void {
    if (m.type !== "chunk") this.parsed = true;
    // Dropped: its credit goes back to the worker at once.
    if (this.cancelled) {
      if (m.type === "chunk") this.group?.ack(wireBytes(m));
      return;
    }
    this.queue.push(m);
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** No worker takes the job: the iteration parses in process. */
  local(): void {
    this.push({ type: "local" });
  }

  /** No worker can take the job: the iteration falls back to parsing in process. */
  fail(message: string): void {
    this.push({ type: "broken", message });
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
        if (m.type === "local") {
          yield* this.on.inProcess();
          return;
        }
        if (m.type === "broken" && !taken) {
          yield* this.on.fallback();
          return;
        }
        if (m.type === "error" || m.type === "broken") throw new Error(m.message);
        if (m.type === "done") {
          absorb(this.ctx, m.end);
          return;
        }
        const bytes = wireBytes(m);
        this.group?.ack(bytes);
        taken = true;
        this.on.took(bytes);
        yield decodeChunk(m);
      }
    } finally {
      this.stop();
    }
  }

  /**
   * Ends the run where it is: not started, dropped; parsed, the chunks left
   * acknowledged; mid-parse, the rest of its chunks are dropped as they come
   * (a source alone in its job stops the worker instead: it may be large).
   */
  private stop(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    if (!this.group) return this.on.unqueue(this);
    for (const m of this.queue.splice(0)) if (m.type === "chunk") this.group.ack(wireBytes(m));
    if (!this.parsed) this.group.stopped();
  }
}

/** What a group tells its pool. */
export interface GroupHooks {
  /** The group's parses ended: `w` may take the next job. */
  release(w: Worker): void;
  /** `w` is stopped mid-job or broken. */
  abandon(w: Worker): void;
}

/**
 * Consecutive sources posted to one worker as one message: the worker answers
 * each in order (its chunks, then its end or its error), so the answers are
 * routed to the runs by position. The worker is handed back once the last
 * source's end came; chunks the writer takes later are still acknowledged to it.
 */
export class WorkerGroup {
  /** The run the worker's next message belongs to. */
  private at = 0;
  private detached = false;
  private readonly listeners = {
    message: (m: Msg) => this.route(m),
    error: (e: Error) => this.broke(e?.message ?? String(e)),
    exit: () => this.broke("parse worker stopped"),
  };

  constructor(private worker: Worker, private runs: WorkerRun[], private on: GroupHooks) {
    for (const r of runs) r.joined(this);
  }

  /** Posts the runs' jobs, with the environment they share. */
  start(vars: ParseBatch["vars"], home: string): void {
    const w = this.worker;
    w.on("message", this.listeners.message);
    w.on("error", this.listeners.error);
    w.on("exit", this.listeners.exit);
    w.ref();
    const batch: ParseBatch = { jobs: this.runs.map((r) => r.job), vars, home };
    w.postMessage({ type: "parse", batch });
  }

  /** Acknowledges a chunk of `bytes` taken (or dropped) to the worker that posted it. */
  ack(bytes: number): void {
    try {
      this.worker.postMessage({ type: "ack", bytes });
    } catch { /* the worker is gone */ }
  }

  /** A run stopped before its end came: a source alone in the job stops the worker. */
  stopped(): void {
    if (this.runs.length === 1) this.end(false);
  }

  private route(m: Msg): void {
    const r = this.runs[this.at];
    if (!r) return;
    if (m.type !== "chunk") this.at++;
    r.push(m);
    if (this.at === this.runs.length) this.end(true);
  }

  /** The worker failed: every run not ended hears so. */
  private broke(message: string): void {
    const left = this.runs.slice(this.at);
    this.end(false);
    for (const r of left) r.push({ type: "broken", message });
  }

  /** Detaches from the worker: back to the pool when its jobs ended, else stopped. */
  private end(ended: boolean): void {
    if (this.detached) return;
    this.detached = true;
    this.at = this.runs.length;
    const w = this.worker;
    w.off("message", this.listeners.message);
    w.off("error", this.listeners.error);
    w.off("exit", this.listeners.exit);
    w.unref();
    if (ended) this.on.release(w);
    else this.on.abandon(w);
  }
}
