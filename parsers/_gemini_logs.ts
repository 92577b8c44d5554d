/**
 * Gemini CLI's prompt log, `tmp/<projectId>/logs.json` (private to `gemini.ts`;
 * realdata/gemini-cli `logs.json`): a JSON array of `{sessionId, messageId,
 * type: "user", message, timestamp (ISO)}`, one entry per prompt typed, rewritten
 * whole. The prompts of a session whose chat is gone (deleted, never saved)
 * become that session, made of `user` events; a session with a chat in
 * `tmp/<projectId>/chats/` is read from the chat. Chat file names end in the
 * first 8 characters of the session id (`session-<time>-<id8>.json[l]`).
 *
 * @module
 */
import type { ParseCtx, Session } from "../core/model.ts";
import { listFiles, readJsonFile, skipUnreadable } from "../core/fs.ts";
import { PromptSessions } from "./_prompt_history.ts";
import { obj } from "./_util.ts";

/** Largest prompt log read (the real one above holds 350 prompts in 136 kB). */
const MAX_BYTES = 64 << 20;

/**
 * The prompt-only sessions of the log at `path`, whose chats live in `chats`.
 *
 * @param project the project directory of the log's folder, when known.
 * @param held ids of sessions a saved conversation (`checkpoint-<tag>.json`,
 *   `_gemini_checkpoints.ts`) holds: read from there, like a chat.
 */
export async function logSessions(
  harness: string,
  path: string,
  chats: string,
  ctx: ParseCtx,
  project?: string,
  held: ReadonlySet<string> = new Set(),
): Promise<Session[]> {
  const doc = await readJsonFile(path, MAX_BYTES, skipUnreadable(ctx));
  if (!Array.isArray(doc)) {
    if (doc !== undefined) ctx.skip("unknown_record", path, "logs.json is not an array");
    return [];
  }
  const shortIds = new Set<string>();
  const files = await listFiles(chats, {
    match: (_p, n) => n.endsWith(".json") || n.endsWith(".jsonl"),
    maxDepth: 2,
  });
  for (const f of files) {
    const m = /-([0-9a-z]{8})\.jsonl?$/i.exec(f);
    if (m) shortIds.add(m[1].toLowerCase());
  }
  const fields = { id: "sessionId", time: "timestamp", text: "message" };
  const prompts = new PromptSessions(
    harness,
    path,
    ctx,
    fields,
    (id) => shortIds.has(id.slice(0, 8).toLowerCase()) || held.has(id),
  );
  doc.forEach((entry, i) => {
    // Only what the person typed (the log has held nothing else so far).
    const type = obj(entry)?.type;
    if (type === undefined || type === "user") prompts.add(entry, `${path}#${i}`);
  });
  const out = prompts.sessions();
  if (project) { for (const s of out) s.project ??= project; }
  return out;
}
