/**
 * `deja install <target>… | --all | --auto`: wire deja into the harnesses' own
 * configs (MCP server, skill, `/deja` command, hooks). The work is in
 * lib/install/; `deja uninstall` shares this file's runner.
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { selfCommand } from "../../core/runtime.ts";
import { inPackageCache, launcherPath, writeLauncher } from "../install/launcher.ts";
import { selectTargets } from "../install/select.ts";
import { installTargets, uninstallTargets, type WireReport } from "../install/run.ts";
import { findTarget } from "../install/facts.ts";
import { existsSync } from "node:fs";
import { indexPath } from "../store.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { CR, csi } from "./output.ts";
import {
  enableHint,
  REMOTE_SYNC,
  servicePath,
  type ServiceSpec,
  WATCH,
  writeService,
} from "../fresh/service.ts";

export const installCmd: CommandSpec = {
  usage: "install <target>... | --all | --auto [--force] [--no-index] [--watch-service] [--json]" +
    " | install remote-sync",
  options: {
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
    force: { type: "boolean", description: "replace a skill or command file deja did not write" },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  async run(a0, io) {
    const { a, services } = serviceArgs(a0);
    // Services alone write the service files (and the launcher they run), no harness target.
    const onlyService = services.length > 0 && !a.positionals.length && !a.values.all &&
      !a.values.auto;
    const code = onlyService ? 0 : runWire(a, io, true);
    if (code !== 0) return code;
    for (const spec of services) serviceStep(io, spec);
    if (onlyService && !services.includes(WATCH)) return 0;
    if (!a.values["no-index"] && !a.values.json && !existsSync(indexPath(io.env))) {
      await firstIndex(io);
    }
    return 0;
  },
};

/**
 * The user services a command line asks for: `--watch-service`, and the
 * `remote-sync` target (taken out of the harness targets).
 */
export function serviceArgs(a: Args): { a: Args; services: ServiceSpec[] } {
  const services: ServiceSpec[] = [];
  if (a.values["watch-service"]) services.push(WATCH);
  if (a.positionals.includes(REMOTE_SYNC.name)) services.push(REMOTE_SYNC);
  return {
    a: { ...a, positionals: a.positionals.filter((p) => p !== REMOTE_SYNC.name) },
    services,
  };
}

/** Writes a user service's files and says how to turn it on (deja never enables it). */
function serviceStep(io: IO, spec: ServiceSpec): void {
  writeLauncher(io.env, selfCommand());
  const action = writeService(io.env, launcherPath(io.env), spec);
  const path = servicePath(io.env, spec);
  if (!action || !path) {
    io.err(
      `deja: no user service on this platform; run 'deja ${spec.args.join(" ")}' yourself\n`,
    );
    return;
  }
  const kind = spec.everyS ? "timer" : "service";
  io.out(
    `${action.padEnd(9)} ${spec.name.padEnd(12)} ${kind.padEnd(8)} ${tilde(path, io.env.home)}\n`,
  );
  io.out(`turn it on with: ${enableHint(io.env, spec)}\n`);
}

/** The first index, right after install, so recall has something to recall. */
async function firstIndex(io: IO): Promise<void> {
  const tty = io.errTTY;
  io.err("building the first index (deja index; --no-index skips this)\n");
  const res = await runIndex(io.env, parsers, {
    waitMs: 60_000,
    progress: tty ? (line) => io.err(`${CR}${csi("2K")}indexing ${line}`) : undefined,
  });
  if (tty) io.err(`${CR}${csi("2K")}`);
  const sessions = res.harnesses.reduce((n, h) => n + h.sessions, 0);
  const harnesses = res.harnesses.filter((h) => h.sessions).length;
  io.err(
    `indexed ${sessions} session${sessions === 1 ? "" : "s"} of ${harnesses} harness${
      harnesses === 1 ? "" : "es"
    } in ${(res.ms / 1000).toFixed(1)} s\n`,
  );
}

