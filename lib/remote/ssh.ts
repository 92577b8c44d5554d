/**
 * Talking to a remote through the user's own ssh: the command (`ssh` on PATH,
 * or the one `DEJA_SSH` names, split on white space), the probe that learns
 * where the remote keeps its stores, and the errors with hints when ssh or
 * rsync fail. deja passes no credentials; ssh's config, keys and agent do.
 *
 * @module
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { type Captured, runCapture, shQuote } from "../shell.ts";
import { DejaError } from "../../core/errors.ts";
import { storeVariables } from "../../core/registry.ts";
import type { Remote } from "./config.ts";

/** Seconds ssh waits for a connection before giving up. */
export const CONNECT_TIMEOUT_S = 15;

/** The user's ssh command as argv: the one `DEJA_SSH` names (split on white space), else `ssh`. */
export function sshCommand(env: Env): string[] {
  return (env.get("DEJA_SSH") ?? "ssh").trim().split(/\s+/);
}

/** Seconds a shared connection stays open once no step uses it (a sync that died leaves none for long). */
export const CONTROL_PERSIST_S = 30;

/**
 * One ssh login shared by the steps of a sync (the probe, each rsync pass):
 * OpenSSH's ControlMaster, its socket in a private temporary directory
 * (mode 0700). The first step opens the master, the others run over it;
 * {@link closeShared} ends it. Saves a login (key exchange, authentication)
 * per step: a no-change sync makes one login instead of three to five.
 */
export interface SharedSsh {
  /** The private directory holding the socket (removed by {@link closeShared}). */
  dir: string;
  /** The control socket (`ControlPath`). */
  path: string;
}

/**
 * A {@link SharedSsh} for one sync, or undefined where none is made: on
 * Windows (its OpenSSH has no ControlMaster), or when the socket's path would
 * be too long for a Unix socket (104 bytes on macOS). A master that cannot
 * start costs nothing: ssh then logs in once per step, as without it.
 */
export function openShared(env: Env): SharedSsh | undefined {
  if (env.platform === "win32") return undefined;
  try {
    const dir = mkdtempSync(join(env.get("TMPDIR") ?? tmpdir(), "deja-ssh-"));
    const path = join(dir, "c");
    if (path.length <= 100) return { dir, path };
    rmSync(dir, { recursive: true, force: true });
  } catch { /* no temporary directory: one login per step */ }
  return undefined;
}

/**
 * Ends the shared connection (`ssh -O exit`) and removes its directory.
 * Never throws: a master that is gone already, or never started, is fine.
 */
export function closeShared(env: Env, r: Pick<Remote, "host" | "port">, s?: SharedSsh): void {
  if (!s) return;
  try {
    if (existsSync(s.path)) {
      runCapture([...sshArgv(env, r, s), "-O", "exit", r.host], {
        env: childEnv(env),
        timeoutMs: 10_000,
      });
    }
  } finally {
    rmSync(s.dir, { recursive: true, force: true });
  }
}

/**
 * The ssh argv deja runs for `r` (without the command): `DEJA_SSH` or `ssh`,
 * port, batch mode, and with `shared` the options that run it over one
 * master connection.
 */
