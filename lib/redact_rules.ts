/**
 * The secret shapes redaction knows (a flat table; lib/redact.ts applies it).
 * Where a shape comes from: the providers' published token formats (prefixes
 * and lengths), and the key words people write before a secret value, in the
 * languages deja's users write in.
 *
 * @module
 */

/** One secret shape. */
export interface Rule {
  /** The name in `[redacted:<kind>]` and in the per-source counts. */
  kind: string;
  /** Source of a regex; when it has a capture group named `v`, only that group is replaced. */
  re: string;
  /** A whole line names a secret (.env): any value but a number or a boolean is one. */
  line?: boolean;
}

/** Words that name a secret, in the languages people write (lower or capitalised, or upper case). */
const KEY_WORDS = [
  "[Pp]assword",
  "PASSWORD",
  "[Pp]asswd",
  "PASSWD",
  "[Pp]wd",
  "PWD",
  "[Pp]assphrase",
  "PASSPHRASE",
  "[Pp]asswort",
  "[Kk]ennwort",
  "[Mm]ot_de_passe",
  "[Mm]ot de passe",
  "[Cc]ontrase(?:ñ|n)a",
  "[Ss]enha",
  "[Hh]as(?:ł|l)o",
  "[Ww]achtwoord",
  "[Ll](?:ö|o)senord",
  "[Şş]ifre",
  "[Пп]ароль",
  "[Тт]окен",
  "[Сс]екрет",
  "密码",
  "密碼",
  "口令",
  "令牌",
  "密钥",
  "パスワード",
  "トークン",
  "비밀번호",
  "토큰",
  "[Ss]ecret",
  "SECRET",
  "[Tt]oken",
  "TOKEN",
  "[Aa]pi[_-]?[Kk]ey",
  "API[_-]?KEY",
  "[Aa]ccess[_-]?[Kk]ey",
  "ACCESS[_-]?KEY",
  "[Pp]rivate[_-]?[Kk]ey",
  "PRIVATE[_-]?KEY",
  "[Cc]lient[_-]?[Ss]ecret",
  "CLIENT[_-]?SECRET",
];

/** Name parts that make a .env line's value a secret (STRIPE_WEBHOOK_KEY, AUTH0_SALT, PGPASS). */
const ENV_WORDS = [
  "PASS",
  "[Pp]ass",
  "PWD",
  "[Pp]wd",
  "SECRET",
  "[Ss]ecret",
  "TOKEN",
  "[Tt]oken",
  "(?<![A-Za-z])KEY(?![A-Z])",
  "(?<![A-Za-z])[Kk]ey(?![a-z])",
  "APIKEY",
  "[Aa]pi[Kk]ey",
  "AUTH(?!OR)",
  "[Aa]uth(?!or)",
  "SALT",
  "[Ss]alt",
  "CREDENTIAL",
  "[Cc]redential",
  "PRIVATE",
  "[Pp]rivate",
];

