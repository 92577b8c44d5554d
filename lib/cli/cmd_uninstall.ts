/** `deja uninstall <target>… | --all`: remove what 'deja install' added, and nothing else. */
import type { CommandSpec } from "./common.ts";
import { tilde } from "../../core/text.ts";
import { runWire, serviceArgs } from "./cmd_install.ts";
import { REMOTE_SYNC, removeService, servicePath, stopHint, WATCH } from "../fresh/service.ts";

export const uninstallCmd: CommandSpec = {
  usage: "uninstall <target>... | --all | --watch-service | remote-sync [--json]",
  options: {
    all: {
      type: "boolean",
      description: "every target deja can wire (and the watch and remote-sync services)",
    },
    auto: {
      type: "boolean",
      description: "only automatic recall (the -auto hooks and plugins) of every harness",
    },
    "watch-service": {
      type: "boolean",
      description: "remove the service file 'install --watch-service' wrote",
    },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run(a0, io) {
    const { a, services } = serviceArgs(a0);
    const onlyService = services.length > 0 && !a.positionals.length && !a.values.all &&
      !a.values.auto;
    const code = onlyService ? 0 : runWire(a, io, false);
    const remove = a.values.all ? [WATCH, REMOTE_SYNC] : services;
    for (const spec of remove) {
      const path = servicePath(io.env, spec);
      if (!removeService(io.env, spec) || a.values.json || !path) continue;
      const kind = spec.everyS ? "timer" : "service";
      io.out(`removed   ${spec.name.padEnd(12)} ${kind.padEnd(8)} ${tilde(path, io.env.home)}\n`);
      io.out(`(if it runs, it stops with: ${stopHint(io.env, spec)})\n`);
    }
    return Promise.resolve(code);
  },
};
