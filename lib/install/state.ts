/**
 * What install did that uninstall must know later, kept in
 * `<data>/install-state.json`: the directories and the files deja created
 * (only those may ever be removed again: a file the user had, even one left
 * holding `{}`, stays), and the user's own entries that `install --force`
 * replaced (uninstall puts them back), and the harnesses whose plain wiring
 * (MCP server, skill, command) an `-auto` install wrote, so that uninstalling
 * `-auto` takes that too (install and uninstall of one target undo each
 * other). Older deja kept only the directories,
 * in `<data>/install-dirs.json`; that file is still read.
 *
 * @module
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { DejaError } from "../../core/errors.ts";
import { dirname, join } from "node:path";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";

/** A user's entry `install --force` replaced with deja's: where it was and what it held. */
export interface Replaced {
  /** The config file (symlinks followed). */
  file: string;
  /** The key path of the entry (registry `install.mcp.key`). */
  key: string[];
  /** The user's value, put back by uninstall. */
  value: unknown;
}

/** The containers (key paths) install created in a config file: uninstall prunes only those. */
export interface Made {
  file: string;
  keys: string[][];
}

/**
 * True when `state` records that deja's install made the key `key` of the config whose real
 * path is `file` (an MCP entry deja wrote, though the user may have edited it since).
 */
export function madeKey(state: InstallState | undefined, file: string, key: string[]): boolean {
  const want = JSON.stringify(key);
  return state?.made?.find((m) => m.file === file)?.keys.some((k) => JSON.stringify(k) === want) ??
    false;
}

/** The install state. */
export interface InstallState {
  /** Directories deja's writes created, outermost first. */
  dirs: string[];
  /** Files deja's writes created (symlinks followed). */
  created: string[];
  replaced: Replaced[];
  /** The containers deja created, per config file (containers.ts). */
  made?: Made[];
  /**
   * Harness ids whose plain wiring was not there until an `-auto` install
   * wrote it (and no plain install was asked since): `uninstall <h>-auto`
   * removes it as well as the hooks.
   */
  withAuto?: string[];
  /**
   * The files deja owns whole (skill, command, plugin) as it last wrote them: real path ->
   * SHA-256 of the text. One that no longer matches was edited by the user: install keeps it
   * (trial 58: a line added to deja's SKILL.md was overwritten by the next install).
   */
  owned?: Record<string, string>;
  /**
   * The configs deja wrote its entries into, as it last wrote them: real path -> SHA-256 of
   * the text. Uninstall puts a config's backup bytes back only when it still holds that text:
   * one the user edited since keeps their edit (trial 138 H1: `200000.0` fixed to `200000`,
   * the same number as data, was put back).
   */
  configs?: Record<string, string>;
  /** No state was kept (deja's data directory was deleted, or nothing was installed). */
  missing?: boolean;
}

const stateFile = (env: Env) => join(dataDir(env), "install-state.json");
const oldDirsFile = (env: Env) => join(dataDir(env), "install-dirs.json");
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** The install state of `env` (empty when none was kept, or it does not parse). */
export function loadInstallState(env: Env): InstallState {
  const s: InstallState = { dirs: [], created: [], replaced: [], made: [], withAuto: [] };
  s.missing = !existsSync(stateFile(env)) && !existsSync(oldDirsFile(env));
  try {
    s.dirs.push(...strings(JSON.parse(readFileSync(oldDirsFile(env), "utf8"))));
  } catch { /* none */ }
  try {
    const v = JSON.parse(readFileSync(stateFile(env), "utf8"));
    s.dirs.push(...strings(v?.dirs));
    s.created.push(...strings(v?.created));
    s.withAuto!.push(...strings(v?.withAuto));
    if (Array.isArray(v?.replaced)) {
      s.replaced.push(
        ...v.replaced.filter((r: Replaced) =>
          typeof r?.file === "string" && Array.isArray(r.key) && "value" in r
        ),
      );
    }
    if (v?.owned && typeof v.owned === "object" && !Array.isArray(v.owned)) {
      s.owned = Object.fromEntries(
        Object.entries(v.owned as Record<string, unknown>).filter(([, h]) => typeof h === "string"),
      ) as Record<string, string>;
    }
    if (v?.configs && typeof v.configs === "object" && !Array.isArray(v.configs)) {
      s.configs = Object.fromEntries(
        Object.entries(v.configs as Record<string, unknown>).filter(([, h]) =>
          typeof h === "string"
        ),
      ) as Record<string, string>;
    }
    if (Array.isArray(v?.made)) {
      s.made!.push(
        ...v.made.filter((m: Made) => typeof m?.file === "string" && Array.isArray(m.keys)),
      );
    }
  } catch { /* none */ }
  return s;
}

