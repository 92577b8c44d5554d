/**
 * File-system helpers for discovery: a bounded walk that follows links and
 * takes regular files only (never FIFOs, sockets or devices, where an `open`
 * could hang) and reports unreadable directories, links to nothing, and
 * special files where a store would be, instead of throwing or passing over
 * them in silence.
 *
 * @module
 */
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { type Stats, statSync } from "node:fs";
import { kindOf, NotRegularFileError, readBytes } from "./fsread.ts";
import type { ParseCtx } from "./model.ts";

/**
 * Where a file that exists but cannot be read is reported: a discovery's
 * `problem`, or {@link skipUnreadable} of the source that needed it.
 */
export type Unreadable = (path: string, error: Error) => void;

/**
 * An {@link Unreadable} that counts the file as a skip of `ctx`'s source:
 * `oversized` when it is over its cap, else `unreadable`, with the reason.
 */
export function skipUnreadable(ctx: Pick<ParseCtx, "skip">): Unreadable {
  return (path, e) =>
    ctx.skip(
      (e as { code?: string }).code === "EFBIG" ? "oversized" : "unreadable",
      path,
      e.message,
    );
}

/** Hands `e` to `report` unless it only says the file is not there (ENOENT, ENOTDIR). */
function reportUnlessMissing(path: string, e: unknown, report?: Unreadable): void {
  const code = (e as { code?: string }).code;
  if (code !== "ENOENT" && code !== "ENOTDIR") report?.(path, e as Error);
}

/**
 * A discovery problem as one line: `path: message`, the path once when the message names it.
 * Control characters a file name may hold (a newline) are written as escapes, so the line
 * stays one line.
 */
export function problemLine(path: string, e: Error): string {
  const line = e.message.startsWith(path) ? e.message : `${path}: ${e.message}`;
  return withPermissionHint(escapeControls(line), (e as { code?: string }).code);
}

/** `text` with its control characters written as escapes (`\n`, `\t`, `\x1b`). */
export function escapeControls(text: string): string {
  return text.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x1f\x7f]/g,
    (c) =>
      c === "\n"
        ? "\\n"
        : c === "\t"
        ? "\\t"
        : c === "\r"
        ? "\\r"
        : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

/**
 * Reported for a directory entry whose name is not valid UTF-8: the listing gives it with
 * U+FFFD in place of the bytes that are not, and no file has that name, so it cannot be
 * opened (the runtime's file API takes names as text). Renamed, it is read.
 */
export class UnreadableNameError extends Error {
  /** Node-style error code. */
  readonly code = "EBADNAME";
  constructor(readonly path: string) {
    super(
      `${path}: its name is not valid UTF-8 (shown with \uFFFD), so deja cannot open it: rename it to read it`,
    );
  }
}

/** True when `name`, from a listing of `path`'s directory, lost bytes that are not UTF-8. */
async function lostName(path: string, name: string): Promise<boolean> {
  if (!name.includes("\uFFFD")) return false;
  try {
    await lstat(path);
    return false; // a name that holds U+FFFD itself
  } catch (e) {
    return (e as { code?: string }).code === "ENOENT";
  }
}

/**
 * `line` with a hint when it says permission was denied (by `code`, or by the
 * message alone when the error reached here as text): the fix is the user's
 * (the store is there, deja keeps what it indexed).
 */
export function withPermissionHint(line: string, code?: string): string {
  const denied = code === "EACCES" || code === "EPERM" ||
    (code === undefined && isPermissionDenied(line));
  return denied && !line.includes(HINT) ? `${line} (${HINT})` : line;
}

/**
 * True when an error's text says permission was denied (EACCES, EPERM): the
 * store or folder is there but the user running deja may not read it. Such a
 * store counts as unreadable, not as failed (`deja sources`, `deja doctor`).
 */
export function isPermissionDenied(line: string): boolean {
  return /\b(EACCES|EPERM)\b|permission denied/i.test(line);
}

/**
 * True when a discovery problem is information, not a failure: a link to
 * nothing or a FIFO, socket or device where a store would be. No store is
 * there to read (`deja sources --verbose` lists it under "not read");
 * a folder that cannot be opened is a failure (stores may be in it).
 */
export function isNotAStore(e: Error): boolean {
  const code = (e as { code?: string }).code;
  return code === "EBROKENLINK" || code === "ENOTREG" || code === "ELINKUP";
}

const HINT = "deja cannot read it: check its permissions for the user running deja";

/** A FIFO, socket or device (what `open` may block on or read without end). */
function isSpecial(st: Stats): boolean {
  return st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice();
}

