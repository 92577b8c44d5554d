/**
 * Salvage of a JSON document that no longer parses whole: one bad byte, a cut
 * tail, a duplicated or swapped line. The document is read record by record
 * instead: the members of the top-level object each parse on their own, and
 * an array (the top-level one, or a member's: a chat's `messages`, a task's
 * items) is read element by element, resynchronising after a damaged element
 * on the next one that parses. Only what is damaged is lost, and each
 * damaged stretch is counted once as `malformed_json`.
 *
 * A value is cut out of the text by a scan that balances brackets outside
 * strings, so one element is parsed without its neighbours. A raw line break
 * inside a string ends the scan (JSON strings cannot hold one), which keeps
 * a damaged quote from swallowing the rest of a pretty-printed document.
 *
 * @module
 */
import type { ParseCtx } from "../core/model.ts";

/** Raw control characters JSON forbids inside strings (tab, line breaks excepted). */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/** A whole document read this way may scan its text at most this many times over. */
const WORK_FACTOR = 16;

/**
 * Reads `text` (which failed `JSON.parse`) record by record. Returns the
 * top-level array or object with what could be read, or undefined when
 * nothing could. Each damaged stretch is counted through `ctx.skip` as
 * `malformed_json` at `<where>#<member>[<index>]`; an element kept after its
 * raw control characters were replaced is counted with that said.
 */
export function salvageJson(text: string, where: string, ctx: Pick<ParseCtx, "skip">): unknown {
  const s = new Scanner(text, where, ctx);
  const start = s.skipWs(0);
  const c = text[start];
  if (c === "[") {
    const got = s.array(start, "").value;
    return got.length ? got : undefined;
  }
  if (c === "{") return s.object(start);
  ctx.skip("malformed_json", where, "not a JSON object or array");
  return undefined;
}

/** One salvage pass over a document's text. */
class Scanner {
  private budget: number;

  constructor(
    readonly text: string,
    readonly where: string,
    readonly ctx: Pick<ParseCtx, "skip">,
  ) {
    this.budget = WORK_FACTOR * (text.length + 1024);
  }

  skipWs(i: number): number {
    const t = this.text;
    while (i < t.length && (t[i] === " " || t[i] === "\n" || t[i] === "\r" || t[i] === "\t")) i++;
    return i;
  }

  /** Column of `i` on its line, or -1 when something other than spaces precedes it there. */
  private column(i: number): number {
    const t = this.text;
    let k = i - 1;
    for (; k >= 0 && t[k] !== "\n"; k--) {
      if (t[k] !== " " && t[k] !== "\t" && t[k] !== "\r") return -1;
    }
    return i - k - 1;
  }

