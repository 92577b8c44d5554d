/**
 * A file's history under the names it had before: `blame` and `restore` of `src/c.py` take in
 * the changes a session made to it as `a.py`, `b.py` and `c.py` before moving it there (trial
 * 97 F1: a.py → b.py by a patch's `*** Move to:`, → c.py by `mv`, → src/c.py by `git mv`; blame
 * of the final name said "no session touched it itself", restore listed one span of three).
 *
 * Read backward, session by session: from the file's path, each move (./moves.ts: a command's
 * `mv`/`git mv`, a patch's rename) whose target is the name the file then had gives its name
 * before, until a removal of that name (a file there before it was another file) or the
 * session's first move. A name's changes count from the move that gave the file that name up to
 * the move that took it away, both included (a patch that renamed a file recorded its own edit
 * under the new name and its old one as touched at the same place).
 *
 * The sessions asked are those whose commands name the file's name beside `mv`, and those that
 * touched a file of that name: a patch's rename is in the second (its edit is recorded under the
 * new name), but not a patch that only renamed, with no change under the new name.
 *
 * A file a session moved had a history before that session when it was not made there by it:
 * the sessions that touched its name before the move (by time) and did not remove or move that
 * name after, and through their own moves the sessions before them (trial 100 F1: one session
 * wrote app.py, the next ran `mv app.py lib/`).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import {
  globNames,
  type MoveCommand,
  moveCommands,
  movesAfter,
  resolvedIn,
  toldMoves,
} from "./moves.ts";
import { type EarlierTouch, type FileTouch, toTouch, type TouchMatch } from "./paths.ts";
import { Anchors, newestFirst } from "./order.ts";
import { overLikeBound } from "../query.ts";
import type { SessionRow } from "../rows.ts";

/** How many folders up from a file a move or copy of a folder holding it is looked for. */
const FOLDERS = 3;

/**
 * The sessions that may have moved a file of a name, and each session's move commands, read
 * once for one `blame` or `restore` ({@link withRenames}): following a file back and forward
 * asks the same of the same sessions.
 */
export class MoveReads {
  private named = new Map<string, number[]>();
  private rows = new Map<number, MoveCommand[]>();
  constructor(private store: Store) {}
  /**
   * Sessions whose commands name `name` beside `mv` or `cp` (lib/schema.ts
   * `sessionsMovingName`), or with `removing`, beside `rm` or `unlink` (`sessionsRemovingName`).
   */
  moving(name: string, removing = false): number[] {
    const key = `${removing ? "rm" : "mv"} ${name}`;
    let ids = this.named.get(key);
    if (!ids) {
      const q = removing ? Q.sessionsRemovingName : Q.sessionsMovingName;
      ids = q.all(this.store, { name }).map((r) => r.session);
      this.named.set(key, ids);
    }
    return ids;
  }
  /**
   * Sessions whose commands name the file at `path` (whole) or one of the {@link FOLDERS}
   * folders holding it beside `mv` or `cp` (with `removing`: `rm`, `unlink`): a folder moved
   * or copied moved the files in it (trial 108 F4: `cp -r lib lib2` made lib2/a.py).
   */
  movingPath(path: string, removing = false): number[] {
    const ids = new Set(this.moving(basename(path), removing));
    let dir = dirname(path);
    for (let i = 0; i < FOLDERS && dir !== dirname(dir); i++, dir = dirname(dir)) {
      const name = basename(dir);
      if (!overLikeBound(name)) { for (const id of this.moving(name, removing)) ids.add(id); }
    }
    return [...ids];
  }
  /** Session `sid`'s moves and removals, in order (./moves.ts `moveCommands`). */
  commands(sid: number): MoveCommand[] {
    let rows = this.rows.get(sid);
    if (!rows) this.rows.set(sid, rows = moveCommands(this.store, sid));
    return rows;
  }
}

/**
 * `m` with the file's history under its earlier names ({@link withEarlierNames}) and without
 * an earlier file of its name moved away ({@link withoutMovedAway}), the sessions' moves read
 * once for both.
 */
export function withRenames(store: Store, m: TouchMatch): TouchMatch {
  const reads = new MoveReads(store);
  return withoutMovedAway(store, withEarlierNames(store, m, reads), reads);
}

