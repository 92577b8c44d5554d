/**
 * The sessions deja makes of a harness's prompt history (the prompts typed,
 * kept apart from the transcripts; parsers/_prompt_history.ts,
 * parsers/_cursor_prompts.ts) are named `prompt-history` or
 * `prompt-history-<part>`: no harness command reopens them, and `resume` says
 * so instead of printing a command that fails. Its short reference is the stem
 * and the first 8 characters of the part (`prompt-history-0123abcd`,
 * {@link promptHistoryShortLengths}), not the first 8 of the id (`prompt-h`,
 * which names nothing).
 *
 * @module
 */

const STEM = "prompt-history";

/**
 * How far apart (ms) a prompt-history entry's time and a transcript's user
 * event may be and still be the same prompt (`Session.prompts`): a history
 * records the second it was typed (Codex `ts` in seconds), the transcript when
 * it wrote the message.
 */
export const PROMPT_MATCH_MS = 5_000;

/** The id of a prompt-history session: `prompt-history`, or `prompt-history-<part>`. */
export function promptHistoryId(part?: string): string {
  return part ? `${STEM}-${part}` : STEM;
}

/** Whether `id` names a prompt-history session. */
export function isPromptHistoryId(id: string): boolean {
  return id === STEM || id.startsWith(`${STEM}-`);
}

/** Characters of a prompt-history id's part its shortest reference keeps. */
export const SHORT_PART = 8;

/**
 * The prefix lengths a short reference of prompt-history id `id` tries, shortest first: the
 * stem with 8, 12 or 16 characters of its part, then the whole id; undefined when `id` names
 * no prompt-history session.
 */
export function promptHistoryShortLengths(id: string): number[] | undefined {
  if (!isPromptHistoryId(id)) return undefined;
  const stem = STEM.length + 1;
  return [stem + SHORT_PART, stem + 12, stem + 16].filter((n) => n < id.length).concat(id.length);
}
