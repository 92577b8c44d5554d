/**
 * The index: a SQLite file with FTS5, private to its user.
 *
 * Location: `${DEJA_HOME:-${XDG_DATA_HOME:-~/.local/share}/deja}/index.db`,
 * directory mode 0700, file mode 0600 (its -wal and -shm inherit the mode).
 * The store knows SQL and nothing about formats.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { MIGRATIONS, NEW_FILE_PRAGMAS, PRAGMAS, Q, SCHEMA_VERSION } from "./schema.ts";
import { DejaError, writeReason } from "../core/errors.ts";
import { commandName, pid, pidAlive, uid } from "../core/runtime.ts";
import { dropManifest, manifestPath } from "./fresh/manifest.ts";

/** Path of the index file (core/paths.ts, where bin.ts reads it without loading SQLite). */
export { indexPath } from "../core/paths.ts";

/** The hint every "index is damaged" message carries. */
export const REBUILD_HINT =
  "run 'deja index --rebuild' to start a new one (notes and forgotten sessions are kept)";

/**
 * The index file itself is damaged (SQLite says corrupt, malformed, or not a
 * database). Commands report it in one line naming the file; `deja index
 * --rebuild` moves the file aside and starts a new one.
 */
export class IndexDamaged extends DejaError {
  constructor(
    readonly path: string,
    reason: string,
    said = `is damaged (${reason})`,
    hint = REBUILD_HINT,
  ) {
    super(`the index ${path} ${said}`, hint, 2);
    noteDamage(path, reason);
  }
}

/** How {@link foreignIndex}'s reasons begin: damage of its own kind, said in its own words. */
export const NOT_DEJA = "not a deja index: ";

/**
 * The index file is another program's SQLite database ({@link foreignIndex}): never written;
 * named with what it holds, and `deja index --rebuild` sets it aside like damage.
 */
export class IndexForeign extends IndexDamaged {
  constructor(path: string, reason: string) {
    super(
      path,
      NOT_DEJA + reason,
      `is not a deja index (${reason})`,
      "move it away if it is another program's, or run 'deja index --rebuild' to set it " +
        "aside and start a new one (notes and forgotten sessions are kept)",
    );
  }
}

/** The file beside the index that records damage a command found in it. */
function damageMarker(path: string): string {
  return `${path}.damaged`;
}

/**
 * Records that the index at `path` was found damaged, for the commands after it whose reads
 * miss the damaged pages (trial 74: after `deja index` named the damage, searches answered
 * "fresh" with no word and wrote into the file). Never throws.
 */
export function noteDamage(path: string, reason: string): void {
  try {
    const st = statSync(path);
    writeFileSync(
      damageMarker(path),
      JSON.stringify({ dev: st.dev, ino: st.ino, reason, at: Date.now() }),
      { mode: 0o600 },
    );
  } catch { /* not written: the next command that reads the damage says it again */ }
}

/** The damage a command found in the index at `path` (this very file), or null. */
export function knownDamage(path: string): string | null {
  try {
    const m = JSON.parse(readFileSync(damageMarker(path), "utf8"));
    const st = statSync(path);
    return m?.dev === st.dev && m?.ino === st.ino && typeof m.reason === "string" ? m.reason : null;
  } catch {
    return null;
  }
}

/** Forgets the damage recorded for the index at `path` (a rebuild made it new). */
export function clearDamage(path: string): void {
  rmSync(damageMarker(path), { force: true });
}

/**
 * True when `e` is SQLite saying a database file is damaged: SQLITE_CORRUPT
 * (11, with its extended codes such as 267 for FTS5) or SQLITE_NOTADB (26),
 * or their messages where a runtime gives no code.
 */
export function isCorruption(e: unknown): boolean {
  if (e instanceof IndexDamaged) return true;
  // Already said to the user (its text may quote SQLite's): not read again as SQLite's error.
  if (e instanceof DejaError) return false;
  const x = e as { errcode?: unknown; errstr?: unknown; message?: unknown; code?: unknown } | null;
  if (typeof x?.errcode === "number" && [11, 26].includes(x.errcode & 0xff)) return true;
  if (typeof x?.code === "string" && /^SQLITE_(?:CORRUPT|NOTADB)/.test(x.code)) return true;
  const text = `${x?.errstr ?? ""} ${x?.message ?? ""}`;
  // FTS5 says its own (trial 67's damaged index: "fts5: corruption on page 1, segment 4").
  return /database disk image is malformed|file is not a database|malformed database schema|fts5: corruption/i
    .test(text);
}

/**
 * `e` as an {@link IndexDamaged} for the index at `path` when it is a
 * corruption error; otherwise `e` unchanged. Use it only where the error came
 * from the index's own connection.
 */
export function asIndexError(e: unknown, path: string): unknown {
  if (e instanceof IndexDamaged || !isCorruption(e)) return e;
  const x = e as { errstr?: string; message?: string };
  // One short printable reason: a damaged schema may quote garbage bytes.
  const reason = String(x.errstr ?? x.message ?? e).replace(/[^\x20-\x7e]/g, "?").slice(0, 80);
  return new IndexDamaged(path, reason);
}

/**
 * How much room the disk holding a folder has left: what {@link isDiskFull} asks when an I/O
 * error comes. An object, so that tests can say a disk is full without filling one.
 */
