/**
 * `deja forget --note <id>`: deletes one note from deja's own notes file and
 * from the index, leaving the other notes of its project and day (the same
 * session) where they are. The undo `deja remember` prints takes this form.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { oneLine, plural } from "../../core/text.ts";
import type { NoteRecord } from "../../parsers/deja.ts";
import { rmSync, statSync } from "node:fs";
import { dropNotes, listNotes, putBackNotes } from "./notes_file.ts";
import { dayHolds, type OwnNotes, removeSessions } from "./forget.ts";

/** What {@link forgetNote} removed. */
export interface ForgotNote {
  /** The note (its text as it was in the file). */
  note: NoteRecord;
  /** Index sessions taken out to be read again without it (0 without an index). */
  sessions: number;
}

/**
 * The one note of the notes file whose id starts with `id` (what `deja remember`
 * prints); the file is only read.
 *
 * @throws {DejaError} exit 1 when no note has that id; exit 2 when several do, or when
 * `id` names a day of notes (the session `deja remember --json` calls `session`).
 */
export function findNote(notes: OwnNotes, id: string): NoteRecord {
  const want = id.trim().toLowerCase().replace(/^deja:/, "");
  const all = listNotes(notes.path, notes.tz);
  const hits = all.filter((n) => want && n.id.startsWith(want));
  const ids = [...new Set(hits.map((n) => n.id))];
  if (!ids.length) {
    // A day's id (or the start of it, as search and show print it) names a session of notes.
    const day = all.filter((n) => want && n.session.startsWith(want));
    const days = [...new Set(day.map((n) => n.session))];
    if (days.length === 1) {
      const shown = day.slice(0, 10).map((n) =>
        `  deja forget --note ${n.id}  ${oneLine(n.text, 60)}`
      );
      throw new DejaError(
        `'${id}' is a day of ${plural(day.length, "note")} (${day[0].project}, ${
          day[0].day
        }), not one note`,
        `one note:\n${shown.join("\n")}${
          day.length > 10 ? `\n  … (deja show deja:${days[0]} lists all ${day.length})` : ""
        }\nthe whole day: deja forget --session deja:${days[0]}`,
        2,
      );
    }
    if (days.length > 1) {
      throw new DejaError(
        `'${id}' is the start of ${days.length} days' ids, not one note`,
        `deja show deja:<day> lists a day's notes with their ids: ${days.slice(0, 5).join(", ")}`,
        2,
      );
    }
    // The form show takes (trial 120 M2: `deja show <day>` was named, and `deja show 2026-12-07`
    // matches no session).
    const latest = all.map((n) => n.day).filter(Boolean).sort().at(-1);
    throw new DejaError(
      `no note has the id '${id}'`,
      "deja remember prints a note's id; deja show deja:<day> lists each note of a day with its id" +
        (latest ? ` (the latest: deja show deja:${latest})` : "") +
        "; deja search <words> --harness deja finds the day",
      1,
    );
  }
  if (ids.length > 1) {
    throw new DejaError(
      `'${id}' is the start of ${ids.length} notes' ids`,
      `give more of it: ${ids.slice(0, 5).join(", ")}`,
      2,
    );
  }
  return hits[0];
}

/**
 * Deletes the note whose id starts with `id` ({@link findNote}) from the notes file, and
 * its session from the index (`store`, when there is one) with the rows' text
 * (see {@link removeSessions}); the file is marked to be read again whole, so
 * the caller's next index run brings the session back without the note.
 * Call with the writer lock held. When the index part fails (a full disk), the notes file
 * is put back as it was, so the command stopped whole: the note is still there to forget by
 * its id (trial 114 F8: the file lost the note, the index kept it, without its id).
 *
 * @throws {DejaError} as {@link findNote} does.
 */
export function forgetNote(store: Store | undefined, notes: OwnNotes, id: string): ForgotNote {
  const found = findNote(notes, id);
  const kept = `${notes.path}.${crypto.randomUUID()}.was`;
  const gone = dropNotes(notes.path, notes.tz, (n) => n.id === found.id, store && kept);
  if (!gone.length) throw new DejaError(`no note has the id '${id}'`, undefined, 1);
  if (!store) return { note: gone[0], sessions: 0 };
  const size = statSync(notes.path).size;
  let sessions: number;
  try {
    sessions = dropNoteDay(store, notes, gone[0]);
  } catch (e) {
    // Put back by a rename: `kept` is gone after it (and is kept when it could not be).
    putBackNotes(notes.path, kept, size);
    // Whatever part of the index was written, the next run reads the notes file again whole.
    try {
      Q.forgetSource.run(store, { path: notes.path });
    } catch { /* the index as it was: it still holds the file as read */ }
    throw e;
  }
  rmSync(kept, { force: true });
  return { note: gone[0], sessions };
}

/** Takes the day the index holds `note` in out of it, to be read again: how many sessions. */
function dropNoteDay(store: Store, notes: OwnNotes, note: NoteRecord): number {
  // The day the index holds the note in, whichever zone read it (trial 43: forgotten under
  // another zone, the note left the file and stayed in the index, and in what hooks said).
  const ids = Q.sessionsOfSource.all(store, { source: notes.path }).map((r) => r.id);
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })
    .filter((r) => dayHolds(store, r)(note));
  const sessions = removeSessions(store, rows).sessions;
  Q.forgetSource.run(store, { path: notes.path });
  return sessions;
}
