/**
 * The options every `hook-*` command takes: `--harness <id>` picks the
 * dialect (lib/hooks/dialect.ts); `--crush` is `--harness crush`.
 *
 * @module
 */
import type { Args, Command } from "./common.ts";

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
