/**
 * `deja hook-precompact`: a hook a harness runs before it compacts the
 * conversation (lib/hooks/run.ts): what this agent session did, as the index
 * knows it, so the summary can keep it. Reads the JSON event on stdin, prints
 * a bounded block in the harness's envelope or nothing, and exits 0 whatever
 * happens.
 *
 * @module
 */
import type { CommandSpec } from "./common.ts";
import { runHookArgs } from "../hooks/main.ts";
import { hookArgs, hookOptions } from "./_hook_options.ts";

/** The `hook-precompact` command. */
export const hookPrecompactCmd: CommandSpec = {
  usage: "hook-precompact [--harness ID] < event.json",
  options: hookOptions,
  run: (args, io) => runHookArgs({ ...io, args: ["hook-precompact", ...hookArgs(args)] }),
};
