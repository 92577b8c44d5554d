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
