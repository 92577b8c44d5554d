/**
 * `deja doctor`: is each target wired, does what it runs exist, is the index fresh.
 * Exit 0 when nothing it reports is broken; 1 when something is (a broken config, a stale
 * path, a launcher whose deja is gone, an unreadable index); not wired and stale are no fault.
 */
import type { CommandSpec } from "./common.ts";
import { colors, fmtTime, isoTime, printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import { type RemoteStatus, remoteStatus } from "../remote/status.ts";
import { selfCommand } from "../../core/runtime.ts";
import { wirables } from "../install/facts.ts";
import { watchStatus } from "../fresh/service.ts";
import { indexStatus, type TargetStatus, targetStatus, type WireState } from "../install/doctor.ts";
import { launcherPath, launcherTarget, targetExists } from "../install/launcher.ts";
import { existsSync } from "node:fs";

const WORDS: Record<WireState, string> = {
  wired: "wired",
  not_wired: "not wired",
  stale_path: "stale path",
  broken_config: "broken config",
};

export const doctorCmd: CommandSpec = {
  usage: "doctor [--json]",
  maxPositionals: 0,
  options: {
    json: { type: "boolean", description: "print the report as JSON (docs/json-output.md)" },
  },
  run(a, io) {
    const env = io.env;
    const targets: TargetStatus[] = wirables().flatMap((w) => [
      targetStatus(env, { name: w.facts.target, harness: w, auto: false }),
      ...(w.facts.auto
        ? [targetStatus(env, { name: w.facts.auto.target, harness: w, auto: true })]
        : []),
    ]);
    const lpath = launcherPath(env);
    const ltarget = launcherTarget(lpath);
    const launcher = {
      path: lpath,
      exists: existsSync(lpath),
      target: ltarget,
      target_exists: ltarget ? targetExists(ltarget) : false,
    };
    const index = indexStatus(env);
    const watch = watchStatus(env);
    const problems = [
      ...targets.filter((t) => t.state === "broken_config" || t.state === "stale_path")
        .map((t) => `${t.target} (${WORDS[t.state]})`),
      ...(launcher.exists && !launcher.target_exists ? ["launcher (stale path)"] : []),
      ...(index.exists && index.error ? ["index (unreadable)"] : []),
      // What the last index run could not read (a damaged registry, a FIFO where a store was).
      ...(index.harnessErrors.length
        ? [`${index.harnessErrors.length} harness error(s) in the last index run`]
        : []),
    ];
    let remotes: RemoteStatus[] = [];
    try {
      remotes = remoteStatus(env);
    } catch (e) {
      problems.push(`remotes (${(e as Error).message})`);
    }
    const code = problems.length ? 1 : 0;
    if (problems.length) {
      io.err(`deja: doctor found ${problems.length} problem(s): ${problems.join(", ")}\n`);
    }
    if (a.values.json) {
      printJson(io, {
        binary: selfCommand(),
        launcher,
        targets,
        index: {
          path: index.path,
          exists: index.exists,
          last_index: isoTime(index.lastIndex),
          sources: index.sources,
          changed: index.changed,
          fresh: index.fresh,
          error: index.error ?? null,
          harness_errors: index.harnessErrors,
        },
        watch: { running: watch.pid !== null, pid: watch.pid, service: watch.service },
        remotes,
      });
      return Promise.resolve(code);
    }
    const c = colors(io);
    const paint = (s: WireState, width = 13) =>
      (s === "wired" ? c.green : s === "not_wired" ? c.dim : c.red)(WORDS[s].padEnd(width));
    const home = env.home;
    const lines: string[] = [];
    // A harness not on this machine with nothing of deja's wired: one line for all of them.
    const absent = targets.filter((t) => !t.detected && t.state === "not_wired");
    for (const t of targets) {
      if (absent.includes(t)) continue;
      lines.push(
        `${c.bold(t.target.padEnd(12))} ${paint(t.state, 0)}${
          t.detected ? "" : c.dim("  (harness not found here)")
        }`,
      );
      for (const p of t.parts) {
        lines.push(
          `  ${p.kind.padEnd(8)} ${paint(p.state)} ${tilde(p.path, home)}${
            p.detail ? c.dim(`  ${p.detail}`) : ""
          }`,
        );
        if (p.warning) lines.push(c.yellow(`  ${"".padEnd(8)} warning: ${p.warning}`));
      }
    }
    if (absent.length) {
      lines.push(
        c.dim(
          `not found here, not wired: ${absent.map((t) => t.target).join(", ")}` +
            " ('deja sources --wiring' shows what each would get)",
        ),
      );
    }
    lines.push(
      `${c.bold("launcher".padEnd(12))} ${
        !launcher.exists
          ? c.dim("not written yet")
          : launcher.target_exists
          ? c.green("ok")
          : c.red("stale path")
      }  ${tilde(lpath, home)}${ltarget ? ` -> ${ltarget.join(" ")}` : ""}`,
    );
    if (launcher.exists && !launcher.target_exists) {
      lines.push(c.dim("  deja moved: run 'deja install' again from where it is now"));
    }
    const idx = !index.exists
      ? c.yellow("no index yet: run 'deja index'")
      : index.error
      ? c.red(`unreadable: ${index.error}`)
      : `${index.fresh ? c.green("fresh") : c.yellow("stale")}  last indexed ${
        fmtTime(index.lastIndex)
      }, ${index.sources} stores, ${index.changed} changed since${
        index.fresh ? "" : c.dim("  (run 'deja index')")
      }`;
    lines.push(`${c.bold("index".padEnd(12))} ${idx}`);
    for (const e of index.harnessErrors) lines.push(c.red(`${"".padEnd(12)} error: ${e}`));
    lines.push(
      `${c.bold("watch".padEnd(12))} ${
        watch.pid !== null ? c.green(`running (pid ${watch.pid})`) : c.dim(
          "not running (commands freshen the index on use; 'deja index --watch' follows it)",
        )
      }${watch.service ? `  service ${tilde(watch.service, home)}` : ""}`,
    );
    for (const r of remotes) {
      const lag = r.lag_ms === null
        ? c.yellow("never synced: run 'deja remote sync'")
        : `last sync ${fmtTime(r.last_sync)} (${
          Math.round(r.lag_ms / 60_000)
        } min ago), ${r.sessions} sessions`;
      lines.push(`${c.bold(`remote ${r.name}`.padEnd(12))} ${lag}`);
      if (r.last_error) lines.push(`  ${c.red("last error:")} ${r.last_error}`);
    }
    io.out(lines.join("\n") + "\n");
    return Promise.resolve(code);
  },
};
