/**
 * Fitting a digest into a byte budget: two text sections (problem, outcome)
 * capped at a fifth of the budget each, then list sections filled round-robin
 * in rank order, then any bytes left over returned to the clipped texts.
 *
 * @module
 */
import { byteLength, clipBytes, oneLine } from "../../core/text.ts";
import { cleanForAgent } from "../../core/frame.ts";
import { errorLines } from "./outcome.ts";

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
  /** A line under the problem, never clipped (short: digest.ts `laterText`). */
  later?: string | null;
  outcome: string | null;
  lists: ListSection[];
  /** The outcome's share of the budget before the lists fill (default a fifth, as the problem's). */
  outcomeShare?: number;
}

const MORE_RESERVE = 28;

/**
 * Lays out the digest within `budget` bytes, its texts cleaned as they will be printed
 * (core/frame.ts `cleanForAgent`).
 *
 * @returns the Markdown and whether anything was clipped or left out.
 */
export function fillLists(input: FillInput): { markdown: string; truncated: boolean } {
  // Measured as printed: cleaned first, as the human writer and the frame clean text.
  const { budget } = input;
  const head = cleanForAgent(input.head);
  const problem = input.problem === null ? null : cleanForAgent(input.problem);
  const outcome = input.outcome === null ? null : cleanForAgent(input.outcome);
  const later = input.later ? `\n\n${cleanForAgent(input.later)}` : "";
  const lists = input.lists.map((l) => ({
    title: l.title,
    items: l.items.map((x) => ({ ...x, line: cleanForAgent(x.line) })),
  }));
  const textCap = Math.max(160, Math.floor(budget * 0.2));
  // A request that pasted a block (a log, the last session's summary) and then says what it
  // wants keeps its words when cut: the blocks are folded first (trial 55: the compaction
  // hook's digest of Crush 093f9963 kept the pasted summary and lost "Our goal for this
  // session: Add redis to this kubernetes cluster").
  const folded = (max: number) =>
    problem === null || byteLength(problem) <= max ? problem : foldFences(problem);
  let p = problem === null ? null : clipText(folded(textCap)!, textCap);
  const outcomeCap = input.outcomeShare
    ? Math.max(textCap, Math.floor(budget * input.outcomeShare))
    : textCap;
  let o = outcome === null ? null : clipText(outcome, outcomeCap);
  const chosen: ListItem[][] = lists.map(() => []);
  const assemble = () => {
    const parts = [head];
    if (p) parts.push(`## Problem\n\n${p}${later}`);
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
    if (problem !== null && p !== problem) {
      const room = byteLength(p!) + extra;
      p = clipText(folded(room)!, room);
    }
    if (outcome !== null && o !== outcome) o = clipText(outcome, byteLength(o!) + extra);
  }
  const truncated = p !== problem || o !== outcome ||
    lists.some((l, i) => chosen[i].length < l.items.length);
  return { markdown: assemble(), truncated };
}

/**
 * A digest's Markdown as it will be printed, within `budget` UTF-8 bytes: cleaned first as
 * the human writer (lib/cli/output.ts) and the frame (core/frame.ts) clean it, since a frame
 * tag they neutralise can grow (`<dejarecall` becomes `(deja-recall)`, two bytes more), then,
 * when still too long, cut by {@link clipText} to end on a newline. `cut` says whether it was.
 */
export function fitMarkdown(markdown: string, budget: number): { markdown: string; cut: boolean } {
  const clean = cleanForAgent(markdown);
  let text = clean;
  // Cleaning a cut of clean text changes nothing, so one pass is the rule; the loop is a guard.
  for (let room = budget - 1; byteLength(text) > budget && room >= 0;) {
    text = cleanForAgent(clipText(clean, room)) + "\n";
    room -= Math.max(1, byteLength(text) - budget);
  }
  return { markdown: text, cut: text !== clean };
}

/** Bytes a cut gives up at most to end after a whole word rather than inside one. */
const WORD_SLACK = 40;

/**
 * `text` with each fenced block folded to one line that says how long it was, and the first
 * two lines in it that say what went wrong (trial 71: a pasted kustomize log was the whole
 * problem, and its `MalformedYAMLError` went with the fold).
 */
export function foldFences(text: string): string {
  return text.replace(
    /^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1\2[ \t]*$|(?![\s\S]))/gm,
    (block) => {
      const lines = block.split("\n").length;
      const errors = errorLines(block.split("\n").slice(1).join("\n"), 2);
      return errors.length
        ? `[a pasted block of ${lines} lines, left out here; its errors: ${
          errors.map((e) => oneLine(e, 160)).join(" · ")
        }]`
        : `[a pasted block of ${lines} lines, left out here]`;
    },
  ).replace(/\n{3,}/g, "\n\n");
}

/**
 * `s` cut to `max` UTF-8 bytes ({@link clipBytes}: never inside a character, `…` counted),
 * after the last whole word when one ends within {@link WORD_SLACK} bytes of the cut, with a
 * code fence it leaves open closed again by a line of the same fence, so the sections
 * after it do not render as code. The closing line counts within `max`.
 */
export function clipText(s: string, max: number): string {
  let room = max;
  let cut = clipWords(s, room);
  for (let fence = openFence(cut); fence; fence = openFence(cut)) {
    const closed = `${cut}\n${fence}`;
    if (byteLength(closed) <= max) return closed;
    // Cut shorter to make room for the closing line (a shorter cut may end before the fence).
    room = Math.min(room - 1, max - fence.length - 1);
    cut = clipWords(s, Math.max(0, room));
  }
  return cut;
}

/** {@link clipBytes}, backed off to the end of a word when `s` is cut inside one. */
function clipWords(s: string, max: number): string {
  const cut = clipBytes(s, max);
  if (cut === s || !cut.endsWith("…")) return cut;
  const kept = cut.slice(0, -1);
  // Cut inside a word: the text goes on with a word character where the cut ended on one.
  if (!/\S$/.test(kept) || /^\s/.test(s.slice(kept.length))) return cut;
  const space = kept.search(/\s\S*$/);
  if (space <= 0 || byteLength(kept.slice(space)) > WORD_SLACK) return cut;
  const word = kept.slice(0, space).trimEnd();
  return word ? `${word}…` : cut;
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
