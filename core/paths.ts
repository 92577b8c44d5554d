/**
 * Paths, one definition each: harness roots (each can be redirected by
 * `DEJA_<ID>_ROOT`, then by the harness's own variable, then a default under
 * the home directory), deja's data directory, Windows path recognition (a
 * store copied from Windows names `C:\x` or `\\server\share` paths), and a tool
 * path made absolute against the directory it was relative to.
 *
 * @module
 */
import { isAbsolute, join, resolve, win32 } from "node:path";
import type { Env } from "./model.ts";

/** `DEJA_<ID>_ROOT` for a harness id (`claude` -> `DEJA_CLAUDE_ROOT`). */
export function overrideVar(id: string): string {
  return `DEJA_${id.toUpperCase()}_ROOT`;
}

/** Expands a leading `~` and makes the path absolute. */
export function expandHome(env: Env, p: string): string {
  if (p === "~") return env.home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return join(env.home, p.slice(2));
  return isAbsolute(p) ? p : resolve(p);
}

/**
 * The first set value among `DEJA_<ID>_ROOT` and `vars` (each optionally joined
 * with a suffix), else `fallback` under the home directory.
 *
 * @param vars pairs of [variable, suffix to append] in priority order.
 */
export function rootFrom(
  env: Env,
  id: string,
  vars: Array<[string, string]>,
  fallback: string,
): string {
  const o = env.get(overrideVar(id));
  if (o) return expandHome(env, o);
  for (const [name, suffix] of vars) {
    const v = env.get(name);
    if (v) return suffix ? join(expandHome(env, v), suffix) : expandHome(env, v);
  }
  return expandHome(env, fallback);
}

/** `${XDG_DATA_HOME:-~/.local/share}`. */
export function xdgData(env: Env): string {
  return expandHome(env, env.get("XDG_DATA_HOME") ?? "~/.local/share");
}

/** `${XDG_CONFIG_HOME:-~/.config}`. */
export function xdgConfig(env: Env): string {
  return expandHome(env, env.get("XDG_CONFIG_HOME") ?? "~/.config");
}

/** The deja data directory: `${DEJA_HOME:-${XDG_DATA_HOME:-~/.local/share}/deja}`. */
export function dataDir(env: Env): string {
  const d = env.get("DEJA_HOME");
  if (d) return expandHome(env, d);
  return join(xdgData(env), "deja");
}

/** Path of the index file: `index.db` in the {@link dataDir}. */
export function indexPath(env: Env): string {
  return join(dataDir(env), "index.db");
}

const WIN_DRIVE = /^[A-Za-z]:[\\/]/;

/** True for a Windows drive path: `C:\x`, `c:/x`. */
export function isWindowsDrivePath(p: string): boolean {
  return WIN_DRIVE.test(p);
}

/** True for a Windows absolute path: a drive path or a UNC path (`\\\\server\\share`). */
export function isWindowsAbsolute(p: string): boolean {
  return WIN_DRIVE.test(p) || p.startsWith("\\\\");
}

/** The last part of `p`, whichever separator it uses (a Windows path read on POSIX too). */
export function lastSegment(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

/** True for an absolute POSIX path (`/x`) or a Windows absolute path (drive or UNC). */
export function isAbsoluteAny(p: string): boolean {
  return p.startsWith("/") || isWindowsAbsolute(p);
}

/**
 * `p` made absolute against `base`, the directory it was relative to, with the
 * path rules of the machine that wrote it (a Windows base joins with `\\`). An
 * absolute `p` (POSIX or Windows), or any `p` when `base` is unknown, is
 * returned as written.
 */
export function absolutePath(p: string, base: string | undefined): string {
  if (isAbsolute(p) || isWindowsAbsolute(p) || !base) return p;
  return isWindowsAbsolute(base) ? win32.join(base, p) : join(base, p);
}
