/**
 * A push JSON reader for lines too long to hold: it is fed a line's bytes in
 * pieces and builds the value as it goes, keeping of each string only what deja
 * could ever store of it — `cap(s, KEEP_CHARS)` (core/text.ts, parsers/_json_string.ts): the head and the
 * tail around a marker that says how many characters were cut, exactly what the
 * indexer's own cap would make of the whole string. So a line read this way
 * yields the events a `JSON.parse` of it would, once capped, while holding at
 * most {@link LINE_BUDGET} characters of values however long the line.
 *
 * Strict like `JSON.parse` (one value, white space around it, a leading BOM
 * allowed): anything else fails the line as `malformed_json`, a line whose kept values would pass
 * the budget (many cut strings, millions of small values) as `oversized`. After
 * a failure further bytes are ignored. Bytes that are not UTF-8 inside a string
 * are read as U+FFFD and the line kept, with {@link JsonStream.repaired} true.
 *
 * @module
 */
import { CappedString } from "./_json_string.ts";

/** Characters of values (plus a few per scalar and container) one streamed line may keep. */
export const LINE_BUDGET = 8 << 20;

/** Why a streamed line could not be read (a {@link SkipReason} of the same name). */
export type StreamFailure = "malformed_json" | "oversized";

type Container = { arr: unknown[]; obj?: undefined; key?: undefined } | {
  arr?: undefined;
  obj: Record<string, unknown>;
  key?: string;
};

const enum S {
  Value,
  ValueOrEnd,
  KeyOrEnd,
  Key,
  Colon,
  After,
  Str,
  Esc,
  Hex,
  Num,
  Lit,
  Done,
}

const BOM = [0xef, 0xbb, 0xbf];
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
const ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t",
};

/** The one JSON value of a line, read from its bytes in pieces (see the module doc). */
export class JsonStream {
  /** Why the line failed, once it has. */
  failure?: StreamFailure;
  /** Where in the last piece pushed it failed (the byte being read). */
  failedAt = 0;
  /** It failed inside an item of the spilled array. */
  inSpill = false;
  /** String values (and keys) cut to their head and tail. */
  cuts = 0;
  /** Whether a string held bytes that were not UTF-8 (read as U+FFFD). */
  get repaired(): boolean {
    return this.str.repaired;
  }
  private state = S.Value;
  private stack: Container[] = [];
  private result: unknown;
  private kept = 0;
  /** BOM bytes matched so far; -1 once past it. */
  private bom = 0;
  /** The string being read (a key when `isKey`). */
  private str = new CappedString();
  private isKey = false;
  private token = "";
  /** `kept` when the spilled array opened: what each spilled item charged is given back. */
  private spillMark = -1;
  private root?: Container;
  /** The byte of the current piece being read. */
  private at = 0;

  /**
   * @param budget characters of values the whole value may keep
   * @param spill when set, the array under the top-level key `spill.key` (the
   *   top-level array itself when the key is empty) is not kept: each of its items goes to `spill.item` as soon as it is read, and what
   *   it cost is given back to the budget, so a document of millions of items
   *   (a chat's `messages`) is read in the memory of one item and the rest
   */
  constructor(
    private budget = LINE_BUDGET,
    private spill?: { key: string; item: (v: unknown) => void },
  ) {}

  /**
   * The top-level object or array as read so far, even after a failure: the
   * members finished before it (a damaged document's head).
   */
  get partial(): unknown {
    return this.root?.obj ?? this.root?.arr;
  }

  /** Feeds the next bytes of the line (the newline excluded). */
  push(b: Uint8Array): void {
    if (this.failure) return;
    try {
      this.scan(b);
    } catch (e) {
      this.failedAt = this.at;
      const depth = this.spill?.key ? 2 : 1;
      this.inSpill = this.stack.length >= depth && this.stack[depth - 1].arr !== undefined &&
        this.spilling(depth);
      this.fail(failure(e));
    }
  }

  /** The value was whole before the failure (text followed it). */
  get complete(): boolean {
    return this.state === S.Done; // (a failure leaves the state as it was)
  }

  /** Ends the line: its value, or `undefined` with {@link failure} set. */
  end(): { value: unknown } | undefined {
    try {
      if (!this.failure && (this.state === S.Num || this.state === S.Lit)) this.scalar(this.token);
    } catch (e) {
      this.fail(failure(e));
    }
    if (!this.failure && this.state !== S.Done) this.fail("malformed_json");
    return this.failure ? undefined : { value: this.result };
  }

  private fail(why: StreamFailure): void {
    this.failure ??= why;
    this.stack = [];
    this.str = new CappedString();
    this.token = "";
  }

  private charge(n: number): void {
    this.kept += n;
    if (this.kept > this.budget) throw new Budget();
  }

