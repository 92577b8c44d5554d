/**
 * What the indexer and its parse worker (lib/parse_worker.ts) exchange: the
 * jobs that name the sources to parse (several small ones in one message), and
 * what each parse context ended with.
 *
 * @module
 */
import type { DriftKind, SkipReason, SourceRef } from "../core/model.ts";
import type { DriftSummary, SourceCtx } from "./parse_ctx.ts";
import type { Label } from "./remote/label.ts";

/** Session chunks a worker may post before the writer has taken them, over all its jobs. */
export const MAX_IN_FLIGHT = 4;

/**
 * Bytes of chunk text a worker may have posted and not acknowledged beyond
 * {@link MAX_IN_FLIGHT} chunks: small stores make chunks of a few KB, and four
 * of them in flight kept the writer and the workers waiting on each other's
 * messages (issue 18: on 2,394 stores of 40 KB the writer waited 4.7 s for
 * chunks while each worker waited 5.6 s for acknowledgements). It also carries
 * the workers through a batch's commit (lib/write_batch.ts: 100-200 ms in which
 * the writer takes no chunk): at 1 MB (about one 1.5 MB store's chunks) each
 * worker of a traced run of the 100 MB bench corpus waited ~0.85 s for credit
 * and the writer then waited ~0.3 s for chunks after the commits; at 3 MB
 * neither waited mid-run (DEJA_TRACE_INDEX=1, 2 runs under SCHED_FIFO at load 10).
 * Compiled binary, 4 alternating runs on that corpus at load 12 (SCHED_FIFO): wall
 * 2.49-2.76 s before this and JOB_DEPTH (lib/parse_pool.ts), 2.34-2.58 after;
 * peak RSS 114-119 then 121-124 MB; 2,522 stores of 40 KB: 3.69-3.78 s, 3.33-3.43 s,
 * 132-137 then 131-132 MB.
 */
export const IN_FLIGHT_BYTES = 3 << 20;

/** One source to parse. Plain data: it crosses a thread boundary. */
export interface ParseJob {
  /** Parser id (parsers/mod.ts). */
  parser: string;
  src: SourceRef;
  offset: number;
  state: unknown;
  since: number;
  /** core/model.ts `ParseCtx.held`, as a list. */
  held?: string[];
  /** A remote's label, applied to every chunk (lib/remote/label.ts). */
  label?: Label;
}

/**
 * One message to a worker: sources it parses one after the other, in order,
 * each answered by its chunks then its end or its error, and the environment
 * they share, copied once per message (a copy per store cost ~0.3 ms each).
 */
export interface ParseBatch {
  jobs: ParseJob[];
  /** The environment's variables and home (an Env is rebuilt from them). */
  vars: Record<string, string | undefined>;
  home: string;
}

/** What a parse context recorded, as plain data. */
export interface ParseEnd {
  endOffset?: number;
  endState?: unknown;
  endWatermark?: number;
  endHolds?: string[];
  counts: Partial<Record<SkipReason, number>>;
  examples: string[];
  driftCounts: Partial<Record<DriftKind, number>>;
  drift: DriftSummary;
}

/** The end of `ctx`'s pass as plain data. */
export function snapshot(ctx: SourceCtx): ParseEnd {
  return {
    endOffset: ctx.endOffset,
    endState: ctx.endState,
    endWatermark: ctx.endWatermark,
    ...(ctx.endHolds ? { endHolds: ctx.endHolds } : {}),
    counts: { ...ctx.counts },
    examples: [...ctx.examples],
    driftCounts: { ...ctx.driftCounts },
    drift: ctx.drifted(),
  };
}

/** Folds a worker's {@link ParseEnd} into the writer's own context for the same source. */
export function absorb(ctx: SourceCtx, end: ParseEnd): void {
  ctx.endOffset = end.endOffset;
  ctx.endState = end.endState;
  ctx.endWatermark = end.endWatermark;
  if (end.endHolds) ctx.endHolds = end.endHolds;
  Object.assign(ctx.counts, end.counts);
  ctx.examples.push(...end.examples);
  Object.assign(ctx.driftCounts, end.driftCounts);
  ctx.driftNotes.push(...end.drift.notes);
  if (end.drift.version) ctx.harnessVersion = end.drift.version;
}
