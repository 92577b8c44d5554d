/**
 * The two Copilot CLI sources besides `events.jsonl`: the `session-store.db`
 * index and the legacy `history-session-state/` files.
 *
 * `session-store.db` (read-only through `openStore`; columns confirmed on
 * realdata/copilot-cli, schema_version 4, and realdata/farm/copilot,
 * schema_version 8, rows in the WAL):
 * - `sessions(id, cwd, repository, host_type, branch, summary, created_at,
 *   updated_at)`; times are ISO strings (`datetime('now')` defaults,
 *   `YYYY-MM-DD HH:MM:SS` UTC, are read too).
 * - `turns(session_id, turn_index, user_message, assistant_response, timestamp)`:
 *   one row per prompt with the final answer only (no tool activity).
 * - `checkpoints(session_id, checkpoint_number, title, overview, history,
 *   work_done, technical_details, important_files, next_steps, created_at)`:
 *   compaction summaries (empty in both real stores; columns from the schema).
 * - `session_files(session_id, file_path, tool_name, turn_index, first_seen_at)`.
 * - `search_index` (FTS5 over the turns' text) repeats `turns`: not read.
 *
 * The store repeats what each session's `events.jsonl` holds, so a session is
 * read from it only when no events file exists for its id (the public store
 * lists 17 sessions, two with events files; two others keep turn text that no
 * file holds any more). Incremental: the watermark is the newest time of any
 * row (epoch ms); a pass yields whole sessions with a newer time.
 *
 * Legacy `history-session-state/session_<uuid>_<ms>.json` (one public file,
 * polusiti/sys, read via the search tool): `{sessionId, startTime,
 * chatMessages[], timeline[]}`; `chatMessages` are chat-completion messages
 * (`role` user / assistant / tool / system, `content`, `tool_calls[].function
 * {name, arguments: JSON string}`, `tool_call_id`) without times; `timeline[]`
 * entries carry `{id, timestamp, type, text}`.
 *
 * @module
 */
