/**
 * Goose (block/goose): the SQLite session store and the legacy JSONL files.
 *
 * Layout, under the data dir `${DEJA_GOOSE_ROOT}`, else `$GOOSE_PATH_ROOT/data`,
 * else `%APPDATA%\Block\goose\data` (Windows), else
 * `${XDG_DATA_HOME:-~/.local/share}/goose` (docs/registry/goose.md, Store and files):
 * - `sessions/sessions.db` (+ `-wal`): Goose 1.10 and later. Tables
 *   `sessions(id, name, description, user_set_name, session_type,
 *   working_dir, created_at, updated_at, ...)` and `messages(id, session_id,
 *   role, content_json, created_timestamp, timestamp, metadata_json, ...)`
 *   with `schema_version` 5 (realdata/goose; block/goose
 *   `session_manager.rs`, search tool). Newer builds add `message_id`,
 *   `model_config_json`, `parent_session_id` (other readers' fixtures).
 *   Required: `sessions.id`, `messages.session_id`, `role`, `content_json`;
 *   the rest is read when present. A store without them is `unknown_schema`.
 * - `sessions/<id>.jsonl`: sessions of Goose before 1.10, rewritten whole on
 *   each save (a `document` source). Line 1 is metadata without `role`
 *   (`working_dir`, `description`, ...); the others are messages `{id, role,
 *   created (epoch s), content}`. Goose copies these into the database the
 *   first time it creates it and leaves the files, so a file whose id is in
 *   the database is not listed.
 *
 * Mapping: see `_goose_content.ts`. Session id is `sessions.id` (legacy: the
 * file stem); title `name`, else `description`; project `working_dir`;
 * model `model_config_json.model_name`; parent `parent_session_id`.
 * `session_type` `hidden` sessions are skipped silently; `user`,
 * `scheduled` and `sub_agent` are read. A session without any message yields
 * nothing and counts nothing (the real store has one such session).
 *
 * Units: `sessions.created_at`/`updated_at` are `YYYY-MM-DD HH:MM:SS` UTC
 * (SQLite `CURRENT_TIMESTAMP`, realdata/goose) or RFC 3339; message
 * `created_timestamp` is Unix **seconds**. The watermark is the newest of a
 * session's `updated_at` and message times, in **ms**, computed in code (the
 * two text forms do not compare as strings); a later pass re-reads, whole,
 * every session active at or after it.
 *
 * @module
 */
