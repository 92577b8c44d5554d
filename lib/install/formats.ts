/**
 * Config files in the formats harnesses keep them: JSON, JSONC, TOML and
 * YAML, edited in place with maintained libraries (jsonc-parser, toml-patch,
 * yaml), so the user's comments, order, indentation, line endings and
 * formatting survive and only the values deja changes are touched (a new
 * JSON file is written with a two-space indent, as Claude Code and Crush
 * write theirs); deja's TOML changes are spliced in by lines (toml_edit.ts),
 * toml-patch doing only what that cannot place. Every format reads into a plain object
 * that edits.ts changes; writing computes the difference and applies just it.
 *
 * @module
 */
import * as jsonc from "jsonc-parser";
import * as YAML from "yaml";
import { diffArrays } from "diff";
import {
  parse as tomlParse,
  patch as tomlPatch,
  stringify as tomlStringify,
} from "@decimalturn/toml-patch";
import { jsonErrorAt } from "./json_where.ts";
import { isObj, type Obj } from "../../core/values.ts";
import { spliceYaml } from "./yaml_edit.ts";
import { spliceToml } from "./toml_edit.ts";

/**
 * A config file format deja can edit. `jsonc`: JSON with comments and
 * trailing commas (opencode, Zed, VS Code read it with such a parser);
 * `json-comments`: JSON with comments but no trailing comma (Gemini CLI and
 * Qwen Code strip the comments, then run `JSON.parse`).
 */
export type ConfigFormat = "json" | "jsonc" | "json-comments" | "toml" | "yaml";

/** Every {@link ConfigFormat}, for the registry check. */
export const CONFIG_FORMATS: readonly ConfigFormat[] = [
  "json",
  "jsonc",
  "json-comments",
  "toml",
  "yaml",
];

/** The UTF-8 byte order mark as a character: read past, and kept where a file has it. */
export const BOM = "\uFEFF";

/** A text that is not valid in its format: why, and where (1-based line and column). */
export class FormatError extends Error {
  constructor(readonly reason: string, readonly at?: { line: number; column: number }) {
    super(reason);
  }
}

/** The format of `path` by its name (`.toml`, `.yaml`/`.yml`, `.jsonc`; anything else JSON). */
export function formatOf(path: string): ConfigFormat {
  if (/\.toml$/i.test(path)) return "toml";
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.jsonc$/i.test(path)) return "jsonc";
  return "json";
}

/**
 * The comments of a JSON or JSONC text as written (`// …`, `/* … *\/`), read by jsonc-parser's
 * visitor: a `//` inside a string (any URL) is none (trial 117 F2).
 */
