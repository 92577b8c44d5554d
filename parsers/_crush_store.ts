/**
 * Private helpers of the Crush parser ({@link ../parsers/crush.ts}): where the
 * registry lives, which optional columns a store has, and reading sessions
 * out of an open store — also used by the Crush hook (lib/hooks/crush_live.ts),
 * which follows one live session by its id. Synchronous and free of
 * `node:fs/promises`, so the hook loads no more than it needs.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Env, Event, ParseCtx, Session } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { columns, tables } from "../core/sqlite_read.ts";
import { allRows, getRow } from "../core/sqlite_rows.ts";
import { toMillis } from "./_time.ts";
import { modelName, obj, str, withModel } from "./_util.ts";
import {
  crushMessageEvents,
  decodeParts,
  joinFragments,
  type MessageRow,
  stripThink,
} from "./_crush_parts.ts";

/**
 * The titles a Crush session carries until its title is generated; one whose generation never ran
 * keeps it (realdata/crush: `New Session` 7 times in crush.db, `Untitled Session` twice in
 * windows-copilot-0812.db). It names nothing, so the session is shown by its first prompt.
 */
const PLACEHOLDER_TITLES = new Set(["New Session", "Untitled Session"]);

/** Directory holding `projects.json`. */
export function crushRoot(env: Env): string {
  const vars: Array<[string, string]> = [["CRUSH_GLOBAL_DATA", ""], ["XDG_DATA_HOME", "crush"]];
  if (env.platform === "win32") vars.push(["LOCALAPPDATA", "crush"]);
  return rootFrom(env, "crush", vars, "~/.local/share/crush");
}

/** Which optional columns this store has. */
export interface Schema {
  s: Set<string>;
  m: Set<string>;
}

/** The optional columns of an open store, or why it is not a Crush store (a sentence). */
export function readSchema(db: DatabaseSync): Schema | string {
  const t = tables(db);
  if (!t.has("sessions") || !t.has("messages")) return "no sessions/messages tables";
  const s = columns(db, "sessions");
  const m = columns(db, "messages");
  if (!s.has("id")) return "sessions.id missing";
  for (const c of ["id", "session_id", "role", "parts"]) {
    if (!m.has(c)) return `messages.${c} missing`;
  }
  return { s, m };
}

/** `col` when the table has it, else `NULL AS col`. */
function pick(have: Set<string>, col: string): string {
  return have.has(col) ? col : `NULL AS ${col}`;
}

/** A `sessions` row as {@link sessionsSql} selects it. */
export interface CrushSessionRow {
  id: string;
  parent_session_id: string | null;
  title: string | null;
  created_at: unknown;
  updated_at: unknown;
  summary_message_id: string | null;
}

/** A `messages` row as {@link messagesSql} selects it (`parts` as a BLOB). */
export interface RawMessage {
  rid: number;
  id: string;
  role: string;
  parts: unknown;
  model: string | null;
  created_at: unknown;
  is_summary_message: number | null;
}

/** SELECT of the session columns the parser reads (missing ones as NULL). */
export function sessionsSql(s: Set<string>): string {
  return `SELECT id, ${pick(s, "parent_session_id")}, ${pick(s, "title")}, ${
    pick(s, "created_at")
  }, ${pick(s, "updated_at")}, ${pick(s, "summary_message_id")} FROM sessions`;
}

/** SELECT of one session's messages in row order (missing columns as NULL). */
export function messagesSql(m: Set<string>): string {
  return `SELECT rowid AS rid, id, role, CAST(parts AS BLOB) AS parts, ${pick(m, "model")}, ${
    pick(m, "created_at")
  }, ${pick(m, "is_summary_message")} FROM messages WHERE session_id = ? ORDER BY rowid`;
}

/**
 * One session of an open Crush store, read the way {@link crush} reads it
 * (for the Crush hook, which follows a live session by its id). Undefined when
 * the store has no such session, the id is a `title-` session, or the schema
 * is not one the parser knows.
 *
 * @param project the project directory the store belongs to (tool paths are joined to it).
 */
