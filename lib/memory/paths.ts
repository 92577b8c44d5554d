/**
 * Which recorded file touches (the `files` table) a path a person typed
 * means: shared by `blame` and `restore`.
 *
 * Rule: the typed path is made absolute against the working directory; the
 * touches whose stored path ends with the most trailing path components of
 * it win. All components equal is an `exact` match; two or more a `suffix`
 * match (`apps/web/app.ts` typed in another checkout, or a store written on
 * another machine); only the file name a `basename` match. Backslashes count
 * as separators, so Windows paths recorded by a harness match too.
 *
 * Two more cases are `exact`, because they name the very path recorded:
 * - A recorded Windows drive path (`c:\Apps\src\x.ts`) is compared without
 *   regard to case, every component and not just the drive letter: Windows
 *   file systems (NTFS, FAT) are case-insensitive by default, so on the
 *   machine that wrote it `C:\Apps\SRC\x.ts` is the same file (a folder
 *   made case-sensitive for WSL is the rare exception deja cannot see).
 *   POSIX paths stay case-sensitive. A user trial typed `C:\Apps\…` for a
 *   recorded `c:\Apps\…` and was told "suffix match".
 * - A recorded path a harness left relative (it recorded no work directory
 *   to resolve it against) is matched by the same relative path typed as is
 *   (`backend/.env` for `backend/.env`), before it is made absolute against
 *   the working directory; the typed path made absolute then still ranks
 *   other touches by suffix. An absolute path typed for a relative record
 *   stays a `suffix` match: which directory the record meant is unknown.
 *
 * @module
 */
import type { MoveAway, NameHop } from "./renames.ts";
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, resolve, win32 } from "node:path";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { FileAtRow } from "../rows.ts";
import { isAbsoluteAny, isWindowsDrivePath } from "../../core/paths.ts";
import { overLikeBound } from "../query.ts";
import { Anchors, newestFirst } from "./order.ts";

/** How literally the touches matched the typed path. */
export type PathMatch = "exact" | "suffix" | "basename";

/** One row of the `files` table with its event's position. */
export interface FileTouch {
  /** Row id in `files`. */
  id: number;
  /** Index row id of the session (`sessions.id`). */
  sessionId: number;
  eventId: number;
  callId: string | null;
  /** The path as the harness recorded it (absolute where it could be resolved). */
  path: string;
  op: "read" | "edit" | "write";
  /** Edit: the replaced text. */
  old: string | null;
  /** Edit: the replacement; write: the content written. */
  new: string | null;
  /** The call's result was an error: nothing changed. */
  failed: boolean;
  /** Epoch ms, when known. */
  time: number | null;
  /** Position of the call in its session. */
  seq: number;
  /** A read of a shell command (`cat f`: ./shell_reads.ts), no `files` row. */
  shell?: true;
}

/** Result of {@link findTouches}. */
export interface TouchMatch {
  /** The typed path made absolute (against `cwd`). */
  target: string;
  /** Null when nothing matched. */
  match: PathMatch | null;
  /**
   * Set when the match is `exact` only by relative records equal to the path
   * as typed: the path as recorded. The record names no directory, so the
   * typed path made absolute ({@link target}) is not what matched, and is not
   * shown as the file found (a trial read `/tmp/backend/app/db.py  exact
   * match` for a record `backend/app/db.py` made in another directory).
   */
  recorded?: string;
  /** Matching touches, newest first (lib/memory/order.ts: best known time, then place). */
  touches: FileTouch[];
  /** The anchors that placed them (lib/memory/order.ts `placedTime` reads a touch's time). */
  anchors?: Anchors;
  /**
   * Sessions that moved the file here from other names (./renames.ts), by row id: the names
   * it had, whole, oldest first; their touches are among `touches`.
   */
  renamed?: Map<number, string[]>;
  /** Of `renamed`, the sessions whose file came here through a copy (`cp`), not moves alone. */
  copied?: Set<number>;
  /**
   * Of `renamed`, the seq of the session's move or copy that brought the file here: its
   * touches of this name before it were of another file (./renames.ts).
   */
  cameAt?: Map<number, number>;
  /**
   * Sessions before such a move that touched the file under the name it had then, by row id:
   * that name, whole, and the native id of the session that moved it on (./renames.ts).
   */
  earlier?: Map<number, EarlierTouch>;
  /**
   * Sessions left out that touched an earlier file of this name, which a later session
   * moved away before the file here was made (./renames.ts `withoutMovedAway`), by row id.
   */
  away?: Map<number, MoveAway>;
  /** Sessions whose file another session moved away later (nothing made here since). */
  later?: Map<number, MoveAway>;
}

/** A session's name for a file before a later session moved it (./renames.ts). */
export interface EarlierTouch {
  /** The name, whole. */
  path: string;
  /** The session that moved it to the name asked: native id and harness. */
  by: string;
  byHarness: string;
  /** It came there through a copy (`cp`) on the way, not moves alone. */
  copied?: true;
  /**
   * The names it had after `path`, oldest first, the name asked last, each with the session
   * that gave it (trial 110 F3: one session's line named the names later sessions gave it).
   */
  on: NameHop[];
}

