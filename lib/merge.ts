/**
 * Folds the session chunks a parser yields into whole sessions, the way the
 * indexer stores them: chunks of one id are concatenated in order, an event
 * whose `key` was seen before replaces the earlier one in place, a `whole`
 * chunk starts the session's events again, and metadata merges (non-empty
 * fields win, `started` min, `updated` max).
 *
 * @module
 */
import type { Event, Session } from "../core/model.ts";

/** Merges `chunk`'s metadata into `into` (mutates `into`). */
export function mergeMeta(into: Session, chunk: Session): void {
  if (chunk.project) into.project = chunk.project;
  if (chunk.title) into.title = chunk.title;
  if (chunk.model) into.model = chunk.model;
  if (chunk.parent) into.parent = chunk.parent;
  if (chunk.path) into.path = chunk.path;
  if (chunk.started !== undefined) {
    into.started = into.started === undefined
      ? chunk.started
      : Math.min(into.started, chunk.started);
  }
  if (chunk.updated !== undefined) {
    into.updated = into.updated === undefined
      ? chunk.updated
      : Math.max(into.updated, chunk.updated);
  }
}

/** Folds chunks into sessions, in first-seen order. */
export function mergeChunks(chunks: Iterable<Session>): Session[] {
  const byId = new Map<string, { s: Session; keys: Map<string, number> }>();
  for (const c of chunks) {
    const id = `${c.harness}\u0000${c.id}`;
    let slot = byId.get(id);
    if (!slot) {
      const { whole: _whole, ...rest } = c; // an instruction to the store, not session data
      slot = { s: { ...rest, events: [] }, keys: new Map() };
      byId.set(id, slot);
    } else {
      mergeMeta(slot.s, c);
      if (c.whole) [slot.s.events, slot.keys] = [[], new Map()];
    }
    for (const e of c.events) appendEvent(slot.s.events, slot.keys, e);
  }
  return [...byId.values()].map((v) => v.s);
}

function appendEvent(events: Event[], keys: Map<string, number>, e: Event): void {
  if (e.key !== undefined) {
    const at = keys.get(e.key);
    if (at !== undefined) {
      events[at] = e;
      return;
    }
    keys.set(e.key, events.length);
  }
  events.push(e);
}
