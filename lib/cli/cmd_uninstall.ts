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
  type ServiceFileAction,
  servicePath,
  type ServiceSpec,
  stopHint,
  WATCH,
} from "../fresh/service.ts";
import { selectTargets } from "../install/select.ts";
import { uninstallTargets } from "../install/run.ts";
import { parseWire, refusalText, type WireArgs, wireCode, wireJson, wireText } from "./_wire.ts";
import { NOT_DEJAS } from "../install/wire.ts";

export const uninstallCmd: CommandSpec = {
  usage:
    "uninstall <target>... | --all | --auto | --watch-service | remote-sync [--force] [--json]",
  details: "A target takes out what it is, whatever order things were installed in:\n" +
    "<harness>-auto the hooks and plugins (automatic recall); a plain target all of deja in\n" +
    "that harness (its MCP server, skill, /deja command, and its -auto hooks). An entry or\n" +
    "file of deja's you edited is kept and named; --force removes it too.",
  lacks: {
    "dry-run": "uninstall has no dry run: 'deja doctor' shows what is wired and where; " +
      "uninstall removes only deja's own entries",
  },
  options: {
    all: {
      type: "boolean",
      description: "every target deja can wire (and the watch and remote-sync services)",
    },
    auto: {
      type: "boolean",
      description: "undo what 'install --auto' did: every harness's -auto hooks and plugins, " +
        "and the plain wiring that install wrote where there was none",
    },
    force: {
      type: "boolean",
      description: "also remove deja's entries and files as you edited them (otherwise kept and " +
        "named), and any entry that runs deja's launcher",
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
export interface UninstallArgs extends WireArgs {
  /** Remove deja's entries and files the user edited too. */
  force: boolean;
}

/** What `deja uninstall` did. */
export interface UninstallResult {
  /**
   * The unwiring; null when only services were asked for and the launcher
   * stayed (something else still runs it, or it was not there).
   */
  report: WireReport | null;
  /**
   * Services uninstall found files of, with where the main one is (the `.timer`
   * of a periodic one on Linux) and what it did with each file.
   */
  removed: Array<{ spec: ServiceSpec; path: string; files: ServiceFileAction[] }>;
}

/** Reads `deja uninstall`'s arguments. */
export function parseUninstall(a: Args): UninstallArgs {
  return { ...parseWire(a), force: Boolean(a.values.force) };
}

/**
 * Unwires the targets and removes the services asked for (`--all`: both).
 *
 * @throws {DejaError} for an unknown target or none given.
 */
export function uninstallData(env: Env, args: UninstallArgs): UninstallResult {
  // Targets first checked, services then removed, then the targets: the launcher goes
  // once nothing runs it, services included (run.ts `launcherInUse`).
  const refs = args.onlyServices
    ? []
    : selectTargets(env, { names: args.names, all: args.all, auto: args.auto }, false);
  const removed: UninstallResult["removed"] = [];
  for (const spec of args.all ? [WATCH, REMOTE_SYNC] : args.services) {
    const path = servicePath(env, spec);
    const files = removeService(env, spec);
    if (files.length && path) removed.push({ spec, path, files });
  }
  const report = uninstallTargets(env, refs, { force: args.force });
  // Only services asked for: the report is shown when the launcher went with the last of them.
  return {
    report: args.onlyServices && report.launcher.action !== "removed" ? null : report,
    removed,
  };
}

/** The `--json` document (docs/json-output.md, `install`: the same shape). */
export const uninstallJson = wireJson;

/** What was removed, as text (colour on a terminal). */
export function uninstallText(r: WireReport, io: Pick<IO, "isTTY" | "env">): string {
  return wireText(r, io, false);
}

/**
 * One line per service file found (the `.service` and the `.timer`): removed,
 * or kept when deja did not write it; then how a running service stops.
 */
export function removedText(removed: UninstallResult["removed"], env: Env): string {
  return removed.map(({ spec, files }) =>
    files.map((f) =>
      `${f.action.padEnd(9)} ${spec.name.padEnd(12)} ${f.kind.padEnd(8)} ${
        tilde(f.path, env.home)
      }${f.action === "kept" ? ` (${NOT_DEJAS})` : ""}\n`
    ).join("") +
    (files.some((f) => f.action === "removed")
      ? `(if it runs, it stops with: ${stopHint(env, spec)})\n`
      : "")
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
    services: res.removed.map(({ spec, path, files }) => ({
      name: spec.name,
      kind: spec.everyS ? "timer" : "service",
      path,
      action: files.some((f) => f.action === "removed") ? "removed" : "kept",
      stop: stopHint(env, spec),
      files,
    })),
  };
}
