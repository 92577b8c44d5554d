/**
 * Newest-first order of file touches across sessions, for `restore` and
 * `blame`, when many touches carry no time of their own.
 *
 * Rule: a touch is placed by the best time known for it: its event's time;
 * else its session's time. A subagent's session time is its own when the
 * store recorded one; when it did not (`time_from_file`, or none), it is the
 * parent's time at the call that spawned the subagent, and the subagent's
 * touches sit at that call's place in the parent's run; else the session's
 * `updated`, then `started`. An undated session's time (only the mtime of a
 * file many sessions share, `time_from_file` 2) places a touch after every
 * touch with a dated time (lib/session_time.ts), newest file first among
 * themselves; a session's own file's mtime places it like a recorded time. Equal
 * times are broken by place: touches of one session (a subagent counted at
 * its spawning call in its parent) by event order, later first; touches of
 * unrelated sessions by session row id, higher first; then by `files` row id.
 * Nothing known at all sorts last; "no time" is never read as "oldest" while
 * a session time is known.
 *
 * The time that placed a touch is also what `restore` shows for it
 * ({@link placedTime}): marked as not the touch's own (`session`), and as
 * only the store file's modification time (`file`) when the session's time
 * came from there, so a listing never says "-" where the order used a time,
 * nor passes a file's time off as the edit's.
 *
 * The spawning call is the parent's tool call whose decoded input holds the
 * subagent's first prompt (the `prompt` of a `Task` call, in any field): the
 * first 120 characters, spaces folded, must agree. No match: the subagent
 * keeps its own session time and its own place.
 *
 * @module
 */
import { hasFileTime, isUndated, timeRank } from "../session_time.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";

/** What the order needs of a touch. */
export interface Placed {
  id: number;
  sessionId: number;
  time: number | null;
  seq: number;
}

/**
 * Where a touch's time comes from: its own event (`event`), its session or the
 * parent's spawning call (`session`), or only the store file's modification
 * time standing in for a session the store never dated (`file`: a copied
 * store makes that "now").
 */
export type TimeSource = "event" | "session" | "file";

/** Where a session's touches sit: a time, and a place in a run of sessions. */
interface Anchor {
  time: number | null;
  /** True when `time` is only a store file's modification time (`time_from_file`, either kind). */
  fromFile: boolean;
  /** True when `time` is an undated session's (a shared file's mtime): placed after dated ones. */
  undated: boolean;
  /** Row id of the outermost session whose run this one is placed in. */
  root: number;
  /** Seqs of the spawning calls from `root` down to this session. */
  prefix: number[];
}

const fold = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 120);

/** The seq and time of the parent's call that spawned `sub`, if one holds its first prompt. */
function spawnCall(store: Store, parent: SessionRow, sub: SessionRow) {
  const first = Q.firstUserEvent.get(store, { id: sub.id });
  const want = first ? fold(first.text) : "";
  if (want.length < 8) return undefined;
  for (const c of Q.toolCallsWithData.all(store, { id: parent.id })) {
    if (!c.data) continue;
    let input: unknown;
    try {
      input = JSON.parse(c.data);
    } catch {
      continue;
    }
    if (!input || typeof input !== "object") continue;
    for (const v of Object.values(input as Record<string, unknown>)) {
      if (typeof v === "string" && fold(v) === want) return { seq: c.seq, time: c.time };
    }
  }
  return undefined;
}

/** The anchors of sessions, parents looked up and resolved once each. */
export class Anchors {
  private memo = new Map<number, Anchor>();
  private rows = new Map<number, SessionRow>();
  constructor(private store: Store, sessions: Iterable<SessionRow>) {
    for (const s of sessions) this.rows.set(s.id, s);
  }

  /** The session row of a row id (those given, and parents looked up). */
  row(id: number): SessionRow | undefined {
    return this.rows.get(id);
  }

  /** The anchor of a session (see the module rule). */
  of(s: SessionRow, depth = 0): Anchor {
    const known = this.memo.get(s.id);
    if (known) return known;
    const own = s.updated ?? s.started ?? null;
    let a: Anchor = {
      time: own,
      fromFile: own !== null && hasFileTime(s),
      undated: own !== null && isUndated(s),
      root: s.id,
      prefix: [],
    };
    if (s.parent && depth < 8 && (own === null || hasFileTime(s))) {
      const p = Q.sessionByKey.get(this.store, { harness: s.harness, native_id: s.parent });
      if (p) {
        this.rows.set(p.id, p);
        const call = spawnCall(this.store, p, s);
        if (call) {
          const pa = this.of(p, depth + 1);
          a = {
            time: call.time ?? pa.time,
            fromFile: call.time === null && pa.fromFile,
            undated: call.time === null && pa.undated,
            root: pa.root,
            prefix: [...pa.prefix, call.seq],
          };
        }
      }
    }
    this.memo.set(s.id, a);
    return a;
  }
}

/** The best known time of a touch (its own, else its session's anchor). */
export function bestTime(t: Placed, anchors: Anchors): number | null {
  return placedTime(t, anchors).time;
}

/** The best known time of a touch and where it comes from (null when nothing is known). */
export function placedTime(
  t: Placed,
  anchors: Anchors,
): { time: number | null; source: TimeSource | null } {
  if (t.time !== null) return { time: t.time, source: "event" };
  const s = anchors.row(t.sessionId);
  const a = s ? anchors.of(s) : undefined;
  if (!a || a.time === null) return { time: null, source: null };
  return { time: a.time, source: a.fromFile ? "file" : "session" };
}

/**
 * Sorts touches newest first by the module rule, in place; returns them.
 *
 * @param sessions the rows of the touches' sessions (parents are looked up).
 * @param anchors the anchors to use (a caller that shows the times passes its own).
 */
export function newestFirst<T extends Placed>(
  store: Store,
  touches: T[],
  sessions: Iterable<SessionRow>,
  anchors: Anchors = new Anchors(store, sessions),
): T[] {
  const key = new Map<T, { time: number; root: number; path: number[] }>();
  for (const t of touches) {
    const s = anchors.row(t.sessionId);
    const a = s ? anchors.of(s) : { time: null, root: t.sessionId, prefix: [] };
    // A dated time over an undated session's (lib/session_time.ts).
    key.set(t, {
      time: t.time ?? timeRank(a.time, "undated" in a && a.undated),
      root: a.root,
      path: [...a.prefix, t.seq],
    });
  }
  return touches.sort((x, y) => {
    const a = key.get(x)!, b = key.get(y)!;
    if (a.time !== b.time) return b.time - a.time;
    if (a.root !== b.root) return b.root - a.root;
    for (let i = 0; i < Math.min(a.path.length, b.path.length); i++) {
      if (a.path[i] !== b.path[i]) return b.path[i] - a.path[i];
    }
    return b.path.length - a.path.length || y.id - x.id;
  });
}
