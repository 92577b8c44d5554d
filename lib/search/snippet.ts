/**
 * Snippets: the tightest window of an event's text that holds the most query
 * terms, with each match marked `\x01 … \x02` (the CLI turns the marks into
 * highlight on a terminal and drops them elsewhere).
 *
 * @module
 */
import { tokenSpans } from "./tokenize.ts";
import { GAP } from "../query.ts";

/** Characters a snippet shows around its window, about. */
export const SNIPPET_CHARS = 240;

interface Match {
  term: number;
  start: number;
  end: number;
}

/**
 * The snippet of `text` for `terms` (per term, its alternatives, each a token
 * list). Falls back to the head of the text when no term occurs in it.
 */
export function snippet(text: string, terms: string[][][], width = SNIPPET_CHARS): string {
  const spans = tokenSpans(text.length > 200_000 ? text.slice(0, 200_000) : text);
  const firsts = new Map<string, Array<{ term: number; alt: string[] }>>();
  terms.forEach((alts, term) => {
    for (const alt of alts) {
      if (!alt.length) continue;
      let l = firsts.get(alt[0]);
      if (!l) firsts.set(alt[0], l = []);
      l.push({ term, alt });
    }
  });
  const matches: Match[] = [];
  for (let i = 0; i < spans.length; i++) {
    const cands = firsts.get(spans[i].token);
    if (!cands) continue;
    for (const { term, alt } of cands) {
      const end = phraseEnd(spans, i, alt);
      if (end >= 0) {
        matches.push({ term, start: spans[i].start, end: spans[end].end });
        break;
      }
    }
  }
  if (!matches.length) return cut(text, 0, Math.min(text.length, width), []);
  const [ws, we] = tightest(matches, terms.length);
  let from: number;
  let to: number;
  if (we - ws >= width) {
    from = ws - 30;
    to = ws + width;
  } else {
    const spare = width - (we - ws);
    from = ws - Math.floor(spare / 3);
    to = we + spare - Math.floor(spare / 3);
  }
  from = Math.max(0, from);
  to = Math.min(text.length, to);
  return cut(text, from, to, matches.filter((m) => m.start >= from && m.end <= to));
}

/**
 * The index of the last span of `alt` (a token list, its first token at span
 * `i`; {@link GAP} one token or none) or -1 when the spans from `i` do not spell it.
 */
function phraseEnd(spans: Array<{ token: string }>, i: number, alt: string[]): number {
  let at = i;
  for (let k = 1; k < alt.length; k++) {
    if (alt[k] === GAP) {
      const next = alt[k + 1];
      if (spans[at + 1]?.token !== next && spans[at + 2]?.token === next) at++;
      continue;
    }
    if (spans[++at]?.token !== alt[k]) return -1;
  }
  return at;
}

/** [start, end) of the shortest window holding the most distinct terms. */
function tightest(matches: Match[], nTerms: number): [number, number] {
  const count = new Array<number>(nTerms).fill(0);
  let distinct = 0;
  let best: [number, number] = [matches[0].start, matches[0].end];
  let bestDistinct = 0;
  let lo = 0;
  for (let hi = 0; hi < matches.length; hi++) {
    if (count[matches[hi].term]++ === 0) distinct++;
    // Shrink from the left while the window keeps every term it has.
    while (lo < hi && count[matches[lo].term] > 1) count[matches[lo++].term]--;
    const span = matches[hi].end - matches[lo].start;
    if (distinct > bestDistinct || (distinct === bestDistinct && span < best[1] - best[0])) {
      bestDistinct = distinct;
      best = [matches[lo].start, matches[hi].end];
    }
  }
  return best;
}

function cut(text: string, from: number, to: number, marks: Match[]): string {
  // Move the edges to word boundaries so a snippet does not start mid-word.
  if (from > 0) {
    const sp = text.slice(from, Math.min(to, from + 20)).search(/\s/);
    if (sp >= 0) from += sp + 1;
  }
  if (to < text.length) {
    const back = text.slice(Math.max(from, to - 20), to);
    const sp = back.search(/\s\S*$/);
    if (sp >= 0) to = to - back.length + sp;
  }
  let out = from > 0 ? "…" : "";
  let at = from;
  for (const m of marks) {
    if (m.start < at || m.end > to) continue;
    out += text.slice(at, m.start) + "\x01" + text.slice(m.start, m.end) + "\x02";
    at = m.end;
  }
  out += text.slice(at, to);
  if (to < text.length) out += "…";
  return out;
}
