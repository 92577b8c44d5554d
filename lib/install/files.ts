/**
 * Safe edits of other programs' files: JSON configs read whole and refused
 * when invalid, one backup before the first change, atomic writes (a temp
 * file in the same directory, then rename), the live file's mode kept, new
 * files 0600, symlinked configs written at their target.
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { readTextSync } from "../../core/fsread.ts";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";
import { type ConfigFormat, FormatError, formatOf, parseConfig, renderConfig } from "./formats.ts";

const LABEL: Record<ConfigFormat, string> = {
  json: "JSON",
  jsonc: "JSON",
  toml: "TOML",
  yaml: "YAML",
};

/**
 * A config file that exists but does not hold an object in its format: deja
 * refuses to touch it. `at` is where the text stops being valid (the message
 * reads `<path>:<line>:<column>: …`).
 */
export class BrokenConfig extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly at?: { line: number; column: number },
    format: ConfigFormat = "json",
  ) {
    super(
      at
        ? `${path}:${at.line}:${at.column}: not valid ${LABEL[format]} (${reason})`
        : `${path} is not valid ${LABEL[format]} (${reason})`,
    );
  }
}

/** A config as read. */
export interface JsonDoc {
  /** The path as configured. */
  path: string;
  /** How the file is written and edited (formats.ts). */
  format: ConfigFormat;
  /** The text as read ("" for a missing file). */
  text: string;
  /** Where writes go: the symlink's target when the path is a symlink. */
  real: string;
  exists: boolean;
  /** The parsed top-level object ({} for a missing file). */
  value: Record<string, unknown>;
}

/** What a write did. */
export type FileAction = "created" | "updated" | "unchanged" | "removed" | "absent";

/** Follows a symlink to where the file really is (the path itself when it is not one). */
export function realTarget(path: string): string {
  try {
    if (lstatSync(path).isSymbolicLink()) return realpathSync(path);
  } catch { /* missing */ }
  return path;
}

/**
 * Reads a config whose top level must be an object, in `format` (by default
 * the one its name says, formats.ts). A missing or empty file reads as `{}`.
 *
 * @throws {BrokenConfig} when the file cannot be read or does not hold an object.
 */
export function readJsonDoc(path: string, format: ConfigFormat = formatOf(path)): JsonDoc {
  const real = realTarget(path);
  if (!existsSync(real)) return { path, real, format, text: "", exists: false, value: {} };
  let text: string;
  try {
    text = readTextSync(real);
  } catch (e) {
    throw new BrokenConfig(path, (e as { code?: string }).code ?? String(e), undefined, format);
  }
  let v: unknown;
  try {
    v = parseConfig(text, format);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    throw new BrokenConfig(path, e.reason, e.at, format);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new BrokenConfig(path, "the top level is not an object", undefined, format);
  }
  return { path, real, format, text, exists: true, value: v as Record<string, unknown> };
}

/** The JSON text deja writes: two-space indent, trailing newline (what Claude Code and Crush write). */
export function formatJson(v: unknown): string {
  return JSON.stringify(v, null, 2) + "\n";
}

/**
 * Writes `next` into the doc's file when it differs from what was read
 * (compared as values, so a file already holding the same data is never
 * rewritten). An object left empty by a removal deletes the file (with no
 * backup: it held only what deja had added). `backup` false: the file as
 * read is not the user's own text (it holds deja's entries already), so no
 * `.deja.bak` is made of it.
 */
export function saveJsonDoc(
  doc: JsonDoc,
  next: Record<string, unknown>,
  backup = true,
): FileAction {
  if (JSON.stringify(doc.value) === JSON.stringify(next)) {
    return doc.exists ? "unchanged" : "absent";
  }
  if (doc.exists && Object.keys(next).length === 0) {
    // Nothing but deja's own entries was left: no backup of them is kept.
    rmSync(doc.real, { force: true });
    return "removed";
  }
  return writeAtomic(doc.real, renderConfig(doc.format, doc.text, doc.value, next), 0o600, backup);
}

