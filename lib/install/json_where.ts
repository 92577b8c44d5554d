/**
 * Where a JSON text stops being valid, as `line:column` (both from 1), for a
 * message that names the spot to fix. Runtime-neutral: engines word (and
 * place) their `JSON.parse` errors differently, so the text is scanned here.
 *
 * @module
 */

/**
 * The 1-based line and column of the first character at which `text` is not
 * valid JSON (RFC 8259), or null when it is valid.
 *
 * @example jsonErrorAt('{"a": {,}}') // { line: 1, column: 8 }
 */
export function jsonErrorAt(text: string): { line: number; column: number } | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const str = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    if (text[i] !== '"') fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const list = (close: string, item: () => void) => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      ws();
      if (text[i] === ",") {
        i++;
        ws();
      } else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      list("}", () => {
        str();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    } else if (ch === "[") list("]", value);
    else if (ch === '"') str();
    else if (ch === "t") lit("true");
    else if (ch === "f") lit("false");
    else if (ch === "n") lit("null");
    else num();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return null;
  } catch (at) {
    if (typeof at !== "number") throw at;
    const before = text.slice(0, at).split("\n");
    return { line: before.length, column: before[before.length - 1].length + 1 };
  }
}
