/**
 * `grok.db`, the SQLite store of the maintained `grok` CLI from
 * superagent-ai/grok-cli (1.x, Bun/OpenTUI), which shares `~/.grok` with Grok
 * Build. Private to `parsers/grok.ts`.
 *
 * Schema (superagent-ai/grok-cli `src/storage/migrations.ts`, `user_version`
 * 1-3, read via the search tool): `workspaces(id, canonical_path, ...)`,
 * `sessions(id, workspace_id, title, model, cwd_at_start, cwd_last,
 * created_at, updated_at, ...)`, `messages(session_id, seq, role,
 * message_json, created_at)`, `compactions(session_id, first_kept_seq,
 * summary, created_at)`. Times are ISO 8601 text (`new Date().toISOString()`).
 * `message_json` is one AI SDK `ModelMessage` (`src/storage/transcript.ts`):
 * `user` content is a string or `text`/`image`/`file` parts; `assistant`
 * content is a string or `text`/`reasoning`/`tool-call {toolCallId, toolName,
 * input}` parts; `tool` content is `tool-result {toolCallId, toolName,
 * output}` parts, `output` being `{type: "json", value: {success, output,
 * error}}`, `{type: "text"|"error-text", value}`; `system` rows are the
 * harness's own and dropped. Tools (`src/grok/tools.ts`): `bash {command}`,
 * `read_file {path}`, `write_file {path, content}`, `edit_file {path,
 * old_string, new_string}`; paths may be relative to the session cwd.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Event, ParseCtx, Session, SourceRef, ToolCallInfo } from "../core/model.ts";
import { colOrNull, columns, heldIds, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { allRows } from "../core/sqlite_rows.ts";
import { newSession } from "./_session_meta.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, type Obj, obj, str } from "./_util.ts";

interface SessionRow {
  id: unknown;
  title: unknown;
  model: unknown;
  cwd: unknown;
  workspace: unknown;
  created_at: unknown;
  updated_at: unknown;
}

interface MessageRow {
  seq: number;
  role: string;
  message_json: string;
  created_at: unknown;
}

/** Sessions of `grok.db` updated at or after `ctx.since` (epoch ms); watermark = newest `updated_at`. */
export async function* parseGrokDb(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const store = openOrCountEmpty(source.path, ctx);
  if (!store) return;
  try {
    const db = store.db;
    const t = tables(db);
    const s = columns(db, "sessions");
    const m = columns(db, "messages");
    const need = ["session_id", "seq", "role", "message_json"];
    if (!t.has("sessions") || !s.has("id") || need.some((c) => !m.has(c))) {
      ctx.skip(
        "unknown_schema",
        source.path,
        "no sessions(id) / messages(session_id, seq, role, message_json)",
      );
      ctx.endWatermark = ctx.since;
      return;
    }
    const w = t.has("workspaces") && s.has("workspace_id")
      ? columns(db, "workspaces")
      : new Set<string>();
    const join = w.has("canonical_path") ? " LEFT JOIN workspaces w ON w.id = s.workspace_id" : "";
    const rows = allRows<SessionRow>(db.prepare(
      `SELECT s.id AS id, ${colOrNull(s, "title")}, ${colOrNull(s, "model")}, ` +
        `COALESCE(${s.has("cwd_last") ? "s.cwd_last" : "NULL"}, ${
          s.has("cwd_at_start") ? "s.cwd_at_start" : "NULL"
        }) AS cwd, ${join ? "w.canonical_path" : "NULL"} AS workspace, ` +
        `${colOrNull(s, "created_at")}, ${colOrNull(s, "updated_at")} ` +
        `FROM sessions s${join} ORDER BY s.rowid`,
    ));
    const msgs = db.prepare(
      `SELECT seq, role, CAST(message_json AS TEXT) AS message_json, ${
        colOrNull(m, "created_at")
      } ` +
        `FROM messages WHERE session_id = ? ORDER BY seq`,
    );
    const comp = compactionQuery(db, t);
    let watermark = ctx.since;
    for (const row of rows) {
      const id = str(row.id);
      if (!id) continue;
      const updated = toMillis(row.updated_at) ?? toMillis(row.created_at);
      if (updated !== undefined) watermark = Math.max(watermark, updated);
      // Compared as epoch ms, not as text: ISO strings of other shapes sort wrong.
      if (ctx.since > 0 && updated !== undefined && updated < ctx.since) continue;
      const cwd = str(row.cwd) ?? str(row.workspace);
      const events = messageEvents(allRows<MessageRow>(msgs, id), cwd, source, ctx);
      if (comp) {
        addSummaries(events, comp.all(id) as Array<{ summary: unknown; created_at: unknown }>);
      }
      yield newSession("grok", id, source.path, events, {
        project: cwd,
        title: str(row.title),
        model: str(row.model),
        started: toMillis(row.created_at),
        updated,
      });
    }
    ctx.endWatermark = watermark;
    // The sessions held now: those deleted since the last read go.
    ctx.endHolds = heldIds(db, "sessions");
  } finally {
    store.close();
  }
}

