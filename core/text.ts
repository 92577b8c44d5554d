/**
 * Text helpers, one definition each: UTF-8 byte length and byte-bounded
 * clipping, one line of text, a counted noun, a path with the home directory
 * as `~`, a duration in the largest unit that reads well, a 32-bit string hash.
 *
 * @module
 */

import { sanitizeForTerminal } from "./terminal.ts";

const enc = new TextEncoder();

/**
 * The largest cap deja applies to one value, in characters (UTF-16 units):
 * an edit span or written content kept for `restore` (lib/prepare.ts
 * `MAX_SPAN`). No value needs more of a string than `cap(s, KEEP_CHARS)`.
 */
export const KEEP_CHARS = 1 << 20;

/**
 * FNV-1a (32-bit) of a string's UTF-16 units, as an unsigned integer: an
 * identity that is cheap to keep (a number in a `Set` costs no allocation,
 * where a string key costs one of its own).
 */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5 | 0; // signed: a small integer to the JIT, the same bits
  for (let k = 0; k < s.length; k++) {
    h ^= s.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// Made on first use: two decoders cost a cold command of the Bun binary 1-1.5 ms to make,
// and most commands decode nothing (issue 15).
let strictUtf8: TextDecoder | undefined;
let lossyUtf8: TextDecoder | undefined;

/**
 * Bytes read from a store as text, the one way every reader decodes them:
 * valid UTF-8 as is; otherwise each bad sequence becomes U+FFFD and the rest
 * is kept (`repaired` true), so a stray byte never loses the words around it.
 * A leading BOM is dropped either way.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; repaired: boolean } {
  try {
    strictUtf8 ??= new TextDecoder("utf-8", { fatal: true });
    return { text: strictUtf8.decode(bytes), repaired: false };
  } catch {
    lossyUtf8 ??= new TextDecoder("utf-8");
    return { text: lossyUtf8.decode(bytes), repaired: true };
  }
}

/** The detail of an `invalid_utf8` count: the record was kept, its bad bytes replaced. */
export const REPAIRED = "kept with replacement characters";

/** A byte count for people: `512 B`, `3.4 KiB`, `1.2 MiB`, `2.05 GiB`. */
export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1 << 30) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  return `${(n / (1 << 30)).toFixed(2)} GiB`;
}

/** The marker {@link cap} puts where `n` characters were cut. */
export function cutText(n: number): string {
  return `\n… [${n} characters cut] …\n`;
}

const CUT_MARK = /\n… \[(\d+) characters cut\] …\n/g;

/**
 * What the {@link cutText} markers in `text` stand for: `chars`, the
 * characters cut where they are (the index keeps long texts capped), and
 * `marks`, the characters of the markers themselves.
 */
export function cutsIn(text: string): { chars: number; marks: number } {
  let chars = 0;
  let marks = 0;
  for (const m of text.matchAll(CUT_MARK)) {
    chars += Number(m[1]);
    marks += m[0].length;
  }
  return { chars, marks };
}

const KEEP_HEAD = KEEP_CHARS - Math.floor(KEEP_CHARS * 0.25);
const SLACK = 4096;
const PRIOR_CUT = /\n… \[(\d+) characters cut\] …\n/y;

/**
 * Characters already cut from `text` by `cap(s, KEEP_CHARS)` (a long line read
 * in pieces keeps only that of each string, parsers/_json_stream.ts), less the
 * marker that replaced them; 0 for any other text. The marker is looked for
 * where that cap puts it, give or take a short prefix a parser or renderer
 * added (`write <path>` before written content).
 */
function priorCut(text: string): number {
  if (text.length <= KEEP_HEAD || text.length > KEEP_CHARS + SLACK) return 0;
  const at = text.indexOf("\n… [", KEEP_HEAD);
  if (at < 0 || at > KEEP_HEAD + SLACK) return 0;
  PRIOR_CUT.lastIndex = at;
  const m = PRIOR_CUT.exec(text);
  return m ? Number(m[1]) - m[0].length : 0;
}

/**
 * Caps `text` to `max` characters, keeping head and tail around a marker that
 * says how many characters were cut. A text cut before to
 * {@link KEEP_CHARS} counts those characters too, so capping it again gives
 * what capping the whole text would.
 */
export function cap(text: string, max: number, tailShare = 0.25): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * tailShare);
  const head = max - tail;
  const cut = text.length - head - tail + priorCut(text);
  return `${text.slice(0, head)}${cutText(cut)}${text.slice(text.length - tail)}`;
}

/**
 * Characters of `s` as a person counts them: code points, a pair of UTF-16 surrogates (an
 * emoji) one (trial 109 F6: 1001 emoji were said to be "2002 characters long"), as the MCP
 * tool's limits, a session id's bound and {@link oneLine} count them.
 */
export function characters(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * The index in `s` after `count` {@link characters} from index `from`, or its length when
 * fewer are left: `s.slice(from, end)` never ends inside a surrogate pair.
 */
export function charactersEnd(s: string, count: number, from = 0): number {
  let i = from;
  for (let k = 0; k < count && i < s.length; k++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
  }
  return i;
}

/**
 * `t` cut to at most `n` {@link characters}, the last of them an ellipsis; `t` itself when it
 * fits.
 */
function cutChars(t: string, n: number): string {
  if (t.length <= n) return t;
  const end = charactersEnd(t, n - 1);
  return charactersEnd(t, 1, end) < t.length ? beforeMarker(t.slice(0, end)).trimEnd() + "…" : t;
}

/** UTF-8 length of `s` in bytes. */
export function byteLength(s: string): number {
  return enc.encode(s).length;
}

/**
 * `s` cut to at most `max` UTF-8 bytes (an ellipsis included), never inside a
 * character. Returns `s` itself when it fits.
 */
export function clipBytes(s: string, max: number): string {
  if (byteLength(s) <= max) return s;
  if (max < 4) return "";
  let lo = 0;
  let hi = s.length;
  // Largest prefix (in UTF-16 units) whose bytes plus "…" (3 bytes) fit.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (byteLength(s.slice(0, mid)) + 3 <= max) lo = mid;
    else hi = mid - 1;
  }
  let cut = s.slice(0, lo);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return beforeMarker(cut).trimEnd() + "…";
}

