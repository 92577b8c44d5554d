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
 * @module
 */
import { basename, join } from "node:path";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { moveCommands, resolvedIn, toldMoves } from "./moves.ts";
import { type FileTouch, toTouch, type TouchMatch } from "./paths.ts";
import { Anchors, newestFirst } from "./order.ts";
import { overLikeBound } from "../query.ts";

/** A name a file had earlier in one session, whole, and the places in it it had that name. */
export interface EarlierName {
  sessionId: number;
  path: string;
  /** Seq of the move that gave the file this name (0 from the session's start). */
  from: number;
  /** Seq of the move that took it away. */
  until: number;
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
): EarlierName[] {
  const rows = moveCommands(store, sid);
  const out: EarlierName[] = [];
  let now = target;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    const told = toldMoves(r.moves, project);
    // Every move of the command, last first: a chain in one command (`mv p q && mv q r`, a
    // swap through `tmp`) is followed whole (trial 100 F2: blame of r.py said no session
    // touched it).
    const pairs = told.moved.map((
      [from, to],
    ) => [resolvedIn(from, project), resolvedIn(to, project)]);
    let came = false;
    for (let k = pairs.length - 1; k >= 0; k--) {
      const [from, to] = pairs[k];
      if (!from || !to || (now !== to && !now.startsWith(to + "/"))) continue;
      now = from + now.slice(to.length);
      came = true;
    }
    if (came) {
      out.forEach((n) => n.from === 0 && (n.from = r.seq));
      out.push({ sessionId: sid, path: now, from: 0, until: r.seq });
      continue;
    }
    // Removed before it came here: the file there earlier was another one.
    if (told.removed.some((p) => resolvedIn(p, project) === now)) break;
  }
  return out.reverse();
}

/**
 * `m` with the touches of the file's earlier names (see the module rule) in the sessions that
 * renamed it, as exact touches; `renamed` gives each such session's names of the file, oldest
 * first. `m` itself when no session renamed it.
 */
export function withEarlierNames(store: Store, m: TouchMatch): TouchMatch {
  const base = basename(m.target);
  if (!m.target.startsWith("/") || !base || overLikeBound(base)) return m;
  const asked = new Set(m.touches.map((t) => t.sessionId));
  for (const r of Q.sessionsMovingName.all(store, { name: base })) asked.add(r.session);
  const sessions = Q.sessionsByIds.all(store, { ids: JSON.stringify([...asked]) });
  const found: FileTouch[] = [];
  const renamed = new Map<number, string[]>();
  for (const s of sessions) {
    const names = earlierNames(store, s.id, s.project, m.target);
    for (const n of names) {
      const like = "%/" + basename(n.path).replace(/[\\%_]/g, (c) => `\\${c}`);
      for (const r of Q.fileTouches.all(store, { like, path: n.path })) {
        if (r.session_id !== s.id || r.seq < n.from || r.seq > n.until) continue;
        if (resolvedIn(r.path, s.project) === n.path) found.push(toTouch(r));
      }
    }
    if (names.length) renamed.set(s.id, names.map((n) => n.path));
  }
  const own = m.match === "exact" ? m.touches : [];
  // Moved here with no touch under its earlier names: the touches of it here say where it came
  // from (trial 94 F12: Crush touched frontend-deployment.yaml only after `mv deployment.yaml
  // frontend-deployment.yaml`, and blame never said so).
  if (!found.length) {
    const here = new Set(own.map((t) => t.sessionId));
    const said = new Map([...renamed].filter(([sid]) => here.has(sid)));
    return said.size ? { ...m, renamed: said } : m;
  }
  // The touches of the file itself, under its name now, stay; of other files of its name, not.
  const ids = new Set(own.map((t) => t.id));
  const touches = [...own, ...found.filter((t) => !ids.has(t.id))];
  const rows = Q.sessionsByIds.all(store, {
    ids: JSON.stringify([...new Set(touches.map((t) => t.sessionId))]),
  });
  const anchors = new Anchors(store, rows);
  newestFirst(store, touches, rows, anchors);
  return { target: m.target, match: "exact", touches, anchors, renamed };
}

/** The names a file had, oldest first, as a listing says them: `a.py → b.py → c.py`. */
export function nameChain(names: readonly string[], project: string | null): string {
  const short = (p: string) =>
    project && p.startsWith(join(project, "/")) ? p.slice(project.length + 1) : p;
  return names.map(short).join(" → ");
}
