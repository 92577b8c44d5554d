/**
 * Reading an opencode-schema SQLite store (opencode's `opencode.db`, and forks
 * that keep its schema, such as the Kilo CLI's `kilo.db`), read-only.
 *
 * Tables read (columns confirmed on realdata/opencode, 1.17.3-aiand.1, and
 * realdata/farm/opencode, 1.18.33):
 * - `session(id, directory, title, parent_id, time_created, time_updated, model, ...)`
 * - `message(id, session_id, time_created, time_updated, data JSON)`
 * - `part(id, message_id, session_id, time_created, time_updated, data JSON)`
 *
 * Times are epoch milliseconds. The generation is detected by columns: the
 * required ones are `session.id`, `session.time_updated`, `message.id`,
 * `message.session_id`, `message.data`, `part.id`, `part.message_id`,
 * `part.data`; anything else is optional. A store without them is counted as
 * `unknown_schema` and yields nothing. The `event` table (an event-sourced
 * copy of the same rows) is not read; rows in the `session_message` table (the
 * next session engine, empty in both real stores) are counted `unsupported`
 * and noted as `content` drift; a column not in {@link KNOWN} is noted as drift
 * too, and the latest `session.version` is the version the store names.
 *
 * Incremental: the watermark is the store's own `max(session.time_updated)`;
 * a pass yields every whole session with `time_updated >= ctx.since`.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { readdir } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { Env, ParseCtx, Session } from "../core/model.ts";
import { isDir, isRegularFile, type Unreadable } from "../core/fs.ts";
import { NotRegularFileError } from "../core/fsread.ts";
import {
  columns,
  heldIds,
  noteUnknownColumns,
  openOrCountEmpty,
  tables,
} from "../core/sqlite_read.ts";
import { jsonColumn } from "./_json_doc.ts";
import { toMillis } from "./_time.ts";
import { obj, str } from "./_util.ts";
import { buildSession, type OcMessage, type OcPart } from "./_opencode_events.ts";

const REQUIRED: Record<string, string[]> = {
  session: ["id", "time_updated"],
  message: ["id", "session_id", "data"],
  part: ["id", "message_id", "data"],
};

type Row = Record<string, unknown>;

/**
 * Columns known per table (opencode 1.17.3 and 1.18.33, Kilo CLI 7.7.7 in
 * realdata; ZCode's `session.task_type`, docs/registry/zcode.md). Any other is noted
 * as drift: `session_metadata` for `session`, `content` for `message` and `part`.
 */
const KNOWN: Record<string, { kind: "session_metadata" | "content"; columns: Set<string> }> = {
  session: {
    kind: "session_metadata",
    columns: new Set([
      "id",
      "project_id",
      "workspace_id",
      "parent_id",
      "slug",
      "directory",
      "path",
      "title",
      "version",
      "share_url",
      "summary_additions",
      "summary_deletions",
      "summary_files",
      "summary_diffs",
      "metadata",
      "cost",
      "tokens_input",
      "tokens_output",
      "tokens_reasoning",
      "tokens_cache_read",
      "tokens_cache_write",
      "revert",
      "permission",
      "agent",
      "model",
      "time_created",
      "time_updated",
      "time_compacting",
      "time_archived",
      "task_type",
    ]),
  },
  message: {
    kind: "content",
    columns: new Set(["id", "session_id", "time_created", "time_updated", "data"]),
  },
  part: {
    kind: "content",
    columns: new Set(["id", "message_id", "session_id", "time_created", "time_updated", "data"]),
  },
};

/**
 * Reports what the store says about its format: the harness version of the
 * latest session (`session.version`) and every column not in {@link KNOWN}.
 */
function noteFormat(db: DatabaseSync, path: string, session: Set<string>, ctx: ParseCtx): void {
  if (session.has("version")) {
    const r = db.prepare("SELECT version FROM session ORDER BY time_updated DESC LIMIT 1").get() as
      | { version: unknown }
      | undefined;
    if (typeof r?.version === "string" && r.version) ctx.version?.(r.version);
  }
  for (const [table, k] of Object.entries(KNOWN)) {
    noteUnknownColumns(db, ctx, path, table, k.columns, k.kind);
  }
}

/**
 * The database files of an opencode-schema data dir: `<app>.db` and channel
 * builds' `<app>-<channel>.db`, sorted; or only the file the variable
 * `envVar` names (absolute, or relative to `root`), when set. opencode uses
 * `opencode` / `OPENCODE_DB` (its `storage/db.ts`); the Kilo CLI `kilo` /
 * `KILO_DB` (docs/registry/kilocode.md). One of those names that is a FIFO, socket or
 * device is handed to `problem`.
 */
export async function opencodeDatabases(
  env: Env,
  root: string,
  app: string,
  envVar: string,
  problem?: Unreadable,
): Promise<string[]> {
  const named = env.get(envVar);
  if (named) {
    if (named === ":memory:") return [];
    const path = isAbsolute(named) ? named : join(root, named);
    if (await isRegularFile(path, problem)) return [path];
    if (await isDir(path)) problem?.(path, new NotRegularFileError(path, "directory"));
    return [];
  }
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const pattern = new RegExp(`^${app}(-[A-Za-z0-9._-]+)?\\.db$`);
  const out: string[] = [];
  for (const name of names.sort()) {
    if (!pattern.test(name)) continue;
    const path = join(root, name);
    if (await isRegularFile(path, problem)) out.push(path);
    // A folder by the database's name holds no store: said, not passed over as if absent
    // (trial 29: an opencode.db that was a directory gave "up to date").
    else if (await isDir(path)) problem?.(path, new NotRegularFileError(path, "directory"));
  }
  return out;
}

