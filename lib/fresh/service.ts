/**
 * The user service that keeps `deja index --watch` running: a systemd user
 * unit on Linux (`${XDG_CONFIG_HOME:-~/.config}/systemd/user/deja-watch.service`),
 * a launchd agent on macOS (`~/Library/LaunchAgents/dev.deja.watch.plist`).
 * deja writes the file and says how to turn it on; it never enables or starts
 * a service itself (that is the user's word to give). The service runs the
 * launcher (lib/install/launcher.ts), so it survives a moved binary the same
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
import { type FileAction, writeIfChanged } from "../install/files.ts";
import { readTextSync } from "../../core/fsread.ts";

/** The service file for this platform, or null where deja writes none (Windows). */
export function servicePath(env: Env): string | null {
  if (env.platform === "darwin") {
    return join(env.home, "Library", "LaunchAgents", "dev.deja.watch.plist");
  }
  if (env.platform === "win32") return null;
  const config = expandHome(env, env.get("XDG_CONFIG_HOME") ?? "~/.config");
  return join(config, "systemd", "user", "deja-watch.service");
}

/** The service file's text, running `launcher index --watch --quiet`. */
export function serviceText(env: Env, launcher: string): string {
  const home = env.get("DEJA_HOME");
  if (env.platform === "darwin") {
    const args = [launcher, "index", "--watch", "--quiet"]
      .map((a) => `    <string>${xml(a)}</string>`).join("\n");
    const envXml = home
      ? `  <key>EnvironmentVariables</key>\n  <dict><key>DEJA_HOME</key><string>${
        xml(home)
      }</string></dict>\n`
      : "";
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" ' +
      '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
      "<dict>",
      "  <key>Label</key><string>dev.deja.watch</string>",
      "  <key>ProgramArguments</key>",
      "  <array>",
      args,
      "  </array>",
      envXml + "  <key>RunAtLoad</key><true/>",
      "  <key>KeepAlive</key><true/>",
      "  <key>ProcessType</key><string>Background</string>",
      "</dict>",
      "</plist>",
      "",
    ].join("\n");
  }
  return [
    "# Written by 'deja install --watch-service': keeps deja's index fresh.",
    "[Unit]",
    "Description=deja: keep the index of coding-agent history fresh",
    "",
    "[Service]",
    `ExecStart=${systemdQuote(launcher)} index --watch --quiet`,
    ...(home ? [`Environment=${systemdQuote(`DEJA_HOME=${home}`)}`] : []),
    "Restart=on-failure",
    "RestartSec=30",
    "Nice=10",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

/** The command that turns the written service on (printed, never run). */
export function enableHint(env: Env): string {
  return env.platform === "darwin"
    ? "launchctl load -w ~/Library/LaunchAgents/dev.deja.watch.plist"
    : "systemctl --user daemon-reload && systemctl --user enable --now deja-watch.service";
}

/** Writes the service file (mode 0644); null where the platform has none. */
export function writeService(env: Env, launcher: string): FileAction | null {
  const path = servicePath(env);
  return path ? writeIfChanged(path, serviceText(env, launcher), 0o644) : null;
}

/** Removes the service file deja wrote; true when there was one. */
export function removeService(env: Env): boolean {
  const path = servicePath(env);
  if (!path || !existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
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