  private scan(b: Uint8Array): void {
    let i = 0;
    const n = b.length;
    // A leading BOM (EF BB BF), possibly split between pieces.
    while (this.bom >= 0 && i < n) {
      if (b[i] === BOM[this.bom]) {
        i++;
        this.bom = this.bom === 2 ? -1 : this.bom + 1;
      } else {
        if (this.bom > 0) throw new SyntaxError("broken BOM");
        this.bom = -1;
      }
    }
    while (i < n) {
      this.at = i;
      const c = b[i];
      switch (this.state) {
        case S.Str: {
          let j = i;
          while (j < n) {
            const d = b[j];
            if (d === 0x22 || d === 0x5c || d < 0x20) break;
            j++;
          }
          if (j > i) this.str.bytes(b, i, j);
          if (j === n) return;
          const d = b[j];
          if (d < 0x20) throw new SyntaxError("control character in string");
          i = j + 1;
          if (d === 0x5c) this.state = S.Esc;
          else this.endString();
          continue;
        }
        case S.Esc: {
          i++;
          if (c === 0x75) {
            this.token = "";
            this.state = S.Hex;
            continue;
          }
          const e = ESCAPES[c];
          if (e === undefined) throw new SyntaxError("bad escape");
          this.str.escape(e.charCodeAt(0));
          this.state = S.Str;
          continue;
        }
        case S.Hex: {
          i++;
          this.token += String.fromCharCode(c);
          if (!/^[0-9a-fA-F]*$/.test(this.token)) throw new SyntaxError("bad \\u escape");
          if (this.token.length === 4) {
            this.str.unicode(parseInt(this.token, 16));
            this.state = S.Str;
          }
          continue;
        }
        case S.Num:
        case S.Lit: {
          const word = this.state === S.Num
            ? (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 ||
              c === 0x45
            : c >= 0x61 && c <= 0x7a;
          if (word) {
            this.token += String.fromCharCode(c);
            if (this.token.length > 1024) throw new SyntaxError("token too long");
            i++;
            continue;
          }
          this.scalar(this.token);
          continue; // the same byte again, after the value
        }
      }
      i++;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      this.structural(c);
    }
  }

  /** One byte outside strings and scalars. */
  private structural(c: number): void {
    const top = this.stack[this.stack.length - 1];
    switch (this.state) {
      case S.KeyOrEnd:
      case S.Key:
        if (c === 0x7d && this.state === S.KeyOrEnd) return this.close(false);
        if (c !== 0x22) throw new SyntaxError("expected a key");
        this.isKey = true;
        this.state = S.Str;
        return;
      case S.Colon:
        if (c !== 0x3a) throw new SyntaxError("expected ':'");
        this.state = S.Value;
        return;
      case S.After:
        if (c === 0x2c && top) {
          this.state = top.arr ? S.Value : S.Key;
          return;
        }
        if (c === 0x5d && top?.arr) return this.close(true);
        if (c === 0x7d && top?.obj) return this.close(false);
        throw new SyntaxError("expected ',' or the end of a container");
      case S.ValueOrEnd:
        if (c === 0x5d) return this.close(true);
        break;
      case S.Done:
        throw new SyntaxError("text after the value");
    }
    // A value starts.
    if (c === 0x7b || c === 0x5b) {
      this.charge(32);
      if (c === 0x5b && this.spilling(this.stack.length + 1)) this.spillMark = this.kept;
      const box: Container = c === 0x7b ? { obj: {} } : { arr: [] };
      this.root ??= box;
      this.stack.push(box);
      this.state = c === 0x7b ? S.KeyOrEnd : S.ValueOrEnd;
    } else if (c === 0x22) {
      this.isKey = false;
      this.state = S.Str;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.token = String.fromCharCode(c);
      this.state = S.Num;
    } else if (c >= 0x61 && c <= 0x7a) {
      this.token = String.fromCharCode(c);
      this.state = S.Lit;
    } else {
      throw new SyntaxError("expected a value");
    }
  }

  private scalar(token: string): void {
    let v: unknown;
    if (this.state === S.Num) {
      if (!NUMBER.test(token)) throw new SyntaxError("bad number");
      v = Number(token);
    } else {
      if (!(token in LITERALS)) throw new SyntaxError("bad literal");
      v = LITERALS[token];
    }
    this.token = "";
    this.value(v, 16);
  }

  private close(isArr: boolean): void {
    const top = this.stack.pop()!;
    if (isArr !== (top.arr !== undefined)) throw new SyntaxError("mismatched close");
    this.value(top.arr ?? top.obj, 0);
  }

  /** A finished value goes into its container (or is the result). */
  private value(v: unknown, cost: number): void {
    this.charge(cost);
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.result = v;
      this.state = S.Done;
      return;
    }
    if (top.arr) {
      if (this.spillMark >= 0 && this.spilling(this.stack.length)) {
        this.kept = this.spillMark;
        this.spill!.item(v);
      } else top.arr.push(v);
    } else {
      const k = top.key!;
      // As JSON.parse does: `__proto__` is an own property, not the prototype.
      if (k === "__proto__") {
        Object.defineProperty(top.obj, k, {
          value: v,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else top.obj[k] = v;
      top.key = undefined;
    }
    this.state = S.After;
  }

  /**
   * Whether an array at this depth (1: the top value) is the spilled one: the top-level
   * member `spill.key`'s, or with an empty key the top value itself.
   */
  private spilling(depth: number): boolean {
    if (this.spill === undefined) return false;
    if (this.spill.key === "") return depth === 1;
    const root = this.stack[0];
    return depth === 2 && root?.obj !== undefined && root.key === this.spill.key;
  }

  private endString(): void {
    const { text, cut } = this.str.end(); // an unfinished character before the `"` throws
    if (cut) this.cuts++;
    if (this.isKey) {
      this.charge(text.length + 16);
      this.stack[this.stack.length - 1].key = text;
      this.state = S.Colon;
    } else this.value(text, text.length + 16);
  }
}

/** Thrown when a line's kept values pass the budget. */
class Budget extends Error {}

/** Why a thrown error failed the line. */
function failure(e: unknown): StreamFailure {
  return e instanceof Budget ? "oversized" : "malformed_json";
}