/** Runs install (`install` true) or uninstall for parsed arguments; exit 2 when a target was refused. */
export function runWire(a: Args, io: IO, install: boolean): number {
  const refs = selectTargets(io.env, {
    names: a.positionals,
    all: Boolean(a.values.all),
    auto: Boolean(a.values.auto),
  }, install);
  const report = install
    ? installTargets(io.env, selfCommand(), refs, { force: Boolean(a.values.force) })
    : uninstallTargets(io.env, refs);
  const refused = report.outcomes.filter((o) => o.refused);
  for (const o of refused) {
    io.err(
      `deja: ${o.target} refused: ${o.refused}\nhint: ${
        report.aborted ? "nothing was written" : `nothing of ${o.target} was changed`
      }; fix or move that file, then run this again\n`,
    );
  }
  if (report.aborted && !a.values.json) return 2;
  if (a.values.json) {
    printJson(io, toJson(report));
    return refused.length ? 2 : 0;
  }
  io.out(render(io, report, install));
  return refused.length ? 2 : 0;
}

/** The `--json` shape (docs/json-output.md). */
function toJson(r: WireReport) {
  return {
    launcher: r.launcher,
    targets: r.outcomes.map((o) => ({
      target: o.target,
      harness: o.harness,
      refused: o.refused ?? null,
      changes: o.changes.map((c) => ({
        kind: c.kind,
        path: c.path,
        action: c.action,
        ...(c.note ? { note: c.note } : {}),
      })),
    })),
  };
}

function render(io: IO, r: WireReport, install: boolean): string {
  const c = colors(io);
  const home = io.env.home;
  const paint = (act: string) =>
    act === "created" || act === "updated"
      ? c.green(act.padEnd(9))
      : act === "removed"
      ? c.yellow(act.padEnd(9))
      : act === "kept"
      ? c.red(act.padEnd(9))
      : c.dim(act.padEnd(9));
  const lines: string[] = [];
  for (const o of r.outcomes) {
    if (o.refused) continue; // said on stderr
    for (const ch of o.changes) {
      lines.push(
        `${paint(ch.action)} ${o.target.padEnd(12)} ${ch.kind.padEnd(8)} ${tilde(ch.path, home)}${
          ch.note ? c.dim(` (${ch.note})`) : ""
        }`,
      );
    }
  }
  if (install || r.launcher.action !== "unchanged") {
    lines.push(
      `${paint(r.launcher.action)} ${"launcher".padEnd(12)} ${"".padEnd(8)} ${
        tilde(r.launcher.path, home)
      }${install ? c.dim(` -> ${r.launcher.target.join(" ")}`) : ""}`,
    );
  }
  const all = r.outcomes.flatMap((o) => o.changes.map((ch) => ch.action)).concat(r.launcher.action);
  if (!r.outcomes.some((o) => o.refused)) {
    if (install && all.every((x) => x === "unchanged")) {
      lines.push("unchanged: everything was already in place");
    } else if (!install && all.every((x) => x === "absent" || x === "unchanged")) {
      lines.push("unchanged: nothing of deja's was there");
    }
  }
  if (install && !r.aborted) {
    const cached = r.launcher.target.find((x) => inPackageCache(x));
    if (cached) {
      lines.push(
        c.yellow(
          `warning: deja runs from a package manager's cache (${tilde(cached, io.env.home)})`,
        ),
        c.dim(
          "  the cache may be cleared; install deja at a stable path and run 'deja install' from there",
        ),
      );
    }
    for (const o of r.outcomes) {
      const note = findTarget(o.target)?.auto ? findTarget(o.target)?.harness.facts.auto?.note : "";
      if (note) lines.push(`note: ${note}`);
    }
  }
  if (install) {
    lines.push(c.dim("check it any time: deja doctor"));
  }
  return lines.join("\n") + "\n";
}
