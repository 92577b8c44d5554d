/**
 * The user services deja writes, never enables: each is a {@link ServiceSpec}.
 *
 * - `watch` keeps `deja index --watch` running: a systemd user unit
 *   (`${XDG_CONFIG_HOME:-~/.config}/systemd/user/deja-watch.service`) on Linux,
 *   a launchd agent with KeepAlive (`~/Library/LaunchAgents/dev.deja.watch.plist`)
 *   on macOS (`deja install --watch-service`).
 * - `remote-sync` runs `deja remote sync` periodically: a oneshot
 *   `deja-remote-sync.service` with its `deja-remote-sync.timer` on Linux, a
 *   launchd agent with StartInterval (`dev.deja.remote-sync.plist`) on macOS
 *   (`deja install remote-sync`).
 *
 * deja writes the files and says how to turn them on; it never enables or
 * starts a service itself (that is the user's word to give). Services run the
 * launcher (lib/install/launcher.ts), so they survive a moved binary the same
 * way hooks do.
 *
 * Whether a watcher runs is told by `<data>/watch.pid`, which `index --watch`
 * writes once it follows the stores and removes when it stops.
 *
 * @module
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { pidAlive } from "../../core/runtime.ts";
import { dataDir, expandHome } from "../../core/paths.ts";
import {
  type FileAction,
  keepingMadeDirs,
  removeMadeDirs,
  writeIfChanged,
} from "../install/files.ts";
import { readTextSync } from "../../core/fsread.ts";

/** One user service deja can write. */
export interface ServiceSpec {
  /** The name `install`/`uninstall` print, and the service's file names (`deja-<name>`). */
  name: string;
  /** The deja arguments it runs (after the launcher). */
  args: string[];
  /** One line for systemd's Description. */
  description: string;
  /** How it is written: `install` comment line. */
  by: string;
  /** Seconds between runs for a periodic service; absent for one kept running. */
  everyS?: number;
}

/** `deja index --watch`, kept running. */
export const WATCH: ServiceSpec = {
  name: "watch",
  args: ["index", "--watch", "--quiet"],
  description: "deja: keep the index of coding-agent history fresh",
  by: "deja install --watch-service",
};

/** `deja remote sync` every 15 minutes. */
export const REMOTE_SYNC: ServiceSpec = {
  name: "remote-sync",
  args: ["remote", "sync"],
  description: "deja: copy other machines' coding-agent history (deja remote sync)",
  by: "deja install remote-sync",
  everyS: 900,
};

/** One file of a service: where, and its text. */
export interface ServiceFile {
  path: string;
  text: string;
}

function systemdDir(env: Env): string {
  return join(expandHome(env, env.get("XDG_CONFIG_HOME") ?? "~/.config"), "systemd", "user");
}

/**
 * The service's main file for this platform (the `.timer` of a periodic one on
 * Linux), or null where deja writes none (Windows).
 */
export function servicePath(env: Env, spec: ServiceSpec = WATCH): string | null {
  if (env.platform === "darwin") {
    return join(env.home, "Library", "LaunchAgents", `dev.deja.${spec.name}.plist`);
  }
  if (env.platform === "win32") return null;
  return join(systemdDir(env), `deja-${spec.name}.${spec.everyS ? "timer" : "service"}`);
}

/** Every file of the service for this platform ([] on Windows). */
export function serviceFiles(env: Env, launcher: string, spec: ServiceSpec = WATCH): ServiceFile[] {
  const main = servicePath(env, spec);
  if (!main) return [];
  if (env.platform === "darwin") return [{ path: main, text: plist(env, launcher, spec) }];
  const unit = join(systemdDir(env), `deja-${spec.name}.service`);
  const files = [{ path: unit, text: unitText(env, launcher, spec) }];
  if (spec.everyS) files.push({ path: main, text: timerText(spec) });
  return files;
}

/** The main file's text (the launchd agent, or the systemd unit that runs deja). */
export function serviceText(env: Env, launcher: string, spec: ServiceSpec = WATCH): string {
  return serviceFiles(env, launcher, spec)[0]?.text ?? "";
}

function plist(env: Env, launcher: string, spec: ServiceSpec): string {
  const home = env.get("DEJA_HOME");
  const args = [launcher, ...spec.args].map((a) => `    <string>${xml(a)}</string>`).join("\n");
  const envXml = home
    ? `  <key>EnvironmentVariables</key>\n  <dict><key>DEJA_HOME</key><string>${
      xml(home)
    }</string></dict>\n`
    : "";
  const when = spec.everyS
    ? [`  <key>StartInterval</key><integer>${spec.everyS}</integer>`]
    : ["  <key>KeepAlive</key><true/>"];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" ' +
    '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    `  <key>Label</key><string>dev.deja.${spec.name}</string>`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    args,
    "  </array>",
    envXml + "  <key>RunAtLoad</key><true/>",
    ...when,
    "  <key>ProcessType</key><string>Background</string>",
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}

