/**
 * The one writer of human output (stdout and stderr, terminal or pipe): every
 * text a command prints passes {@link sanitizeForTerminal} (no escape
 * sequence, control, bidi or invisible character from history reaches the
 * terminal) and {@link neutralise} (no `<deja-recall>` tag, so `deja ctx`
 * output pasted into a prompt cannot close a frame). deja's own terminal
 * controls (colours, clearing the progress line) are written as markers that
 * carry a per-process random nonce, turned into escape sequences only after
 * the text is cleaned: history cannot forge one. `--json` output is written
 * raw through {@link writeJson} (JSON escapes controls itself).
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import { sanitizeForTerminal } from "../../core/terminal.ts";
import { neutralise } from "../../core/frame.ts";

const NONCE = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
const MARK = new RegExp(`\ue000${NONCE}([0-9;]*[A-Za-z]|cr)\ue001`, "g");
const RAW = Symbol("deja.rawOut");

/** A CSI control (`body` like `1;33m` or `2K`) that survives the human writer. */
export function csi(body: string): string {
  return `\ue000${NONCE}${body}\ue001`;
}

/** A carriage return that survives the human writer (progress lines on stderr). */
export const CR = `\ue000${NONCE}cr\ue001`;

/** `text` as the human writer prints it: cleaned, frame tags neutralised, deja's controls restored. */
export function toHuman(text: string): string {
  return neutralise(sanitizeForTerminal(text)).replace(
    MARK,
    (_m, body: string) => body === "cr" ? "\r" : `\x1b[${body}`,
  );
}

/**
 * `io` with both streams written through {@link toHuman}; `io` itself when it
 * already is one (wrapping twice would clean deja's own controls away).
 */
export function humanIO(io: IO): IO {
  if (RAW in io) return io;
  return {
    ...io,
    out: (t: string) => io.out(toHuman(t)),
    err: (t: string) => io.err(toHuman(t)),
    [RAW]: io.out,
  } as IO;
}

/** Writes JSON text to stdout unchanged (the caller has escaped what a terminal would act on). */
export function writeJson(io: IO, json: string): void {
  const raw = (io as IO & { [RAW]?: (t: string) => void })[RAW];
  (raw ?? io.out)(json);
}
