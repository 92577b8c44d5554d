/**
 * The `hook-*` commands as the command table sees them (help, `deja help
 * hook-tool`): one factory for all five, their options (`--harness <id>` picks
 * the dialect, lib/hooks/dialect.ts; `--crush` is `--harness crush`), and the
 * parse from parsed arguments. The run and the render (the harness's envelope)
 * are lib/hooks/run.ts's, the same code the binary's fast path runs (bin.ts):
 * a hook never loads the CLI's modules.
 *
 * @module
 */
import type { Args, Command, CommandSpec } from "./common.ts";
import type { HookName } from "../hooks/table.ts";
import { type HookOptions, parseHook, runHook } from "../hooks/run.ts";

/** `--harness` and `--crush`, for a hook command's options. */
export const hookOptions: Command["options"] = {
  harness: {
    type: "string",
    description: "the harness whose event this is (its dialect in registry.json hook_dialects)",
  },
  crush: { type: "boolean", description: "same as --harness crush" },
};

/** The dialect arguments to pass on to the hook runner. */
export function hookArgs(args: Args): string[] {
  const out: string[] = [];
  if (typeof args.values.harness === "string") out.push("--harness", args.values.harness);
  if (args.values.crush) out.push("--crush");
  return out;
}

/** Reads a hook command's parsed arguments: which hook, in which dialect. */
export function parseHookArgs(name: HookName, args: Args): HookOptions {
  return parseHook(name, hookArgs(args));
}

/**
 * The fields of the event each hook reads (Claude Code's names; the dialects map
 * others', lib/hooks/dialect.ts), for its help (trial 24: `hook-tool-after --help` named
 * none, and a response given as text was guessed at).
 */
const READS: Record<HookName, string> = {
  "hook-context": 'session_id, cwd, source ("compact": this session\'s own work)',
  "hook-prompt": "session_id, cwd, prompt (text, or parts with text)",
  "hook-tool": "session_id, cwd, tool_name, tool_input.command or tool_input.file_path",
  "hook-tool-after": "session_id, cwd, tool_name, tool_input.command, and the failure:\n" +
    "  error (PostToolUseFailure), or tool_response (PostToolUse): its text, or\n" +
    "  {stdout, stderr, output, exit_code | exitCode | returncode, is_error | isError}\n" +
    "  (is_error false: the call succeeded, unless an exit code says not)",
  "hook-precompact": "session_id, cwd",
};

/** The command of hook `name`: parse, then lib/hooks/run.ts runs it and prints its envelope. */
export function hookCommandSpec(name: HookName, usage: string): CommandSpec {
  return {
    usage,
    options: hookOptions,
    details: `Reads a JSON event on stdin: ${READS[name]}.\n` +
      "Prints the harness's envelope or nothing, and exits 0 whatever happens (docs/hooks.md).",
    run: (args, io) => runHook(name, hookArgs(args), io),
  };
}
