/**
 * `deja hook-tool [--crush]`: a hook a harness runs before a shell or edit
 * tool call (lib/hooks/run.ts); with `--crush`, Crush's only hook, carrying
 * everything (lib/hooks/crush.ts). Reads the JSON event on stdin, prints a
 * bounded block in the harness's envelope or nothing, and exits 0 whatever
 * happens.
 *
 * Parse ({@link parseHookArgs}) → run ({@link hookAnswer}) → render ({@link renderHook}: the
 * harness's envelope, lib/hooks/dialect.ts), shared by every hook (lib/hooks/run.ts).
 *
 * @module
 */
import { hookCommandSpec } from "./_hook_options.ts";

/** The `hook-tool` command. */
export const hookToolCmd = hookCommandSpec(
  "hook-tool",
  "hook-tool [--crush] [--harness ID] < event.json",
);

export { parseHookArgs } from "./_hook_options.ts";
export { hookAnswer, renderHook } from "../hooks/run.ts";
