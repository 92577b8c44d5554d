/**
 * Byte budgets for tool answers: blocks kept in order while they fit, the
 * recalled text cleaned for a model to read, and the frame around it.
 *
 * @module
 */
import { cleanForAgent, frame, FRAME_BYTES, neutralise } from "../../core/frame.ts";
import { byteLength, charactersEnd, clipBytes } from "../../core/text.ts";

/**
 * Transcript text as one line for a model, at most `n` characters (cut with
 * `…`): escape sequences, invisible and bidi characters removed, frame tags
 * neutralised, white space collapsed.
 */
export function oneLineForAgent(text: string, n: number): string {
  const t = cleanForAgent(text).replace(/\s+/g, " ").trim();
  if (t.length <= n) return t;
  // Counted and cut in characters (code points), never inside a surrogate pair: half an emoji
  // is a lone surrogate no UTF-8 reader takes (trial 109 F6: a query of emoji came back so).
  const end = charactersEnd(t, n - 1);
  return charactersEnd(t, 1, end) < t.length ? t.slice(0, end).trimEnd() + "…" : t;
}

/** What {@link fitBlocks} kept. */
export interface Fitted {
  /** The text, within the budget. */
  text: string;
  /** Blocks kept whole or, for the first, cut. */
  shown: number;
}

/**
 * `head`, then as many of `blocks` as fit in order, then `tail(shown)`, joined
 * by newlines, within `budget` UTF-8 bytes. A first block too large to fit
 * is cut rather than dropped, so an answer never holds a head alone.
 */
export function fitBlocks(
  head: string,
  blocks: string[],
  tail: (shown: number) => string,
  budget: number,
): Fitted {
  const nl = (parts: string[]) => parts.filter((p) => p !== "").join("\n");
  let kept: string[] = [];
  for (const b of blocks) {
    if (byteLength(nl([head, ...kept, b, tail(kept.length + 1)])) > budget) break;
    kept.push(b);
  }
  if (!kept.length && blocks.length) {
    const room = budget - byteLength(nl([head, tail(1)])) - 1;
    if (room > 64) kept = [clipBytes(blocks[0], room)];
  }
  const text = nl([head, ...kept, tail(kept.length)]);
  return { text: clipBytes(text, budget), shown: kept.length };
}

/**
 * `body` in deja's recall frame, the whole within `budget` bytes: the body is
 * cut to what the frame leaves room for.
 */
export function framed(body: string, budget: number): string {
  return frame(clipBytes(neutralise(body), budget - FRAME_BYTES));
}

/** Bytes a body may take when the framed answer must stay within `budget`. */
export function bodyBudget(budget: number): number {
  return budget - FRAME_BYTES;
}
