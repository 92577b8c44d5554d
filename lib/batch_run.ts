/**
 * Which `deja index` runs are batch runs, read by a process tuned for a long
 * run (core/runtime.ts relaunchForBatch): a rebuild, or a first build (no
 * index file yet). One rule, read twice: by bin.ts from the raw arguments
 * before main.ts and the command modules load, and by lib/cli/cmd_index.ts
 * (a run from source, through main.ts).
 *
 * Deciding in bin.ts saves the first process the loading of main.ts and the
 * command table before it is replaced (issue 18): traced on the 100 MB bench
 * corpus (DEJA_TRACE_INDEX=1, compiled binary, 4 alternating runs under
 * SCHED_FIFO at load 14-17), the relaunch came at 24-30 ms against 36-40 when
 * cmd_index decided, the relaunched process's index command at 76-87 ms
 * against 91-123.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Env } from "../core/model.ts";
import { indexPath } from "../core/paths.ts";
import { relaunchForBatch } from "../core/runtime.ts";
import { trace } from "../core/trace.ts";

/** True when an index run reads every store: `rebuild`, or no index file yet. */
export function buildsAll(env: Env, rebuild: boolean): boolean {
  return rebuild || !existsSync(indexPath(env));
}

/**
 * Relaunches the process for a batch run when `argv` (the user's arguments)
 * asks `deja index` for one ({@link buildsAll}); `--watch` and `--help` are no
 * batch runs. Returns when nothing is relaunched.
 */
export function relaunchIndexBatch(argv: readonly string[], env: Env): void {
  trace("bin");
  if (argv[0] !== "index" || argv.includes("--watch")) return;
  if (argv.includes("--help") || argv.includes("-h")) return;
  if (!buildsAll(env, argv.includes("--rebuild"))) return;
  relaunchForBatch("index", () => trace("relaunch"));
}
