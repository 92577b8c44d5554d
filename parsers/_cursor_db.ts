/**
 * Reading Cursor's global `state.vscdb` (SQLite key-value store) read-only.
 *
 * Tables `ItemTable(key, value)` and `cursorDiskKV(key, value)`; values are
 * JSON text or BLOB. Rows read (observed in realdata/cursor, Cursor 1.1.6):
 * - `composerData:<composerId>`: one chat ("composer") `{_v, composerId,
 *   name, createdAt, lastUpdatedAt (epoch ms), fullConversationHeadersOnly
 *   [{bubbleId, type, serverBubbleId?}], conversationMap, status,
 *   unifiedMode, latestConversationSummary {summary {summary,
 *   truncationLastBubbleIdInclusive}}, subComposerIds}`. Older composers
 *   keep their bubbles inline in `conversation[]` (docs/registry/cursor.md).
 * - `bubbleId:<composerId>:<bubbleId>`: one message (see `_cursor_bubbles.ts`).
 * - Other prefixes (`checkpointId:`, `codeBlockDiff:`,
 *   `messageRequestContext:`, `inlineDiffs-…`) are not read. The real store
 *   has `composerData` rows whose value is NULL and rows whose key and value
 *   are both NULL: the former are counted `empty`, the latter never match a
 *   key range and are passed over.
 *
 * The project of a composer comes from the workspace DBs beside the global
 * one: `<User>/workspaceStorage/<hash>/state.vscdb` `ItemTable` key
 * `composer.composerData` `{allComposers: [{composerId, …}]}`, mapped to a
 * folder by that directory's `workspace.json`; else from a bubble's
 * `workspaceProjectDir`.
 *
 * Incremental: the watermark is the largest `lastUpdatedAt` (ms); a pass
 * yields every composer with `lastUpdatedAt >= ctx.since`, whole.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { Event, ParseCtx, Session } from "../core/model.ts";
import { skipUnreadable } from "../core/fs.ts";
import { openOrCountEmpty, openSalvaged, tables } from "../core/sqlite_read.ts";
import { jsonColumn } from "./_json_doc.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str, withModel } from "./_util.ts";
import { uriToPath, workspaceDirs } from "./_vscode.ts";
import { bubbleEvents, bubbleTime } from "./_cursor_bubbles.ts";

type Row = { key: unknown; value: unknown };

/**
 * Yields every composer of the global store at `path` changed since
 * `ctx.since` and sets `ctx.endWatermark`.
 *
 * @throws {StoreError} when the store cannot be opened (`locked`, `corrupt`,
 *   `unreadable`); a missing or empty file is counted `empty` instead.
 */
export async function* readCursorDb(
  harness: string,
  path: string,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    if (!tables(db).has("cursorDiskKV")) {
      ctx.skip("unknown_schema", path, "no cursorDiskKV table");
      ctx.endWatermark = ctx.since;
      return;
    }
    const composers = new Map<string, Obj>();
    const parents = new Map<string, string>();
    for (const r of range(db, "composerData:")) {
      const key = String(r.key);
      const c = decode(r.value, `${path}: ${key}`, ctx);
      if (!c) continue;
      const cid = str(c.composerId) ?? key.slice("composerData:".length);
      composers.set(cid, c);
      for (const child of arr(c.subComposerIds)) {
        if (typeof child === "string") parents.set(child, cid);
      }
    }
    let workspaces: Map<string, string> | undefined;
    let watermark = ctx.since;
    for (const [cid, c] of composers) {
      const updated = toMillis(c.lastUpdatedAt) ?? toMillis(c.createdAt) ?? 0;
      if (updated < ctx.since) continue;
      if (updated > watermark) watermark = updated;
      workspaces ??= await composerFolders(dirname(dirname(path)), ctx);
      const s = composerSession(harness, path, db, cid, c, workspaces.get(cid), ctx);
      s.parent = parents.get(cid);
      if (s.parent === undefined) delete s.parent;
      if (s.events.length) yield s;
    }
    ctx.endWatermark = watermark;
  } finally {
    handle.close();
  }
}

/** Rows whose key starts with `prefix` (a key range, so the key index is used). */
function range(db: DatabaseSync, prefix: string): Row[] {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return db.prepare("SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY key")
    .all(prefix, end) as Row[];
}

/**
 * A row's JSON object. A NULL value (the real store has such rows: composers Cursor left
 * empty) is counted `not_session`: `empty` says the store itself was found empty, which made a
 * read of the real global database "now empty, kept 1 session as indexed" (trial 104 F1).
 */
function decode(v: unknown, where: string, ctx: ParseCtx): Obj | undefined {
  if (v === null || v === undefined) {
    ctx.skip("not_session", where, "value is NULL");
    return undefined;
  }
  return jsonColumn(v, where, ctx);
}