export function jsonComments(text: string): string[] {
  const out: string[] = [];
  jsonc.visit(text, { onComment: (at, n) => void out.push(text.slice(at, at + n)) }, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  return out;
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/**
 * A parser's message as one clean line: without the position it repeats (the
 * caller reports it as `path:line:column`), the quoted source or the caret
 * line; the last such line holds the reason for TOML, the first for YAML.
 */
export function oneLineReason(message: string): string {
  const lines = message.split("\n").map((l) =>
    l.replace(/^Error parsing TOML \(\d+, \d+\):?/, "")
      .replace(/ at line \d+, column \d+:?$/, "").trim()
  );
  const first = lines[0];
  if (first) return first;
  const last = lines.filter(Boolean).at(-1);
  return last && !/^\^|\^$/.test(last) ? last : "the text does not parse";
}

/**
 * The top-level value of `text` in `format` (an empty text reads as `{}`).
 *
 * @throws {FormatError} when the text is not valid in its format.
 */
export function parseConfig(text: string, format: ConfigFormat): unknown {
  if (text.startsWith(BOM)) text = text.slice(1);
  if (text.trim() === "") return {};
  switch (format) {
    case "json":
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new FormatError((e as Error).message.split("\n")[0], jsonErrorAt(text) ?? undefined);
      }
    case "jsonc":
    case "json-comments": {
      const errors: jsonc.ParseError[] = [];
      const allowTrailingComma = format === "jsonc";
      const v = jsonc.parse(text, errors, { allowTrailingComma, disallowComments: false });
      if (errors.length) {
        const e = errors[0];
        const code = jsonc.printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, "$1 $2");
        // An unquoted key where the error is: JSON5 (OpenClaw reads its config so), which the
        // JSON-with-comments editor cannot keep; say so rather than only "invalid symbol".
        const json5 = /^[A-Za-z_$][\w$]*\s*:/.test(text.slice(e.offset, e.offset + 64));
        throw new FormatError(
          code.toLowerCase() +
            (json5
              ? "; unquoted keys are JSON5, which deja does not edit: quote the keys, or add" +
                " deja's entry by hand (docs/wiring.md)"
              : ""),
          lineCol(text, e.offset),
        );
      }
      return v;
    }
    case "toml":
      try {
        return tomlParse(text);
      } catch (e) {
        const x = e as { message?: string; line?: number; column?: number };
        const reason = oneLineReason(String(x.message ?? e));
        let at = typeof x.line === "number"
          ? { line: x.line, column: (x.column ?? 0) + 1 }
          : undefined;
        // toml-patch places "must be single-line" at the start of the next line:
        // the fault is the end of the line before (an unclosed `[table` header).
        if (at && at.column === 1 && at.line > 1 && /single-line|newline/i.test(reason)) {
          const prev = text.split("\n")[at.line - 2].replace(/\r$/, "");
          at = { line: at.line - 1, column: prev.length + 1 };
        }
        throw new FormatError(reason, at);
      }
    case "yaml": {
      const doc = YAML.parseDocument(text);
      if (doc.errors.length) {
        const e = doc.errors[0];
        const p = e.linePos?.[0];
        // Valid YAML deja does not edit, said so, not the library's advice to its caller
        // (trial 141 M4: "please use YAML.parseAllDocuments()").
        const several = /multiple documents/i.test(e.message);
        throw new FormatError(
          several
            ? "it holds several YAML documents (`---`); deja edits a config of one: add deja's " +
              "entry by hand (docs/wiring.md)"
            : oneLineReason(e.message),
          p ? { line: p.line, column: p.col } : undefined,
        );
      }
      return doc.toJS() ?? {};
    }
  }
}

/**
 * A deep copy of a config's value for deja to edit: plain objects and lists copied, every other
 * value shared as it is. A TOML date or time is an object of the parser's own class, which
 * `structuredClone` turned into a plain `Date` that writes otherwise (`…T09:00:00.000Z`, a time
 * of day as a date in year 0): the copy then differed from the file, every uninstall rewrote
 * it, and the rewrite dropped each date-time and time line (trial 140 H1), and an install
 * refused the file as "deja's edit went wrong".
 */
export function cloneData<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneData) as T;
  if (!isPlain(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloneData(x)])) as T;
}

/** A plain object, a table of a config (not a list, not a parser's date or other class). */
function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** One change between two values: the key path (list items by index) and the new value (undefined: removed). */
export interface Change {
  path: Array<string | number>;
  value: unknown;
  /** The value is a new list item (appended at that index). */
  insert?: boolean;
}

/**
 * A config value as text to compare by: JSON, with a TOML integer past 2^53 (a `bigint`) written
 * as its digits (trial 141 H1: `JSON.stringify` threw on one, and deja could neither install
 * into such a config nor take its entry out of it).
 */
export function dataKey(v: unknown): string {
  return JSON.stringify(v, (_k, x) => typeof x === "bigint" ? `${x}n` : x) ?? "undefined";
}

const same = (a: unknown, b: unknown) => dataKey(a) === dataKey(b);

/**
 * The changes that turn list `a` into list `b` item by item when `b` is `a`
 * with items appended, one item removed, or items changed in place; undefined
 * for anything else (the list is then replaced whole).
 */
function listDiff(a: unknown[], b: unknown[], path: Array<string | number>): Change[] | undefined {
  if (b.length > a.length && a.every((x, i) => same(x, b[i]))) {
    return b.slice(a.length).map((v, i) => ({
      path: [...path, a.length + i],
      value: v,
      insert: true,
    }));
  }
  if (b.length === a.length - 1) {
    const gone = a.findIndex((x, i) => !same(x, b[i]));
    if (a.slice(gone + 1).every((x, i) => same(x, b[gone + i]))) {
      return [{ path: [...path, gone], value: undefined }];
    }
  }
  if (b.length !== a.length) return undefined;
  return a.flatMap((x, i) => {
    const y = b[i];
    if (same(x, y)) return [];
    if (isObj(x) && isObj(y)) return diff(x, y, [...path, i]);
    return [{ path: [...path, i], value: y }];
  });
}