/** A name a file had earlier in one session, whole, and the places in it it had that name. */
export interface EarlierName {
  sessionId: number;
  path: string;
  /** Seq of the move that gave the file this name (0 from the session's start). */
  from: number;
  /** Seq of the move that took it away. */
  until: number;
  /** The file came from this name to the one asked through a copy (`cp`), not moves alone. */
  copied?: true;
}

/**
 * The moves and copies of a command, whole against `project`, in the line's order (each copy
 * after the moves its `after` counts).
 */
function stepsOf(
  moves: ReturnType<typeof toldMoves>,
  project: string | null,
): Array<{ from?: string; to?: string; copy: boolean }> {
  const whole = (from: string, to: string, copy: boolean) => ({
    from: resolvedIn(from, project),
    to: resolvedIn(to, project),
    copy,
  });
  const out = moves.moved.map(([from, to]) => whole(from, to, false));
  // Last first, so each copy's place counts the moves before it as the line had them.
  const copies = (moves.copied ?? []).filter((c) => !c.unsure);
  for (let i = copies.length - 1; i >= 0; i--) {
    const c = copies[i];
    out.splice(Math.min(c.after, out.length), 0, whole(c.from, c.to, true));
  }
  return out;
}

/**
 * The earlier names of the file now at `target` (whole) in session `sid` of `project`,
 * oldest first (see the module rule).
 */
export function earlierNames(
  store: Store,
  sid: number,
  project: string | null,
  target: string,
  rows: readonly MoveCommand[] = moveCommands(store, sid),
): EarlierName[] {
  const out: EarlierName[] = [];
  let now = target;
  /** A copy came on the way back from `target`: the names before it are its source's. */
  let viaCopy = false;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    const told = toldMoves(r.moves, project);
    // Every move and copy of the command, last first: a chain in one command (`mv p q && mv q
    // r`, a swap through `tmp`) is followed whole (trial 100 F2: blame of r.py said no session
    // touched it).
    const pairs = stepsOf(told, project);
    let came = false;
    for (let k = pairs.length - 1; k >= 0; k--) {
      const { from, to, copy } = pairs[k];
      if (!from || !to || (now !== to && !now.startsWith(to + "/"))) continue;
      now = from + now.slice(to.length);
      came = true;
      if (copy) viaCopy = true;
    }
    if (came) {
      // Moved aside and back (`mv a tmp`, then `mv tmp a`): the file was here, or had that
      // earlier name, all along; the names on the way round are none of its history (trial 113
      // F1: the session that made copy.py by `cp` was left out as another file's).
      if (now === target) {
        out.length = 0;
        viaCopy = false;
        continue;
      }
      const round = out.findIndex((n) => n.path === now);
      if (round >= 0) {
        out.length = round + 1;
        out[round].from = 0;
        viaCopy = Boolean(out[round].copied);
        continue;
      }
      out.forEach((n) => n.from === 0 && (n.from = r.seq));
      out.push({
        sessionId: sid,
        path: now,
        from: 0,
        until: r.seq,
        ...(viaCopy ? { copied: true as const } : {}),
      });
      continue;
    }
    // Removed before it came here: the file there earlier was another one, and its name's
    // changes count from the removal on.
    if (told.removed.some((p) => resolvedIn(p, project) === now)) {
      out.forEach((n) => n.from === 0 && (n.from = r.seq));
      break;
    }
  }
  return out.reverse();
}

/**
 * The file's name before a session moved it, which earlier sessions may have touched
 * (the file had that name at the session's start).
 */
interface NameBefore {
  /** The name, whole. */
  path: string;
  /** Epoch ms of the move: earlier sessions' touches of the name before it are the file's. */
  before: number;
  /**
   * The session that moved it to the name asked (native id, harness): the last of `on`'s
   * (trial 110 F3: the one that moved it away from `path` was named, several moves back).
   */
  by: string;
  byHarness: string;
  /** The row id of the session that moved it away from `path` (its touches of it are its own). */
  bySession: number;
  /** It came to the name asked through a copy (`cp`) on the way, not moves alone. */
  copied?: true;
  /**
   * The names the file had after `path`, oldest first, the one asked last, each with the
   * session that gave it that name (trial 108 F1: `mv r.py s.py` in one session, `mv s.py
   * t.py` in the next).
   */
  on: NameHop[];
}

