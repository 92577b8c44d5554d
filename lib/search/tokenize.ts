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

/** FNV-1a's offset basis as a signed 32-bit integer (the same bits as 0x811c9dc5). */
const FNV_BASIS = 0x811c9dc5 | 0;

/** A collector's smallest hash table (slots; it doubles when half full). */
const MIN_TABLE = 1 << 10;

/** A collected (folded) token's hash, as {@link VocabCollector.add} makes it. */
function tokenHash(t: string): number {
  let h = FNV_BASIS;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Character classes by UTF-16 unit: 0 separator, 1 digit, 2 letter (ASCII ones;
 * {@link VocabCollector.add} reads only ASCII text with it). A table of every unit
 * spares the scan a range test: its two tight loops ran ~20% faster under Bun.
 */
const CLASS = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) CLASS[c] = 1;
for (let c = 65; c <= 90; c++) CLASS[c] = CLASS[c + 32] = 2;

/**
 * Collects the vocabulary tokens of texts: every index token of 2 to
 * {@link MAX_VOCAB_TOKEN} characters that is not only digits. It runs over
 * every text written to the index, so ASCII text takes a character loop that
 * hashes each token as it goes and makes a string only for a token whose hash
 * it has not seen (several times faster than a regular expression and a Set);
 * other text takes the exact path of {@link tokens}.
 */
export class VocabCollector {
  /**
   * Open-addressing set of the 32-bit hashes of the tokens collected (0 = empty slot).
   * Signed: hashes stay small integers the JIT keeps in registers (as unsigned
   * values over 2^31 they were doubles, and the loop in {@link add} ran ~1.3-2x slower under Bun).
   */
  private table = new Int32Array(MIN_TABLE);
  private used = 0;
  /** Tokens collected since the last {@link take}. */
  private fresh: string[] = [];
  /** What the tokens collected belong to, for a caller that scopes them (lib/prepare.ts). */
  owner: string | undefined;
  /**
   * Tokens not to collect however new to this collector: those a parse worker
   * knows the writer holds already (lib/parse_worker.ts).
   */
  known: VocabCollector | undefined;

  /** How many tokens are collected. */
  get size(): number {
    return this.used;
  }

  /** Adds the tokens of `text`. */
  add(text: string): void {
    if (NON_ASCII.test(text)) {
      for (const t of tokens(text)) {
        if (t.length < 2 || t.length > MAX_VOCAB_TOKEN || /^\d+$/.test(t)) continue;
        const h = tokenHash(t);
        if (this.insertHash(h) && !this.known?.hasHash(h)) this.fresh.push(t);
      }
      return;
    }
    const n = text.length;
    let i = 0;
    while (i < n) {
      while (i < n && CLASS[text.charCodeAt(i)] === 0) i++;
      const start = i;
      let h = FNV_BASIS;
      let kinds = 0; // 1 digit, 2 letter: a token of digits only is no vocabulary
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        const k = CLASS[c];
        if (k === 0) break;
        kinds |= k;
        h = Math.imul(h ^ (c | 32), 0x01000193);
      }
      const len = i - start;
      if (
        len >= 2 && len <= MAX_VOCAB_TOKEN && (kinds & 2) !== 0 && this.insertHash(h) &&
        !this.known?.hasHash(h)
      ) {
        this.fresh.push(text.slice(start, i).toLowerCase());
      }
    }
  }

  /**
   * Records hash `h`; false when it was there. (Two tokens with the same 32-bit
   * hash are rare; the second is then not collected: it stays searchable, only
   * not a candidate of the substring and spelling tiers.)
   */
  private insertHash(h: number): boolean {
    const key = h | 0 || 1;
    let mask = this.table.length - 1;
    let i = key & mask;
    while (this.table[i] !== 0) {
      if (this.table[i] === key) return false;
      i = (i + 1) & mask;
    }
    this.table[i] = key;
    if (++this.used * 2 > this.table.length) {
      const old = this.table;
      this.table = new Int32Array(old.length * 2);
      mask = this.table.length - 1;
      for (const v of old) {
        if (!v) continue;
        let j = v & mask;
        while (this.table[j] !== 0) j = (j + 1) & mask;
        this.table[j] = v;
      }
    }
    return true;
  }

  /** Whether a token of hash `h` was collected. */
  private hasHash(h: number): boolean {
    const key = h | 0 || 1;
    const mask = this.table.length - 1;
    for (let i = key & mask; this.table[i] !== 0; i = (i + 1) & mask) {
      if (this.table[i] === key) return true;
    }
    return false;
  }

  /**
   * Adds tokens already collected elsewhere (another thread's {@link take}),
   * returning those new to this collector. A token hashes as {@link add} hashes it.
   */
  addTokens(tokens: readonly string[]): string[] {
    const out: string[] = [];
    for (const t of tokens) if (this.insertHash(tokenHash(t))) out.push(t);
    return out;
  }

  /** Adds tokens already collected elsewhere, as {@link addTokens} without the list of new ones. */
  mark(tokens: readonly string[]): void {
    for (const t of tokens) this.insertHash(tokenHash(t));
  }

  /** Forgets every token collected (the next {@link add} starts a new set). */
  clear(): void {
    // A table grown for a large set shrinks to what the last one needed: a worker clears its
    // collector at each session, and zeroing 64 K slots for each of 2,282 sessions of 40 KB
    // cost ~0.1 s of its CPU (issue 18).
    const fit = Math.max(MIN_TABLE, 1 << Math.ceil(Math.log2(this.used * 4 || 1)));
    if (this.table.length > fit) this.table = new Int32Array(fit);
    else if (this.used) this.table.fill(0);
    this.used = 0;
    this.fresh = [];
  }

  /** The tokens collected since the last call. */
  take(): string[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
