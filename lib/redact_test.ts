import { assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import { redact, redactDeep, sanitizeForTerminal } from "./redact.ts";

// Secret shapes: each must be caught. Built from pieces so no real-looking
// token sits in the source as one string.
const SECRETS: Array<[string, string]> = [
  ["aws_key", "AKIA" + "IOSFODNN7EXAMPLE"],
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

Deno.test("sanitizeForTerminal turns carriage returns into newlines", () => {
  assertEquals(sanitizeForTerminal("a\r\nb\rc"), "a\nb\nc");
});