/**
 * Yields every session of the store at `path` changed since `ctx.since`, each
 * whole, and sets `ctx.endWatermark`.
 *
 * @param harness harness id for the sessions (`opencode`, `kilocode`, ...).
 * @throws {StoreError} when the store cannot be opened (`locked`, `corrupt`,
 *   `unreadable`); a missing or 0-byte file is counted `empty` instead.
 */
export async function* readOpencodeDb(
  harness: string,
  path: string,
  ctx: ParseCtx,
): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    const cols = schemaOf(db);
    if (!cols) {
      ctx.skip("unknown_schema", path, describeMissing(db));
      ctx.endWatermark = ctx.since;
      return;
    }
    noteFormat(db, path, cols.session, ctx);
    if (
      tables(db).has("session_message") && db.prepare("SELECT 1 FROM session_message LIMIT 1").get()
    ) {
      ctx.drift?.("content", `${path}: session_message`, "rows in table session_message");
      ctx.skip(
        "unsupported",
        `${path}: session_message`,
        "rows of the newer session engine are not read",
      );
    }
    const pick = (set: Set<string>, col: string) => (set.has(col) ? col : "NULL");
    const s = cols.session;
    // A store put back from an older copy (its newest session older than the watermark) is
    // read whole, and a session the index does not hold from it whatever its time (trial 89
    // F2: what the copy holds that the index lost stayed lost).
    const newest = Number(
      (db.prepare("SELECT max(time_updated) AS t FROM session").get() as { t: unknown })?.t,
    );
    const since = Number.isFinite(newest) && newest < ctx.since ? 0 : ctx.since;
    const held = since > 0 && ctx.held ? JSON.stringify([...ctx.held]) : null;
    const sessions = db.prepare(
      `SELECT id, ${pick(s, "directory")} AS directory, ${pick(s, "title")} AS title,
              ${pick(s, "parent_id")} AS parent_id, ${pick(s, "time_created")} AS time_created,
              time_updated, ${pick(s, "model")} AS model
         FROM session
        WHERE time_updated >= ? OR (? IS NOT NULL AND id NOT IN (SELECT value FROM json_each(?)))
        ORDER BY time_updated, id`,
    ).all(since, held, held) as Row[];
    const messagesOf = db.prepare(
      `SELECT id, ${pick(cols.message, "time_created")} AS time_created, data
         FROM message WHERE session_id = ? ORDER BY time_created, id`,
    );
    const partsOf = db.prepare(
      `SELECT id, ${pick(cols.part, "time_created")} AS time_created, data
         FROM part WHERE message_id = ? ORDER BY id`,
    );
    let watermark = since;
    for (const row of sessions) {
      const id = text(row.id);
      if (!id) {
        ctx.skip("bad_shape", `${path}: session`, "row without id");
        continue;
      }
      const updatedRaw = Number(row.time_updated);
      if (Number.isFinite(updatedRaw) && updatedRaw > watermark) watermark = updatedRaw;
      const messages: OcMessage[] = [];
      for (const m of messagesOf.all(id) as Row[]) {
        const data = jsonColumn(m.data, `message ${text(m.id)}`, ctx);
        if (!data) continue;
        const msgId = text(m.id) ?? "";
        const parts: OcPart[] = [];
        for (const p of partsOf.all(msgId) as Row[]) {
          const pd = jsonColumn(p.data, `part ${text(p.id)}`, ctx);
          if (pd) parts.push({ id: text(p.id) ?? "", data: pd, time: toMillis(p.time_created) });
        }
        messages.push({ id: msgId, data, time: toMillis(m.time_created), parts });
      }
      // Whole: of two channel databases holding the session, the copy updated last stays.
      yield {
        ...buildSession(
          harness,
          path,
          {
            id,
            directory: text(row.directory),
            title: text(row.title),
            parentId: text(row.parent_id),
            created: toMillis(row.time_created),
            updated: toMillis(row.time_updated),
            model: modelOf(row.model),
          },
          messages,
          ctx,
        ),
        whole: true,
      };
    }
    // Never past now (trial 91 F2: one session stamped in the future hid every later change of
    // the others): that one is read again each time instead.
    ctx.endWatermark = Math.min(watermark, Date.now());
    // The sessions held now: those opencode deleted since the last read go.
    ctx.endHolds = heldIds(db, "session");
  } finally {
    handle.close();
  }
}

/** Column sets of the three tables, or undefined when a required column is missing. */
function schemaOf(db: DatabaseSync): Record<string, Set<string>> | undefined {
  const out: Record<string, Set<string>> = {};
  for (const [table, need] of Object.entries(REQUIRED)) {
    const have = columns(db, table);
    if (!need.every((c) => have.has(c))) return undefined;
    out[table] = have;
  }
  return out;
}

function describeMissing(db: DatabaseSync): string {
  const missing: string[] = [];
  for (const [table, need] of Object.entries(REQUIRED)) {
    const have = columns(db, table);
    for (const c of need) if (!have.has(c)) missing.push(`${table}.${c}`);
  }
  return `missing ${missing.join(", ")}`;
}

/** `session.model` holds JSON `{"id":"…","providerID":"…"}` (1.17+); older rows have no column. */
function modelOf(v: unknown): string | undefined {
  const s = text(v);
  if (!s) return undefined;
  try {
    return str(obj(JSON.parse(s))?.id);
  } catch {
    return s;
  }
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}
