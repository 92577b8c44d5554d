/**
 * The changes a fix made to files before the failing command ran again, told short: which file,
 * and, where the index holds the texts, the words replaced and the words put in their place
 * (`apps/v1beta1 → apps/v1`), not two whole blocks. Trial 105 F4: `deja fix` offered the failing
 * `kubectl apply -f deploy.yaml` itself as the fix, the edit that made it pass only a sub-line;
 * the answer (CLI, `--json`, MCP, the failure hook) leads with these now.
 *
 * @module
 */
import type { FileAtRow } from "../rows.ts";
import { oneLine } from "../../core/text.ts";

/** One change of a file between a failure and the re-run that showed it fixed. */
export interface FixEdit {
  /** The file changed, as recorded. */
  path: string;
  /** `edit` (a span replaced) or `write` (the file written whole). */
  op: "edit" | "write";
  /**
   * The replaced text on one line ({@link changedText}): the lines that differ whole when short
   * (`y = 1`), else the words that differ with a few either side (`… total = 1 …`), at most
   * {@link EDIT_TEXT_MAX} characters; "" when the change only added; null when the index does
   * not hold what was there (a write of a file not read first).
   */
  old: string | null;
  /** The words put in their place, as `old`; "" when the change only removed; null with `old`. */
  new: string | null;
}

/** Most characters of each side of a change kept. */
export const EDIT_TEXT_MAX = 200;

/** Most changes kept for one fix (a session may edit a file a dozen times before a re-run). */
const EDITS_MAX = 5;

/**
 * The changes among `rows` (a session's file touches, in order) made after seq `from` and
 * before seq `to` that did not fail, at most {@link EDITS_MAX}, the same change once.
 */
export function editsBetween(rows: readonly FileAtRow[], from: number, to: number): FixEdit[] {
  const out: FixEdit[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.op === "read" || r.failed === 1 || r.seq <= from || r.seq >= to) continue;
    const e = fixEdit(r);
    const key = JSON.stringify(e);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
    if (out.length === EDITS_MAX) break;
  }
  return out;
}

/** A file touch as a {@link FixEdit}: a write whose earlier text is unknown has no sides. */
function fixEdit(r: Pick<FileAtRow, "path" | "op" | "old" | "new">): FixEdit {
  const op = r.op === "write" ? "write" : "edit";
  if (r.old === null || (op === "write" && !r.old)) {
    return { path: r.path, op, old: null, new: null };
  }
  const [old, neu] = changedText(r.old, r.new ?? "");
  return { path: r.path, op, old: oneLine(old, EDIT_TEXT_MAX), new: oneLine(neu, EDIT_TEXT_MAX) };
}

/** Most characters of each side of a change said whole ({@link changedText}). */
export const CHANGE_LINE_MAX = 60;

/** How many items `a` and `b` share at their start, and then at their end. */
function sameEnds(a: readonly string[], b: readonly string[]): [number, number] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  return [head, tail];
}

/**
 * What a change replaced and put in its place, to be understood on its own: the lines that
 * differ, whole, when each side is at most {@link CHANGE_LINE_MAX} characters on one line
 * (`y = 1` -> `y = 2`, not `1` -> `2`: trial 106 F6); else the words that differ with as many
 * words either side as fit in that width, a cut marked `…`, the same words on both sides.
 *
 * @example changedText("a\ny = 1\nb", "a\ny = 2\nb") // ["y = 1", "y = 2"]
 */
export function changedText(old: string, neu: string): [string, string] {
  const a = old.split(/\r?\n/), b = neu.split(/\r?\n/);
  const [head, tail] = sameEnds(a, b);
  const flat = (ls: string[]) => ls.join(" ").replace(/\s+/g, " ").trim();
  const [lo, ln] = [flat(a.slice(head, a.length - tail)), flat(b.slice(head, b.length - tail))];
  if (lo.length <= CHANGE_LINE_MAX && ln.length <= CHANGE_LINE_MAX) return [lo, ln];
  // Long: the differing words, then the words around them while both sides fit.
  const wa = lo ? lo.split(" ") : [], wb = ln ? ln.split(" ") : [];
  const [same, end] = sameEnds(wa, wb);
  const side = (w: string[], from: number, to: number) =>
    (from > 0 ? "… " : "") + w.slice(from, to).join(" ") + (to < w.length ? " …" : "");
  const shown = (
    from: number,
    upto: number,
  ) => [side(wa, from, wa.length - end + upto), side(wb, from, wb.length - end + upto)];
  const fits = (s: string[]) => s.every((x) => x.length <= CHANGE_LINE_MAX);
  let [from, upto] = [same, 0];
  // Only the differing words when they alone are too long (the caller cuts them).
  if (!fits(shown(from, upto))) {
    return [wa.slice(same, wa.length - end).join(" "), wb.slice(same, wb.length - end).join(" ")];
  }
  for (let grew = true; grew;) {
    grew = false;
    if (from > 0 && fits(shown(from - 1, upto))) [from, grew] = [from - 1, true];
    if (upto < end && fits(shown(from, upto + 1))) [upto, grew] = [upto + 1, true];
  }
  const [so, sn] = shown(from, upto);
  // A side that only added or removed stays empty (`added …`).
  return [wa.length ? so : "", wb.length ? sn : ""];
}

/**
 * A change in a few words, each side cut to `width` by `clip` (the CLI's `oneLine`, MCP's
 * cleaner for agents): `apps/v1beta1 → apps/v1`, `added …`, `removed …`; "" when the index
 * holds no sides (a write: the file's name says all there is).
 */
export function editChange(
  e: FixEdit,
  width: number,
  clip: (s: string, n: number) => string = oneLine,
): string {
  if (e.old === null || e.new === null) return "";
  if (!e.old && !e.new) return "";
  if (!e.old) return `added ${clip(e.new, width)}`;
  if (!e.new) return `removed ${clip(e.old, width)}`;
  return `${clip(e.old, width)} → ${clip(e.new, width)}`;
}
