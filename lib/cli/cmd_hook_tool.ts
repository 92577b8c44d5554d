/**
 * `deja hook-tool [--crush]`: a hook a harness runs before a shell or edit
 * tool call (lib/hooks/run.ts); with `--crush`, Crush's only hook, carrying
 * everything (lib/hooks/crush.ts). Reads the JSON event on stdin, prints a
 * bounded block in the harness's envelope or nothing, and exits 0 whatever
 * happens.
 *
 * @module
 */
import type { CommandSpec } from "./common.ts";
import { runHookArgs } from "../hooks/main.ts";
import { hookArgs, hookOptions } from "./_hook_options.ts";

/** The `hook-tool` command. */
export const hookToolCmd: CommandSpec = {
  usage: "hook-tool [--crush] [--harness ID] < event.json",
  options: hookOptions,
  run: (args, io) => runHookArgs({ ...io, args: ["hook-tool", ...hookArgs(args)] }),
};
