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
 * How a run ended when its harness says it did not end by itself: `timed out after 2m 0.0s`
 * (the harness stopped it), `in background` (it went on after the result); null otherwise.
 * Read in the first 2 KB of its output (trial 14: a timeout read only `failed`, a background
 * run `exit unknown`).
 */
export function runEnd(output: string | null | undefined): string | null {
  if (!output) return null;
  const head = output.slice(0, 2048);
  const t = TIMED_OUT.exec(head);
  if (t) return `timed out after ${t[1]}`;
  const late = TIMEOUT_BACKGROUND.exec(head);
  if (late) return `in background after its ${late[1]} timeout`;
  return BACKGROUND.test(head) ? "in background" : null;
}
