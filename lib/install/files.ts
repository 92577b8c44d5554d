/**
 * Safe edits of other programs' files: JSON configs read whole and refused
 * when invalid, one backup before the first change, atomic writes (a temp
 * file in the same directory, then rename), the live file's mode kept, new
 * files 0600, symlinked configs written at their target.
 *
 * @module
 */
import {
  accessSync,
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readHeadSync, readTextSync } from "../../core/fsread.ts";
import {
  BOM,
  type ConfigFormat,
  dataKey,
  FormatError,
  formatOf,
  parseConfig,
  renderChecked,
} from "./formats.ts";
import { noteCreated, noteMadeDirs } from "./state.ts";
import { uid } from "../../core/runtime.ts";

/**
 * As root, gives `path` the owner and group `like` has (a stat of the file it
 * replaces, or of its parent directory), so that a user's config rewritten by
 * `sudo deja install` stays readable by its user. A no-op for anyone else.
 */
function keepOwner(path: string, like: { uid: number; gid: number }): void {
  if (uid() !== 0) return;
  if (like.uid === 0 && like.gid === 0) return;
  chownSync(path, like.uid, like.gid);
}

/** Makes `dir` and its missing parents (0700); as root each new one gets its parent's owner. */
function makeDirs(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  noteMadeDirs(dir, first);
  if (!first || uid() !== 0) return;
  const chain: string[] = [];
  for (let d = dir; d.length >= first.length && dirname(d) !== d; d = dirname(d)) chain.unshift(d);
  for (const d of chain) keepOwner(d, statSync(dirname(d)));
}

export { keepingMadeDirs, removeMadeDirs } from "./state.ts";

const LABEL: Record<ConfigFormat, string> = {
  json: "JSON",
  jsonc: "JSON",
  "json-comments": "JSON",
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
    /** Said instead of "is not valid JSON (…)" when the trouble is not the text. */
    readonly what?: string,
  ) {
    super(
      what
        ? `${path} ${what}`
        : at
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
  /** The text as read ("" for a missing file), without a byte order mark. */
  text: string;
  /** The file starts with a UTF-8 byte order mark (kept when written). */
  bom?: boolean;
  /** Where writes go: the symlink's target when the path is a symlink. */
  real: string;
  exists: boolean;
  /** The parsed top-level object ({} for a missing file). */
  value: Record<string, unknown>;
}

/** What a write did. */
export type FileAction = "created" | "updated" | "unchanged" | "removed" | "restored" | "absent";

/**
 * Follows a symlink (and a chain of them) to where the file really is, also
 * when the last link dangles: the path it names is where a write must go, so
 * the link itself is kept. The path itself when it is not a link.
 */
export function realTarget(path: string): string {
  let p = path;
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!lstatSync(p).isSymbolicLink()) return p;
      p = resolve(dirname(p), readlinkSync(p));
    } catch {
      return p; // missing
    }
  }
  return p;
}

/**
 * Why deja could not write the file at `path` (or remove it, or keep its
 * backup beside it), or undefined when it can: the file (its symlink's
 * target) must be a regular file whose mode lets its owner write (checked by
 * the mode bits, so root is refused a read-only file too), and its directory,
 * or the nearest one that exists, a directory deja may write in. A symlink
 * whose target's directory does not exist is refused: deja writes through
 * links and never makes the directories a link points into.
 */
