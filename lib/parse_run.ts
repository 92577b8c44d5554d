/**
 * The writer's side of a parse worker's jobs (lib/parse_pool.ts): a
 * {@link WorkerLane} posts jobs to one worker (a job: consecutive sources in one
 * message, a {@link WorkerGroup}) and routes the worker's answers, which come in
 * the jobs' and the sources' order, to each source's {@link WorkerRun}, which
 * the writer reads as that source's chunks.
 *
 * @module
 */
import { runIdle } from "./idle.ts";
import type { Worker } from "node:worker_threads";
import type { SourceCtx } from "./parse_ctx.ts";
import { absorb, type ParseBatch, type ParseEnd, type ParseJob } from "./parse_job.ts";
import type { PreparedChunk } from "./prepare.ts";
import { decodeChunk, wireBytes, type WireChunk } from "./chunk_wire.ts";
import { trace, traceNow, tracing } from "../core/trace.ts";

/** A source's prepared chunks, being parsed; {@link cancel} when they will not be read to the end. */
export interface ParseRun extends AsyncIterable<PreparedChunk> {
  /** Stops a parse whose chunks are not (or no longer) wanted; nothing once they were all read. */
  cancel(): void;
}

type Msg =
  /** A prepared chunk on the wire (lib/chunk_wire.ts), the worker's `seq`-th. */
  | ({ type: "chunk"; seq: number; at?: number } & WireChunk)
  | { type: "done"; end: ParseEnd }
  | { type: "error"; message: string }
  /** The worker itself failed (its module did not load, it crashed). */
  | { type: "broken"; message: string }
  /** The source is parsed in process after all (a worker job would cost more than it saves). */
  | { type: "local" };

/** The trace's mark: the run's first chunk from a worker reached the writer. */
let firstTaken = false;

/** What a run asks of its pool. */
export interface RunHooks {
  /** A chunk of `bytes` of text was taken (the pool paces collections by them). */
  took(bytes: number): void;
  /** The run, not started, is not wanted. */
  unqueue(r: WorkerRun): void;
  /** The writer reads the run, not started yet: it may not wait for more sources to share its job. */
  demand(): void;
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
  /** The writer reads it (its iteration began). */
  get demanded(): boolean {
    return this.reading;
  }

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

  /** Not cancelled and nothing of it came yet: it may be posted again elsewhere. */
  wanted(): boolean {
    return !this.cancelled && !this.queue.length && !this.parsed;
  }

