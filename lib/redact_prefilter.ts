/**
 * The redaction prefilter, made cheap: whether a text may hold a secret, i.e.
 * whether lib/redact_rules.ts `PREFILTER` matches it, answered by a character
 * loop that looks at each pair of adjacent characters and runs the expression
 * (sticky, at that one position) only where a pair can start one of its
 * alternatives.
 *
 * Why: `PREFILTER` is some ninety alternatives, most starting with a common
 * lower-case letter (`pass`, `key`, `has`, `mot`, `http`), so the regular
 * expression engine tries them at nearly every position: under Bun it cost
 * 10-16 ns a character, the largest single cost of a parse worker (28 MB of
 * event text in the 100 MB bench corpus: ~0.45 s). Pairs are rarer than
 * first letters: the loop runs at 4-6 ns a character on the same texts.
 *
 * The pair table is derived from `PREFILTER`'s own alternatives when this
 * module loads, so the list of spellings stays in one place; an alternative
 * whose first two parts the builder cannot read (a group, a one-character
 * alternative) throws here rather than being missed.
 *
 * @module
 */
import { PREFILTER } from "./redact_rules.ts";

/** `PREFILTER`, tried at one position (`lastIndex`) only. */
const STICKY = new RegExp(PREFILTER.source, "y");

/** ASCII pairs (first * 128 + second) that can start an alternative. */
const PAIRS = new Uint8Array(128 * 128);

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

/** The first two single-character parts of an alternative: a character, an escape or a class. */
function firstTwo(alt: string): [RegExp, RegExp] {
  const parts: RegExp[] = [];
  let i = 0;
  while (parts.length < 2) {
    const ch = alt[i];
    let part: string;
    if (ch === "\\") part = alt.slice(i, i + 2);
    else if (ch === "[") part = alt.slice(i, alt.indexOf("]", i) + 1);
    else if (ch !== undefined && !"()|?*+{.^$".includes(ch)) part = ch;
    else throw new Error(`redact prefilter: cannot read the start of '${alt}'`);
    parts.push(new RegExp(`^${part}$`));
    i += part.length;
  }
  return [parts[0], parts[1]];
}

/** Non-ASCII characters a second part is tried on: one of them matching means it may match any. */
const WIDE_SAMPLES = ["\u00a0", "\u00e9", "\u0416", "\u2028", "\u4e00", "\uffff"];

for (const alt of alternatives(PREFILTER.source)) {
  const [one, two] = firstTwo(alt);
  for (let a = 0; a < 128; a++) {
    if (!one.test(String.fromCharCode(a))) continue;
    // The loop takes an ASCII character then a non-ASCII one for no start: none may begin so.
    if (WIDE_SAMPLES.some((w) => two.test(w)) || [...two.source].some((c) => c > "\x7f")) {
      throw new Error(`redact prefilter: '${alt}' may start ASCII then not`);
    }
    for (let b = 0; b < 128; b++) {
      if (two.test(String.fromCharCode(b))) PAIRS[a * 128 + b] = 1;
    }
  }
  const first = alt[0] === "[" ? alt.slice(1, alt.indexOf("]")) : alt[0] === "\\" ? "" : alt[0];
  const wide = [...first].filter((c) => c.charCodeAt(0) >= 128);
  if (wide.length && /[\\^-]/.test(first)) {
    throw new Error(`redact prefilter: cannot read the start of '${alt}'`);
  }
  for (const c of wide) FIRST_WIDE.add(c.charCodeAt(0));
  if (WIDE_SAMPLES.some((w) => one.test(w) && !wide.includes(w))) {
    throw new Error(`redact prefilter: '${alt}' may start with any non-ASCII character`);
  }
}

/**
 * True when `text` matches lib/redact_rules.ts `PREFILTER` (the same answer,
 * faster): only then can a redaction rule match it.
 */
export function mayHoldSecret(text: string): boolean {
  const last = text.length - 1;
  let next = text.charCodeAt(0);
  for (let i = 0; i < last; i++) {
    const c = next;
    next = text.charCodeAt(i + 1);
    if (c < 128) {
      if (next >= 128 || PAIRS[(c << 7) | next] === 0) continue;
    } else if (!FIRST_WIDE.has(c)) continue;
    STICKY.lastIndex = i;
    if (STICKY.test(text)) return true;
  }
  return false;
}
