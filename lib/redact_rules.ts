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
  /**
   * The provider's documentation writes placeholders of this shape with `EXAMPLE` in them
   * or one repeated character after the prefix (AWS: `AKIAIOSFODNN7EXAMPLE`,
   * `AKIAXXXXXXXXXXXXXXXX`); such a match is kept.
   */
  examples?: boolean;
  /** The text the rule reads beside its value (an AWS key id) is redacted on its own too. */
  around?: boolean;
  /** The value is a secret only when it looks random (the flag or word means other things too). */
  random?: boolean;
}

/**
 * A quoted value, its quotes JSON-escaped any number of times (`"…"`, `\"…\"`, `\\\"…`):
 * the value runs to the closing quote written with the same escaping, so an escaped
 * quote inside it (`\"`, `\\\"`) does not end it; an escaped line break (`\n`) or a
 * real one does (then the rule does not match). Named groups here are renamed per rule
 * by lib/redact.ts, so the pattern may be used in several rules.
 */
const QUOTED = String
  .raw`(?<!\\)(?<q>\\*)(?<qc>["'])(?<v>(?:(?!\k<qc>)[^\\\n]|\\+(?![nr\\])(?!\k<qc>)[^\\\n]|(?!\k<q>\k<qc>)\\+\k<qc>){1,200}?)\k<q>\k<qc>`;

/** A 40-character AWS secret access key (base64 alphabet, not all hex: git SHAs stay). */
const AWS_SECRET_40 = String
  .raw`(?<![A-Za-z0-9/+=])(?![0-9a-fA-F]{40}(?![A-Za-z0-9/+=]))[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`;

