/**
 * `deja install <target>… | --all | --auto`: wire deja into the harnesses' own
 * configs (MCP server, skill, `/deja` command, hooks), write the user services
 * asked for, and build the first index when there is none. The work is in
 * lib/install/; what install and uninstall share is in _wire.ts.
 *
 * Parse ({@link parseInstall}) → run ({@link installData}, then {@link firstIndex}) →
 * render ({@link installJson}, {@link installText}, {@link serviceOutcomeText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import type { Env } from "../../core/model.ts";
import type { IO } from "../../core/runtime.ts";
import { relaunchForBatch, selfCommand } from "../../core/runtime.ts";
import type { FileAction } from "../install/files.ts";
import { launcherPath, writeLauncher } from "../install/launcher.ts";
import type { WireReport } from "../install/run.ts";
import { existsSync } from "node:fs";
import { DejaError } from "../../core/errors.ts";
import { overrideVar } from "../../core/paths.ts";
import { detected, type Wirable, wirables } from "../install/facts.ts";
import { NoHarnessHere } from "../install/select.ts";
import { indexPath } from "../store.ts";
import { runIndex } from "../indexer.ts";
import { sessionsWritten } from "../index_summary.ts";
import { parsers } from "../../parsers/mod.ts";
import { CR, csi } from "./output.ts";
import { restampAfterOwnWrites } from "../fresh/freshen.ts";
import {
  enableHint,
  servicePath,
  type ServiceSpec,
  WATCH,
  writeService,
} from "../fresh/service.ts";
import {
  autoNotes,
  parseWire,
  refusalText,
  wire,
  type WireArgs,
  wireCode,
  wireJson,
  wireText,
} from "./_wire.ts";

export const installCmd: CommandSpec = {
  usage: "install <target>... | --all | --auto [--force] [--dry-run] [--no-index] " +
    "[--watch-service] [--json] | install remote-sync",
  options: {
    // Trial 58: the preview it pointed to (`sources --wiring`) left out files install writes.
    "dry-run": {
      type: "boolean",
      description: "say what install would write, change or keep, and write nothing",
    },
    "no-index": {
      type: "boolean",
      description: "do not build the first index now (when there is none)",
    },
    "watch-service": {
      type: "boolean",
      description:
        "also write a user service that runs 'deja index --watch' (never enabled by deja)",
    },
    all: { type: "boolean", description: "every harness found on this machine (plain targets)" },
    auto: { type: "boolean", description: "every harness found, with automatic recall (-auto)" },
    force: {
      type: "boolean",
      description: "write deja's own over what it did not write or you edited (a skill or " +
        "command file, an MCP or hook entry, your timeout on deja's hook)",
    },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runInstall(a, io),
};

/** What `deja install` was asked. */
export interface InstallArgs extends WireArgs {
  /** Replace a skill or command file deja did not write. */
  force: boolean;
  /** Build the first index when there is none (`--no-index` says no). */
  index: boolean;
  /** Say what would be done; write nothing. */
  dryRun: boolean;
}

/** One user service written (or not: `action` null where the platform has none). */
export interface ServiceOutcome {
  spec: ServiceSpec;
  action: FileAction | null;
  path: string | null;
}

/** What `deja install` did. */
export interface InstallResult {
  /** The wiring; null when only services were asked for. */
  report: WireReport | null;
  /** Services written (none when every target was refused). */
  services: ServiceOutcome[];
  /** There is no index yet and one should be built now. */
  needsIndex: boolean;
}

/** Reads `deja install`'s arguments (which targets is checked by the run). */
export function parseInstall(a: Args): InstallArgs {
  return {
    ...parseWire(a),
    force: Boolean(a.values.force),
    index: !a.values["no-index"],
    dryRun: Boolean(a.values["dry-run"]),
  };
}

/**
 * Wires the targets, then writes the services; `self` is the argv the launcher
 * records. A refused target is left alone and the rest is done; nothing at all
 * when every target was refused.
 *
 * @throws {DejaError} for an unknown target, none given, or `--all` finding no harness.
 */
export function installData(env: Env, args: InstallArgs, self: string[]): InstallResult {
  const report = args.onlyServices
    ? null
    : wire(env, args, { self, force: args.force, dryRun: args.dryRun });
  if (report?.aborted || args.dryRun) return { report, services: [], needsIndex: false };
  const services = args.services.map((spec): ServiceOutcome => {
    writeLauncher(env, self);
    return {
      spec,
      action: writeService(env, launcherPath(env), spec),
      path: servicePath(env, spec),
    };
  });
  return { report, services, needsIndex: firstIndexDue(env, args) };
}

/** Whether `args` would have install build the first index: one is wanted and none exists. */
function firstIndexDue(env: Env, args: InstallArgs): boolean {
  // A remote-sync service alone needs no local index; the watcher and any target do.
  const wantsIndex = !args.onlyServices || args.services.includes(WATCH);
  return wantsIndex && args.index && !args.json && !args.dryRun && !existsSync(indexPath(env));
}

/** The `--json` document (docs/json-output.md, `install`). */
export const installJson = wireJson;

/** What was wired, as text (colour on a terminal). */
export function installText(r: WireReport, io: Pick<IO, "isTTY" | "env">): string {
  return wireText(r, io, true);
}

/** A written service's line and how to turn it on, or (stderr) why there is none. */
export function serviceOutcomeText(s: ServiceOutcome, env: Env): { out: string; err: string } {
  if (!s.action || !s.path) {
    return {
      out: "",
      err: `deja: no user service on this platform; run 'deja ${s.spec.args.join(" ")}' yourself\n`,
    };
  }
  const kind = s.spec.everyS ? "timer" : "service";
  return {
    out:
      `${s.action.padEnd(9)} ${s.spec.name.padEnd(12)} ${kind.padEnd(8)} ${
        tilde(s.path, env.home)
      }\n` + `turn it on with: ${enableHint(env, s.spec)}\n`,
    err: "",
  };
}