function compactionQuery(db: DatabaseSync, t: Set<string>) {
  if (!t.has("compactions")) return undefined;
  const c = columns(db, "compactions");
  if (!c.has("session_id") || !c.has("summary")) return undefined;
  return db.prepare(
    `SELECT summary, ${
      colOrNull(c, "created_at")
    } FROM compactions WHERE session_id = ? ORDER BY rowid`,
  );
}

/** Puts each compaction summary before the first event later than it. */
function addSummaries(
  events: Event[],
  rows: Array<{ summary: unknown; created_at: unknown }>,
): void {
  for (const r of rows) {
    const text = str(r.summary);
    if (!text) continue;
    const time = toMillis(r.created_at);
    const e: Event = { kind: "summary", text };
    if (time !== undefined) e.time = time;
    const at = time === undefined
      ? -1
      : events.findIndex((x) => x.time !== undefined && x.time > time);
    if (at < 0) events.push(e);
    else events.splice(at, 0, e);
  }
}

function messageEvents(
  rows: MessageRow[],
  cwd: string | undefined,
  source: SourceRef,
  ctx: ParseCtx,
): Event[] {
  const out: Event[] = [];
  for (const r of rows) {
    const where = `${source.path}#${r.seq}`;
    let msg: Obj | undefined;
    try {
      msg = obj(JSON.parse(r.message_json));
    } catch {
      ctx.skip("malformed_json", where, "message_json");
      continue;
    }
    if (!msg) {
      ctx.skip("bad_shape", where, "message_json is not an object");
      continue;
    }
    const time = toMillis(r.created_at);
    const at = (e: Event): Event => (time === undefined ? e : { ...e, time });
    const role = str(msg.role) ?? r.role;
    const content = msg.content;
    if (role === "system") continue;
    if (role === "user") {
      const text = partsText(content);
      if (text) out.push(at({ kind: "user", text, key: `u:${r.seq}` }));
    } else if (role === "assistant") {
      const text = partsText(content);
      if (text) out.push(at({ kind: "assistant", text, key: `a:${r.seq}` }));
      for (const p of arr(content)) {
        const o = obj(p);
        if (o?.type !== "tool-call") continue;
        const tool = callInfo(o, cwd);
        out.push(at({ kind: "tool_call", text: "", key: `call:${tool.id ?? r.seq}`, tool }));
      }
    } else if (role === "tool") {
      for (const p of arr(content)) {
        const o = obj(p);
        if (o?.type !== "tool-result") continue;
        const callId = str(o.toolCallId);
        const { text, isError } = outputOf(o.output ?? o.result);
        const e: Event = { kind: "tool_result", text, result: { isError } };
        if (callId) [e.result!.callId, e.key] = [callId, `res:${callId}`];
        out.push(at(e));
      }
    } else {
      ctx.skip("unknown_record", where, `role ${role}`);
    }
  }
  return out;
}

/** Text parts of a message's content (a string, or `text` parts; others contribute nothing). */
function partsText(content: unknown): string {
  if (typeof content === "string") return content.trim();
  return arr(content).map(obj).filter((o) => o?.type === "text" && typeof o.text === "string")
    .map((o) => o!.text as string).join("").trim();
}

/** superagent-ai/grok-cli's tools by what they do (`src/grok/tools.ts`). */
const KINDS: Record<string, ToolKind> = {
  bash: "shell",
  read_file: "read",
  write_file: "write",
  edit_file: "edit",
};

function callInfo(part: Obj, cwd: string | undefined): ToolCallInfo {
  const name = str(part.toolName) ?? "unknown";
  const info: ToolCallInfo = { name };
  const id = str(part.toolCallId);
  if (id) info.id = id;
  const input = decodeArgs(part.input ?? part.args);
  if (input !== undefined) info.input = input;
  if (KINDS[name]) describeTool(info, KINDS[name], obj(input) ?? {}, cwd);
  return info;
}

/** A tool-result `output` as text and error flag. */
function outputOf(output: unknown): { text: string; isError: boolean } {
  if (typeof output === "string") return { text: output, isError: false };
  const o = obj(output);
  if (!o) return { text: "", isError: false };
  if ("success" in o) {
    const text = str(o.output) ?? str(o.error) ?? "";
    return { text, isError: o.success === false };
  }
  const type = str(o.type) ?? "";
  const isError = type.startsWith("error");
  if (type === "json" || type === "error-json") {
    const v = obj(o.value);
    if (v && "success" in v) {
      const inner = outputOf(v);
      return { text: inner.text, isError: isError || inner.isError };
    }
    return { text: JSON.stringify(o.value ?? null), isError };
  }
  return { text: typeof o.value === "string" ? o.value : "", isError };
}
