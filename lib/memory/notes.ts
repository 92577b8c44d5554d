/**
 * Durable notes (`deja remember`): one JSON line each in `notes.jsonl` beside
 * the index (`parsers/deja.ts` reads them back), indexed at once so a note is
 * searchable as soon as it is written.
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Env } from "../../core/model.ts";
import { DejaError, writeReason } from "../../core/errors.ts";
import { redact } from "../redact.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { localDay, noteId, noteSessionId, notesPath } from "../../parsers/deja.ts";
import { expandHome } from "../../core/paths.ts";
import {
  IndexDamaged,
  IndexDiskFull,
  IndexLogLost,
  indexPath,
  notAFolder,
  Store,
} from "../store.ts";
import { exactProject, indexedProject, isWindowsPath, normalizeProject } from "../project_path.ts";

/** One line of notes.jsonl. Fields are only ever added. */
export interface Note {
  /** When it was written, ISO 8601 (UTC). */
  ts: string;
  /**
   * Absolute project directory, or the name given with `--project` when no indexed
   * project matches it ({@link notePlace}).
   */
  project: string;
  /** The note, secrets redacted. */
  text: string;
  /** Tags without `#`. */
  tags: string[];
  /**
   * The day it was written on in the writer's zone (`YYYY-MM-DD`): the day of notes it is
   * filed under, whatever zone reads the file later (trial 44: read again under another `TZ`,
   * notes moved between days, and a day's id came to hold other notes). Absent from notes
   * written before it was recorded: those take their day in the reader's zone.
   */
  day?: string;
}

/**
 * Tags as given on the command line (`--tag a,b --tag c`) or to the MCP tool (a list, or one
 * string `"a, b"`): each value is split at commas and white space, a leading `#` dropped, and
 * duplicates and empty pieces left out. The one rule for every way a note gets tags.
 *
 * @example splitTags(["a,b", "#c"]) // ["a", "b", "c"]
 */
