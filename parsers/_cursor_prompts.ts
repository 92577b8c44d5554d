/**
 * Cursor's per-workspace prompt history: `ItemTable` key `aiService.prompts` of
 * `<User>/workspaceStorage/<hash>/state.vscdb`, a JSON array of `{text,
 * commandType}`, oldest first, no time; and `aiService.generations`, the last
 * 100 requests `{unixMs, generationUUID, type ("composer" | "apply"),
 * textDescription}`, where a `composer` generation's `textDescription` is the
 * prompt sent. Observed in realdata/cursor (Cursor 1.1.6): 59 prompts, 54 of
 * them dated by a generation of the same text (the five oldest are older than
 * the generations kept), 39 in no message of the (trimmed) global store.
 *
 * The prompts no composer of this workspace holds as a user message (a
 * composer deleted, the global store pruned or another machine's) become one
 * session, `prompt-history-<hash>`, in the workspace's folder: the k-th prompt
 * of a text takes the time of the k-th `composer` generation of that text,
 * when kept. With no time at all the session is dated by the database's
 * mtime, a file every workspace prompt shares: an upper bound, so the session
 * is undated (`timeFromFile: "shared"`, lib/session_time.ts). The source has no watermark: each
 * change of the database reads it whole and replaces the session (a session
 * whose prompts all reached composers since is left as it was).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { Event, ParseCtx, Session } from "../core/model.ts";
import { statOrNull } from "../core/fs.ts";
import { openOrCountEmpty, openSalvaged, tables } from "../core/sqlite_read.ts";
import { toMillis } from "./_time.ts";
import { arr, obj, str } from "./_util.ts";
import { workspaceFolder } from "./_vscode.ts";
import { promptHistoryId } from "../core/prompt_history.ts";

/**
 * Yields the loose prompts of the workspace database at `path` as one session
 * (nothing when every prompt is in a composer, or the key is absent).
 *
 * @throws {StoreError} when the database cannot be opened (`locked`,
 *   `corrupt`, `unreadable`); a missing or empty file is counted `empty`.
 */
export async function* readCursorPrompts(
  harness: string,
  path: string,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const dir = dirname(path);
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  let prompts: unknown[];
  let generations: unknown[];
  let composers: string[];
  try {
    if (!tables(handle.db).has("ItemTable")) {
      ctx.skip("unknown_schema", path, "no ItemTable table");
      return;
    }
    prompts = arr(item(handle.db, "aiService.prompts", path, ctx));
    if (!prompts.length) return;
    generations = arr(item(handle.db, "aiService.generations", path, ctx));
    composers = arr(obj(item(handle.db, "composer.composerData", path, ctx))?.allComposers)
      .map((h) => str(obj(h)?.composerId)).filter((id): id is string => !!id);
  } finally {
    handle.close();
  }
  const known = userTexts(
    join(dirname(dirname(dir)), "globalStorage", "state.vscdb"),
    composers,
    ctx,
  );
  const times = new Map<string, number[]>();
  for (const g of generations) {
    const o = obj(g);
    const text = str(o?.textDescription)?.trim();
    const t = toMillis(o?.unixMs);
    if (o?.type !== "composer" || !text || t === undefined) continue;
    const list = times.get(text) ?? [];
    list.push(t);
    times.set(text, list);
  }
  const seen = new Map<string, number>();
  const s: Session = { harness, id: promptHistoryId(basename(dir)), path, events: [] };
  prompts.forEach((p, i) => {
    const raw = obj(p)?.text;
    if (typeof raw !== "string") {
      ctx.skip("bad_shape", `${path}: aiService.prompts[${i}]`, "prompt without text");
      return;
    }
    const text = raw.trim();
    if (!text) return; // a prompt of images alone (the real store's last one)
    const k = seen.get(text) ?? 0;
    seen.set(text, k + 1);
    if (known.has(text)) return;
    const ev: Event = { kind: "user", text, key: `p:${i}` };
    const time = times.get(text)?.[k];
    if (time !== undefined) {
      ev.time = time;
      if (s.started === undefined || time < s.started) s.started = time;
      if (s.updated === undefined || time > s.updated) s.updated = time;
    }
    s.events.push(ev);
  });
  if (!s.events.length) return;
  const folder = await workspaceFolder(dir, (where, e) => ctx.skip("unreadable", where, e.message));
  if (folder) s.project = folder;
  if (s.updated === undefined) {
    const mtime = (await statOrNull(path))?.mtimeMs;
    if (mtime !== undefined) [s.updated, s.timeFromFile] = [Math.floor(mtime), "shared"];
  }
  yield s;
}

/** One `ItemTable` value as JSON (undefined when absent or NULL; bad JSON is counted). */
function item(db: DatabaseSync, key: string, path: string, ctx: ParseCtx): unknown {
  const row = db.prepare("SELECT value FROM ItemTable WHERE key = ?").get(key) as
    | { value: unknown }
    | undefined;
  if (row?.value === null || row?.value === undefined) return undefined;
  const value = json(row.value);
  if (value === undefined) ctx.skip("malformed_json", `${path}: ${key}`, "value is not JSON");
  return value;
}

/** A TEXT or BLOB column's JSON; undefined when it is neither or does not parse. */
function json(v: unknown): unknown {
  const text = typeof v === "string"
    ? v
    : v instanceof Uint8Array
    ? new TextDecoder().decode(v)
    : undefined;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The trimmed texts of the user messages of `composers` in the global store
 * (only their bubble rows are read); empty when the global store cannot be
 * read — then every prompt is kept, a repeat at worst.
 */
function userTexts(global: string, composers: string[], ctx: ParseCtx): Set<string> {
  const texts = new Set<string>();
  if (!composers.length) return texts;
  let handle;
  try {
    handle = openSalvaged(global, { env: ctx.env, skip: () => {} });
    const q = handle.db.prepare(
      "SELECT value FROM cursorDiskKV WHERE key >= ? AND key < ?",
    );
    for (const cid of composers) {
      for (const r of q.all(`bubbleId:${cid}:`, `bubbleId:${cid};`) as Array<{ value: unknown }>) {
        const b = obj(json(r.value));
        const text = b?.type === 1 ? (str(b.text) ?? str(b.rawText))?.trim() : undefined;
        if (text) texts.add(text);
      }
    }
  } catch {
    // No global store, or one that cannot be read: nothing is known to be there.
  } finally {
    handle?.close();
  }
  return texts;
}
