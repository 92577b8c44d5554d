/**
 * Gemini CLI's saved conversations, `tmp/<projectId>/checkpoint-<tag>.json`
 * (private to `gemini.ts`): what remains of a session whose chat is gone.
 *
 * Gemini CLI writes `checkpoint-<tag>.json` in the project's temp folder on
 * `/chat save <tag>` (google-gemini/gemini-cli@5411f113 `core/logger.ts`
 * `saveCheckpoint`: `{history: Content[], authType?}`, older builds a bare
 * `Content[]`), and a `/restore` checkpoint (`utils/checkpointUtils.ts`:
 * `{history?, clientHistory: Content[], toolCall, commitHash, messageId}`,
 * where `messageId` is the prompt id `<sessionId>########<n>`,
 * `cli/ui/hooks/useGeminiStream.ts`) in `checkpoints/`; realdata/gemini-cli
 * `checkpoint-write_file.json` is the latter under the former's name. A
 * `Content` is `{role: "user" | "model", parts: [{text} | {functionCall:
 * {name, args, id?}} | {functionResponse: {name, response, id?}} | ...]}`.
 *
 * Such a file becomes a session when no chat in `tmp/<projectId>/chats/`
 * holds it: none with its session id (a chat file name ends in the first 8
 * characters of it, `session-<time>-<id8>.json[l]`, or the chat says it),
 * none holding every prompt it holds. Its session id is the one in
 * `messageId`, else `checkpoint-<tag>` (titled `<tag>`). It records no time:
 * the session is dated by the file's mtime (`timeFromFile`, its own file). The environment
 * turn Gemini CLI sends first (`This is the Gemini CLI. We are setting up the
 * context for our chat.`, newer builds inside `<session_context>`) is dropped.
 *
 * @module
 */
import { basename } from "node:path";
import type { Event, ParseCtx, Session, SourceRef } from "../core/model.ts";
import { listFiles, readJsonFile, readTextOrNone, skipUnreadable, statOrNull } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { geminiMessageEvents, partsText } from "./_gemini_events.ts";

/** A saved conversation's file name in a project's temp folder. */
export const CHECKPOINT_FILE = /^checkpoint-(.+)\.json$/;

/** Largest checkpoint or chat read here. */
const MAX_BYTES = 64 << 20;

/** The first user turn of older builds: the environment, not typed by a person. */
const ENVIRONMENT = "This is the Gemini CLI. We are setting up the context for our chat.";

/** The `checkpoint-<tag>.json` files of a project's temp folder. */
export async function checkpointFiles(projectDir: string): Promise<string[]> {
  return await listFiles(projectDir, {
    match: (_p, n) => CHECKPOINT_FILE.test(n),
    maxDepth: 0,
  });
}

/** The session id a checkpoint names (`messageId` `<sessionId>########<n>`), if any. */
function sessionIdOf(doc: Obj | undefined): string | undefined {
  const id = str(doc?.messageId);
  const at = id?.indexOf("########") ?? -1;
  return id && at > 0 ? id.slice(0, at) : undefined;
}

/** The session ids the checkpoints of a project's temp folder name (for the prompt log). */
export async function checkpointSessionIds(projectDir: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const f of await checkpointFiles(projectDir)) {
    const id = sessionIdOf(obj(await readJsonFile(f, MAX_BYTES)));
    if (id) out.add(id);
  }
  return out;
}

/** The conversation a checkpoint holds: `clientHistory`, else `history`, else the bare list. */
function contentsOf(doc: unknown): Obj[] {
  const o = obj(doc);
  const list = Array.isArray(doc)
    ? doc
    : arr(o?.clientHistory).length
    ? o?.clientHistory
    : o?.history;
  return arr(list).flatMap((c) => {
    const co = obj(c);
    return co && typeof co.role === "string" && Array.isArray(co.parts) ? [co] : [];
  });
}

/**
 * The conversation as chat messages: the environment turn dropped, and calls
 * and responses without ids given matching ones (a response answers the
 * oldest unanswered call of its name), so each result finds its call.
 */
function asMessages(contents: Obj[]): Obj[] {
  const pending = new Map<string, string[]>();
  let n = 0;
  const out: Obj[] = [];
  contents.forEach((c, i) => {
    const text = partsText(c.parts).trim();
    if (
      c.role === "user" && (text.startsWith(ENVIRONMENT) || text.startsWith("<session_context>"))
    ) {
      return;
    }
    const parts = arr(c.parts).map((p) => {
      const po = obj(p);
      const fc = obj(po?.functionCall);
      const fr = obj(po?.functionResponse);
      if (fc) {
        const id = str(fc.id) ?? `cp${n++}`;
        const name = str(fc.name) ?? "";
        pending.set(name, [...(pending.get(name) ?? []), id]);
        return { ...po, functionCall: { ...fc, id } };
      }
      if (fr && !str(fr.id)) {
        const queue = pending.get(str(fr.name) ?? "") ?? [];
        const id = queue.shift();
        return id ? { ...po, functionResponse: { ...fr, id } } : po;
      }
      return p;
    });
    out.push({ id: `h${i}`, type: c.role === "model" ? "model" : "user", content: parts });
  });
  return out;
}

