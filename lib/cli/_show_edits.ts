/**
 * What `show` prints of a session's edits: each edit's lines as a diff, and
 * which edits replaced every occurrence of their old text.
 *
 * @module
 */
import type { FileRow } from "../rows.ts";
import { diffText } from "../memory/edit_lines.ts";

/**
 * The edits of `files` that replaced every occurrence of their old text
 * (Claude Code's and Kimi's `replace_all`, opencode's `replaceAll`), read from
 * their call's input as `events.data` keeps it (`data`, by event row id; a long input is not
 * kept: then unknown). A MultiEdit's spans are its rows in order. Trial 10: an Edit with
 * `replace_all` showed as one plain change.
 */
export function replacingAll(
  files: readonly FileRow[],
  data: ReadonlyMap<number, string | null>,
): Set<FileRow> {
  const out = new Set<FileRow>();
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
 * The text of each call that edited a file, by event id: under `edit <path>`, the lines
 * the edit removed (`- `) and added (`+ `) with two unchanged lines around each change
 * (`full`: every unchanged line), a longer unchanged run as `… N unchanged lines`
 * (lib/memory/edit_lines.ts). A call's indexed text holds only the new side
 * (lib/render.ts), and two whole blocks hide a one-line change among 70 (trial 9). A
 * call with a write beside its edits lists the write as indexed. Failed edits are shown
 * too: the call line says the call failed. Each text is made when it is asked for (`get`):
 * made all at once, the 30,000 edits of a long session took `show` ~70 MB (trial 32).
 */
export function editDiffs(
  files: readonly FileRow[],
  full = false,
  every: ReadonlySet<FileRow> = new Set(),
): { get(eventId: number): string | undefined } {
  const byEvent = new Map<number, FileRow[]>();
  for (const f of files) {
    if (f.op === "read") continue;
    const list = byEvent.get(f.event_id) ?? [];
    list.push(f);
    byEvent.set(f.event_id, list);
  }
  return {
    get(id) {
      const rows = byEvent.get(id);
      if (!rows?.some((f) => f.op === "edit" && f.old !== null)) return undefined;
      return rows.map((f) =>
        f.op === "edit"
          ? [
            `edit ${f.path}${every.has(f) ? " (every occurrence)" : ""}`,
            ...diffText(f.old ?? "", f.new ?? "", full ? Infinity : 2),
          ]
            .join("\n")
          : `write ${f.path}\n${f.new ?? ""}`
      ).join("\n");
    },
  };
}
