/**
 * `deja doctor`: is each target wired, does what it runs exist, is the index fresh.
 * Exit 0 when nothing it reports is broken; 1 when something is (a broken config, a stale
 * path, a launcher whose deja is gone, an unreadable index); not wired and stale are no fault.
 *
 * Parse ({@link parseDoctor}) → run ({@link doctorData}) → render ({@link doctorJson},
 * {@link doctorText}, {@link problemsText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, isoTime, printJson } from "./common.ts";
import { plural, tilde } from "../../core/text.ts";
import type { Env } from "../../core/model.ts";
import type { IO } from "../../core/runtime.ts";
import { type RemoteStatus, remoteStatus } from "../remote/status.ts";
import { selfCommand } from "../../core/runtime.ts";
import { type WatchStatus, watchStatus } from "../fresh/service.ts";
import {
  FAULTS,
  type IndexStatus,
  indexStatus,
  type TargetStatus,
  targetStatus,
  type WireState,
} from "../install/doctor.ts";
import { installRefusal } from "../install/run.ts";
import type { PartKind } from "../install/wire.ts";
import { findTarget, wirables } from "../install/facts.ts";
import { launcherPath, launcherTarget, targetExists } from "../install/launcher.ts";
import { existsSync } from "node:fs";
import { damageSummary, type HarnessDamage } from "../store_damage.ts";
import { isMainFile } from "../store.ts";
import { type GiveUp, hookLogPath, readGiveUps, unknownHarnessOf } from "../hooks/log.ts";

const WORDS: Record<WireState, string> = {
  wired: "wired",
  partly_wired: "partly wired",
  will_not_run: "will not run",
  not_wired: "not wired",
  stale_path: "stale path",
  broken_entry: "broken entry",
  broken_config: "broken config",
};

export const doctorCmd: CommandSpec = {
  usage: "doctor [--json]",
  maxPositionals: 0,
  options: {
    json: { type: "boolean", description: "print the report as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runDoctor(a, io)),
};

/** What `deja doctor` was asked. */
export interface DoctorArgs {
  json: boolean;
}

/** The launcher script hooks and MCP servers run, and whether what it starts exists. */
export interface LauncherStatus {
  path: string;
  exists: boolean;
  /** The argv it starts, or null when unreadable or absent. */
  target: string[] | null;
  target_exists: boolean;
}

/** Everything `deja doctor` found. */
export interface DoctorReport {
  /** The argv that starts this deja. */
  binary: string[];
  targets: TargetStatus[];
  launcher: LauncherStatus;
  index: IndexStatus;
  watch: WatchStatus;
  remotes: RemoteStatus[];
  /** The hooks' give-ups (lib/hooks/log.ts) of the last {@link GIVE_UP_DAYS} days. */
  hooks: HooksStatus;
  /** What is broken, one phrase each (empty: exit 0). */
  problems: string[];
  /**
   * How many problems `problems` lists: a harness's phrase counts its stores
   * (`claude 2 damaged stores` is two), every other phrase one.
   */
  problem_count: number;
}

/** How far back `deja doctor` counts the hooks' give-ups. */
export const GIVE_UP_DAYS = 7;

/** The hooks' give-ups `deja doctor` reports: none is the usual case, and no problem. */
export interface HooksStatus {
  log: string;
  /** Give-ups in the last {@link GIVE_UP_DAYS} days. */
  gave_up: number;
  /** The last three of them, newest first. */
  last: GiveUp[];
  /**
   * Hook runs in the same days with a `--harness` id no harness has ("" for none), one entry
   * per id, most runs first: they answered, in Claude Code's envelope, so they are no give-ups,
   * but the wiring that runs them is wrong (trial 132 F7).
   */
  unknown_harness: UnknownHarness[];
}

/** Hook runs with one unknown `--harness` id. */
export interface UnknownHarness {
  harness: string;
  nearest: string[];
  runs: number;
  /** Epoch ms of the last run. */
  last_at: number;
}

/** The hooks' give-ups and unknown-harness runs of the last {@link GIVE_UP_DAYS} days before `now`. */
export function hooksStatus(env: Env, now = Date.now()): HooksStatus {
  const recent = readGiveUps(env).filter((g) => g.at >= now - GIVE_UP_DAYS * 86_400_000);
  const gaveUp: GiveUp[] = [];
  const unknown = new Map<string, UnknownHarness>();
  for (const g of recent) {
    const u = unknownHarnessOf(g.why);
    if (!u) {
      gaveUp.push(g);
      continue;
    }
    const seen = unknown.get(u.harness);
    if (seen) Object.assign(seen, { runs: seen.runs + 1, last_at: g.at, nearest: u.nearest });
    else unknown.set(u.harness, { ...u, runs: 1, last_at: g.at });
  }
  return {
    log: hookLogPath(env),
    gave_up: gaveUp.length,
    last: gaveUp.slice(-3).reverse(),
    unknown_harness: [...unknown.values()].sort((a, b) => b.runs - a.runs),
  };
}

