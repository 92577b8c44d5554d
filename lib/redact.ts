/**
 * Secret redaction, applied to every text before it is written to the index.
 *
 * A secret's value becomes `[redacted:<kind>]`; the words around it stay
 * searchable. One combined regular expression scans each text once.
 *
 * @module
 */
import { RULES } from "./redact_rules.ts";
import { mayHoldSecret } from "./redact_prefilter.ts";
import { entropySpans } from "./redact_entropy.ts";
import { isExampleToken, isPlaceholder, isPlaceholderBlock } from "./redact_placeholder.ts";
import { isEnglish } from "./search/english.ts";

/** Shapes known by their own form (no key word, no capture group): provider tokens and the like. */
const SPECIFIC = RULES.filter((r) => !r.re.includes("(?<v>") && r.kind !== "private_key");

/**
 * The combined expressions, built on first use: a search loads this module for
 * {@link sanitizeForTerminal} alone, and building them cost a cold query of the
 * Bun binary ~7 ms (issue 15).
 */
let combined: { all: RegExp; specific: RegExp } | undefined;
function combinedRes(): { all: RegExp; specific: RegExp } {
  return combined ??= {
    specific: new RegExp(SPECIFIC.map((r) => `(?:${r.re})`).join("|"), "g"),
    // Each rule's named groups (`v`, and `q`/`qc` of a quoted value) get the rule's number.
    all: new RegExp(
      RULES.map((r, i) =>
        `(?<r${i}>${
          r.re.replace(/\(\?<([a-z]+)>/g, `(?<$1${i}>`).replace(/\\k<([a-z]+)>/g, `\\k<$1${i}>`)
        })`
      ).join("|"),
      "g",
    ),
  };
}

/** Words that make a several-word value a message or code rather than a passphrase. */
const NOT_PASSPHRASE =
  /^(?:please|enter|must|should|cannot|can't|invalid|incorrect|wrong|required|forgot|reset|characters?|if|else|and|or|not|await|new|return|lambda|function|none|null|true|false)$/i;

/** Words of prose: an unquoted value holding one is a sentence (`Token: the one I sent`). */
const PROSE =
  /^(?:the|a|an|is|are|was|be|from|with|to|of|for|in|on|at|by|it|this|that|your|my|our|see|use|set|same|as)$/i;

/**
 * Whether a value of several words is a passphrase rather than a message or code: at
 * most eight words, no sentence end, none of the message or code words above (nor,
 * unquoted, of the prose words).
 */
function acceptPhrase(v: string, quoted: boolean): boolean {
  const words = v.trim().split(/\s+/);
  if (words.length > 8 || /[.!?:]$/.test(v.trim()) || v.trim().length < 8) return false;
  return !words.some((w) =>
    NOT_PASSPHRASE.test(w) || (!quoted && PROSE.test(w)) ||
    /(?:password|passwd|token|secret)/i.test(w)
  );
}

/**
 * Whether an assignment's value looks like a secret rather than code or a
 * placeholder: quoted with a letter or digit in it, or unquoted with both
 * letters and digits, or long (20+ characters); never one repeated character.
 */
function acceptAssignment(match: string, v: string): boolean {
  if (!/[\p{L}\p{N}]/u.test(v) || /^(.)\1*$/.test(v)) return false;
  const at = match.lastIndexOf(v);
  // Between HTML-escaped quotes (`password=&quot;…&quot;`) is quoted too (trial 128 F2: a
  // value of letters only there was taken for code and left in clear).
  const quoted = match[at - 1] === '"' || match[at - 1] === "'" ||
    HTML_QUOTE_END.test(match.slice(Math.max(0, at - 8), at));
  // A template (`"postgres://u:${random_password.db.result}@h"`) names its secret elsewhere.
  if (/\$\{|\{\{|#\{/.test(v)) return false;
  if (/\s/.test(v)) return acceptPhrase(v, quoted);
  if (quoted) return true;
  // Words joined by dots: a reference in code, else a passphrase (`prod.db.pass`,
  // `correct.horse` were shown in clear: short, and no digit).
  if (DOTTED.test(v)) return !codeReference(v);
  return v.length >= 20 || (/\d/.test(v) && /\p{L}/u.test(v));
}

/** An HTML-escaped quote ending a text (`&quot;`, `&#39;`, …: lib/redact_rules.ts HTML_QUOTE). */
const HTML_QUOTE_END = /&(?:quot|apos|#0*3[49]|#[xX]0*2[27]);$/;

/** Names of letters and underscores joined by dots. */
const DOTTED = /^[A-Za-z_$]+(?:\.[A-Za-z_$]+)+$/;

/**
 * An unquoted value that is a reference in code, not a secret: names of letters and
 * underscores joined by dots, the first an object code reads settings from (`self`,
 * `process`, `config`, …) or one of them snake_case, camelCase or a field a secret is read from
 * (`random_password.db_password.result`, `credentials.password`,
 * `EXCLUDED.password_hash`, `google_secret_manager_secret.db_url.id`). Masked before, so a
 * Terraform file, an SQL upsert or a login handler read back showed `[redacted:assignment]`
 * where the code was and none of it could be searched (new-user trial, 2026-12, Cline's real
 * store). A value with a digit is never one (`Summer2024.Secret`).
 */
function codeReference(v: string): boolean {
  if (!DOTTED.test(v)) return false;
  const parts = v.split(".");
  return CODE_OBJECT.test(parts[0]) || parts.some((p) =>
    /[a-z]_[a-z]|[a-z][A-Z]/.test(p) ||
    /^(?:password|passwd|secret|token|key|credentials?|hash|result|value|id)$/i.test(p)
  );
}

/** The first name of a reference in code: an object code reads settings from. */
const CODE_OBJECT =
  /^(?:self|this|os|process|config|cfg|conf|settings|credentials|creds|env|environ|request|req|res|response|data|user|args|opts|options|params|ctx|context|secrets|vars|input|props|state|app|window|globalThis|import)$/;

/**
 * Whether a value a sentence names as a password (`the password is hunter2`) looks
 * like one: not a path, an address or a `base64-encoded` style description; digits only
 * when six or more; letters only ({@link acceptLetters}) when it is no word; letters with
 * `-` `.` `_` `'` between (`re-set`, `PostgreSQL's`) never.
 */
function acceptProse(match: string, v: string): boolean {
  if (/[/\\]|^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(v)) return false;
  if (/^\p{L}+$/u.test(v)) {
    const before = match.slice(0, match.lastIndexOf(v));
    return acceptLetters(v, /["'\x60]$/.test(before) || HTML_QUOTE_END.test(before));
  }
  if (/^[\p{L}'._-]+$/u.test(v)) return false;
  if (/^\d+$/.test(v)) return v.length >= 6;
  return !/^[a-z]+\d*-[a-z]{3,}$/i.test(v);
}

/**
 * Whether a value of letters only a sentence names as a password is one: 8 letters or more,
 * not a common English word (lib/search/english.ts: `the password is required`), and quoted,
 * or of ASCII letters: mixed case that is no run of words (`sEpOhiBsMHucdj`, not
 * `PostgreSQL`, `GitHub`), or in one case with five consonants in a row (`qwhxzkpt`, not
 * `hardcoded`). Letters only were never masked before (trial 133 F4: a 14-letter mixed-case password was shown, and reached
 * the agent through the hooks).
 */
function acceptLetters(v: string, quoted: boolean): boolean {
  if (v.length < 8 || isEnglish(v.toLowerCase())) return false;
  if (quoted) return true;
  if (!/^[A-Za-z]+$/.test(v)) return false;
  if (v !== v.toLowerCase() && v !== v.toUpperCase()) return !WORDS_RUN.test(v);
  return /[^aeiouy]{5}/i.test(v);
}

/**
 * Whether a flag's value (`-p VALUE` of a command not known to take a password there) looks
 * like a random password rather than a port, a path, a host, a name or a package: 8 to 64
 * characters with upper case, lower case and digits, no `/` `.` `:` `@`, changing between
 * them at least once in three characters, and not words and numbers run together
 * (`MyProject2`, `HTTPServer8080`).
 */
function acceptRandom(v: string): boolean {
  if (v.length < 8 || v.length > 64 || /[\s/.:@]/.test(v) || WORDS_RUN.test(v)) return false;
  if (!/[A-Z]/.test(v) || !/[a-z]/.test(v) || !/\d/.test(v)) return false;
  let chars = 0, changes = 0, last = "";
  for (const ch of v) {
    const k = /\d/.test(ch) ? "d" : /[A-Z]/.test(ch) ? "u" : /[a-z]/.test(ch) ? "l" : "";
    if (!k) continue;
    chars++;
    if (last && k !== last) changes++;
    last = k;
  }
  return changes * 3 >= chars;
}

/**
 * Words (capitalised, lower or upper case; the first may be short: `My`) and numbers run
 * together: a name, not a password.
 */
const WORDS_RUN = /^[A-Z]?[a-z]*(?:[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z])|\d+|[_-])*$/;

/** A name that says public key (`VAPID_PUBLIC_KEY`, `SSH_PUBKEY`). */
const PUBLIC_NAME = /PUBLIC_?KEY|PUBKEY|[Pp]ublic_?[Kk]ey|[Pp]ub_?[Kk]ey/;

/** A unit a setting's number carries: a time, a size, a share, a count (`30s`, `512MB`, `10req`). */
const UNIT = String
  .raw`(?:[mun]s|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?|[kmgtp]i?b?|b|bytes?|%|x|px|r[psmh]|qps|reqs?|requests?|calls?|tokens?|chars?|characters?|lines?|items?|times?|attempts?|tries|retries)`;

/**
 * A setting, not a secret: a number with an optional unit, or a rate
 * (`5/minute`, `100/hour`, `10/1m`, `5 per minute`), several joined by `;` or
 * `,` (`5/minute;100/hour`, Flask-Limiter's notation).
 */
const SETTING = new RegExp(
  String.raw`^(?:\d+(?:\.\d+)?\s?${UNIT}?(?:\s?(?:/|\sper\s)\s?\d*\s?${UNIT})?(?:\s*[;,]\s*|$))+$`,
  "i",
);

/**
 * A .env value is a secret unless it is a boolean, too short to be one, or a
 * number with a unit or rate (`AUTH_RATE_LIMIT=5/minute`, `TOKEN_TTL=3600s`:
 * the name says secret, the value is a setting).
 */
function acceptDotenv(v: string): boolean {
  const u = v.replace(/^["']|["']$/g, "");
  return u.length >= 4 && !/^(?:true|false|yes|no|on|off)$/i.test(u) && !SETTING.test(u);
}

/** Counts per secret kind. */
export type RedactionCounts = Record<string, number>;

/**
 * Secret values found so far, with their kind: filled by {@link redact} when
 * given one, so a value a cue named once (`DB_PASSWORD=...`) is also masked
 * where it is repeated without a cue ({@link redactRepeats}).
 */
export type FoundSecrets = Map<string, string>;

/**
 * Kinds whose value a cue names (`password=`, `the password is`, `-p`, a bearer or a URL's
 * credentials: a rule's value group), so that it is known as a secret only beside its cue.
 * The values of the other kinds (provider tokens, keys, JWTs, high-entropy values) are
 * known by their own form wherever they stand.
 */
const CUED = new Set(RULES.filter((r) => r.re.includes("(?<v>")).map((r) => r.kind));

/** Whether a value of `kind` was known as a secret by its cue alone ({@link CUED}). */
export function namedByCue(kind: string): boolean {
  return CUED.has(kind);
}

/** Shortest value masked again where it repeats (shorter ones are too likely to be words). */
const MIN_REPEAT = 8;

/**
 * Replaces secrets in `text` by `[redacted:<kind>]`, adding to `counts`: the
 * shapes of lib/redact_rules.ts (private keys, credentials in URLs, AWS keys,
 * provider tokens, JWTs, bearer and basic tokens, `password=` / `token:` style
 * assignments in several languages, CLI passwords), then high-entropy values
 * (lib/redact_entropy.ts, kind `entropy`). Only the value is replaced; the
 * words around it stay searchable.
 *
 * @returns the redacted text (the same string when nothing matched).
 * @example redact("key sk-ant-abcdefghijklmnopqrstuv", {}) === "key [redacted:anthropic_key]"
 */
export function redact(
  text: string,
  counts: RedactionCounts,
  found?: FoundSecrets,
  context = "",
): string {
  // A marker of an earlier pass (`[redacted:sentry_dsn]`) is no secret and no part of one:
  // shielded while the rules run, so a second pass (an export, a newer rule) changes and
  // counts nothing it already masked.
  if (!text.includes("[redacted:")) return redactText(text, counts, found, true, context);
  return redactText(shield(text), counts, found, true, context).replace(
    SHIELDED,
    "[redacted:$1]",
  );
}

/** `text` with each marker of an earlier pass shielded ({@link SHIELD}): no rule matches one. */
function shield(text: string): string {
  return text.includes("[redacted:")
    ? text.replace(/\[redacted:([a-z0-9_]+)\]/g, `${SHIELD[0]}$1${SHIELD[1]}`)
    : text;
}

/** Private-use characters around a shielded marker (no rule matches them). */
const SHIELD = ["\ue000", "\ue001"] as const;
const SHIELDED = /\ue000([a-z0-9_]+)\ue001/g;

function redactText(
  text: string,
  counts: RedactionCounts,
  found?: FoundSecrets,
  entropy = true,
  context = "",
): string {
  const keep = (v: string, kind: string) => {
    const t = v.trim();
    if (found && t.length >= MIN_REPEAT && !t.includes(SHIELD[0])) found.set(t, kind);
  };
  if (text.length < 8) return text;
  let out = text;
  if (mayHoldSecret(text)) {
    out = text.replace(combinedRes().all, (...args) => {
      const groups = args[args.length - 1] as Record<string, string | undefined>;
      const match = args[0] as string;
      for (let i = 0; i < RULES.length; i++) {
        if (groups[`r${i}`] === undefined) continue;
        const kind = RULES[i].kind;
        const v = groups[`v${i}`] ?? groups[`w${i}`];
        const line = RULES[i].line === true;
        // A .env line naming a public key (VAPID_PUBLIC_KEY=…) holds no secret (trial 127 F10).
        if (line && v && PUBLIC_NAME.test(match.slice(0, match.lastIndexOf(v)))) return match;
        if (
          (v !== undefined && (isPlaceholder(v) || v.includes(SHIELD[0]))) ||
          (kind === "private_key" && isPlaceholderBlock(match)) ||
          (RULES[i].examples === true && isExampleToken(match)) ||
          (kind === "assignment" && v && !(line ? acceptDotenv(v) : acceptAssignment(match, v))) ||
          (kind === "prose_password" && v && !acceptProse(match, v)) ||
          (RULES[i].random === true && v && !acceptRandom(v))
        ) {
          // Not a secret; what the rule read before the value may still hold one
          // (`curl -H 'Authorization: Bearer …' -u $U:$P`), and a rejected message may
          // hold a token: each is scanned again on its own.
          if (v === undefined) return match;
          const at = match.lastIndexOf(v);
          return at > 0
            ? redact(match.slice(0, at), counts, found) + redact(match.slice(at), counts, found)
            : match;
        }
        if (kind === "assignment" && v) {
          // A value with a known shape is named by its shape (AWS_ACCESS_KEY_ID=AKIA…: aws_key).
          const inner: RedactionCounts = {};
          const named = v.replace(combinedRes().specific, (m) => {
            for (const r of SPECIFIC) {
              if (new RegExp(`^(?:${r.re})$`).test(m)) {
                inner[r.kind] = (inner[r.kind] ?? 0) + 1;
                return `[redacted:${r.kind}]`;
              }
            }
            return m;
          });
          if (Object.keys(inner).length) {
            for (const [k, n] of Object.entries(inner)) counts[k] = (counts[k] ?? 0) + n;
            const at = match.lastIndexOf(v);
            return `${match.slice(0, at)}${named}${match.slice(at + v.length)}`;
          }
        }
        counts[kind] = (counts[kind] ?? 0) + 1;
        if (v !== undefined) {
          keep(v, kind);
          const at = match.lastIndexOf(v);
          if (RULES[i].around) {
            const [pre, post] = [match.slice(0, at), match.slice(at + v.length)];
            return `${redact(pre, counts, found)}[redacted:${kind}]${redact(post, counts, found)}`;
          }
          return `${match.slice(0, at)}[redacted:${kind}]${match.slice(at + v.length)}`;
        }
        keep(match, kind);
        return `[redacted:${kind}]`;
      }
      return match;
    });
  }
  if (!entropy || out.length < 20) return out;
  const spans = entropySpans(out, context);
  if (!spans.length) return out;
  let res = "";
  let at = 0;
  for (const sp of spans) {
    const kind = sp.kind ?? "entropy";
    keep(out.slice(sp.start, sp.end), kind);
    res += out.slice(at, sp.start) + `[redacted:${kind}]`;
    at = sp.end;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return res + out.slice(at);
}

/**
 * A function masking, in any text, the values of `found` (longest first), each
 * as `[redacted:<kind>]` counted in `counts`; null when nothing was found (the
 * common case costs nothing). Values a cue named in one event are so masked in
 * the events before and after it that repeat them bare.
 */
export function redactRepeats(
  found: FoundSecrets,
): ((text: string, counts: RedactionCounts) => string) | null {
  if (!found.size) return null;
  const values = [...found.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return (text, counts) => {
    if (text.length < MIN_REPEAT) return text;
    return text.replace(re, (m) => {
      const kind = found.get(m) ?? "repeat";
      counts[kind] = (counts[kind] ?? 0) + 1;
      return `[redacted:${kind}]`;
    });
  };
}

/**
 * Adds to `found` the values a cue names in `text` ({@link namedByCue}: `password=…`, a URL's
 * credentials), as {@link redact} would find them, without masking anything: for the part of
 * a long text the index does not keep (lib/prepare.ts), so the session's bare repeats of a
 * value named there are masked. The rules' one scan only: no high-entropy scan (its values
 * are known by their form wherever they stand).
 */
export function namedIn(text: string, found: FoundSecrets): void {
  if (text.length < 8 || !mayHoldSecret(text)) return;
  const seen: FoundSecrets = new Map();
  // A marker is no value a cue names (trial 137 M1: `AWS_ACCESS_KEY_ID=[redacted:aws_key]`
  // named the marker, and an export masked it again as `[redacted:assignment]`, counted).
  redactText(shield(text), {}, seen, false);
  for (const [v, kind] of seen) if (CUED.has(kind) && !found.has(v)) found.set(v, kind);
}

/**
 * Redacts every string inside a JSON-like value (for parser state kept in the index), and
 * masks in it the values of `named` (a session's values a cue named: a title the state
 * keeps may repeat one; trial 114 F1).
 */
export function redactDeep(
  value: unknown,
  counts: RedactionCounts,
  named?: FoundSecrets,
): unknown {
  const again = named ? redactRepeats(named) : null;
  const deep = (v: unknown): unknown => {
    if (typeof v === "string") {
      const r = redact(v, counts);
      return again ? again(r, counts) : r;
    }
    if (Array.isArray(v)) return v.map(deep);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
    }
    return v;
  };
  return deep(value);
}

/** Terminal sanitising lives in core/terminal.ts (no dependencies, for the hooks); re-exported here. */
export { sanitizeForTerminal } from "../core/terminal.ts";
