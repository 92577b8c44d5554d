/**
 * Standard output and error through file descriptors, without the
 * `process.stdout`/`process.stderr` stream objects: setting those up costs a
 * `bun build --compile` binary about 10 ms of CPU at start (measured: a binary
 * printing one line with `fs.writeSync` starts in half the CPU time of one
 * using `process.stdout.write`), which every command paid before issue 18.
 *
 * @module
 */
import process from "node:process";
import { readlinkSync, writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Descriptors whose reader went away (EPIPE): nothing written there is read any more. */
const gone = new Set<number>();

/** True when a write to `fd` found its reader gone (`deja show … | head`): a command may stop. */
export function readerGone(fd: number): boolean {
  return gone.has(fd);
}

/** Descriptors a write failed on for another reason than a reader gone, with the error's code. */
const lost = new Map<number, string>();

/**
 * The error code of the last write to `fd` that failed for another reason than a reader
 * gone (`ENOSPC`: a full disk, `EIO`), or undefined: what was written is incomplete.
 */
export function writeLost(fd: number): string | undefined {
  return lost.get(fd);
}

/**
 * Writes all of `text` to file descriptor `fd`, synchronously. A pipe whose
 * reader went away (EPIPE) or any other error ends it quietly (a closed pipe is
 * not an error; another error is kept for {@link writeLost}); a full non-blocking pipe (EAGAIN) is waited on, 1 ms at a
 * time, for up to `waitMs` milliseconds in all.
 */
export function writeAll(fd: number, text: string | Uint8Array, waitMs = 30_000): void {
  const buf = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let at = 0;
  let waited = 0;
  while (at < buf.length) {
    try {
      at += writeSync(fd, buf, at, buf.length - at);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "EPIPE") gone.add(fd);
      else if (code !== "EAGAIN" || waited >= waitMs) lost.set(fd, code ?? String(e));
      if (code !== "EAGAIN" || waited++ >= waitMs) return;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * True when `fd` (1 or 2) is a terminal. On Linux the descriptor's target is
 * read from /proc (a pseudo-terminal `/dev/pts/N`, a console `/dev/ttyN`,
 * `/dev/console`), which costs no stream set-up; elsewhere, or without /proc,
 * the process stream's `isTTY` answers.
 */
export function isTerminal(fd: 1 | 2): boolean {
  if (process.platform === "linux") {
    try {
      const to = readlinkSync(`/proc/self/fd/${fd}`);
      return /^\/dev\/(pts\/\d+|tty[A-Za-z]*\d*|console)$/.test(to);
    } catch { /* no /proc: ask the stream */ }
  }
  return Boolean((fd === 1 ? process.stdout : process.stderr).isTTY);
}
