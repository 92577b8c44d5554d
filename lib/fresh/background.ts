/**
 * The detached background `deja index` that work too large for a command's
 * own time budget is handed to. At most one runs at a time: a sentinel file
 * `<data>/index.bg` holds its pid and start time; a sentinel whose process is
 * gone, or that is older than {@link STALE_MS}, is taken over (a crashed run
 * never blocks the next one). The run's output goes to `<data>/index.bg.log`.
 *
 * @module
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Env } from "../../core/model.ts";
import { pidAlive, selfCommand, spawnDetached } from "../../core/runtime.ts";
import { makeDataDir } from "../store.ts";
import { dataDir } from "../../core/paths.ts";

/** A sentinel older than this is stale whatever its pid says (pids are reused). */
export const STALE_MS = 30 * 60_000;

/** The sentinel's path. */
export function sentinelPath(env: Env): string {
  return join(dataDir(env), "index.bg");
}

/** The running background index, if any: its pid and start time (epoch ms). */
export function runningBackground(env: Env, now = Date.now()): { pid: number; at: number } | null {
  try {
    const [pid, at] = readFileSync(sentinelPath(env), "utf8").trim().split(/\s+/).map(Number);
    if (!at || now - at > STALE_MS) return null;
    // pid 0: another process claimed the sentinel and is starting the run.
    if (pid === 0 ? now - at > 10_000 : !pidAlive(pid)) return null;
    return { pid, at };
  } catch {
    return null;
  }
}

/**
 * The argv of this deja for a background run: `DEJA_SELF` (a JSON array) when
 * set, else the running binary or entry script; undefined when this process
 * is neither (a test runner), so nothing foreign is started.
 */
export function backgroundArgv(env: Env): string[] | undefined {
  const own = env.get("DEJA_SELF");
  if (own) {
    try {
      const v = JSON.parse(own);
      if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string")) return v;
    } catch { /* not an argv */ }
    return undefined;
  }
  const argv = selfCommand();
  if (argv.length > 1 && !/^(main|bin)\.ts$/.test(basename(argv[argv.length - 1]))) {
    return undefined;
  }
  return argv;
}

/**
 * Starts a background `deja index --quiet --background` unless one runs;
 * returns its pid, the pid of the one already running, or undefined when
 * none could be started.
 */
export function startBackground(env: Env): number | undefined {
  const running = runningBackground(env);
  if (running) return running.pid;
  const argv = backgroundArgv(env);
  if (!argv) return undefined;
  const dir = dataDir(env);
  try {
    makeDataDir(dir);
  } catch {
    return undefined;
  }
  if (!claim(env)) return runningBackground(env)?.pid;
  const log = join(dir, "index.bg.log");
  trimLog(log);
  const pid = spawnDetached(
    [...argv, "index", "--quiet", "--background", "--wait", "60"],
    env,
    log,
  );
  if (pid) writeFileSync(sentinelPath(env), `${pid} ${Date.now()}\n`, { mode: 0o600 });
  else rmSync(sentinelPath(env), { force: true });
  return pid;
}

/** Creates the sentinel exclusively (taking over a stale one); false when another process has it. */
function claim(env: Env): boolean {
  const path = sentinelPath(env);
  for (let i = 0; i < 2; i++) {
    try {
      writeFileSync(path, `0 ${Date.now()}\n`, { mode: 0o600, flag: "wx" });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") return false;
      if (runningBackground(env)) return false;
      rmSync(path, { force: true });
    }
  }
  return false;
}

/** Called by the background run when it ends: removes the sentinel if it is its own. */
export function endBackground(env: Env, pid: number): void {
  try {
    const [owner] = readFileSync(sentinelPath(env), "utf8").trim().split(/\s+/).map(Number);
    if (owner === pid) rmSync(sentinelPath(env), { force: true });
  } catch { /* already gone */ }
}

/** True when refresh on use is turned off by the environment (`DEJA_NO_REFRESH`). */
export function refreshOff(env: Env): boolean {
  const v = env.get("DEJA_NO_REFRESH");
  return v !== undefined && v !== "0" && v.toLowerCase() !== "false";
}

/** A hook or the MCP server starts a background run when the last full run is older than this. */
export const STALE_INDEX_MS = 60_000;

/**
 * For callers that must never wait on indexing (hooks, the MCP server): starts
 * a background run when there is no index (`lastIndexAt` undefined) or the
 * last full run is older than {@link STALE_INDEX_MS}. Never throws.
 */
export function kickIfStale(env: Env, lastIndexAt: number | undefined, now = Date.now()): void {
  try {
    if (refreshOff(env)) return;
    if (lastIndexAt !== undefined && now - lastIndexAt < STALE_INDEX_MS) return;
    startBackground(env);
  } catch { /* never in the caller's way */ }
}

/** Keeps the background log from growing without bound (it is only for a curious user). */
function trimLog(path: string): void {
  try {
    if (statSync(path).size > 256 * 1024) rmSync(path, { force: true });
  } catch { /* absent */ }
}