/** Writes the state (removes its file when it holds nothing). */
export function saveInstallState(env: Env, s: InstallState): void {
  const keep: InstallState = {
    dirs: [...new Set(s.dirs)].filter((d) => d !== dataDir(env)),
    created: [...new Set(s.created)],
    replaced: s.replaced,
    ...(s.made?.length ? { made: s.made } : {}),
    ...(s.withAuto?.length ? { withAuto: [...new Set(s.withAuto)] } : {}),
    ...(s.owned && Object.keys(s.owned).length ? { owned: s.owned } : {}),
    ...(s.configs && Object.keys(s.configs).length ? { configs: s.configs } : {}),
  };
  delete keep.missing;
  if (existsSync(oldDirsFile(env))) rmSync(oldDirsFile(env), { force: true });
  const file = stateFile(env);
  if (
    !keep.dirs.length && !keep.created.length && !keep.replaced.length && !keep.made &&
    !keep.withAuto && !keep.owned && !keep.configs
  ) {
    return void rmSync(file, { force: true });
  }
  const text = JSON.stringify(keep, null, 2) + "\n";
  try {
    if (readFileSync(file, "utf8") === text) return; // unchanged: not even its time
  } catch { /* none yet */ }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, text, { mode: 0o600 });
}

/** What writes made while {@link recording} runs. */
let made: { dirs: string[]; files: string[] } | undefined;

/** Notes that a write created `dir` and its parents up to `first` (mkdirSync's answer). */
export function noteMadeDirs(dir: string, first: string | undefined): void {
  if (!made || !first) return;
  const chain: string[] = [];
  for (let d = dir; d.length >= first.length; d = dirname(d)) {
    chain.unshift(d);
    if (d === first || dirname(d) === d) break;
  }
  made.dirs.push(...chain);
}

/** Notes that a write created the file `path`. */
export function noteCreated(path: string): void {
  made?.files.push(path);
}

/**
 * Runs `fn` and adds every directory and file its writes created to the
 * install state, so that uninstall may take them away again (even when `fn`
 * throws half way: what was made is still recorded).
 */
export function keepingMadeDirs<T>(env: Env, fn: () => T): T {
  const outer = made;
  made = { dirs: [], files: [] };
  const mine = made;
  try {
    return fn();
  } finally {
    made = outer;
    if (mine.dirs.length || mine.files.length) {
      const s = loadInstallState(env);
      saveInstallState(env, {
        ...s,
        dirs: [...s.dirs, ...mine.dirs],
        created: [...s.created, ...mine.files],
      });
    }
  }
}

/**
 * Removes the directories install made that are empty now, deepest first, and
 * forgets the created files that are gone.
 */
export function removeMadeDirs(env: Env): void {
  const s = loadInstallState(env);
  for (const d of [...s.dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d);
    } catch { /* not empty, or gone */ }
  }
  saveInstallState(env, {
    ...s,
    dirs: s.dirs.filter((d) => existsSync(d)),
    created: s.created.filter((f) => existsSync(f)),
  });
}

/** How long an install or uninstall waits for another one to finish, in milliseconds. */
export const INSTALL_WAIT_MS = 30_000;

/**
 * Runs `fn` while holding the install lock (`<data>/install.lock`, an exclusive SQLite
 * transaction, as the index's writer lock): two installs or uninstalls at once each read the
 * install state before the other wrote it, and one record was lost (trial 58: two concurrent
 * `deja install gemini-auto`, then an uninstall, left `hooksConfig.enabled` set in about two
 * runs of ten).
 *
 * @throws {DejaError} when another one holds it past {@link INSTALL_WAIT_MS}.
 */
export function withInstallLock<T>(env: Env, fn: () => T, waitMs = INSTALL_WAIT_MS): T {
  const dir = dataDir(env);
  const made = !existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    return locked(dir, fn, waitMs);
  } finally {
    // A run that wrote nothing (every target refused) leaves no data folder behind either.
    try {
      if (made && readdirSync(dir).every((f) => f.startsWith("install.lock"))) {
        rmSync(dir, { recursive: true, force: true });
      }
    } catch { /* left as it is */ }
  }
}

function locked<T>(dir: string, fn: () => T, waitMs: number): T {
  const db = new DatabaseSync(join(dir, "install.lock"));
  try {
    try {
      db.exec(`PRAGMA busy_timeout = ${waitMs}`);
      db.exec("PRAGMA journal_mode = DELETE");
      db.exec("BEGIN EXCLUSIVE");
    } catch {
      throw new DejaError(
        "another deja install or uninstall is running",
        "wait for it to finish, then run this again",
        2,
      );
    }
    try {
      return fn();
    } finally {
      try {
        db.exec("COMMIT");
      } catch { /* nothing held */ }
    }
  } finally {
    db.close();
  }
}