/**
 * The changes that turn object `a` into object `b`; objects are compared key
 * by key, lists item by item where they can be (listDiff), anything else whole.
 */
export function diff(a: Obj, b: Obj, path: Array<string | number> = []): Change[] {
  const out: Change[] = [];
  for (const k of Object.keys(a)) if (!(k in b)) out.push({ path: [...path, k], value: undefined });
  for (const [k, v] of Object.entries(b)) {
    const old = a[k];
    if (same(old, v)) continue;
    if (isObj(old) && isObj(v)) out.push(...diff(old, v, [...path, k]));
    else if (Array.isArray(old) && Array.isArray(v)) {
      out.push(...(listDiff(old, v, [...path, k]) ?? [{ path: [...path, k], value: v }]));
    } else out.push({ path: [...path, k], value: v });
  }
  return out;
}

/** The indent a JSONC text uses (its first indented line), for the lines deja adds. */
function jsoncIndent(text: string): jsonc.FormattingOptions {
  const m = /\n([ \t]+)\S/.exec(text);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  if (m && m[1].startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? m[1].length : 2, eol };
}

/**
 * `text` with one change made as a text edit: jsonc-parser's `modify` without
 * its own formatting (which re-formats whole lines, and so the user's
 * one-line siblings), then only the inserted text formatted, in the file's
 * indent and line ending (and the braces of a container it was empty in).
 */
function jsonEdit(
  text: string,
  c: Change,
  fo: jsonc.FormattingOptions,
  trailingCommas = true,
): string {
  const removal = c.value === undefined;
  let edits =
    (removal
      ? itemRemoval(text, c.path) ?? propertyRemoval(text, c.path, trailingCommas)
      : undefined) ??
      besideComment(
        text,
        jsonc.modify(text, c.path, c.value, { isArrayInsertion: c.insert === true }),
        fo,
      );
  if (removal) edits = edits.map((e) => keepComments(text, e, fo.eol ?? "\n"));
  let out = text;
  // In order, each at its offset moved by what the ones before it changed: a comma
  // besideComment adds is in place before the property after it is formatted.
  let shift = 0;
  for (const edit of [...edits].sort((a, b) => a.offset - b.offset)) {
    const e = { ...edit, offset: edit.offset + shift };
    const was = out.length;
    out = jsonc.applyEdits(out, [e]);
    if (!removal && e.content && e.content !== ",") {
      let begin = e.offset;
      let end = e.offset + e.content.length;
      if (/[[{]/.test(out[begin - 1] ?? "")) begin--;
      if (/[\]}]/.test(out[end] ?? "")) end++;
      const range = { offset: begin, length: end - begin };
      out = jsonc.applyEdits(out, jsonc.format(out, range, { ...fo, keepLines: false }));
    }
    shift += out.length - was;
  }
  return out;
}

/**
 * Removal edit `e` with the comments in the text it takes put back in its place, each on a line of
 * its own where it stood on one: the user's words above, beside or inside deja's entry stay when
 * the entry goes (trial 136 F2: `// deja: memory across sessions (my note)` above opencode's
 * `"deja": {` went with it; jsonc-parser removes from the end of the entry before).
 */