/** A name a session gave the file ({@link NameBefore.on}). */
export interface NameHop {
  /** The name, whole. */
  path: string;
  /** The session that moved or copied the file to it (native id, harness). */
  by: string;
  byHarness: string;
  /** It copied the file there (`cp`). */
  copied?: true;
}

/**
 * The names session `s` gave the file after `names[0]` (its names for it, oldest first, as
 * {@link earlierNames} gives them), up to `to`, the name it moved the file to last.
 */
function hopsOf(s: SessionRow, names: readonly EarlierName[], to: string): NameHop[] {
  // `copied` of a name: a copy came between it and `to`; the copy is where that changes.
  const paths = [...names.slice(1).map((n) => n.path), to];
  return paths.map((path, i) => ({
    path,
    by: s.native_id,
    byHarness: s.harness,
    ...(names[i].copied && !names[i + 1]?.copied ? { copied: true as const } : {}),
  }));
}

/** How many moves across sessions a file's history is followed back through. */
const MAX_HOPS = 4;

/**
 * `m` with the touches of the file's earlier names (see the module rule) in the sessions that
 * renamed it, as exact touches; `renamed` gives each such session's names of the file, oldest
 * first. Then the sessions before the move that touched the name it had at the mover's start
 * (trial 100 F1: one session wrote app.py, a later one ran `mv app.py lib/`, and blame of
 * lib/app.py said no recorded write put its line there); `earlier` names each such session's
 * name for the file and the session that moved it. `m` itself when no session renamed it.
 */
export function withEarlierNames(
  store: Store,
  m: TouchMatch,
  reads = new MoveReads(store),
): TouchMatch {
  const base = basename(m.target);
  if (!m.target.startsWith("/") || !base || overLikeBound(base)) return m;
  const asked = new Set(m.touches.map((t) => t.sessionId));
  for (const id of reads.movingPath(m.target)) asked.add(id);
  const sessions = Q.sessionsByIds.all(store, { ids: JSON.stringify([...asked]) });
  const found: FileTouch[] = [];
  const renamed = new Map<number, string[]>();
  const copied = new Set<number>();
  /** Per session that moved or copied a file here, the seq of that move (the last one). */
  const cameAt = new Map<number, number>();
  const starts: NameBefore[] = [];
  for (const s of sessions) {
    const names = earlierNames(store, s.id, s.project, m.target, reads.commands(s.id));
    found.push(...namesTouches(store, s, names));
    if (!names.length) continue;
    renamed.set(s.id, names.map((n) => n.path));
    if (names[0].copied) copied.add(s.id);
    cameAt.set(s.id, names.at(-1)!.until);
    const start = moveStart(store, s, names, m.target);
    if (start) starts.push(start);
  }
  const earlier = new Map<number, EarlierTouch>();
  found.push(...touchesBefore(store, starts, m.target, renamed, earlier, reads));
  // The name's touches in a session before it moved or copied another file here were of the
  // file that was here then, moved away or replaced (a swap `mv a tmp && mv b a && mv tmp b`:
  // restore of a listed the write of the a that went to b). A patch that renamed a file
  // recorded its own edit under the new name at the move's seq: that one stays.
  const own = (m.match === "exact" ? m.touches : []).filter((t) => {
    const at = cameAt.get(t.sessionId);
    return at === undefined || t.seq >= at;
  });
  // Moved here with no touch under its earlier names: the touches of it here say where it came
  // from (trial 94 F12: Crush touched frontend-deployment.yaml only after `mv deployment.yaml
  // frontend-deployment.yaml`, and blame never said so).
  if (!found.length) {
    const here = new Set(own.map((t) => t.sessionId));
    const said = new Map([...renamed].filter(([sid]) => here.has(sid)));
    const dropped = own.length < (m.match === "exact" ? m.touches.length : 0);
    if (!said.size && !dropped) return m;
    return {
      ...m,
      touches: m.match === "exact" ? own : m.touches,
      ...(said.size ? { renamed: said, cameAt } : {}),
      ...(copied.size ? { copied } : {}),
    };
  }
  // The touches of the file itself, under its name now, stay; of other files of its name, not.
  const ids = new Set(own.map((t) => t.id));
  const touches = [...own, ...found.filter((t) => !ids.has(t.id))];
  const rows = Q.sessionsByIds.all(store, {
    ids: JSON.stringify([...new Set(touches.map((t) => t.sessionId))]),
  });
  const anchors = new Anchors(store, rows);
  newestFirst(store, touches, rows, anchors);
  return {
    target: m.target,
    match: "exact",
    touches,
    anchors,
    renamed,
    cameAt,
    ...(copied.size ? { copied } : {}),
    ...(earlier.size ? { earlier } : {}),
  };
}

