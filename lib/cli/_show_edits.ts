/**
 * What `show` prints of a session's edits: each edit's lines as a diff, and
 * which edits replaced every occurrence of their old text.
 *
 * @module
 */
import type { FileRow } from "../rows.ts";
export { replacingAll } from "../memory/edit_lines.ts";
import { diffText } from "../memory/edit_lines.ts";

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