function composerSession(
  harness: string,
  path: string,
  db: DatabaseSync,
  cid: string,
  c: Obj,
  folder: string | undefined,
  ctx: ParseCtx,
): Session {
  const bubbles = new Map<string, Obj>();
  for (const r of range(db, `bubbleId:${cid}:`)) {
    const b = decode(r.value, `${path}: ${String(r.key)}`, ctx);
    if (b) bubbles.set(String(r.key).slice(`bubbleId:${cid}:`.length), b);
  }
  const ordered: Array<[string, Obj]> = [];
  const headers = arr(c.fullConversationHeadersOnly);
  if (headers.length) {
    for (const h of headers) {
      const bid = str(obj(h)?.bubbleId);
      if (!bid) continue;
      // Some builds keep bubbles in the composer's conversationMap instead of their own rows.
      const b = bubbles.get(bid) ?? obj(obj(c.conversationMap)?.[bid]);
      if (b) ordered.push([bid, b]);
      else {ctx.skip(
          "bad_shape",
          `${path}: bubbleId:${cid}:${bid}`,
          "header names a missing bubble",
        );}
    }
  } else if (arr(c.conversation).length) {
    for (const b of arr(c.conversation)) {
      const o = obj(b);
      if (o) ordered.push([str(o.bubbleId) ?? "", o]);
    }
  } else {
    ordered.push(...[...bubbles].sort((a, b) => (bubbleTime(a[1]) ?? 0) - (bubbleTime(b[1]) ?? 0)));
  }
  let project = folder;
  let model: string | undefined;
  for (const [, b] of ordered) {
    project ??= str(b.workspaceProjectDir) ??
      arr(b.workspaceUris).map((u) => (typeof u === "string" ? uriToPath(u) : undefined))
        .find((p) => p);
    model ??= str(obj(b.modelInfo)?.modelName);
  }
  const created = toMillis(c.createdAt);
  const updated = toMillis(c.lastUpdatedAt);
  const summary = obj(obj(c.latestConversationSummary)?.summary);
  const summaryText = str(summary?.summary)?.trim();
  const summaryAfter = str(summary?.truncationLastBubbleIdInclusive);
  const events: Event[] = [];
  let time = created;
  let summarized = false;
  for (const [bid, b] of ordered) {
    time = bubbleTime(b) ?? time;
    const evs = bubbleEvents(b, time, project, `${path}: bubbleId:${cid}:${bid}`, ctx);
    events.push(...withModel(evs, obj(b.modelInfo)?.modelName));
    if (summaryText && !summarized && bid === summaryAfter) {
      events.push(withTime({ kind: "summary", text: summaryText }, time));
      summarized = true;
    }
  }
  if (summaryText && !summarized) {
    events.push(withTime({ kind: "summary", text: summaryText }, updated));
  }
  const s: Session = { harness, id: cid, path, events };
  if (project) s.project = project;
  const title = str(c.name);
  if (title) s.title = title;
  if (created !== undefined) s.started = created;
  if (updated !== undefined || time !== undefined) s.updated = Math.max(updated ?? 0, time ?? 0);
  if (model) s.model = model;
  return s;
}

function withTime(e: Event, time: number | undefined): Event {
  if (time !== undefined) e.time = time;
  return e;
}

/**
 * composerId -> project folder, from every workspace DB under `userDir`. A
 * workspace DB that cannot be read contributes nothing (the global store is
 * still indexed, without that project); one with damaged pages gives what is
 * still readable, and a `workspace.json` that is a special file or unreadable
 * is counted `unreadable` — both skips of the global store being read.
 */
async function composerFolders(userDir: string, ctx: ParseCtx): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const ws of await workspaceDirs(userDir, undefined, skipUnreadable(ctx))) {
    if (!ws.folder) continue;
    let handle;
    try {
      handle = openSalvaged(join(ws.dir, "state.vscdb"), ctx);
      const row = handle.db.prepare(
        "SELECT value FROM ItemTable WHERE key = 'composer.composerData'",
      )
        .get() as { value: unknown } | undefined;
      const v = row?.value;
      const text = typeof v === "string"
        ? v
        : v instanceof Uint8Array
        ? new TextDecoder().decode(v)
        : "";
      const data = obj(text ? JSON.parse(text) : undefined);
      for (const h of arr(data?.allComposers)) {
        const id = str(obj(h)?.composerId);
        if (id && !out.has(id)) out.set(id, ws.folder);
      }
    } catch {
      // Missing, locked or foreign workspace store: no mapping from it.
    } finally {
      handle?.close();
    }
  }
  return out;
}
