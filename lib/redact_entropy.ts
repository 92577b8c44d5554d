/**
 * High-entropy values: a random-looking run of base64 / base64url characters
 * that is the value of an assignment (`key = <run>`, `"key": "<run>"`, its quotes
 * JSON-escaped too: `value: \"<run>\"`; 20+ characters) or alone on its line (28+
 * characters), with no provider prefix to recognise it by; and, wherever they
 * stand, three random runs joined by dots in the shape of a Discord bot token
 * (kind `discord_token`).
 *
 * What survives (look-alikes): hex digests and UUIDs (hex only), integrity
 * hashes (`sha512-…`, Go's `h1:…`), paths (a run with `/`-separated words),
 * names made of words and numbers (a path part or file name like
 * `docs/978-0-13-468599-1/CleanArchitecture_Ch07`: two or more `/`, `-` or `_`
 * between parts that change between upper case, lower case and digits no more
 * than once in five characters, as words and numbers do and random text does
 * about every other character), request ids (the value of a `request_id`,
 * `requestId`, `x-request-id` or `request id`, or a run starting `req_`, as in
 * an API error's text), identifiers (no digits, or too few of each character class), base64 data (a
 * run over 128 characters, a line inside a block of such lines, or after
 * `base64,`), and anything under the entropy
 * floor (Shannon entropy of the run's characters below 3.6 bits each, 4.0 for
 * runs of 32 or more).
 *
 * @module
 */

const MAX_RUN = 128;

/**
 * Characters of a base64 / base64url run (letters, digits, + / = _ -), by UTF-16
 * code unit: a table of every unit, so the scan needs no range test (measured
 * under Bun: the two tight loops of {@link entropySpans} over it run ~1.7x
 * faster than one loop with a branch per character).
 */
const RUN = new Uint8Array(65536);
for (const c of "+/=_-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  RUN[c.charCodeAt(0)] = 1;
}

/** Shannon entropy of `s` in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    counts.set(s.charCodeAt(i), (counts.get(s.charCodeAt(i)) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** True when `run` looks like a random secret rather than a hash, path, identifier or data. */
export function looksRandom(run: string): boolean {
  const core = run.replace(/=+$/, "");
  if (core.length < 20 || core.length > MAX_RUN) return false;
  // Subresource-integrity and Go module sums are hashes, published with the code.
  if (/^(?:sha1|sha256|sha384|sha512)-/.test(core)) return false;
  if (/^[0-9a-f-]+$/i.test(core)) return false;
  if (/[a-z]{2,}\/[a-z]{2,}/i.test(core) && /\//.test(core)) return false;
  let digits = 0, upper = 0, lower = 0;
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 65 && c <= 90) upper++;
    else if (c >= 97 && c <= 122) lower++;
  }
  if (digits < 2 || upper < 2 || lower < 2) return false;
  if (core.startsWith("req_") || wordsAndNumbers(core)) return false;
  return entropy(core) >= (core.length >= 32 ? 4.0 : 3.6);
}

/** Upper case, lower case or digit (0 for any other character). */
function classOf(c: number): number {
  return c >= 48 && c <= 57 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 3 : 0;
}

/**
 * True when `run` reads as words and numbers joined by separators (a path part,
 * a dated or numbered file name): two or more `/`, `-` or `_`, and at most one
 * change of character class (upper, lower, digit) per five letters and digits.
 * A random run changes class at about every other character (with 26 upper,
 * 26 lower and 10 digits, the next character is of another class ~60% of the
 * time); `CleanArchitecture_Ch07` changes five times in 19.
 */
function wordsAndNumbers(run: string): boolean {
  let seps = 0, chars = 0, changes = 0, last = 0;
  for (let i = 0; i < run.length; i++) {
    const k = classOf(run.charCodeAt(i));
    if (k === 0) {
      if (run[i] !== "+" && run[i] !== "=") seps++;
      last = 0;
      continue;
    }
    chars++;
    if (last !== 0 && k !== last) changes++;
    last = k;
  }
  return seps >= 2 && changes * 5 <= chars;
}

/**
 * The run at `s` is no secret by what names it: a SOPS value's nonce or tag, or its
 * ciphertext (`ENC[AES256_GCM,data:…,iv:…,tag:…,type:str]`: the file is encrypted so that
 * it can be shared), or a public key (`VAPID_PUBLIC_KEY=…`, `publicKey: "…"`, or a
 * Kubernetes `- name: X_PUBLIC_KEY` followed by its `value: …`).
 */
