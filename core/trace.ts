/**
 * An opt-in timeline of an index run (issue 18): with `DEJA_TRACE_INDEX=1`
 * each thread writes lines `deja-trace <ms> <thread> <what>` to stderr, `<ms>`
 * counted from the start of the first process of the run (a relaunch,
 * core/runtime.ts relaunchForBatch, inherits it), `<thread>` 0 for the
 * writer's and the worker's id for a parse worker. Off, {@link trace} returns
 * at once; callers that measure a wait test {@link tracing} first.
 *
 * `DEJA_TRACE_QUERY=1` writes the same lines for a search (issue 15: where a
 * cold query's time goes, phase by phase; lib/search.ts lists the figures).
 *
 * @module
 */
import process from "node:process";
import { writeSync } from "node:fs";

const VAR = "DEJA_TRACE_INDEX";
const T0_VAR = "DEJA_TRACE_T0";

/** Whether the trace is on (the environment's DEJA_TRACE_INDEX=1 or DEJA_TRACE_QUERY=1). */
export const tracing: boolean = process.env[VAR] === "1" ||
  process.env["DEJA_TRACE_QUERY"] === "1";

/**
 * This thread's id (0 the main thread's), read only when tracing: node:worker_threads
 * costs a cold search of the Bun binary ~1-2 ms to load (issue 15).
 */
const threadId: number = tracing
  ? (process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads"))
    .threadId
  : 0;

/** The run's start, in ms since the epoch (the first process's, or this one's). */
const t0 = tracing ? start() : 0;

function start(): number {
  const inherited = Number(process.env[T0_VAR]);
  if (Number.isFinite(inherited) && inherited > 0) return inherited;
  const mine = performance.timeOrigin;
  process.env[T0_VAR] = String(mine); // a relaunched process and the workers count from here
  return mine;
}

if (tracing && threadId === 0) process.on("exit", () => trace("exit"));

/** Milliseconds since the run's start (0 when not tracing). */
export function traceNow(): number {
  return tracing ? performance.timeOrigin + performance.now() - t0 : 0;
}

/** Writes one line of the timeline (nothing when not tracing). */
export function trace(what: string): void {
  if (!tracing) return;
  try {
    writeSync(2, `deja-trace ${traceNow().toFixed(1)} ${threadId} ${what}\n`);
  } catch { /* stderr closed */ }
}
