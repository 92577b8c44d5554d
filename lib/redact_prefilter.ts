/**
 * The redaction prefilter, made cheap: whether a text may hold a secret, i.e.
 * whether lib/redact_rules.ts `PREFILTER` matches it, answered by a character
 * loop that looks at each pair of adjacent characters (and, where the pair can
 * start one of its alternatives, the character after) and runs the expression
 * (sticky, at that one position) only where those three can start one.
 *
 * Why: `PREFILTER` is some ninety alternatives, most starting with a common
 * lower-case letter (`pass`, `key`, `has`, `mot`, `http`), so the regular
 * expression engine tries them at nearly every position: under Bun it cost
 * 10-16 ns a character, the largest single cost of a parse worker (28 MB of
 * event text in the 100 MB bench corpus: ~0.45 s). Pairs are rarer than
 * first letters: the loop runs at 4-6 ns a character on the same texts, and
 * tries the expression at 0.4 % of positions (3 % on pairs alone: `to`, `ba`).
 *
 * The pair table is derived from `PREFILTER`'s own alternatives on first use,
 * so the list of spellings stays in one place; an alternative whose first two
 * parts the builder cannot read (a group, a one-character alternative) throws
 * then rather than being missed (an unreadable third part lets any character
 * through).
 *
 * @module
 */
import { PREFILTER } from "./redact_rules.ts";

/** `PREFILTER`, tried at one position (`lastIndex`) only. */
const STICKY = new RegExp(PREFILTER.source, "y");

/** ASCII pairs (first * 128 + second) that can start an alternative. */
const PAIRS = new Uint8Array(128 * 128);

/**
 * For each pair of {@link PAIRS}, the ASCII characters that can follow it in an
 * alternative, as 128 bits (four words): most pairs that start one (`to`, `ba`)
 * start many common words, and the third character rules those out before the
 * expression is tried.
 */
const THIRDS = new Int32Array(128 * 128 * 4);

/** Non-ASCII characters that can start an alternative (then the expression is tried there). */
const FIRST_WIDE = new Set<number>();

/** The top-level alternatives of a regular expression's source. */
export function alternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = "";
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\") {
      cur += ch + src[++i];
      continue;
    }
    if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "|" && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * The leading single-character parts of an alternative (a character, an escape
 * or a class), at most `n`, up to the first part that is none of these (a group).
 */
function leadingParts(alt: string, n: number): RegExp[] {
  const parts: RegExp[] = [];
  let i = 0;
  while (parts.length < n && i < alt.length) {
    const ch = alt[i];
    let part: string;
    if (ch === "\\") part = alt.slice(i, i + 2);
    else if (ch === "[") part = alt.slice(i, alt.indexOf("]", i) + 1);
    else if (!"()|?*+{.^$".includes(ch)) part = ch;
    else break;
    // A part with a count after it (`a?`, `b{2}`) is not one character.
    if ("?*+{".includes(alt[i + part.length] ?? "")) break;
    parts.push(new RegExp(`^${part}$`));
    i += part.length;
  }
  return parts;
}

/** Non-ASCII characters a part is tried on: one of them matching means it may match any. */
const WIDE_SAMPLES = ["\u00a0", "\u00e9", "\u0416", "\u2028", "\u4e00", "\uffff"];

/** Every ASCII character: the third part of an alternative the builder cannot read. */
const ANY = /^[\s\S]$/;

let built = false;

/**
 * Fills the tables from `PREFILTER`'s alternatives, on first use: it costs
 * ~6 ms, which a command that never redacts (a query) should not pay at start.
 */
function build(): void {
  built = true;
  for (const alt of alternatives(PREFILTER.source)) {
    const [one, two, three = ANY] = leadingParts(alt, 3);
    for (let a = 0; a < 128; a++) {
      if (!one?.test(String.fromCharCode(a))) continue;
      // The loop takes an ASCII character then a non-ASCII one (or none) for no start: none may begin so.
      if (
        !two || WIDE_SAMPLES.some((w) => two.test(w)) || [...two.source].some((c) => c > "\x7f")
      ) {
        throw new Error(`redact prefilter: '${alt}' may start ASCII then not`);
      }
      for (let b = 0; b < 128; b++) {
        if (!two.test(String.fromCharCode(b))) continue;
        const pair = (a << 7) | b;
        PAIRS[pair] = 1;
        for (let c = 0; c < 128; c++) {
          if (three.test(String.fromCharCode(c))) THIRDS[(pair << 2) | (c >> 5)] |= 1 << (c & 31);
        }
      }
    }
    const first = alt[0] === "[" ? alt.slice(1, alt.indexOf("]")) : alt[0] === "\\" ? "" : alt[0];
    const wide = [...first].filter((c) => c.charCodeAt(0) >= 128);
    if (wide.length && /[\\^-]/.test(first)) {
      throw new Error(`redact prefilter: cannot read the start of '${alt}'`);
    }
    for (const c of wide) FIRST_WIDE.add(c.charCodeAt(0));
    if (!one || WIDE_SAMPLES.some((w) => one.test(w) && !wide.includes(w))) {
      throw new Error(`redact prefilter: '${alt}' may start with any non-ASCII character`);
    }
  }
}

/**
 * True when `text` matches lib/redact_rules.ts `PREFILTER` (the same answer,
 * faster): only then can a redaction rule match it.
 */
export function mayHoldSecret(text: string): boolean {
  if (!built) build();
  const last = text.length - 1;
  let next = text.charCodeAt(0);
  for (let i = 0; i < last; i++) {
    const c = next;
    next = text.charCodeAt(i + 1);
    if (c < 128) {
      if (next >= 128) continue;
      const pair = (c << 7) | next;
      if (PAIRS[pair] === 0) continue;
      // A third character outside ASCII, or none, is left to the expression.
      const third = i + 2 <= last ? text.charCodeAt(i + 2) : 128;
      if (third < 128 && (THIRDS[(pair << 2) | (third >> 5)] & (1 << (third & 31))) === 0) continue;
    } else if (!FIRST_WIDE.has(c)) continue;
    STICKY.lastIndex = i;
    if (STICKY.test(text)) return true;
  }
  return false;
}
