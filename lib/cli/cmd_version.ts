/**
 * `deja version` (also `--version`, `-V`): deja's version, and with `--json`
 * the runtime and platform too. The bare forms answer before the command
 * table loads (bin.ts, main.ts); this command serves the ones with options.
 *
 * @module
 */
import type { CommandSpec } from "./common.ts";
import { printJson } from "./common.ts";
import { VERSION, VERSION_LINE } from "../version.ts";
import { platformName, runtimeName } from "../../core/runtime.ts";

/** The `--json` document of `deja version` (docs/json-output.md). */
export function versionJson(): { version: string; runtime: string; platform: string } {
  return { version: VERSION, runtime: runtimeName(), platform: platformName() };
}

/** The `version` command. */
export const versionCmd: CommandSpec = {
  usage: "version [--json]  (also --version, -V)",
  options: {
    json: { type: "boolean", description: "print version, runtime and platform as JSON" },
  },
  maxPositionals: 0,
  run: (a, io) => {
    if (a.values.json) printJson(io, versionJson());
    else io.out(VERSION_LINE);
    return Promise.resolve(0);
  },
};
