/** `deja uninstall <target>… | --all`: remove what 'deja install' added, and nothing else. */
import type { Command } from "./common.ts";
import { tilde } from "../../core/text.ts";
import { runWire } from "./cmd_install.ts";
import { removeService, servicePath } from "../fresh/service.ts";

export const uninstallCmd: Command = {
  name: "uninstall",
  summary: "Remove what 'deja install' added (and nothing else) from the harnesses' configs.",
  usage: "uninstall <target>... | --all | --watch-service [--json]",
  options: {
    all: { type: "boolean", description: "every target deja can wire (and the watch service)" },
    auto: { type: "boolean", description: "same as --all" },
    "watch-service": {
      type: "boolean",
      description: "remove the service file 'install --watch-service' wrote",
    },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run(a, io) {
    const service = Boolean(a.values["watch-service"]) || Boolean(a.values.all);
    const onlyService = Boolean(a.values["watch-service"]) && !a.positionals.length &&
      !a.values.all && !a.values.auto;
    const code = onlyService ? 0 : runWire(a, io, false);
    if (service && removeService(io.env) && !a.values.json) {
      io.out(
        `removed   ${"watch".padEnd(12)} service  ${tilde(servicePath(io.env)!, io.env.home)}\n`,
      );
      io.out("(a running watcher stops at its next restart: systemctl --user stop deja-watch)\n");
    }
    return Promise.resolve(code);
  },
};