export function sshArgv(env: Env, r: Pick<Remote, "port">, shared?: SharedSsh): string[] {
  return [
    ...sshCommand(env),
    ...(r.port ? ["-p", String(r.port)] : []),
    ...(shared
      ? [
        "-o",
        "ControlMaster=auto",
        "-o",
        `ControlPath=${shared.path}`,
        "-o",
        `ControlPersist=${CONTROL_PERSIST_S}`,
      ]
      : []),
    "-o",
    "BatchMode=yes",
    "-o",
    `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
    // A connection that stalls mid-transfer ends within a minute instead of hanging the sync.
    "-o",
    "ServerAliveInterval=15",
    "-o",
    "ServerAliveCountMax=4",
  ];
}

/** The same command as one string for `rsync -e`. */
export function rsyncShell(env: Env, r: Pick<Remote, "port">, shared?: SharedSsh): string {
  return sshArgv(env, r, shared).map(shQuote).join(" ");
}

/** The environment deja's children run with (the process's own, as the IO's env has it). */
export function childEnv(env: Env): Record<string, string | undefined> | undefined {
  return env.vars?.();
}

/** What the probe learned about a remote. */
export interface Probe {
  home: string;
  platform: string;
  /** Store-placing variables set on the remote. */
  vars: Record<string, string>;
  rsync: boolean;
  sqlite3: boolean;
  /** The remote's `deja sources --json`, when deja is installed there and answered. */
  dejaSources?: {
    harnesses?: Array<{ harness: string; roots?: Array<{ path: string; exists: boolean }> }>;
  };
}

/** The shell script the probe runs on the remote (POSIX sh; reads only). */
export function probeScript(): string {
  const vars = storeVariables().join(" ");
  return [
    `printf 'home\\t%s\\n' "$HOME"`,
    `printf 'uname\\t%s\\n' "$(uname -s 2>/dev/null)"`,
    `for v in ${vars}; do eval "x=\\\${$v-}"; [ -n "$x" ] && printf 'var\\t%s\\t%s\\n' "$v" "$x"; done`,
    `command -v rsync >/dev/null 2>&1 && echo 'rsync\tyes'`,
    `command -v sqlite3 >/dev/null 2>&1 && echo 'sqlite3\tyes'`,
    `if command -v deja >/dev/null 2>&1; then echo 'deja-sources'; deja sources --json 2>/dev/null; fi`,
    "exit 0",
  ].join("\n");
}

/** Parses the probe's output. @throws {DejaError} when it is not the probe's. */
export function parseProbe(out: string, host: string): Probe {
  const p: Probe = { home: "", platform: "linux", vars: {}, rsync: false, sqlite3: false };
  const lines = out.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const [k, a, b] = lines[i].split("\t");
    if (k === "home") p.home = a ?? "";
    else if (k === "uname") p.platform = /darwin/i.test(a ?? "") ? "darwin" : "linux";
    else if (k === "var" && a && b !== undefined) p.vars[a] = b;
    else if (k === "rsync") p.rsync = true;
    else if (k === "sqlite3") p.sqlite3 = true;
    else if (k === "deja-sources") {
      try {
        p.dejaSources = JSON.parse(lines.slice(i + 1).join("\n"));
      } catch { /* an old or broken deja: the registry's defaults are used */ }
      break;
    }
  }
  if (!p.home.startsWith("/")) {
    throw new DejaError(
      `${host} did not say where its home directory is`,
      `run 'ssh ${host} echo \\$HOME' to see what the remote shell prints`,
    );
  }
  return p;
}

/** Runs the probe on `r`. @throws {DejaError} when ssh fails, with a hint. */
export function probe(env: Env, r: Remote, shared?: SharedSsh): Probe {
  const argv = [...sshArgv(env, r, shared), r.host, `sh -c ${shQuote(probeScript())}`];
  const c = runCapture(argv, { env: childEnv(env), timeoutMs: 120_000 });
  if (c.error || c.code !== 0) throw sshFailure(c, sshCommand(env), r);
  const p = parseProbe(c.stdout, r.host);
  if (!p.rsync) {
    throw new DejaError(
      `${r.host} has no rsync`,
      `install rsync on ${r.host} (e.g. 'sudo apt-get install rsync'); deja copies stores with it`,
    );
  }
  return p;
}

/**
 * Which of `paths` (remote absolute paths) exist on `r`, in their order: the roots a sync
 * copies are those the remote has now, not those an earlier copy left in the mirror
 * (trial 101 F2: stores gone from the remote synced "ok" and were listed as current).
 *
 * @throws {DejaError} when ssh fails, with a hint.
 */
export function existingPaths(
  env: Env,
  r: Remote,
  paths: readonly string[],
  shared?: SharedSsh,
): string[] {
  if (!paths.length) return [];
  const script = `for d in ${
    paths.map(shQuote).join(" ")
  }; do [ -e "$d" ] && printf '%s\\n' "$d"; done; exit 0`;
  const argv = [...sshArgv(env, r, shared), r.host, `sh -c ${shQuote(script)}`];
  const c = runCapture(argv, { env: childEnv(env), timeoutMs: 120_000 });
  if (c.error || c.code !== 0) throw sshFailure(c, sshCommand(env), r);
  const there = new Set(c.stdout.split("\n"));
  return paths.filter((p) => there.has(p));
}

/** The error for a failed ssh run: not installed, unreachable, refused, or a remote failure. */
export function sshFailure(
  c: Captured,
  ssh: readonly string[],
  r: Pick<Remote, "host" | "port">,
): DejaError {
  const last = c.stderr.trim().split("\n").filter(Boolean).pop() ?? "";
  if (c.error === "ENOENT") {
    return new DejaError(
      `'${ssh[0]}' is not installed or not on PATH`,
      "install OpenSSH's client, or set DEJA_SSH to the ssh command to use",
    );
  }
  if (c.code === null) {
    return new DejaError(`${r.host} did not answer in time`, "check the host is up and reachable");
  }
  // The ssh deja ran, DEJA_SSH's included (trial 63: the hint said plain ssh).
  // Quoted for pasting (trial 79: `ssh me@host;rm true` would have run `rm true`).
  const target = [...ssh, ...(r.port ? ["-p", String(r.port)] : []), r.host].map(shQuote)
    .join(" ");
  return new DejaError(
    `could not reach ${r.host}${last ? `: ${last}` : ` (ssh exit ${c.code})`}`,
    `check that '${target} true' works without a prompt (deja uses your ssh config, keys and agent)`,
  );
}
