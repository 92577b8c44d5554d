/**
 * TOML edits that touch only deja's own lines. toml-patch keeps comments when
 * it patches a document, but it re-aligns the inline comments of the user's
 * lines (`model = "x"   # c` gained spaces to line up with the next line's
 * `#`) and takes the comment lines above a key it removes with it (trial 136
 * F1-F3). So the changes deja makes are spliced into the text by lines,
 * placed with toml-patch's parse tree (its lines):
 * - a new table (deja's `[mcp_servers.deja]`) or array-of-tables item
 *   (Kimi's `[[hooks]]`) is appended after everything the file holds, behind
 *   a blank line, so no table the user has or adds above it can take it in
 *   (trial 136 F4: a dotted `mcp_servers.deja = {…}` among the top-level
 *   keys became part of a table the user put above it);
 * - a removed entry takes only its own lines (its header and its key lines,
 *   with the blank line before a table when a blank line or the end follows):
 *   comment lines stay, and a comment ending one of its lines stays on a line
 *   of its own;
 * - a changed entry (a new launcher path) has its key lines written anew in place.
 *
 * A change it cannot place (a key inside the user's inline table, a value
 * TOML cannot hold as deja writes it) is left to the caller (formats.ts),
 * which then patches with toml-patch.
 *
 * @module
 */
import { parseDocument } from "@decimalturn/toml-patch";
import { type Change, dataKey } from "./formats.ts";
import { isObj, type Obj } from "../../core/values.ts";

type Path = Array<string | number>;

/** A key line (or lines, a multi-line value) of the text, by its whole key path. */
interface Row {
  path: Path;
  first: number;
  last: number;
  /** The raw key as written (`mcp_servers.deja`, `"a b"`). */
  raw: string;
}

/** A `[table]` or one `[[array]]` item: its header line and its key lines. */
interface Block {
  path: Path;
  header: number;
  last: number;
  rows: Row[];
}

/** What the text holds, by lines (0-based indexes into its lines). */
interface Layout {
  rows: Row[];
  blocks: Block[];
  /** Lines that hold a comment, each with the column it starts at. */
  comments: Map<number, number>;
}

interface Loc {
  start: { line: number; column: number };
  end: { line: number; column: number };
}
interface Node {
  type: string;
  loc: Loc;
  key?: { value?: string[]; raw?: string; item?: { value: string[] } };
  items?: Node[];
}

const startsWith = (p: Path, q: Path) => q.length <= p.length && q.every((k, i) => p[i] === k);

function layout(text: string): Layout | undefined {
  let cst: Node[];
  try {
    cst = parseDocument(text).cst as unknown as Node[];
  } catch {
    return undefined;
  }
  const out: Layout = { rows: [], blocks: [], comments: new Map() };
  const seen = new Map<string, number>();
  const row = (n: Node, at: Path): Row => ({
    path: [...at, ...(n.key?.value ?? [])],
    first: n.loc.start.line - 1,
    last: n.loc.end.line - 1,
    raw: n.key?.raw ?? "",
  });
  const comment = (n: Node) => {
    const line = n.loc.start.line - 1;
    if (!out.comments.has(line)) out.comments.set(line, n.loc.start.column);
  };
  for (const n of cst) {
    if (n.type === "Comment") comment(n);
    else if (n.type === "KeyValue") out.rows.push(row(n, []));
    else if (n.type === "Table" || n.type === "TableArray") {
      const key = n.key?.item?.value ?? [];
      let path: Path = key;
      if (n.type === "TableArray") {
        const id = JSON.stringify(key);
        const idx = seen.get(id) ?? 0;
        seen.set(id, idx + 1);
        path = [...key, idx];
      }
      const rows: Row[] = [];
      for (const it of n.items ?? []) {
        if (it.type === "Comment") comment(it);
        else if (it.type === "KeyValue") rows.push(row(it, path));
      }
      out.rows.push(...rows);
      out.blocks.push({ path, header: n.loc.start.line - 1, last: n.loc.end.line - 1, rows });
    } else return undefined;
  }
  return out;
}

/** A key as TOML writes it: bare when it can be, else a quoted string. */
function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

function tomlString(s: string): string {
  // JSON's escapes are TOML's; DEL is a control character TOML wants escaped too.
  return JSON.stringify(s).replace(/\x7f/g, "\\u007f");
}

