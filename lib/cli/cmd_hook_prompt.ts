/**
 * `deja hook-prompt`: a hook a harness runs (lib/hooks/run.ts). Reads the
 * harness's JSON event on stdin, prints a bounded block in its envelope or
 * nothing, and exits 0 whatever happens.
 *
 * Parse ({@link parseHookArgs}) → run ({@link hookAnswer}) → render ({@link renderHook}: the
 * harness's envelope, lib/hooks/dialect.ts), shared by every hook (lib/hooks/run.ts).
 *
 * @module
 */
import { hookCommandSpec } from "./_hook_options.ts";

/** The `hook-prompt` command. */
export const hookPromptCmd = hookCommandSpec(
  "hook-prompt",
  "hook-prompt [--harness ID] < event.json",
);

export { parseHookArgs } from "./_hook_options.ts";
export { hookAnswer, renderHook } from "../hooks/run.ts";