/** Reads `deja doctor`'s arguments. */
export function parseDoctor(a: Args): DoctorArgs {
  return { json: Boolean(a.values.json) };
}

/** Checks every target, the launcher, the index, the watcher and the remotes of `env`. */
export function doctorData(env: Env, binary: string[]): DoctorReport {
  const targets: TargetStatus[] = wirables().flatMap((w) => [
    targetStatus(env, { name: w.facts.target, harness: w, auto: false }),
    ...(w.facts.auto
      ? [targetStatus(env, { name: w.facts.auto.target, harness: w, auto: true })]
      : []),
  ]);
  // The install a note names, refused now (trial 102 F7: `deja install crush` for a crush.json
  // of mode 444, which install refuses): the note says why instead.
  for (const t of targets) {
    if (!wireHint(t)) continue;
    const ref = findTarget(t.target);
    const why = ref && installRefusal(env, binary, ref);
    if (why) t.blocked = why;
  }
  const lpath = launcherPath(env);
  const ltarget = launcherTarget(lpath);
  const launcher: LauncherStatus = {
    path: lpath,
    exists: existsSync(lpath),
    target: ltarget,
    target_exists: ltarget ? targetExists(ltarget) : false,
  };
  const index = indexStatus(env);
  const problems = [
    // A target deja wired that the harness runs none of does not work (trial 121 L6: exit 0 beside
    // "codex-auto will not run"); one partly wired runs what is there, named, and is no problem.
    ...targets.filter((t) => FAULTS.includes(t.state) || t.state === "will_not_run").map((t) =>
      `${t.target} (${WORDS[t.state]})`
    ),
    ...(launcher.exists && !launcher.target_exists ? ["launcher (stale path)"] : []),
    // Gone while a config runs it (trial 58: shown "missing" and not counted).
    ...(!launcher.exists && targets.some((t) => t.state === "stale_path")
      ? ["launcher (missing)"]
      : []),
    ...(index.exists && index.error
      ? [
        index.diskFull
          ? "index (its disk is full)"
          : index.logLost
          ? "index (held by another process, its -wal removed)"
          : "index (unreadable)",
      ]
      : []),
    ...(index.forgottenHeld ? ["index (holds forgotten sessions again)"] : []),
    ...(index.notFolder ? ["index (its folder is a file)"] : []),
    ...(index.readOnly ? [`index (its ${index.readOnlyPart ?? "folder"} is read-only)`] : []),
    // Each harness whose stores failed, cannot be read or are damaged (what the last index
    // run could not read of it included, lib/store_damage.ts): one phrase per harness shown,
    // counted by its stores (what the report lists).
    ...index.damage.map(damageProblem),
  ];
  let remotes: RemoteStatus[] = [];
  try {
    remotes = remoteStatus(env);
  } catch (e) {
    problems.push(`remotes (${(e as Error).message})`);
  }
  const stores = index.damage.reduce((n, d) => n + storesOf(d), 0);
  const problem_count = problems.length - index.damage.length + stores;
  return {
    binary,
    targets,
    launcher,
    index,
    watch: watchStatus(env),
    remotes,
    hooks: hooksStatus(env),
    problems,
    problem_count,
  };
}

/** The stores (or failures) one harness's problem phrase counts. */
function storesOf(d: HarnessDamage): number {
  return d.failed + d.unreadable + d.damaged;
}

/**
 * One harness's damaged, failed or unreadable stores as a problem:
 * `claude 1 failed store and 2 damaged stores`.
 */
function damageProblem(d: HarnessDamage): string {
  const parts = [
    ...(d.failed ? [plural(d.failed, "failed store")] : []),
    ...(d.unreadable ? [plural(d.unreadable, "unreadable store")] : []),
    ...(d.damaged ? [plural(d.damaged, "damaged store")] : []),
  ];
  return `${d.harness} ${parts.join(" and ")}`;
}

/** The stderr line naming what is broken ("" when nothing is). */
export function problemsText(r: DoctorReport): string {
  return r.problems.length
    ? `deja: doctor found ${plural(r.problem_count, "problem")}: ${r.problems.join(", ")}\n`
    : "";
}

