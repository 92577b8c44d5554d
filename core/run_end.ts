/**
 * How a shell run ended when its harness says it did not end by itself, read from its
 * output: the parsers (a run that went to the background has no exit status of its own,
 * parsers/_message_blocks.ts) and the commands that tell a run's outcome
 * (lib/memory/outcome.ts) read it alike.
 *
 * @module
 */

/**
 * A run the harness stopped at its time limit: Claude Code's Bash result says `Command timed
 * out after 2m 0.0s` (after an `Exit code 143` line in 2.1.332, verified in the farm; on its
 * own in earlier results).
 */
const TIMED_OUT = /^(?:Error: )?Command timed out after (\S[^\n]{0,39}?)\s*$/m;
/**
 * A run the harness moved to the background, as Claude Code 2.1.332 words it (read in its
 * bundled source): `Command running in background with ID: bash_1.`, `Command was manually
 * backgrounded by user with ID: …`, `Command was moved to the background (ID: …) …`.
 */
const BACKGROUND =
  /^Command (?:running in background|was manually backgrounded|was moved to the background)\b/m;
/** Moved there at its time limit: `Command did not complete within its 2s timeout and was moved to the background`. */
const TIMEOUT_BACKGROUND =
  /^Command did not complete within its (\S{1,12}) timeout and was moved to the background\b/m;

/**
 * A run the person stopped while it ran, as Claude Code 2.1.332 records it (read in its
 * bundled source): the call's result is `[Request interrupted by user for tool use]` (an error
 * result; its `toolUseResult.interrupted` is true, else the call never ran:
 * parsers/_message_blocks.ts), or the Bash tool's output so far ends `<error>Command was
 * aborted before completion</error>` (the run aborted: the person interrupted the turn).
 */
const INTERRUPTED = /^\[Request interrupted by user for tool use\]/;
const ABORTED = /<error>Command was aborted before completion<\/error>\s*$/;

/**
 * True when a run's output ends as a run stopped while it ran: {@link stoppedEnd}, or Crush's
 * bash tool's own last line `Command was aborted before completion` (realdata crush
 * dc3d92ac, trial 50), which outcome.ts reads by the output before it.
 */
export function stoppedRun(output: string | null | undefined): boolean {
  return stoppedEnd(runEnd(output)) ||
    /(?:^|\n)Command was aborted before completion\s*$/.test(output?.slice(-200) ?? "");
}

/** True when {@link runEnd} says the run was stopped before its end (it neither passed nor failed). */
export function stoppedEnd(end: string | null): boolean {
  return end === INTERRUPTED_END || end === ABORTED_END;
}

const INTERRUPTED_END = "interrupted by the user";
const ABORTED_END = "aborted before completion";

/**
 * How a run ended when its harness says it did not end by itself: `timed out after 2m 0.0s`
 * (the harness stopped it), `in background` (it went on after the result), `interrupted by the
 * user` or `aborted before completion` (stopped while it ran); null otherwise. Read in the
 * first 2 KB of its output, and its last line (trial 14: a timeout read only `failed`, a
 * background run `exit unknown`; trial 32: a stopped run read `failed`).
 */
export function runEnd(output: string | null | undefined): string | null {
  if (!output) return null;
  const head = output.slice(0, 2048);
  if (INTERRUPTED.test(head)) return INTERRUPTED_END;
  if (ABORTED.test(output.slice(-200))) return ABORTED_END;
  const t = TIMED_OUT.exec(head);
  if (t) return `timed out after ${t[1]}`;
  const late = TIMEOUT_BACKGROUND.exec(head);
  if (late) return `in background after its ${late[1]} timeout`;
  return BACKGROUND.test(head) ? "in background" : null;
}