export function readCrushSession(
  db: DatabaseSync,
  id: string,
  path: string,
  project: string | undefined,
  skip: ParseCtx["skip"],
): Session | undefined {
  if (id.startsWith("title-")) return undefined;
  const schema = readSchema(db);
  if (typeof schema === "string") return undefined;
  const row = getRow<CrushSessionRow>(db.prepare(sessionsSql(schema.s) + " WHERE id = ?"), id);
  if (!row || typeof row.id !== "string") return undefined;
  const raw = allRows<RawMessage>(db.prepare(messagesSql(schema.m)), id);
  // Without the file history: the hook reads commands and failures, every call (hot path).
  return readSession(row, raw, path, project, skip);
}

/**
 * What a write that left no trace says in place of its empty result ({@link withOverwritten}):
 * the result is there, empty (trial 63: "no result" was untrue of it).
 */
export const NOT_WRITTEN =
  "[an empty result, and Crush's file history holds no version of the file: not written]";

/** The versions Crush kept of each file a session touched, oldest first, by path. */
export type FileHistory = (session: string) => Map<string, string[]>;

/**
 * Reads Crush's file history (its `files` table: `{session_id, path, content, version}`, a
 * version kept before a file's first change and after each; charmbracelet/crush
 * internal/history, observed in realdata's k3s store), or undefined when the store has none.
 */
export function fileHistory(db: DatabaseSync): FileHistory | undefined {
  if (!tables(db).has("files")) return undefined;
  const have = columns(db, "files");
  if (!["session_id", "path", "content", "version"].every((c) => have.has(c))) return undefined;
  const q = db.prepare(
    "SELECT path, CAST(content AS TEXT) AS content FROM files WHERE session_id = ? ORDER BY path, version",
  );
  return (session) => {
    const out = new Map<string, string[]>();
    for (const r of allRows<{ path: unknown; content: unknown }>(q, session)) {
      if (typeof r.path !== "string" || typeof r.content !== "string") continue;
      const list = out.get(r.path) ?? [];
      list.push(r.content);
      out.set(r.path, list);
    }
    return out;
  };
}

/**
 * Gives each write that replaced a file the content it replaced, from Crush's file history:
 * the version before the first later one holding what the write wrote (`ToolResultInfo
 * .overwritten`: what `deja restore` gives back; trial 52: a `write` over a 197-byte
 * kustomization.yaml was "previous content unknown, not restorable"). A file that was new
 * (an empty version before) gets nothing. A write with an empty result whose file the history
 * never kept is marked failed.
 */
function withOverwritten(events: Event[], history: Map<string, string[]>): void {
  const writes = new Map<string, { path: string; content: string }>();
  for (const e of events) {
    const w = e.kind === "tool_call" && e.tool?.id && e.tool.writes?.length === 1
      ? e.tool.writes[0]
      : undefined;
    if (!w) continue;
    // The history keeps the path Crush resolved; a relative argument resolved against another
    // folder (a store read where its project is not) is found by its end.
    const arg = str(obj(e.tool!.input)?.file_path);
    const tail = arg && !/^(?:\/|[A-Za-z]:)/.test(arg) ? `/${arg.replace(/^\.\//, "")}` : undefined;
    const ends = tail && !history.has(w.path)
      ? [...history.keys()].filter((p) => p.endsWith(tail))
      : [];
    writes.set(e.tool!.id!, { path: ends.length === 1 ? ends[0] : w.path, content: w.content });
  }
  const from = new Map<string, number>();
  for (const e of events) {
    const r = e.kind === "tool_result" ? e.result : undefined;
    const w = r?.callId && !r.isError && !r.notRun ? writes.get(r.callId) : undefined;
    const versions = w && history.get(w.path);
    // A write with an empty result whose file the history never kept did not land (trial 51: five
    // writes to `/apps/infra/redis/*.yaml`, at the filesystem's root, answered with nothing;
    // the agent found the directory empty and wrote them again where Crush kept them).
    if (w && !versions && history.size && !e.text.trim()) {
      r!.isError = true;
      e.text = NOT_WRITTEN;
      continue;
    }
    if (!w || !versions) continue;
    const k = versions.indexOf(w.content, from.get(w.path) ?? 1);
    if (k < 1) continue;
    from.set(w.path, k + 1);
    if (versions[k - 1]) r!.overwritten = versions[k - 1];
  }
}

