/**
 * Fitting a digest into a byte budget: two text sections (problem, outcome)
 * capped at a fifth of the budget each, then list sections filled round-robin
 * in rank order, then any bytes left over returned to the clipped texts.
 *
 * @module
 */
import { byteLength, clipBytes } from "../../core/text.ts";

/** One line of a list section. */
export interface ListItem {
  /** The Markdown line (no trailing newline). */
  line: string;
  /** Display position (ascending). */
  order: number;
  /** Priority when the budget is short (higher is kept first). */
  rank: number;
}

/** A list section. */
export interface ListSection {
  title: string;
  items: ListItem[];
}

/** Input of {@link fillLists}. */
export interface FillInput {
  /** Upper bound in UTF-8 bytes. */
  budget: number;
  /** Always printed first. */
  head: string;
  problem: string | null;
  outcome: string | null;
  lists: ListSection[];
}

const MORE_RESERVE = 28;

/**
 * Lays out the digest within `budget` bytes.
 *
 * @returns the Markdown and whether anything was clipped or left out.
 */
export function fillLists(input: FillInput): { markdown: string; truncated: boolean } {
  const { budget, head, problem, outcome, lists } = input;
  const textCap = Math.max(160, Math.floor(budget * 0.2));
  let p = problem === null ? null : clipText(problem, textCap);
  let o = outcome === null ? null : clipText(outcome, textCap);
  const chosen: ListItem[][] = lists.map(() => []);
  const assemble = () => {
    const parts = [head];
    if (p) parts.push(`## Problem\n\n${p}`);
    lists.forEach((l, i) => {
      if (!chosen[i].length) return;
      const lines = [...chosen[i]].sort((a, b) => a.order - b.order).map((x) => x.line);
      const left = l.items.length - chosen[i].length;
      if (left > 0) lines.push(`- … ${left} more`);
      parts.push(`## ${l.title}\n\n${lines.join("\n")}`);
    });
    if (o) parts.push(`## Outcome\n\n${o}`);
    return parts.join("\n\n") + "\n";
  };
  const nonEmpty = lists.filter((l) => l.items.length).length;
  let remaining = budget - byteLength(assemble()) - MORE_RESERVE * nonEmpty;
  const queues = lists.map((l) => [...l.items].sort((a, b) => b.rank - a.rank));
  const stopped = lists.map((l) => l.items.length === 0);
  for (let progress = true; progress;) {
    progress = false;
    queues.forEach((q, i) => {
      if (stopped[i]) return;
      const item = q[chosen[i].length];
      if (!item) {
        stopped[i] = true;
        return;
      }
      const heading = chosen[i].length ? 0 : byteLength(`\n\n## ${lists[i].title}\n\n`);
      const cost = byteLength(item.line) + 1 + heading;
      if (cost > remaining) {
        stopped[i] = true;
        return;
      }
      chosen[i].push(item);
      remaining -= cost;
      progress = true;
    });
  }
  // Bytes the lists did not need go back to clipped problem and outcome texts.
  const spare = budget - byteLength(assemble());
  const clipped = [p !== problem, o !== outcome].filter(Boolean).length;
  if (clipped && spare > 8) {
    const extra = Math.floor(spare / clipped) - 4;
    if (problem !== null && p !== problem) p = clipText(problem, byteLength(p!) + extra);
    if (outcome !== null && o !== outcome) o = clipText(outcome, byteLength(o!) + extra);
  }
  const truncated = p !== problem || o !== outcome ||
    lists.some((l, i) => chosen[i].length < l.items.length);
  return { markdown: assemble(), truncated };
}

/**
 * `s` cut to `max` UTF-8 bytes ({@link clipBytes}: never inside a character) with a
 * code fence it leaves open closed again by a line of the same fence, so the sections
 * after it do not render as code. The closing line counts within `max`.
 */
export function clipText(s: string, max: number): string {
  let room = max;
  let cut = clipBytes(s, room);
  for (let fence = openFence(cut); fence; fence = openFence(cut)) {
    const closed = `${cut}\n${fence}`;
    if (byteLength(closed) <= max) return closed;
    // Cut shorter to make room for the closing line (a shorter cut may end before the fence).
    room = Math.min(room - 1, max - fence.length - 1);
    cut = clipBytes(s, Math.max(0, room));
  }
  return cut;
}

/**
 * The fence a Markdown text leaves open (its opening run of backticks or tildes,
 * as long as written), or null: a fence closes on a line of the same character, at
 * least as long, with nothing after it (CommonMark; any indentation is taken).
 */
export function openFence(t: string): string | null {
  let open: string | null = null;
  for (const line of t.split("\n")) {
    const m = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    if (open === null) {
      // A backtick fence's info string holds no backtick: such a line is inline code.
      if (!(m[1][0] === "`" && m[2].includes("`"))) open = m[1];
    } else if (m[1][0] === open[0] && m[1].length >= open.length && !m[2].trim()) open = null;
  }
  return open;
}

/** `s` as Markdown inline code, with a longer fence when it holds backticks. */
export function inlineCode(s: string): string {
  const runs = s.match(/`+/g) ?? [];
  const n = runs.reduce((m, r) => Math.max(m, r.length), 0) + 1;
  const fence = "`".repeat(n);
  return n > 1 ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}