/** `v` as one inline TOML value, or undefined for what deja does not write so (null, dates). */
export function tomlValue(v: unknown): string | undefined {
  if (typeof v === "string") return tomlString(v);
  if (typeof v === "bigint") return String(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : undefined;
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    const items = v.map(tomlValue);
    return items.some((x) => x === undefined) ? undefined : `[${items.join(", ")}]`;
  }
  if (isObj(v)) {
    const pairs = Object.entries(v).map(([k, x]) => {
      const s = tomlValue(x);
      return s === undefined ? undefined : `${tomlKey(k)} = ${s}`;
    });
    if (pairs.some((x) => x === undefined)) return undefined;
    return pairs.length ? `{ ${pairs.join(", ")} }` : "{}";
  }
  return undefined;
}

/** The key lines of table `v`, or undefined when a value cannot be written. */
function tableRows(v: Obj): string[] | undefined {
  const rows: string[] = [];
  for (const [k, x] of Object.entries(v)) {
    const s = tomlValue(x);
    if (s === undefined) return undefined;
    rows.push(`${tomlKey(k)} = ${s}`);
  }
  return rows;
}

function getIn(o: unknown, path: Path): unknown {
  let v = o;
  for (const k of path) {
    if (Array.isArray(v) && typeof k === "number") v = v[k];
    else if (isObj(v) && typeof k === "string") v = v[k];
    else return undefined;
  }
  return v;
}

/**
 * The lines of a new table at `path` holding `v`: its header and key lines, then a table of its
 * own for each object in it (`[mcp_servers.deja]`, not `[mcp_servers]` with `deja = {…}`); an
 * array item's (`[[hooks]]`) objects are written inline. Undefined when a value cannot be written.
 */
function newBlocks(path: Path, v: Obj): string[] | undefined {
  const head = header(path);
  if (!head) return undefined;
  const item = typeof path[path.length - 1] === "number";
  const subs = item ? [] : Object.entries(v).filter(([, x]) => isObj(x));
  const rows = tableRows(
    Object.fromEntries(Object.entries(v).filter(([, x]) => item || !isObj(x))),
  );
  if (!rows) return undefined;
  const out = rows.length || !subs.length ? [head, ...rows] : [];
  for (const [k, x] of subs) {
    const more = newBlocks([...path, k], x as Obj);
    if (!more) return undefined;
    out.push(...more);
  }
  return out;
}

/**
 * The indexes of the items of `was` that `now` lacks, when `now` is `was` with some items taken
 * out (the others in order, unchanged); undefined otherwise.
 */
function keptItems(was: unknown[], now: unknown[]): number[] | undefined {
  const same = (a: unknown, b: unknown) => dataKey(a) === dataKey(b);
  const gone: number[] = [];
  let j = 0;
  was.forEach((x, i) => {
    if (j < now.length && same(x, now[j])) j++;
    else gone.push(i);
  });
  return j === now.length && gone.length ? gone : undefined;
}

/** The header of a table (`[a.b]`) or an array item (`[[hooks]]`) at `path`. */
function header(path: Path): string | undefined {
  const item = typeof path[path.length - 1] === "number";
  const keys = item ? path.slice(0, -1) : path;
  if (!keys.length || keys.some((k) => typeof k !== "string")) return undefined;
  const name = (keys as string[]).map(tomlKey).join(".");
  return item ? `[[${name}]]` : `[${name}]`;
}

/**
 * `text` (TOML, parsing to `before`) with `changes` (formats.ts `diff(before, next)`) spliced in
 * by lines, or undefined when one of them cannot be placed so. Its line ending is `eol`.
 */
