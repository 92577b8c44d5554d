/**
 * Cherry Studio's v2 data layer: the drizzle SQLite `cherrystudio.sqlite`,
 * read-only. Private to `parsers/cherrystudio.ts`.
 *
 * Tables read (CherryHQ/cherry-studio `src/main/data/db/schemas/{topic,message,
 * agentSession,_columnHelpers}.ts`, read via the search tool; drizzle runs with
 * snake_case casing, so columns are snake_case):
 * - `topic(id, name, active_node_id?, created_at, updated_at, deleted_at)`: one
 *   conversation -> one session.
 * - `message(id, parent_id, topic_id, role, data JSON, status, model_id,
 *   agent_session_id?, created_at, updated_at, deleted_at)`; role `user`,
 *   `assistant`, `system`, `tool`. `data` is `{blocks?: [...], parts?: [...]}`:
 *   `blocks` (v1-migrated rows) with `main_text{content}`, `tool{toolId,
 *   toolName, arguments, content}`, `compact{content}`, `thinking`, …; `parts`
 *   (current rows: AI SDK `UIMessage.parts`) with `text{text}`, `reasoning`,
 *   `tool-<name>` / `dynamic-tool{toolName}` `{toolCallId, input, output,
 *   errorText}`.
 * - `agent_session(id, accessible_paths JSON)`: a message's `agent_session_id`
 *   names the agent session whose first accessible path is the project.
 * Times are epoch **milliseconds** (`Date.now()`). Rows with `deleted_at` set
 * are soft-deleted and skipped; `message_fts` is not read. When a topic names
 * its `active_node_id`, only the branch from the root to it is read (the
 * message tree keeps regenerated siblings); otherwise every message in time
 * order.
 *
 * Incremental: the watermark is `max(updated_at)` over topics and messages; a
 * pass yields every topic updated, or holding a message updated, since then.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Event, ParseCtx, Session } from "../core/model.ts";
import { columns, heldIds, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, type Obj, obj, str, withModel } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import { callInfo, type CallKind } from "./_call_info.ts";

type Row = Record<string, unknown>;

/** Agent topics run Claude Code, whose tool names their parts keep; chat tools are MCP tools. */
const KINDS: Readonly<Record<string, CallKind>> = {
  Bash: "shell",
  Read: "read",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "write",
};

const NEED: Record<string, string[]> = {
  topic: ["id", "updated_at"],
  message: ["id", "topic_id", "role", "data", "created_at", "updated_at"],
};

/**
 * Yields every chat topic changed since `ctx.since` as a whole session and
 * sets `ctx.endWatermark`.
 *
 * @throws {StoreError} when the store cannot be opened (`locked`, `corrupt`,
 *   `unreadable`); a missing or 0-byte file is counted `empty`.
 */
export async function* readCherryDb(
  harness: string,
  path: string,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    const missing = Object.entries(NEED).flatMap(([t, cols]) => {
      const have = columns(db, t);
      return cols.filter((c) => !have.has(c)).map((c) => `${t}.${c}`);
    });
    if (missing.length) {
      ctx.skip("unknown_schema", path, `missing ${missing.join(", ")}`);
      ctx.endWatermark = ctx.since;
      return;
    }
    const tc = columns(db, "topic");
    const mc = columns(db, "message");
    const col = (have: Set<string>, c: string) => (have.has(c) ? c : "NULL");
    const topics = db.prepare(
      `SELECT id, ${col(tc, "name")} AS name, ${col(tc, "active_node_id")} AS active,
              ${col(tc, "created_at")} AS created_at, updated_at, ${
        col(tc, "deleted_at")
      } AS deleted
         FROM topic t
        WHERE updated_at >= ?
           OR EXISTS (SELECT 1 FROM message m WHERE m.topic_id = t.id AND m.updated_at >= ?)
        ORDER BY updated_at, id`,
    ).all(ctx.since, ctx.since) as Row[];
    const messagesOf = db.prepare(
      `SELECT id, ${col(mc, "parent_id")} AS parent_id, role, data, ${
        col(mc, "model_id")
      } AS model_id,
              ${col(mc, "agent_session_id")} AS agent, created_at, updated_at,
              ${col(mc, "deleted_at")} AS deleted
         FROM message WHERE topic_id = ? ORDER BY created_at, id`,
    );
    const accessible = agentPaths(db);
    let watermark = ctx.since;
    for (const t of topics) {
      watermark = Math.max(watermark, Number(t.updated_at) || 0);
      const rows = messagesOf.all(t.id as string) as Row[];
      for (const r of rows) watermark = Math.max(watermark, Number(r.updated_at) || 0);
      if (t.deleted != null) continue;
      const s = topicSession(harness, path, t, rows, accessible, ctx);
      if (s) yield s;
    }
    ctx.endWatermark = watermark;
    // The topics held now, not deleted: those deleted since the last read go.
    ctx.endHolds = heldIds(db, "topic", tc.has("deleted_at") ? "deleted_at IS NULL" : undefined);
  } finally {
    handle.close();
  }
}

