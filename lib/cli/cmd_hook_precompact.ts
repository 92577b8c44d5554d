/**
 * `deja hook-precompact`: a hook a harness runs before it compacts the
 * conversation (lib/hooks/run.ts): what this agent session did, as the index
 * knows it, so the summary can keep it. Reads the JSON event on stdin, prints
 * a bounded block in the harness's envelope or nothing, and exits 0 whatever
 * happens.
 *
 * Parse ({@link parseHookArgs}) → run ({@link hookAnswer}) → render ({@link renderHook}: the
 * harness's envelope, lib/hooks/dialect.ts), shared by every hook (lib/hooks/run.ts).
 *
 * @module
 */
import { hookCommandSpec } from "./_hook_options.ts";

/** The `hook-precompact` command. */
export const hookPrecompactCmd = hookCommandSpec(
  "hook-precompact",
  "hook-precompact [--harness ID] < event.json",
);

export { parseHookArgs } from "./_hook_options.ts";
export { hookAnswer, renderHook } from "../hooks/run.ts";
