/**
 * A harness's hook event, read from stdin: size- and time-capped, and ended as
 * soon as a complete JSON value has arrived (Codex and others keep stdin open
 * after writing their event). Anything that is not one JSON object is no
 * event at all.
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";

/**
 * Most bytes of stdin read (a PostToolUse event carries the tool's output: trial 39's test
 * log of 2.1 MB, its error at the end, went unanswered at 2 MiB, and a larger one's writer
 * met a closed pipe). The fix note reads a long failure's start and end (lib/hooks/point.ts).
 */
export const STDIN_MAX = 16 * 1024 * 1024;
/**
 * Longest wait for the event, in milliseconds: also for its first byte (trial 38: an event
 * written 0.5 s after the hook started, as a loaded machine may, went unanswered when the
 * wait was 0.5 s and silence ended it after 0.2 s). A harness that keeps stdin open and
 * never writes costs this much; every harness deja wires writes at once, or closes stdin.
 */
export const STDIN_WAIT_MS = 1500;
/**
 * Reading ends once nothing more has come for this long after the first bytes, in
 * milliseconds (a harness writes its event at once).
 */
export const STDIN_IDLE_MS = 200;

/** A decoded event: the JSON object the harness sent. */
export type HookEvent = Record<string, unknown>;

/**
 * True when `text` holds a complete JSON object or array (strings and escapes
 * respected), or when it cannot become one (its first non-blank character
 * opens no object or array): either way, reading more would not help.
 */
export function jsonDone(text: string): boolean {
  return jsonScanner()(text);
}

/**
 * {@link jsonDone} for a text that arrives in pieces: each call is given the next piece only
 * (never the text so far) and answers for all the pieces given (trial 39: scanned from the
 * start at every 64 KiB read, a 5.7 MB event took the whole wait; trial 109 F7: given the
 * text so far, each scan copied the whole of it, and a 14 MB event at load ~10 was not read
 * within the wait).
 */
export function jsonScanner(): (piece: string) => boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  return (piece) => {
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (!started) {
        // Blanks and a byte order mark before the value.
        if (c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff) continue;
        if (c !== 123 && c !== 91) return true; // no `{` nor `[`: never an object
        started = true;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true; // `\`
        else if (c === 34) inString = false; // `"`
        continue;
      }
      if (c === 34) inString = true;
      else if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return true;
    }
    return false;
  };
}

/**
 * The first JSON value of `text` when it is an object (trailing bytes after it
 * are ignored), else undefined.
 */
export function parseEvent(text: string): HookEvent | undefined {
  const t = text.replace(/^\ufeff/, "").trim();
  if (!t.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    // Tolerate trailing junk: cut at the end of the first complete value.
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = 0; i < t.length && end < 0; i++) {
      const c = t[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if ((c === "}" || c === "]") && --depth === 0) end = i + 1;
    }
    if (end < 0) return undefined;
    try {
      value = JSON.parse(t.slice(0, end));
    } catch {
      return undefined;
    }
  }
  return value && typeof value === "object" && !Array.isArray(value)
    ? value as HookEvent
    : undefined;
}

/**
 * Reads and decodes the event on stdin; `event` is undefined for garbage, nothing, or a
 * timeout, and `unread` then says why when something came that was no event (for the hooks'
 * log, lib/hooks/log.ts: never the text itself, which may hold anything).
 */
export async function readEvent(io: IO): Promise<{ event?: HookEvent; unread?: string }> {
  const started = Date.now();
  const text = await io.readStdin(STDIN_MAX, STDIN_WAIT_MS, jsonScanner(), STDIN_IDLE_MS);
  const event = parseEvent(text);
  // Nothing at all is no give-up when stdin closed at once (a harness may run a hook so), but
  // one held open with nothing written for the whole wait is (trial 60: left no trace).
  if (!text.trim() && Date.now() - started >= STDIN_WAIT_MS) {
    return { unread: `no event arrived on stdin within ${STDIN_WAIT_MS} ms` };
  }
  if (event || !text.trim()) return { event };
  const size = new TextEncoder().encode(text).length;
  const bytes = `${size} bytes`;
  // Cut short by the size cap (a piece of an event is never read as one: trial 109 F7), by
  // stdin's end, or by the wait (trial 61: "waits 1500 ms" said of a stdin that ended 20 ms in).
  const waited = Date.now() - started >= STDIN_WAIT_MS;
  return {
    unread: jsonDone(text)
      ? `stdin held no JSON object (${bytes})`
      : size >= STDIN_MAX
      ? `the event on stdin is larger than the ${STDIN_MAX / 1024 / 1024} MiB deja reads`
      : waited
      ? `the event on stdin was not complete when reading stopped (${bytes}; a harness writes it at once, deja waits ${STDIN_WAIT_MS} ms for it)`
      // Its end and a pause are one to the reader (trial 62: "ended" said of a writer that
      // paused 0.5 s).
      : `stdin ended, or paused over ${STDIN_IDLE_MS} ms, before the event was complete (${bytes})`,
  };
}

/** A string field of an object, or undefined (empty strings count as absent). */
export function str(o: unknown, key: string): string | undefined {
  if (!o || typeof o !== "object") return undefined;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** An object field of an object (a JSON string holding an object is decoded), or undefined. */
export function objField(o: unknown, key: string): Record<string, unknown> | undefined {
  if (!o || typeof o !== "object") return undefined;
  let v = (o as Record<string, unknown>)[key];
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
}

/**
 * `p` without a trailing separator (`/w/app/` -> `/w/app`, `C:\app\` -> `C:\app`); a root
 * stays one (`/`, `C:\`). A harness may name its directory either way (trial 16).
 */
export function trimSeparators(p: string): string {
  return p.length > 1 ? p.replace(/(?<=[^\\/:])[\\/]+$/, "") : p;
}