function publicValue(text: string, s: number, context: string): boolean {
  const enc = text.lastIndexOf("ENC[AES256_GCM,", s);
  if (enc >= 0 && s - enc < 400 && text.lastIndexOf("]", s) < enc) return true;
  const before = (s < 120 && context ? context.slice(s - 120) : "") +
    text.slice(Math.max(0, s - 120), s);
  const key = KEY_BEFORE.exec(before)?.[1] ?? "";
  if (PUBLIC_KEY.test(key)) return true;
  return /^value$/i.test(key) && PUBLIC_KEY.test(K8S_NAME.exec(before)?.[1] ?? "");
}

/** A name and its `=` at the start of a run (`MAILGUN=`, `api.key=`). */
const NAME_EQ = /^[A-Za-z_][A-Za-z0-9_.-]*=$/;

/** The name before a value: `NAME=`, `"name": "`, `name: `. */
const KEY_BEFORE = /([A-Za-z0-9_.-]+)\\*["']?\s*[:=]\s*\\*["']?$/;
/** A name that says public key. */
const PUBLIC_KEY = /public[_.-]?key|pub[_.-]?key/i;
/**
 * A Kubernetes env entry's name, then (on the next line, real or escaped) its value, that line
 * maybe begun as in a numbered listing (`    28|`, `    28→`, `28\t`: a file read by a tool) or a
 * diff (`-`, `+`; trial 130 F4: masked there, the value was masked wherever it was repeated;
 * `=`, an unchanged line as `deja view` shows a diff: trial 138 M1).
 */
const K8S_NAME =
  /name:\s*\\*["']?([A-Za-z0-9_.-]+)\\*["']?\s*(?:\\+[nr])*(?:\s*\d+(?:[|→:]|\\+t)?|[-+=])?\s*value:\s*\\*["']?$/;

/** The run at `s` is the value of a request id (`"request_id": "…"`, `x-request-id: …`, `request id: …`). */
function isRequestId(text: string, s: number): boolean {
  return REQUEST_ID_KEY.test(text.slice(Math.max(0, s - 40), s));
}

const REQUEST_ID_KEY = /(?:^|[^A-Za-z])req(?:uest)?[ _-]?id\\*["']?\s*[:=]\s*\\*["']?$/i;

/** A high-entropy value found in a text: [start, end) offsets. */
export interface Span {
  start: number;
  end: number;
  /** The kind when the value's shape names it (`discord_token`); else it is `entropy`. */
  kind?: string;
}

/**
 * Where a Discord bot token starting with the run [s, e) ends, or -1: three base64url
 * parts joined by dots, of 23-28 (the id), 6-7 (a time) and 27-38 characters (the HMAC),
 * random as a whole ({@link looksRandom} of the parts run together), not part of a longer
 * dotted name. The rules' scan cannot see it (no literal to look for); this scan reads its
 * first part anyway.
 */
function dottedTokenEnd(text: string, s: number, e: number): number {
  const len = e - s;
  if (len < 23 || len > 28 || text.charCodeAt(e) !== 46 || text.charCodeAt(s - 1) === 46) {
    return -1;
  }
  let i = e + 1;
  const m = i;
  while (i < text.length && RUN[text.charCodeAt(i)] === 1) i++;
  if (i - m < 6 || i - m > 7 || text.charCodeAt(i) !== 46) return -1;
  const t = ++i;
  while (i < text.length && RUN[text.charCodeAt(i)] === 1) i++;
  if (i - t < 27 || i - t > 38) return -1;
  if (text.charCodeAt(i) === 46 && RUN[text.charCodeAt(i + 1)] === 1) return -1;
  return looksRandom(text.slice(s, e) + text.slice(m, t - 1) + text.slice(t, i)) ? i : -1;
}

/**
 * The high-entropy values of `text` (see the module doc), in order. A
 * character loop: it runs over every text written to the index. `context`: the text that
 * stood before it where it was cut from a whole (an export's previous line of a diff, its own
 * node: trial 137 M2), read for what names a value at its start.
 */
export function entropySpans(text: string, context = ""): Span[] {
  const out: Span[] = [];
  const runs = longRuns(text);
  for (let k = 0; k < runs.length; k += 2) {
    let start = runs[k];
    const end = runs[k + 1];
    // In JSON-escaped text a run may start with the letter of an escape (`\nQ7mZ…`).
    if (start > 0 && text.charCodeAt(start - 1) === 92 && /[nrt]/.test(text[start])) start++;
    // `NAME=value` is one run (`=` is a base64 character): the value starts after the name.
    // Looked for inside the run only: `indexOf` would read on to the text's next `=`, once per
    // run (a megabyte of long words and no `=` took 190 ms, 17 ms now).
    let eq = -1;
    for (let j = start + 1; j < end - 1; j++) {
      if (text.charCodeAt(j) === 61) {
        eq = j;
        break;
      }
    }
    if (
      eq > start && eq < end - 1 && text[eq + 1] !== "=" && NAME_EQ.test(text.slice(start, eq + 1))
    ) {
      start = eq + 1;
    }
    const token = dottedTokenEnd(text, start, end);
    if (token > 0) {
      out.push({ start, end: token, kind: "discord_token" });
      while (k + 2 < runs.length && runs[k + 2] < token) k += 2;
      continue;
    }
    const len = end - start;
    if (
      len >= 20 && len <= MAX_RUN + 4 &&
      (isAssignmentValue(text, start) || (len >= 28 && aloneOnLine(text, start, end))) &&
      looksRandom(text.slice(start, end)) && !isRequestId(text, start) &&
      !publicValue(text, start, context)
    ) {
      out.push({ start, end });
    }
  }
  return out;
}

/** Shortest run {@link longRuns} finds. */
const MIN_RUN = 20;

/**
 * The runs of base64 / base64url characters in `text` that are
 * {@link MIN_RUN} or more long and can be no longer (the characters either
 * side are none), as flat pairs: start, end (exclusive), start, end, ...
 *
 * Such a run starting at or after `i` covers `i + 19`, so the scan reads that
 * one character and, when it is no run character, skips the 19 before it
 * unread: most text is words and spaces, whose runs are short, and the scan
 * reads about one character in four of it (measured under Bun on the 100 MB
 * bench corpus: ~2.5x faster than reading every character).
 */
export function longRuns(text: string): number[] {
  const out: number[] = [];
  const n = text.length;
  // `i` is 0 or just after a character that is no run character (or on one).
  let i = 0;
  while (i + MIN_RUN - 1 < n) {
    let p = i + MIN_RUN - 1;
    if (RUN[text.charCodeAt(p)] === 0) {
      i = p + 1;
      continue;
    }
    while (p > i && RUN[text.charCodeAt(p - 1)] === 1) p--;
    i += MIN_RUN;
    while (i < n && RUN[text.charCodeAt(i)] === 1) i++;
    if (i - p >= MIN_RUN) out.push(p, i);
    i++;
  }
  return out;
}

/**
 * The run at `s` follows `<word>["']? [:=] ["']?`, each quote maybe JSON-escaped once or more
 * (`\"key\": \"…`, `value: \\\"…`: a tool's output holding JSON, JSON inside JSON).
 */
function isAssignmentValue(text: string, s: number): boolean {
  let j = s - 1;
  if (text[j] === '"' || text[j] === "'") j = skipBackslashes(text, j - 1);
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  if (text[j] !== "=" && text[j] !== ":") return false;
  if (text.slice(Math.max(0, j - 7), j) === "base64,") return false;
  if (text[j] === ":" && text.slice(Math.max(0, j - 2), j) === "h1") return false;
  j--;
  if (text[j] === '"' || text[j] === "'") j = skipBackslashes(text, j - 1);
  while (j >= 0 && text[j] === " ") j--;
  // A word (key) must end here: letters, digits, _ . -
  const end = j + 1;
  while (j >= 0 && /[A-Za-z0-9_.-]/.test(text[j])) j--;
  return end - (j + 1) >= 2;
}

/** The index before the backslashes ending at `j` (`j` itself when there is none). */
function skipBackslashes(text: string, j: number): number {
  while (j >= 0 && text.charCodeAt(j) === 92) j--;
  return j;
}

/** The run [s, e) is all of its line but quotes and blanks, and no neighbour line is another run. */
function aloneOnLine(text: string, s: number, e: number): boolean {
  // A line ends at a newline, or at a `\n` escape in JSON-escaped text.
  const esc = text.lastIndexOf("\\n", s - 1);
  const ls = Math.max(text.lastIndexOf("\n", s - 1) + 1, esc < 0 ? 0 : esc + 2);
  let le = text.indexOf("\n", e);
  if (le < 0) le = text.length;
  const escEnd = text.indexOf("\\n", e);
  if (escEnd >= 0 && escEnd < le) le = escEnd;
  const trimmed = (x: string) => x.trim().replace(/^[\\"'`]+|[\\"'`,;]+$/g, "").trim();
  if (trimmed(text.slice(ls, s)) !== "" || trimmed(text.slice(e, le)) !== "") return false;
  // A line inside a block of long runs is data (wrapped base64), not a secret.
  const prevEnd = ls - 1;
  const prev = prevEnd > 0 ? text.slice(text.lastIndexOf("\n", prevEnd - 1) + 1, prevEnd) : "";
  const next = le < text.length
    ? text.slice(le + 1, (text.indexOf("\n", le + 1) + 1 || text.length + 1) - 1)
    : "";
  const block = (line: string) => /^\s*[A-Za-z0-9+/=_-]{28,}\s*$/.test(line);
  return !block(prev) && !block(next);
}
