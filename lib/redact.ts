/**
 * Secret redaction, applied to every text before it is written to the index.
 *
 * A secret's value becomes `[redacted:<kind>]`; the words around it stay
 * searchable. One combined regular expression scans each text once.
 *
 * @module
 */

interface Rule {
  kind: string;
  /** Source of a regex; when it has a capture group named `v`, only that group is replaced. */
  re: string;
}

const RULES: Rule[] = [
  {
    kind: "private_key",
    re: String
      .raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`,
  },
  {
    kind: "url_credentials",
    re: String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:(?<v>[^\s@/]{3,})@`,
  },
  { kind: "aws_key", re: String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b` },
  {
    kind: "github_token",
    re: String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`,
  },
  { kind: "gitlab_token", re: String.raw`\bglpat-[A-Za-z0-9_-]{20,}` },
  { kind: "stripe_key", re: String.raw`\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}` },
  { kind: "anthropic_key", re: String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}` },
  { kind: "openai_key", re: String.raw`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}` },
  { kind: "groq_key", re: String.raw`\bgsk_[A-Za-z0-9]{20,}` },
  { kind: "xai_key", re: String.raw`\bxai-[A-Za-z0-9]{20,}` },
  { kind: "huggingface_token", re: String.raw`\bhf_[A-Za-z0-9]{30,}` },
  { kind: "npm_token", re: String.raw`\bnpm_[A-Za-z0-9]{36}\b` },
  { kind: "slack_token", re: String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}` },
  { kind: "google_api_key", re: String.raw`\bAIza[0-9A-Za-z_-]{35}` },
  {
    kind: "jwt",
    re: String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  },
  {
    kind: "bearer_token",
    re: String.raw`\b(?:[Bb]earer|[Bb]asic)\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)`,
  },
  {
    // A key word, possibly inside a longer name (DB_PASSWORD, secret_key, PGPASSWORD),
    // then = or :, then the value (see acceptAssignment for what counts as one).
    kind: "assignment",
    re: String
      .raw`(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_.-]?)??(?:[Pp]assword|PASSWORD|[Pp]asswd|PASSWD|[Pp]wd|PWD|[Pp]asswort|[Cc]ontrase(?:ñ|n)a|[Ss]enha|[Mm]ot_de_passe|пароль|Пароль|密码|パスワード|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Aa]pi[_-]?[Kk]ey|API[_-]?KEY|[Aa]ccess[_-]?[Kk]ey|ACCESS[_-]?KEY|[Cc]lient[_-]?[Ss]ecret|CLIENT[_-]?SECRET)(?:[_.-][A-Za-z0-9]+)*["']?\s*[:=]\s*["']?(?<v>[^\s"'\x60,;()\[\]{}<>]{6,})(?=[\s"'\x60,;)\]}>]|$)`,
  },
  {
    kind: "cli_password",
    re: String
      .raw`(?<![A-Za-z0-9-])--(?:password|passwd|token|api-key|secret)(?:=|\s+)(?<v>[^\s"'\x60]{4,})`,
  },
  {
    kind: "cli_password",
    re: String.raw`\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\\n]*?\s-p(?<v>[^\s"'\x60]{4,})`,
  },
];

const COMBINED = new RegExp(
  RULES.map((r, i) => `(?<r${i}>${r.re.replaceAll("(?<v>", `(?<v${i}>`)})`).join("|"),
  "g",
);

/**
 * Whether an assignment's value looks like a secret rather than code or a
 * placeholder: quoted with a letter or digit in it, or unquoted with both
 * letters and digits, or long (20+ characters); never one repeated character.
 */
function acceptAssignment(match: string, v: string): boolean {
  if (!/[A-Za-z0-9]/.test(v) || /^(.)\1*$/.test(v)) return false;
  const before = match[match.lastIndexOf(v) - 1];
  if (before === '"' || before === "'") return true;
  return v.length >= 20 || (/\d/.test(v) && /\p{L}/u.test(v));
}

/** Counts per secret kind. */
export type RedactionCounts = Record<string, number>;

/**
 * Replaces secrets in `text` by `[redacted:<kind>]`, adding to `counts`.
 *
 * @returns the redacted text (the same string when nothing matched).
 * @example redact("key sk-ant-abcdefghijklmnopqrstuv", {}) === "key [redacted:anthropic_key]"
 */
export function redact(text: string, counts: RedactionCounts): string {
  if (text.length < 8) return text;
  return text.replace(COMBINED, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const match = args[0] as string;
    for (let i = 0; i < RULES.length; i++) {
      if (groups[`r${i}`] === undefined) continue;
      const kind = RULES[i].kind;
      const v = groups[`v${i}`];
      if (kind === "assignment" && v && !acceptAssignment(match, v)) return match;
      counts[kind] = (counts[kind] ?? 0) + 1;
      if (v !== undefined) {
        const at = match.lastIndexOf(v);
        return `${match.slice(0, at)}[redacted:${kind}]${match.slice(at + v.length)}`;
      }
      return `[redacted:${kind}]`;
    }
    return match;
  });
}

/** Redacts every string inside a JSON-like value (for parser state kept in the index). */
export function redactDeep(value: unknown, counts: RedactionCounts): unknown {
  if (typeof value === "string") return redact(value, counts);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, counts));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, counts)]));
  }
  return value;
}

/** Removes terminal escape sequences and bidi control characters from text to be printed. */
export function sanitizeForTerminal(text: string): string {
  return text
    // deno-lint-ignore no-control-regex
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, "")
    // deno-lint-ignore no-control-regex
    .replace(/\r\n?/g, "\n")
    .replace(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "");
}