export const diskSpace = {
  /** Bytes this user may still write on the disk holding `dir` (statfs), or null when unknown. */
  free(dir: string): number | null {
    try {
      const s = statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  },
};

/** Fewer free bytes than this make an I/O error a full disk ({@link isDiskFull}). */
const FULL_BELOW = 1 << 20;

/**
 * Whether `e`, met on the index at `path`, says the disk it is on is full: SQLITE_FULL (13),
 * ENOSPC, or an I/O error (SQLITE_IOERR, 10, "disk I/O error": what SQLite says when it cannot
 * grow the index's `-shm` on a full disk) while that disk has less than 1 MB left (trial 111
 * F4: a full disk was called an index to rebuild, and the rebuild set the sound index aside).
 */
export function isDiskFull(e: unknown, path: string): boolean {
  if (e instanceof IndexDiskFull) return true;
  if (e instanceof DejaError) return false;
  const x = e as { errcode?: unknown; code?: unknown; message?: unknown; errstr?: unknown } | null;
  const code = typeof x?.errcode === "number" ? x.errcode & 0xff : undefined;
  const text = `${x?.errstr ?? ""} ${x?.message ?? ""}`;
  if (code === 13 || x?.code === "ENOSPC" || /database or disk is full|no space left/i.test(text)) {
    return true;
  }
  if (code !== 10 && !/disk I\/O error/i.test(text)) return false;
  const free = diskSpace.free(dirname(path));
  return free !== null && free < FULL_BELOW;
}

/**
 * The disk the index is on is full: never damage, never a reason to set the index aside
 * (`deja index --rebuild` stops on it too). The hint says what to free.
 */
export class IndexDiskFull extends DejaError {
  constructor(readonly path: string, what: string, reason: string) {
    const free = diskSpace.free(dirname(path));
    super(
      `${what}: the disk the index is on is full (${reason}${
        free === null
          ? ""
          : `; ${free < 1024 ? `${free} bytes` : `${Math.floor(free / 1024)} kB`} free`
      })`,
      `free space on the disk holding ${dirname(path)} (or point DEJA_HOME at another disk), ` +
        "then run the command again: the index is not damaged, and what it holds is kept",
      2,
    );
  }
}

/**
 * Whether `e`, met on the index at `path`, is SQLite unable to read the index's write-ahead log
 * because its `-wal` was removed while another process still held the index open: an I/O error
 * (not a full disk, {@link isDiskFull}) while the `-shm` that process keeps is there and the
 * `-wal` is gone or empty, or while the index file itself passes a quick check. No damage: the
 * index opens again once that process closes it (trial 114 F5: every command called the index
 * unreadable, and `deja index --rebuild` set the sound index aside as damaged).
 */
export function isLogLost(e: unknown, path: string): boolean {
  if (e instanceof IndexLogLost) return true;
  if (e instanceof DejaError || path === ":memory:") return false;
  const x = e as { errcode?: unknown; message?: unknown; errstr?: unknown } | null;
  const code = typeof x?.errcode === "number" ? x.errcode & 0xff : undefined;
  if (code !== 10 && !/disk I\/O error/i.test(`${x?.errstr ?? ""} ${x?.message ?? ""}`)) {
    return false;
  }
  if (isDiskFull(e, path)) return false;
  const shm = statSync(path + "-shm", { throwIfNoEntry: false });
  const wal = statSync(path + "-wal", { throwIfNoEntry: false });
  if (shm && shm.size > 0 && (!wal || wal.size === 0)) return true;
  let db: DatabaseSync | undefined;
  try {
    // The file as it is, without its log: sound, so the fault is not in it.
    return quickCheck(db = openFrozen(path, 0)) === null;
  } catch {
    return false;
  } finally {
    try {
      db?.close();
    } catch { /* nothing open */ }
  }
}

/**
 * The index's `-wal` was removed while another process holds the index ({@link isLogLost}):
 * never damage, never a reason to set the index aside (`deja index --rebuild` stops on it too).
 * The hint names the processes that hold an index open and says that closing them is the way out.
 */
export class IndexLogLost extends DejaError {
  constructor(readonly path: string, what: string, reason: string) {
    super(
      `${what}: its write-ahead log (${basename(path)}-wal) was removed while another process ` +
        `holds the index open (${reason}); the index file itself is not damaged`,
      "close the other deja process that holds it ('deja view', an MCP server ('deja mcp'), " +
        "'deja index --watch'), then run the command again: the index opens again as it was. " +
        "Do not rebuild: that would set the sound index aside",
      2,
    );
  }
}

/** `e` as an {@link IndexLogLost} (`what` failed) when {@link isLogLost} says so, else `e`. */
export function asLogLost(e: unknown, path: string, what: string): unknown {
  if (e instanceof DejaError || !isLogLost(e, path)) return e;
  const reason = String((e as Error)?.message ?? e).replace(/[^\x20-\x7e]/g, "?").slice(0, 80);
  return new IndexLogLost(path, what, reason);
}

/** `e` as an {@link IndexDiskFull} (`what` failed) when {@link isDiskFull} says so, else `e`. */
export function asDiskFull(e: unknown, path: string, what: string): unknown {
  if (e instanceof DejaError || !isDiskFull(e, path)) return e;
  const reason = String((e as Error)?.message ?? e).replace(/[^\x20-\x7e]/g, "?").slice(0, 80);
  return new IndexDiskFull(path, what, reason);
}

/**
 * `e` as a {@link DejaError} when it is any other error SQLite raised (a limit
 * reached, a query it refused): one line naming the command, with a hint,
 * never a stack trace. Anything else is returned unchanged. With `index` (the index's path), an
 * I/O error while its disk has no room left is said as the full disk it is ({@link isDiskFull}).
 */
export function asSqliteError(e: unknown, command: string, index?: string): unknown {
  if (e instanceof DejaError) return e;
  const x = e as { errcode?: unknown; code?: unknown; message?: unknown } | null;
  if (typeof x?.errcode !== "number" && x?.code !== "ERR_SQLITE_ERROR") return e;
  const reason = String(x?.message ?? e).replace(/[^\x20-\x7e]/g, "?").slice(0, 120);
  // A limit the input reached (a pattern or expression too long) says nothing of the index.
  const input = /too (?:complex|large|big|many|long)|too deep/i.test(reason);
  // The disk the index is on is full (SQLITE_FULL, 13): nothing to do with the words typed
  // (trial 29: "try fewer or shorter words" for a full disk).
  // An I/O error while the index's disk has no room left is the same (trial 111 F4).
  const full = x?.errcode === 13 || /database or disk is full/i.test(reason) ||
    (index !== undefined && isDiskFull(e, index));
  if (full) {
    return new DejaError(
      `${command} stopped: the disk the index is on is full (${reason})`,
      "free space there (or point DEJA_HOME at another disk), then run 'deja index' again: " +
        "what was indexed before is kept",
      2,
    );
  }
  // The index may not be written (SQLITE_READONLY, 8): its folder is read-only (a mount, a
  // home shared read-only; trial 29), or the file is: nothing to do with the words typed.
  if (
    (typeof x?.errcode === "number" && (x.errcode & 0xff) === 8) ||
    /readonly database/i.test(reason)
  ) {
    return readOnlyIndexError(command, reason);
  }
  // Another program holds the index past the wait (SQLITE_BUSY, 5): nothing to do with the
  // words typed (trial 76: "try fewer or shorter words" for `deja last`).
  if (
    (typeof x?.errcode === "number" && (x.errcode & 0xff) === 5) ||
    /database is locked|database is busy/i.test(reason)
  ) {
    return new DejaError(
      `${command} stopped: another program holds deja's index (${reason})`,
      "try again in a moment; 'deja doctor' says which deja run holds it, if one does",
      2,
    );
  }
  return new DejaError(
    `${command} stopped: SQLite refused the query (${reason})`,
    input
      ? "the input was too long for SQLite: give fewer or shorter words"
      : `try fewer or shorter words; if it happens again, 'deja doctor' checks the index`,
    2,
  );
}

/**
 * Checks the index file at `path` with SQLite's `quick_check` (reads every
 * page once, so it costs about as much as reading the file: run it when a
 * rebuild is asked for, not on every query). Returns null when it is sound,
 * else the first problem found.
 *
 * @throws {IndexDiskFull} when the check failed because the disk is full: no damage found.
 */
export function checkIndex(path: string): string | null {
  let db: DatabaseSync | undefined;
  try {
    // SQLite finds no fault in an emptied file: it reads as a new database.
    if (emptiedIndex(path, statSync(path))) throw EMPTIED;
    // A file deja may not write is read as it is: a reader would leave a read-only `-shm`.
    if (!fileWritable(path)) db = openFrozen(path, 1000);
    else {
      db = new DatabaseSync(
        path,
        { readOnly: true } as ConstructorParameters<typeof DatabaseSync>[1],
      );
      try {
        db.prepare("SELECT count(*) FROM sqlite_schema").get();
      } catch (e) {
        // In a folder deja may not write to, read as it is (see Store.open).
        if (!(cannotOpen(e) || refusedWrite(e)) || indexWritable(path)) throw e;
        db.close();
        db = openFrozen(path, 1000);
      }
    }
    // Another program's database (trial 128 F6).
    const foreign = foreignIndex(db, path);
    if (foreign) return NOT_DEJA + foreign;
    // A SQLite file with no tables where the index held sessions (trial 127 F5).
    const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number }).n;
    return emptiedIndex(path, statSync(path), tables) ?? quickCheck(db);
  } catch (e) {
    if (e === EMPTIED) return emptiedIndex(path, statSync(path));
    // A full disk is no damage (trial 111 F4: a rebuild set the sound index aside for it).
    if (isDiskFull(e, path)) throw asDiskFull(e, path, `cannot check the index ${path}`);
    // Nor is a log removed under another process that holds the index (trial 114 F5).
    if (isLogLost(e, path)) throw asLogLost(e, path, `cannot check the index ${path}`);
    return String((e as { errstr?: string }).errstr ?? (e as Error).message ?? e);
  } finally {
    try {
      db?.close();
    } catch { /* nothing open */ }
  }
}