function keepComments(text: string, e: jsonc.Edit, eol: string): jsonc.Edit {
  if (e.content !== "" || e.length === 0) return e;
  const end = e.offset + e.length;
  const found: Array<{ at: number; n: number }> = [];
  jsonc.visit(text, {
    onComment: (at, n) => void (at >= e.offset && at + n <= end && found.push({ at, n })),
  }, { allowTrailingComma: true, disallowComments: false });
  if (!found.length) return e;
  const lineStart = (at: number) => text.lastIndexOf("\n", at - 1) + 1;
  const pad = (at: number) => /^[ \t]*/.exec(text.slice(lineStart(at)))![0];
  let content = "";
  let lineComment = false;
  for (const { at, n } of found) {
    // On a line of its own where it stood so, or where the comment before it runs to the line's end.
    const own = lineComment || text.slice(lineStart(at), at).trim() === "";
    content += (own ? eol + pad(at) : " ") + text.slice(at, at + n);
    lineComment = text.startsWith("//", at);
  }
  // Put where a line held only its indent (an entry's own start): the first comment goes there.
  const before = text.slice(lineStart(e.offset), e.offset);
  if (before.trim() === "" && content.startsWith(eol)) {
    content = content.slice(eol.length).replace(/^[ \t]*/, "");
  }
  // What follows goes on a line of its own after a `//` comment (or after a comment put at an
  // entry's start), in the indent of the line it was on.
  const last = found[found.length - 1];
  const rest = text.slice(end);
  if (
    (text.startsWith("//", last.at) || before.trim() === "") && !/^[ \t]*(\r?\n|$)/.test(rest)
  ) {
    content += eol + (before.trim() === "" ? before : pad(end));
  }
  return { ...e, content };
}

/** A comment that ends its line: `// …`, or `/* … *\/` on one line. */
const LINE_END_COMMENT = String
  .raw`[ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/)[ \t]*(?=\r?\n)`;

/**
 * jsonc-parser's `edits` with a property appended after a sibling that a comment ends the line
 * of (`"mine": {…}, // note`) moved past that comment, onto a line of its own: appended
 * right after the sibling, it took the comment as its own (trial 102 F8: Zed's
 * `// trailing` followed deja's entry). A sibling with no comma gets one before the comment.
 */
function besideComment(
  text: string,
  edits: jsonc.Edit[],
  fo: jsonc.FormattingOptions,
): jsonc.Edit[] {
  return edits.flatMap((e) => {
    if (e.length !== 0 || !e.content.startsWith(",")) return [e];
    const m = new RegExp(String.raw`^([ \t]*,)?` + LINE_END_COMMENT).exec(text.slice(e.offset));
    if (!m) return [e];
    const property = {
      offset: e.offset + m[0].length,
      length: 0,
      content: fo.eol + e.content.slice(1),
    };
    return m[1] ? [property] : [{ offset: e.offset, length: 0, content: "," }, property];
  });
}

/**
 * The edit that removes the last property `path` of an object when it stands on a line of its
 * own below a sibling whose line a comment ends ({@link besideComment} put it there): that line
 * stays as it was, the comma before its comment too where trailing commas are allowed.
 * Undefined for any other property (jsonc-parser removes it, from the sibling's end).
 */
function propertyRemoval(
  text: string,
  path: Array<string | number>,
  trailingCommas: boolean,
): jsonc.Edit[] | undefined {
  if (typeof path[path.length - 1] !== "string") return undefined;
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true });
  const prop = root && jsonc.findNodeAtLocation(root, path)?.parent;
  const kids = prop?.parent?.type === "object" ? prop.parent.children ?? [] : [];
  const idx = prop ? kids.indexOf(prop) : -1;
  if (!prop || idx < 1 || idx !== kids.length - 1) return undefined;
  const prev = kids[idx - 1];
  const from = prev.offset + prev.length;
  const m = new RegExp(String.raw`^([ \t]*,)` + LINE_END_COMMENT + String.raw`(\r?\n)[ \t]*$`)
    .exec(text.slice(from, prop.offset));
  if (!m) return undefined;
  const eol = from + m[0].length - m[0].slice(m[0].lastIndexOf(m[2])).length;
  const edits = [{ offset: eol, length: prop.offset + prop.length - eol, content: "" }];
  if (!trailingCommas) edits.push({ offset: from, length: m[1].length, content: "" });
  return edits;
}

/**
 * The edit that removes list item `path` (its last segment an index), or
 * undefined when `path` names no list item. jsonc-parser's own removal of a
 * list's last item cuts one character short in a list written on one line
 * (`["mcp","--x"]` became `["mcp""]`), so deja computes it from the parse
 * tree: from the end of the item before to the end of this one.
 */