export function splitTags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const out = list.flatMap((v) => String(v).split(/[,\s]+/)).map((t) => t.replace(/^#/, ""));
  return [...new Set(out.filter(Boolean))];
}

/** Options of {@link appendNote} and {@link remember}. */
export interface NoteOptions {
  /** Directory the note is about, or a name (default: `cwd`). */
  project?: string;
  tags?: string[];
  /** Working directory: the default project, and what relative project paths resolve against. */
  cwd: string;
  /** Epoch ms to stamp the note with (default: now). */
  now?: number;
}

/** What {@link appendNote} wrote. */
export interface Appended {
  note: Note;
  /** The notes file. */
  path: string;
  /** Id of the session the note is filed under (`<hash>-<day>`). */
  session: string;
  /** The note's own id (parsers/deja.ts `noteId`): what `deja forget --note` takes. */
  id: string;
  /** The `--project` name no indexed project matches, kept as written; absent otherwise. */
  unmatched?: string;
  /** Secrets redacted from the note before it was written, per kind (absent: none). */
  redacted?: Record<string, number>;
  /** The same note was kept already (its text, project and tags): nothing was written. */
  already?: true;
}

/**
 * The project a note is filed under, before the index is asked ({@link notePlace}): `cwd`
 * when none is given; a Windows path (`C:\\x`, `\\\\host\\x`) kept as written, its drive
 * letter in upper case, never resolved against a POSIX `cwd`; a `~` path under the home
 * directory; an absolute path, and a relative one meant as a path ({@link meantAsPath}),
 * resolved against `cwd`; anything else (a name, or a part of a project's path such as
 * `dev/app`) kept as written.
 */
export function noteProject(env: Env, project: string | undefined, cwd: string): string {
  const p = project?.trim();
  if (!p) return cwd;
  if (isWindowsPath(p)) return normalizeProject(p);
  if (p.startsWith("~")) return expandHome(env, p);
  return isAbsolute(p) || meantAsPath(p, cwd) ? resolve(cwd, p) : p;
}

/**
 * True when the relative `p` is meant as a path from `cwd`: it starts with `.` (`./x`,
 * `../x`, `.`), or it holds a separator and names an existing directory from `cwd`, every
 * folder on the way existing as `cd` needs them (`crush-crush/..` is a path only where a
 * folder `crush-crush` exists). Otherwise it is a name or a part of a project's path.
 */
function meantAsPath(p: string, cwd: string): boolean {
  if (p.startsWith(".")) return true;
  // Joined as typed, not normalized: the system walks every folder, `..` included.
  return /[\\/]/.test(p) && isDir(`${cwd.replace(/\/+$/, "")}/${p}`);
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where a note goes. First a value that is an indexed project's path, exactly as deja
 * prints it (lib/project_path.ts `exactProject`: separators, a trailing one, `~` and a
 * Windows drive path's case aside), is that project, before any path resolution (a
 * Windows project from a Windows store stays itself on a POSIX machine). Else
 * {@link noteProject}: a path is kept, and returned as `unmatched` when it is no indexed
 * project and no directory here (a Windows path, or `/nonexistent/dir`); a name is made
 * the indexed project it names (lib/project_path.ts `indexedProject`: the project whose
 * last folder is the name, else the one whose path holds it), so `--project crush-k3s`
 * files the note under the project's directory, where searches with `--project` and the
 * session-start hook in that directory find it. A name no indexed project matches (or any
 * name, with no index yet) is kept as written and returned as `unmatched`.
 *
 * @throws {DejaError} (exit 2) when the value is empty or white space, or the name
 *   matches several projects, naming them.
 */
export function notePlace(
  env: Env,
  project: string | undefined,
  cwd: string,
): { project: string; unmatched?: string } {
  if (project !== undefined && !project.trim()) {
    throw new DejaError(
      "--project is empty",
      "give the project's directory or a part of its path, or leave --project out for the current directory",
      2,
    );
  }
  if (project === undefined) return { project: cwd };
  let store: Store | undefined;
  try {
    store = Store.open(indexPath(env), { readOnly: true, busyMs: 1000 });
  } catch {
    store = undefined;
  }
  try {
    const exact = store && exactProject(store, project.trim(), env.home);
    if (exact !== undefined) return { project: exact };
    const p = noteProject(env, project, cwd);
    if (isAbsolute(p) || isWindowsPath(p)) {
      const known = store && exactProject(store, p, env.home);
      if (known !== undefined) return { project: known };
      return isWindowsPath(p) || !isDir(p) ? { project: p, unmatched: p } : { project: p };
    }
    const found = store && indexedProject(store, p, { pathsOnly: true });
    return found ? { project: found } : { project: p, unmatched: p };
  } finally {
    store?.close();
  }
}

/**
 * Appends a note to the notes file (created 0600 in a 0700 directory), filed under
 * {@link notePlace}.
 *
 * @throws {DejaError} (exit 2) when the text is empty, the project name matches several
 *   projects or the file cannot be written.
 */
export function appendNote(env: Env, text: string, opts: NoteOptions): Appended {
  const counts: Record<string, number> = {};
  const body = redact(text.trim(), counts);
  if (!body) throw new DejaError("nothing to remember: the note is empty", 'deja remember "text"');
  const now = opts.now ?? Date.now();
  const place = notePlace(env, opts.project, opts.cwd);
  const note: Note = {
    ts: new Date(now).toISOString(),
    project: place.project,
    text: body,
    tags: splitTags(opts.tags ?? []).map((t) => redact(t, {})).filter(Boolean),
    day: localDay(now, env.get("TZ")),
  };
  const path = notesPath(env);
  // The same note again (text, project and tags) is the one already kept (trial 98 F8: a note
  // remembered twice was two notes, recall showed the first id, and forgetting it left the
  // other): nothing is written, and its id is given.
  const kept = sameNote(path, note);
  if (kept) {
    return {
      note: kept,
      path,
      session: noteSessionId(kept.project, kept.day ?? note.day!),
      id: noteId(kept.ts, kept.project, kept.text),
      already: true,
      ...(place.unmatched === undefined ? {} : { unmatched: place.unmatched }),
      ...(Object.keys(counts).length ? { redacted: counts } : {}),
    };
  }
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fresh = !existsSync(path);
    const fd = openSync(path, "a", 0o600);
    try {
      writeSync(fd, JSON.stringify(note) + "\n");
    } finally {
      closeSync(fd);
    }
    if (fresh) chmodSync(path, 0o600);
  } catch (e) {
    throw notAFolder(dirname(path)) ?? new DejaError(
      `cannot write ${path}: ${writeReason(e)}`,
      "set DEJA_HOME to a directory you can write",
    );
  }
  return {
    note,
    path,
    session: noteSessionId(note.project, note.day!),
    id: noteId(note.ts, note.project, note.text),
    ...(place.unmatched === undefined ? {} : { unmatched: place.unmatched }),
    ...(Object.keys(counts).length ? { redacted: counts } : {}),
  };
}

/** Largest notes file read for the same note before one is appended (bytes). */
const SAME_NOTE_MAX = 16 << 20;

/**
 * The note of the notes file at `path` with `note`'s text, project and tags (in any order),
 * or undefined (none, no file, or a file over {@link SAME_NOTE_MAX}, which is not read).
 */
function sameNote(path: string, note: Note): Note | undefined {
  let text: string;
  try {
    if (statSync(path).size > SAME_NOTE_MAX) return undefined;
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  const tags = [...note.tags].sort().join("\n");
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let o: Note;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (
      o?.text === note.text && o.project === note.project && typeof o.ts === "string" &&
      [...(Array.isArray(o.tags) ? o.tags : [])].sort().join("\n") === tags
    ) return o;
  }
  return undefined;
}

/** What {@link remember} did. */
export interface Remembered extends Appended {
  /** True when the note is in the index now. */
  indexed: boolean;
  /** Why it is not (another index run held the lock, ...). */
  error?: string;
  /**
   * With {@link error}: what indexes it, when a plain `deja index` would not (trial 111 F8: "the
   * next 'deja index' picks it up", which refused a damaged index). Absent otherwise.
   */
  retry?: string;
}

/**
 * Appends a note and indexes the notes file at once (only the `deja`
 * harness, waiting up to `waitMs` for another writer). A note that could not
 * be indexed stays in the file and is indexed by the next `deja index`.
 *
 * @throws {DejaError} as {@link appendNote}.
 */
export async function remember(env: Env, text: string, opts: NoteOptions & { waitMs?: number }) {
  const out: Remembered = { ...appendNote(env, text, opts), indexed: false };
  try {
    // The index run's discovery begins after the clock has passed the file's mtime: one
    // written in the millisecond before it began is stamped unknown, and the next search read
    // the notes again (the freshness test failed 8 runs of 20 on it).
    const wait = Math.floor(statSync(out.path).mtimeMs) + 2 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await runIndex(env, parsers, { only: ["deja"], waitMs: opts.waitMs ?? 3000 });
    const errors = res.harnesses.flatMap((h) => h.errors);
    out.indexed = errors.length === 0;
    if (errors.length) out.error = errors.join("; ");
  } catch (e) {
    out.error = (e as Error).message;
    // A damaged index refuses every plain run until it is rebuilt; a full disk, until room is made.
    if (e instanceof IndexDamaged) {
      out.retry = "'deja index --rebuild' builds a new index with it (notes and forgotten " +
        "sessions are kept)";
    } else if (e instanceof IndexLogLost) {
      out.retry = "close the other deja process that holds the index; then the next 'deja index' " +
        "picks it up";
    } else if (e instanceof IndexDiskFull) {
      out.retry = `free space on the disk holding ${dirname(e.path)}; then the next 'deja index' ` +
        "picks it up";
    }
  }
  return out;
}