/** SQLite's `quick_check` of `db`: null when sound, else the first problem found. */
export function quickCheck(db: DatabaseSync): string | null {
  const row = db.prepare("PRAGMA quick_check(1)").get() as { quick_check?: string } | undefined;
  const verdict = String(row?.quick_check ?? "no answer");
  return verdict === "ok" ? null : verdict.replace(/\s+/g, " ").slice(0, 120);
}

/**
 * Moves the index at `path` (and its `-wal`) aside to
 * `<path>.corrupt-<yyyymmddThhmmss>` so nothing in it is lost, and removes its
 * `-shm`. Returns the new path.
 */
export function moveIndexAside(path: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  let to = `${path}.corrupt-${stamp}`;
  for (let n = 2; existsSync(to); n++) to = `${path}.corrupt-${stamp}-${n}`;
  renameSync(path, to);
  if (existsSync(path + "-wal")) renameSync(path + "-wal", to + "-wal");
  rmSync(path + "-shm", { force: true });
  clearDamage(path);
  return to;
}

/** The index file's name in its folder (core/paths.ts indexPath). */
const INDEX_NAME = "index.db";

/** Thrown inside {@link checkIndex} for an emptied index ({@link emptiedIndex}). */
const EMPTIED = new Error("emptied");

/**
 * Why the index file at `path` (as `st` says it is) is an index emptied, or null when it is
 * not: 0 bytes long, or a SQLite file with no tables (`tables`, when the caller counted them),
 * though the stat manifest beside it (lib/fresh/manifest.ts) says the index held something:
 * it stamped this very file (device and inode) with pages in it, or another file that held
 * sessions. SQLite opens an empty file as a new database: searches answered "nothing matched",
 * the next "the index was never built in full", and a background run built a new index that
 * lacked what only the old one held, unsaid (trial 111 F7). An empty file put in the index's
 * place (restored from a backup, swapped, synced: a new inode) is one too (trial 127 F5: it
 * was named only when it was the very file the manifest stamped). A file deja makes (a first
 * run, a rebuild) is not one: {@link Store.open} drops the manifest before it makes the file.
 * The reason says what the index held and how many of its stores are gone since.
 */
export function emptiedIndex(
  path: string,
  st: { size: number; dev: number; ino: number },
  tables?: number,
) {
  const how = st.size === 0
    ? "emptied to 0 bytes"
    : tables === 0
    ? "emptied: a database with no tables"
    : null;
  if (how === null) return null;
  let m: { index?: unknown; totals?: { sessions?: unknown }; rows?: unknown } | null;
  let stamp: unknown;
  try {
    m = JSON.parse(readFileSync(manifestPath(path), "utf8"));
    stamp = JSON.parse(String(m?.index));
  } catch {
    return null;
  }
  if (!Array.isArray(stamp) || !(stamp[2] > 0)) return null;
  const same = stamp[0] === st.dev && stamp[1] === st.ino;
  // Another file is said emptied only in the index's place (not an index set aside beside it,
  // which the manifest of the index now there says nothing of) and when the manifest's held sessions.
  if (
    !same &&
    (basename(path) !== INDEX_NAME ||
      !(typeof m?.totals?.sessions === "number" && m.totals.sessions > 0))
  ) return null;
  const sessions = m?.totals?.sessions;
  const gone = goneSince(m?.rows);
  const held = typeof sessions === "number"
    ? `; it held ${sessions === 1 ? "1 session" : `${sessions} sessions`}`
    : "";
  return `${how}${held}${gone ? `${held ? "," : ";"} ${lostWords(gone)}` : ""}`;
}

