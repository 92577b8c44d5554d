/**
 * Root resolution shared by every parser: each harness root can be redirected
 * by `DEJA_<ID>_ROOT`, then by the harness's own variable, then a default under
 * the home directory.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { Env } from "../lib/model.ts";

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
