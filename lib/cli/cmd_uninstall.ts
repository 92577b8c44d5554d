/**
 * `deja uninstall <target>… | --all`: remove what 'deja install' added, and nothing else.
 *
 * Parse ({@link parseUninstall}) → run ({@link uninstallData}) → render
 * ({@link uninstallJson}, {@link uninstallText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { printJson } from "./common.ts";
import { restampAfterOwnWrites } from "../fresh/freshen.ts";
import { tilde } from "../../core/text.ts";
import type { Env } from "../../core/model.ts";
import type { IO } from "../../core/runtime.ts";
import type { WireReport } from "../install/run.ts";
import {
  REMOTE_SYNC,
  removeService,
  servicePath,
  type ServiceSpec,
  stopHint,
  WATCH,
} from "../fresh/service.ts";
import {
  parseWire,
  refusalText,
  wire,
  type WireArgs,
  wireCode,
  wireJson,
  wireText,
} from "./_wire.ts";

export const uninstallCmd: CommandSpec = {
  usage: "uninstall <target>... | --all | --watch-service | remote-sync [--json]",
  options: {
    all: {
      type: "boolean",
      description: "every target deja can wire (and the watch and remote-sync services)",
    },
    auto: {
      type: "boolean",
      description:
        "what 'install --auto' did: every harness's -auto hooks and plugins (and the plain wiring they brought)",
    },
    "watch-service": {
      type: "boolean",
      description: "remove the service file 'install --watch-service' wrote",
    },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runUninstall(a, io),
};

/** What `deja uninstall` was asked. */
export type UninstallArgs = WireArgs;

/** What `deja uninstall` did. */
export interface UninstallResult {
  /** The unwiring; null when only services were asked for. */
  report: WireReport | null;
  /** Services whose files were removed, with where they were. */
  removed: Array<{ spec: ServiceSpec; path: string }>;
}

/** Reads `deja uninstall`'s arguments. */
export function parseUninstall(a: Args): UninstallArgs {
  return parseWire(a);
}

/**
 * Unwires the targets and removes the services asked for (`--all`: both).
 *
 * @throws {DejaError} for an unknown target or none given.
 */
export function uninstallData(env: Env, args: UninstallArgs): UninstallResult {
  const report = args.onlyServices ? null : wire(env, args, null);
  const removed: UninstallResult["removed"] = [];
  for (const spec of args.all ? [WATCH, REMOTE_SYNC] : args.services) {
    const path = servicePath(env, spec);
    if (removeService(env, spec) && path) removed.push({ spec, path });
  }
  return { report, removed };
}

/** The `--json` document (docs/json-output.md, `install`: the same shape). */
export const uninstallJson = wireJson;

/** What was removed, as text (colour on a terminal). */
export function uninstallText(r: WireReport, io: Pick<IO, "isTTY" | "env">): string {
  return wireText(r, io, false);
}

/** The lines of the services removed, and how a running one stops. */
export function removedText(removed: UninstallResult["removed"], env: Env): string {
  return removed.map(({ spec, path }) =>
    `removed   ${spec.name.padEnd(12)} ${(spec.everyS ? "timer" : "service").padEnd(8)} ${
      tilde(path, env.home)
    }\n(if it runs, it stops with: ${stopHint(env, spec)})\n`
  ).join("");
}

async function runUninstall(a: Args, io: IO): Promise<number> {
  const args = parseUninstall(a);
  const res = uninstallData(io.env, args);
  // The configs removed sat in folders the index watches: not a change to report.
  if (res.report && !res.report.aborted) await restampAfterOwnWrites(io.env);
  let code = 0;
  if (res.report) {
    io.err(refusalText(res.report));
    code = wireCode(res.report);
    if (!args.json && !res.report.aborted) io.out(uninstallText(res.report, io));
  }
  if (args.json) printJson(io, uninstallDocument(res, io.env));
  else if (res.removed.length) io.out(removedText(res.removed, io.env));
  return code;
}

/** `uninstall --json`: the unwiring (empty when only services were asked for) and the services removed. */
export function uninstallDocument(res: UninstallResult, env: Env): Record<string, unknown> {
  return {
    ...(res.report ? uninstallJson(res.report) : { launcher: null, targets: [] }),
    services: res.removed.map(({ spec, path }) => ({
      name: spec.name,
      kind: spec.everyS ? "timer" : "service",
      path,
      action: "removed",
      stop: stopHint(env, spec),
    })),
  };
}
