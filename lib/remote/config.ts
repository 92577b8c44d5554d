/**
 * The remotes deja mirrors (`deja remote add`): their names, SSH targets, path
 * maps and policy, and what the last sync left (time, bytes, error), kept in
 * `<data>/remotes.json` (0600). deja keeps no credentials: the user's own ssh
 * (its config, keys and agent) does the connecting.
 *
 * @module
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { DejaError } from "../../core/errors.ts";
import { dataDir } from "../../core/paths.ts";
import { typedText } from "../../core/terminal.ts";

/** One `--path-map remote=local` pair: a remote directory and the local one it is cloned as. */
export interface PathMap {
  remote: string;
  local: string;
}

/** What the last sync of a remote left. */
export interface SyncState {
  /** Epoch ms the last sync finished (whether or not it succeeded). */
  at: number;
  /** Epoch ms of the last sync that completed; the mirror is whole as of then. */
  okAt?: number;
  /** The last sync's error, when it failed (the previous mirror stays searchable). */
  error?: string;
  /** Bytes rsync received in the last sync. */
  bytes?: number;
  /** Files that changed in the last sync. */
  files?: number;
  /** Wall time of the last sync in milliseconds. */
  ms?: number;
  /**
   * False from the start of a transfer until it completes: `deja index` leaves
   * an incomplete mirror unread (what it indexed before stays searchable).
   */
  complete: boolean;
  /** The remote's home directory (probed). */
  home?: string;
  /** The remote's environment variables that place harness stores (probed). */
  vars?: Record<string, string>;
  /** Store roots mirrored (remote absolute paths). */
  roots?: string[];
  /** How the roots were found: the remote's own `deja sources --json`, or the registry's defaults. */
  discovery?: "deja" | "registry";
  /** Roots an earlier sync copied that the remote no longer had at the last one (trial 101 F2). */
  stale?: string[];
}

/** One remote machine. */
export interface Remote {
  /** `^[a-z][a-z0-9_-]*$`: the label sessions carry (`origin`) and their id prefix. */
  name: string;
  /** `user@host` or `host` (an ssh config alias works). */
  host: string;
  port?: number;
  pathMaps: PathMap[];
  /** Hooks and MCP leave this remote's sessions out (`deja remote policy <name> --no-auto`). */
  noAuto?: boolean;
  sync?: SyncState;
}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** The file the remotes are kept in. */
export function remotesFile(env: Env): string {
  return join(dataDir(env), "remotes.json");
}

/** The directory a remote's mirror lives in: remote absolute paths are recreated under it. */
export function mirrorDir(env: Env, name: string): string {
  return join(dataDir(env), "remotes", name);
}

/** Every configured remote ([] when none). @throws {DejaError} when the file is not valid JSON. */
export function loadRemotes(env: Env): Remote[] {
  const f = remotesFile(env);
  if (!existsSync(f)) return [];
  try {
    const v = JSON.parse(readFileSync(f, "utf8"));
    return Array.isArray(v?.remotes) ? v.remotes as Remote[] : [];
  } catch (e) {
    throw new DejaError(
      `${f} is not valid JSON: ${(e as Error).message}`,
      "fix or remove the file, then add the remotes again with 'deja remote add'",
    );
  }
}

/** Writes the remotes atomically, mode 0600. */
export function saveRemotes(env: Env, remotes: Remote[]): void {
  const f = remotesFile(env);
  mkdirSync(dataDir(env), { recursive: true, mode: 0o700 });
  const tmp = `${f}.tmp`;
  writeFileSync(tmp, JSON.stringify({ remotes }, null, 2) + "\n", { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, f);
}

/** Updates one remote in place (load, change, save). */
export function updateRemote(env: Env, name: string, change: (r: Remote) => void): Remote {
  const all = loadRemotes(env);
  const r = all.find((x) => x.name === name);
  if (!r) throw unknownRemote(name, all);
  change(r);
  saveRemotes(env, all);
  return r;
}

/** The error for a name that is not configured. */
export function unknownRemote(name: string, all: Remote[]): DejaError {
  return new DejaError(
    `no remote named ${typedText(name)}`,
    all.length
      ? `the remotes are: ${all.map((r) => r.name).join(", ")}`
      : "add one with 'deja remote add <name> <user@host>[:port]'",
  );
}

/** Checks a remote's name. @throws {DejaError} naming the rule. */
export function checkName(name: string): void {
  if (!NAME.test(name) || name === "local") {
    throw new DejaError(
      `${typedText(name)} cannot name a remote`,
      "use lower-case letters, digits, '-' or '_', starting with a letter (not 'local')",
    );
  }
}

/** `user@host[:port]` -> host and port. @throws {DejaError} on a bad port or an empty host. */
export function parseTarget(target: string): { host: string; port?: number } {
  if (target.startsWith("-")) {
    throw new DejaError(
      `an SSH target cannot start with '-': ${typedText(target)} (ssh would read it as an option)`,
      "write it as user@host or user@host:port",
    );
  }
  // A host of letters, digits, `.`, `-` and `_` (an ssh config alias too): ssh refuses shell
  // characters in a host name (trial 79: `me@host;rm` was added, and failed at each sync).
  // Or an IPv6 address alone (`me@::1`), or in brackets before a port (`me@[::1]:2222`): kept
  // without its brackets, as ssh takes it (trial 84: `me@[::1]` never resolved).
  const v6 =
    /^([^\s:@/;&|<>()$`'"\\]+@)?(?:\[([0-9a-fA-F:]*:[0-9a-fA-F:]*)\](?::(\d+))?|([0-9a-fA-F]*:[0-9a-fA-F:]*:[0-9a-fA-F:]*))$/
      .exec(target);
  const m = v6
    ? [v6[0], v6[1], v6[2] ?? v6[4], v6[3]]
    : /^([^\s:@/;&|<>()$`'"\\]+@)?([A-Za-z0-9._-]+)(?::(\d+))?$/.exec(target);
  if (!m) {
    throw new DejaError(
      `${typedText(target)} is not an SSH target`,
      "write it as user@host or user@host:port",
    );
  }
  const port = m[3] === undefined ? undefined : Number(m[3]);
  if (port !== undefined && (port < 1 || port > 65535)) {
    throw new DejaError(`port ${m[3]} is out of range`, "a port is 1-65535");
  }
  return { host: `${m[1] ?? ""}${m[2]}`, ...(port ? { port } : {}) };
}

/** `remote=local` -> a path map. @throws {DejaError} unless both sides are absolute. */
export function parsePathMap(text: string): PathMap {
  const i = text.indexOf("=");
  const remote = i < 0 ? "" : text.slice(0, i).replace(/\/+$/, "");
  const local = i < 0 ? "" : text.slice(i + 1).replace(/\/+$/, "");
  if (!remote.startsWith("/") || !local.startsWith("/")) {
    throw new DejaError(
      `--path-map '${text}' is not remote=local`,
      "give two absolute directories, e.g. --path-map /home/me/src=/Users/me/src",
    );
  }
  return { remote, local };
}