  /**
   * End (exclusive) of the value starting at `i`: a balanced bracket group
   * outside strings, a string, or a bare scalar; -1 when the text ends first,
   * a bracket closes the wrong group, or a string runs into a raw line break.
   */
  scanEnd(i: number): number {
    const t = this.text;
    const first = t[i];
    if (first !== "{" && first !== "[" && first !== '"') {
      let j = i;
      while (j < t.length && !/[,\]}\s]/.test(t[j])) j++;
      return j > i ? j : -1;
    }
    const stack: string[] = [];
    let j = i;
    while (j < t.length) {
      const ch = t[j];
      if (ch === '"') {
        j++;
        while (j < t.length && t[j] !== '"') {
          if (t[j] === "\n") return this.spend(j - i), -1;
          j += t[j] === "\\" ? 2 : 1;
        }
        if (j >= t.length) return this.spend(j - i), -1;
        if (stack.length === 0) return this.spend(j - i), j + 1;
      } else if (ch === "{" || ch === "[") {
        stack.push(ch === "{" ? "}" : "]");
      } else if (ch === "}" || ch === "]") {
        if (stack.pop() !== ch) return this.spend(j - i), -1;
        if (stack.length === 0) return this.spend(j - i), j + 1;
      }
      j++;
    }
    this.spend(j - i);
    return -1;
  }

  private spend(n: number): void {
    this.budget -= n;
  }

  /** The value at `i` parsed alone, and where it ends; undefined when it does not parse. */
  value(i: number, at: string): { value: unknown; end: number } | undefined {
    const end = this.scanEnd(i);
    if (end < 0) return undefined;
    const slice = this.text.slice(i, end);
    try {
      return { value: JSON.parse(slice), end };
    } catch { /* try once more without raw control characters */ }
    if (!CONTROL.test(slice)) return undefined;
    try {
      const value = JSON.parse(slice.replace(CONTROLS, "\uFFFD"));
      this.ctx.skip("malformed_json", at, "kept with control characters replaced");
      return { value, end };
    } catch {
      return undefined;
    }
  }

  /**
   * Reads the array at `open` element by element; an element must start like
   * the first one. After a damaged element (or separator) the next one is the
   * first later `{`/`[` that is no member value or first element of a nested
   * list, sits where the elements sit (the same column in a pretty-printed
   * document) and parses with a comma or `]` after it. Returns the elements and where reading
   * stopped (after the `]`, or the text's end).
   */
  array(open: number, name: string): { value: unknown[]; end: number } {
    const t = this.text;
    const out: unknown[] = [];
    let i = this.skipWs(open + 1);
    const col = this.column(i);
    const kind = t[i];
    let index = 0;
    while (i < t.length && this.budget > 0) {
      if (t[i] === "]") return { value: out, end: i + 1 };
      const got = t[i] === kind ? this.value(i, `${this.where}#${name}[${index}]`) : undefined;
      const after = got ? this.skipWs(got.end) : -1;
      if (got) {
        out.push(got.value);
        index++;
        if (t[after] === "," || t[after] === "]" || after >= t.length) {
          i = t[after] === "," ? this.skipWs(after + 1) : after;
          continue;
        }
        // The element is whole but what follows it is not a separator.
        this.ctx.skip("malformed_json", `${this.where}#${name}[${index}]`, "damaged separator");
        const next = this.resync(after, kind, col);
        if (next.end) return { value: out, end: next.at };
        i = next.at;
        continue;
      }
      this.ctx.skip("malformed_json", `${this.where}#${name}[${index}]`, "damaged record skipped");
      index++;
      const next = this.resync(i + 1, kind, col);
      if (next.end) return { value: out, end: next.at };
      i = next.at;
    }
    if (this.budget <= 0) {
      this.ctx.skip("malformed_json", `${this.where}#${name}`, "too damaged to read further");
    } else if (index === out.length) {
      this.ctx.skip("malformed_json", `${this.where}#${name}`, "document ends inside the list");
    }
    return { value: out, end: t.length };
  }

  /** Where the next intact element starts after damage, or the array's end. */
  private resync(from: number, kind: string, col: number): { at: number; end?: boolean } {
    const t = this.text;
    // Records are objects (or lists); a list of scalars is not resynchronised.
    if (kind !== "{" && kind !== "[") return { at: t.length, end: true };
    for (let j = from; j < t.length && this.budget > 0; j++) {
      const ch = t[j];
      if (ch === "]" && col > 0) {
        const c = this.column(j);
        if (c >= 0 && c < col) return { at: j + 1, end: true };
        continue;
      }
      if (ch !== kind) continue;
      if (col >= 0 ? this.column(j) !== col : ":[".includes(t[this.prevNonWs(j)])) continue;
      const end = this.scanEnd(j);
      if (end < 0) continue;
      const after = t[this.skipWs(end)];
      if (after !== "," && after !== "]" && after !== undefined) continue;
      return { at: j };
    }
    return { at: t.length, end: true };
  }

  private prevNonWs(j: number): number {
    let k = j - 1;
    while (k >= 0 && /\s/.test(this.text[k])) k--;
    return k;
  }

  /**
   * Reads the object at `open` member by member; a member whose value is an
   * array is read element by element when it does not parse whole. A damaged
   * member of another kind is lost, and reading goes on at the next member
   * at the same column (a pretty-printed document), else stops.
   */
  object(open: number): Record<string, unknown> | undefined {
    const t = this.text;
    const out: Record<string, unknown> = {};
    let any = false;
    let damaged = false;
    let i = this.skipWs(open + 1);
    const col = this.column(i);
    while (i < t.length && t[i] !== "}" && this.budget > 0) {
      const key = t[i] === '"' ? this.value(i, this.where) : undefined;
      const colon = key ? this.skipWs(key.end) : -1;
      if (!key || typeof key.value !== "string" || t[colon] !== ":") {
        this.ctx.skip("malformed_json", this.where, "damaged member skipped");
        damaged = true;
        const next = this.nextMember(i + 1, col);
        if (next < 0) break;
        i = next;
        continue;
      }
      const name = key.value;
      const v = this.skipWs(colon + 1);
      const got = this.value(v, `${this.where}#${name}`);
      if (got) {
        out[name] = got.value;
        any = true;
        i = this.skipWs(got.end);
      } else if (t[v] === "[") {
        const arr = this.array(v, name);
        out[name] = arr.value;
        any = true;
        i = this.skipWs(arr.end);
      } else {
        this.ctx.skip("malformed_json", `${this.where}#${name}`, "damaged member skipped");
        damaged = true;
        const next = this.nextMember(v, col);
        if (next < 0) break;
        i = next;
        continue;
      }
      if (t[i] === ",") i = this.skipWs(i + 1);
    }
    if (any) return out;
    if (t.length && !damaged) this.ctx.skip("malformed_json", this.where, "nothing readable");
    return undefined;
  }

  /** The next `"` at column `col` (a member of the same object), or -1. */
  private nextMember(from: number, col: number): number {
    if (col < 0) return -1;
    const t = this.text;
    for (let j = from; j < t.length; j++) {
      if (t[j] === '"' && this.column(j) === col) return j;
    }
    return -1;
  }
}
