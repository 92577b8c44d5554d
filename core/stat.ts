/**
 * Stats the no-op index run makes of every store and watched directory
 * (lib/fresh/stamps.ts), in a module of its own so that run loads nothing else.
 * A path that does not exist is answered without an exception: most watched
 * directories of a machine are the harnesses it lacks, and a thrown stat costs a
 * Bun binary ~4 µs against ~1 (180 of them: 1.0 -> 0.25 ms, issue 18).
 *
 * @module
 */
import { statSync } from "node:fs";

/** True when `e` says a path does not exist (as opposed to: it could not be looked at). */
export function isMissing(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Epoch-ms mtime of `path`, -1 when it cannot be read. */
export function mtimeOf(path: string): number {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? Math.floor(st.mtimeMs) : -1;
  } catch {
    return -1;
  }
}

/**
 * `[size in bytes, mtime in ms]`, or `[0, 0]` for a missing file. Synchronous: the
 * no-op pass stats thousands of stores one after another, and an awaited stat costs
 * about three times a synchronous one (issue 18).
 */
export function stamp(path: string): [number, number] {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? [st.size, Math.floor(st.mtimeMs)] : [0, 0];
  } catch {
    return [0, 0];
  }
}