export function spliceToml(
  text: string,
  changes: Change[],
  before: Obj,
  next: Obj,
  eol: string,
): string | undefined {
  const lay = layout(text);
  if (!lay) return undefined;
  const lines = text.split("\n");
  const cr = (i: number) => lines[i]?.endsWith("\r") ? "\r" : "";
  /** Per line: undefined kept, null gone, a string its new text. */
  const edit = new Map<number, string | null>();
  const appended: string[][] = [];
  const drop = (first: number, last: number) => {
    for (let i = first; i <= last; i++) {
      const col = lay.comments.get(i);
      // A comment that ends one of deja's lines is the user's: it stays, on a line of its own.
      if (col !== undefined && i === last) {
        const pad = /^[ \t]*/.exec(lines[first])![0];
        edit.set(i, pad + lines[i].slice(col));
      } else edit.set(i, null);
    }
  };
  const units = (p: Path) => ({
    rows: lay.rows.filter((r) => startsWith(r.path, p)),
    blocks: lay.blocks.filter((b) => startsWith(b.path, p)),
  });
  const rewritten = new Set<Row | Block>();
  for (const c of changes) {
    const had = getIn(before, c.path) !== undefined;
    if (!had) {
      if (c.value === undefined) continue;
      // Something new: a table or a list of array items, after all the file holds.
      const items = isObj(c.value)
        ? [{ path: c.path, v: c.value }]
        : Array.isArray(c.value) && c.value.length && c.value.every(isObj) &&
            typeof c.path[c.path.length - 1] === "string"
        ? c.value.map((v, i) => ({ path: [...c.path, i], v: v as Obj }))
        : undefined;
      if (!items) return undefined;
      // An item of a list the text holds as `[[…]]` items only.
      if (c.insert) {
        const list = c.path.slice(0, -1);
        if (lay.rows.some((r) => startsWith(list, r.path))) return undefined;
      }
      for (const it of items) {
        const block = newBlocks(it.path, it.v);
        if (!block) return undefined;
        appended.push(block);
      }
      continue;
    }
    const { rows, blocks } = units(c.path);
    const was = getIn(before, c.path);
    // A list of `[[…]]` items some of which went (deja's hooks): their blocks go.
    if (
      Array.isArray(c.value) && Array.isArray(was) &&
      !rows.some((r) => r.path.length === c.path.length)
    ) {
      const gone = keptItems(was, c.value);
      if (!gone) return undefined;
      for (const i of gone) {
        const b = blocks.find((x) =>
          x.path.length === c.path.length + 1 && x.path[c.path.length] === i
        );
        if (!b) return undefined;
        drop(b.header, b.header);
        for (const r of b.rows) drop(r.first, r.last);
      }
      continue;
    }
    if (c.value === undefined) {
      if (!rows.length && !blocks.length) return undefined; // inside an inline value
      for (const r of rows) drop(r.first, r.last);
      for (const b of blocks) {
        drop(b.header, b.header);
        for (const r of b.rows) drop(r.first, r.last);
      }
      continue;
    }
    // A changed value: the entry holding it written anew, in the form it has.
    const row = lay.rows.filter((r) => startsWith(c.path, r.path))
      .sort((a, b) => b.path.length - a.path.length)[0];
    const block = lay.blocks.filter((b) => startsWith(c.path, b.path))
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (row && (!block || row.path.length > block.path.length)) {
      if (rewritten.has(row)) continue;
      rewritten.add(row);
      // Only a one-line entry deja's value replaces whole, with no comment of the user's on it.
      if (row.first !== row.last || lay.comments.has(row.first)) return undefined;
      const s = tomlValue(getIn(next, row.path));
      if (s === undefined) return undefined;
      const pad = /^[ \t]*/.exec(lines[row.first])![0];
      edit.set(row.first, `${pad}${row.raw} = ${s}${cr(row.first)}`);
    } else if (block) {
      if (rewritten.has(block)) continue;
      rewritten.add(block);
      const v = getIn(next, block.path);
      const body = isObj(v) ? tableRows(v) : undefined;
      if (!body || !block.rows.length) return undefined;
      if (block.rows.some((r) => r.path.length !== block.path.length + 1)) return undefined;
      if (block.rows.some((r) => r.first !== r.last || lay.comments.has(r.first))) return undefined;
      for (const r of block.rows) edit.set(r.first, null);
      const at = block.rows[0].first;
      edit.set(at, body.map((l) => l + cr(at)).join("\n"));
    } else return undefined;
  }
  // A table deja's removal took whole goes with the blank line before it, when a blank line or
  // the end follows (the one install put before it).
  for (const b of lay.blocks) {
    if (edit.get(b.header) !== null || b.header === 0) continue;
    if (lines[b.header - 1].trim() !== "" || edit.get(b.header - 1) === null) continue;
    let after = b.last + 1;
    while (after < lines.length && edit.get(after) === null) after++;
    const end = after >= lines.length || (after === lines.length - 1 && lines[after] === "");
    if (end || lines[after].trim() === "") edit.set(b.header - 1, null);
  }
  const kept: string[] = [];
  lines.forEach((l, i) => {
    const e = edit.get(i);
    if (e === undefined) kept.push(l);
    else if (e !== null) kept.push(e);
  });
  let out = kept.join("\n");
  if (appended.length) {
    if (out.trim() === "") out = "";
    else {
      if (!out.endsWith("\n")) out += eol;
      if (!/\n\r?\n$/.test(out)) out += eol;
    }
    out += appended.map((b) => b.join(eol) + eol).join(eol);
  }
  return out;
}