/** Tables every deja index has held since its first schema (lib/schema_migrations.ts, 0 -> 1). */
const OWN_TABLES = ["sessions", "events", "sources", "meta"];

/**
 * Why the SQLite database open on `db`, the index file at `path`, is not a deja index, or null
 * when it may be one: it holds tables, but its schema version (`user_version`) is 0 (deja sets
 * it in the transaction that makes its first tables) or it lacks a table every deja index
 * holds. Such a file (someone else's database put in the index's place, a wrong restore) was
 * read as an index never built in full: searches said "nothing matched", `show` "a first run
 * stopped early", and a background run made deja's tables beside the foreign ones (trial 128
 * F6). A file with no tables is a new index or an emptied one ({@link emptiedIndex}). The
 * reason names the tables it holds and, when the stat manifest beside it says so, what the
 * index there before held.
 */
export function foreignIndex(db: DatabaseSync, path: string): string | null {
  const names = (db.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
  ).all() as Array<{ name: string }>).map((r) => r.name);
  if (names.length === 0) return null;
  const version = (db.prepare("PRAGMA user_version").get() as { user_version: number })
    .user_version;
  if (version > 0 && OWN_TABLES.every((t) => names.includes(t))) return null;
  const shown = names.slice(0, 4).map((n) => n.replace(/[^\x20-\x7e]/g, "?").slice(0, 40));
  const more = names.length - shown.length;
  const list = names.length === 1
    ? `the table ${shown[0]}`
    : `the tables ${shown.slice(0, more ? 4 : -1).join(", ")} and ${
      more ? `${more} more` : shown.at(-1)
    }`;
  return `a SQLite database holding ${list}${heldBefore(path)}`;
}

/**
 * What the index at `path` held before another file took its place, as the stat manifest
 * beside it says ("; the index deja had there held 2 sessions, ..."), or "" when it says none.
 */
function heldBefore(path: string): string {
  if (basename(path) !== INDEX_NAME) return "";
  let m: { totals?: { sessions?: unknown }; rows?: unknown } | null;
  try {
    m = JSON.parse(readFileSync(manifestPath(path), "utf8"));
  } catch {
    return "";
  }
  const sessions = m?.totals?.sessions;
  if (!(typeof sessions === "number" && sessions > 0)) return "";
  const gone = goneSince(m?.rows);
  return `; the index deja had there held ${sessions === 1 ? "1 session" : `${sessions} sessions`}${
    gone ? `, ${lostWords(gone)}` : ""
  }`;
}

/** How many of the manifest's `rows` (the stores the index held) are gone since. */
function goneSince(rows: unknown): number {
  const list = Array.isArray(rows) ? rows as Array<{ path?: unknown }> : [];
  return list.filter((r) => typeof r?.path === "string" && !existsSync(r.path) && !isLink(r.path))
    .length;
}

/** What an index lost with `gone` of its stores gone since (more than 0). */
function lostWords(gone: number): string {
  return `among them those of ${
    gone === 1 ? "1 store" : `${gone} stores`
  } gone since, which no rebuild can bring back`;
}

/** What {@link deletedIndex} says the deleted index held. */
export interface DeletedIndex {
  /** Sessions the index held, as its manifest says. */
  sessions: number;
  /** Of the stores it held, those gone since: their sessions only the deleted index held. */
  gone: number;
}

/**
 * What the index at `path` held when it is missing (deleted) though the stat manifest beside
 * it (lib/fresh/manifest.ts) says it held sessions; null when it is there, or no manifest says
 * so (a first run; a rebuild, whose new file the manifest of no other index describes). A run
 * that then built a new index lost what only the old one held (the sessions of stores gone
 * since) without a word. Not a reason to stop: deleting the index is a way to start over, so
 * the run that makes the new one says it, and the new index's manifest replaces the old one
 * ({@link Store.open} drops it), so it is said once.
 */
export function deletedIndex(path: string): DeletedIndex | null {
  if (existsSync(path) || isLink(path)) return null;
  let m: { totals?: { sessions?: unknown }; rows?: unknown } | null;
  try {
    m = JSON.parse(readFileSync(manifestPath(path), "utf8"));
  } catch {
    return null;
  }
  const sessions = m?.totals?.sessions;
  if (typeof sessions !== "number" || !(sessions > 0)) return null;
  return { sessions, gone: goneSince(m?.rows) };
}

/**
 * The line (no `deja: `) saying the index at `path` was deleted ({@link deletedIndex}) and a new
 * one is being built, `how` (e.g. " in the background now"): `the index … was deleted (it held
 * 55 sessions, among them those of 1 store gone since, which no rebuild can bring back);
 * building a new one`; with no store gone, nothing is lost that the stores do not give back.
 */
export function deletedLine(path: string, d: DeletedIndex, how = ""): string {
  const held = `it held ${d.sessions === 1 ? "1 session" : `${d.sessions} sessions`}`;
  return d.gone
    ? `the index ${path} was deleted (${held}, ${lostWords(d.gone)}); building a new one${how}`
    : `the index ${path} was deleted (${held}); building a new one from the stores${how}`;
}

/** Whether `path` is a link (to nothing, when `existsSync` said no). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether `path` names an index's own file rather than its `-wal` or `-shm`. */
export function isMainFile(path: string): boolean {
  return !/-(?:wal|shm)$/.test(path);
}

/**
 * The damaged indexes {@link moveIndexAside} set aside beside the index at `path`
 * (`<path>.corrupt-<time>[-n]`, each followed by its `-wal` and `-shm` when it has them:
 * opening one, as sqlite3 does, gives it both again), oldest first. They are kept so nothing in them is lost (sessions whose stores are gone since);
 * they still hold what a later `deja forget` removed from the index, so forget names them.
 */
