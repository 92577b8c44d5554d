/**
 * HTML built safely by construction: {@link htm} escapes every value put
 * into it unless the value is already {@link Html} (made by `htm` itself or
 * by {@link raw} for text deja wrote). Everything from the index — titles,
 * transcripts, commands, paths — reaches a page only through it, so hostile
 * text in a transcript (`<script>`, `"onload=`) is shown, never run.
 *
 * @module
 */
import { sanitizeForTerminal } from "../../core/terminal.ts";

/** A piece of markup that is already safe to put into a page. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * `text` with `& < > " '` replaced by entities: safe in element content and in
 * quoted attribute values; control characters (bidi overrides among them) and escape
 * sequences left out.
 *
 * @example esc(`<b a="1">`) === "&lt;b a=&quot;1&quot;&gt;"
 */
export function esc(text: string): string {
  // Control characters and escape sequences go as they go from everything deja prints
  // (core/terminal.ts): a right-to-left override in a prompt reversed the page's text where
  // `deja show` left it out (trial 67).
  return sanitizeForTerminal(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Markup deja wrote itself (never text from the index). */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** A value `htm` accepts: text (escaped), numbers, markup, lists of them; null/false drop out. */
export type Part = string | number | Html | null | undefined | false | readonly Part[];

function render(p: Part): string {
  if (p === null || p === undefined || p === false) return "";
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return p.map(render).join("");
  return esc(String(p));
}

/**
 * Tagged template: the literal parts are markup, every `${value}` is escaped
 * (arrays joined, {@link Html} kept as it is).
 *
 * @example htm`<p>${"<x>"}</p>`.value === "<p>&lt;x&gt;</p>"
 */
export function htm(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/**
 * A search snippet as markup: the text escaped, the matches (marked by the
 * search with \x01 … \x02) in `<mark>`.
 */
export function marked(snippet: string): Html {
  let out = "";
  let open = false;
  // deno-lint-ignore no-control-regex
  for (const part of snippet.split(/([\x01\x02])/)) {
    if (part === "\x01") {
      if (!open) out += "<mark>";
      open = true;
    } else if (part === "\x02") {
      if (open) out += "</mark>";
      open = false;
    } else out += esc(part);
  }
  return new Html(open ? out + "</mark>" : out);
}