/** The file `path` leads to through symlinks; undefined when there is none. */
function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Splits a path into components on `/` and `\`. */
function parts(p: string): string[] {
  return p.normalize("NFC").replace(/\\/g, "/").split("/").filter((x) => x !== "" && x !== ".");
}

/**
 * `typed` made absolute against `cwd` (a Windows drive path is already absolute), its `.`
 * and doubled separators gone (trial 9: `/w/app//src/./app.py` was echoed as typed), in
 * Unicode's composed form as file names are recorded (a macOS `café` typed decomposed).
 */
export function absoluteTarget(typed: string, cwd: string): string {
  const t = typed.trim().normalize("NFC");
  if (isWindowsDrivePath(t)) return t.replace(/[\\/]+$/, "") || t;
  if (isAbsolute(t)) return resolve(t);
  // Relative to a Windows folder: joined by Windows rules (trial 85: `.op\\SETUP.md` in
  // `C:\\…\\IDAHO-VAULT` was resolved as a POSIX path, and the hook said nothing).
  if (isWindowsDrivePath(cwd)) return win32.resolve(cwd, t);
  return resolve(cwd, t);
}

/** Number of equal trailing components of two component lists (`fold`: ignoring case). */
function commonTail(a: string[], b: string[], fold = false): number {
  const eq = fold
    ? (x: string, y: string) => x === y || x.toLowerCase() === y.toLowerCase()
    : (x: string, y: string) => x === y;
  let n = 0;
  while (n < a.length && n < b.length && eq(a[a.length - 1 - n], b[b.length - 1 - n])) n++;
  return n;
}

/** True when `p` is relative by both POSIX and Windows rules. */
function isRelative(p: string): boolean {
  return !isAbsoluteAny(p);
}

/**
 * The touches of the file `typed` names (see the module rule).
 *
 * @param typed a path as a person typed it: absolute, relative to `cwd`, or a
 *   bare file name.
 * @param cwd the directory relative paths resolve against.
 * @param more rows for a file name besides its `files` rows (`blame`: the reads of shell
 *   commands, ./shell_reads.ts); one of an event that recorded the path itself is left out.
 */
export function findTouches(
  store: Store,
  typed: string,
  cwd: string,
  more?: (name: string) => Array<FileAtRow & { shell?: true }>,
): TouchMatch {
  const target = absoluteTarget(typed, cwd);
  const want = parts(target);
  // Through a symlink (`~/link/src/app.py`), the file it leads to is the one recorded.
  const real = realTarget(target);
  const wantReal = real && real !== target ? parts(real) : null;
  // The typed path as is, when relative: equal to a relative record is exact. A bare name
  // alone is not: which directory either meant is unknown (trial 9: `netlify.toml` typed in
  // an unrelated project was an "exact match" of a record without a directory).
  const typedParts = parts(typed.trim());
  const asTyped = isRelative(typed.trim()) && typedParts.length >= 2 ? typedParts : null;
  const base = want[want.length - 1];
  if (!base || overLikeBound(base)) return { target, match: null, touches: [] };
  const touchesOf = (name: string) => {
    const rows: Array<FileAtRow & { shell?: true }> = Q.fileTouches.all(store, {
      like: "%/" + name.replace(/[\\%_]/g, (c) => `\\${c}`),
      path: name,
    });
    if (!more) return rows;
    const recorded = new Set(rows.map((r) => `${r.event_id} ${r.path}`));
    return [...rows, ...more(name).filter((r) => !recorded.has(`${r.event_id} ${r.path}`))];
  };
  const rows = touchesOf(base);
  // A symlink to a file of another name (trial 10: `alias.py` -> `calc.py` touched nothing).
  const realBase = wantReal?.[wantReal.length - 1];
  if (realBase && realBase !== base && !overLikeBound(realBase)) rows.push(...touchesOf(realBase));
  // Score: components in common from the end; a whole-path match outranks any suffix.
  let best = 0;
  let wholeTarget = false;
  let relative: string | undefined;
  const scored: Array<[number, FileTouch]> = [];
  for (const r of rows) {
    const path = String(r.path);
    const got = parts(path);
    // LIKE ignores case; components must match exactly but on a Windows drive.
    const fold = isWindowsDrivePath(path);
    let n = commonTail(got, want, fold);
    const whole = (w: string[] | null) =>
      w !== null && got.length === w.length && commonTail(got, w, fold) === w.length;
    if (n === 0 && !whole(wantReal)) continue;
    if (whole(want) || whole(wantReal)) {
      n = Infinity;
      wholeTarget = true;
    } else if (
      asTyped && isRelative(path) && got.length === asTyped.length &&
      commonTail(got, asTyped) === got.length
    ) {
      n = Infinity;
      relative ??= path;
    }
    best = Math.max(best, n);
    scored.push([n, toTouch(r)]);
  }
  const touches = scored.filter(([n]) => n === best).map(([, t]) => t);
  const ids = [...new Set(touches.map((t) => t.sessionId))];
  const sessions = Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) });
  const anchors = new Anchors(store, sessions);
  newestFirst(store, touches, sessions, anchors);
  const match: PathMatch | null = !touches.length
    ? null
    : best === Infinity
    ? "exact"
    : best >= 2
    ? "suffix"
    : "basename";
  const recorded = match === "exact" && !wholeTarget ? relative : undefined;
  return { target, match, touches, anchors, ...(recorded ? { recorded } : {}) };
}