import { readStoreText } from "../core/fsread.ts";
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Event, ParseCtx, Session, SourceRef } from "../core/model.ts";
import { columns, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { isRegularFile } from "../core/fs.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, obj, str } from "./_util.ts";
import { at, copilotToolCall, max, min, stripShellTrailer } from "./_copilot_events.ts";

const ID = "copilot";
type Row = Record<string, unknown>;

/** Labels of the checkpoint columns, in the order they are joined into a summary. */
const CHECKPOINT_PARTS: Array<[string, string]> = [
  ["overview", "Overview"],
  ["history", "History"],
  ["work_done", "Work done"],
  ["technical_details", "Technical details"],
  ["important_files", "Important files"],
  ["next_steps", "Next steps"],
];

/**
 * Yields the sessions of a `session-store.db` that have no events file and
 * changed since `ctx.since`, and sets `ctx.endWatermark`.
 *
 * @throws {StoreError} when the store is locked, corrupt or unreadable; a
 *   missing or 0-byte file is counted `empty` instead.
 */
export async function* readSessionStore(
  source: SourceRef,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  ctx.endWatermark = ctx.since;
  const handle = openOrCountEmpty(source.path, ctx);
  if (!handle) return;
  let found: Map<string, { row: Row; events: Event[]; changed: number }>;
  try {
    const db = handle.db;
    const sc = columns(db, "sessions");
    const tc = columns(db, "turns");
    if (!sc.has("id") || !tc.has("session_id") || !tc.has("user_message")) {
      return ctx.skip("unknown_schema", source.path, "no sessions(id) / turns(session_id)");
    }
    const pick = (set: Set<string>, col: string) => (set.has(col) ? col : "NULL");
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    found = new Map();
    for (
      const row of all(
        `SELECT id, ${pick(sc, "cwd")} AS cwd, ${pick(sc, "summary")} AS summary,
          ${pick(sc, "created_at")} AS created_at, ${pick(sc, "updated_at")} AS updated_at
         FROM sessions ORDER BY created_at, id`,
      )
    ) {
      if (typeof row.id !== "string" || row.id === "") continue;
      const changed = Math.max(toMillis(row.updated_at) ?? 0, toMillis(row.created_at) ?? 0);
      found.set(row.id, { row, events: [], changed });
    }
    const add = (sid: unknown, ev: Event) => {
      const slot = typeof sid === "string" ? found.get(sid) : undefined;
      if (!slot) return;
      slot.events.push(ev);
      if (ev.time !== undefined && ev.time > slot.changed) slot.changed = ev.time;
    };
    for (
      const r of all(
        `SELECT session_id, user_message, ${pick(tc, "assistant_response")} AS answer,
          ${pick(tc, "timestamp")} AS ts FROM turns ORDER BY session_id, ${
          pick(tc, "turn_index")
        }, rowid`,
      )
    ) {
      const time = toMillis(r.ts);
      const user = typeof r.user_message === "string" ? r.user_message.trim() : "";
      const answer = typeof r.answer === "string" ? r.answer.trim() : "";
      if (user) add(r.session_id, { kind: "user", text: user, ...at(time) });
      if (answer) add(r.session_id, { kind: "assistant", text: answer, ...at(time) });
    }
    const t = tables(db);
    if (t.has("session_files") && columns(db, "session_files").has("file_path")) {
      const fc = columns(db, "session_files");
      for (
        const r of all(
          `SELECT session_id, file_path, ${pick(fc, "tool_name")} AS tool,
            ${pick(fc, "first_seen_at")} AS ts FROM session_files ORDER BY rowid`,
        )
      ) {
        if (typeof r.file_path !== "string" || r.file_path === "") continue;
        const name = str(r.tool) ?? "file";
        add(r.session_id, {
          kind: "tool_call",
          text: "",
          ...at(toMillis(r.ts)),
          tool: { name, paths: [r.file_path] },
        });
      }
    }
    if (t.has("checkpoints")) {
      const cc = columns(db, "checkpoints");
      const cols = ["title", ...CHECKPOINT_PARTS.map(([c]) => c)].map((c) =>
        `${pick(cc, c)} AS ${c}`
      );
      for (
        const r of all(
          `SELECT session_id, ${cols.join(", ")}, ${pick(cc, "created_at")} AS ts
           FROM checkpoints ORDER BY session_id, ${pick(cc, "checkpoint_number")}, rowid`,
        )
      ) {
        const text = checkpointText(r);
        if (text) add(r.session_id, { kind: "summary", text, ...at(toMillis(r.ts)) });
      }
    }
  } finally {
    handle.close();
  }
  const root = source.hint?.root ?? dirname(source.path);
  const legacy = await legacyIds(root);
  let mark = ctx.since;
  for (const [id, slot] of found) {
    mark = Math.max(mark, slot.changed);
    if (slot.changed <= ctx.since || slot.events.length === 0 || legacy.has(id)) continue;
    if (await isRegularFile(join(root, "session-state", id, "events.jsonl"))) continue;
    const { row } = slot;
    const events = slot.events.map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.time ?? 0) - (b.e.time ?? 0) || a.i - b.i).map((x) => x.e);
    const times = events.map((e) => e.time).filter((x): x is number => x !== undefined);
    const started = min(toMillis(row.created_at), ...times);
    const updated = max(toMillis(row.updated_at), ...times);
    yield {
      harness: ID,
      id,
      ...(str(row.cwd) ? { project: str(row.cwd) } : {}),
      ...(str(row.summary) ? { title: str(row.summary) } : {}),
      ...(started !== undefined ? { started } : {}),
      ...(updated !== undefined ? { updated } : {}),
      path: source.path,
      events,
    };
  }
  ctx.endWatermark = mark;
}

function checkpointText(r: Row): string {
  const parts: string[] = [];
  const title = str(r.title)?.trim();
  if (title) parts.push(title);
  for (const [col, label] of CHECKPOINT_PARTS) {
    const v = str(r[col])?.trim();
    if (v) parts.push(`${label}:\n${v}`);
  }
  return parts.join("\n\n");
}

