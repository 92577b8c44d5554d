/**
 * The one way deja reads a file it did not write: harness stores and their
 * companion files, a project's files, configs.
 *
 * - Only regular files are read (after following symlinks). The file is
 *   opened with `O_NONBLOCK` and checked with `fstat` on the open descriptor,
 *   so a FIFO never blocks the open (nor a read), and a link to `/dev/zero`,
 *   a socket or a device is refused before a byte is read.
 * - Every whole-file read is capped by the bytes actually read, never by the
 *   size `stat` reports (a device or a file growing under us reports less).
 *
 * A refused file throws {@link NotRegularFileError} (`code` `ENOTREG`); one
 * over its cap throws an Error with `code` `EFBIG`. Callers that count skips
 * report the first as `unreadable` with {@link NotRegularFileError.message}.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { ParseCtx } from "./model.ts";
import { decodeUtf8, REPAIRED } from "./text.ts";

/**
 * `node:fs/promises`' open, loaded on first use: loading that module costs a
 * Bun binary start-up time that a run reading no store (a no-op index) never uses.
 */
async function open(path: string, flags: number): Promise<FileHandle> {
  return (await import("node:fs/promises")).open(path, flags);
}

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Thrown for a path that is not a regular file (a FIFO, socket, device or directory). */
export class NotRegularFileError extends Error {
  /** Node-style error code. */
  readonly code = "ENOTREG";
  constructor(
    readonly path: string,
    /** What it is instead: `FIFO`, `socket`, `character device`, `block device`, `directory`. */
    readonly kind: string,
  ) {
    super(`${path} is a ${kind}, not a regular file`);
  }
}

/** What a non-regular file is, for messages (from a `stat` or a directory entry). */
export function kindOf(
  st: Pick<
    Stats,
    "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice" | "isDirectory"
  >,
): string {
  return st.isFIFO()
    ? "FIFO"
    : st.isSocket()
    ? "socket"
    : st.isCharacterDevice()
    ? "character device"
    : st.isBlockDevice()
    ? "block device"
    : st.isDirectory()
    ? "directory"
    : "special file";
}

function tooBig(path: string, maxBytes: number): Error {
  return Object.assign(new Error(`${path} is over the ${maxBytes}-byte cap`), { code: "EFBIG" });
}

/**
 * Opens `path` for reading when it is a regular file (symlinks followed).
 *
 * @throws {NotRegularFileError} for anything else; the file-system error when
 *   it cannot be opened (ENOENT, EACCES).
 */
export async function openRegular(path: string): Promise<FileHandle> {
  const fh = await open(path, FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotRegularFileError(path, kindOf(st));
  } catch (e) {
    await fh.close();
    throw e;
  }
  return fh;
}

/** {@link openRegular}, synchronously: a file descriptor the caller closes. */
export function openRegularSync(path: string): number {
  return openRegularSized(path).fd;
}

/** {@link openRegularSync}, with the file's size when it was opened (from the same fstat). */
export function openRegularSized(path: string): { fd: number; size: number } {
  const fd = openSync(path, FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(path, kindOf(st));
    return { fd, size: st.size };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

function joinChunks(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const CHUNK = 1 << 20;

/**
 * The bytes of the regular file `path`, at most `maxBytes` of them.
 *
 * @throws {NotRegularFileError} for a FIFO, device, socket or directory;
 *   an Error with `code` `EFBIG` when the file holds more than `maxBytes`;
 *   the file-system error when it cannot be opened.
 */
export async function readBytes(path: string, maxBytes: number): Promise<Uint8Array> {
  const fh = await openRegular(path);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const buf = new Uint8Array(Math.min(CHUNK, maxBytes + 1 - size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, size);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      size += bytesRead;
      if (size > maxBytes) throw tooBig(path, maxBytes);
    }
    return joinChunks(chunks, size);
  } finally {
    await fh.close();
  }
}

/** {@link readBytes}, synchronously (the hooks and the install paths). */
export function readBytesSync(path: string, maxBytes: number): Uint8Array {
  const fd = openRegularSync(path);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const buf = new Uint8Array(Math.min(CHUNK, maxBytes + 1 - size));
      const n = readSync(fd, buf, 0, buf.length, size);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      size += n;
      if (size > maxBytes) throw tooBig(path, maxBytes);
    }
    return joinChunks(chunks, size);
  } finally {
    closeSync(fd);
  }
}

/**
 * The regular file `path` as UTF-8 text (invalid bytes replaced), at most
 * `maxBytes` (default 8 MiB) of it; throws like {@link readBytesSync}.
 */
export function readTextSync(path: string, maxBytes = 8 << 20): string {
  return new TextDecoder().decode(readBytesSync(path, maxBytes));
}

/** The first `n` bytes of the regular file `path` (fewer when it is shorter). */
export function readHeadSync(path: string, n: number): Uint8Array {
  const fd = openRegularSync(path);
  try {
    const buf = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const got = readSync(fd, buf, at, n - at, at);
      if (got === 0) break;
      at += got;
    }
    return buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * The regular file `path` as text for a parser (at most `maxBytes`, default
 * 64 MiB; throws like {@link readBytes}): bytes that are not UTF-8 read as
 * U+FFFD (core/text.ts `decodeUtf8`), the file kept and counted once
 * `invalid_utf8` on `ctx` at `where`.
 */
export async function readStoreText(
  path: string,
  ctx: Pick<ParseCtx, "skip">,
  where = path,
  maxBytes = 64 << 20,
): Promise<string> {
  const { text, repaired } = decodeUtf8(await readBytes(path, maxBytes));
  if (repaired) ctx.skip("invalid_utf8", where, REPAIRED);
  return text;
}