import { basename, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { listFiles, statRegular } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { rootFrom } from "../core/paths.ts";
import {
  colOrNull,
  columns,
  heldIds,
  openOrCountEmpty,
  openSalvaged,
  tables,
} from "../core/sqlite_read.ts";
import { allRows } from "../core/sqlite_rows.ts";
import { toMillis } from "./_time.ts";
import { decodeArgs, obj, str } from "./_util.ts";
import { gooseEvents, type GooseMessage } from "./_goose_content.ts";

const ID = "goose";

/** The Goose data directory. */
export function gooseRoot(env: Env): string {
  const vars: Array<[string, string]> = [["GOOSE_PATH_ROOT", "data"]];
  if (env.platform === "win32") vars.push(["APPDATA", join("Block", "goose", "data")]);
  else vars.push(["XDG_DATA_HOME", "goose"]);
  return rootFrom(env, ID, vars, "~/.local/share/goose");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = gooseRoot(env);
  const dir = join(root, "sessions");
  const db = join(dir, "sessions.db");
  const sources: SourceRef[] = [];
  const known = new Set<string>();
  if (await statRegular(db, problem)) {
    sources.push({ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`] });
    for (const id of sessionIds(db, env)) known.add(id);
  }
  const files = await listFiles(dir, {
    match: (_p, n) => n.endsWith(".jsonl"),
    maxDepth: 0,
    onError: problem,
  });
  for (const path of files) {
    if (!known.has(basename(path, ".jsonl"))) sources.push({ harness: ID, path, kind: "document" });
  }
  return { roots: [root], sources };
}

/** Session ids already in the database; empty on any failure (its own parse reports it). */
function sessionIds(path: string, env: Env): string[] {
  let handle;
  try {
    handle = openSalvaged(path, { env, skip: () => {} });
    return (handle.db.prepare("SELECT id FROM sessions").all() as Array<{ id: unknown }>)
      .flatMap((r) => (typeof r.id === "string" ? [r.id] : []));
  } catch {
    return [];
  } finally {
    handle?.close();
  }
}

function parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
  return source.kind === "sqlite" ? readDb(source.path, ctx) : readLegacy(source.path, ctx);
}

interface SessionRow {
  id: unknown;
  name: string | null;
  description: string | null;
  working_dir: string | null;
  created_at: unknown;
  updated_at: unknown;
  session_type: string | null;
  model_config_json: string | null;
  parent_session_id: string | null;
}

interface MessageRow {
  id: number;
  role: string;
  content_json: string;
  created_timestamp: unknown;
  metadata_json: string | null;
}

function schemaProblem(db: DatabaseSync): string | undefined {
  const t = tables(db);
  if (!t.has("sessions") || !t.has("messages")) return "no sessions/messages tables";
  if (!columns(db, "sessions").has("id")) return "sessions.id missing";
  const m = columns(db, "messages");
  const missing = ["session_id", "role", "content_json"].filter((c) => !m.has(c));
  return missing.length ? `messages lacks ${missing.join(", ")}` : undefined;
}

async function* readDb(path: string, ctx: ParseCtx): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    const problem = schemaProblem(db);
    if (problem) {
      ctx.skip("unknown_schema", path, problem);
      ctx.endWatermark = ctx.since;
      return;
    }
    const s = columns(db, "sessions");
    const m = columns(db, "messages");
    const cols = [
      "name",
      "description",
      "working_dir",
      "created_at",
      "updated_at",
      "session_type",
      "model_config_json",
      "parent_session_id",
    ].map((c) => colOrNull(s, c)).join(", ");
    const sessions = allRows<SessionRow>(
      db.prepare(`SELECT id, ${cols} FROM sessions ORDER BY rowid`),
    );
    const time = colOrNull(m, "created_timestamp");
    const lastMsg = new Map(
      (db.prepare(
        `SELECT session_id AS id, max(${
          m.has("created_timestamp") ? "created_timestamp" : "NULL"
        }) AS t
        FROM messages GROUP BY session_id`,
      ).all() as Array<{ id: unknown; t: unknown }>)
        .map((r) => [String(r.id), toMillis(r.t) ?? 0]),
    );
    const rows = db.prepare(
      `SELECT id, role, content_json, ${time}, ${colOrNull(m, "metadata_json")} FROM messages
        WHERE session_id = ? ORDER BY ${m.has("created_timestamp") ? "created_timestamp, " : ""}id`,
    );
    let top = ctx.since;
    for (const row of sessions) {
      if (typeof row.id !== "string" || row.session_type === "hidden") continue;
      const last = Math.max(toMillis(row.updated_at) ?? 0, lastMsg.get(row.id) ?? 0);
      top = Math.max(top, last);
      if (ctx.since > 0 && last < ctx.since) continue;
      const project = str(row.working_dir);
      const events = (allRows<MessageRow>(rows, row.id)).flatMap((r) => {
        const key = `m${r.id}`;
        const content = contentOf(r.content_json, key, ctx);
        if (content === undefined) return [];
        const meta = obj(decodeArgs(r.metadata_json ?? ""));
        const msg: GooseMessage = {
          key,
          role: r.role,
          content,
          time: toMillis(r.created_timestamp),
          userVisible: meta?.userVisible !== false,
        };
        return gooseEvents(msg, project, ctx.skip.bind(ctx));
      });
      // Said, not dropped silently: a store whose one session is empty read as "0 sessions"
      // with no reason (a user trial on the real store).
      if (!events.length) {
        const why = lastMsg.has(row.id) ? "no message with text" : "no messages";
        ctx.skip("not_session", `${path}@${row.id}`, why);
        continue;
      }
      yield {
        harness: ID,
        id: row.id,
        project,
        title: str(row.name) ?? str(row.description),
        started: toMillis(row.created_at),
        updated: last || undefined,
        model: str(obj(decodeArgs(row.model_config_json ?? ""))?.model_name),
        parent: str(row.parent_session_id),
        path,
        events,
      };
    }
    ctx.endWatermark = top;
    // The sessions held now: those goose deleted since the last read go.
    ctx.endHolds = heldIds(db, "sessions");
  } finally {
    handle.close();
  }
}

/**
 * The block list of a `content_json` cell: parsed JSON, or the raw text when
 * it is not JSON at all (plain text). A cell that looks like JSON but does not
 * parse is counted and yields undefined.
 */
function contentOf(raw: unknown, where: string, ctx: ParseCtx): unknown {
  if (typeof raw !== "string") {
    ctx.skip("bad_shape", where, "content_json is not text");
    return undefined;
  }
  try {
    return JSON.parse(raw);
  } catch (e) {
    if (!/^\s*[[{"]/.test(raw)) return raw;
    ctx.skip("malformed_json", where, (e as Error).message);
    return undefined;
  }
}

async function* readLegacy(path: string, ctx: ParseCtx): AsyncGenerator<Session> {
  const id = basename(path, ".jsonl");
  let project: string | undefined;
  let title: string | undefined;
  let first = true;
  const events = [];
  for await (const line of readJsonl(path, ctx)) {
    const rec = obj(line.value);
    const where = `${path}@${line.start}`;
    const isFirst = first;
    first = false;
    if (!rec) {
      ctx.skip("bad_shape", where, "not a JSON object");
      continue;
    }
    if (typeof rec.role !== "string") {
      if (isFirst && ("working_dir" in rec || "description" in rec || "message_count" in rec)) {
        project = str(rec.working_dir);
        title = str(rec.description);
      } else ctx.skip("unknown_record", where, "line without a role");
      continue;
    }
    events.push(...gooseEvents(
      {
        key: `@${line.start}`,
        role: rec.role,
        content: rec.content,
        time: toMillis(rec.created ?? rec.timestamp),
        userVisible: obj(rec.metadata)?.userVisible !== false,
      },
      project,
      ctx.skip.bind(ctx),
    ));
  }
  if (first) ctx.skip("empty", path);
  if (!events.length) return;
  const times = events.map((e) => e.time).filter((t): t is number => t !== undefined);
  yield {
    harness: ID,
    id,
    project,
    title,
    started: times.length ? times.reduce((a, b) => Math.min(a, b)) : undefined,
    updated: times.length ? times.reduce((a, b) => Math.max(a, b)) : undefined,
    path,
    events,
  };
}

/** The Goose parser: the session database and any legacy JSONL sessions beside it. */
export const goose: Parser = { id: ID, discover, parse };
