/**
 * `deja hook-context`: a hook a harness runs (lib/hooks/run.ts). Reads the
 * harness's JSON event on stdin, prints a bounded block in its envelope or
 * nothing, and exits 0 whatever happens.
 *
 * @module
 */
import type { CommandSpec } from "./common.ts";
import { runHookArgs } from "../hooks/main.ts";
import { hookArgs, hookOptions } from "./_hook_options.ts";

/** The `hook-context` command. */
export const hookContextCmd: CommandSpec = {
  usage: "hook-context [--harness ID] < event.json",
  options: hookOptions,
  run: (args, io) => runHookArgs({ ...io, args: ["hook-context", ...hookArgs(args)] }),
};
