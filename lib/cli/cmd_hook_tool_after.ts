/**
 * `deja hook-tool-after`: a hook a harness runs (lib/hooks/run.ts). Reads the
 * harness's JSON event on stdin, prints a bounded block in its envelope or
 * nothing, and exits 0 whatever happens.
 *
 * @module
 */
import type { CommandSpec } from "./common.ts";
import { runHookArgs } from "../hooks/main.ts";
import { hookArgs, hookOptions } from "./_hook_options.ts";

/** The `hook-tool-after` command. */
export const hookToolAfterCmd: CommandSpec = {
  usage: "hook-tool-after [--harness ID] < event.json",
  options: hookOptions,
  run: (args, io) => runHookArgs({ ...io, args: ["hook-tool-after", ...hookArgs(args)] }),
};
