/** A password named in prose (`the password is hunter2`) is redacted; sentences about passwords are not. */
import { assertEquals } from "../tests/_assert.ts";
import { redact } from "./redact.ts";

Deno.test("redact hides a password a sentence names", () => {
  const cases: Array<[string, string]> = [
    ["the staging DB password is hunter2", "the staging DB password is [redacted:prose_password]"],
    ["the password is hunter2", "the password is [redacted:prose_password]"],
    ["pwd was Tr0ub4dor&3 yesterday", "pwd was [redacted:prose_password] yesterday"],
    [
      "the password for staging is hunter2.",
      "the password for staging is [redacted:prose_password].",
    ],
    [
      "the password for the staging db is `s3cr3t!`",
      "the password for the staging db is `[redacted:prose_password]`",
    ],
    [
      "Passphrase was changed to 7horse-battery",
      "Passphrase was changed to [redacted:prose_password]",
    ],
    ["the pwd was 12345678", "the pwd was [redacted:prose_password]"],
    // Already caught by the assignment rules, still caught.
    ["password: hunter2", "password: [redacted:assignment]"],
    ["passphrase = hunter2", "passphrase = [redacted:assignment]"],
  ];
  for (const [input, want] of cases) assertEquals(redact(input, {}), want, input);
  const counts = {};
  redact("the password is hunter2", counts);
  assertEquals(counts, { prose_password: 1 });
});

Deno.test("redact leaves sentences about passwords and placeholders as written", () => {
  for (
    const text of [
      "the password is wrong",
      "The password is correct now",
      "password reset flow",
      "the password is required",
      "the password is hashed with bcrypt",
      "the secret is base64-encoded",
      "the secret is to cache it",
      "the password is in ~/.pgpass",
      "the password is $DB_PASSWORD",
      "the password is YOUR_PASSWORD",
      "the password is changeme",
      "the password is N/A",
      "the password was 2024",
      "the password is e.g. the default",
      "the password is ops@example.com's",
    ]
  ) {
    assertEquals(redact(text, {}), text);
  }
});
