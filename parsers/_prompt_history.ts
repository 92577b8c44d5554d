/**
 * Prompt histories: the JSONL files where a harness keeps every prompt typed,
 * apart from its transcripts (Codex `history.jsonl` `{session_id, ts (s), text}`;
 * Claude Code `history.jsonl` `{display, timestamp (ms), project, sessionId}`;
 * Gemini CLI `tmp/<project>/logs.json`, an array of `{sessionId, messageId, type,
 * message, timestamp (ISO)}`).
 * A prompt whose session has a transcript repeats it and is not read again; the
 * prompts of a session whose transcript is gone (deleted, pruned, another
 * machine's) become that session, made of `user` events, so they stay
 * searchable. Such a session is marked `prompts` (core/model.ts): should the
 * index hold it from a transcript after all (one named otherwise, or written
 * since), the prompts add only what the transcript lacks (lib/ingest.ts).
 * Histories that name no session (Kimi CLI, opencode) are read by
 * `looseHistorySession`.
 *
 * @module
 */
import type { Event, ParseCtx, Session } from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { toMillis } from "./_time.ts";
import { obj, str } from "./_util.ts";
import { statOrNull } from "../core/fs.ts";

/** Which fields of a history line hold what. */
export interface HistoryFields {
  /** The session id field. */
  id: string;
  /** The time field (seconds or ms; `toMillis` decides). */
  time: string;
  /** The prompt text field. */
  text: string;
  /** The project directory field, when the harness writes one. */
  project?: string;
  /** Rewrites a line's prompt text (e.g. puts pasted text back in place of its mark). */
  expand?(rec: Record<string, unknown>, text: string): string;
}

/**
 * Reads `path` from `ctx.offset` and yields one chunk per session id that
 * `hasTranscript` does not claim, in first-seen order. Lines without an id
 * or text are skipped as `bad_shape`.
 */
export async function* historySessions(
  harness: string,
  path: string,
  ctx: ParseCtx,
  fields: HistoryFields,
  hasTranscript: (id: string) => boolean,
): AsyncGenerator<Session> {
  const prompts = new PromptSessions(harness, path, ctx, fields, hasTranscript);
  for await (const line of readJsonl(path, ctx)) prompts.add(line.value, `${path}@${line.start}`);
  yield* prompts.sessions();
}

/**
 * Collects the prompt records of one history file, whatever its container (a
 * JSONL file, a JSON array): one session per id that `hasTranscript` does not
 * claim, made of `user` events.
 */
export class PromptSessions {
  private byId = new Map<string, Session>();

  constructor(
    private harness: string,
    private path: string,
    private ctx: ParseCtx,
    private fields: HistoryFields,
    private hasTranscript: (id: string) => boolean,
  ) {}

  /** Adds one record; a record without an id or text is skipped as `bad_shape` at `where`. */
  add(value: unknown, where: string): void {
    const { fields } = this;
    const rec = obj(value);
    const id = rec ? str(rec[fields.id]) : undefined;
    const text = rec ? str(rec[fields.text])?.trim() : undefined;
    if (!rec || !id || !text) {
      this.ctx.skip("bad_shape", where, "history record without a session id or text");
      return;
    }
    if (this.hasTranscript(id)) return;
    const time = toMillis(rec[fields.time]);
    let s = this.byId.get(id);
    if (!s) {
      s = { harness: this.harness, id, path: this.path, events: [], prompts: true };
      this.byId.set(id, s);
    }
    const project = fields.project ? str(rec[fields.project]) : undefined;
    if (project && !s.project) s.project = project;
    const ev: Event = { kind: "user", text: fields.expand ? fields.expand(rec, text) : text };
    if (time !== undefined) {
      ev.time = time;
      if (s.started === undefined || time < s.started) s.started = time;
      if (s.updated === undefined || time > s.updated) s.updated = time;
    }
    s.events.push(ev);
  }

  /** The sessions collected, in first-seen order. */
  sessions(): Session[] {
    return [...this.byId.values()];
  }
}

/** How to read a prompt history whose lines name no session. */
export interface LooseHistory {
  /** The id of the session its prompts become (one per file). */
  id: string;
  /** The prompt text field of a line. */
  text: string;
  /** The project the file belongs to, when known. */
  project?: string;
  /** Prompt texts (trimmed) a transcript already holds: left out. */
  known: Set<string>;
}

/**
 * Reads a prompt history that keeps neither a session id nor a time (Kimi CLI
 * `user-history/<md5 of work dir>.jsonl` `{content}`, opencode
 * `prompt-history.jsonl` `{input, parts, mode}`): the prompts no transcript
 * holds become one session of `user` events, dated by the file's mtime: the
 * newest prompt's time, only an upper bound for the others, so the session is
 * undated (`timeFromFile: "shared"`, lib/session_time.ts). A prompt whose trimmed text a
 * transcript holds is left out; a line without the text field is skipped as
 * `bad_shape`.
 */
export async function* looseHistorySession(
  harness: string,
  path: string,
  ctx: ParseCtx,
  how: LooseHistory,
): AsyncGenerator<Session> {
  const s: Session = { harness, id: how.id, path, project: how.project, events: [] };
  for await (const { value, start } of readJsonl(path, ctx)) {
    const text = str(obj(value)?.[how.text])?.trim();
    if (!text) {
      ctx.skip("bad_shape", `${path}@${start}`, "history record without text");
      continue;
    }
    if (!how.known.has(text)) s.events.push({ kind: "user", text, key: `h:${start}` });
  }
  if (!s.events.length) return;
  const mtime = (await statOrNull(path))?.mtimeMs;
  if (mtime !== undefined) [s.updated, s.timeFromFile] = [Math.floor(mtime), "shared"];
  yield s;
}
