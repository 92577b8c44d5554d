/**
 * Work the index writer does while it waits for a parse worker's next chunk (issue 18):
 * the writer's thread idled ~180 ms of a 2 s first build of the 100 MB bench corpus
 * (DEJA_TRACE_INDEX=1, 37 waits over 1 ms), while the discovery of the forty harnesses
 * after Claude Code's ran after the last Claude store was written, ~50 ms on the same thread.
 * A task is taken one at a time, when the writer would otherwise wait, and the writer looks
 * for its chunk again after each (lib/parse_run.ts).
 *
 * @module
 */
import { setImmediate } from "node:timers";

const tasks: Array<() => void> = [];
let taken = 0;

/** How many queued tasks this process ran (tests). */
export function idleTasksRun(): number {
  return taken;
}

/** Queues `task` for the writer's next wait. */
export function whenIdle(task: () => void): void {
  tasks.push(task);
}

/** Drops every queued task (the run that queued them ends). */
export function clearIdle(): void {
  tasks.length = 0;
}

/**
 * Runs one queued task and lets the event loop turn (a worker's message may have come
 * meanwhile); false when none was queued.
 */
export async function runIdle(): Promise<boolean> {
  const task = tasks.shift();
  if (!task) return false;
  taken++;
  try {
    task();
  } catch { /* a task reports its own failure where it is awaited */ }
  await new Promise<void>((r) => setImmediate(r));
  return true;
}
