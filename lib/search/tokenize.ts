/**
 * Tokens the way the index makes them: FTS5's `unicode61 remove_diacritics 2`
 * tokenizer splits on anything that is not a letter or a digit (so `_`, `-`,
 * `.` and `/` separate tokens), folds case and strips diacritics from Latin
 * letters. The query side, the vocabulary kept at ingest and the snippet
 * highlighter all use these functions, so a token found in one is spelled the
 * same in the others.
 *
 * @module
 */

const TOKEN = /[\p{L}\p{N}]+/gu;
// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Lower case, Latin diacritics removed (`Café` -> `cafe`); other scripts kept as they are. */
export function fold(text: string): string {
  const low = text.toLowerCase();
  if (!NON_ASCII.test(low)) return low;
  return low.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
}

/** The index tokens of `text`, in order. */
export function tokens(text: string): string[] {
  return fold(text).match(TOKEN) ?? [];
}

/** A token with its place in the original text (UTF-16 offsets, end exclusive). */
export interface TokenSpan {
  token: string;
  start: number;
  end: number;
}

/** Tokens of `text` with their offsets in `text` (for highlighting). */
export function tokenSpans(text: string): TokenSpan[] {
  const out: TokenSpan[] = [];
  for (const m of text.matchAll(TOKEN)) {
    out.push({ token: fold(m[0]), start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

/** Longest token kept in the vocabulary (longer ones are hashes, base64 and the like). */
export const MAX_VOCAB_TOKEN = 48;

/**
 * Collects the vocabulary tokens of texts: every index token of 2 to
 * {@link MAX_VOCAB_TOKEN} characters that is not only digits. It runs over
 * every text written to the index, so ASCII text takes a character loop that
 * hashes each token as it goes and makes a string only for a token it has not
 * seen (about twice as fast as a regular expression and a Set); other text
 * takes the exact path of {@link tokens}.
 */
export class VocabCollector {
  /** Token hash -> a token with that hash already collected. */
  private seen = new Map<number, string>();
  private all = new Set<string>();
  /** Tokens collected since the last {@link take}. */
  private fresh: string[] = [];

  /** Adds the tokens of `text`. */
  add(text: string): void {
    if (NON_ASCII.test(text)) {
      for (const t of tokens(text)) {
        if (t.length >= 2 && t.length <= MAX_VOCAB_TOKEN && !/^\d+$/.test(t)) this.note(t);
      }
      return;
    }
    const low = text.toLowerCase();
    const n = low.length;
    let start = -1;
    let h = 0;
    let digits = true;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? low.charCodeAt(i) : 32;
      const isDigit = c >= 48 && c <= 57;
      if (isDigit || (c >= 97 && c <= 122)) {
        if (start < 0) {
          start = i;
          h = 0x811c9dc5;
          digits = true;
        }
        if (!isDigit) digits = false;
        h = Math.imul(h ^ c, 0x01000193);
      } else if (start >= 0) {
        const len = i - start;
        if (len >= 2 && len <= MAX_VOCAB_TOKEN && !digits) {
          const prev = this.seen.get(h);
          let same = prev !== undefined && prev.length === len;
          for (let k = 0; same && k < len; k++) {
            same = prev!.charCodeAt(k) === low.charCodeAt(start + k);
          }
          if (!same) {
            const w = low.slice(start, i);
            if (prev === undefined) this.seen.set(h, w);
            this.note(w);
          }
        }
        start = -1;
      }
    }
  }

  private note(t: string): void {
    if (this.all.has(t)) return;
    this.all.add(t);
    this.fresh.push(t);
  }

  /** The tokens collected since the last call. */
  take(): string[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
