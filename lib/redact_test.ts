import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import { redact, redactDeep, sanitizeForTerminal } from "./redact.ts";
import { ENV_CORES, PLANTED } from "../tests/_secrets.ts";

// Secret shapes: each must be caught. Built from pieces so no real-looking
// token sits in the source as one string.
const SECRETS: Array<[string, string]> = [
  ["aws_key", "AKIA" + "IOSFODNN7Q2WB4XZ"],
  ["github_token", "ghp_" + "a".repeat(36)],
  ["github_token", "github_pat_" + "11ABCDEFG".repeat(4)],
  ["gitlab_token", "glpat-" + "x1Y2z3".repeat(4)],
  ["stripe_key", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"],
  ["anthropic_key", "sk-ant-api03-" + "Zz9".repeat(10)],
  ["openai_key", "sk-proj-" + "Ab1".repeat(10)],
  ["groq_key", "gsk_" + "Q".repeat(30)],
  ["xai_key", "xai-" + "k".repeat(40)],
  ["huggingface_token", "hf_" + "abcDEF".repeat(6)],
  ["npm_token", "npm_" + "a1B2".repeat(9)],
  ["slack_token", "xoxb-" + "1234567890-abcdefghij"],
  ["google_api_key", "AIza" + "SyA-1234567890abcdefghijklmnopqrstu"],
  [
    "jwt",
    "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." +
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  ],
];

for (const [kind, secret] of SECRETS) {
  Deno.test(`redact replaces a ${kind} and keeps the words around it`, () => {
    const counts: Record<string, number> = {};
    const out = redact(`before ${secret} after`, counts);
    assertEquals(out.includes(secret), false, out);
    assertStringIncludes(out, `[redacted:${kind}]`);
    assertStringIncludes(out, "before ");
    assertStringIncludes(out, " after");
    assertEquals(counts[kind], 1);
  });
}

Deno.test("redact removes a private key block whole", () => {
  const block =
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----";
  const c = {};
  assertEquals(redact(`key:\n${block}\ndone`, c), "key:\n[redacted:private_key]\ndone");
});

Deno.test("redact keeps the user of a URL and drops its password", () => {
  const c: Record<string, number> = {};
  assertEquals(
    redact("clone https://bob:hunter2secret@git.example.com/r.git now", c),
    "clone https://bob:[redacted:url_credentials]@git.example.com/r.git now",
  );
  // A password with no user, Redis's usual form (trial 114 F3: stored as written).
  assertEquals(
    redact("REDIS_URL=redis://:Kq8vT2pLx9@cache:6379/0 and postgresql://:s3cr3tpw@db/app", c),
    "REDIS_URL=redis://:[redacted:url_credentials]@cache:6379/0 and " +
      "postgresql://:[redacted:url_credentials]@db/app",
  );
  // No credentials: a port, an IPv6 host.
  assertEquals(
    redact("http://[::1]:8080/x and http://host:8080/a@b", c),
    "http://[::1]:8080/x and http://host:8080/a@b",
  );
});

Deno.test("redact replaces only the value of password and token assignments", () => {
  const c: Record<string, number> = {};
  assertEquals(redact("DB_PASSWORD=Sup3rS3cretValue", c), "DB_PASSWORD=[redacted:assignment]");
  assertEquals(redact(`"api_key": "abcd1234efgh5678"`, c), `"api_key": "[redacted:assignment]"`);
  assertEquals(redact("пароль: qwerty12345678", c), "пароль: [redacted:assignment]");
  assertEquals(
    redact("Authorization: Bearer abcdef0123456789abcdef", c),
    "Authorization: Bearer [redacted:bearer_token]",
  );
});

// Look-alikes: must survive untouched.
const LOOKALIKES = [
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
  "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "session 123e4567-e89b-12d3-a456-426614174000",
  "/home/dev/work/src/components/token-input.tsx",
  "const token = getToken(request);",
  "password: ********",
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
  "the skeleton key of the task",
  "npm_config_cache is set",
];
for (const text of LOOKALIKES) {
  Deno.test(`redact leaves the look-alike ${JSON.stringify(text.slice(0, 30))} alone`, () => {
    const c: Record<string, number> = {};
    assertEquals(redact(text, c), text);
    assertEquals(Object.keys(c).length, 0);
  });
}

Deno.test("sanitizeForTerminal strips escape sequences and bidi controls", () => {
  assertEquals(sanitizeForTerminal("a\x1b[31mred\x1b[0m b\u202Ec\x07"), "ared bc");
  assertEquals(sanitizeForTerminal("title\x1b]0;pwned\x07 ok"), "title ok");
});

Deno.test("redact catches the password forms people really write", () => {
  const cases: Array<[string, string]> = [
    ["PGPASSWORD=pgpw444 psql", "PGPASSWORD=[redacted:assignment] psql"],
    [`DB_PASSWORD="dbpw555"`, `DB_PASSWORD="[redacted:assignment]"`],
    [`PASSWORD: "correcthorsebattery"`, `PASSWORD: "[redacted:assignment]"`],
    [`secret_key = "sk777secret"`, `secret_key = "[redacted:assignment]"`],
    ["mysql -u root -pmysqlpw666 db", "mysql -u root -p[redacted:cli_password] db"],
    ["app --password clipw333 --x", "app --password [redacted:cli_password] --x"],
  ];
  for (const [input, want] of cases) assertEquals(redact(input, {}), want, input);
});

Deno.test("redact leaves code and placeholders after key words alone", () => {
  for (
    const text of [
      "api_key: process.env.API_KEY",
      "the token: abcdef",
      "const password = await askUser();",
      `"tokens": 12345`,
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redactDeep redacts strings inside parser state", () => {
  const key = "AKIA" + "ABCDEFGHIJKLMNOP";
  assertEquals(redactDeep({ title: `Rotate ${key}`, n: 1, list: [key] }, {}), {
    title: "Rotate [redacted:aws_key]",
    n: 1,
    list: ["[redacted:aws_key]"],
  });
});

Deno.test("sanitizeForTerminal turns a lone carriage return into a newline and keeps CRLF", () => {
  assertEquals(sanitizeForTerminal("a\r\nb\rc"), "a\r\nb\nc");
});

// --- The corpus: every secret shape caught, every look-alike untouched -----------------
// Secrets are assembled from pieces so no real-looking token sits in the source whole.
const R40 = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "EXAMPLEKEY";
const CORPUS_SECRETS: Array<[kind: string, text: string, secret: string]> = [
  ["aws_secret", `aws_secret_access_key = ${R40}`, R40],
  ["aws_secret", `"SecretAccessKey": "${R40}"`, R40],
  [
    "aws_key",
    "export AWS_ACCESS_KEY_ID=" + "ASIA" + "Y3FDSNDKFKSIDJSW",
    "ASIA" + "Y3FDSNDKFKSIDJSW",
  ],
  [
    "gitlab_token",
    "CI token " + "glrt-" + "aB3dE5fG7hI9jK1lM3nO",
    "glrt-" + "aB3dE5fG7hI9jK1lM3nO",
  ],
  [
    "stripe_key",
    "whsec_" + "test_" + "Abc123Def456Ghi789Jkl",
    "whsec_" + "test_" + "Abc123Def456Ghi789Jkl",
  ],
  [
    "slack_webhook",
    "post to https://hooks.slack.com/services/" + "T0000/B0000/XXXXXXXXXXXXXXXXXXXX",
    "T0000/B0000/XXXXXXXXXXXXXXXXXXXX",
  ],
  [
    "google_oauth_token",
    "token ya29." + "a0AfH6SMBx1-Qz9Yp2kLmNoPqRsTuV",
    "ya29." + "a0AfH6SMBx1-Qz9Yp2kLmNoPqRsTuV",
  ],
  [
    "basic_auth",
    "curl -H 'Authorization: Basic " + "dXNlcjpwYXNzd29yZDEyMzQ1" + "'",
    "dXNlcjpwYXNzd29yZDEyMzQ1",
  ],
  [
    "bearer_token",
    "Authorization: token " + "0123456789abcdef0123456789abcdef01234567",
    "0123456789abcdef0123456789abcdef01234567",
  ],
  ["assignment", "Passwort: Geheim2026Sommer", "Geheim2026Sommer"],
  ["assignment", "mot de passe = Soleil2026Lune", "Soleil2026Lune"],
  ["assignment", "contraseña: Clave2026Segura", "Clave2026Segura"],
  ["assignment", "senha=Segredo2026Forte", "Segredo2026Forte"],
  ["assignment", "hasło: Tajne2026Bardzo", "Tajne2026Bardzo"],
  ["assignment", "токен: abc123def456ghi", "abc123def456ghi"],
  ["assignment", "密码：mima2026abc", "mima2026abc"],
  ["assignment", "パスワード: himitsu2026x", "himitsu2026x"],
  ["assignment", "비밀번호=bimil2026pw", "bimil2026pw"],
  ["assignment", "private_key: 'MIIEvQIBADANBgkqhkiG9w0B'", "MIIEvQIBADANBgkqhkiG9w0B"],
  [
    "private_key",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----",
    "lQOYBF",
  ],
  ["entropy", "SESSION_SIGNING = Zx8Qp2Lm9Vt4Rk7Wn3Bc6Hd1", "Zx8Qp2Lm9Vt4Rk7Wn3Bc6Hd1"],
  // Separators do not make a random value a name: its parts change case at every other character.
  ["entropy", "deploy_salt = Zx8-Qp2_Lm9Vt4Rk7Wn3Bc6Hd1", "Zx8-Qp2_Lm9Vt4Rk7Wn3Bc6Hd1"],
  ["entropy", '"build_ref": "hzsXXFVYQLSaon-qO8poTA7xWq"', "hzsXXFVYQLSaon-qO8poTA7xWq"],
  [
    "entropy",
    "here it is:\n  Q7mZp3Xk9Lw2Vr8Tn4Ys6Bd1Hc5Jf0Ga\nthanks",
    "Q7mZp3Xk9Lw2Vr8Tn4Ys6Bd1Hc5Jf0Ga",
  ],
];
for (const [kind, text, secret] of CORPUS_SECRETS) {
  Deno.test(`redact catches ${kind} in ${JSON.stringify(text.slice(0, 28))}`, () => {
    const c: Record<string, number> = {};
    const out = redact(text, c);
    assertEquals(out.includes(secret), false, out);
    assertStringIncludes(out, `[redacted:${kind}]`);
    assertEquals(c[kind] >= 1, true, JSON.stringify(c));
  });
}

const CORPUS_LOOKALIKES = [
  "md5 d41d8cd98f00b204e9800998ecf8427e and sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
  "image: ghcr.io/acme/app@sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
  "request id 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b failed",
  "ERROR 550e8400-e29b-41d4-a716-446655440000",
  "open /Users/dev/Projects/acme-web/src/components/CheckoutSummary.tsx",
  "C:\\Users\\dev\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe",
  "see https://github.com/denoland/deno/blob/main/cli/tools/registry/mod.rs#L120",
  '"integrity": "sha512-GNWcUTRBgIRJD5zj+Tq0fKOJ5XZajIiBroOF0yvj2bSU1WvNdYS/dn9UxwsujGW4JX06dnHyjV2y9rRaybH0iQ=="',
  "golang.org/x/text v0.3.7 h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk=",
  '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAAXNSR0IArs4c6QAAADhlWElmTU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAAAAAAqACAAQAAAABAAAAEKADAAQAAAABAAAAEAAAAAA0VXHyAAAA">',
  "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\nRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD\nVQQDExlCYWx0aW1vcmUgQ3liZXJUcnVzdCBSb290MB4XDTAwMDUxMjE4NDYwMFoX\n-----END CERTIFICATE-----",
  "const resolveUserProfileSettingsForAccount = makeHandler();",
  "token_count: 12345, max_tokens: 4096, tokenizer: cl100k_base",
  "version 2.1.300 (build 20261101.3) on node v20.20.2",
  "git log a1b2c3d..e4f5a6b --oneline",
  "the password field must be at least 12 characters",
  "set PASSWORD_MIN_LENGTH to 12 and keep it",
  "Bearer tokens are checked by the middleware",
  "task-runner disk-usage risk-score ask-before-run",
  "export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
  "CamelCaseIdentifierWithoutAnyDigitsInItAtAll = true",
  // Names made of words and numbers: an ISBN in a path, dated and numbered file names.
  '"file_path": "docs/978-0-13-468599-1/CleanArchitecture_Ch07.md"',
  "file: Books/978-0-13-468599-1/CH07/Fig_07-12B.png",
  '"path": "reports/Q3-2024/Sales_Report_2024-09-30_v2_FINAL.xlsx"',
  "saved to:\n  Invoices/2024/INV-2024-05-17_Acme-GmbH_Q2\nok",
  // Request ids in an API error's text (a user trial saw them redacted).
  'API Error: 529 {"type":"error","error":{"type":"overloaded_error"},"request_id":"req_011CZjHc3FjLNWZD3hatwdev"}',
  "requestId: req_011CWrSB1S4Z9PK6DTG2Nwii",
  "x-request-id: Lueba0S7TW-A0yfto3UVLgQ9zK",
  '"Request-Id": "hzsXXFVYQLSaon-qO8poTA7xWq"',
];
for (const text of CORPUS_LOOKALIKES) {
  Deno.test(`redact leaves the look-alike ${JSON.stringify(text.slice(0, 36))} whole`, () => {
    const c: Record<string, number> = {};
    assertEquals(redact(text, c), text);
    assertEquals(c, {});
  });
}

Deno.test("sanitizeForTerminal strips C1 controls and invisible characters, keeping newlines and tabs", () => {
  assertEquals(
    sanitizeForTerminal("a\u009b31mb\u200bc\u00add\ufeffe\u2060f\udb40\udc41g\th\ni"),
    "abcdefg\th\ni",
  );
});

// --- Issue 14 item 6 kinds and issue 10 item 9 placeholders ---------------------------
// Each planted kind (tests/_secrets.ts) is caught as written, JSON-escaped once (a tool's
// arguments) and twice (a JSON file written by a tool); its placeholder stays as written.
const forms: Array<[string, (s: string) => string]> = [
  ["as written", (s) => s],
  ["JSON-escaped", (s) => JSON.stringify({ content: s })],
  ["JSON-escaped twice", (s) => JSON.stringify({ content: JSON.stringify({ file: s }) })],
];
for (const p of PLANTED) {
  for (const [how, f] of forms) {
    Deno.test(`redact catches a ${p.name} ${how}`, () => {
      const c: Record<string, number> = {};
      const out = redact(f(p.text), c);
      const cores = p.name === ".env file" ? ENV_CORES : [p.core];
      for (const core of cores) assertEquals(out.includes(core), false, out);
      assertStringIncludes(out, "[redacted:");
    });
    Deno.test(`redact keeps the ${p.name} placeholder ${how}`, () => {
      const c: Record<string, number> = {};
      assertEquals(redact(f(p.keep), c), f(p.keep));
      assertEquals(c, {});
    });
  }
}

Deno.test("redact names the new provider shapes by kind", () => {
  const hex = "0a1b2c3d4e5f6a7b" + "8c9d0e1f2a3b4c5d";
  const cases: Array<[string, string]> = [
    [`key SK${hex} ok`, "twilio_key"],
    [`token shpca_${hex} ok`, "shopify_token"],
    [`token shppa_${hex} ok`, "shopify_token"],
    ["AccountKey=" + "c3RvcmFnZWtleQ".repeat(4) + "==;", "azure_storage_key"],
    ["pypi-AgEIcHlwaS5vcmc" + "Ab1Cd2Ef3Gh4".repeat(5), "pypi_token"],
    ["curl --user ci:Tr0ub4dor-3 https://x.example", "cli_password"],
    [
      "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIEx9\nPrivate-MAC: 0a1b",
      "private_key",
    ],
  ];
  for (const [text, kind] of cases) {
    const c: Record<string, number> = {};
    redact(text, c);
    assertEquals(c[kind], 1, `${text}: ${JSON.stringify(c)}`);
  }
});

Deno.test("redact leaves variable references and placeholders after key words as written", () => {
  for (
    const text of [
      "$aws_access_key_id = $env.AWS_ACCESS_KEY_ID",
      `"apiKey": "YOUR_API_KEY"`,
      `private_key = "your-private-key"`,
      `export OPENAI_API_KEY="\${OPENAI_API_KEY}"`,
      "token: ${{ secrets.GITHUB_TOKEN }}",
      `api_key = os.environ["OPENAI_API_KEY"]`,
      "PRIVATE_KEY=process.env.PRIVATE_KEY",
      `"password": "<password>"`,
      "DB_PASSWORD=changeme",
      "SECRET_KEY=%SECRET_KEY%",
      "client_secret: xxxxxxxxxxxxxxxx",
      `"token": "…"`,
      "curl -u user:password https://example.com",
      "curl -u $USER:$TOKEN https://example.com",
      "docker run -u 1000:1000 app",
      "KEY_SIZE=2048\nTOKEN_TTL=3600\nAUTH_ENABLED=true",
      "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
      "-----BEGIN RSA PRIVATE KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----",
      // Trial 139 L3: masked, so `deja optional-key` found nothing.
      `SCHEDULE_API_KEY: "optional-key"`,
      "postgres://admin:pwd@db:5432/app",
      "postgres://admin:pass@db/app",
    ]
  ) {
    const c: Record<string, number> = {};
    assertEquals(redact(text, c), text, text);
  }
});

Deno.test("redact still catches a real value beside a rejected placeholder", () => {
  const out = redact(
    "curl -u $U:$P -H 'Authorization: Bearer abcdef0123456789abcdef' https://x.example",
    {},
  );
  assertStringIncludes(out, "[redacted:bearer_token]");
  assertStringIncludes(out, "-u $U:$P");
});

// --- Multi-word passwords, AWS secret keys beside their id, Sentry DSNs -----------------
Deno.test("redact takes a quoted or line-long password whole, not its first word", () => {
  const phrase = "correct horse " + "battery staple";
  const cases: Array<[string, string]> = [
    [`{"password": "${phrase}"}`, `{"password": "[redacted:assignment]"}`],
    [`DB_PASSWORD="${phrase}" && run`, `DB_PASSWORD="[redacted:assignment]" && run`],
    [`password: ${phrase}`, "password: [redacted:assignment]"],
    [`password = ${phrase} # prod`, "password = [redacted:assignment] # prod"],
    [
      `"password": "my \\"quoted\\" pass", "user": "bob"`,
      `"password": "[redacted:assignment]", "user": "bob"`,
    ],
    [`mysql --password="my secret pass" db`, `mysql --password="[redacted:cli_password]" db`],
    [`--password "hunter two words"`, `--password "[redacted:cli_password]"`],
    [`mysql -u root -p"two words here" db`, `mysql -u root -p"[redacted:cli_password]" db`],
    ["sshpass -p Hunter2pass ssh host", "sshpass -p [redacted:cli_password] ssh host"],
  ];
  for (const [input, want] of cases) assertEquals(redact(input, {}), want, input);
});

Deno.test("redact leaves messages and code after a password key word alone", () => {
  for (
    const text of [
      "password: must be at least 12 characters",
      `"password": "Please enter a password."`,
      "Token: the one from the vault",
      "password = get_password(user)",
      "password = None if x else y",
      "  password: !vault |",
      `secret_data = "postgres://app:\${random_password.db.result}@localhost/app"`,
    ]
  ) {
    const c: Record<string, number> = {};
    assertEquals(redact(text, c), text, text);
  }
});

Deno.test("redact catches an AWS secret key beside its key id or label, and keeps hashes", () => {
  const id = "AKIA" + "IOSFODNN7Q2WB4XZ";
  const sk = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "zQ8Lk3mN9p";
  const cases: Array<[string, string]> = [
    [
      `my aws key is ${id} and secret ${sk}`,
      "my aws key is [redacted:aws_key] and secret [redacted:aws_secret]",
    ],
    [`Secret access key: ${sk}`, "Secret access key: [redacted:aws_secret]"],
    [`${id},${sk}`, "[redacted:aws_key],[redacted:aws_secret]"],
    [`${sk} ${id}`, "[redacted:aws_secret] [redacted:aws_key]"],
  ];
  for (const [input, want] of cases) assertEquals(redact(input, {}), want, input);
  for (
    const text of [
      "AKIAXXXXXXXXXXXXXXXX at commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
      "AKIA" + "IOSFODNN7EXAMPLE",
      "AKIA" + "0".repeat(16),
      "checksum aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7b in the log",
    ]
  ) {
    const c: Record<string, number> = {};
    assertEquals(redact(text, c), text, text);
  }
});

Deno.test("redact catches a Sentry DSN's key and long npm tokens", () => {
  const dsn = "https://" + "3f9a1c7e5b2d4f60" + "8a9b1c2d3e4f5a6b" + "@o123.ingest.sentry.io/456";
  assertEquals(redact(dsn, {}), "https://[redacted:sentry_dsn]@o123.ingest.sentry.io/456");
  assertEquals(redact(`token npm_${"a1B2".repeat(10)} ok`, {}), "token [redacted:npm_token] ok");
});

Deno.test("a second pass changes and counts nothing an earlier pass masked", () => {
  const first: Record<string, number> = {};
  const once = redact(
    'dsn https://0123456789abcdef0123456789abcdef@o123.ingest.sentry.io/456 and password="hunter2 x"',
    first,
  );
  assert(once.includes("[redacted:sentry_dsn]"), once);
  const second: Record<string, number> = {};
  assertEquals(redact(once, second), once);
  assertEquals(second, {});
});

Deno.test("redact keeps a .env setting whose name says secret but whose value is a number with a unit or rate", () => {
  const settings = [
    "AUTH_RATE_LIMIT=5/minute",
    "AUTH_RATE_LIMIT=5/minute;100/hour",
    'AUTH_RATE_LIMIT="5 per minute"',
    "TOKEN_TTL=3600s",
    "AUTH_TIMEOUT=1.5h",
    "TOKEN_MAX_SIZE=512MB",
    "SECRET_ROTATE_EVERY=30d",
    "PASSWORD_MIN_LENGTH=12",
  ];
  for (const line of settings) {
    const counts: Record<string, number> = {};
    assertEquals(redact(`${line}\nPORT=8080`, counts), `${line}\nPORT=8080`, line);
    assertEquals(counts, {}, line);
  }
  // A value that only starts like a number is still a secret.
  for (const line of ["SECRET=9fjkqwpzmx", "AUTH_TOKEN=5/minute-Xk29fQ", "API_KEY=10mb7Qz2LpW"]) {
    const name = line.slice(0, line.indexOf("="));
    assertEquals(redact(`${line}\n`, {}), `${name}=[redacted:assignment]\n`, line);
  }
});

// New-user trial (2026-12, Cline's real store): code after a password key word was masked, so a
// Terraform file or a login handler read back could not be searched.
Deno.test("redact leaves a reference in code after a key word alone, and still masks values", () => {
  const c = {};
  for (
    const text of [
      "password = random_password.db_password.result",
      "secret = google_secret_manager_secret.db_url.id",
      "password_hash = EXCLUDED.password_hash,",
      "const password = credentials.password as string;",
      "token: response.data.access_token",
      "password = self.password",
      "secret = settings.DATABASES.default.PASSWORD",
      "token: config.authToken",
      "password := getPassword()",
    ]
  ) assertEquals(redact(text, c), text);
  for (
    const [text, want] of [
      ["password = Summer2024.Secret", "password = [redacted:assignment]"],
      // Words joined by dots that read as no reference in code are a passphrase (trial 15).
      ["password = correct.horse", "password = [redacted:assignment]"],
      ["DATABASE_PASSWORD: prod.db.pass", "DATABASE_PASSWORD: [redacted:assignment]"],
      ["PGPASSWORD=my.pg.pass psql -h db", "PGPASSWORD=[redacted:"],
      ["password := hunter2hunter2", "password := [redacted:assignment]"],
      ["password = hunter2", "password = [redacted:assignment]"],
      ["api_key = sk_live_abcdefghijklmnopqrstuvwx", "api_key = [redacted:"],
      [`password = "credentials.password"`, `password = "[redacted:assignment]"`],
    ]
  ) assertStringIncludes(redact(text, c), want);
});

// --- Trial 127: values the redactor let through ------------------------------------------
// Each value is built from pieces so that no secret-looking literal sits in the source.
const PW = (tag: string) => tag + "q6aZ8" + "kLw2PxR7";

Deno.test("redact masks a password after a command's -p flag, quoted or not (trial 127 F1)", () => {
  const cases: Array<[string, string]> = [
    [`docker login -u me -p ${PW("D")} registry.io`, "docker login -u me -p # registry.io"],
    [`docker login -p '${PW("D")}' reg`, "docker login -p '#' reg"],
    [`podman login --username me -p=${PW("P")} quay.io`, "podman login --username me -p=# quay.io"],
    [`sshpass -p '${PW("S")}' ssh box`, "sshpass -p '#' ssh box"],
    [`sshpass -p "${PW("S")}" ssh box`, `sshpass -p "#" ssh box`],
    [`mysql -u root -p${PW("M")} app`, "mysql -u root -p# app"],
    [
      `mongosh -u admin -p ${PW("G")} --authenticationDatabase admin`,
      "mongosh -u admin -p # --authenticationDatabase admin",
    ],
    [`ldapsearch -x -D cn=admin -w ${PW("L")} -b dc=x`, "ldapsearch -x -D cn=admin -w # -b dc=x"],
    [`zip -P ${PW("Z")} out.zip a.txt`, "zip -P # out.zip a.txt"],
    // Another command's -p whose value looks random.
    [`./deploy.sh -p ${PW("R")} --env prod`, "./deploy.sh -p # --env prod"],
  ];
  for (const [input, want] of cases) {
    assertEquals(redact(input, {}), want.replace("#", "[redacted:cli_password]"), input);
  }
});

Deno.test("redact leaves -p flags that are no password alone (trial 127 F1)", () => {
  for (
    const text of [
      "ssh -p 2222 user@host",
      "docker run -p 8080:80 -p 127.0.0.1:9000:9000 nginx",
      "mkdir -p build/output/MyProject2",
      "mkdir -p MyProject2",
      "git add -p src/main.ts",
      "python -m http.server -p 8000",
      "cargo test -p deja-core2",
      "tsc -p tsconfig.build.json",
      "pytest -p no:cacheprovider",
      "node -p \"require('./package.json').version\"",
      "docker login -u me --password-stdin registry.io",
      "docker login -u me -p $REGISTRY_PASSWORD registry.io",
      "mysql -u root -p app",
      // After the joined -pX of a login and sshpass (trial 128 F3).
      "ssh -p 2222 deploy@host",
      "docker run -p 8080:80 nginx",
      "mkdir -p build",
      "git add -p",
      "psql -p 5432",
      "python -m pytest -p no:cacheprovider",
      "docker run -p8080:80 nginx # then docker login",
      "sshpass -e ssh -p 2222 deploy@host",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redact masks redis-cli -a, htpasswd -b and openssl pass: passwords (trial 127 F3)", () => {
  const cases: Array<[string, string]> = [
    [`redis-cli -h cache -a ${PW("R")} ping`, "redis-cli -h cache -a # ping"],
    [`redis-cli --pass '${PW("R")}' info`, "redis-cli --pass '#' info"],
    [`htpasswd -b -c .htpasswd admin ${PW("H")}`, "htpasswd -b -c .htpasswd admin #"],
    [
      `htpasswd -cb /etc/nginx/.htpasswd admin '${PW("H")}'`,
      "htpasswd -cb /etc/nginx/.htpasswd admin '#'",
    ],
    [`htpasswd -nb admin ${PW("H")}`, "htpasswd -nb admin #"],
    [
      `openssl enc -aes-256-cbc -pass pass:${PW("O")} -in a`,
      "openssl enc -aes-256-cbc -pass pass:# -in a",
    ],
    [
      `openssl pkcs12 -export -passout pass:${PW("O")} -out c.p12`,
      "openssl pkcs12 -export -passout pass:# -out c.p12",
    ],
    [`openssl enc -d -k ${PW("K")} -in x`, "openssl enc -d -k # -in x"],
  ];
  for (const [input, want] of cases) {
    assertEquals(redact(input, {}), want.replace("#", "[redacted:cli_password]"), input);
  }
  // The user name and the file stay; a password from a file or the environment is no value.
  for (
    const text of [
      "htpasswd -c .htpasswd admin",
      "openssl enc -pass env:ENC_PASS -in a",
      "openssl rsa -passin file:pw.txt -in k.pem",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redact masks password values in hashes, annotated assignments, .netrc and HTML (trial 127 F3)", () => {
  const cases: Array<[string, string]> = [
    [`config = { "password" => "${PW("B")}" }`, `config = { "password" => "<V>" }`],
    [`$db = ['password' => '${PW("H")}'];`, `$db = ['password' => '<V>'];`],
    [`{ :api_key => "${PW("K")}" }`, `{ :api_key => "<V>" }`],
    [`PASSWORD: str = "${PW("P")}"`, `PASSWORD: str = "<V>"`],
    [`    api_token: Optional[str] = '${PW("T")}'`, `    api_token: Optional[str] = '<V>'`],
    [`let dbPassword: string = "${PW("T")}";`, `let dbPassword: string = "<V>";`],
    [`&lt;input password=&quot;${PW("E")}&quot;&gt;`, `&lt;input password=&quot;<V>&quot;&gt;`],
    [`{&#34;api_key&#34;: &#34;${PW("E")}&#34;}`, `{&#34;api_key&#34;: &#34;<V>&#34;}`],
  ];
  for (const [input, want] of cases) {
    assertEquals(redact(input, {}), want.replace("<V>", "[redacted:assignment]"), input);
  }
  const netrc: Array<[string, string]> = [
    [
      `machine github.com login ana password ${PW("N")}`,
      "machine github.com login ana password <V>",
    ],
    [
      `machine api.x.io\n  login ana\n  password ${PW("N")}\n`,
      "machine api.x.io\n  login ana\n  password <V>\n",
    ],
    [`default login anonymous password ${PW("N")}`, "default login anonymous password <V>"],
    // JSON-escaped, after an escaped line break.
    [`\\nmachine h login u password ${PW("N")}\\n`, "\\nmachine h login u password <V>\\n"],
  ];
  for (const [input, want] of netrc) {
    assertEquals(redact(input, {}), want.replace("<V>", "[redacted:netrc_password]"), input);
  }
  // Code that names no value stays.
  for (
    const text of [
      "user = { :password => params[:password] }",
      "def login(self, password: str = None) -> bool:",
      "PASSWORD: Final = os.environ['DB_PASSWORD']",
      "the machine asks for a login and a password before it boots",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redact masks an Azure SAS signature and a SharedAccessKey (trial 127 F4)", () => {
  const sig = "EhrQYN36VDLPhz1RvLP1" + "XtiyTRpfiUW3Md5FAJDPd70";
  const cases: Array<[string, string]> = [
    [
      `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2027-01-01&sr=b&sp=r&sig=${sig}%3D`,
      "https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2027-01-01&sr=b&sp=r&sig=<V>",
    ],
    [
      `BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=${sig}%3D`,
      "BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=<V>",
    ],
    [
      `Authorization: SharedAccessSignature sr=sb%3A%2F%2Fns.servicebus.windows.net&sig=${sig}=&se=1790000000&skn=send`,
      "Authorization: SharedAccessSignature sr=sb%3A%2F%2Fns.servicebus.windows.net&sig=<V>&se=1790000000&skn=send",
    ],
  ];
  for (const [input, want] of cases) {
    const c: Record<string, number> = {};
    assertEquals(redact(input, c), want.replace("<V>", "[redacted:azure_sas]"), input);
    assertEquals(c.azure_sas, 1);
  }
  assertEquals(
    redact(
      `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${sig}=`,
      {},
    ),
    "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=[redacted:azure_storage_key]",
  );
  // Not a signature: a short value, a word.
  for (const text of ["the sig=ok field", "gpg --verify x.sig=none", "sig=abc123"]) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redact masks a Discord bot token wherever it stands (trial 127 F2)", () => {
  const tokens = [
    "8cESNGP73ebDtuwVdilkDl0b" + ".srKmB7." + "FKmXXGO5jImwL44Lp5W6DBLzh-zkjQcWj-OLGI",
    "MTA4NzY1NDMyMTA5ODc2NTQzMg" + ".GhIjKl." + "Zx8Qp2Lm9Vt4Rk7Wn3Bc6Hd1-_aQ7mZp3Xk",
    "NzkyNzE1NDU0MTk2MDg4ODQy" + ".X4b9Qk." + "Hq7Lw2Zp9Rt5Vm3Kc8Nd1Fy6Gj4Bs0",
  ];
  for (const tok of tokens) {
    for (const text of [`restarted; discord bot ${tok}`, `client.run("${tok}")`, `${tok}.`]) {
      const c: Record<string, number> = {};
      const out = redact(text, c);
      assertEquals(out.includes(tok.slice(0, 12)), false, out);
      assertEquals(out.includes(tok.slice(-12)), false, out);
      assertStringIncludes(out, "[redacted:discord_token]");
      assertEquals(c.discord_token, 1);
    }
  }
  // Dotted names of the same lengths that are words, not random.
  for (
    const text of [
      "import org.springframework.boot.autoconfigure.SpringBootApplication;",
      "see aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbb.ccccccccccccccccccccccccccccccc",
      "call my_service_handler_v2_main.method.another_really_long_function_name_x",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

// Trial 130 F4: a public key's value in the Kubernetes env form was masked where a tool listed the
// file with line numbers (or a diff showed it), and so wherever the session repeated it: an edit's
// old_string could not be restored.
Deno.test("redact leaves a Kubernetes env value named as a public key in a numbered listing or a diff, and masks a secret's", () => {
  // A made-up VAPID public key (65 bytes, base64url).
  const pub = "BN3xQ7mZp2Lk9Vt4Rw8Hc1Jd6Fs0Ga5Yb3Ne7Uq2Xo9Ki4Tl1Mp8Wr6Zc0Ev5Bh3Dn7Gj2Sf9Ua4Yq1Lx8O";
  const forms = (name: string, v: string) => [
    `    27|            - name: ${name}\n    28|              value: "${v}"\n    29|  - name: X`,
    `    27→  - name: ${name}\n    28→    value: "${v}"\n`,
    `27\\t  - name: ${name}\\n28\\t    value: ${v}\\n`,
    `-            - name: ${name}\n-              value: "${v}"\n`,
    `+  - name: ${name}\n+    value: "${v}"\n`,
  ];
  for (const text of forms("VAPID_PUBLIC_KEY", pub)) assertEquals(redact(text, {}), text);
  // A secret's name in the same forms: its value is still masked.
  for (const text of forms("VAPID_PRIVATE_KEY", pub)) {
    const c: Record<string, number> = {};
    assertEquals([redact(text, c).includes(pub), c.entropy], [false, 1], text);
  }
});

Deno.test("redact leaves SOPS nonces and tags and public keys alone, keeps a name, labels basic auth (trial 127 F10)", () => {
  const b64 = (n: number) =>
    "Zx8Qp2Lm9Vt4Rk7Wn3Bc6Hd1aQ7mZp3Xk9Lw2Vr8Tn4Ys6Bd1Hc5Jf0Ga".slice(0, n);
  const pub = "BGpv" + b64(40) + "_qX61" + b64(38);
  for (
    const text of [
      `password: ENC[AES256_GCM,data:${b64(24)}==,iv:${b64(43)}=,tag:${b64(22)}==,type:str]`,
      `VAPID_PUBLIC_KEY=${pub}`,
      `const publicKey = "${pub}";`,
      `- name: VAPID_PUBLIC_KEY\n  value: \"${pub}\"`,
      `- name: VAPID_PUBLIC_KEY
  value: "${pub}"`,
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
  // The private half is still masked, and a name stays beside its masked value.
  assertEquals(
    redact(`VAPID_PRIVATE_KEY=${b64(43)}`, {}),
    "VAPID_PRIVATE_KEY=[redacted:assignment]",
  );
  assertEquals(
    redact(
      `- name: VAPID_PRIVATE_KEY
  value: "${b64(43)}"`,
      {},
    ).includes(b64(43)),
    false,
  );
  const mg = "key-" + "3ax6xnjp29jd6fds" + "4gc373sgvjxteol0";
  assertEquals(redact(`MAILGUN=${mg}`, {}), "MAILGUN=[redacted:mailgun_key]");
  assertEquals(redact(`SIGNING=${b64(36)}`, {}), "SIGNING=[redacted:entropy]");
  const c: Record<string, number> = {};
  assertEquals(
    redact("Authorization: Basic " + "ZGVwbG95OkJzNEw4R1BkTU42VWhjNmw=", c),
    "Authorization: Basic [redacted:basic_auth]",
  );
  assertEquals(c, { basic_auth: 1 });
});

// --- Trial 128: near variants the redactor let through -----------------------------------
/** A made-up password of letters only (no digit: the shape that slipped through F2). */
const LW = (tag: string) => "kiwi" + tag + "plum" + "tree";

Deno.test("redact masks a letters-only password between HTML-escaped quotes whole (trial 128 F2)", () => {
  const cases: Array<[string, string]> = [
    [`password = &quot;${LW("Z")}&quot;`, "password = &quot;<V>&quot;"],
    [`&quot;password&quot;: &quot;${LW("Y")}&quot;`, "&quot;password&quot;: &quot;<V>&quot;"],
    [`form password=&quot;${LW("X")}&quot;`, "form password=&quot;<V>&quot;"],
    [`&lt;input password=&#39;${LW("W")}&#39;&gt;`, "&lt;input password=&#39;<V>&#39;&gt;"],
  ];
  for (const [input, want] of cases) {
    assertEquals(redact(input, {}), want.replace("<V>", "[redacted:assignment]"), input);
    // Inside a tool call's JSON-escaped input, after another line.
    const call = JSON.stringify({ command: `echo 'fix the form\n${input}' > form.html` });
    const out = redact(call, {});
    assertEquals(out.includes("kiwi"), false, out);
    assertStringIncludes(out, want.replace("<V>", "[redacted:assignment]"));
  }
  // At a line's start the .env rule takes the whole value, its escaped quotes too.
  assertEquals(redact(`password=&quot;${LW("U")}&quot;`, {}), "password=[redacted:assignment]");
  // A sentence naming the password between escaped quotes: the value, not the entity, is masked.
  const prose = redact(`the password is &quot;${LW("V")}9x&quot;`, {});
  assertEquals(prose, "the password is &quot;[redacted:prose_password]&quot;");
});

Deno.test("redact masks sshpass, openssl and docker login passwords written close to their flag (trial 128 F3)", () => {
  const cases: Array<[string, string]> = [
    [`sshpass -p"${PW("A")}" ssh root@h`, `sshpass -p"#" ssh root@h`],
    [`sshpass -p'${PW("B")}' ssh root@h`, "sshpass -p'#' ssh root@h"],
    [`sshpass -p${PW("B")} ssh root@h`, "sshpass -p# ssh root@h"],
    [`sshpass -v -p ${PW("C")} ssh h`, "sshpass -v -p # ssh h"],
    [`sshpass -P assword: -p '${PW("C")}' ssh h`, "sshpass -P assword: -p '#' ssh h"],
    [`sshpass -p ${LW("C")} ssh h`, "sshpass -p # ssh h"],
    [
      `openssl rsa -in k.pem -passin pass:'${PW("D")}'`,
      "openssl rsa -in k.pem -passin pass:'#'",
    ],
    [
      `openssl pkcs12 -export -passout pass:"${PW("E")}"`,
      `openssl pkcs12 -export -passout pass:"#"`,
    ],
    [`openssl enc -pass "pass:${LW("E")}" -in a`, `openssl enc -pass "pass:#" -in a`],
    [`docker login -p${PW("F")} registry.example.com`, "docker login -p# registry.example.com"],
    [`docker login -u me -p"${LW("F")}" reg.io`, `docker login -u me -p"#" reg.io`],
  ];
  for (const [input, want] of cases) {
    const mask = want.replace("#", "[redacted:cli_password]");
    assertEquals(redact(input, {}), mask, input);
    // JSON-escaped, as a tool call's input.
    assertEquals(redact(JSON.stringify(input), {}), JSON.stringify(mask), input);
  }
  // sshpass's own flags before -p do not make the command after it a password.
  for (
    const text of [
      "sshpass -e ssh -p 2222 deploy@host",
      "sshpass -f ~/.pw ssh -p 2222 deploy@host",
      "sshpass -p $SSHPASS ssh h",
      `docker login -p"$DOCKER_PASSWORD" registry`,
      "openssl rsa -passin 'env:PW' -in k.pem",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

Deno.test("redact masks a quoted .netrc password, PHP define() and REDISCLI_AUTH= (trial 128 F4)", () => {
  const cases: Array<[string, string, string]> = [
    [`machine h login u password "${LW("H")}"`, `machine h login u password "#"`, "netrc_password"],
    [`machine h login u password '${PW("H")}'`, "machine h login u password '#'", "netrc_password"],
    [`define('DB_PASSWORD', '${LW("G")}');`, "define('DB_PASSWORD', '#');", "assignment"],
    [`define( "AUTH_TOKEN", "${PW("G")}" );`, `define( "AUTH_TOKEN", "#" );`, "assignment"],
    [`REDISCLI_AUTH=${PW("I")} redis-cli ping`, "REDISCLI_AUTH=# redis-cli ping", "assignment"],
    [`env REDIS_AUTH='${LW("I")}' ./run`, "env REDIS_AUTH='#' ./run", "assignment"],
    [`7z a -p${PW("J")} out.7z dir`, "7z a -p# out.7z dir", "cli_password"],
    [`7za x -p'${LW("J")}' in.7z`, "7za x -p'#' in.7z", "cli_password"],
  ];
  for (const [input, want, kind] of cases) {
    const mask = want.replace("#", `[redacted:${kind}]`);
    assertEquals(redact(input, {}), mask, input);
    assertEquals(redact(JSON.stringify(input), {}), JSON.stringify(mask), input);
  }
  for (
    const text of [
      "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
      "define('DB_PASSWORD', '');",
      "DISABLE_AUTH=true ./run",
      "NEXTAUTH_URL=http://localhost:3000 npm run dev",
      "AUTH_PROVIDER=github2 npm start",
      "7z a -mx9 out.7z dir",
      "7z x -p in.7z",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});

// --- Secrets between JSON-escaped quotes ---------------------------------------------------
// A high-entropy value after a key between JSON-escaped quotes (`value: \"…\"`, a tool's output
// holding JSON; `\\\"` in JSON inside JSON) was left in clear where the same value between plain
// quotes was masked: the entropy rule's key-before check took only a quote right before the value.
/** A text as written, JSON-escaped once (a tool's output), twice (JSON inside JSON). */
const escapings: Array<[string, (s: string) => string]> = [
  ["as written", (s) => s],
  ["JSON-escaped", (s) => JSON.stringify(s)],
  ["JSON-escaped twice", (s) => JSON.stringify(JSON.stringify(s))],
];
/** A made-up random value (no real key), built from pieces. */
const RV = "kJ8s9dF3mQ2x" + "L7pR4tV6wY1z" + "B5nC0hG8";

Deno.test("redact masks a value between JSON-escaped quotes as between plain ones", () => {
  const cases: Array<[string, string, string]> = [
    [`value: "${RV}"`, `value: "#"`, "entropy"],
    [`session_seed = "${RV}"`, `session_seed = "#"`, "entropy"],
    [`- name: DB_PASSWORD\n  value: "${RV}"`, `- name: DB_PASSWORD\n  value: "#"`, "entropy"],
    [
      `- name: VAPID_PRIVATE_KEY\n  value: "${RV}"`,
      `- name: VAPID_PRIVATE_KEY\n  value: "#"`,
      "entropy",
    ],
    [`"password": "${LW("K")}"`, `"password": "#"`, "assignment"],
    [`api_key="${RV}"`, `api_key="#"`, "assignment"],
    [`token: "${LW("L")}"`, `token: "#"`, "assignment"],
    // A .env line whose name says secret only by its part KEY (no key word of the rule after it).
    [`ok\nSTRIPE_WEBHOOK_KEY="${LW("M")}"\n`, `ok\nSTRIPE_WEBHOOK_KEY="#"\n`, "assignment"],
  ];
  for (const [input, want, kind] of cases) {
    const mask = want.replace("#", `[redacted:${kind}]`);
    for (const [how, f] of escapings) {
      const c: Record<string, number> = {};
      assertEquals(redact(f(input), c), f(mask), `${how}: ${input}`);
      assertEquals(c, { [kind]: 1 }, `${how}: ${input}`);
    }
  }
  // A shell-escaped single quote (`\'`) too.
  assertEquals(redact(`key: \\'${RV}\\'`, {}), `key: \\'[redacted:entropy]\\'`);
});

Deno.test("redact leaves public keys, SOPS values, UUIDs, SHAs, placeholders and request ids between JSON-escaped quotes", () => {
  const b64 = (n: number) =>
    "Zx8Qp2Lm9Vt4Rk7Wn3Bc6Hd1aQ7mZp3Xk9Lw2Vr8Tn4Ys6Bd1Hc5Jf0Ga".slice(0, n);
  for (
    const text of [
      `- name: VAPID_PUBLIC_KEY\n  value: "${RV}"`,
      `    27|  - name: VAPID_PUBLIC_KEY\n    28|    value: "${RV}"\n`,
      `"publicKey": "${RV}"`,
      `ok\nVAPID_PUBLIC_KEY="${RV}"\n`,
      `"data": "ENC[AES256_GCM,data:${b64(24)}==,iv:${b64(43)}=,tag:${b64(22)}==,type:str]"`,
      `"id": "550e8400-e29b-41d4-a716-446655440000"`,
      `"commit": "4b825dc642cb6eb9a060e54bf8d69288fbee4904"`,
      `"api_key": "YOUR_API_KEY_HERE"`,
      `"password": "<your-password>"`,
      `"token": "xxxxxxxxxxxxxxxxxxxxxxxx"`,
      `"request_id": "${RV}"`,
      `"x-request-id": "${RV}"`,
      `"requestId": "${RV}"`,
      `"value": "req_${RV}"`,
    ]
  ) {
    for (const [how, f] of escapings) {
      const c: Record<string, number> = {};
      assertEquals(redact(f(text), c), f(text), `${how}: ${text}`);
      assertEquals(c, {}, `${how}: ${text}`);
    }
  }
});