/** The `--json` document (docs/json-output.md, `doctor`). */
export function doctorJson(r: DoctorReport): Record<string, unknown> {
  const { index, watch } = r;
  return {
    binary: r.binary,
    launcher: r.launcher,
    targets: r.targets.map((t) => {
      const hint = wireHint(t);
      return hint ? { ...t, hint } : t;
    }),
    index: {
      path: index.path,
      exists: index.exists,
      last_index: isoTime(index.lastIndex),
      sources: index.sources,
      changed: index.changed,
      gone: index.gone,
      set_aside: index.setAside,
      failed: index.failed,
      look_again: index.lookAgain,
      read_only: index.readOnly === true,
      not_folder: index.notFolder?.message ?? null,
      building: index.building ?? null,
      fresh: index.fresh,
      error: index.error ?? null,
      forgotten_held: index.forgottenHeld,
      harness_errors: index.harnessErrors,
      damaged: index.damage,
    },
    problems: r.problems,
    problem_count: r.problem_count,
    watch: { running: watch.pid !== null, pid: watch.pid, service: watch.service },
    remotes: r.remotes,
    hooks: {
      log: r.hooks.log,
      gave_up: r.hooks.gave_up,
      last: r.hooks.last.map((g) => ({ at: isoTime(g.at), hook: g.hook, why: g.why })),
      unknown_harness: r.hooks.unknown_harness.map((u) => ({
        harness: u.harness,
        nearest: u.nearest,
        runs: u.runs,
        last_at: isoTime(u.last_at),
      })),
    },
  };
}