/** The rules, tried in this order at each position. */
export const RULES: Rule[] = [
  {
    kind: "private_key",
    re: String
      .raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  },
  {
    // PuTTY's own key file: the private lines run to the MAC line.
    kind: "private_key",
    re: String.raw`PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC: *[0-9a-fA-F]+|$)`,
  },
  {
    kind: "url_credentials",
    re: String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:(?<v>[^\s@/]{3,})@`,
  },
  {
    // Also `aws configure set aws_secret_access_key <v>` and `--aws-secret-access-key <v>`.
    kind: "aws_secret",
    re: String
      .raw`(?<![A-Za-z0-9])(?:aws[_-]?secret[_-]?access[_-]?key|AWS_?SECRET_?ACCESS_?KEY|SecretAccessKey)(?:\\*["'])?(?:\s*[:=]\s*|\s+)(?:\\*["'])?(?<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  },
  {
    // An Azure storage or service bus connection string's key (base64).
    kind: "azure_storage_key",
    re: String.raw`\b(?:Account|SharedAccess)Key=(?<v>[A-Za-z0-9+/]{20,}={0,2})`,
  },
  { kind: "aws_key", re: String.raw`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b` },
  {
    kind: "github_token",
    re: String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`,
  },
  { kind: "gitlab_token", re: String.raw`\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,}` },
  { kind: "stripe_key", re: String.raw`\b(?:sk|rk|pk|whsec)_(?:live|test)_[A-Za-z0-9]{16,}` },
  { kind: "anthropic_key", re: String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}` },
  { kind: "openai_key", re: String.raw`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}` },
  { kind: "groq_key", re: String.raw`\bgsk_[A-Za-z0-9]{20,}` },
  { kind: "xai_key", re: String.raw`\bxai-[A-Za-z0-9]{20,}` },
  { kind: "huggingface_token", re: String.raw`\bhf_[A-Za-z0-9]{30,}` },
  { kind: "npm_token", re: String.raw`\bnpm_[A-Za-z0-9]{36}\b` },
  { kind: "pypi_token", re: String.raw`\bpypi-AgE[A-Za-z0-9_-]{50,}` },
  { kind: "twilio_key", re: String.raw`\bSK[0-9a-fA-F]{32}\b` },
  { kind: "shopify_token", re: String.raw`\bshp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}\b` },
  { kind: "slack_token", re: String.raw`\bxox[abprse]-[A-Za-z0-9-]{10,}` },
  { kind: "slack_webhook", re: String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}` },
  { kind: "google_api_key", re: String.raw`\bAIza[0-9A-Za-z_-]{35}` },
  { kind: "google_oauth_token", re: String.raw`\bya29\.[0-9A-Za-z_-]{20,}` },
  {
    kind: "jwt",
    re: String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  },
  {
    kind: "bearer_token",
    re: String
      .raw`\b(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken(?= [A-Za-z0-9]{30,}))\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)`,
  },
  {
    // A line of a .env file (or of a shell script) whose name says secret: the whole rest
    // of the line is the value, quoted or not; a lone "\n" (JSON-escaped text) ends a line
    // too; a line number in front (`cat -n`, a read tool's `12→`) is allowed.
    kind: "assignment",
    line: true,
    re: String
      .raw`(?<=^|\n|\\n)(?:[ \t]*\d+(?:\t|→|:|\|)[ \t]?)?(?:export[ \t]+)?[A-Za-z0-9_]*?(?:${
      ENV_WORDS.join("|")
    })[A-Za-z0-9_]*=["']?(?<v>(?!=)(?<=")[^"\\\n]+(?=")|(?<=')[^'\\\n]+(?=')|(?<=[=\s])[^\s"'\\\x60(){}<>]+)["']?(?=[ \t]*(?:#[^\n]*)?(?:\r?\n|\\+[rn]|$))`,
  },
  {
    // A key word, possibly inside a longer name (DB_PASSWORD, secret_key, PGPASSWORD),
    // then = or : (also the full-width ：), then the value (see acceptAssignment). Quotes may
    // be JSON-escaped (\"password\": \"…\"); a PEM block is left to the private_key rule.
    kind: "assignment",
    re: String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9\\]))(?:[A-Za-z0-9]+[_.-]?)??(?:${
      KEY_WORDS.join("|")
    })(?:[_.-][A-Za-z0-9]+)*(?:\\*["'])?\s*[:=：]\s*(?:\\*["'])?(?<v>(?!-----BEGIN)[^\s"'\x60,;()\[\]{}<>\\]{6,})(?=[\s"'\x60,;)\]}>\\]|$)`,
  },
  {
    // curl/wget/httpie `-u user:password`.
    kind: "cli_password",
    re: String
      .raw`\b(?:curl|wget|http|https|xh)\b[^\n]{0,400}?\s(?:-u|--user|--http-user)(?:\s+|=)["']?[^\s:"'$]+:(?<v>[^\s"'@]{3,})`,
  },
  {
    kind: "cli_password",
    re: String
      .raw`(?<![A-Za-z0-9-])--(?:password|passwd|token|api-key|secret)(?:=|\s+)(?<v>[^\s"'\x60]{4,})`,
  },
  {
    kind: "cli_password",
    re: String
      .raw`\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]{0,400}?\s-p(?<v>[^\s"'\x60]{4,})`,
  },
];

/**
 * A cheap test run before the rules: a text it does not match holds none of
 * the shapes above (each rule's required literal part is in it), so the full
 * expression is skipped. Case-sensitive on purpose: it lists the spellings.
 */
export const PREFILTER =
  /-----BEGIN|PuTTY-User|AccountKey=|AccessKey=|pypi-AgE|SK[0-9a-fA-F]|shp(?:at|ss|ca|pa)_|AUTH|[Aa]uth|SALT|[Ss]alt|CREDENTIAL|[Cc]redential|PRIVATE|[Pp]rivate|curl|wget|http|xh |:\/\/|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt)-|_live_|_test_|sk-|gsk_|xai-|hf_|npm_|xox[abprse]-|AIza|ya29\.|eyJ|[Bb]earer|BEARER|[Bb]asic|BASIC|[Pp]ass|PASS|[Pp]wd|PWD|[Kk]ennwort|[Pp]asswort|[Mm]ot|[Cc]ontrase|[Ss]enha|[Hh]as|[Ww]achtwoord|senord|ifre|[Пп]ароль|[Тт]окен|[Сс]екрет|密码|密碼|口令|令牌|密钥|パスワード|トークン|비밀번호|토큰|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Kk]ey|KEY|SecretAccessKey|--pass|--token|--api-key|--secret|mysql|mariadb/;