export function setAsideIndexes(path: string): string[] {
  const base = basename(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const head = `${base}.corrupt-`;
  const aside = (n: string) =>
    n.startsWith(head) && /^\d{8}T\d{6}(?:-\d+)?$/.test(n.slice(head.length));
  return names.filter(aside).sort().flatMap((n) => {
    const p = join(dirname(path), n);
    return [p, ...[`${p}-wal`, `${p}-shm`].filter((f) => existsSync(f))];
  });
}

/** An open index with its prepared statements. */
export class Store {
  readonly db: DatabaseSync;
  private cache = new Map<string, StatementSync>();
  /**
   * Opened as it is in a folder deja may not write to (read-only and immutable,
   * see {@link Store.open}): readable, never written.
   */
  frozen = false;

  private constructor(db: DatabaseSync, readonly path: string) {
    this.db = db;
  }

  /**
   * Opens (creating when `create`) the index at `path`, applying pragmas and
   * migrations. `:memory:` opens a private in-memory index (a scratch store).
   *
   * With `readOnly` the file is opened read-only, never migrated and never
   * created, and a busy index is waited on for `busyMs` milliseconds (default
   * 5000) — what a hook needs: it reads an index another process writes.
   *
   * @throws {DejaError} when the index is missing and `create` is false, when it
   *   was written by a newer deja (or, read-only, by an older one), or when it is
   *   not a SQLite file.
   */
  static open(
    path: string,
    opts: { create?: boolean; readOnly?: boolean; busyMs?: number } = {},
  ): Store {
    const memory = path === ":memory:";
    let fresh = memory;
    if (!memory) {
      try {
        // An index emptied to 0 bytes opens as a new, empty database (trial 111 F7): named.
        const emptied = emptiedIndex(path, statSync(path));
        if (emptied) throw new IndexDamaged(path, emptied);
      } catch (e) {
        if (e instanceof IndexDamaged) throw e;
        const code = (e as { code?: string }).code;
        const file = code === "ENOTDIR" ? notAFolder(dirname(path)) : null;
        if (file) throw file;
        if (code !== "ENOENT") {
          throw new DejaError(
            `cannot read the index ${path}: ${code ?? (e as Error).message}`,
            undefined,
            2,
          );
        }
        fresh = true;
      }
    }
    if (fresh && !memory && (!opts.create || opts.readOnly)) {
      // In a folder deja may not write to, no index can be built: said, not "run deja index"
      // (trial 31).
      const dir = dirname(path);
      throw new DejaError(
        `no index at ${path}`,
        existsSync(dir) && !writableDir(dir)
          ? `its folder is read-only: point DEJA_HOME at a folder deja may write to, then run 'deja index'`
          : "run 'deja index' first",
        2,
      );
    }
    if (fresh && !memory) {
      makeDataDir(join(path, ".."));
      // What the manifest says of an index that is no longer there is not said of this new file
      // while it is still empty ({@link emptiedIndex}).
      dropManifest(path);
    }
    const busy = Math.max(0, Math.floor(opts.busyMs ?? 5000));
    let db: DatabaseSync;
    let frozen = false;
    try {
      // An index file made read-only opens, and refuses the first write (trial 32): read as it
      // is. A reader too: opened otherwise it made a `-shm` as read-only as the file, and once
      // the file was writable again every command failed on it (trial 33).
      if (!memory && !fresh && !fileWritable(path)) throw READ_ONLY_FILE;
      db = openDb(path, busy, Boolean(opts.readOnly), fresh);
      if (!memory && !opts.readOnly) makePrivate(path);
    } catch (e) {
      if (isCorruption(e)) throw asIndexError(e, path);
      if (
        !memory && !fresh && (e === READ_ONLY_FILE || cannotOpen(e) || refusedWrite(e)) &&
        !indexWritable(path)
      ) {
        // A folder deja may not write to (a read-only mount, a home shared read-only): the
        // index's readers need its `-shm` beside it, which cannot be made there (trial 29:
        // every search failed and suggested a rebuild). An index file made read-only refuses
        // the connection's first write (trial 32, as its owner). Read as it is, never written.
        try {
          db = openFrozen(path, busy);
          frozen = true;
          const foreign = foreignIndex(db, path);
          if (foreign) {
            db.close();
            throw new IndexForeign(path, foreign);
          }
        } catch (f) {
          if (isCorruption(f)) throw asIndexError(f, path);
          throw readOnlyDirError(path, f);
        }
      } else {
        // A full disk is no damage: said as such, with what to free, never a rebuild (trial 111 F4).
        if (!memory && isDiskFull(e, path)) {
          throw asDiskFull(e, path, `cannot open the index ${path}`);
        }
        // Nor is a log removed under another process that holds the index (trial 114 F5).
        if (!memory && isLogLost(e, path)) {
          throw asLogLost(e, path, `cannot open the index ${path}`);
        }
        const stuck = refusedWrite(e) ? stuckBeside(path) : undefined;
        throw new DejaError(
          `cannot open the index ${path}: ${(e as Error).message}`,
          stuck ? stuckHint(stuck) : "run 'deja index --rebuild' to start a new one",
        );
      }
    }
    const store = new Store(db, path);
    store.frozen = frozen;
    try {
      store.migrate(Boolean(opts.readOnly) || frozen, fresh);
    } catch (e) {
      store.close();
      throw e;
    }
    return store;
  }

  private migrate(readOnly: boolean, fresh: boolean): void {
    let version: number;
    try {
      version = (this.db.prepare("PRAGMA user_version").get() as { user_version: number })
        .user_version;
    } catch (e) {
      if (isCorruption(e)) throw asIndexError(e, this.path);
      if (isDiskFull(e, this.path)) {
        throw asDiskFull(e, this.path, `cannot read the index ${this.path}`);
      }
      if (isLogLost(e, this.path)) {
        throw asLogLost(e, this.path, `cannot read the index ${this.path}`);
      }
      throw new DejaError(
        `the index ${this.path} is unreadable: ${(e as Error).message}`,
        "run 'deja index --rebuild' to start a new one",
      );
    }
    // A SQLite file with no tables put where the index held sessions (trial 127 F5): named as
    // damaged, not taken for a new index.
    if (version === 0 && !fresh) {
      const emptied = emptiedIndex(this.path, statSync(this.path), this.tables());
      if (emptied) throw new IndexDamaged(this.path, emptied);
    }
    if (version > SCHEMA_VERSION) {
      throw new DejaError(
        `the index was written by a newer deja (schema ${version}, this one knows ${SCHEMA_VERSION})`,
        "upgrade deja, or run 'deja index --rebuild'",
      );
    }
    if (readOnly && version < SCHEMA_VERSION) {
      throw new DejaError(
        `the index was written by an older deja (schema ${version}, this one knows ${SCHEMA_VERSION})`,
        "run 'deja index' to upgrade it",
      );
    }
    migrateFrom(this.db, version);
  }

  /**
   * A cached prepared statement for SQL text (what the named queries of
   * schema.ts run through; call those, which take a params object).
   */
  stmt(sql: string): StatementSync {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE), rolled back on error. */
  tx<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      this.db.exec("COMMIT");
      return out;
    } catch (e) {
      try {
        this.db.exec("ROLLBACK");
      } catch { /* already rolled back */ }
      throw e;
    }
  }

  /** How many tables, indexes and views the file holds (0: a new or emptied database). */
  private tables(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number }).n;
  }

  /** Counts for `deja sources` and `deja stats`. */
  stats(): { sessions: number; events: number; sources: number } {
    return Q.stats.get(this, {})!;
  }

  close(): void {
    this.cache.clear();
    try {
      this.db.close();
    } catch { /* already closed */ }
  }
}