/** A file under a folder that sessions touched ({@link filesUnder}). */
export interface FileUnder {
  /** As recorded. */
  path: string;
  /** Its path inside the folder, `/` between its parts. */
  inside: string;
  /** Sessions that touched it, those left out aside. */
  sessions: number;
}

/**
 * The recorded files under folder `folder` (made whole as {@link absoluteTarget} makes a typed
 * path; a Windows one without regard to case), the sessions of `hidden` left out, those most
 * sessions touched first, then by path (`blame` of a folder: trial 130 F5). `more` gives other
 * touches that may lie under a folder of the name it is given (the folder's last part): the
 * reads of shell commands (lib/memory/shell_reads.ts `shellReadsIn`: trial 132 F5).
 */
export function filesUnder(
  store: Store,
  folder: string,
  hidden?: ReadonlySet<number>,
  more?: (name: string) => Array<{ path: string; session: number }>,
): FileUnder[] {
  const want = parts(folder);
  // Past SQLite's LIKE bound no recorded path is under it.
  if (!want.length || overLikeBound(want.join("/"))) return [];
  const like = "%" + want.join("/").replace(/[\\%_]/g, (c) => `\\${c}`) + "/%";
  const by = new Map<string, { path: string; inside: string; s: Set<number> }>();
  const rows = Q.filesLike.all(store, { like });
  for (const r of more?.(want.at(-1)!) ?? []) rows.push(r);
  for (const r of rows) {
    if (hidden?.has(r.session)) continue;
    const got = parts(r.path);
    const fold = isWindowsDrivePath(r.path);
    // The whole folder, from the root: not one of its name elsewhere (the LIKE ignores case).
    if (got.length <= want.length || !isAbsoluteAny(r.path)) continue;
    if (commonTail(got.slice(0, want.length), want, fold) !== want.length) continue;
    // One file recorded with either separator (or another case, on Windows) is one.
    const inside = got.slice(want.length).join("/");
    const key = fold ? inside.toLowerCase() : inside;
    const at = by.get(key) ?? { path: r.path, inside, s: new Set() };
    by.set(key, at);
    at.s.add(r.session);
  }
  return [...by.values()].map(({ path, inside, s }) => ({ path, inside, sessions: s.size }))
    .sort((a, b) =>
      b.sessions - a.sessions || (a.inside < b.inside ? -1 : a.inside > b.inside ? 1 : 0)
    );
}

/**
 * The path a listing names as the file found: the typed path made absolute
 * for an exact match, the record for an exact match of a relative record
 * ({@link TouchMatch.recorded}), and otherwise the path as typed.
 */
export function foundPath(
  m: Pick<TouchMatch, "target" | "match" | "recorded">,
  typed: string,
): string {
  return m.match === "exact" ? m.recorded ?? m.target : typed;
}

/** `exact match`, saying so when the exact match is of a relative record ({@link TouchMatch.recorded}). */
export function matchLabel(m: Pick<TouchMatch, "match" | "recorded">): string {
  return m.recorded ? "exact match of a path recorded relative" : `${m.match} match`;
}

/** A `files` row (as {@link Q.fileTouches} or {@link Q.filesInOrder} select it) as a touch. */
export function toTouch(r: FileAtRow & { shell?: true }): FileTouch {
  return {
    id: r.id,
    sessionId: r.session_id,
    eventId: r.event_id,
    callId: r.call_id ?? null,
    path: r.path,
    op: r.op as FileTouch["op"],
    old: r.old ?? null,
    new: r.new ?? null,
    failed: r.failed === 1,
    time: r.time ?? null,
    seq: r.seq,
    ...(r.shell ? { shell: true as const } : {}),
  };
}

/**
 * Splits `path:line`, and the other ways tools print a place in a file, as people paste
 * them (trial 9): `path:line:column` (tsc, eslint, gcc), `path(line,column)` (tsc on
 * Windows, MSBuild), `path#L12` (a link to a forge), `path:` (grep's name before a match). A
 * place is read unless the whole argument names an existing file.
 */
export function splitLine(arg: string, cwd: string): { path: string; line?: number } {
  const m = /^(.+?):(\d+)(?::\d+)?:?$/.exec(arg) ?? /^(.+)\((\d+)(?:,\s*\d+)?\)$/.exec(arg) ??
    /^(.+)#L(\d+)(?:-L?\d+)?$/.exec(arg);
  if (existsSync(resolve(cwd, arg))) return { path: arg };
  // A name as grep and ripgrep print it before a match (`README.md:`; trial 63).
  if (!m) return /^[^:]{2,}:$/.test(arg) ? { path: arg.slice(0, -1) } : { path: arg };
  return { path: m[1], line: Number(m[2]) };
}
