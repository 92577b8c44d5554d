/**
 * Folds the session chunks a parser yields into whole sessions, the way the
 * indexer stores them: chunks of one id are concatenated in order, an event
 * whose `key` was seen before replaces the earlier one in place, a `whole`
 * chunk starts the session's events again, and metadata merges (non-empty
 * fields win, `started` min, `updated` max, recorded times over a file's:
 * {@link mergeTimes}). A prompt history's chunk (`Session.prompts`) of a
 * session another chunk began adds only the prompts it lacks (not the same
 * text within PROMPT_MATCH_MS of a user event of it) and leaves its metadata.
 *
 * @module
 */
import type { Event, Session } from "../core/model.ts";
import type { FileTime } from "./session_time.ts";
import { PROMPT_MATCH_MS } from "../core/prompt_history.ts";

/** A session's times and where they came from (see {@link mergeTimes}). */
export interface SessionTimes {
  /** Epoch ms. */
  started?: number;
  /** Epoch ms. */
  updated?: number;
  /** The times are a store file's mtime, its own or a shared one's (`Session.timeFromFile`). */
  timeFromFile?: FileTime;
}

/**
 * The times of a session that held `had` after a chunk bringing `chunk`:
 * `started` the minimum, `updated` the maximum, when both are of one kind. A
 * recorded time beats a file's time: a chunk with recorded times replaces
 * times taken from a file (and clears the mark), and a file's time never
 * moves recorded ones. Between file times the chunk's kind (own file or
 * shared) is kept: the latest read of the file says what it is (an index made
 * before the two kinds were told apart holds every file time as the own
 * file's). A chunk without times changes nothing.
 */
export function mergeTimes(had: SessionTimes, chunk: SessionTimes): SessionTimes {
  const chunkHas = chunk.started !== undefined || chunk.updated !== undefined;
  const hadHas = had.started !== undefined || had.updated !== undefined;
  if (!chunkHas) return had;
  if (!hadHas || (had.timeFromFile && !chunk.timeFromFile)) return chunk;
  if (!had.timeFromFile && chunk.timeFromFile) return had;
  const pick = (
    a: number | undefined,
    b: number | undefined,
    f: (x: number, y: number) => number,
  ) => a === undefined ? b : b === undefined ? a : f(a, b);
  return {
    started: pick(had.started, chunk.started, Math.min),
    updated: pick(had.updated, chunk.updated, Math.max),
    timeFromFile: chunk.timeFromFile,
  };
}

/** Merges `chunk`'s metadata into `into` (mutates `into`). */
export function mergeMeta(into: Session, chunk: Session): void {
  if (chunk.project) into.project = chunk.project;
  if (chunk.title) into.title = chunk.title;
  if (chunk.model) into.model = chunk.model;
  if (chunk.parent) into.parent = chunk.parent;
  if (chunk.path) into.path = chunk.path;
  const { started, updated, timeFromFile } = mergeTimes(into, chunk);
  delete into.started;
  delete into.updated;
  delete into.timeFromFile;
  if (started !== undefined) into.started = started;
  if (updated !== undefined) into.updated = updated;
  if (timeFromFile) into.timeFromFile = timeFromFile;
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
    } else if (c.prompts && !slot.s.prompts) {
      const had = slot.s.events;
      for (const e of c.events) if (!holdsPrompt(had, e)) appendEvent(had, slot.keys, e);
      continue;
    } else {
      mergeMeta(slot.s, c);
      if (c.whole) [slot.s.events, slot.keys] = [[], new Map()];
    }
    for (const e of c.events) appendEvent(slot.s.events, slot.keys, e);
  }
  return [...byId.values()].map((v) => v.s);
}

/** Whether `events` hold prompt `e`: a user event of its text (trimmed) within PROMPT_MATCH_MS. */
function holdsPrompt(events: readonly Event[], e: Event): boolean {
  if (e.kind !== "user") return false;
  const text = e.text.trim();
  return events.some((h) =>
    h.kind === "user" && h.text.trim() === text &&
    (h.time === undefined || e.time === undefined || Math.abs(h.time - e.time) <= PROMPT_MATCH_MS)
  );
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