/**
 * The error for an index folder (DEJA_HOME, or `${XDG_DATA_HOME}/deja`) that is a file, or under
 * one, where deja needs a folder; null when it is a folder, is not there yet, or cannot be told
 * (trial 127 F8: doctor said "its folder is read-only", and the commands said ENOTDIR or EEXIST).
 */
export function notAFolder(dir: string): DejaError | null {
  for (let p = dir;; p = dirname(p)) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(p) === p) return null;
      continue;
    }
    if (st.isDirectory()) return null;
    return new DejaError(
      `${p} is a file, where deja needs a folder for its index${p === dir ? "" : ` (${dir})`}`,
      "move the file away, or point DEJA_HOME at a folder deja may write to; then run 'deja index'",
      2,
    );
  }
}

/**
 * Creates the data directory (mode 0700).
 *
 * @throws {DejaError} naming the directory and the reason when it cannot be made.
 */
export function makeDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    const file = notAFolder(dir);
    if (file) throw file;
    const code = (e as { code?: string }).code ?? (e as Error).message;
    throw new DejaError(
      `cannot create the index directory ${dir}: ${code}`,
      "set DEJA_HOME to a directory you can write",
      2,
    );
  }
}

/**
 * Takes every permission of group and others from the index directory and from the index,
 * its `-wal` and `-shm` (a directory made by someone else at 0777 becomes 0700, a file copied
 * in at 0644 0600), and adds none: an index its owner made read-only stays so (trial 32: deja
 * made a `chmod -w` folder and file writable again, unsaid). Called each time the index is
 * opened for writing; a file deja may not change, or one another user owns (deja run as root),
 * is left as it is. A directory with the
 * sticky bit is a shared one (`DEJA_HOME=/tmp`): it is never changed, only
 * the files are (a script opening an index at /tmp/x.db as root once made /tmp
 * 0700, and every other user's temporary files failed).
 */
function makePrivate(path: string): void {
  const me = uid();
  const set = (p: string, owner: number) => {
    try {
      const st = statSync(p);
      // Only what this user owns: run as root, deja made another user's directory 0700
      // (trial 28: a 2775 group directory, a 777 one).
      if (me >= 0 && st.uid !== me) return;
      const mode = st.mode & owner;
      if ((st.mode & 0o1000) === 0 && (st.mode & 0o777) !== mode) chmodSync(p, mode);
    } catch { /* absent, or not ours to change */ }
  };
  set(dirname(path), 0o700);
  for (const suffix of ["", "-wal", "-shm"]) set(path + suffix, 0o600);
}

/** Removes the index files (for `deja index --rebuild`). */
export function removeIndex(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
}

/** What a writer is doing with the index, for the one a busy lock turns away. */
export interface LockPurpose {
  /** Present participle for the message: `writing it` (default), `refreshing it on use`. */
  doing?: string;
  /** The hold is short and bounded (a refresh on use): another writer waits for it. */
  brief?: boolean;
  /**
   * The holder is `deja index --watch`, which takes the lock for each change it writes and lets
   * go between: the writer turned away is told so, not to wait for it to finish (trial 123).
   */
  watch?: boolean;
}

/** Who holds the writer lock: `index.lock.who` beside it, written once it is held. */
export interface LockHolder extends Required<LockPurpose> {
  pid: number;
  /** `deja <command>` (core/runtime.ts commandName). */
  command: string;
  /** When it took the lock, epoch ms. */
  at: number;
}

/**
 * How long a writer waits at least for a holder that said its hold is brief:
 * a refresh on use reads for its budget (1.5 s by default) and then commits.
 */
export const BRIEF_WAIT_MS = 10_000;

const holderPath = (dir: string) => join(dir, "index.lock.who");

/** The lock's holder as it recorded itself; null when none did or its process is gone. */
export function lockHolder(dir: string): LockHolder | null {
  try {
    const v = JSON.parse(readFileSync(holderPath(dir), "utf8"));
    if (typeof v?.pid !== "number" || typeof v.command !== "string") return null;
    if (v.pid !== pid() && !pidAlive(v.pid)) return null;
    return {
      pid: v.pid,
      command: v.command,
      doing: typeof v.doing === "string" ? v.doing : "writing it",
      brief: v.brief === true,
      watch: v.watch === true,
      at: Number(v.at) || 0,
    };
  } catch {
    return null;
  }
}

/**
 * Holds the one-writer lock (a SQLite EXCLUSIVE lock on `index.lock` beside
 * the index; the OS releases it if the process dies), and records who holds
 * it in `index.lock.who` (pid, command, what it does) so that a writer it
 * turns away can say who. A holder whose hold is `brief` (a refresh on use)
 * is waited for at least {@link BRIEF_WAIT_MS}, whatever `waitMs` says: a
 * `deja index` started while `deja last` refreshes is not an error. A brief
 * writer itself never waits past `waitMs` (a hook's refresh keeps its budget).
 *
 * @param waitMs how long to wait for another writer, in milliseconds.
 * @param purpose what this writer does (for the record the next one reads).
 * @returns the hold, and how long it took to get it (`waitedMs`: mostly waiting for another writer).
 * @throws {DejaError} "the index is busy: 'deja last' (pid 123) is refreshing it on use".
 */