/** Options for {@link walk}. */
export interface WalkOptions {
  /** Keeps a file when this returns true (given its absolute path and name). */
  match(path: string, name: string): boolean;
  /** How many directory levels below the root to descend (root = 0). Default 8. */
  maxDepth?: number;
  /** Directory names never entered. */
  skipDirs?: ReadonlySet<string>;
  /**
   * Called for a directory that could not be read (EACCES and the like), for
   * a matching name that is a FIFO, socket, device or directory (or a link to one), with
   * a {@link NotRegularFileError} (a directory is entered still), and for a link to nothing (a
   * {@link BrokenLinkError}; whatever its name, since its target may have been
   * a folder of stores): none is opened nor yielded.
   */
  onError?(path: string, error: Error): void;
  /**
   * The root is only a place a store may be (another harness's project folder), not one deja
   * was told of: when a folder above it may not be opened (the root's own `stat` is refused),
   * it yields nothing and nothing is reported (trial 127 F7: Crush's unreadable projects folder
   * gave four permission errors under senpi, which only looked for its folder in each).
   */
  probe?: boolean;
}

/** Reported for a link to a folder that holds the walk's root (`/`, a home): not followed. */
export class LinkUpError extends Error {
  /** Node-style error code. */
  readonly code = "ELINKUP";
  constructor(readonly path: string, target: string) {
    super(
      `${path} is a link to ${target}, a folder that holds the stores' root: not followed (it would read far more than the stores)`,
    );
  }
}

/** Thrown or reported for a symbolic link whose target does not exist (or loops). */
export class BrokenLinkError extends Error {
  /** Node-style error code. */
  readonly code = "EBROKENLINK";
  constructor(readonly path: string) {
    super(`${path} is a link to nothing (its target is missing or loops)`);
  }
}

/**
 * Yields the absolute paths of matching regular files under `root`, in sorted
 * order per directory. A missing root yields nothing. Symbolic links are
 * followed, to files and to directories alike (dotfiles repos, a store moved
 * to another disk); each real directory is entered once, so a link back up
 * the tree is no loop, and a file is only ever yielded when its target is a
 * regular file.
 */
export async function* walk(root: string, opts: WalkOptions): AsyncGenerator<string> {
  const maxDepth = opts.maxDepth ?? 8;
  const entered = new Set<string>();
  const rootReal = await realpath(root).catch(() => root);
  /**
   * The real path of the link `p` when it is a folder above the root, else null (a link to
   * the root itself is a loop, passed over as any folder entered before).
   */
  const holdsRoot = async (p: string): Promise<string | null> => {
    const real = await realpath(p).catch(() => null);
    if (real === null || real === rootReal) return null;
    return rootReal.startsWith(real.endsWith(sep) ? real : real + sep) ? real : null;
  };
  async function* visit(dir: string, depth: number): AsyncGenerator<string> {
    const real = await realpath(dir).catch(() => dir);
    if (entered.has(real)) return;
    entered.add(real);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return;
      if (depth === 0 && opts.probe && (await statOrNull(dir)) === undefined) return;
      opts.onError?.(dir, e as Error);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const p = join(dir, ent.name);
      if (await lostName(p, ent.name)) {
        // A folder may hold stores; a file is told of when its name would be read.
        const entered = ent.isDirectory() && depth < maxDepth && !opts.skipDirs?.has(ent.name);
        if (entered || opts.match(p, ent.name)) opts.onError?.(p, new UnreadableNameError(p));
        continue;
      }
      const kind = ent.isSymbolicLink() || (!ent.isDirectory() && !ent.isFile())
        ? await kindAt(p)
        : ent.isDirectory()
        ? "dir"
        : "file";
      if (kind === "dir") {
        // A folder named as a store is (a `<uuid>.jsonl/`) is told of as a FIFO is, and still
        // entered (trial 122 F5: it was passed over without a word).
        if (opts.match(p, ent.name)) opts.onError?.(p, new NotRegularFileError(p, "directory"));
        if (depth >= maxDepth || opts.skipDirs?.has(ent.name)) continue;
        // A link to a folder that holds the root (`/`, a home) is no folder of stores: it would
        // walk the machine (trial 29: a link to `/` in a Claude project indexed 70,115 files).
        const up = ent.isSymbolicLink() ? await holdsRoot(p) : null;
        if (up !== null) opts.onError?.(p, new LinkUpError(p, up));
        else yield* visit(p, depth + 1);
      } else if (kind === "broken") {
        // A link to nothing may have been a folder of stores (its target moved away): a name
        // that does not match is reported too, unless it names a folder never entered.
        const skipped = opts.skipDirs?.has(ent.name) || depth >= maxDepth;
        if (opts.match(p, ent.name) || !skipped) opts.onError?.(p, new BrokenLinkError(p));
      } else if (!opts.match(p, ent.name)) continue;
      else if (kind === "file") yield p;
      else opts.onError?.(p, new NotRegularFileError(p, kind.special));
    }
  }
  yield* visit(root, 0);
}

