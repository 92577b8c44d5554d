/** `deja uninstall <target>… | --all`: remove what 'deja install' added, and nothing else. */
import type { Command } from "./common.ts";
import { runWire } from "./cmd_install.ts";

export const uninstallCmd: Command = {
  name: "uninstall",
  summary: "Remove what 'deja install' added (and nothing else) from the harnesses' configs.",
  usage: "uninstall <target>... | --all [--json]",
  options: {
    all: { type: "boolean", description: "every target deja can wire" },
    auto: { type: "boolean", description: "same as --all" },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runWire(a, io, false)),
};