/** The touches of session `s` of the names `names` it gave the file, each in its span. */
function namesTouches(store: Store, s: SessionRow, names: readonly EarlierName[]): FileTouch[] {
  const out: FileTouch[] = [];
  for (const n of names) {
    for (const r of Q.fileTouches.all(store, { like: likeName(n.path), path: n.path })) {
      if (r.session_id !== s.id || r.seq < n.from || r.seq > n.until) continue;
      if (resolvedIn(r.path, s.project) === n.path) out.push(toTouch(r));
    }
  }
  return out;
}

/** A LIKE pattern for the files of `path`'s name. */
function likeName(path: string): string {
  return "%/" + basename(path).replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The name the file had at session `s`'s start and the time `s` moved it away from that
 * name, `s` named as the mover to `to` (its names for the file, `names`, end there); undefined
 * when `s` made it under that name (its first name's span starts after the session's start)
 * or the move's time is unknown.
 */
function moveStart(
  store: Store,
  s: SessionRow,
  names: readonly EarlierName[],
  to: string,
): NameBefore | undefined {
  const first = names[0];
  if (first.from !== 0) return undefined;
  const made = Q.fileTouches.all(store, { like: likeName(first.path), path: first.path })
    .some((r) =>
      r.session_id === s.id && r.seq <= first.until && r.op === "write" && !r.failed &&
      resolvedIn(r.path, s.project) === first.path
    );
  if (made) return undefined;
  const at = Q.eventsBetween.all(store, { session: s.id, from: first.until, to: first.until });
  const before = at[0]?.time ?? null;
  if (before === null) return undefined;
  return {
    path: first.path,
    before,
    by: s.native_id,
    byHarness: s.harness,
    bySession: s.id,
    ...(first.copied ? { copied: true as const } : {}),
    on: hopsOf(s, names, to),
  };
}

/**
 * `start`, a name the file had before a session moved it to `st.path`, with the moves after
 * `st.path` of `st` (its mover to the name asked, its names on): the start to follow back.
 */
function onFrom(start: NameBefore, st: NameBefore): NameBefore {
  return {
    ...start,
    before: Math.min(start.before, st.before),
    by: st.by,
    byHarness: st.byHarness,
    ...(st.copied ? { copied: true as const } : {}),
    on: [...start.on, ...st.on],
  };
}

/**
 * The touches, in sessions other than the movers, of the names files had before a session
 * moved them (`starts`), made before the move, followed back through the moves of those
 * sessions too (up to {@link MAX_HOPS}); `earlier` gets each such session's name for the
 * file. A session that removed or moved the name after its last touch of it touched another
 * file, left out.
 */
function touchesBefore(
  store: Store,
  starts: NameBefore[],
  target: string,
  renamed: Map<number, string[]>,
  earlier: Map<number, EarlierTouch>,
  reads: MoveReads,
): FileTouch[] {
  const out: FileTouch[] = [];
  const seen = new Set<string>([target]);
  let queue = starts;
  for (let hop = 0; hop < MAX_HOPS && queue.length; hop++) {
    const next: NameBefore[] = [];
    for (const st of queue) {
      if (seen.has(st.path)) continue;
      seen.add(st.path);
      const rows = Q.fileTouches.all(store, { like: likeName(st.path), path: st.path })
        .filter((r) => r.session_id !== st.bySession && r.time !== null && r.time < st.before);
      const ids = new Set(rows.map((r) => r.session_id));
      for (const id of reads.movingPath(st.path)) if (id !== st.bySession) ids.add(id);
      if (!ids.size) continue;
      for (const s of Q.sessionsByIds.all(store, { ids: JSON.stringify([...ids]) })) {
        // The name's changes of a session that moved a file there itself, before the move.
        const names = earlierNames(store, s.id, s.project, st.path, reads.commands(s.id));
        // Its touches of the name before it moved a file there were of another file, moved
        // away or replaced (trial 108 F4: S3 wrote x.py and y.py and swapped them, S16 ran `git
        // mv y.py yy.py`; S3's y.py write, then its swap, ended the chain at S3).
        const came = names.at(-1)?.until ?? -1;
        const mine = rows.filter((r) =>
          r.session_id === s.id && r.seq >= came && resolvedIn(r.path, s.project) === st.path
        ).map(toTouch);
        const moved = namesTouches(store, s, names).filter((t) =>
          t.time !== null && t.time < st.before
        );
        if (!mine.length && !moved.length) {
          // Only moved the file to this name, before the later move: followed on back through
          // it (trial 108 F1: S9 wrote r.py, S10 ran `mv r.py s.py`, S11 `mv s.py t.py`; blame
          // of t.py said no session touched it).
          const on = names.length ? passedThrough(store, s, names, st, reads) : undefined;
          if (on) next.push(on);
          continue;
        }
        // Removed or moved away after its last touch: the file it touched was another one.
        // (From the move that brought it there on, when one did: the file was there only then.)
        const last = Math.max(came, ...mine.map((t) => t.seq), ...moved.map((t) => t.seq));
        const after = movesAfter(
          store,
          s.id,
          s.project,
          new Map([[st.path, last]]),
          reads.commands(s.id),
        );
        if (after.size) continue;
        out.push(...mine, ...moved);
        // Its own names for the file, not those later sessions gave it (trial 110 F3).
        earlier.set(s.id, {
          path: st.path,
          by: st.by,
          byHarness: st.byHarness,
          ...(st.copied ? { copied: true as const } : {}),
          on: st.on,
        });
        if (names.length) renamed.set(s.id, [...names.map((n) => n.path), st.path]);
        if (names.length) {
          const start = moveStart(store, s, names, st.path);
          if (start) next.push(onFrom(start, st));
        }
      }
    }
    queue = next;
  }
  return out;
}

/**
 * The name the file had before session `s` moved it to `st.path` (`names`, its names in `s`,
 * oldest first), when `s` touched none of them: the start to follow back, with `st`'s later
 * names and mover to the name asked kept. Undefined when the move came after `st`'s (by
 * time), `s` made the file itself, or `s` moved it away from `st.path` again (another file
 * came there after).
 */
function passedThrough(
  store: Store,
  s: SessionRow,
  names: readonly EarlierName[],
  st: NameBefore,
  reads: MoveReads,
): NameBefore | undefined {
  const came = names.at(-1)!.until;
  const time = Q.eventsBetween.all(store, { session: s.id, from: came, to: came })[0]?.time;
  if (typeof time !== "number" || time >= st.before) return undefined;
  if (movesAfter(store, s.id, s.project, new Map([[st.path, came]]), reads.commands(s.id)).size) {
    return undefined;
  }
  const start = moveStart(store, s, names, st.path);
  return start && onFrom(start, st);
}

/**
 * A move of the file at a path away from it, or its removal, by some session (./renames.ts
 * {@link movesAway}).
 */
export interface MoveAway {
  /** Epoch ms of the move. */
  time: number;
  /** Its seq in the mover's session. */
  seq: number;
  /** Where the file went, whole; absent when it was removed. */
  to?: string;
  /**
   * A command or patch removed it (`rm`, `git rm`, `unlink`, `*** Delete File:`, a folder
   * holding it or a glob naming it): a file made there after is another file (trial 110 F4).
   */
  removed?: true;
  /** The mover: row id, native id, harness. */
  session: number;
  by: string;
  byHarness: string;
}

/**
 * The moves of the file at `target` (whole) away from it, and its removals, by any session,
 * oldest first: the sessions whose commands name its name beside `mv` or `rm` or touched it (a
 * patch's move or deletion), each move's time known.
 */
export function movesAway(
  store: Store,
  target: string,
  touched: Iterable<number>,
  reads = new MoveReads(store),
): MoveAway[] {
  const base = basename(target);
  if (!base || overLikeBound(base)) return [];
  const asked = new Set(touched);
  for (const id of reads.movingPath(target)) asked.add(id);
  for (const id of reads.movingPath(target, true)) asked.add(id);
  if (!asked.size) return [];
  const out: MoveAway[] = [];
  for (const s of Q.sessionsByIds.all(store, { ids: JSON.stringify([...asked]) })) {
    const rows = reads.commands(s.id);
    const steps = stepsIn(rows, s.project);
    for (const [i, r] of rows.entries()) {
      const found: Array<{ to?: string; removed?: true }> = [];
      // Removed whole, or with the folder holding it, or by a glob naming it.
      for (const a of steps[i].removed) if (globNames(a, target)) found.push({ removed: true });
      for (const [k, [a, b]] of steps[i].moved.entries()) {
        if (a !== target && !target.startsWith(a + "/")) continue;
        const to = b + target.slice(a.length);
        // Moved aside and back by this session: no move away (trial 113 F2).
        if (!cameBack(to, target, steps, i, k + 1)) found.push({ to });
      }
      if (!found.length) continue;
      const time = Q.eventsBetween.all(store, { session: s.id, from: r.seq, to: r.seq })[0]?.time;
      if (time === null || time === undefined) continue;
      for (const f of found) {
        out.push({ time, seq: r.seq, ...f, session: s.id, by: s.native_id, byHarness: s.harness });
      }
    }
  }
  // Moved aside by one session and back by a later one: no move away either.
  return out.filter((mv) => mv.to === undefined || !broughtBack(store, mv, target, reads))
    .sort((x, y) => x.time - y.time);
}

/** One command's removals and moves, paths whole ({@link cameBack}). */
interface Step {
  removed: string[];
  moved: Array<[string, string]>;
}

/** The removals and moves of `rows`, paths made whole against `project`, command by command. */
function stepsIn(rows: readonly MoveCommand[], project: string | null): Step[] {
  return rows.map((r) => {
    const told = toldMoves(r.moves, project);
    const whole = (p: string) => resolvedIn(p, project);
    return {
      removed: told.removed.map(whole).filter((p): p is string => p !== undefined),
      moved: told.moved.map(([a, b]) => [whole(a), whole(b)])
        .filter((m): m is [string, string] => m[0] !== undefined && m[1] !== undefined),
    };
  });
}

/**
 * Whether the file at `loc` (whole) is moved back to `target` by `steps`, from move `pair`
 * of command `from` on, before any removal of it.
 */
function cameBack(loc: string, target: string, steps: readonly Step[], from: number, pair = 0) {
  for (let i = from; i < steps.length; i++) {
    if (i > from && steps[i].removed.some((p) => globNames(p, loc))) return false;
    for (const [a, b] of steps[i].moved.slice(i === from ? pair : 0)) {
      if (loc !== a && !loc.startsWith(a + "/")) continue;
      loc = b + loc.slice(a.length);
      if (loc === target) return true;
    }
  }
  return false;
}

/**
 * Whether a later session moved the file `mv` took away from `target` back there (from its
 * first command that moves it after `mv`'s time on).
 */
function broughtBack(store: Store, mv: MoveAway, target: string, reads: MoveReads): boolean {
  const to = mv.to!;
  const ids = reads.movingPath(to).filter((id) => id !== mv.session);
  if (!ids.length) return false;
  for (const s of Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })) {
    const rows = reads.commands(s.id);
    const steps = stepsIn(rows, s.project);
    for (const [i, st] of steps.entries()) {
      if (!st.moved.some(([a]) => to === a || to.startsWith(a + "/"))) continue;
      const time = Q.eventsBetween.all(store, {
        session: s.id,
        from: rows[i].seq,
        to: rows[i].seq,
      })[0]
        ?.time;
      if (typeof time !== "number" || time <= mv.time) continue;
      if (cameBack(to, target, steps, i)) return true;
      break;
    }
  }
  return false;
}