/** Session ids that have a legacy history file under `root`. */
async function legacyIds(root: string): Promise<Set<string>> {
  const ids = new Set<string>();
  try {
    for (const name of await readdir(join(root, "history-session-state"))) {
      const m = /^session_([0-9a-f-]{36})_\d+\.json$/i.exec(name);
      if (m) ids.add(m[1]);
    }
  } catch { /* no legacy folder */ }
  return ids;
}

/** Harness-injected blocks inside legacy user messages. */
const INJECTED_BLOCKS = /<(reminder|current_datetime|system_reminder)>[\s\S]*?<\/\1>/g;

/**
 * One legacy `history-session-state/session_<uuid>_<ms>.json` file, read
 * whole. User turns lose the `<reminder>` block the CLI appended; system
 * messages are dropped; `tool_calls` and `tool` messages become tool calls
 * and results. Messages carry no time: a user message takes the time of the
 * `timeline` entry of type `user` with the same text (in order), and every
 * other message the time of the user turn before it.
 *
 * @throws the file-system error when the file cannot be read at all.
 */
export async function* parseLegacyHistory(
  source: SourceRef,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const path = source.path;
  let raw: string;
  try {
    raw = await readStoreText(path, ctx);
  } catch (e) {
    if ((e as { code?: string }).code === "EFBIG") return ctx.skip("oversized", path);
    throw e;
  }
  if (raw.trim() === "") return ctx.skip("empty", path);
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (e) {
    return ctx.skip("malformed_json", path, (e as Error).message);
  }
  const o = obj(doc);
  if (!o || !Array.isArray(o.chatMessages)) return ctx.skip("unknown_record", path);
  const name = /^session_([0-9a-f-]{36})_(\d+)\.json$/i.exec(basename(path));
  const id = str(o.sessionId) ?? name?.[1] ?? basename(path, ".json");
  const started = toMillis(o.startTime) ?? toMillis(Number(name?.[2]));
  const timeline = arr(o.timeline).map(obj).filter((x) => x !== undefined);
  const userTimes = timeline.filter((t) => t.type === "user")
    .map((t) => ({ text: (str(t.text) ?? "").trim(), time: toMillis(t.timestamp) }));
  const events: Event[] = [];
  let time = started;
  for (const m of o.chatMessages.map(obj)) {
    if (!m) continue;
    const role = str(m.role);
    const text = blockText(m.content).trim();
    if (role === "user") {
      const clean = text.replace(INJECTED_BLOCKS, "").trim();
      if (!clean) continue;
      const hit = userTimes.findIndex((u) => u.text !== "" && clean.startsWith(u.text));
      if (hit >= 0) {
        time = userTimes[hit].time ?? time;
        userTimes.splice(0, hit + 1);
      }
      events.push({ kind: "user", text: clean, ...at(time) });
    } else if (role === "assistant") {
      if (text) events.push({ kind: "assistant", text, ...at(time) });
      for (const c of arr(m.tool_calls).map(obj)) {
        const fn = obj(c?.function);
        const tool = copilotToolCall(str(fn?.name) ?? "unknown", fn?.arguments, undefined);
        const callId = str(c?.id);
        if (callId) tool.id = callId;
        events.push({ kind: "tool_call", text: "", ...at(time), tool });
      }
    } else if (role === "tool") {
      const out = stripShellTrailer(text);
      const callId = str(m.tool_call_id);
      events.push({
        kind: "tool_result",
        text: out.text.trimEnd(),
        ...at(time),
        result: {
          ...(callId ? { callId } : {}),
          ...(out.exit !== undefined ? { exit: out.exit } : {}),
          isError: out.exit !== undefined && out.exit !== 0,
        },
      });
    }
    // system (and any other role) is harness-authored: dropped.
  }
  if (events.length === 0) return;
  const updated = max(started, ...timeline.map((t) => toMillis(t.timestamp)));
  yield {
    harness: ID,
    id,
    ...(started !== undefined ? { started } : {}),
    ...(updated !== undefined ? { updated } : {}),
    path,
    events,
  };
}