export function acquireWriterLock(
  dir: string,
  waitMs: number,
  purpose: LockPurpose = {},
  /** The hint when the index is busy (`deja index` names its `--wait`; trial 67: forget, which has none, named it too). */
  busyHint = "wait for it to finish, then run the command again",
): { release(): void; waitedMs: number } {
  makeDataDir(dir);
  const t0 = performance.now();
  const path = join(dir, "index.lock");
  const fresh = !existsSync(path);
  const db = new DatabaseSync(
    path,
    { timeout: waitMs } as ConstructorParameters<
      typeof DatabaseSync
    >[1],
  );
  if (fresh) chmodSync(path, 0o600);
  const take = (ms: number) => {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(ms))}`);
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("BEGIN EXCLUSIVE");
  };
  try {
    try {
      take(waitMs);
    } catch (e) {
      // A brief writer itself (a refresh on use, inside a hook's or a command's time budget)
      // never waits: it leaves the refresh to the holder.
      if (purpose.brief || !(lockHolder(dir)?.brief && waitMs < BRIEF_WAIT_MS)) throw e;
      take(BRIEF_WAIT_MS - waitMs);
    }
  } catch {
    db.close();
    const who = lockHolder(dir);
    // A watcher never finishes: it holds the lock while it writes a change, then lets go.
    if (who?.watch) {
      throw new DejaError(
        `the index is busy: a watcher ('deja index --watch', pid ${who.pid}) is writing a ` +
          "change it saw; it lets go after each write",
        `run again in a moment${busyHint.includes("--wait") ? ", or with --wait <seconds>" : ""}`,
        2,
      );
    }
    throw new DejaError(
      `the index is busy: ${
        who
          ? `'${who.command}' (pid ${who.pid}) is ${who.doing}`
          : "another deja process is writing it"
      }`,
      busyHint,
      2,
    );
  }
  const me: LockHolder = {
    pid: pid(),
    command: commandName(),
    doing: purpose.doing ?? "writing it",
    brief: Boolean(purpose.brief),
    watch: Boolean(purpose.watch),
    at: Date.now(),
  };
  const waitedMs = performance.now() - t0;
  try {
    writeFileSync(holderPath(dir), JSON.stringify(me) + "\n", { mode: 0o600 });
  } catch { /* the record is a courtesy: the lock itself is held */ }
  return {
    waitedMs,
    release() {
      // The record goes first, while the lock still keeps the next holder from writing its own.
      const h = lockHolder(dir);
      if (h?.pid === me.pid && h.at === me.at) rmSync(holderPath(dir), { force: true });
      try {
        db.exec("COMMIT");
      } catch { /* nothing held */ }
      db.close();
    },
  };
}

/**
 * Runs the migrations from `version` (as read before the write lock) up to SCHEMA_VERSION, each
 * in its own write transaction. The version is read again under the lock: another process (a
 * background first build beside a search that started it) may have migrated the file while
 * this one waited, and running a migration twice failed with "table sessions already exists"
 * (seen once under the parallel test suite, session 22).
 */
export function migrateFrom(db: DatabaseSync, version: number): void {
  for (let v = version; v < SCHEMA_VERSION;) {
    db.exec("BEGIN IMMEDIATE");
    try {
      const now = (db.prepare("PRAGMA user_version").get() as { user_version: number })
        .user_version;
      if (now > v) {
        db.exec("COMMIT");
        v = now;
        continue;
      }
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
      v++;
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }
}

/** Opens the index file and applies deja's settings (a new file's first). */
function openDb(path: string, busy: number, readOnly: boolean, fresh: boolean): DatabaseSync {
  const db = new DatabaseSync(
    path,
    { timeout: busy, ...(readOnly ? { readOnly: true } : {}) } as ConstructorParameters<
      typeof DatabaseSync
    >[1],
  );
  return settled(db, () => {
    db.exec(`PRAGMA busy_timeout = ${busy}`);
    // Another program's database is not written, not even by the journal mode (trial 128 F6).
    const foreign = fresh ? null : foreignIndex(db, path);
    if (foreign) throw new IndexForeign(path, foreign);
    for (const p of PRAGMAS) {
      if (readOnly && /journal_mode/.test(p)) continue; // a write; the indexer set it
      // A new file's own settings go after its page size and before the journal mode
      // (which writes the file's first page).
      if (fresh && !readOnly && /journal_mode/.test(p)) {
        for (const q of NEW_FILE_PRAGMAS) db.exec(q);
      }
      db.exec(p);
    }
  });
}

/**
 * Copies what the index's `-wal` holds into the file and empties the log
 * (`wal_checkpoint(TRUNCATE)`), waiting `busyMs` at most for readers in the
 * middle of a read. A writer closing its connection does this itself only when no
 * other connection is open; otherwise the log is left to the last reader to close,
 * whose checkpoint then changes `index.db` after the stat manifest stamped it
 * (lib/fresh/manifest.ts), and every search after took the slower path of reading
 * the index (the stores' stamps from it: +25 ms a query over 2,282 stores) until
 * a store changed. Never throws: an index it cannot settle is stamped as it is.
 */
export function settleWal(path: string, busyMs = 200): void {
  try {
    const db = new DatabaseSync(
      path,
      { timeout: busyMs } as ConstructorParameters<
        typeof DatabaseSync
      >[1],
    );
    try {
      db.exec(`PRAGMA busy_timeout = ${busyMs}`);
      db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
    } finally {
      db.close();
    }
  } catch { /* a reader kept its snapshot, or the folder is read-only: left as it is */ }
}

/** `db` once `setUp` ran on it; closed when `setUp` throws (the error goes on). */
function settled(db: DatabaseSync, setUp: () => void): DatabaseSync {
  try {
    setUp();
  } catch (e) {
    try {
      db.close();
    } catch { /* already failing */ }
    throw e;
  }
  return db;
}

/**
 * Opens the index in a folder deja cannot write to: read-only and `immutable`
 * (SQLite takes no lock and makes no `-shm`; nothing can write there either).
 */
function openFrozen(path: string, busy: number): DatabaseSync {
  const url = pathToFileURL(path);
  url.search = "immutable=1";
  const db = new DatabaseSync(
    url as unknown as string,
    { readOnly: true } as ConstructorParameters<typeof DatabaseSync>[1],
  );
  return settled(db, () => {
    db.exec(`PRAGMA busy_timeout = ${busy}`);
    for (const p of PRAGMAS) if (!/journal_mode/.test(p)) db.exec(p);
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
  });
}

/** SQLite refused a write (SQLITE_READONLY): the file, or its folder, may not be written. */
function refusedWrite(e: unknown): boolean {
  const x = e as { errcode?: unknown; message?: unknown } | null;
  return (typeof x?.errcode === "number" && (x.errcode & 0xff) === 8) ||
    /readonly database/i.test(String(x?.message ?? ""));
}

/**
 * The `-shm` or `-wal` beside the index at `path` that deja may not write, when one is there
 * (left by a reader of the index while it was read-only: trial 33, every command failed).
 */
function stuckBeside(path: string): string | undefined {
  return ["-shm", "-wal"].map((x) => path + x).find((p) => existsSync(p) && !fileWritable(p));
}

function stuckHint(file: string): string {
  return `${file} may not be written: make it writable, or remove it while no deja runs`;
}

/** Thrown inside {@link Store.open} for an index file it may not write. */
const READ_ONLY_FILE = new Error("the index file is read-only");

/** Whether this process may write the file at `path` (false when it is not there). */
function fileWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** What keeps deja from writing the index at `path` ({@link indexWritable} said no). */
export function readOnlyPart(path: string): "file" | "folder" {
  return writableDir(dirname(path)) ? "file" : "folder";
}

/** {@link readOnlyPart} in words. */
export function readOnlyWhy(path: string): string {
  return readOnlyPart(path) === "file"
    ? "the index file is read-only"
    : "the index's folder may not be written";
}

/** Whether deja may write the index at `path`: its folder, and the file when it is there. */
export function indexWritable(path: string): boolean {
  return writableDir(dirname(path)) && (fileWritable(path) || !existsSync(path));
}

/** SQLite could not open the file (SQLITE_CANTOPEN), as opposed to finding it damaged or busy. */
export function cannotOpen(e: unknown): boolean {
  const x = e as { errcode?: unknown; message?: unknown } | null;
  return (typeof x?.errcode === "number" && (x.errcode & 0xff) === 14) ||
    /unable to open database file/i.test(String(x?.message ?? ""));
}

/**
 * Whether this process may create files in `dir`: asked with `access`, then by
 * creating (and removing) a file there, since the answer to root on a read-only
 * mount differs between runtimes (Deno's `access` looks at the mode bits alone).
 * Called where something already failed, not on every command.
 */
export function writableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return false;
  }
  const probe = join(dir, `.deja-write-probe-${pid()}`);
  try {
    closeSync(openSync(probe, "wx"));
  } catch (e) {
    return (e as { code?: string }).code === "EEXIST";
  }
  try {
    rmSync(probe, { force: true });
  } catch { /* made, so writable; left for the next probe's EEXIST */ }
  return true;
}

/** A command that must write the index, in a folder (or of a file) deja may not write to. */
export function readOnlyIndexError(command: string, reason: string, exists = true): DejaError {
  return new DejaError(
    `${command} stopped: the index cannot be written here (${reason})`,
    "let deja write to its folder (DEJA_HOME, ~/.local/share/deja by default), or point DEJA_HOME " +
      `at a folder it may write to${
        exists ? "; searches still answer from the index as it is" : ""
      }`,
    2,
  );
}

/** The index could not be read even as it is, in a folder deja may not write to. */
function readOnlyDirError(path: string, e: unknown): DejaError {
  return new DejaError(
    `cannot open the index ${path}: its folder is read-only and the index cannot be read as it is (${
      (e as Error).message
    })`,
    "let deja write to the folder, or set DEJA_HOME to a folder it may write to and run 'deja index'",
  );
}

/**
 * `e` as one line with the way out when it is a write refused by the file system
 * (EROFS, EACCES, EPERM, ENOSPC) or an index SQLite could not open in a folder deja may
 * not write to; anything else unchanged (trial 30: `deja forget` under a read-only
 * DEJA_HOME printed a stack trace, `deja index` into one blamed the words typed).
 */
export function asWriteError(e: unknown, command: string, index: string): unknown {
  if (e instanceof DejaError) return e;
  const stuck = refusedWrite(e) && indexWritable(index) ? stuckBeside(index) : undefined;
  if (stuck) {
    return new DejaError(`${command} stopped: ${stuck} may not be written`, stuckHint(stuck), 2);
  }
  const x = e as { code?: unknown; path?: unknown; message?: unknown } | null;
  if ((cannotOpen(e) || refusedWrite(e)) && !indexWritable(index)) {
    return readOnlyIndexError(command, readOnlyWhy(index), existsSync(index));
  }
  const code = typeof x?.code === "string" ? x.code : "";
  if (!["EROFS", "EACCES", "EPERM", "ENOSPC"].includes(code)) return e;
  // A file written whole is written to a temporary name first: the file meant is named.
  const path = typeof x?.path === "string"
    ? x.path.replace(/\.[0-9a-f-]{36}\.tmp$/, "")
    : undefined;
  const why = writeReason(e);
  const ours = path !== undefined && path.startsWith(dirname(index));
  return new DejaError(
    `${command} stopped: cannot write ${path ?? "a file"} (${why})`,
    // No room is no permission (trial 114 F7: a full disk was hinted as the folder's rights).
    code === "ENOSPC"
      ? `no space left: free space on the disk holding ${
        ours || path === undefined ? dirname(index) : dirname(path)
      } (or point DEJA_HOME at another disk), then run the command again`
      : ours
      ? "let deja write to its folder (DEJA_HOME), or point DEJA_HOME at a folder it may write to"
      : "check that the file's folder may be written by this user",
    2,
  );
}