/** A start of a redaction marker (`[redacted:<kind>]`) left open at the end of a cut. */
const OPEN_MARKER = /\[(?:r(?:e(?:d(?:a(?:c(?:t(?:e(?:d(?::[a-z0-9_]*)?)?)?)?)?)?)?)?)?$/;

/** `cut` ended before a redaction marker it would cut inside (`GitHub token [red`). */
function beforeMarker(cut: string): string {
  return cut.replace(OPEN_MARKER, "");
}

/** The first line of `text` holding anything but white space, trimmed; undefined when none. */
export function firstLineOf(text: string | null | undefined): string | undefined {
  return text?.split("\n").map((l) => l.trim()).find((l) => l !== "");
}

/**
 * One line of text, cut to `n` characters (code points: an emoji is one, as the MCP tool's
 * limits count them) with an ellipsis: escape sequences
 * and unsafe characters removed *first* (core/terminal.ts; a cut made before
 * would leave half a sequence such as `8;;http://…` to show), then white
 * space collapsed, then the cut (never inside a surrogate pair).
 * `marks` keeps the search snippet's match marks (`\x01`, `\x02`).
 */
export function oneLine(s: string, n: number, opts: { marks?: boolean } = {}): string {
  const keep = opts.marks ? s.replaceAll("\x01", "\ue0f1").replaceAll("\x02", "\ue0f2") : s;
  let t = sanitizeForTerminal(keep).replace(/\s+/g, " ").trim();
  if (opts.marks) t = t.replaceAll("\ue0f1", "\x01").replaceAll("\ue0f2", "\x02");
  return cutChars(t, n);
}

/**
 * A shell command of several lines as one line that runs the same: a line
 * ended by `\`, an operator (`&&`, `|`, `;`) or an opening word (`then`,
 * `do`, `{`) runs on into the next, other lines are joined by `; ` (before,
 * `export A=1\ncd app` read as `export A=1 cd app`, another command, trial
 * 10). Where a here-document, a comment or a line break inside quotes (a
 * `python -c` program, a commit message; trial 12) would make that a different
 * command, the lines are joined by ` ⏎ ` instead. Runs of white space read as one space.
 *
 * @example commandOneLine("export A=1\ncd app &&\n  make") === "export A=1; cd app && make"
 */
export function commandOneLine(command: string): string {
  const lines = command.split(/\r?\n/).map((l) => l.replace(/\s+/g, " ").trim()).filter(Boolean);
  if (lines.length < 2) return lines[0] ?? "";
  if (/<<|(?:^|\s)#/.test(command) || newlineQuoted(command)) return lines.join(" \u23ce ");
  let out = "";
  for (const line of lines) {
    if (!out) out = line;
    else if (out.endsWith("\\")) out = out.slice(0, -1).trimEnd() + " " + line;
    else if (/(?:&&|\|\||[|;&({]|\b(?:then|do|else|in))$/.test(out)) out += " " + line;
    else out += "; " + line;
  }
  return out;
}

/** Whether a line break of `command` falls inside quotes (a string, a `python -c` program). */
function newlineQuoted(command: string): boolean {
  let quote = "";
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = "";
    } else if (c === "\\") i++;
    else if (quote === '"') {
      if (c === '"') quote = "";
    } else if (c === "'" || c === '"') quote = c;
    if (c === "\n" && quote) return true;
  }
  return false;
}

/**
 * A command for a reader, as lines: one line when it has one or its lines join
 * into one that runs the same ({@link commandOneLine}), each cut at `width`;
 * else (a here-document, a comment) its own lines, at most `most` of them and
 * a count of the rest, so that what is shown can be read and pasted as it ran.
 */
export function commandLines(command: string, width: number, most = 8): string[] {
  const one = commandOneLine(command);
  if (!one.includes("\u23ce")) return [oneLine(one, width)];
  const lines = command.replace(/^\s*\n|\n\s*$/g, "").split(/\r?\n/);
  const shown = lines.slice(0, most).map((l) => {
    const t = sanitizeForTerminal(l).trimEnd();
    const end = charactersEnd(t, width - 1);
    return charactersEnd(t, 1, end) < t.length ? t.slice(0, end) + "\u2026" : t;
  });
  if (lines.length > most) shown.push(`\u2026 ${lines.length - most} more lines`);
  return shown;
}

/** `n` and the noun, plural (`many`, else the noun and `s`) when `n` is not 1: `3 sessions`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `path` with the home directory shown as `~`; `-` when there is none. */
export function tilde(path: string | null | undefined, home: string): string {
  if (!path) return "-";
  return home && (path === home || path.startsWith(home + "/"))
    ? "~" + path.slice(home.length)
    : path;
}

/** A duration for people, rounded in the largest unit that keeps it under 90 (48 for hours): `45 s`, `12 min`, `5 h`, `3 d`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} d`;
}
