/**
 * An edit's replaced and replacing text as lines: which lines it removed,
 * which it added, and which both sides hold unchanged (context the harness
 * sent along to anchor the edit). Read by `blame path:line` (did this edit
 * put line N there, or only carry it?) and by `show` (what changed, not two
 * whole blocks). The line diff is the npm package `diff` (jsdiff).
 *
 * @module
 */
import { diffArrays } from "diff";
import type { FileRow } from "../rows.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";

/** One line of an edit: kept (` `), removed (`-`) or added (`+`). */
export interface EditLine {
  mark: " " | "-" | "+";
  text: string;
  /** For kept and added lines: the line's 0-based index in the new side. */
  at?: number;
}

/** `text` as lines, a final newline ending the last line rather than starting an empty one. */
export function linesOf(text: string): string[] {
  if (text === "") return [];
  // Split on `\n` alone: a line's `\r` is part of it, so an edit of line endings is a change.
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The lines of an edit of `old` into `neu`, in order (see the module doc). */
export function editLines(old: string, neu: string): EditLine[] {
  const out: EditLine[] = [];
  let at = 0;
  for (const part of diffArrays(linesOf(old), linesOf(neu))) {
    for (const text of part.value) {
      if (part.removed) out.push({ mark: "-", text });
      else out.push({ mark: part.added ? "+" : " ", text, at: at++ });
    }
  }
  return out;
}

/**
 * The lines of an edit for reading: every removed and added line, and at most
 * `context` unchanged lines on each side of a change; a longer unchanged run
 * is one `… N unchanged lines` line.
 */
export function diffText(old: string, neu: string, context = 2): string[] {
  const lines = editLines(old, neu);
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.mark === " ") return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) {
      near[j] = true;
    }
  });
  const out: string[] = [];
  let skipped = 0;
  const flush = () => {
    if (skipped) out.push(`… ${skipped} unchanged line${skipped === 1 ? "" : "s"}`);
    skipped = 0;
  };
  lines.forEach((l, i) => {
    if (l.mark === " " && !near[i]) {
      skipped++;
      return;
    }
    flush();
    // A carriage return shown (trial 10: an edit from CRLF to LF read as "2 unchanged lines").
    out.push(`${l.mark} ${l.text.replace(/\r$/, "\u240d")}`);
  });
  flush();
  return out;
}

/**
 * The edits of `files` that replaced every occurrence of their old text
 * (Claude Code's and Kimi's `replace_all`, opencode's `replaceAll`), read from
 * their call's input as `events.data` keeps it (`data`, by event row id; a long input is not
 * kept: then unknown). A MultiEdit's spans are its rows in order. Trial 10: an Edit with
 * `replace_all` showed as one plain change.
 */
export function replacingAll<F extends Pick<FileRow, "op" | "event_id">>(
  files: readonly F[],
  data: ReadonlyMap<number, string | null>,
): Set<F> {
  const out = new Set<F>();
  const all = (o: unknown) =>
    !!o && typeof o === "object" &&
    ((o as Record<string, unknown>).replace_all === true ||
      (o as Record<string, unknown>).replaceAll === true);
  const place = new Map<number, number>();
  for (const f of files) {
    if (f.op !== "edit") continue;
    const i = place.get(f.event_id) ?? 0;
    place.set(f.event_id, i + 1);
    const d = data.get(f.event_id);
    if (!d || !/replace_?all/i.test(d)) continue;
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(d);
    } catch {
      continue;
    }
    const list = Array.isArray(input?.edits)
      ? input.edits
      : Array.isArray(input?.edit)
      ? input.edit
      : [];
    if (all(input) || all(list[i])) out.add(f);
  }
  return out;
}

/**
 * The row ids in `files` of the edits among `touches` that replaced every occurrence of
 * their old text ({@link replacingAll}, read from their calls' input): what `restore` and
 * `blame` say of them.
 */
export function everyOccurrence(
  store: Store,
  touches: ReadonlyArray<{ op: string; eventId: number }>,
): Set<number> {
  const edited = [...new Set(touches.filter((t) => t.op === "edit").map((t) => t.eventId))];
  const out = new Set<number>();
  if (!edited.length) return out;
  const rows = Q.editInputs.all(store, { ids: JSON.stringify(edited) });
  const data = new Map(rows.map((r) => [r.event_id, r.data]));
  for (const r of replacingAll(rows, data)) out.add(r.id);
  return out;
}

/**
 * Non-overlapping occurrences of `needle` in `hay` where it stands whole, up to 2, and the
 * first one's index (`restore` puts a span back there; `blame` credits the line it is in).
 */
export function wholeOccurrences(hay: string, needle: string): { count: number; at: number } {
  // Only where the text stands whole: a word character beside an end that is one means the
  // file says something longer (trial 10: `port = 8080` found in `port = 80800`, and `port =
  // 80` put back in its place made `port = 800`, a value nobody wrote).
  let first = -1;
  let count = 0;
  for (let i = hay.indexOf(needle); i >= 0 && count < 2; i = hay.indexOf(needle, i + 1)) {
    if (!standsWhole(hay, needle, i)) continue;
    if (first < 0) first = i;
    count++;
    i += needle.length - 1;
  }
  return { count, at: first };
}

/**
 * Where one-line `needle` stands whole in `hay` as a line of its own (its indentation
 * aside) while every other place holding it is inside a longer line: that line is what an
 * edit wrote, a comment or a message quoting it is not (`blame` credits it the same way).
 * -1 when the text spans lines, or no such line or more than one is there.
 */
export function lineOfItsOwn(hay: string, needle: string): number {
  if (needle.includes("\n") || needle.trim() === "") return -1;
  let found = -1;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    if (!standsWhole(hay, needle, i)) continue;
    const start = hay.lastIndexOf("\n", i - 1) + 1;
    let end = hay.indexOf("\n", i + needle.length);
    if (end < 0) end = hay.length;
    if (hay.slice(start, end).trim() !== needle.trim()) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

/**
 * Where one-line `needle`, standing whole at `at` in `hay`, is only part of a longer line
 * and the file also holds it grown longer elsewhere: the line an edit wrote `timeout = 60` as
 * may now say `timeout = 600`, and a comment `# timeout = 60 was too short` is not what the
 * edit wrote (trial 64: `restore --force` put `timeout = 30` into the comment). Returns the
 * 1-based numbers of the line holding it whole and of the first line holding it grown, or
 * undefined when the place is not in doubt (a text of several lines, a line of its own, or
 * no grown copy).
 */
export function doubtfulPlace(
  hay: string,
  needle: string,
  at: number,
): { line: number; grown: number } | undefined {
  if (needle.includes("\n") || needle.trim() === "") return undefined;
  const start = hay.lastIndexOf("\n", at - 1) + 1;
  let end = hay.indexOf("\n", at + needle.length);
  if (end < 0) end = hay.length;
  const line = hay.slice(start, end);
  if (line.trim() === needle.trim()) return undefined;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    if (!standsWhole(hay, needle, i)) {
      const lineOf = (j: number) => hay.slice(0, j).split("\n").length;
      return { line: lineOf(at), grown: lineOf(i) };
    }
  }
  return undefined;
}

const WORD = /[\p{L}\p{N}_]/u;

/** Whether `needle` at `i` of `hay` has no word character beside an end that is one. */
function standsWhole(hay: string, needle: string, i: number): boolean {
  return !(i > 0 && WORD.test(needle[0] ?? "") && WORD.test(hay[i - 1])) &&
    !(WORD.test(needle[needle.length - 1] ?? "") && WORD.test(hay[i + needle.length] ?? ""));
}