/** What is at `path` once links are followed: a file, a directory, a special file, or nothing. */
async function kindAt(path: string): Promise<"file" | "dir" | "broken" | { special: string }> {
  const st = await statOrNull(path);
  if (!st) return "broken";
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "dir";
  return { special: kindOf(st) };
}

/**
 * The names of the directories in `dir` (links to directories included),
 * sorted; none when `dir` is missing. A `dir` that exists but cannot be read
 * is handed to `onError` when given.
 */
export async function subdirs(dir: string, onError?: Unreadable): Promise<string[]> {
  let ents;
  try {
    ents = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    reportUnlessMissing(dir, e, onError);
    return [];
  }
  const out: string[] = [];
  for (const e of ents) {
    if (e.isDirectory() && await lostName(join(dir, e.name), e.name)) {
      onError?.(join(dir, e.name), new UnreadableNameError(join(dir, e.name)));
      continue;
    }
    if (e.isDirectory() || (e.isSymbolicLink() && (await isDir(join(dir, e.name))))) {
      out.push(e.name);
    }
  }
  return out.sort();
}

/** Collects {@link walk} into an array. */
export async function listFiles(root: string, opts: WalkOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const p of walk(root, opts)) out.push(p);
  return out;
}

/** `stat` that returns undefined instead of throwing. */
export async function statOrNull(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/**
 * True when `path` is a regular file or a link to one. When it is a FIFO,
 * socket or device instead (or a link to one), or a link to nothing, and
 * `report` is given, that is reported with a {@link NotRegularFileError} or a
 * {@link BrokenLinkError} (pass a discovery's `problem`).
 */
export async function isRegularFile(path: string, report?: Unreadable): Promise<boolean> {
  if (await statRegular(path, report)) return true;
  if (report && !(await statOrNull(path)) && (await lstatOrNull(path))?.isSymbolicLink()) {
    report(path, new BrokenLinkError(path));
  }
  return false;
}

/**
 * Hands `report` the error `stat` meets on `path` unless it says the path is not there, and
 * returns true then: a place deja was told a store is (a root, a registry's entry) whose folder
 * it may not open is named, not taken for absent (trial 127 F6: aider's history in an
 * unreadable folder was "up to date"). Not for places only probed (a known project's folder):
 * what deja cannot tell there is no store it failed to read.
 */
export async function reportUnstatable(path: string, report?: Unreadable): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    report?.(path, e as Error);
    return true;
  }
}

async function lstatOrNull(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

/**
 * `stat` of `path` (links followed) when it is a regular file, else undefined;
 * a FIFO, socket or device there is handed to `report` when given (pass a
 * discovery's `problem`), with a {@link NotRegularFileError}.
 */
export async function statRegular(path: string, report?: Unreadable): Promise<Stats | undefined> {
  const st = await statOrNull(path);
  if (st?.isFile()) return st;
  if (st && report && isSpecial(st)) report(path, new NotRegularFileError(path, kindOf(st)));
  return undefined;
}

/** True when `path` is a directory. */
export async function isDir(path: string): Promise<boolean> {
  return (await statOrNull(path))?.isDirectory() ?? false;
}

/** True when `path` is a directory (synchronous; for commands, not for parsers). */
export function isDirSync(path: string | null): path is string {
  try {
    return path !== null && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Reads a whole small file as UTF-8 text, refusing anything over `maxBytes`
 * (default 64 MiB, counted as read, not as `stat` says) so a huge document
 * cannot exhaust memory, and anything but a regular file (core/fsread.ts).
 *
 * @throws Error with `code` `"EFBIG"` when the file is larger than `maxBytes`;
 *   `NotRegularFileError` (`ENOTREG`) for a FIFO, device or socket.
 */
export async function readText(path: string, maxBytes = 64 << 20): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBytes(path, maxBytes));
}

/**
 * Reads and parses a small JSON file; undefined when missing or invalid. A
 * file that exists but cannot be read (a FIFO or device, EACCES, over
 * `maxBytes`) is also undefined, and is handed to `report` when given.
 */
export async function readJsonFile(
  path: string,
  maxBytes = 8 << 20,
  report?: Unreadable,
): Promise<unknown> {
  let text: string;
  try {
    text = await readText(path, maxBytes);
  } catch (e) {
    reportUnlessMissing(path, e, report);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * {@link readText}, or undefined when the file cannot be read: a missing file
 * silently, anything else (a FIFO or device, EACCES, over `maxBytes`) handed
 * to `report` when given. For companion files a source can do without.
 */
export async function readTextOrNone(
  path: string,
  maxBytes: number,
  report?: Unreadable,
): Promise<string | undefined> {
  try {
    return await readText(path, maxBytes);
  } catch (e) {
    reportUnlessMissing(path, e, report);
    return undefined;
  }
}
