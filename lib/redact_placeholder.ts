/**
 * Values that stand where a secret would go but are not one: references to
 * a variable (`$env.AWS_ACCESS_KEY_ID`, `${DB_PASSWORD}`, `process.env.TOKEN`,
 * `%API_KEY%`, `{{ secrets.X }}`) and obvious placeholders (`YOUR_API_KEY`,
 * `your-private-key`, `<token>`, `changeme`, `xxxx…`, `…`, a bare upper-case
 * name). Redaction leaves them as written: they are code and documentation,
 * and hiding them hides what a session was about (issue 10 item 9).
 *
 * @module
 */

/** A reference to a variable, an environment entry or a template slot. */
const REFERENCE =
  /^(?:\$|%[A-Za-z_]|\{\{|<|@Microsoft\.KeyVault|(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|System\.getenv|Environment\.GetEnvironmentVariable|ENV\[|env\.|env\(|getenv|secrets\.|vars\.|config\.|settings\.)|!(?:Ref|Sub|GetAtt)\b)/;

/** Words that mark a placeholder when they are one of the value's parts (split on _ - . space). */
const PART_WORDS = new Set([
  "your",
  "yours",
  "example",
  "placeholder",
  "changeme",
  "replace",
  "insert",
  "redacted",
  "optional",
  "dummy",
  "fake",
  "sample",
  "xxx",
]);

/** Values that are a placeholder when they are the whole value (separators dropped). */
const WHOLE_WORDS = new Set([
  "changeme",
  "password",
  "passwd",
  "pwd",
  "pass",
  "secret",
  "token",
  "apikey",
  "none",
  "null",
  "nil",
  "undefined",
  "empty",
  "todo",
  "tbd",
]);

/** Filler: four or more of x, X, *, #, •, or dots; an ellipsis. */
const FILLER = /([xX*#•.])\1{3,}|…/;

/** A bare name in upper case (API_KEY, YOUR_PASSWORD, SECRET): a name, not a value. */
const NAME = /^[A-Z]+(?:_[A-Z]+)*$/;

/**
 * True when `value` (quotes around it allowed) is a variable reference or an
 * obvious placeholder rather than a secret.
 *
 * @example isPlaceholder("$env.AWS_ACCESS_KEY_ID") === true
 * @example isPlaceholder("YOUR_API_KEY") === true
 * @example isPlaceholder("Hunter2-Corvid") === false
 */
export function isPlaceholder(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, "").trim();
  if (!v) return true;
  if (REFERENCE.test(v) || FILLER.test(v) || NAME.test(v)) return true;
  const low = v.toLowerCase();
  if (WHOLE_WORDS.has(low.replace(/[_\-. ]+/g, ""))) return true;
  return low.split(/[_\-. ]+/).some((w) => PART_WORDS.has(w));
}

/**
 * True when a private key block holds no key: its body (between the BEGIN
 * and END lines, `\n` escapes and white space removed) is empty, filler
 * (`...`, `xxxx`, `<key>`) or says so in words (`your key here`).
 */
export function isPlaceholderBlock(block: string): boolean {
  const body = block.replace(/-----(?:BEGIN|END)[A-Z0-9 ]*-----/g, "")
    .replace(/\\+[nrt]?/g, " ").trim();
  if (!body) return true;
  if (/^(?:[.…*xX\s]+|<[^>]*>|\[[^\]]*\])$/.test(body)) return true;
  return /\b(?:your|here|placeholder|example|redacted)\b/i.test(body) && body.length < 80;
}

/**
 * True when a provider token is written the way the provider's documentation
 * writes a placeholder: with `EXAMPLE` in it (AWS: `AKIAIOSFODNN7EXAMPLE`) or
 * one character repeated after its four-character prefix (`AKIAXXXXXXXXXXXXXXXX`).
 *
 * @example isExampleToken("AKIAXXXXXXXXXXXXXXXX") === true
 */
export function isExampleToken(token: string): boolean {
  return token.includes("EXAMPLE") || /^.{4}(.)\1+$/.test(token);
}
