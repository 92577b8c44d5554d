/**
 * File-system helpers for discovery: a bounded walk that takes regular files
 * only (never FIFOs, sockets or links, where an `open` could hang) and reports
 * unreadable directories instead of throwing.
 *
 * @module
 */
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Stats } from "node:fs";
import { readBytes } from "./fsread.ts";

/** Options for {@link walk}. */
export interface WalkOptions {
  /** Keeps a file when this returns true (given its absolute path and name). */
  match(path: string, name: string): boolean;
  /** How many directory levels below the root to descend (root = 0). Default 8. */
  maxDepth?: number;
  /** Directory names never entered. */
  skipDirs?: ReadonlySet<string>;
  /** Called for a directory that could not be read (EACCES and the like). */
  onError?(path: string, error: Error): void;
  /**
   * Also enters links to directories (never links to files). Each real
   * directory is entered once, so a link back up the tree is not a loop.
   */
  followDirLinks?: boolean;
}

/**
 * Yields the absolute paths of matching regular files under `root`, in sorted
 * order per directory. A missing root yields nothing.
 */
export async function* walk(root: string, opts: WalkOptions): AsyncGenerator<string> {
  const maxDepth = opts.maxDepth ?? 8;
  const entered = new Set<string>();
  async function* visit(dir: string, depth: number): AsyncGenerator<string> {
    if (opts.followDirLinks) {
      const real = await realpath(dir).catch(() => dir);
      if (entered.has(real)) return;
      entered.add(real);
    }
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") opts.onError?.(dir, e as Error);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const p = join(dir, ent.name);
      const dirLink = opts.followDirLinks && ent.isSymbolicLink() &&
        ((await statOrNull(p))?.isDirectory() ?? false);
      if (ent.isDirectory() || dirLink) {
        if (depth < maxDepth && !opts.skipDirs?.has(ent.name)) yield* visit(p, depth + 1);
      } else if (ent.isFile() && opts.match(p, ent.name)) {
        yield p;
      }
    }
  }
  yield* visit(root, 0);
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

/** True when `path` is a regular file (not a link to one). */
export async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/** True when `path` is a directory. */
export async function isDir(path: string): Promise<boolean> {
  return (await statOrNull(path))?.isDirectory() ?? false;
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

/** Reads and parses a small JSON file; undefined when missing or invalid. */
export async function readJsonFile(path: string, maxBytes = 8 << 20): Promise<unknown> {
  try {
    return JSON.parse(await readText(path, maxBytes));
  } catch {
    return undefined;
  }
}
