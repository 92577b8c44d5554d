/**
 * The launcher: a small POSIX shell script in the deja data directory
 * (`<data>/bin/deja-launcher`) that every wired hook and MCP server runs
 * instead of the deja binary itself. It execs the binary recorded at install
 * time; when that is gone, `$DEJA_BIN`, then a `deja` on PATH that answers
 * `--version` with `deja <n>`; when none is found it exits 0 and prints
 * nothing, so a hook never stops the agent. Moving the binary therefore needs
 * one `deja install` again (which rewrites only this file), and until then
 * the agents keep working without recall.
 *
 * On Windows there is no launcher: configs name the binary itself.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";
import { type FileAction, writeIfChanged } from "./files.ts";
import { shQuote } from "../shell.ts";
import { readTextSync } from "../../core/fsread.ts";

/** Where the launcher lives for `env`. */
export function launcherPath(env: Env): string {
  return join(dataDir(env), "bin", "deja-launcher");
}

/**
 * The launcher script for `self`, the argv that starts this deja (the binary,
 * or an interpreter plus its script when run from source). `dejaHome`, when
 * given, is exported as `DEJA_HOME` unless the caller already set one: Codex
 * starts MCP servers with a filtered environment, so a non-default data
 * directory must live in the launcher.
 */
export function launcherScript(self: string[], dejaHome?: string): string {
  const [prog, ...rest] = self;
  const files = rest.filter((a) => a.startsWith("/"));
  const test = [prog, ...files].map((f, i) => `[ ${i ? "-f" : "-x"} ${shQuote(f)} ]`).join(" && ");
  return [
    "#!/bin/sh",
    "# deja launcher, written by 'deja install' (run it again after moving deja).",
    "# Hooks and the MCP server of your coding agents start deja through this file.",
    "# When no deja is found it exits 0 and prints nothing: a hook never stops the agent.",
    `# target: ${JSON.stringify(self)}`,
    ...(dejaHome
      ? [`if [ -z "$DEJA_HOME" ]; then DEJA_HOME=${shQuote(dejaHome)}; export DEJA_HOME; fi`]
      : []),
    `if ${test}; then exec ${self.map(shQuote).join(" ")} "$@"; fi`,
    `if [ -n "$DEJA_BIN" ] && [ -x "$DEJA_BIN" ]; then exec "$DEJA_BIN" "$@"; fi`,
    `d=$(command -v deja 2>/dev/null) || d=`,
    `case "$d" in /*) case "$("$d" --version 2>/dev/null </dev/null)" in "deja "[0-9]*) exec "$d" "$@" ;; esac ;; esac`,
    "exit 0",
    "",
  ].join("\n");
}

/** The data directory to record in the launcher: `DEJA_HOME` when it is set, else none. */
export function recordedHome(env: Env): string | undefined {
  return env.get("DEJA_HOME") ? dataDir(env) : undefined;
}

/** Writes (or rewrites) the launcher for `self`; mode 0700. */
export function writeLauncher(env: Env, self: string[], dryRun = false): FileAction {
  // deja's own file: no backup of an older launcher is kept.
  return writeIfChanged(
    launcherPath(env),
    launcherScript(self, recordedHome(env)),
    0o700,
    false,
    dryRun,
  );
}

/**
 * The argv a launcher file records, or null when the file is missing or not a
 * deja launcher.
 */
export function launcherTarget(path: string): string[] | null {
  if (!existsSync(path)) return null;
  try {
    const m = /^# target: (\[.*\])$/m.exec(readTextSync(path));
    const v = m ? JSON.parse(m[1]) : null;
    return Array.isArray(v) && v.every((x) => typeof x === "string") ? v : null;
  } catch {
    return null;
  }
}

/** True when every file the argv names (the program and any absolute script path) exists. */
export function targetExists(self: string[]): boolean {
  return self.length > 0 && existsSync(self[0]) &&
    self.slice(1).filter((a) => a.startsWith("/")).every((f) => existsSync(f));
}

/**
 * True when `path` lies in a package manager's cache (npx, npm, bunx, pnpm
 * dlx, deno's cache), which may be cleared at any time: a launcher that
 * records such a path breaks later, so install warns.
 */
export function inPackageCache(path: string): boolean {
  return /[/\\](_npx|\.npm|_cacache|\.bun[/\\]install[/\\]cache|pnpm[/\\](store|dlx)|\.cache[/\\]deno|dlx-[^/\\]*)[/\\]/
    .test(path);
}
