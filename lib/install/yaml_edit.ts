/**
 * YAML edits that touch only the lines of the value they change. The `yaml`
 * package keeps comments when it re-renders a whole document, but it re-spaces
 * the rest (`[a,b]` becomes `[ a, b ]`, `key:   v  # c` becomes `key: v # c`);
 * so each change is spliced into the text at the range the parsed document
 * gives for its node: a new entry is rendered alone and inserted after its
 * siblings at their indentation, a removed one takes its own lines with it, a
 * changed scalar is replaced where it stands. A change the splicer cannot
 * place (a flow map holding other entries, a document it does not understand)
 * is left to the caller, which then renders the document whole.
 *
 * @module
 */
import * as YAML from "yaml";

type Path = Array<string | number>;
type Node = YAML.Node | null | undefined;

/** One value to set (or remove, `value` undefined) at a key path; see formats.ts's `diff`. */
export interface YamlChange {
  path: Path;
  value: unknown;
}

const isMap = (n: unknown): n is YAML.YAMLMap => YAML.isMap(n);
const isSeq = (n: unknown): n is YAML.YAMLSeq => YAML.isSeq(n);

/** Start of the line holding `at`. */
function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** Just past the newline ending the line holding `at` (or the text's end). */
function lineEnd(text: string, at: number): number {
  const i = text.indexOf("\n", Math.max(at - 1, 0));
  return i < 0 ? text.length : i + 1;
}

/** `text` indented by `pad` on every line, in the document's line ending. */
function indented(text: string, pad: string, eol: string): string {
  return text.replace(/\n$/, "").split("\n").map((l) => l ? pad + l : l).join(eol) + eol;
}

/** The child of a collection node at key or index `k`. */
function child(n: Node, k: string | number): Node {
  if (isMap(n)) return n.get(k, true) as Node;
  if (isSeq(n) && typeof k === "number") return n.get(k, true) as Node;
  return undefined;
}

/** The pair of map `m` whose key is `k`. */
function pairOf(m: YAML.YAMLMap, k: string | number): YAML.Pair | undefined {
  return m.items.find((p) => YAML.isScalar(p.key) ? p.key.value === k : p.key === k);
}

/** The range [start, end) of whole lines a block pair or seq item covers, from its key (or `-`). */
function entryLines(text: string, keyStart: number, node: Node): [number, number] {
  const end = node?.range ? node.range[1] : keyStart;
  return [lineStart(text, keyStart), lineEnd(text, Math.max(end, keyStart + 1))];
}

/** The column of the first entry of a block collection, as spaces. */
function padOf(text: string, at: number): string {
  return " ".repeat(at - lineStart(text, at));
}

/** Where a block seq item's `-` is (its value starts after it). */
function dashAt(text: string, item: Node): number | undefined {
  if (!item?.range) return undefined;
  const from = lineStart(text, item.range[0]);
  const i = text.lastIndexOf("-", item.range[0]);
  return i >= from ? i : undefined;
}

/** `v` as one line of flow YAML. */
function flow(v: unknown): string {
  return YAML.stringify(v, { collectionStyle: "flow", lineWidth: 0 }).replace(/\n$/, "");
}

/**
 * One change spliced into `text`, or undefined when the splicer cannot place
 * it (the caller then renders the document whole).
 */
function spliceOne(text: string, c: YamlChange): string | undefined {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) return undefined;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  // The deepest node on the path that exists.
  let at: Node = doc.contents as Node;
  let depth = 0;
  while (depth < c.path.length - 1) {
    const next = child(at, c.path[depth]);
    if (next === undefined || next === null || !YAML.isCollection(next)) break;
    at = next;
    depth++;
  }
  const key = c.path[depth];
  const rest = c.path.slice(depth + 1);
  const whole = rest.reduceRight<unknown>((v, k) => ({ [k]: v }), c.value);
  if (isMap(at) && !at.flow) {
    const pair = pairOf(at, key);
    if (pair && rest.length === 0) {
      const k = pair.key as YAML.Node;
      if (!k.range) return undefined;
      const v = pair.value as Node;
      if (c.value === undefined) {
        const [a, b] = entryLines(text, k.range[0], v);
        return text.slice(0, a) + text.slice(b);
      }
      if (YAML.isScalar(v) && v.range && (c.value === null || typeof c.value !== "object")) {
        const s = YAML.stringify(c.value).replace(/\n$/, "");
        return text.slice(0, v.range[0]) + s + text.slice(v.range[1]);
      }
      // Another shape: the pair is rendered anew in its place, the comment ending the old
      // value's line kept on the key's (trial 141 H2: aider's `read: X   # …` made a list lost it).
      const [a, b] = entryLines(text, k.range[0], v);
      const said = (v as { comment?: string | null } | null)?.comment;
      const body = YAML.stringify({ [key]: c.value }).replace(
        /\n/,
        said && !said.includes("\n") ? ` #${said}\n` : "\n",
      );
      return text.slice(0, a) + indented(body, padOf(text, k.range[0]), eol) + text.slice(b);
    }
    if (pair || c.value === undefined) return undefined;
    const last = at.items.at(-1);
    const lastKey = last?.key as Node;
    if (!last || !lastKey?.range) {
      return undefined;
    }
    const end = lineEnd(text, Math.max((last.value as Node)?.range?.[1] ?? 0, lastKey.range[1]));
    const body = YAML.stringify({ [key]: whole });
    const head = text.slice(0, end);
    const sep = head.endsWith("\n") || head === "" ? "" : eol;
    return head + sep + indented(body, padOf(text, lastKey.range[0]), eol) + text.slice(end);
  }
  if (isSeq(at) && !at.flow && typeof key === "number") {
    const items = at.items as Node[];
    if (rest.length) return undefined;
    if (c.value === undefined) {
      const dash = dashAt(text, items[key]);
      if (dash === undefined) return undefined;
      const [a, b] = entryLines(text, dash, items[key]);
      return text.slice(0, a) + text.slice(b);
    }
    const ref = items[key] ?? items.at(-1);
    const dash = dashAt(text, ref);
    if (dash === undefined) return undefined;
    const body = YAML.stringify([c.value]);
    if (key < items.length) {
      const [a, b] = entryLines(text, dash, items[key]);
      return text.slice(0, a) + indented(body, padOf(text, dash), eol) + text.slice(b);
    }
    const end = lineEnd(text, Math.max(ref?.range?.[1] ?? dash, dash + 1));
    return text.slice(0, end) + indented(body, padOf(text, dash), eol) + text.slice(end);
  }
  if (isSeq(at) && at.flow && typeof key === "number" && !rest.length && at.range) {
    // A flow list (`read: [a.md, b.md]`): the item goes in or out between its commas.
    const items = at.items as Node[];
    const scalar = c.value === undefined || typeof c.value !== "object";
    if (!scalar) return undefined;
    if (c.value === undefined) {
      const it = items[key];
      if (!it?.range) return undefined;
      const prev = items[key - 1]?.range;
      const next = items[key + 1]?.range;
      const [a, b] = next ? [it.range[0], next[0]] : prev ? [prev[1], it.range[1]] : [
        it.range[0],
        it.range[1],
      ];
      return text.slice(0, a) + text.slice(b);
    }
    const s = flow(c.value);
    if (key < items.length) {
      const it = items[key];
      if (!it?.range) return undefined;
      return text.slice(0, it.range[0]) + s + text.slice(it.range[1]);
    }
    const close = text.lastIndexOf("]", at.range[1]);
    const lastItem = items.at(-1)?.range;
    if (close < 0) return undefined;
    const insertAt = lastItem ? lastItem[1] : close;
    const glue = lastItem ? ", " : "";
    return text.slice(0, insertAt) + glue + s + text.slice(insertAt);
  }
  if (isMap(at) && at.flow && at.range && !rest.length) {
    // A flow map (`mcp_servers: {github: {command: gh}}`): the pair goes in or out between commas.
    const pairs = at.items;
    const i = pairs.findIndex((p) => YAML.isScalar(p.key) && p.key.value === key);
    const span = (p: YAML.Pair): [number, number] | undefined => {
      const k = p.key as Node;
      const v = p.value as Node;
      return k?.range ? [k.range[0], v?.range?.[1] ?? k.range[1]] : undefined;
    };
    if (c.value === undefined) {
      const me = i >= 0 ? span(pairs[i]) : undefined;
      if (!me) return undefined;
      const next = pairs[i + 1] ? span(pairs[i + 1]) : undefined;
      const prev = pairs[i - 1] ? span(pairs[i - 1]) : undefined;
      const [a, b] = next ? [me[0], next[0]] : prev ? [prev[1], me[1]] : me;
      return text.slice(0, a) + text.slice(b);
    }
    const s = `${flow(key)}: ${flow(c.value)}`;
    if (i >= 0) {
      const me = span(pairs[i]);
      return me ? text.slice(0, me[0]) + s + text.slice(me[1]) : undefined;
    }
    const last = pairs.length ? span(pairs[pairs.length - 1]) : undefined;
    const close = text.lastIndexOf("}", at.range[1]);
    if (close < 0) return undefined;
    return last
      ? text.slice(0, last[1]) + ", " + s + text.slice(last[1])
      : text.slice(0, close) + s + text.slice(close);
  }
  // An empty value where a collection goes (`mcp_servers:` or `extensions: {}`): the pair anew.
  if (depth > 0 && c.value !== undefined) {
    const parentPath = c.path.slice(0, depth);
    const holder = doc.getIn(parentPath.slice(0, -1), true) as Node;
    const empty = at === null || at === undefined ||
      (YAML.isCollection(at) && at.items.length === 0) ||
      (YAML.isScalar(at) && (at.value === null || at.value === ""));
    if (isMap(holder) && !holder.flow && empty) {
      const pk = parentPath.at(-1)!;
      const pair = pairOf(holder, pk);
      const k = pair?.key as Node;
      if (!pair || !k?.range) return undefined;
      const [a, b] = entryLines(text, k.range[0], pair.value as Node);
      const body = YAML.stringify({ [pk]: { [key]: whole } });
      return text.slice(0, a) + indented(body, padOf(text, k.range[0]), eol) + text.slice(b);
    }
  }
  return undefined;
}

/**
 * `text` with `changes` spliced in, or undefined when any of them cannot be
 * placed or the result does not read back as `expected` (the caller then
 * renders the document whole).
 */
export function spliceYaml(
  text: string,
  changes: YamlChange[],
  expected: unknown,
): string | undefined {
  let out = text;
  for (const c of changes) {
    const next = spliceOne(out, c);
    if (next === undefined) return undefined;
    out = next;
  }
  const back = YAML.parseDocument(out);
  if (back.errors.length) return undefined;
  return JSON.stringify(back.toJS() ?? {}) === JSON.stringify(expected) ? out : undefined;
}
