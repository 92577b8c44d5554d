/**
 * Which note of deja's notes file an indexed event is. A day of notes is one
 * session (parsers/deja.ts); its events carry no note id, but each note's id
 * is derived from the record (`noteId`), so `deja show` and `deja search` find
 * it by reading the notes file once and matching the event's session and time
 * (and its text when two notes of a day share a millisecond).
 *
 * @module
 */
import { isDayOf, type NoteRecord } from "../../parsers/deja.ts";
import type { OwnNotes } from "../forget/forget.ts";
import { listNotes } from "../forget/notes_file.ts";

/**
 * The notes each day (session id) in `days` may hold, from one read of the notes file: its
 * project's notes, whichever zone read their days ({@link isDayOf}); {@link noteIdAt} then
 * tells them by time.
 */
export function notesOfDays(notes: OwnNotes, days: Iterable<string>): Map<string, NoteRecord[]> {
  const want = [...new Set(days)];
  const out = new Map<string, NoteRecord[]>();
  if (!want.length) return out;
  // One hash per project and day, not per note: a notes file holds many notes of few projects.
  const of = new Map<string, boolean>();
  const dayOf = (project: string, d: string) => {
    const k = `${project}\n${d}`;
    let v = of.get(k);
    if (v === undefined) of.set(k, v = isDayOf(project, d));
    return v;
  };
  for (const n of listNotes(notes.path, notes.tz)) {
    for (const d of want) {
      if (!dayOf(n.project, d)) continue;
      const list = out.get(d) ?? [];
      list.push(n);
      out.set(d, list);
    }
  }
  return out;
}

/**
 * The id of the note among `day` written at `time` (epoch ms); `text` (an
 * event's text, or a snippet of it, search marks allowed) picks between notes
 * of the same millisecond. Undefined when none, or no single one, fits.
 */
export function noteIdAt(
  day: readonly NoteRecord[] | undefined,
  time: number | null | undefined,
  text: string,
): string | undefined {
  if (!day || time == null) return undefined;
  const same = day.filter((n) => n.time === time);
  if (same.length <= 1) return same[0]?.id;
  const bit = text.replaceAll("\x01", "").replaceAll("\x02", "").replace(/^…\s*/, "").split("…")[0]
    .trim();
  const fit = same.filter((n) => bit.startsWith(n.text) || n.text.includes(bit));
  return new Set(fit.map((n) => n.id)).size === 1 ? fit[0].id : undefined;
}

/** A search hit as {@link hitNoteIds} reads it: its session id, harness and snippets. */
interface NoteHit {
  id: string;
  harness: string;
  snippets: ReadonlyArray<{ seq: number; time?: number | null; text: string }>;
}

/**
 * The note each snippet of a day of notes among `hits` is, by `<session id>:<seq>`, from one
 * read of the notes file `notes`: what `deja forget --note` takes (`deja search`, MCP recall).
 */
export function hitNoteIds(hits: readonly NoteHit[], notes: OwnNotes): Map<string, string> {
  const days = hits.filter((r) => r.harness === "deja");
  const out = new Map<string, string>();
  if (!days.length) return out;
  const byDay = notesOfDays(notes, days.map((r) => r.id));
  for (const r of days) {
    for (const s of r.snippets) {
      const id = noteIdAt(byDay.get(r.id), s.time, s.text);
      if (id) out.set(`${r.id}:${s.seq}`, id);
    }
  }
  return out;
}