/**
 * One session from its row and its message rows: parts decoded, messages in
 * Crush's order (created_at, rowid breaking ties), tool results matched to
 * their calls, a call streamed in pieces joined back (joinFragments).
 */
export function readSession(
  row: CrushSessionRow,
  raw: RawMessage[],
  path: string,
  project: string | undefined,
  skip: ParseCtx["skip"],
  history?: FileHistory,
): Session {
  const rows: MessageRow[] = [];
  for (const r of raw) {
    const parts = decodeParts(r.parts, r.id, skip);
    if (!parts) continue;
    rows.push({
      id: r.id,
      role: r.role,
      time: toMillis(r.created_at),
      model: str(r.model),
      summary: r.is_summary_message === 1 ||
        (!!row.summary_message_id && r.id === row.summary_message_id),
      parts,
    });
  }
  // Crush lists messages by created_at; rowid breaks ties (same second).
  rows.sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
  const calls = new Map<string, string>();
  const dropped = new Set<string>();
  const joined = new Set<string>();
  for (const r of rows) {
    if (!["user", "assistant", "tool", "system"].includes(r.role)) {
      skip("unknown_record", r.id, `role ${r.role}`);
      r.parts = [];
      continue;
    }
    joinFragments(r, dropped, joined);
    for (const p of r.parts) {
      if (p.type !== "tool_call") continue;
      const d = obj(p.data) ?? {};
      const id = str(d.id);
      const name = str(d.name);
      if (name && id) calls.set(id, name);
    }
  }
  const env = { project, calls, dropped, joined, skip };
  // The model of the last message that holds a reply: one of no parts, or of an error alone,
  // names no model of a reply (trial 79 F8: a session with no reply listed its model).
  let model: string | undefined;
  const events = rows.flatMap((r) => {
    if (r.role !== "assistant") return crushMessageEvents(r, env);
    const evs = withModel(crushMessageEvents(r, env), r.model);
    if (r.model && evs.some((e) => e.kind === "assistant" || e.kind === "tool_call")) {
      model = r.model;
    }
    // A turn that gave no reply but its error names the model that failed (trial 93 F4: the
    // organization error of a gpt-5.2 turn was shown under the session's gpt-5, and `--model
    // gpt-5.2` found nothing): the session's models list it, not its reply model.
    const failed = modelName(r.model);
    if (failed) { for (const e of evs) if (e.kind === "notice" && !e.model) e.model = failed; }
    // A reply message the model left empty (`parts` `[]`): the model was asked and said
    // nothing, which the session's models list (trial 103 F8: `--model gpt-oss` missed a
    // session whose one reply was empty), not its reply model (trial 79 F8).
    if (failed && !evs.length && !r.parts.length) {
      const empty: Event = {
        kind: "notice",
        text: `${failed} gave no reply: its message is empty`,
        time: r.time,
        key: `${r.id}#empty`,
        model: failed,
      };
      return [empty];
    }
    return evs;
  });
  if (history && events.some((e) => e.tool?.writes?.length)) {
    withOverwritten(events, history(row.id));
  }
  const title = typeof row.title === "string" ? stripThink(row.title).replace(/\s+/g, " ") : "";
  return {
    harness: "crush",
    id: row.id,
    project,
    title: PLACEHOLDER_TITLES.has(title) ? undefined : title || undefined,
    started: toMillis(row.created_at),
    updated: toMillis(row.updated_at),
    model,
    parent: str(row.parent_session_id),
    path,
    events,
  };
}