export function writeProblem(path: string, removing = false): string | undefined {
  const real = realTarget(path);
  const shown = real === path ? path : `${path} (a symlink to ${real})`;
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(real);
  } catch { /* missing */ }
  if (st?.isDirectory()) return `${shown} is a directory, not a file`;
  if (st && !(Number(st.mode) & 0o200)) {
    return `${shown} is read-only (mode ${
      (Number(st.mode) & 0o777).toString(8)
    }): make it writable (chmod u+w), or ${
      removing ? "remove deja's entry" : "add deja's entry"
    } by hand`;
  }
  // Root may write any file (Deno's accessSync judges by the mode bits alone).
  if (st && uid() !== 0) {
    try {
      accessSync(real, constants.W_OK);
    } catch {
      return `${shown} is not writable by you`;
    }
  }
  if (!st && real !== path && !existsSync(dirname(real))) {
    return `${shown}: the directory ${dirname(real)} does not exist`;
  }
  let dir = dirname(real);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a directory (needed for ${path})`;
    if (uid() !== 0) accessSync(dir, constants.W_OK);
  } catch {
    return `cannot write in ${dir} (needed for ${path})`;
  }
  return undefined;
}

/**
 * Largest config file deja reads and edits (trial 58: a valid `~/.claude.json` of 8.4 MB, which
 * Claude Code grows with every project's history, was "not valid JSON (EFBIG)" under the
 * 8 MiB cap of files deja reads, so deja could neither install nor uninstall there).
 */
export const CONFIG_MAX = 256 << 20;

/**
 * Reads a config whose top level must be an object, in `format` (by default
 * the one its name says, formats.ts). A missing or empty file reads as `{}`.
 *
 * @throws {BrokenConfig} when the file cannot be read or does not hold an object.
 */
export function readJsonDoc(path: string, format: ConfigFormat = formatOf(path)): JsonDoc {
  const real = realTarget(path);
  if (!existsSync(real)) return { path, real, format, text: "", exists: false, value: {} };
  if (statSync(real).isDirectory()) {
    throw new BrokenConfig(path, "", undefined, format, "is a directory, not a file");
  }
  let text: string;
  try {
    text = readTextSync(real, CONFIG_MAX);
  } catch (e) {
    const code = (e as { code?: string }).code ?? String(e);
    if (code === "EFBIG") {
      throw new BrokenConfig(path, code, undefined, format, `is over ${CONFIG_MAX >> 20} MiB`);
    }
    throw new BrokenConfig(path, code, undefined, format);
  }
  let v: unknown;
  try {
    v = parseConfig(text, format);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    throw new BrokenConfig(path, e.reason, e.at, format);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    // Valid text of the wrong shape (trial 38: `[]` was called "not valid JSON").
    const shape = Array.isArray(v) ? "a list" : v === null ? "null" : `a ${typeof v}`;
    throw new BrokenConfig(
      path,
      "the top level is not an object",
      undefined,
      format,
      `holds ${shape} where its settings (an object) belong`,
    );
  }
  const bom = readHeadSync(real, 3).join() === "239,187,191";
  return { path, real, format, text, bom, exists: true, value: v as Record<string, unknown> };
}

/** The JSON text deja writes: two-space indent, trailing newline (what Claude Code and Crush write). */
export function formatJson(v: unknown): string {
  return JSON.stringify(v, null, 2) + "\n";
}

/**
 * Writes `next` into the doc's file when it differs from what was read
 * (compared as values, so a file already holding the same data is never
 * rewritten). An object left empty by a removal deletes the file only when
 * `created` (deja created the file, state.ts): a file the user had is never
 * deleted. `backup` false: the file as read is not the user's own text (it
 * holds deja's entries already), so no `.deja.bak` is made of it.
 */
export function saveJsonDoc(
  doc: JsonDoc,
  next: Record<string, unknown>,
  opts: { backup: boolean; created: boolean },
): FileAction {
  const backup = opts.backup;
  if (dataKey(doc.value) === dataKey(next)) {
    return doc.exists ? "unchanged" : "absent";
  }
  if (doc.exists && opts.created && Object.keys(next).length === 0) {
    // Nothing but deja's own entries was left: no backup of them is kept.
    rmSync(doc.real, { force: true });
    return "removed";
  }
  const text = renderChecked(doc.format, doc.text, doc.value, next);
  return writeAtomic(doc.real, (doc.bom ? BOM : "") + text, 0o600, backup, doc.path);
}

/**
 * Writes `text` to `path` atomically unless it already holds exactly that.
 * Creates missing directories (0700); keeps an existing file's mode; a new
 * file gets `mode` (0600). `backup` false: an existing file is deja's own (the
 * launcher, a file carrying deja's mark), so no `.deja.bak` is made of it.
 */
export function writeIfChanged(
  path: string,
  text: string,
  mode = 0o600,
  backup = true,
  dryRun = false,
): FileAction {
  const real = realTarget(path);
  const there = existsSync(real);
  if (there) {
    try {
      if (readTextSync(real, CONFIG_MAX) === text) return "unchanged";
    } catch { /* unreadable: rewrite it */ }
  }
  // A dry run says what the write would do, and writes nothing (`deja install --dry-run`).
  if (dryRun) return there ? "updated" : "created";
  return writeAtomic(real, text, mode, backup, path);
}

/**
 * Where deja keeps the backup of the config at `path` (as configured): `<path>.deja.bak`, beside
 * a symlink itself, not beside the file it links to (trial 136 F5: the copy, tokens and all, was
 * an untracked file in the user's dotfiles repository).
 */
export function backupPath(path: string): string {
  return `${path}.deja.bak`;
}

/**
 * The backup of the config at `path` there is: beside it (a link: beside the link), or beside a
 * link's target, where an older deja kept it; undefined when there is none.
 */
export function foundBackup(path: string): string | undefined {
  const real = realTarget(path);
  return [backupPath(path), backupPath(real)].find((b) => existsSync(b));
}

/**
 * Keeps one copy of a file's bytes as its backup ({@link backupPath}, 0600) before deja first
 * changes it. `path` is the file as configured (a symlink is copied through, the copy kept beside
 * the link).
 */
export function backupOnce(path: string): void {
  const real = realTarget(path);
  if (!existsSync(real) || foundBackup(path)) return;
  const bak = backupPath(path);
  copyFileSync(real, bak);
  chmodSync(bak, 0o600);
  keepOwner(bak, statSync(real));
}

/** Writes `text` at `path` (a link's target); `configured`, the path as configured, is backed up. */
function writeAtomic(
  path: string,
  text: string,
  newMode = 0o600,
  backup = true,
  configured = path,
): FileAction {
  const existed = existsSync(path);
  const was = existed ? statSync(path) : undefined;
  const mode = was ? was.mode & 0o7777 : newMode;
  if (existed && backup) backupOnce(configured);
  makeDirs(dirname(path));
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
    if (was && was.nlink > 1) {
      // A file with other hard links (a dotfiles checkout's) is written in place, so every
      // name keeps seeing it (trial 82: the rename split it from its other name for good); the
      // temp copy written whole first, and the backup, keep the text safe meanwhile.
      writeFileSync(path, text);
      rmSync(tmp, { force: true });
    } else {
      chmodSync(tmp, mode);
      keepOwner(tmp, was ?? statSync(dirname(path)));
      renameSync(tmp, path);
    }
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  if (!existed) noteCreated(path);
  return existed ? "updated" : "created";
}

/**
 * Removes `path` when it exists (at a symlink's target; the link stays), then
 * `dir` when it is a real, empty directory. A file deja replaced (`--force`)
 * comes back from its `.deja.bak` instead.
 */
export function removeFile(path: string, dir?: string): FileAction {
  const real = realTarget(path);
  if (!existsSync(real)) return "absent";
  const bak = foundBackup(path);
  if (bak) {
    // The file that was there before deja's, put back (trial 61: said "removed").
    renameSync(bak, real);
    return "restored";
  }
  rmSync(real, { force: true });
  if (dir) {
    try {
      if (lstatSync(dir).isDirectory()) rmdirSync(dir);
    } catch { /* not empty, or gone */ }
  }
  return "removed";
}

/**
 * Removes `dir` and then its parents while they are empty, stopping before
 * any of `stops` (the harness's own directories, the home directory). For
 * uninstall when the install state is gone, so that the directories install
 * made for deja's files do not stay behind empty.
 */
export function removeEmptyDirs(dir: string, stops: string[]): void {
  for (let d = dir; !stops.includes(d) && dirname(d) !== d; d = dirname(d)) {
    if (!existsSync(d)) continue; // already gone (a skill's own directory)
    try {
      if (!lstatSync(d).isDirectory()) return;
      rmdirSync(d);
    } catch {
      return; // not empty
    }
  }
}
