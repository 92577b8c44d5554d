/**
 * The task-directory store of the Cline family, shared by Cline, Roo Code and
 * the Kilo Code extension: `<root>/tasks/<taskId>/` holding
 * - `api_conversation_history.json`: the conversation as sent to the model,
 *   a JSON array of messages (Cline, Kilo, Roo before v2) or Roo's envelope
 *   `{version: 2, messages: [...]}`. Rewritten whole on every change, so it
 *   is a `document` source.
 * - `ui_messages.json`: what the webview showed (not read: it repeats the
 *   conversation with UI bookkeeping).
 * - `task_metadata.json` (Cline, Kilo): `{files_in_context, model_usage
 *   [{ts, model_id, model_provider_id, mode}]}`.
 * - `history_item.json` (Roo, Kilo): `{id, ts, task, title?, workspace,
 *   parentTaskId?, rootTaskId?, mode, …}`, ts in epoch ms.
 * Cline keeps its task list in `<root>/state/taskHistory.json` instead:
 * `[{id, ts, task, cwdOnTaskInitialization, modelId, …}]`.
 *
 * Facts from cline/cline `src/core/storage/disk.ts` and RooCodeInc/Roo-Code
 * `src/core/task-persistence/{apiMessages,TaskHistoryStore}.ts` and
 * `packages/types/src/history.ts` (read via the search tool), and the real
 * Cline task file in realdata/cline.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Event, ParseCtx, Session } from "../core/model.ts";
import { listFiles, readJsonFile, type Unreadable } from "../core/fs.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { taskEvents, TaskReader } from "./_task_events.ts";
import {
  countStreamDamage,
  firstJsonByte,
  readJsonDocument,
  streamDocument,
  wholeDocMax,
} from "./_json_doc.ts";
import { REPAIRED } from "../core/text.ts";

export { readJsonDocument };

/** The conversation file of a task directory. */
export const HISTORY_FILE = "api_conversation_history.json";

/** What is known about a task apart from its conversation. */
export interface TaskMeta {
  title?: string;
  /** Absolute working directory. */
  cwd?: string;
  /** Epoch ms. */
  started?: number;
  /** Native id of the task that spawned this one. */
  parent?: string;
  model?: string;
}

/** The messages of a parsed history file: the legacy array or the `{version, messages}` envelope. */
export function historyMessages(doc: unknown, where: string, ctx: ParseCtx): unknown[] | undefined {
  if (Array.isArray(doc)) return doc;
  const o = obj(doc);
  if (o && Array.isArray(o.messages)) {
    if (o.version !== 2) ctx.skip("unknown_schema", where, `history version ${String(o.version)}`);
    return o.messages;
  }
  ctx.skip("bad_shape", where, "neither a message array nor {version, messages}");
  return undefined;
}

/** The `api_conversation_history.json` files under `<root>/tasks/*`. */
export function taskFiles(
  root: string,
  onError?: (path: string, error: Error) => void,
): Promise<string[]> {
  return listFiles(join(root, "tasks"), {
    match: (_p, name) => name === HISTORY_FILE,
    maxDepth: 1,
    onError,
  });
}

/** First line of a task's opening prompt, as a title. */
export function titleOf(task: unknown): string | undefined {
  const line = str(task)?.split("\n").map((l) => l.trim()).find((l) => l !== "");
  return line ? line.slice(0, 200) : undefined;
}

/** Metadata from a task directory's `history_item.json` (Roo, Kilo); empty when absent. */
export async function historyItemMeta(taskDir: string, report?: Unreadable): Promise<TaskMeta> {
  const h = obj(await readJsonFile(join(taskDir, "history_item.json"), undefined, report));
  if (!h) return {};
  return {
    title: str(h.title) ?? titleOf(h.task),
    cwd: str(h.workspace),
    started: toMillis(h.ts),
    parent: str(h.parentTaskId),
  };
}

/** The model a task's `task_metadata.json` names first (`model_usage[].model_id`). */
export async function taskMetadataModel(
  taskDir: string,
  report?: Unreadable,
): Promise<string | undefined> {
  const m = obj(await readJsonFile(join(taskDir, "task_metadata.json"), undefined, report));
  for (const u of arr(m?.model_usage)) {
    const id = str(obj(u)?.model_id);
    if (id) return id;
  }
  return undefined;
}

