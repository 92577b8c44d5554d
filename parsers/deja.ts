/**
 * deja's own notes (`deja remember`), read like any other harness's store.
 *
 * Store: `${DEJA_DEJA_ROOT:-${DEJA_HOME:-${XDG_DATA_HOME:-~/.local/share}/deja}}/notes.jsonl`,
 * one JSON record per line, appended by `deja remember` (and the MCP
 * `remember` mode): `{"ts": "<ISO 8601>", "project": "<dir or name>",
 * "text": "...", "tags": ["..."], "day": "<YYYY-MM-DD>"}`. An `append` source: a later pass
 * resumes after the last complete line.
 *
 * Mapping:
 * - One session per project per local calendar day: id `<h>-<YYYY-MM-DD>`,
 *   `h` = the first 10 hex of sha1(project, newline, day), stable however
 *   many notes the day gets. The hash leads so that a short prefix of the id
 *   (what `deja show` takes) tells notes apart. The day is the record's `day`, the
 *   writer's local day (`deja remember` records it since session 33); a note without one
 *   takes its day in the zone named by `TZ` when the runtime knows it, else in the
 *   runtime's own zone (so such notes can move between days when read under another zone).
 * - project = the record's `project` (an absolute directory, or the name given
 *   to `--project`); a record without one is filed under `notes`.
 * - title = `Notes: <last path component of project>, <day>`.
 * - Each note is one `user` event (a person or an agent stating a fact for
 *   later; no harness spoke it, so neither `assistant` nor `summary` fits
 *   better): its text, then a line of `#tag` words when it has tags. Time =
 *   `ts` in epoch ms; started/updated = the first and last note of the day.
 * - A line that is not an object, has no text, or has no readable `ts` is
 *   skipped as `bad_shape`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { dataDir } from "../core/paths.ts";
import { isRegularFile } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { expandHome, overrideVar } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, obj, str } from "./_util.ts";

const ID = "deja";
/** File name of the notes store inside its directory. */
export const NOTES_FILE = "notes.jsonl";
/** Project a note without one is filed under. */
export const DEFAULT_NOTES_PROJECT = "notes";

/** Absolute path of the notes file for `env` (it may not exist yet). */
export function notesPath(env: Env): string {
  const o = env.get(overrideVar(ID));
  return join(o ? expandHome(env, o) : dataDir(env), NOTES_FILE);
}

/**
 * `YYYY-MM-DD` of epoch-ms `ms` in zone `tz` (an IANA name) when the runtime
 * knows it, else in the runtime's own zone.
 */
export function localDay(ms: number, tz?: string): string {
  if (tz) {
    try {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat("en-US", {
          timeZone: tz.replace(/^:/, ""),
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
        }).formatToParts(ms).map((x) => [x.type, x.value]),
      );
      return `${p.year}-${p.month}-${p.day}`;
    } catch { /* not a zone this runtime knows */ }
  }
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The session id notes of `project` written on local day `day` are filed under. */
export function noteSessionId(project: string, day: string): string {
  const h = createHash("sha1").update(`${project}\n${day}`).digest("hex").slice(0, 10);
  return `${h}-${day}`;
}

/**
 * Whether `sessionId` is a day of `project`'s notes, whichever zone read the day: the notes
 * a session holds are then told by their times (trial 43: a note matched to its day in the
 * reader's own zone was not found in a day indexed under another).
 */
export function isDayOf(project: string, sessionId: string): boolean {
  return noteSessionId(project, sessionId.slice(-10)) === sessionId;
}

/**
 * The id of one note: the first 10 hex of sha1(ts, newline, project, newline,
 * text) over the record as written (`ts` as its JSON text). Derived, not
 * stored, so notes written before ids existed have one too; `deja forget
 * --note <id>` takes it (a prefix too).
 */
export function noteId(ts: unknown, project: string, text: string): string {
  const t = typeof ts === "string" ? ts : JSON.stringify(ts ?? null);
  return createHash("sha1").update(`${t}\n${project}\n${text}`).digest("hex").slice(0, 10);
}

/** A readable note record: where it is filed and what it says. */
export interface NoteRecord {
  /** {@link noteId}. */
  id: string;
  /** The session it is filed under ({@link noteSessionId}). */
  session: string;
  project: string;
  /** Epoch ms. */
  time: number;
  /** Text as written (trimmed). */
  text: string;
  day: string;
}

/**
 * Reads one parsed line of the notes file as a note, on the day it records (else its day in
 * zone `tz`); undefined
 * when it is not one (not an object, no text, no readable `ts`).
 */
export function noteRecord(value: unknown, tz?: string): NoteRecord | undefined {
  const o = obj(value);
  const text = str(o?.text)?.trim();
  const time = toMillis(o?.ts);
  if (!o || !text || time === undefined) return undefined;
  const project = str(o.project)?.trim() || DEFAULT_NOTES_PROJECT;
  // The day the writer recorded, else the day in the reader's zone (notes written before).
  const written = str(o.day);
  const day = written && /^\d{4}-\d{2}-\d{2}$/.test(written) ? written : localDay(time, tz);
  const id = noteId(o.ts, str(o.project) ?? "", str(o.text) ?? "");
  return { id, session: noteSessionId(project, day), project, time, text, day };
}

/** The text a note is indexed as: its text, then its tags as `#tag` words. */
export function noteText(text: string, tags: readonly string[]): string {
  const t = tags.filter((x) => x.trim() !== "").map((x) => `#${x.trim().replace(/^#/, "")}`);
  return t.length ? `${text}\n${t.join(" ")}` : text;
}

/** The notes parser. */
export const deja: Parser = { id: ID, discover, parse };

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const path = notesPath(env);
  const sources: SourceRef[] = [];
  if (await isRegularFile(path, problem)) sources.push({ harness: ID, path, kind: "append" });
  return { roots: [path], sources };
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const tz = ctx.env.get("TZ");
  for await (const rec of readJsonl(source.path, ctx)) {
    const n = noteRecord(rec.value, tz);
    if (!n) {
      ctx.skip("bad_shape", `${source.path}@${rec.start}`, "a note needs text and ts");
      continue;
    }
    const { project, day, time, text } = n;
    const tags = arr(obj(rec.value)?.tags).filter((t): t is string => typeof t === "string");
    yield {
      harness: ID,
      id: n.session,
      project,
      title: `Notes: ${basename(project) || project}, ${day}`,
      started: time,
      updated: time,
      path: source.path,
      events: [{ kind: "user", text: noteText(text, tags), time }],
    };
  }
}
