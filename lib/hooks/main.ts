/**
 * The hooks as a process: what `deja hook-*` runs, both from the command
 * table (main.ts) and from the compiled binary's fast path (bin.ts), which
 * loads only the hook modules. Any argument is accepted (only `--crush`
 * means something) and the exit status is 0 whatever happens; a hard
 * deadline ends the process silently if the hook overruns its time budget.
 *
 * @module
 */
import { deadline, exitNow, hookIO, type IO } from "../../core/runtime.ts";
import { DEADLINE_MS, type HookName, runHook } from "./run.ts";

/** The hook command names. */
export const HOOK_NAMES: ReadonlySet<string> = new Set<HookName>([
  "hook-context",
  "hook-prompt",
  "hook-tool",
  "hook-tool-after",
]);

/** Runs the hook `io.args` names (`hook-tool --crush` …); returns 0. */
export async function runHookArgs(io: IO): Promise<number> {
  const [name, ...rest] = io.args;
  if (!HOOK_NAMES.has(name)) return 0;
  return await runHook(name as HookName, { crush: rest.includes("--crush") }, io);
}

/**
 * The whole hook process: arms the hard deadline, runs the hook with the
 * light file-descriptor IO, and exits 0 at once (a harness may keep stdin
 * open; the output was written synchronously).
 */
export async function hookProcess(): Promise<void> {
  let io: IO | undefined;
  try {
    io = hookIO();
    const ms = Number(io.env.get("DEJA_HOOK_DEADLINE_MS") ?? DEADLINE_MS) || DEADLINE_MS;
    deadline(ms + 250, 0);
    await runHookArgs(io);
  } catch { /* a hook never fails */ }
  exitNow(0);
}
