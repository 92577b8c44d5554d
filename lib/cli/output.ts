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
import { sanitizeForTerminal, UNSAFE_CHARS } from "../../core/terminal.ts";
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

/** Writes `value` as pretty JSON on stdout (the one `--json` helper). */
export function printJson(io: IO, value: unknown): void {
  // A command that freshened the index first says how fresh its answer is.
  if (io.freshness && value && typeof value === "object" && !Array.isArray(value)) {
    value = { ...value, freshness: io.freshness };
  }
  writeJson(io, safeJson(JSON.stringify(value, null, 2)) + "\n");
}

/**
 * JSON already escapes C0 controls; what else a terminal or a reader would act on (C1, DEL,
 * bidi and invisible characters) is escaped too: the same value once parsed, and written
 * raw, past the human writer (lib/cli/output.ts), so the JSON stays exact.
 */
export function safeJson(json: string): string {
  return json.replace(
    UNSAFE_CHARS,
    (c) => c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  );
}

/**
 * Colour helpers: no-ops unless stdout is a terminal and NO_COLOR is unset.
 * They write deja's own markers (lib/cli/output.ts), which the human writer
 * turns into escape sequences after cleaning the text.
 */
export function colors(io: Pick<IO, "isTTY" | "env">) {
  const on = io.isTTY && io.env.get("NO_COLOR") === undefined && io.env.get("TERM") !== "dumb";
  const wrap = (code: string) => (s: string) => (on ? `${csi(`${code}m`)}${s}${csi("0m")}` : s);
  return {
    on,
    bold: wrap("1"),
    dim: wrap("2"),
    red: wrap("31"),
    green: wrap("32"),
    yellow: wrap("33"),
    cyan: wrap("36"),
    /** Turns the \x01...\x02 match marks of a snippet into highlight (or plain text). */
    marks(s: string): string {
      return on
        ? s.replaceAll("\x01", csi("1;33m")).replaceAll("\x02", csi("0m"))
        : s.replaceAll("\x01", "").replaceAll("\x02", "");
    },
  };
}