/** The first index, right after install, so recall has something to recall (progress on stderr). */
export async function firstIndex(io: IO): Promise<void> {
  const tty = io.errTTY;
  io.err("building the first index (deja index; --no-index skips this)\n");
  const res = await runIndex(io.env, parsers, {
    waitMs: 60_000,
    progress: tty ? (line) => io.err(`${CR}${csi("2K")}indexing ${line}`) : undefined,
  });
  if (tty) io.err(`${CR}${csi("2K")}`);
  const sessions = res.harnesses.reduce((n, h) => n + sessionsWritten(h), 0);
  const harnesses = res.harnesses.filter((h) => h.sessions).length;
  io.err(
    `indexed ${sessions} session${sessions === 1 ? "" : "s"} of ${harnesses} harness${
      harnesses === 1 ? "" : "es"
    } in ${(res.ms / 1000).toFixed(1)} s\n`,
  );
}

/**
 * The harnesses deja can wire whose session stores are found here though no config of theirs
 * is (their stores placed by `DEJA_<ID>_ROOT`, or a config folder removed), with the variable
 * that placed them when one did.
 */
export async function storesWithoutConfig(
  env: Env,
): Promise<Array<{ harness: Wirable; variable?: string }>> {
  const out: Array<{ harness: Wirable; variable?: string }> = [];
  for (const w of wirables()) {
    const p = parsers.find((x) => x.id === w.harness);
    if (!p || detected(env, w)) continue;
    try {
      const d = await p.discover({ env, knownProjects: [] });
      if (!d.sources.length) continue;
      const variable = env.get(overrideVar(w.harness)) ? overrideVar(w.harness) : undefined;
      out.push({ harness: w, ...(variable ? { variable } : {}) });
    } catch { /* none found */ }
  }
  return out;
}

/**
 * `install --all`/`--auto` found no config to wire: says so truly (trial 101 F11: "no harness
 * … was found on this machine" while `deja sources` listed six harnesses' stores), naming the
 * harnesses whose stores are here with no config folder, and what to do.
 */
async function noHarnessError(e: NoHarnessHere): Promise<DejaError> {
  const stores = await storesWithoutConfig(e.env);
  if (!stores.length) return e;
  const names = stores.map((s) =>
    `${s.harness.displayName}${s.variable ? ` (${s.variable})` : ""}`
  );
  const targets = stores.map((s) => s.harness.facts.target).join(" ");
  return new DejaError(
    `${e.message}: ${names.join(", ")} ${
      stores.length === 1 ? "has its session store" : "have their session stores"
    } here, which deja reads, but deja wires a harness in its own config folder, and ` +
      `${stores.length === 1 ? "that does not exist" : "none of theirs exists"}`,
    `run each harness once on this machine (it makes its config folder), then this again; or ` +
      `name the targets to create their configs now: deja install ${targets}`,
    1,
  );
}

async function runInstall(a: Args, io: IO): Promise<number> {
  const args = parseInstall(a);
  // The first index is a long batch run: like `deja index`'s, it runs in a process tuned for
  // one (core/runtime.ts), started before anything is written so nothing is done twice.
  if (firstIndexDue(io.env, args)) relaunchForBatch("install");
  let res: InstallResult;
  try {
    res = installData(io.env, args, selfCommand());
  } catch (e) {
    throw e instanceof NoHarnessHere ? await noHarnessError(e) : e;
  }
  // A refused target is named on stderr and makes the exit code 2; the others were installed.
  const code = res.report ? wireCode(res.report) : 0;
  if (res.report) {
    io.err(refusalText(res.report));
    // An aborted install wrote nothing: the refusals say it all, unless JSON was asked for.
    if (res.report.aborted && !args.json) return 2;
    if (!args.json) io.out(installText(res.report, io));
  }
  if (args.json) printJson(io, installDocument(res, io.env));
  for (const s of res.services) {
    const t = serviceOutcomeText(s, io.env);
    if (t.err) io.err(t.err);
    if (t.out && !args.json) io.out(t.out);
  }
  // What the real run would do next (trial 60: the dry run said nothing of the index).
  if (args.dryRun && !args.json && firstIndexDue(io.env, { ...args, dryRun: false })) {
    io.out("would build the first index (none yet; --no-index skips it)\n");
  }
  if (res.needsIndex) await firstIndex(io);
  // The configs written sit in folders the index watches for new stores: not a change to report.
  else if (res.report && !res.report.aborted && !args.dryRun) await restampAfterOwnWrites(io.env);
  return code;
}

/** `install --json`: the wiring (empty when only services were asked for) and the services. */
export function installDocument(res: InstallResult, env: Env): Record<string, unknown> {
  return {
    ...(res.report ? installJson(res.report) : { launcher: null, targets: [] }),
    // What the text says after the table (trial 58: JSON had neither the approval notes nor
    // a word that no first index was built).
    notes: res.report && !res.report.aborted ? autoNotes(res.report, env) : [],
    first_index: existsSync(indexPath(env)) ? "present" : "not built: run 'deja index'",
    services: res.services.map((s) => ({
      name: s.spec.name,
      kind: s.spec.everyS ? "timer" : "service",
      path: s.path,
      action: s.action ?? "unsupported",
      enable: s.action ? enableHint(env, s.spec) : null,
    })),
  };
}