/** The report as text (colour on a terminal). */
export function doctorText(r: DoctorReport, io: Pick<IO, "isTTY" | "env">): string {
  const { targets, launcher, index, watch, remotes } = r;
  const lpath = launcher.path;
  const ltarget = launcher.target;
  const c = colors(io);
  const paint = (s: WireState, width = 13) =>
    (s === "wired" ? c.green : s === "not_wired" ? c.dim : FAULTS.includes(s) ? c.red : c.yellow)(
      WORDS[s].padEnd(width),
    );
  const home = io.env.home;
  const lines: string[] = [];
  // A harness not on this machine with nothing of deja's wired: one line for all of them.
  const absent = targets.filter((t) => !t.detected && t.state === "not_wired");
  for (const t of targets) {
    if (absent.includes(t)) continue;
    lines.push(
      `${c.bold(t.target.padEnd(12))} ${paint(t.state, 0)}${
        t.detected ? "" : c.dim("  (not installed here: no config of it found)")
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
    const note = wireNote(t);
    if (note) lines.push(c.dim(`  ${"note".padEnd(8)} ${note}`));
  }
  if (absent.length) {
    lines.push(
      c.dim(
        `not installed here (no config found), not wired: ${
          absent.map((t) => t.target).join(", ")
        }` +
          " ('deja sources --wiring' shows what each would get; their sessions are read wherever" +
          " they are found, installed or not)",
      ),
    );
  }
  lines.push(
    `${c.bold("launcher".padEnd(12))} ${
      !launcher.exists
        // Named by a wired target, it was there and is gone (trial 40: "not written yet").
        ? targets.some((t) => t.state === "stale_path")
          ? c.red("missing")
          : c.dim("not written yet")
        : launcher.target_exists
        ? c.green("ok")
        : c.red("stale path")
    }  ${tilde(lpath, home)}${ltarget ? ` -> ${ltarget.join(" ")}` : ""}`,
  );
  // The targets to give (trial 58: plain `deja install` asks "which target?").
  const again = `deja install ${
    targets.filter((t) => t.state !== "not_wired" && t.state !== "broken_config").map((t) =>
      t.target
    )
      .join(" ") || "<target>"
  }`;
  if (launcher.exists && !launcher.target_exists) {
    lines.push(c.dim(`  deja moved: run '${again}' again from where it is now`));
  } else if (!launcher.exists && targets.some((t) => t.state === "stale_path")) {
    lines.push(c.dim(`  the configs run it: '${again}' writes it again`));
  }
  const idx = index.notFolder
    ? c.red(`${index.notFolder.message}: ${index.notFolder.hint}`)
    : !index.exists
    ? index.readOnly
      ? c.red(
        "no index, and its folder is read-only: point DEJA_HOME at a folder deja may write to",
      )
      // No fault (a machine before its first `deja index`), but nothing answers meanwhile
      // (trial 101 F10: with hooks wired, "no index yet" read as a detail).
      : `${c.yellow("no index yet")}  ${tilde(index.path, home)}${
        c.dim(
          targets.some((t) => t.state !== "not_wired")
            ? "  (deja's hooks and MCP tool answer nothing until one is built: run 'deja index')"
            : "  (as on a new machine: run 'deja index')",
        )
      }`
    : index.error
    ? c.red(
      `${
        index.diskFull ? "disk full" : index.logLost ? "held elsewhere" : "unreadable"
      }: ${index.error}`,
    )
    // A first build under way: what it read so far, not "0 changed" of a partial count (trial 31).
    : index.building && index.lastIndex === null
    ? `${c.yellow("being built")}  ${plural(index.sources, "store")} read so far${
      c.dim(`  ('deja index' is running now, pid ${index.building})`)
    }`
    // A refresh on use reads changed stores but is no full run (trial 9: "last indexed 22:15"
    // beside sessions indexed at 22:20): the count is of stores changed since they were read.
    : `${index.fresh ? c.green("fresh") : c.yellow("stale")}  last full run ${
      fmtTime(index.lastIndex)
    }, ${plural(index.sources, "store")}, ${index.changed} changed since last read${
      // Gone stores keep their sessions (trial 67: doctor said nothing of one `sources` showed).
      index.gone ? `, ${index.gone} gone (sessions kept; 'deja index --rebuild' drops them)` : ""}${
      index.failed ? `, ${index.failed} failed at its last read (read again by 'deja index')` : ""
    }${
      index.lookAgain
        ? `, new stores possible in ${plural(index.lookAgain, "harness's", "harnesses'")} folders`
        : ""
    }${
      index.readOnly
        ? c.red(
          `  (its ${
            index.readOnlyPart ?? "folder"
          } is read-only: searches answer from it as it is; no run can update it)`,
        )
        : index.building
        ? c.dim(`  ('deja index' is running now, pid ${index.building})`)
        : index.fresh
        ? ""
        : c.dim("  (run 'deja index')")
    }`;
  lines.push(`${c.bold("index".padEnd(12))} ${idx}`);
  if (index.forgottenHeld) {
    lines.push(c.red(
      `${" ".repeat(13)}holds ${plural(index.forgottenHeld, "forgotten session")} again: it lost ` +
        "writes made since the forget (its -wal removed, or an older copy put back); the next " +
        "search or 'deja index' removes them",
    ));
  }
  // What a rebuild set aside holds the old index's text (trial 77: forgotten and scrubbed text
  // stayed there, and doctor never named it).
  const aside = index.setAside.filter(isMainFile);
  if (aside.length) {
    lines.push(c.yellow(
      `${" ".repeat(13)}${plural(aside.length, "damaged index", "damaged indexes")} set aside by ` +
        `a rebuild still ${aside.length === 1 ? "holds" : "hold"} the old text: rm ${
          index.setAside.join(" ")
        }`,
    ));
  }
  // Each failure shows once: under its harness, the first of each kind in the summary line.
  if (index.damage.length) {
    lines.push(`${c.bold("stores".padEnd(12))} ${c.yellow("damaged or unreadable:")}`);
    for (const d of index.damage) {
      const summary = damageSummary(d);
      lines.push(c.yellow(`  ${summary}`));
      for (const e of d.errors) {
        if (!summary.includes(`(${e})`)) lines.push(c.red(`    error: ${e}`));
      }
      for (const x of d.damaged_stores.slice(0, 5)) lines.push(c.yellow(`    ${x}`));
      // Trial 36: 5 of 8 listed, and nothing said of the others.
      if (d.damaged_stores.length > 5) {
        lines.push(
          c.dim(
            `    … and ${d.damaged_stores.length - 5} more ('deja sources --verbose' lists them)`,
          ),
        );
      }
    }
    lines.push(c.dim("  run 'deja sources --verbose' for details"));
    // Trial 35: a store cut short stayed a problem with no way to take it as it is now.
    if (index.damage.some((d) => d.kept)) {
      lines.push(c.dim(
        "  sessions kept as indexed stay so; 'deja index --rebuild' takes the stores as they are now",
      ));
    }
  }
  lines.push(
    `${c.bold("watch".padEnd(12))} ${
      watch.pid !== null ? c.green(`running (pid ${watch.pid})`) : c.dim(
        "not running (commands freshen the index on use; 'deja index --watch' follows it)",
      )
    }${watch.service ? `  service ${tilde(watch.service, home)}` : ""}`,
  );
  // A hook is silent whatever goes wrong: what made it give up is said here (trial 55).
  if (r.hooks.gave_up) {
    lines.push(
      `${c.bold("hooks".padEnd(12))} ${
        c.yellow(
          `${plural(r.hooks.gave_up, "answer")} given up in the last ${GIVE_UP_DAYS} days`,
        )
      }  ${c.dim(tilde(r.hooks.log, home))}`,
    );
    for (const g of r.hooks.last) lines.push(c.dim(`  ${fmtTime(g.at)} ${g.hook}: ${g.why}`));
  }
  // Answered, so no give-up, but wired with a wrong id (trial 132 F7).
  for (const u of r.hooks.unknown_harness) {
    const near = u.nearest.length ? ` (nearest: ${u.nearest.join(", ")})` : "";
    lines.push(
      `${c.bold("hooks".padEnd(12))} ${
        c.yellow(
          `${plural(u.runs, "hook run")} with ${
            u.harness ? `an unknown --harness '${u.harness}'${near}` : "--harness and no id"
          } in the last ${GIVE_UP_DAYS} days`,
        )
      }: answered in Claude Code's envelope; fix the wiring  ${c.dim(tilde(r.hooks.log, home))}`,
    );
  }
  for (const rm of remotes) {
    const lag = rm.lag_ms === null
      ? c.yellow("never synced: run 'deja remote sync'")
      : `last sync ${fmtTime(rm.last_sync)} (${
        Math.round(rm.lag_ms / 60_000)
      } min ago), ${rm.sessions} sessions`;
    lines.push(`${c.bold(`remote ${rm.name}`.padEnd(12))} ${lag}`);
    if (rm.last_error) lines.push(`  ${c.red("last error:")} ${rm.last_error}`);
  }
  return lines.join("\n") + "\n";
}

