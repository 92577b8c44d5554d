/**
 * An edit shown as a diff: the replaced text against the new text, line by
 * line (longest common subsequence; unchanged runs cut to a few lines of
 * context).
 *
 * @module
 */

/** One line of a diff: `=` unchanged, `-` removed, `+` added, `…` unchanged lines left out. */
export type DiffLine = { op: "=" | "-" | "+" | "…"; text: string };

/** Lines compared by LCS at most (on each side); longer edits are shown as removed then added. */
const LCS_MAX = 600;

/** Unchanged lines kept around each change. */
const CONTEXT = 3;

/**
 * The diff of `before` -> `after`.
 *
 * @example lineDiff("a\nb", "a\nc") gives = a, - b, + c
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let out: DiffLine[];
  if (a.length > LCS_MAX || b.length > LCS_MAX) {
    out = [
      ...a.map((t) => ({ op: "-" as const, text: t })),
      ...b.map((t) => ({ op: "+" as const, text: t })),
    ];
  } else {
    out = lcs(a, b);
  }
  return fold(out);
}

function lcs(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // len[i][j]: LCS length of a[i..] and b[j..], in one flat array.
  const len = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * (m + 1) + j] = a[i] === b[j]
        ? len[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(len[(i + 1) * (m + 1) + j], len[i * (m + 1) + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: "=", text: a[i] });
      i++;
      j++;
    } else if (len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1]) {
      out.push({ op: "-", text: a[i++] });
    } else out.push({ op: "+", text: b[j++] });
  }
  while (i < n) out.push({ op: "-", text: a[i++] });
  while (j < m) out.push({ op: "+", text: b[j++] });
  return out;
}

/** Long unchanged runs cut to {@link CONTEXT} lines on each side of a change. */
function fold(lines: DiffLine[]): DiffLine[] {
  const keep = lines.map((l) => l.op !== "=");
  const near = lines.map((_, i) => {
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++) {
      if (keep[k]) return true;
    }
    return false;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    if (near[i]) {
      if (skipped) out.push({ op: "…", text: `${skipped} unchanged lines` });
      skipped = 0;
      out.push(lines[i]);
    } else skipped++;
  }
  if (skipped) out.push({ op: "…", text: `${skipped} unchanged lines` });
  return out;
}