function unitText(env: Env, launcher: string, spec: ServiceSpec): string {
  const home = env.get("DEJA_HOME");
  return [
    `# Written by '${spec.by}'.`,
    "[Unit]",
    `Description=${spec.description}`,
    "",
    "[Service]",
    ...(spec.everyS ? ["Type=oneshot"] : []),
    `ExecStart=${[launcher, ...spec.args].map(systemdQuote).join(" ")}`,
    ...(home ? [`Environment=${systemdQuote(`DEJA_HOME=${home}`)}`] : []),
    ...(spec.everyS ? [] : ["Restart=on-failure", "RestartSec=30"]),
    "Nice=10",
    ...(spec.everyS ? [] : ["", "[Install]", "WantedBy=default.target"]),
    "",
  ].join("\n");
}

function timerText(spec: ServiceSpec): string {
  const min = Math.max(1, Math.round((spec.everyS ?? 900) / 60));
  return [
    `# Written by '${spec.by}': runs deja-${spec.name}.service every ${min} minutes.`,
    "[Unit]",
    `Description=${spec.description}, every ${min} minutes`,
    "",
    "[Timer]",
    "OnBootSec=5min",
    `OnUnitActiveSec=${min}min`,
    "RandomizedDelaySec=60",
    "",
    "[Install]",
    "WantedBy=timers.target",
    "",
  ].join("\n");
}

/** The command that turns the written service on (printed, never run). */
export function enableHint(env: Env, spec: ServiceSpec = WATCH): string {
  if (env.platform === "darwin") {
    return `launchctl load -w ~/Library/LaunchAgents/dev.deja.${spec.name}.plist`;
  }
  const unit = `deja-${spec.name}.${spec.everyS ? "timer" : "service"}`;
  return `systemctl --user daemon-reload && systemctl --user enable --now ${unit}`;
}

/** The command that stops a running service (printed after uninstall). */
export function stopHint(env: Env, spec: ServiceSpec = WATCH): string {
  return env.platform === "darwin"
    ? `launchctl unload ~/Library/LaunchAgents/dev.deja.${spec.name}.plist`
    : `systemctl --user disable --now deja-${spec.name}.${spec.everyS ? "timer" : "service"}`;
}

/**
 * Writes the service's files (mode 0644): `created` when one was new,
 * `updated` when one changed, else `unchanged`; null where the platform has none.
 */
export function writeService(
  env: Env,
  launcher: string,
  spec: ServiceSpec = WATCH,
): FileAction | null {
  const files = serviceFiles(env, launcher, spec);
  if (!files.length) return null;
  const acts = keepingMadeDirs(env, () => files.map((f) => writeIfChanged(f.path, f.text, 0o644)));
  return acts.includes("created") ? "created" : acts.includes("updated") ? "updated" : "unchanged";
}

/** What uninstall did with one file of a service it found. */
export interface ServiceFileAction {
  path: string;
  /** `timer` for a systemd `.timer`, else `service` (a unit or a launchd agent). */
  kind: "service" | "timer";
  /** `kept`: a file at deja's path that deja did not write, left alone. */
  action: "removed" | "kept";
}

/**
 * True when the service file at `path` is deja's: a systemd unit or timer
 * with deja's `# Written by 'deja install` line, a launchd agent labelled
 * `dev.deja.<name>`.
 */
function isDejaService(path: string, spec: ServiceSpec): boolean {
  try {
    const text = readTextSync(path, 64 * 1024);
    return text.includes("# Written by 'deja install") ||
      text.includes(`<key>Label</key><string>dev.deja.${spec.name}</string>`);
  } catch {
    return false;
  }
}

/**
 * Removes the service's files deja wrote (the `.service` and, for a periodic
 * one, its `.timer`); a file at the same place that deja did not write is
 * kept. Returns what it found, in write order ([] when nothing was there).
 */
export function removeService(env: Env, spec: ServiceSpec = WATCH): ServiceFileAction[] {
  const out: ServiceFileAction[] = [];
  for (const f of serviceFiles(env, "", spec)) {
    if (!existsSync(f.path)) continue;
    const kind = f.path.endsWith(".timer") ? "timer" : "service";
    if (!isDejaService(f.path, spec)) {
      out.push({ path: f.path, kind, action: "kept" });
      continue;
    }
    rmSync(f.path, { force: true });
    out.push({ path: f.path, kind, action: "removed" });
  }
  removeMadeDirs(env);
  return out;
}

/** True while a file of any of deja's user services is there (each runs the launcher). */
export function anyServiceWritten(env: Env): boolean {
  return [WATCH, REMOTE_SYNC].some((spec) =>
    serviceFiles(env, "", spec).some((f) => existsSync(f.path) && isDejaService(f.path, spec))
  );
}

/** Whether a watcher runs and whether the service file is there. */
export interface WatchStatus {
  /** Pid of the running `deja index --watch`, or null. */
  pid: number | null;
  /** The service file, when deja wrote one. */
  service: string | null;
}

/** Reads {@link WatchStatus} for `env`. */
export function watchStatus(env: Env): WatchStatus {
  let pid: number | null = null;
  try {
    const n = Number(readTextSync(join(dataDir(env), "watch.pid"), 1024).trim().split(/\s+/)[0]);
    if (n > 0 && pidAlive(n)) pid = n;
  } catch { /* no watcher */ }
  const path = servicePath(env);
  return { pid, service: path && existsSync(path) ? path : null };
}

function xml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function systemdQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, "\\$1")}"`;
}