/**
 * Writes `text` to `path` atomically unless it already holds exactly that.
 * Creates missing directories (0700); keeps an existing file's mode; a new
 * file gets `mode` (0600).
 */
export function writeIfChanged(path: string, text: string, mode = 0o600): FileAction {
  const real = realTarget(path);
  if (existsSync(real)) {
    try {
      if (readTextSync(real) === text) return "unchanged";
    } catch { /* unreadable: rewrite it */ }
  }
  return writeAtomic(real, text, mode);
}

/** Keeps one copy of a file's bytes as `<file>.deja.bak` (0600) before deja first changes it. */
export function backupOnce(path: string): void {
  const bak = `${path}.deja.bak`;
  if (!existsSync(path) || existsSync(bak)) return;
  copyFileSync(path, bak);
  chmodSync(bak, 0o600);
}

function writeAtomic(path: string, text: string, newMode = 0o600, backup = true): FileAction {
  const existed = existsSync(path);
  const mode = existed ? statSync(path).mode & 0o7777 : newMode;
  if (existed && backup) backupOnce(path);
  noteMadeDirs(dirname(path), mkdirSync(dirname(path), { recursive: true, mode: 0o700 }));
  const tmp = join(
    dirname(path),
    `.${basename(path)}.deja-${crypto.randomUUID().slice(0, 8)}.tmp`,
  );
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return existed ? "updated" : "created";
}

/** Directories made by writes inside {@link recordingDirs}, outermost first. */
let madeDirs: string[] | undefined;

function noteMadeDirs(dir: string, first: string | undefined): void {
  if (!madeDirs || !first) return;
  const chain: string[] = [];
  for (let d = dir; d.length >= first.length; d = dirname(d)) {
    chain.unshift(d);
    if (d === first || dirname(d) === d) break;
  }
  madeDirs.push(...chain);
}

/** Runs `fn` and returns, beside its result, every directory its writes created. */
export function recordingDirs<T>(fn: () => T): { result: T; dirs: string[] } {
  const outer = madeDirs;
  madeDirs = [];
  try {
    const result = fn();
    return { result, dirs: madeDirs };
  } finally {
    madeDirs = outer;
  }
}

/** Removes `path` when it exists; then `dir` when it is a real, empty directory. */
export function removeFile(path: string, dir?: string): FileAction {
  const real = realTarget(path);
  if (!existsSync(real)) return "absent";
  rmSync(real, { force: true });
  if (dir) {
    try {
      if (lstatSync(dir).isDirectory()) rmdirSync(dir);
    } catch { /* not empty, or gone */ }
  }
  return "removed";
}

/**
 * Runs `fn` and adds every directory its writes created to
 * `<data>/install-dirs.json`, so that {@link removeMadeDirs} can take them
 * away again once they are empty.
 */
export function keepingMadeDirs<T>(env: Env, fn: () => T): T {
  const { result, dirs } = recordingDirs(fn);
  if (dirs.length) saveMadeDirs(env, [...readMadeDirs(env), ...dirs]);
  return result;
}

function madeDirsFile(env: Env): string {
  return join(dataDir(env), "install-dirs.json");
}

function readMadeDirs(env: Env): string[] {
  try {
    const v = JSON.parse(readFileSync(madeDirsFile(env), "utf8"));
    return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function saveMadeDirs(env: Env, dirs: string[]): void {
  const file = madeDirsFile(env);
  const keep = [...new Set(dirs)].filter((d) => d !== dataDir(env));
  if (!keep.length) return void rmSync(file, { force: true });
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(keep, null, 2) + "\n", { mode: 0o600 });
}

/** Removes the directories install made that are empty now, deepest first. */
export function removeMadeDirs(env: Env): void {
  const dirs = readMadeDirs(env);
  if (!dirs.length) return;
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d);
    } catch { /* not empty, or gone */ }
  }
  saveMadeDirs(env, dirs.filter((d) => existsSync(d)));
}
