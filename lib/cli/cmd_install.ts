/**
 * `deja install <target>… | --all | --auto`: wire deja into the harnesses' own
 * configs (MCP server, skill, `/deja` command, hooks). The work is in
 * lib/install/; `deja uninstall` shares this file's runner.
 */
import type { Args, Command } from "./common.ts";
import { colors, printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { selfCommand } from "../../core/runtime.ts";
import { selectTargets } from "../install/select.ts";
import { installTargets, uninstallTargets, type WireReport } from "../install/run.ts";
import { targetNames } from "../install/facts.ts";
import { existsSync } from "node:fs";
import { indexPath } from "../store.ts";

const TARGETS = () => targetNames().join(", ");

export const installCmd: Command = {
  name: "install",
  summary: "Wire deja into your coding agents: MCP server, skill, /deja command, hooks (-auto).",
  usage: "install <target>... | --all | --auto [--force] [--json]",
  options: {
    all: { type: "boolean", description: "every harness found on this machine (plain targets)" },
    auto: { type: "boolean", description: "every harness found, with automatic recall (-auto)" },
    force: { type: "boolean", description: "replace a skill or command file deja did not write" },
    json: { type: "boolean", description: "print what was done as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runWire(a, io, true)),
};

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
  if (install && !existsSync(indexPath(io.env))) {
    lines.push(c.dim("next: run 'deja index' so there is something to recall"));
  }
  if (install) {
    lines.push(c.dim(`check it any time: deja doctor   (targets: ${TARGETS()})`));
  }
  return lines.join("\n") + "\n";
}