/** Cline's `<root>/state/taskHistory.json`, by task id; empty when absent. */
export async function clineTaskHistory(root: string): Promise<Map<string, TaskMeta>> {
  const out = new Map<string, TaskMeta>();
  const list = await readJsonFile(join(root, "state", "taskHistory.json"), 64 << 20);
  for (const e of arr(list)) {
    const h = obj(e);
    const id = str(h?.id);
    if (!h || !id) continue;
    out.set(id, {
      title: titleOf(h.task),
      cwd: str(h.cwdOnTaskInitialization),
      started: toMillis(h.ts),
      model: str(h.modelId),
    });
  }
  return out;
}

/** Task metadata carried in a source hint (all values are strings there). */
export function metaToHint(m: TaskMeta): Record<string, string> {
  const h: Record<string, string> = {};
  if (m.title) h.title = m.title;
  if (m.cwd) h.cwd = m.cwd;
  if (m.started !== undefined) h.started = String(m.started);
  if (m.parent) h.parent = m.parent;
  if (m.model) h.model = m.model;
  return h;
}

/** The inverse of {@link metaToHint}. */
export function hintToMeta(h: Record<string, string> | undefined): TaskMeta {
  if (!h) return {};
  return {
    title: h.title,
    cwd: h.cwd,
    started: toMillis(h.started),
    parent: h.parent,
    model: h.model,
  };
}

/**
 * One task's session from its `api_conversation_history.json`, yielded whole,
 * or in chunks when the file is over `wholeDocMax` bytes (parsers/_json_doc.ts;
 * {@link streamTask}). The id is the task directory's name; nothing (with the
 * reason counted) when the file cannot be read.
 */
export async function* taskSessions(
  harness: string,
  file: string,
  meta: TaskMeta,
  ctx: ParseCtx,
  id = basename(dirname(file)),
): AsyncGenerator<Session> {
  let size = 0;
  try {
    size = (await stat(file)).size;
  } catch { /* the read below says why */ }
  if (size > wholeDocMax(ctx)) {
    yield* streamTask(harness, id, file, meta, ctx);
    return;
  }
  const s = await taskSession(harness, file, meta, ctx, id);
  if (s) yield s;
}

/**
 * One task's session from its `api_conversation_history.json`, read whole.
 * The id is the task directory's name; undefined (with the reason counted) when
 * the file cannot be read.
 */
export async function taskSession(
  harness: string,
  file: string,
  meta: TaskMeta,
  ctx: ParseCtx,
  id = basename(dirname(file)),
): Promise<Session | undefined> {
  let damaged = 0;
  const doc = await readJsonDocument(file, file, {
    ...ctx,
    skip: (r, w, d) => (damaged++, ctx.skip(r, w, d)),
  });
  if (doc === undefined) return undefined;
  const messages = historyMessages(doc, file, ctx);
  // A salvaged file whose every message was damaged has nothing left to index.
  if (!messages || (!messages.length && damaged)) return undefined;
  return buildTaskSession(harness, id, file, messages, meta, ctx);
}

/** Messages read before a streamed task yields a chunk of its events. */
const CHUNK_MESSAGES = 256;

/**
 * Where a message starts in a history the extensions write (`JSON.stringify` of
 * the array, one line: realdata/cline): a damaged message is passed over to the next.
 */
const MESSAGE_START = new TextEncoder().encode(',{"role":"');

/**
 * A task's history too large to hold, read in pieces (`streamDocument`): its
 * messages (the top-level array, or `messages` of Roo's envelope) go through a
 * {@link TaskReader} one at a time and leave as chunks of the session every
 * {@link CHUNK_MESSAGES}. Each chunk carries what is known of the task so far;
 * the last one what only the whole says (the folder it moved to, the file's
 * time when no message had one). Memory holds one chunk whatever the file's size
 * (trial 29: a 151 MB Cline history read whole peaked at 708 MB).
 */
