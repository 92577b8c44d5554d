/**
 * The error a command reports to a person: a message, an optional `hint:` line
 * when the fix is known, and the exit code (2 unless said otherwise).
 *
 * @module
 */

/**
 * An error a command reports with a hint; `json` holds fields its `--json`
 * error document carries besides `error`, `hint` and `exit` (e.g. restore's
 * `work_dir_unknown`).
 */
export class DejaError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode = 2,
    readonly json?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/**
 * Why a file could not be written, in words a person reads, from its error's code (trial 9:
 * "cannot write …: ENOENT"; trial 31: "…: EROFS"); the code itself when it has no words here.
 */
export function writeReason(e: unknown): string {
  const code = (e as { code?: string })?.code ?? (e as Error)?.message ?? String(e);
  return WRITE_REASONS[code] ?? code;
}

const WRITE_REASONS: Record<string, string> = {
  ENOENT: "its directory does not exist",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of its path is not a directory",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
};
