/**
 * One JSON string value as its bytes arrive (parsers/_json_stream.ts): raw
 * UTF-8 and escapes are gathered and decoded in large pieces, and only the
 * head and the tail that `cap(s, KEEP_CHARS)` (core/text.ts) would keep are
 * held, with the length in UTF-16 units, so the kept text is exactly that cap
 * of the whole string however long it is.
 *
 * @module
 */
import { cutText, KEEP_CHARS } from "../core/text.ts";

const TAIL = Math.floor(KEEP_CHARS * 0.25);
const HEAD = KEEP_CHARS - TAIL;

/** A string being read, capped as it grows; {@link end} gives it and starts the next. */
export class CappedString {
  /** True once bytes that were not UTF-8 were read as U+FFFD (core/text.ts `decodeUtf8`). */
  repaired = false;
  private decoder = new TextDecoder("utf-8");
  // String bytes not yet decoded, and a `\u` high surrogate waiting for its low half.
  private buf = new Uint8Array(64 * 1024);
  private blen = 0;
  private hi?: number;
  // The head, the tail (trimmed as it grows) and the length in UTF-16 units.
  private head = "";
  private tail = "";
  private len = 0;

  /** A simple escape (`\n`, `\"`, ...): the character it stands for. */
  escape(code: number): void {
    this.lone();
    this.point(code);
  }

  /** Raw string bytes `b[i..j)`, gathered so the decoder is called on large pieces. */
  bytes(b: Uint8Array, i: number, j: number): void {
    this.lone();
    if (j - i > this.buf.length - this.blen) {
      this.flush(false);
      if (j - i >= this.buf.length) {
        this.add(this.decode(b.subarray(i, j), true));
        return;
      }
    }
    this.buf.set(b.subarray(i, j), this.blen);
    this.blen += j - i;
  }

  /**
   * Decodes bytes, bad sequences as U+FFFD: `repaired` is set when one appears
   * that the bytes did not spell themselves (`EF BF BD`; one split between two
   * pieces may count as repaired).
   */
  private decode(b: Uint8Array, stream: boolean): string {
    const s = this.decoder.decode(b, { stream });
    if (!this.repaired && s.includes("\uFFFD") && !spellsReplacement(b)) this.repaired = true;
    return s;
  }

  /** Decodes the gathered bytes; `final` also ends the decoder's character (U+FFFD when unfinished). */
  private flush(final: boolean): void {
    if (this.blen === 0 && !final) return;
    this.add(this.decode(this.buf.subarray(0, this.blen), !final));
    this.blen = 0;
  }

  /** A `\uXXXX` escape: a pair of surrogates joins into one character, a lone one is kept as is. */
  unicode(u: number): void {
    if (this.hi !== undefined && u >= 0xdc00 && u <= 0xdfff) {
      this.point(0x10000 + ((this.hi - 0xd800) << 10) + (u - 0xdc00));
      this.hi = undefined;
      return;
    }
    this.lone();
    if (u >= 0xd800 && u <= 0xdbff) this.hi = u;
    else if (u >= 0xdc00 && u <= 0xdfff) {
      this.flush(true);
      this.add(String.fromCharCode(u));
    } else this.point(u);
  }

  /** A high surrogate not followed by its low half, kept alone (as JSON.parse keeps it). */
  private lone(): void {
    if (this.hi === undefined) return;
    this.flush(true);
    this.add(String.fromCharCode(this.hi));
    this.hi = undefined;
  }

  /** One code point as UTF-8 bytes. */
  private point(p: number): void {
    if (this.blen + 4 > this.buf.length) this.flush(false);
    const o = this.buf;
    if (p < 0x80) o[this.blen++] = p;
    else if (p < 0x800) {
      o[this.blen++] = 0xc0 | (p >> 6);
      o[this.blen++] = 0x80 | (p & 63);
    } else if (p < 0x10000) {
      o[this.blen++] = 0xe0 | (p >> 12);
      o[this.blen++] = 0x80 | ((p >> 6) & 63);
      o[this.blen++] = 0x80 | (p & 63);
    } else {
      o[this.blen++] = 0xf0 | (p >> 18);
      o[this.blen++] = 0x80 | ((p >> 12) & 63);
      o[this.blen++] = 0x80 | ((p >> 6) & 63);
      o[this.blen++] = 0x80 | (p & 63);
    }
  }

  /** Appends decoded text to the string being read, keeping its head and a bounded tail. */
  private add(s: string): void {
    if (!s) return;
    this.len += s.length;
    if (this.head.length < HEAD) {
      const take = HEAD - this.head.length;
      if (s.length <= take) {
        this.head += s;
        return;
      }
      this.head += s.slice(0, take);
      s = s.slice(take);
    }
    this.tail += s;
    if (this.tail.length > 2 * TAIL) this.tail = this.tail.slice(this.tail.length - TAIL);
  }

  /**
   * The string read since the last call: whole, or its cap with `cut` true
   * (bytes ending inside a character end it with U+FFFD, and set `repaired`).
   */
  end(): { text: string; cut: boolean } {
    this.lone();
    this.flush(true);
    const cut = this.len > KEEP_CHARS;
    const text = cut
      ? this.head + cutText(this.len - HEAD - TAIL) + this.tail.slice(this.tail.length - TAIL)
      : this.head + this.tail;
    this.head = this.tail = "";
    this.len = 0;
    return { text, cut };
  }
}

/** Whether `b` holds the UTF-8 bytes of U+FFFD itself. */
function spellsReplacement(b: Uint8Array): boolean {
  for (let i = b.indexOf(0xef); i !== -1 && i + 2 < b.length; i = b.indexOf(0xef, i + 1)) {
    if (b[i + 1] === 0xbf && b[i + 2] === 0xbd) return true;
  }
  return false;
}