/** An AWS access key id (also at the start of a JSON-escaped line, after `\\n`). */
const AWS_KEY_ID = String
  .raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9]))(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`;

/** Up to 40 characters on the same line (a real or an escaped line break ends it). */
const NEAR = String.raw`(?:(?!\\+[nr])[^\n]){0,40}?`;

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
  // An environment variable naming its auth secret (`REDISCLI_AUTH=…`: trial 128 F4); not
  // `AUTH_URL`, `NEXTAUTH_SECRET` reads as SECRET.
  "(?<=_)AUTH(?==)",
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

/** A name holding a key word (DB_PASSWORD, secret_key, PGPASSWORD), its closing quote allowed. */
const KEY_NAME = String.raw`(?:[A-Za-z0-9]+[_.-]?)??(?:${
  KEY_WORDS.join("|")
})(?:[_.-][A-Za-z0-9]+)*(?:\\*["'])?`;

/** A type annotation between a name and its `=` (Python's `PASSWORD: str = "…"`, TypeScript's). */
const ANNOTATION = String.raw`(?:[ \t]*:[ \t]*[A-Za-z_][\w.|\[\], ]{0,40}?(?=[ \t]*=[^=>]))?`;

/** An HTML-escaped quote: `&quot;`, `&apos;`, `&#34;`, `&#39;`, `&#x22;`, `&#x27;`. */
const HTML_QUOTE = String.raw`&(?:quot|apos|#0*3[49]|#[xX]0*2[27]);`;

/**
 * A value between HTML-escaped quotes (`password=&quot;…&quot;`, a page or a template read as
 * text), to the same escaped quote. Its group is `w`: a rule holding it holds `v` too.
 */
const HTML_QUOTED = String
  .raw`(?<hq>${HTML_QUOTE})(?<w>(?:(?!\k<hq>)[^\n<>]){1,200}?)\k<hq>`;

/** One word of an unquoted multi-word value (no quotes, brackets, escapes or code marks). */
const WORD = String.raw`[^\s"'\x60\\(){}\[\]<>]+`;

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
    // A Sentry DSN's key (and a legacy DSN's secret after it): https://<32 hex>@o1.ingest.sentry.io/2.
    kind: "sentry_dsn",
    re: String
      .raw`\bhttps?://(?<v>[0-9a-f]{32}(?::[0-9a-f]{32})?)@(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]*sentry[A-Za-z0-9-]*\.[A-Za-z]`,
  },
  {
    kind: "url_credentials",
    re: String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:(?<v>[^\s@/]{3,})@`,
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
  {
    // An Azure shared access signature's signature (`sig=` of a SAS URL or of a connection
    // string's `SharedAccessSignature=`, or a Service Bus `SharedAccessSignature sr=…&sig=…`
    // header): base64, URL-encoded or not. It alone makes the URL a credential.
    kind: "azure_sas",
    re: String.raw`(?<![A-Za-z_-])sig=(?<v>(?:[A-Za-z0-9+/]|%2[BbFf]){20,}(?:=|%3[Dd]){0,2})`,
  },
  {
    // The console's and credentials.csv's label: `Secret access key: <v>`, on the next line too.
    kind: "aws_secret",
    re: String
      .raw`(?<![A-Za-z0-9])(?:[Ss]ecret[ _-]?[Aa]ccess[ _-]?[Kk]ey|SECRET[ _-]?ACCESS[ _-]?KEY)(?:\\*["'])?[ \t]*[:=]?(?:\s|\\+[nrt])*(?:\\*["'])?(?<v>${AWS_SECRET_40})`,
  },
  {
    // A secret beside its key id on one line: prose, credentials.csv (`AKIA…,<v>`), a table.
    kind: "aws_secret",
    around: true,
    re: String.raw`${AWS_KEY_ID}${NEAR}(?<v>${AWS_SECRET_40})`,
  },
  {
    kind: "aws_secret",
    around: true,
    re: String.raw`(?<v>${AWS_SECRET_40})${NEAR}${AWS_KEY_ID}`,
  },
  { kind: "aws_key", examples: true, re: AWS_KEY_ID },
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
  { kind: "npm_token", re: String.raw`\bnpm_[A-Za-z0-9]{36,}\b` },
  { kind: "pypi_token", re: String.raw`\bpypi-AgE[A-Za-z0-9_-]{50,}` },
  { kind: "twilio_key", re: String.raw`\bSK[0-9a-fA-F]{32}\b` },
  { kind: "shopify_token", re: String.raw`\bshp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}\b` },
  // A Mailgun API key (`key-` and 32 characters), which masked whole with the name before it
  // (`MAILGUN=key-…` as one high-entropy run) lost that name (trial 127 F10).
  { kind: "mailgun_key", re: String.raw`(?<![A-Za-z0-9_-])key-[0-9a-z]{32}(?![A-Za-z0-9_-])` },
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
      .raw`\b(?:[Bb]earer|BEARER|[Tt]oken(?= [A-Za-z0-9]{30,}))\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)`,
  },
  // A Basic authorization's user:password in base64 (it was labelled bearer_token: trial 127 F10).
  { kind: "basic_auth", re: String.raw`\b(?:[Bb]asic|BASIC)\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)` },
  {
    // A line of a .env file (or of a shell script) whose name says secret: the whole rest
    // of the line is the value, quoted or not (its quotes JSON-escaped too: `\"…\"`); a lone
    // "\n" (JSON-escaped text) ends a line too; a line number in front (`cat -n`, a read
    // tool's `12→`) is allowed.
    kind: "assignment",
    line: true,
    re: String
      .raw`(?<=^|\n|\\n)(?:[ \t]*\d+(?:\t|→|:|\|)[ \t]?)?(?:export[ \t]+)?[A-Za-z0-9_]*?(?:${
      ENV_WORDS.join("|")
    })[A-Za-z0-9_]*=(?:\\*["'])?(?<v>(?!=)(?<=")[^"\\\n]+(?=\\*")|(?<=')[^'\\\n]+(?=\\*')|(?<=[=\s])[^\s"'\\\x60(){}<>]+)(?:\\*["'])?(?=[ \t]*(?:#[^\n]*)?(?:\r?\n|\\+[rn]|$))`,
  },
  {
    // A key word's quoted value, whole: spaces in it (a passphrase), escaped quotes too, or
    // HTML-escaped ones; after `=>` (a Ruby or PHP hash) or a type annotation too.
    kind: "assignment",
    re: String
      .raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9\\]))${KEY_NAME}(?:${HTML_QUOTE})?${ANNOTATION}\s*(?:=>|[:=：])\s*(?:${QUOTED}|${HTML_QUOTED})`,
  },
  {
    // PHP's `define('DB_PASSWORD', '…')` (wp-config.php: trial 128 F4).
    kind: "assignment",
    re: String.raw`\bdefine\([ \t]*\\*["']${KEY_NAME}[ \t]*,[ \t]*${QUOTED}`,
  },
  {
    // YAML or ini: a key word starting a line, then an unquoted value of several words
    // running to the end of the line (a comment after " #" is not part of it). `=` needs a
    // space before it: `PGPASSWORD=pw psql` is a shell command, its value one word.
    kind: "assignment",
    re: String
      .raw`(?<=^|\n|\\n)[ \t]*(?:- )?${KEY_NAME}(?:[ \t]*[:：][ \t]+|[ \t]+=[ \t]*)(?<v>(?![!|>&*%@])${WORD}(?:[ \t]+(?!#)${WORD})+)(?=[ \t]*(?:[ \t]#[^\n\\]*)?(?:\r?\n|\\+[rn]|\\*["']|$))`,
  },
  {
    // A key word, possibly inside a longer name (DB_PASSWORD, secret_key, PGPASSWORD),
    // then = or : (also the full-width ：), then the value (see acceptAssignment). Quotes may
    // be JSON-escaped (\"password\": \"…\"); a PEM block is left to the private_key rule.
    kind: "assignment",
    re: String
      .raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9\\]))${KEY_NAME}\s*(?::=|=>|[:=：])\s*(?:\\*["'])?(?<v>(?!-----BEGIN)[^\s"'\x60,;()\[\]{}<>\\]{6,})(?=[\s"'\x60,;)\]}>\\]|$)`,
  },
  {
    // A .netrc entry: `machine HOST login USER password VALUE`, on one line or several; the
    // value quoted too (`password "…"`, as curl reads it: trial 128 F4).
    kind: "netrc_password",
    re: String
      .raw`(?:(?<=\\[nrt])|\b)(?:machine[ \t]+\S+|default)(?:(?:\s|\\[nrt])+(?:login|account|port)[ \t]+\S+)*(?:\s|\\[nrt])+password[ \t]+(?:${QUOTED}|(?<w>[^\s"'\x60\\]{3,}))`,
  },
  {
    // curl/wget/httpie `-u user:password`.
    kind: "cli_password",
    re: String
      .raw`\b(?:curl|wget|http|https|xh)\b[^\n]{0,400}?\s(?:-u|--user|--http-user)(?:\s+|=)["']?[^\s:"'$]+:(?<v>[^\s"'@]{3,})`,
  },
  {
    // `--password "two words"`, `--password='…'`: the quoted value whole.
    kind: "cli_password",
    re: String
      .raw`(?<![A-Za-z0-9-])--(?:password|passwd|token|api-key|secret)(?:=|\s+)${QUOTED}`,
  },
  {
    kind: "cli_password",
    re: String
      .raw`(?<![A-Za-z0-9-])--(?:password|passwd|token|api-key|secret)(?:=|\s+)(?<v>[^\s"'\x60]{4,})`,
  },
  {
    kind: "cli_password",
    re: String.raw`\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]{0,400}?\s-p${QUOTED}`,
  },
  {
    // mysql's `-p<password>`.
    kind: "cli_password",
    re: String
      .raw`\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]{0,400}?\s-p(?<v>[^\s"'\x60]{4,})`,
  },
  {
    // A flag that takes a password in the commands that have one: a registry login's `-p`,
    // sshpass's `-p`, redis-cli's `-a`, mongosh's `-p`, the LDAP tools' `-w`, zip's `-P`.
    // Elsewhere `-p` is a port, a parents flag or a patch mode (`ssh -p 2222`, `mkdir -p`,
    // `git add -p`): only a value that looks random is masked there (the rule below).
    // A login's and sshpass's value may be joined to the flag (`-pX`, `-p"X"`), and sshpass
    // may have its own flags before `-p` (`-v`, `-P prompt`, `-d n`: trial 128 F3); 7-Zip's
    // `-p` takes its value joined only (`7z a -pX`; a lone `-p` asks for it).
    kind: "cli_password",
    re: String
      .raw`(?:(?:\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login\b[^\n;|&]{0,200}?[ \t]-p|\bsshpass(?:[ \t]+-(?:[vV]+|[Pd][ \t]*[^\s-]\S*))*[ \t]+-p)(?:[ \t]+|=)?|\b7z[arz]?\b[^\n;|&]{0,200}?[ \t]-p(?!\s)|(?:\bredis-cli\b[^\n;|&]{0,200}?[ \t](?:-a|--pass)|\bmongo(?:sh)?\b[^\n;|&]{0,200}?[ \t]-p|\bldap[a-z]+\b[^\n;|&]{0,200}?[ \t]-w|\b(?:zip|unzip)\b[^\n;|&]{0,200}?[ \t]-P)(?:[ \t]+|=))(?:${QUOTED}|(?<w>[^\s"'\x60]{3,}))`,
  },
  {
    // `htpasswd -b [-c] FILE USER PASSWORD` (with -n, no FILE): the password is the last word.
    kind: "cli_password",
    re: String
      .raw`\bhtpasswd(?=[^\n;|&]{0,80}?[ \t]-[A-Za-z]*b)(?![^\n;|&]{0,80}?[ \t]-[A-Za-z]*n)(?:[ \t]+-[A-Za-z]+)+[ \t]+[^\s-]\S*[ \t]+[^\s-]\S*[ \t]+(?:${QUOTED}|(?<w>[^\s"'\x60]{3,}))`,
  },
  {
    kind: "cli_password",
    re: String
      .raw`\bhtpasswd(?=[^\n;|&]{0,80}?[ \t]-[A-Za-z]*b)(?=[^\n;|&]{0,80}?[ \t]-[A-Za-z]*n)(?:[ \t]+-[A-Za-z]+)+[ \t]+[^\s-]\S*[ \t]+(?:${QUOTED}|(?<w>[^\s"'\x60]{3,}))`,
  },
  {
    // OpenSSL's password argument (`-pass pass:…`, `-passin`, `-passout`), and `openssl enc -k …`;
    // the value quoted after `pass:` too (`pass:'…'`: trial 128 F3).
    kind: "cli_password",
    re: String
      .raw`(?:(?<![A-Za-z0-9-])-pass(?:in|out)?[ \t]+(?:\\*["'])?pass:|\bopenssl\b[^\n;|&]{0,200}?[ \t]-k[ \t]+)(?:${QUOTED}|(?<w>[^\s"'\x60\\]{3,}))`,
  },
  {
    // Any other `-p VALUE`: a password only when the value looks random (lib/redact.ts
    // acceptRandom), not a port, a path, a name or a package (`ssh -p 2222`, `mkdir -p build`).
    kind: "cli_password",
    random: true,
    re: String
      .raw`(?<![A-Za-z0-9_-])-p(?:[ \t]+|=)(?:${QUOTED}|(?<w>(?=[^\s"'\x60]*?[A-Z])(?=[^\s"'\x60]*?\d)[^\s"'\x60/.:@]{8,64}))(?=[\s;|&)]|$)`,
  },
  {
    // A password named in prose: `the password is hunter2`, `pwd was …`, `the password for
    // staging is …`, `passphrase = …`, `the password is: …` (trial 133 F4: a colon after the
    // verb left the value in clear); a `:` or `.` ending the sentence is not the value's
    // (lib/redact.ts keeps words, paths and placeholders); between HTML-escaped quotes the
    // value, not the `&quot` before it (trial 128 F2).
    kind: "prose_password",
    re: String
      .raw`(?<![A-Za-z0-9])(?:[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD|PHRASE)|[Pp]wd|PWD|[Ss]ecret|SECRET)(?:[ \t]+(?:for|of|to|on|at)(?:[ \t]+[^\s"'\x60:=]+){1,3}?)?[ \t]+(?:is(?:[ \t]+(?:now|still))?:?|was(?:[ \t]+changed[ \t]+to)?:?|(?:set|changed)[ \t]+to:?|=|:)[ \t]+(?:\\*["'\x60]|${HTML_QUOTE})?(?!${HTML_QUOTE})(?<v>[^\s"'\x60,;()\[\]{}<>\\]{4,64}?)(?=[.!?:]?(?:\s|$)|[\s"'\x60,;)\]}>\\]|${HTML_QUOTE})`,
  },
];

/**
 * A cheap test run before the rules: a text it does not match holds none of
 * the shapes above (each rule's required literal part is in it), so the full
 * expression is skipped. Case-sensitive on purpose: it lists the spellings.
 */
export const PREFILTER =
  /-----BEGIN|PuTTY-User|AccountKey=|AccessKey=|sig=|pypi-AgE|SK[0-9a-fA-F]|shp(?:at|ss|ca|pa)_|AUTH|[Aa]uth|SALT|[Ss]alt|CREDENTIAL|[Cc]redential|PRIVATE|[Pp]rivate|curl|wget|http|xh |:\/\/|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt)-|_live_|_test_|sk-|gsk_|xai-|hf_|npm_|xox[abprse]-|AIza|ya29\.|eyJ|[Bb]earer|BEARER|[Bb]asic|BASIC|[Pp]ass|PASS|[Pp]wd|PWD|[Kk]ennwort|[Pp]asswort|[Mm]ot|[Cc]ontrase|[Ss]enha|[Hh]as|[Ww]achtwoord|senord|ifre|[Пп]ароль|[Тт]окен|[Сс]екрет|密码|密碼|口令|令牌|密钥|パスワード|トークン|비밀번호|토큰|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Kk]ey|KEY|SecretAccessKey|--pass|--token|--api-key|--secret|mysql|mariadb|sshpass|-p[ \t=]|-P[ \t=]|login[ \t]|7z[arz \t]|redis-cli|mongo|ldap|openssl/;
