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
import type { NoteRecord } from "../../parsers/deja.ts";
import { dropNotes, listNotes } from "./notes_file.ts";
import { type OwnNotes, planForget, removeSessions } from "./forget.ts";

/** What {@link forgetNote} removed. */
export interface ForgotNote {
  /** The note (its text as it was in the file). */
  note: NoteRecord;
  /** Index sessions taken out to be read again without it (0 without an index). */
  sessions: number;
}

/**
 * Deletes the note whose id starts with `id` from the notes file, and its
 * session from the index (`store`, when there is one) with the rows' text
 * (see {@link removeSessions}); the file is marked to be read again whole, so
 * the caller's next index run brings the session back without the note.
 * Call with the writer lock held.
 *
 * @throws {DejaError} exit 1 when no note has that id; exit 2 when several do.
 */
export function forgetNote(store: Store | undefined, notes: OwnNotes, id: string): ForgotNote {
  const want = id.trim().toLowerCase();
  const hits = listNotes(notes.path, notes.tz).filter((n) => want && n.id.startsWith(want));
  const ids = [...new Set(hits.map((n) => n.id))];
  if (!ids.length) {
    throw new DejaError(
      `no note has the id '${id}'`,
      "deja remember --json prints a note's id; deja search <words> --harness deja finds notes",
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
  const gone = dropNotes(notes.path, notes.tz, (n) => n.id === ids[0]);
  if (!gone.length) throw new DejaError(`no note has the id '${id}'`, undefined, 1);
  let sessions = 0;
  if (store) {
    const rows = planForget(store, { session: `deja:${gone[0].session}`, allMatches: true })
      .sessions.filter((r) => r.source === notes.path && r.native_id === gone[0].session);
    sessions = removeSessions(store, rows).sessions;
    Q.forgetSource.run(store, { path: notes.path });
  }
  return { note: gone[0], sessions };
}
