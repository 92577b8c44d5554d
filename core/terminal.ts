/**
 * Text made safe to print on a terminal or hand to a model: escape sequences
 * and the characters a terminal or a reader would act on instead of showing.
 * No dependencies (the hooks' fast path imports it through core/frame.ts).
 *
 * @module
 */

/**
 * Escape sequences: CSI, OSC (ended by BEL or ST), a character set chosen (`ESC ( B`, which
 * `tput sgr0` writes before `ESC [ m`; trial 47 found its `(B` left glued to the next word),
 * single-character ESC commands, C1 CSI and OSC.
 */
const SEQUENCES =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-~]|\x1b[@-Z\\-_]|\x9b[0-9;?]*[ -/]*[@-~]|\x9d[^\x07\x9c]*(?:\x07|\x9c)/g;

/** Whether text may hold an escape sequence (ESC, or a C1 CSI or OSC). */
// deno-lint-ignore no-control-regex
const SEQUENCE_START = /[\x1b\x9b\x9d]/;

/**
 * `text` without its terminal escape sequences (colours, cursor moves, titles): what a
 * terminal shows of a command's output, the words a person copies from it. The index keeps
 * tool output so (lib/prepare.ts; trial 45: PowerShell's `\x1b[31;1m` inside an error kept a
 * phrase copied from `deja show` from matching, and showed in snippets).
 */
export function stripEscapes(text: string): string {
  return SEQUENCE_START.test(text) ? text.replace(SEQUENCES, "") : text;
}

/**
 * Characters removed on their own: C0 controls but tab and newline (a lone
 * carriage return is handled before), ESC, DEL, C1 controls, bidi overrides,
 * embeddings, isolates and marks, invisible characters (soft hyphen,
 * zero-width space, word joiner and invisible operators, BOM, Mongolian vowel
 * separator) and the Unicode tag block.
 */
export const UNSAFE_CHARS =
  // deno-lint-ignore no-control-regex
  /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u00ad\u200b\u2060-\u2064\ufeff\u180e\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\udb40[\udc00-\udc7f]/g;

/**
 * Makes transcript text safe to print on a terminal: removes escape sequences
 * (CSI, OSC, and single-character ESC commands) and {@link UNSAFE_CHARS}; a
 * lone carriage return becomes a newline (`\r\n` stays: it shows as one line
 * break and keeps a CRLF file's bytes).
 *
 * @example sanitizeForTerminal("a\x1b]0;title\x07b\u202ec") === "abc"
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(SEQUENCES, "").replace(/\r(?!\n)/g, "\n").replace(UNSAFE_CHARS, "");
}

/** The C0 controls but tab and line breaks, and DEL. */
// deno-lint-ignore no-control-regex
const C0 = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * {@link sanitizeForTerminal}, where a control character between two words parts them (a
 * space): typed text read as words (an MCP query: `redis\u0000git` is two words, trial 16).
 */
export function sanitizeToWords(text: string): string {
  return sanitizeForTerminal(text.replace(SEQUENCES, "").replace(C0, " "));
}

/**
 * Typed text as a message names it: `'text'`, or JSON-quoted with its escapes written out
 * (`"n\u001b[31m"`) when it holds what the terminal writer would remove or act on, or a
 * line break, so the message names what was typed (trial 112 F10: `'n' cannot name a
 * remote` was said of `n\x1b[31m`).
 *
 * @example typedText("dev") === "'dev'"
 * @example typedText("n\x1b[31m") === '"n\\u001b[31m"'
 */
export function typedText(text: string): string {
  if (sanitizeForTerminal(text) === text && !/[\t\n\r]/.test(text)) return `'${text}'`;
  return JSON.stringify(text).replace(
    UNSAFE_CHARS,
    (c) => c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  );
}