function itemRemoval(text: string, path: Array<string | number>): jsonc.Edit[] | undefined {
  const idx = path[path.length - 1];
  if (typeof idx !== "number") return undefined;
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true });
  const list = root && jsonc.findNodeAtLocation(root, path.slice(0, -1));
  const kids = list?.type === "array" ? list.children ?? [] : [];
  const it = kids[idx];
  if (!list || !it) return undefined;
  if (kids.length === 1) return [{ offset: list.offset + 1, length: list.length - 2, content: "" }];
  if (idx === kids.length - 1) {
    const from = kids[idx - 1].offset + kids[idx - 1].length;
    return [{ offset: from, length: it.offset + it.length - from, content: "" }];
  }
  return [{ offset: it.offset, length: kids[idx + 1].offset - it.offset, content: "" }];
}

/** `v` with every object's keys in order, for comparing values whatever their key order. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObj(v)) {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  }
  return v;
}

/** `v` without the plain objects that hold nothing, however deep (lists kept as they are). */
function withoutEmptyTables(v: unknown): unknown {
  if (!isPlain(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutEmptyTables(x);
    if (!isPlain(y) || Object.keys(y).length) out[k] = y;
  }
  return out;
}

/** An edit whose text would not read back as the value deja meant to write. */
export class EditCheckError extends Error {}

/**
 * {@link renderConfig}, then the result read back in its format: it must parse
 * and hold exactly `next` (so no edit bug can ever write a broken config, or
 * change a value deja did not mean to).
 *
 * @throws {EditCheckError} when it does not, or when the edit itself throws.
 */
export function renderChecked(
  format: ConfigFormat,
  text: string,
  before: Obj,
  next: Obj,
): string {
  let out: string;
  try {
    out = renderConfig(format, text, before, next);
  } catch (e) {
    // An editing library that fails (trial 117 F1: toml-patch's "Node not found at hooks") is
    // an edit that went wrong: the target is refused and named, the others go on.
    throw new EditCheckError(
      `the editor failed (${oneLineReason(String((e as Error)?.message ?? e))})`,
    );
  }
  let back: unknown;
  try {
    back = parseConfig(out, format);
  } catch (e) {
    throw new EditCheckError(`the edited text would not parse (${(e as Error).message})`);
  }
  // In TOML a table that holds nothing and whose header the text lacks is no table at all
  // (splicedToml): read as the same values.
  const toml = format === "toml" ? withoutEmptyTables : (v: unknown) => v;
  if (dataKey(canonical(toml(back))) !== dataKey(canonical(toml(next)))) {
    throw new EditCheckError("the edited text would not hold the values meant");
  }
  return out;
}

/**
 * The text of a config that held `text` (parsing to `before`) and must now
 * hold `next`: only the changed values are edited (as text edits, in the
 * text's own indent and line ending), everything else kept byte for byte.
 */
export function renderConfig(format: ConfigFormat, text: string, before: Obj, next: Obj): string {
  const fresh = text.trim() === "";
  switch (format) {
    case "json":
    case "jsonc":
    case "json-comments": {
      if (fresh) return JSON.stringify(next, null, 2) + "\n";
      const fo = jsoncIndent(text);
      let out = text;
      for (const c of diff(before, next)) out = jsonEdit(out, c, fo, format === "jsonc");
      return out;
    }
    case "toml":
      return (fresh ? splicedToml(text, before, next) : undefined) ??
        (fresh ? tomlStringify(next) : tomlEdit(text, before, next));
    case "yaml": {
      if (fresh) return YAML.stringify(next);
      const changes = diff(before, next);
      const spliced = spliceYaml(text, changes, next);
      if (spliced !== undefined) return spliced;
      const doc = YAML.parseDocument(text);
      for (const c of changes) {
        if (c.value === undefined) doc.deleteIn(c.path);
        else {
          // The comments of the value it replaces go on the new one (trial 141 H2: aider's
          // `read: CONVENTIONS.md   # …` made a list lost its comment).
          const was = doc.getIn(c.path, true) as
            | { comment?: string | null; commentBefore?: string | null }
            | undefined;
          const node = doc.createNode(c.value);
          if (was && typeof was === "object") {
            if (was.comment) node.comment = was.comment;
            if (was.commentBefore) node.commentBefore = was.commentBefore;
          }
          doc.setIn(c.path, node);
        }
      }
      return doc.toString();
    }
  }
}

/** The line ending a text uses first ("\n" when it has none), as toml-patch takes it. */
function firstEol(text: string): "\n" | "\r\n" {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * The TOML `text` (parsing to `before`) with deja's changes spliced in by lines (toml_edit.ts),
 * when that can be done and reads back as `next`; undefined otherwise.
 */
function splicedToml(text: string, before: Obj, next: Obj): string | undefined {
  try {
    const out = spliceToml(text, diff(before, next), before, next, firstEol(text));
    if (out === undefined) return undefined;
    // A table left empty whose header the text never had (`mcp_servers`, made a table by the
    // user's `[mcp_servers.github]`, which they removed since) is no table in TOML: not
    // written either (trial 138 L1: uninstall left a stray `[mcp_servers]` line).
    const read = canonical(withoutEmptyTables(tomlParse(out)));
    return same(read, canonical(withoutEmptyTables(next))) ? out : undefined;
  } catch {
    return undefined; // a value JSON cannot compare (a bigint): toml-patch's way
  }
}

/**
 * The TOML `text` (parsing to `before`) edited to hold `next`: deja's own lines spliced in or out
 * ({@link splicedToml}) where they can be, else with toml-patch, and what it cannot do done
 * beside it:
 * - A top-level array of tables `text` lacks (Kimi Code's `[[hooks]]`) is appended as
 *   `[[key]]` tables after everything the file holds: toml-patch 3.3.0 throws "Node not found
 *   at hooks" adding one to any text that is not empty (trial 117 F1).
 * - A text with both line endings (`\n` and `\r\n`) is edited with `\n` alone, and each line
 *   kept gets its own ending back (the lines deja adds the one of the line before): toml-patch
 *   turns every ending into the first one, and writes a warning of its own on stderr
 *   (trial 117 F5).
 */
function tomlEdit(text: string, before: Obj, next: Obj): string {
  const mixed = /\r\n/.test(text) && /(^|[^\r])\n/.test(text);
  const src = mixed ? text.replaceAll("\r\n", "\n") : text;
  const spliced = splicedToml(src, before, next);
  if (spliced !== undefined) return mixed ? keepLineEnds(text, spliced) : spliced;
  const tables = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isObj);
  const added = Object.keys(next).filter((k) => !(k in before) && tables(next[k]));
  const rest = Object.fromEntries(Object.entries(next).filter(([k]) => !added.includes(k)));
  let out = same(rest, before) ? src : tomlPatch(src, rest);
  if (added.length) {
    const eol = firstEol(src);
    const tail = tomlStringify(Object.fromEntries(added.map((k) => [k, next[k]])), {
      newLine: eol,
    });
    // A blank line before them, as toml-patch puts before a table it adds.
    if (out.trim() !== "" && !/\n\r?\n$/.test(out)) out += out.endsWith("\n") ? eol : eol + eol;
    out += tail;
  }
  return mixed ? keepLineEnds(text, out) : out;
}

/**
 * `out` (an edit of `original` written with `\n` alone) with the line endings of `original`
 * back on every line the two share, in order; a line `out` adds ends as the line before it.
 */
function keepLineEnds(original: string, out: string): string {
  const lines = (t: string) => {
    const parts = t.split(/(\r?\n)/);
    const rows: Array<{ body: string; end: string }> = [];
    for (let i = 0; i < parts.length; i += 2) {
      rows.push({ body: parts[i], end: parts[i + 1] ?? "" });
    }
    if (rows.length > 1 && rows[rows.length - 1].body === "") rows.pop();
    return rows;
  };
  const was = lines(original);
  const now = lines(out);
  let i = 0; // in `was`
  let j = 0; // in `now`
  let last = firstEol(original) as string;
  const res: string[] = [];
  for (const part of diffArrays(was.map((l) => l.body), now.map((l) => l.body))) {
    for (const _ of part.value) {
      if (part.removed) {
        i++;
        continue;
      }
      const row = now[j++];
      const end = !row.end ? "" : part.added ? last : (was[i].end || row.end);
      if (!part.added) i++;
      if (end) last = end;
      res.push(row.body + end);
    }
  }
  return res.join("");
}