  /** Leaves a job that will not run (its worker was stopped before it): queued again. */
  unjoin(): void {
    this.group = undefined;
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
    if (!this.group && !this.queue.length) this.on.demand();
    let taken = false;
    /** The trace's idle time: the writer waiting with none of this source's messages come. */
    let idle = 0;
    try {
      for (;;) {
        const at = traceNow();
        // Waiting: a task queued for the writer's idle time first (lib/idle.ts).
        while (!this.queue.length && await runIdle());
        while (!this.queue.length) await new Promise<void>((r) => (this.wake = r));
        if (tracing) idle += traceNow() - at;
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
        if (tracing && !firstTaken) {
          trace(`first chunk ${(firstTaken = true) && this.job.src.path}`);
        }
        taken = true;
        this.on.took(bytes);
        const chunk = decodeChunk(m);
        if (m.at !== undefined) chunk.at = m.at;
        const group = this.group;
        if (group && chunk.tokens.length) chunk.kept = () => group.kept(m.seq);
        yield chunk;
      }
    } finally {
      if (tracing) trace(`idle ${this.job.src.path} ${idle.toFixed(1)}`);
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

/** What a lane tells its pool. */
export interface LaneHooks {
  /** A job of the lane ended: it may take another. */
  release(lane: WorkerLane): void;
  /**
   * The lane's worker is stopped mid-job (or broke): the runs of the jobs that
   * waited behind it and were not cancelled, to be posted again.
   */
  abandon(lane: WorkerLane, requeue: WorkerRun[]): void;
}

/**
 * One worker and the jobs posted to it, in order: it parses them one after the
 * other, so its messages belong to the first job not ended. Several jobs are
 * posted ahead (lib/parse_pool.ts JOB_DEPTH) so that a worker that ends one starts
 * the next at once, without waiting for the writer's thread to hear of it.
 */
export class WorkerLane {
  /** Jobs posted and not ended, the one being parsed first. */
  readonly groups: WorkerGroup[] = [];
  private gone = false;
  /** Chunks whose tokens the writer kept, in order, not told to the worker yet. */
  private keptSeqs: number[] = [];
  private readonly listeners = {
    message: (m: Msg) => this.groups[0]?.route(m),
    error: (e: Error) => this.broke(e?.message ?? String(e)),
    exit: () => this.broke("parse worker stopped"),
  };

  constructor(readonly worker: Worker, private on: LaneHooks) {
    worker.on("message", this.listeners.message);
    worker.on("error", this.listeners.error);
    worker.on("exit", this.listeners.exit);
  }

  /** Jobs posted and not ended. */
  get depth(): number {
    return this.groups.length;
  }

  /** Posts `runs` as one job, with the environment they share. */
  post(runs: WorkerRun[], vars: ParseBatch["vars"], home: string): void {
    const g = new WorkerGroup(this, runs);
    this.groups.push(g);
    if (this.groups.length === 1) this.worker.ref();
    const batch: ParseBatch = { jobs: runs.map((r) => r.job), vars, home };
    this.worker.postMessage({ type: "parse", batch });
  }

  /**
   * Acknowledges a chunk of `bytes` taken (or dropped) to the worker, with the
   * chunks whose tokens the writer kept since the last acknowledgement.
   */
  ack(bytes: number): void {
    const kept = this.keptSeqs;
    if (kept.length) this.keptSeqs = [];
    try {
      this.worker.postMessage(kept.length ? { type: "ack", bytes, kept } : { type: "ack", bytes });
    } catch { /* the worker is gone */ }
  }

  /**
   * The writer kept the tokens of the worker's `seq`-th chunk (it tells the
   * worker with its next acknowledgement: no message of its own).
   */
  kept(seq: number): void {
    this.keptSeqs.push(seq);
  }

  /** `g`'s jobs ended (its last end came). */
  ended(g: WorkerGroup): void {
    if (this.groups[0] !== g) return;
    this.groups.shift();
    if (!this.groups.length) this.worker.unref();
    this.on.release(this);
  }

  /**
   * `g` (its single source stopped before its end) is not wanted: the worker is
   * stopped when `g` is the job it parses (a large source is not parsed to no
   * end); a job still waiting behind another is parsed and its chunks dropped.
   */
  stopped(g: WorkerGroup): void {
    if (this.groups[0] !== g) return;
    const later = this.groups.slice(1).flatMap((x) => x.pending());
    this.detach();
    this.on.abandon(this, later);
  }

  /** Stops listening to the worker (the pool terminates it). */
  detach(): void {
    if (this.gone) return;
    this.gone = true;
    const w = this.worker;
    w.off("message", this.listeners.message);
    w.off("error", this.listeners.error);
    w.off("exit", this.listeners.exit);
    w.unref();
    for (const g of this.groups) g.detached = true;
    this.groups.length = 0;
  }

  /** The worker failed: every run of its jobs not ended hears so. */
  private broke(message: string): void {
    const left = this.groups.flatMap((g) => g.left());
    this.detach();
    this.on.abandon(this, []);
    for (const r of left) r.push({ type: "broken", message });
  }
}

/**
 * Consecutive sources posted to one worker as one message (a job): the worker
 * answers each in order (its chunks, then its end or its error), so the answers
 * are routed to the runs by position. The job ends once the last source's end
 * came; chunks the writer takes later are still acknowledged to the worker.
 */
export class WorkerGroup {
  /** The run the worker's next message belongs to. */
  private at = 0;
  /** No longer routed to (its lane's worker stopped). */
  detached = false;

  constructor(private lane: WorkerLane, private runs: WorkerRun[]) {
    for (const r of runs) r.joined(this);
  }

  /** Acknowledges a chunk of `bytes` taken (or dropped) to the worker that posted it. */
  ack(bytes: number): void {
    this.lane.ack(bytes);
  }

  /** The writer kept the tokens of the worker's `seq`-th chunk. */
  kept(seq: number): void {
    this.lane.kept(seq);
  }

  /** A run stopped before its end came: a source alone in the job stops the worker. */
  stopped(): void {
    if (this.runs.length === 1 && !this.detached) this.lane.stopped(this);
  }

  /** A message of the worker while this job is the one it parses. */
  route(m: Msg): void {
    const r = this.runs[this.at];
    if (!r || this.detached) return;
    if (m.type !== "chunk") this.at++;
    r.push(m);
    if (this.at === this.runs.length) this.lane.ended(this);
  }

  /** The runs whose end did not come. */
  left(): WorkerRun[] {
    return this.runs.slice(this.at);
  }

  /** The runs of a job not begun that are still wanted (to post again elsewhere). */
  pending(): WorkerRun[] {
    return this.runs.filter((r) => r.wanted());
  }
}
