/**
 * Deleting what sessions hold in statements of bounded size.
 *
 * An event's delete trigger removes its text from events_fts. In a transaction,
 * SQLite keeps a copy of every page one statement changes until the statement
 * ends (its statement journal, held in memory: lib/schema.ts `temp_store`): the
 * events' own pages, and those of the text index as its segments merge. One
 * `DELETE` of all the events of a 64 MB Gemini chat grew the process by 74 MB;
 * in stretches of {@link DROP_BYTES}, by 27 MB (Deno; 19 under Bun). (The run that reads
 * the edited chat again peaks at 122-124 MB, with lib/write_batch.ts writing it
 * alone and lib/ingest.ts indexing its text in pieces, against 216-231 MB).
 * So events go in stretches, one statement each, inside the caller's
 * transaction as before.
 *
 * @module
 */
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";

/** Bytes of event text one deleting statement removes (a long session's stretch: this, and one event more at most). */
export const DROP_BYTES = 8 << 20;

/**
 * Events one statement deletes at most when several small sessions go together: an event's
 * text is capped (lib/prepare.ts MAX_TEXT, 64 Ki characters), so this many stay near
 * {@link DROP_BYTES}.
 */
export const DROP_ROWS = 128;

/** One statement of a drop: whole sessions, or one session's events up to an event id. */
export type DropStep =
  | { sessions: number[] }
  | { session: number; through: number };

/**
 * The statements that delete the events of sessions `ids`: small sessions together, up to
 * `rows` events a statement; a larger one alone, in stretches that each start within `bytes`
 * bytes of text of the previous one's start.
 */
export function dropPlan(
  store: Store,
  ids: readonly number[],
  bytes: number = DROP_BYTES,
  rows: number = DROP_ROWS,
): DropStep[] {
  const steps: DropStep[] = [];
  let group: number[] = [];
  let held = 0;
  const flush = () => {
    if (group.length) steps.push({ sessions: group });
    group = [];
    held = 0;
  };
  for (const id of ids) {
    const n = Q.eventCountOf.get(store, { session: id })?.n ?? 0;
    if (n === 0) continue;
    if (n <= rows) {
      if (held + n > rows) flush();
      group.push(id);
      held += n;
      continue;
    }
    let taken = 0, last = 0;
    for (const { id: e, n: size } of Q.eventSizes.iterate(store, { session: id })) {
      if (last && taken >= bytes) {
        steps.push({ session: id, through: last });
        taken = 0;
      }
      taken += size;
      last = e;
    }
    if (last) steps.push({ session: id, through: last });
  }
  flush();
  return steps;
}

/** Deletes the events of sessions `ids` (their commands and file spans follow), statement by statement ({@link dropPlan}). */
export function dropEvents(store: Store, ids: readonly number[]): void {
  for (const step of dropPlan(store, ids)) {
    if ("sessions" in step) {
      Q.deleteEventsOfSessions.run(store, { ids: JSON.stringify(step.sessions) });
    } else {
      Q.deleteSessionEventsThrough.run(store, { session: step.session, through: step.through });
    }
  }
}

/** Deletes session `id` and all it holds, its events in bounded statements ({@link dropEvents}). */
export function dropSession(store: Store, id: number): void {
  dropEvents(store, [id]);
  Q.deleteSession.run(store, { id });
}