/**
 * `m` without the touches of an earlier file of its name: one a later session moved away
 * (trial 105 F2: S1 wrote app.py, S2 ran `mv app.py lib/`, S4 wrote a new app.py; blame and
 * restore of app.py mixed S1's old file into S4's), or any session removed (trial 110 F4: `rm
 * x.py`, then a Write of a new x.py in a later session), when a touch after that move made the
 * file there again; `away` names, per session left out, where its file went (or that it was
 * removed) and who did it. A touch before a move with nothing made there after it stays, and
 * `later` says where the file went, or that it was removed, and who did it (another session:
 * its own moves and removals blame reads itself).
 */
export function withoutMovedAway(
  store: Store,
  m: TouchMatch,
  reads = new MoveReads(store),
): TouchMatch {
  if (m.match !== "exact" || !m.target.startsWith("/") || !m.touches.length) return m;
  const own = (t: FileTouch) => t.path === m.target || t.path.replaceAll("\\", "/") === m.target;
  const mine = m.touches.filter(own);
  const moves = movesAway(store, m.target, new Set(m.touches.map((t) => t.sessionId)), reads);
  if (!moves.length) return m;
  /** Whether touch `a` came before move `mv` (by seq in one session, else by time). */
  const before = (a: FileTouch, mv: MoveAway) =>
    a.sessionId === mv.session ? a.seq < mv.seq : a.time !== null && a.time < mv.time;
  /** A write of the file here (it was made there again). */
  const writes = mine.filter((w) => !w.failed && w.op === "write");
  /**
   * The first move away after touch `t`, when the file `t` touched is the one moved: no
   * write of the name came between them (the file was made anew: trial 47's sessions each
   * wrote deploy.yaml before moving or removing it).
   */
  const after = (t: FileTouch) => {
    // A touch under an earlier name: the file was here only after the move that brought it
    // (a swap in one command moves the name's old file away first: trial 108 F5, y.py went on
    // to yy.py by a later `git mv`, never said). The session's own moves on blame reads itself.
    const came = own(t) ? -1 : m.cameAt?.get(t.sessionId) ?? -1;
    const mv = moves.find((x) =>
      x.session === t.sessionId ? x.seq > t.seq && x.seq > came : t.time !== null && x.time > t.time
    );
    if (!mv) return undefined;
    const anew = writes.some((w) =>
      w !== t && before(w, mv) &&
      (w.sessionId === t.sessionId ? w.seq > t.seq : t.time !== null && (w.time ?? 0) > t.time)
    );
    return anew ? undefined : mv;
  };
  /**
   * Whether a change of the name came after move `mv`, or a session moved or copied another
   * file here after it (a swap `mv a tmp && mv b a && mv tmp b` in a later session): the file
   * here was made again. After a removal, only a write makes it again: a file edited after it
   * came back some way no session recorded (`git checkout` of the removed one, maybe).
   */
  const made = (mv: MoveAway) =>
    mine.some((t) =>
      !t.failed && (mv.removed ? t.op === "write" : t.op !== "read") &&
      (t.sessionId === mv.session ? t.seq > mv.seq : t.time !== null && t.time > mv.time)
    ) ||
    [...m.cameAt ?? []].some(([sid, seq]) => {
      // One command's swap moves the file away before it brings another here.
      if (sid === mv.session) return seq >= mv.seq;
      const time = Q.eventsBetween.all(store, { session: sid, from: seq, to: seq })[0]?.time;
      return typeof time === "number" && time > mv.time;
    });
  const away = new Map<number, MoveAway>();
  // Another session's move: a session's own move it says itself ("moved later to"). A removal,
  // its own too: the file made here after it is another (trial 110 F4).
  const keep = m.touches.filter((t) => {
    if (!own(t)) return true;
    const mv = after(t);
    if (!mv || (mv.session === t.sessionId && !mv.removed) || !made(mv)) return true;
    away.set(t.sessionId, mv);
    return false;
  });
  // A session with touches kept is no session left out; the file it touched last went on
  // when a move away came after its last touch (under this name or an earlier one).
  for (const t of keep) away.delete(t.sessionId);
  const later = new Map<number, MoveAway>();
  const last = new Map<number, FileTouch>();
  for (const t of keep) {
    const l = last.get(t.sessionId);
    if (!l || t.seq > l.seq) last.set(t.sessionId, t);
  }
  for (const [sid, t] of last) {
    const mv = after(t);
    if (mv && mv.session !== sid && !made(mv)) later.set(sid, mv);
  }
  if (!away.size && !later.size && keep.length === m.touches.length) return m;
  return {
    ...m,
    touches: keep,
    ...(away.size ? { away } : {}),
    ...(later.size ? { later } : {}),
  };
}

/** The names a file had, oldest first, as a listing says them: `a.py → b.py → c.py`. */
export function nameChain(names: readonly string[], project: string | null): string {
  const short = (p: string) =>
    project && p.startsWith(join(project, "/")) ? p.slice(project.length + 1) : p;
  return names.map(short).join(" → ");
}
