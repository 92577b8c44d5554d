/**
 * The sessions deja makes of a harness's prompt history (the prompts typed,
 * kept apart from the transcripts; parsers/_prompt_history.ts,
 * parsers/_cursor_prompts.ts) are named `prompt-history` or
 * `prompt-history-<part>`: no harness command reopens them, and `resume` says
 * so instead of printing a command that fails.
 *
 * @module
 */

const STEM = "prompt-history";

/** The id of a prompt-history session: `prompt-history`, or `prompt-history-<part>`. */
export function promptHistoryId(part?: string): string {
  return part ? `${STEM}-${part}` : STEM;
}

/** Whether `id` names a prompt-history session. */
export function isPromptHistoryId(id: string): boolean {
  return id === STEM || id.startsWith(`${STEM}-`);
}