/** `agent_session.id` -> its first accessible path, when that table exists. */
function agentPaths(db: DatabaseSync): Map<string, string> {
  const out = new Map<string, string>();
  if (!tables(db).has("agent_session") || !columns(db, "agent_session").has("accessible_paths")) {
    return out;
  }
  for (const r of db.prepare("SELECT id, accessible_paths FROM agent_session").all() as Row[]) {
    const first = str(arr(decodeArgs(r.accessible_paths))[0]);
    if (typeof r.id === "string" && first) out.set(r.id, first);
  }
  return out;
}

/** The messages on the active branch (root first), or all live ones in time order. */
function activeRows(rows: Row[], active: unknown): Row[] {
  const live = rows.filter((r) => r.deleted == null);
  if (typeof active !== "string") return live;
  const byId = new Map(live.map((r) => [r.id as string, r]));
  const path: Row[] = [];
  const seen = new Set<string>();
  let cur: unknown = active;
  while (typeof cur === "string" && byId.has(cur) && !seen.has(cur)) {
    seen.add(cur);
    const r = byId.get(cur)!;
    path.push(r);
    cur = r.parent_id;
  }
  return path.length ? path.reverse() : live;
}

function topicSession(
  harness: string,
  path: string,
  t: Row,
  rows: Row[],
  accessible: Map<string, string>,
  ctx: ParseCtx,
): Session | undefined {
  const events: Event[] = [];
  let model: string | undefined;
  let project: string | undefined;
  for (const r of activeRows(rows, t.active)) {
    const where = `${path}: message ${String(r.id)}`;
    let data: Obj | undefined;
    try {
      data = obj(typeof r.data === "string" ? JSON.parse(r.data) : r.data);
    } catch (e) {
      ctx.skip("malformed_json", where, (e as Error).message);
      continue;
    }
    if (!data) {
      ctx.skip("bad_shape", where, "data is not an object");
      continue;
    }
    const role = str(r.role);
    if (role === "assistant") model = str(r.model_id) ?? model;
    if (typeof r.agent === "string") project ??= accessible.get(r.agent);
    const time = toMillis(r.created_at);
    const evs = role === "system" ? [] : dataEvents(data, role, project);
    if (!evs) {
      ctx.skip("unknown_record", where, `role ${role ?? "(none)"}`);
      continue;
    }
    if (role === "assistant") withModel(evs, r.model_id);
    for (const e of evs) events.push(time === undefined ? e : { ...e, time });
  }
  if (!events.length) return undefined;
  const s = newSession(harness, String(t.id), path, events, { title: str(t.name), model, project });
  return spanTimes(s, toMillis(t.created_at), toMillis(t.updated_at));
}

/** One message's `data` -> events; undefined for an unknown role. */
function dataEvents(data: Obj, role: string | undefined, base?: string): Event[] | undefined {
  if (role !== "user" && role !== "assistant" && role !== "tool") return undefined;
  const prose = role === "user" ? "user" : "assistant";
  const out: Event[] = [];
  const text = (t: unknown) => {
    const s = str(t)?.trim();
    if (s) out.push(role === "tool" ? toolText(s) : { kind: prose, text: s });
  };
  for (const b of arr(data.parts).map(obj)) {
    const type = str(b?.type) ?? "";
    if (type === "text") text(b!.text);
    else if (type === "dynamic-tool" || type.startsWith("tool-")) {
      const name = type === "dynamic-tool" ? str(b!.toolName) ?? "unknown" : type.slice(5);
      const output = b!.output ?? b!.errorText;
      out.push(...toolEvents(name, str(b!.toolCallId), b!.input, output, !!b!.errorText, base));
    }
  }
  for (const b of arr(data.blocks).map(obj)) {
    const type = str(b?.type);
    if (type === "main_text") text(b!.content);
    else if (type === "compact") {
      const s = str(b!.content)?.trim();
      if (s) out.push({ kind: "summary", text: s });
    } else if (type === "tool") {
      const name = str(b!.toolName) ?? "unknown";
      out.push(
        ...toolEvents(name, str(b!.toolId), b!.arguments, b!.content, b!.error != null, base),
      );
    }
  }
  return out;
}

function toolText(text: string): Event {
  return { kind: "tool_result", text, result: { isError: false } };
}

/** A tool call and, when it has output, its result. */
function toolEvents(
  name: string,
  id: string | undefined,
  input: unknown,
  output: unknown,
  isError: boolean,
  base: string | undefined,
): Event[] {
  const out: Event[] = [{
    kind: "tool_call",
    text: "",
    tool: callInfo(name, id, input, KINDS, base),
  }];
  if (output === undefined || output === null) return out;
  const text = typeof output === "string" ? output : JSON.stringify(output);
  const result: Event["result"] = { isError };
  if (id) result.callId = id;
  out.push({ kind: "tool_result", text, result });
  return out;
}
