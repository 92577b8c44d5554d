/**
 * Query text -> FTS5 match expression.
 *
 * Words are ANDed; `"quoted phrases"` must be contiguous; a word with inner
 * punctuation (`zebrafinch-claude`, `src/app.ts`) is a phrase of its parts, the
 * way the tokenizer split them when indexing. FTS5 operators typed by a person
 * (`AND`, `NEAR`, `*`, `:`) are treated as text, never as syntax.
 *
 * @module
 */

/** A parsed query. */
export interface ParsedQuery {
  /** Each term is a list of tokens that must appear contiguously (a one-token term is a word). */
  terms: string[][];
}

const TOKEN = /[\p{L}\p{N}_]+/gu;

/** Splits text into index tokens (letters, digits and underscore runs), lower-cased. */
export function tokens(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []);
}

/** Parses `q` into terms. An empty or punctuation-only query has no terms. */
export function parseQuery(q: string): ParsedQuery {
  const terms: string[][] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (const m of q.matchAll(re)) {
    const toks = tokens(m[1] ?? m[2] ?? "");
    if (toks.length) terms.push(toks);
  }
  return { terms };
}

function quote(tok: string): string {
  return `"${tok.replaceAll('"', '""')}"`;
}

/** The FTS5 expression requiring every term (in one event). */
export function ftsAll(p: ParsedQuery): string {
  return p.terms.map((t) => quote(t.join(" "))).join(" AND ");
}

/** The FTS5 expression for one term. */
export function ftsTerm(t: string[]): string {
  return quote(t.join(" "));
}

/**
 * Reads a `--since` value: `30d`, `12h`, `2w`, `45m`, or a date
 * (`2026-11-01`). Returns epoch ms, or undefined when unreadable.
 */
export function parseSince(v: string, now = Date.now()): number | undefined {
  const m = /^(\d+)\s*([mhdwy])$/i.exec(v.trim());
  if (m) {
    const n = Number(m[1]);
    const unit: Record<string, number> = {
      m: 60e3,
      h: 3600e3,
      d: 86400e3,
      w: 7 * 86400e3,
      y: 365 * 86400e3,
    };
    return now - n * unit[m[2].toLowerCase()];
  }
  const s = v.trim();
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (d) {
    // A calendar date that does not exist (2026-02-30) is an error, not March 2.
    const t = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]));
    return new Date(t).toISOString().slice(0, 10) === s ? t : undefined;
  }
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}