/** What a part held by the user's own entry or file is called in the note. */
const THEIRS: Record<PartKind, string> = {
  mcp: "MCP entry",
  skill: "skill",
  command: "command",
  file: "file",
  hooks: "hook file",
};

/** The parts of `t` deja's wiring is missing from. */
function missingParts(t: TargetStatus) {
  return t.parts.filter((p) => p.state === "not_wired" || p.state === "partly_wired");
}

/**
 * The command that wires a harness found here into deja when its target is not wired
 * (`deja install <target>`; install leaves what is wired as it is), else null. Where every
 * missing part is held by an entry or file of the user's, which install keeps, the command is
 * `--force`'s, which replaces them (trial 117 F6: `deja install codex` changed nothing).
 */
export function wireHint(t: TargetStatus): string | null {
  if (!t.detected || (t.state !== "not_wired" && t.state !== "partly_wired")) return null;
  const missing = missingParts(t);
  const theirs = missing.length > 0 && missing.every((p) => p.theirs);
  return `deja install ${t.target}${theirs ? " --force" : ""}`;
}

/**
 * The note under a target {@link wireHint} names: which parts are missing, and the command;
 * or, when that install would be refused now, why (trial 102 F7).
 */
function wireNote(t: TargetStatus): string | null {
  const hint = wireHint(t);
  if (!hint) return null;
  // A part deja's entry is in, turned off, is no missing one (trial 40: "mcp missing" under
  // "deja's entry is there, turned off"): install leaves it off; --force turns it on.
  const off = t.parts.some((p) => p.detail?.includes("turned off"));
  const parts = missingParts(t);
  const missing = [...new Set(parts.map((p) => p.kind))];
  const what = missing.length ? ` (${missing.join(", ")} missing)` : "";
  const state = t.state === "partly_wired" ? "partly wired" : "not wired";
  if (t.blocked) {
    return `${t.harness} is here but ${state}${what}; '${hint}' is refused now: ${t.blocked}`;
  }
  if (off) return `${t.harness}: deja's entry is turned off; ${hint} --force turns it on again`;
  // An entry or file of the user's where deja's goes: said as install says it (trial 117 F6).
  const theirs = [...new Set(parts.filter((p) => p.theirs).map((p) => THEIRS[p.kind]))];
  if (theirs.length) {
    const one = theirs.length === 1;
    const yours = `the ${theirs.join(" and ")} there ${one ? "is" : "are"} yours, not ` +
      `written by deja, and install keeps ${one ? "it" : "them"}`;
    return theirs.length === missing.length
      ? `${t.harness} is here but ${state}${what}: ${yours}; '${hint}' replaces ` +
        `${one ? "it" : "them"} with deja's`
      : `${t.harness} is here but ${state}${what}: ${hint} (${yours}; --force replaces ` +
        `${one ? "it" : "them"})`;
  }
  return `${t.harness} is here but ${state}${what}: ${hint}`;
}

function runDoctor(a: Args, io: IO): number {
  const args = parseDoctor(a);
  const r = doctorData(io.env, selfCommand());
  if (r.problems.length) io.err(problemsText(r));
  if (args.json) printJson(io, doctorJson(r));
  else io.out(doctorText(r, io));
  return r.problems.length ? 1 : 0;
}