async function* streamTask(
  harness: string,
  id: string,
  file: string,
  meta: TaskMeta,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  let first: string | undefined;
  try {
    first = firstJsonByte(file);
  } catch (e) {
    ctx.skip("unreadable", file, (e as Error).message);
    return;
  }
  if (first !== "[" && first !== "{") {
    ctx.skip(first === undefined ? "empty" : "malformed_json", file);
    return;
  }
  const reader = new TaskReader(meta.cwd, file, ctx);
  let yielded = false;
  let timed = false;
  const chunk = (last: boolean): Session => {
    const events = reader.take();
    const found = reader.found();
    const [lo, hi] = timeSpan(events);
    timed ||= lo !== undefined;
    const s: Session = {
      harness,
      id,
      project: (last ? found.movedCwd : undefined) ?? meta.cwd ?? found.envCwd,
      title: meta.title,
      started: meta.started ?? lo,
      updated: hi !== undefined ? Math.max(hi, meta.started ?? 0) : meta.started,
      model: meta.model ?? found.model,
      parent: meta.parent,
      path: file,
      events,
    };
    for (const k of Object.keys(s) as Array<keyof Session>) {
      if (s[k] === undefined) delete s[k];
    }
    yielded = true;
    return s;
  };
  let n = 0;
  let doc;
  try {
    const pass = streamDocument(file, first === "[" ? "" : "messages", MESSAGE_START);
    for (let r = pass.next();; r = pass.next()) {
      if (r.done) {
        doc = r.value;
        break;
      }
      reader.add(r.value, n);
      if (++n % CHUNK_MESSAGES === 0 && reader.held) yield chunk(false);
    }
  } catch (e) {
    ctx.skip("unreadable", file, (e as Error).message);
    return;
  }
  if (doc.repaired) ctx.skip("invalid_utf8", file, REPAIRED);
  // Roo's envelope says its version (a missing `messages` is counted too).
  const shaped = first === "[" || doc.value === undefined || doc.failure !== undefined ||
    historyMessages(doc.value, file, ctx) !== undefined;
  countStreamDamage(doc, file, n, ctx);
  const moved = reader.found().movedCwd;
  if (!reader.held && !moved && yielded && (timed || meta.started !== undefined)) return;
  if (!n && !yielded) {
    if (shaped && !doc.failure && !doc.skipped.length) {
      ctx.skip("empty", file, "a task with no messages");
    }
    return;
  }
  const last = chunk(true);
  if (!timed && meta.started === undefined) {
    // No recorded time at all: the file's mtime dates the session, marked as such.
    try {
      const mtime = Math.floor((await stat(file)).mtimeMs);
      last.started = last.updated = mtime;
      last.timeFromFile = true;
    } catch { /* raced with a delete: no fallback time */ }
  }
  yield last;
}

/** A session from already-read messages (shared with the Cline CLI's session files). */
export async function buildTaskSession(
  harness: string,
  id: string,
  file: string,
  messages: unknown[],
  meta: TaskMeta,
  ctx: ParseCtx,
): Promise<Session> {
  const { events, model, envCwd, movedCwd } = taskEvents(messages, meta.cwd, file, ctx);
  const [first, last] = timeSpan(events);
  // No recorded time at all: the file's mtime dates the session, marked as such.
  let mtime: number | undefined;
  if (meta.started === undefined && first === undefined) {
    try {
      mtime = Math.floor((await stat(file)).mtimeMs);
    } catch { /* raced with a delete: no fallback time */ }
  }
  const session: Session = {
    harness,
    id,
    // The folder the task worked in: where its environment details last put it
    // when that moved from the first (the list's `cwdOnTaskInitialization` is the first).
    project: movedCwd ?? meta.cwd ?? envCwd,
    title: meta.title,
    started: meta.started ?? first ?? mtime,
    updated: last !== undefined ? Math.max(last, meta.started ?? 0) : meta.started ?? mtime,
    model: meta.model ?? model,
    parent: meta.parent,
    path: file,
    events,
    timeFromFile: mtime !== undefined || undefined,
  };
  for (const k of Object.keys(session) as Array<keyof Session>) {
    if (session[k] === undefined) delete session[k];
  }
  return session;
}

/**
 * Reads a small JSON object file (a manifest); undefined when missing or not
 * an object. One that exists but cannot be read goes to `report`.
 */
export async function readObject(path: string, report?: Unreadable): Promise<Obj | undefined> {
  return obj(await readJsonFile(path, 16 << 20, report));
}

/** The earliest and latest recorded time of `events` (undefined when none has one). */
function timeSpan(events: readonly Event[]): [number | undefined, number | undefined] {
  let lo: number | undefined;
  let hi: number | undefined;
  for (const e of events) {
    if (e.time === undefined) continue;
    if (lo === undefined || e.time < lo) lo = e.time;
    if (hi === undefined || e.time > hi) hi = e.time;
  }
  return [lo, hi];
}
