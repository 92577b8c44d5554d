/**
 * The hooks as a process: what `deja hook-*` runs, both from the command
 * table (main.ts) and from the compiled binary's fast path (bin.ts), which
 * loads only the hook modules. Any argument is accepted (`--harness <id>` and
 * `--crush` choose the dialect, dialect.ts) and the exit status is 0 whatever
 * happens; a hard deadline ends the process silently if the hook overruns its
 * time budget. A `hook-*` name the table does not know is no hook: it is an
 * error (exit 2), not a search.
 *
 * @module
 */
import { deadline, exitNow, hookIO, type IO } from "../../core/runtime.ts";
import { DEADLINE_MS, runHook } from "./run.ts";
import { HOOK_NAMES, type HookName, unknownHookMessage } from "./table.ts";

export { HOOK_NAMES, unknownHook, unknownHookMessage } from "./table.ts";

/** Runs the hook `io.args` names (`hook-tool --harness crush` …); 0, or 2 for an unknown hook. */
export async function runHookArgs(io: IO): Promise<number> {
  const [name, ...rest] = io.args;
  if (!HOOK_NAMES.has(name)) {
    io.err(unknownHookMessage(String(name)));
    return 2;
  }
  return await runHook(name as HookName, rest, io);
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
    await runHook(io.args[0] as HookName, io.args.slice(1), io);
  } catch { /* a hook never fails */ }
  exitNow(0);
}
