/**
 * Tool calls one session replays from another. A Claude Code compaction subagent
 * (`<session>/subagents/agent-acompact-*.jsonl`) starts with its parent's records, the same
 * record and call ids (read in the real store of session 744827a2 against its public parent),
 * and a resumed session may start with a copy of the one it resumed: each call of the copy
 * is the same call, run once (trial 19: `deja how npm test` said "ran 3 times in 3 sessions"
 * of one run, `blame` listed one edit under three sessions, `fix` counted an error "seen in
 * 4 sessions" that two had).
 *
 * A call is the same when two sessions of one harness hold a call of the same id (16
 * characters or more, lib/schema.ts `sharedCommandCalls`: a harness's random id, never a
 * counter such as `1`) doing the same
 * thing (the same command, or the same operation on the same path). Its owner is a session
 * that is no subagent before one that is, then the one that started first, then the one
 * that ended first (the copy goes on after the original), then the older row. The others'
 * calls are rows of `replays`, which counts across sessions leave out (lib/schema.ts:
 * `commandRuns`, `fileTouches`, ...); each session still shows its own.
 *
 * @module
 */
import type { Store } from "./store.ts";
import { Q, type SharedCallRow } from "./schema.ts";

/** Meta key: `1` once `replays` was filled; an index migrated to hold the table has it empty. */
export const REPLAYS_KEY = "replays";

/** Fills `replays` when it never was (an index just migrated); true when it did. */
export function ensureReplays(store: Store): boolean {
  if (Q.getMeta.get(store, { key: REPLAYS_KEY })?.value === "1") return false;
  markReplays(store);
  return true;
}

type CallRow = SharedCallRow;

/** Which of two sessions owns a call both hold (negative: `a`). */
function owner(a: CallRow, b: CallRow): number {
  const t = (v: number | null) => v ?? Number.MAX_SAFE_INTEGER;
  return a.sub - b.sub || t(a.started) - t(b.started) || t(a.updated) - t(b.updated) ||
    a.session_id - b.session_id;
}

/**
 * Rewrites `replays` from the calls the index holds (see the module doc), in one
 * transaction when it changed; returns how many calls are replays. On the 100 MB bench
 * corpus (~9,600 commands and ~4,100 file rows, no id shared): 25 ms a call, each rewriting
 * the table and reading the rows of the repeated ids in one query; 6 ms with the ids
 * grouped alone first and no write when nothing changed (Deno, in process, min of 5).
 */
export function markReplays(store: Store): number {
  // The ids held more than once first (a sort of the ids alone); their rows only then.
  const ids = (q: typeof Q.repeatedCommandCalls) =>
    JSON.stringify(q.all(store, {}).map((r) => r.call_id));
  const commands = ids(Q.repeatedCommandCalls);
  const files = ids(Q.repeatedFileCalls);
  const rows = [
    ...(commands === "[]" ? [] : Q.sharedCommandCalls.all(store, { ids: commands })),
    ...(files === "[]" ? [] : Q.sharedFileCalls.all(store, { ids: files })),
  ];
  const groups = new Map<string, CallRow[]>();
  for (const r of rows) {
    const k = `${r.harness}\u0000${r.call_id}\u0000${r.what}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const out = new Map<number, number>();
  for (const g of groups.values()) {
    if (new Set(g.map((r) => r.session_id)).size < 2) continue; // one call's spans
    const first = g.reduce((a, b) => owner(a, b) <= 0 ? a : b);
    for (const r of g) if (r.session_id !== first.session_id) out.set(r.event_id, first.session_id);
  }
  // Most runs change nothing here: no write then (a refresh on use of a hook pays the reads).
  const had = Q.allReplays.all(store, {});
  if (
    had.length === out.size && had.every((r) => out.get(r.id) === r.owner) &&
    Q.getMeta.get(store, { key: REPLAYS_KEY })?.value === "1"
  ) return out.size;
  store.db.exec("BEGIN");
  try {
    Q.clearReplays.run(store, {});
    for (const [event, owner] of out) Q.insertReplay.run(store, { event, owner });
    Q.setMeta.run(store, { key: REPLAYS_KEY, value: "1" });
    store.db.exec("COMMIT");
  } catch (e) {
    store.db.exec("ROLLBACK");
    throw e;
  }
  return out.size;
}

/**
 * The events of session `sid`'s calls that replay another session's (see the module doc),
 * each with the session that owns it.
 */
export function replayedIn(store: Store, sid: number): Map<number, number> {
  return new Map(Q.replaysOfSession.all(store, { session: sid }).map((r) => [r.id, r.owner]));
}