/** The prompts a person typed, trimmed. */
function prompts(messages: Obj[]): string[] {
  return messages.filter((m) => m.type === "user").map((m) => partsText(m.content).trim())
    .filter((t) => t);
}

/** Each chat of `chats`: its session id (from the file name's short id too) and its prompts. */
async function chatsOf(
  chats: string,
  ctx: ParseCtx,
): Promise<Array<{ ids: string[]; prompts: Set<string> }>> {
  const files = await listFiles(chats, {
    match: (_p, n) => n.endsWith(".json") || n.endsWith(".jsonl"),
    maxDepth: 2,
  });
  const out = [];
  for (const f of files) {
    const ids: string[] = [];
    const short = /-([0-9a-f]{8})\.jsonl?$/i.exec(f)?.[1];
    if (short) ids.push(short.toLowerCase());
    const said = new Set<string>();
    const add = (m: Obj | undefined) => {
      if (m?.type !== "user") return;
      said.add(partsText(m.content).trim());
      said.add(partsText(m.displayContent).trim());
    };
    if (f.endsWith(".jsonl")) {
      // Read for its prompts only: what it would skip is the chat's own source's to count.
      const quiet: ParseCtx = { ...ctx, offset: 0, skip: () => {}, drift: undefined };
      for await (const { value } of readJsonl(f, quiet)) {
        const rec = obj(value);
        if (str(rec?.sessionId)) ids.push(str(rec!.sessionId)!);
        add(rec);
        for (const m of arr(obj(rec?.$set)?.messages)) add(obj(m));
      }
    } else {
      const doc = obj(await readJsonFile(f, MAX_BYTES));
      if (str(doc?.sessionId)) ids.push(str(doc!.sessionId)!);
      for (const m of arr(doc?.messages)) add(obj(m));
    }
    out.push({ ids, prompts: said });
  }
  return out;
}

/**
 * The session a `checkpoint-<tag>.json` holds, unless a chat holds it (see the
 * module doc; counted `not_session` then).
 *
 * @param opts.project the project directory of the folder, when known; `chats`
 *   its `chats` folder.
 */
export async function* checkpointSessions(
  harness: string,
  source: SourceRef,
  ctx: ParseCtx,
  opts: { project?: string; chats: string },
): AsyncGenerator<Session> {
  const path = source.path;
  const text = await readTextOrNone(path, MAX_BYTES, skipUnreadable(ctx));
  if (text === undefined) return;
  if (!text.trim()) {
    ctx.skip("empty", path);
    return;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    ctx.skip("malformed_json", path, (e as Error).message);
    return;
  }
  const messages = asMessages(contentsOf(doc));
  if (!messages.length) {
    ctx.skip("unknown_record", path, "checkpoint without a conversation");
    return;
  }
  const sessionId = sessionIdOf(obj(doc));
  const asked = prompts(messages);
  for (const chat of await chatsOf(opts.chats, ctx)) {
    const same = sessionId &&
      chat.ids.some((id) => id === sessionId || id === sessionId.slice(0, 8).toLowerCase());
    if (same || (asked.length && asked.every((p) => chat.prompts.has(p)))) {
      ctx.skip("not_session", path, "checkpoint of a chat that is read itself");
      return;
    }
  }
  const tag = CHECKPOINT_FILE.exec(basename(path))?.[1];
  const mtime = (await statOrNull(path))?.mtimeMs;
  const time = mtime === undefined ? undefined : Math.floor(mtime);
  const events: Event[] = [];
  const answered = new Set<string>();
  for (const m of messages) {
    const r = geminiMessageEvents(m, {
      project: opts.project,
      skip: ctx.skip.bind(ctx),
      where: path,
    });
    for (const e of r.events) {
      if (e.kind === "tool_result" && e.key) {
        if (answered.has(e.key)) continue;
        answered.add(e.key);
      }
      events.push(e);
    }
  }
  if (!events.length) return;
  yield {
    harness,
    id: sessionId ?? `checkpoint-${tag}`,
    project: opts.project,
    title: sessionId ? undefined : tag,
    updated: time,
    ...(time === undefined ? {} : { timeFromFile: true }),
    path,
    events,
  };
}
