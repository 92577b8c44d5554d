/**
 * Zed (zed-industries/zed): the agent panel's thread store.
 *
 * Layout: `<data dir>/threads/threads.db` (+ `-wal`), with the data dir
 * `${DEJA_ZED_ROOT}`, else `~/Library/Application Support/Zed` (macOS),
 * `%LOCALAPPDATA%\Zed` (Windows), `${FLATPAK_XDG_DATA_HOME:-${XDG_DATA_HOME:-
 * ~/.local/share}}/zed` (Linux) — docs/registry/zed.md; the `threads` path
 * confirmed in zed `crates/agent/src/db.rs` (`paths::data_dir().join("threads")`).
 *
 * Table `threads(id TEXT PK, summary, updated_at TEXT, data_type, data BLOB)`
 * plus columns added later by ALTER TABLE: `parent_id`, `folder_paths`,
 * `folder_paths_order`, `created_at` (db.rs). Only `id`, `data_type` and
 * `data` are required; a missing optional column reads as NULL; a store
 * without the required ones is counted `unknown_schema`. `data_type` is
 * `zstd` (one zstd frame of JSON, current) or `json` (older rows); any other
 * value is counted `unsupported` and that row skipped. A blob that does not
 * decompress is counted `corrupt`, one that is not JSON `malformed_json`;
 * each costs its own thread only. Document mapping: `_zed_thread.ts`.
 *
 * Session: `id` the row id; title the document's `title`, else its
 * `summary`, else the row's `summary`; `project` the first of the
 * newline-separated `folder_paths` (stored sorted), else the first
 * `initial_project_snapshot.worktree_snapshots[].worktree_path`; `model`
 * `model.model`; `parent` `parent_id`, else `subagent_context.parent_thread_id`.
 * Threads with no event are not yielded.
 *
 * Units: `updated_at` / `created_at` are RFC 3339 with `+00:00` (chrono
 * `to_rfc3339`, db.rs), read with toMillis; `created_at` was back-filled
 * with `updated_at` for older rows. Messages carry no time, so events have
 * none. The watermark is the newest `updated_at` in **ms**, compared in code
 * (never as text: `+00:00` and `Z` forms do not sort together); a row whose
 * time cannot be read is always re-read.
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { statRegular } from "../core/fs.ts";
import { rootFrom } from "../core/paths.ts";
import { colOrNull, columns, openOrCountEmpty } from "../core/sqlite_read.ts";
import { getRow } from "../core/sqlite_rows.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { unzstd } from "./_zstd.ts";
import { threadEvents } from "./_zed_thread.ts";

const ID = "zed";

/** Zed's data directory for this platform. */
export function zedRoot(env: Env): string {
  if (env.platform === "darwin") return rootFrom(env, ID, [], "~/Library/Application Support/Zed");
  if (env.platform === "win32") {
    return rootFrom(env, ID, [["LOCALAPPDATA", "Zed"]], "~/AppData/Local/Zed");
  }
  return rootFrom(
    env,
    ID,
    [["FLATPAK_XDG_DATA_HOME", "zed"], ["XDG_DATA_HOME", "zed"]],
    "~/.local/share/zed",
  );
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = zedRoot(env);
  const db = join(root, "threads", "threads.db");
  const sources: SourceRef[] = (await statRegular(db, problem))
    ? [{ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`] }]
    : [];
  return { roots: [root], sources };
}

interface ThreadRow {
  data_type: unknown;
  data: unknown;
  summary: unknown;
  created_at: unknown;
  parent_id: unknown;
  folder_paths: unknown;
}

/** The JSON document of a row, or undefined after counting why not. */
function decodeRow(row: ThreadRow, where: string, ctx: ParseCtx): Obj | undefined {
  const type = row.data_type ?? "json";
  if (type !== "zstd" && type !== "json" && type !== "") {
    ctx.skip("unsupported", where, `data_type ${String(type)}`);
    return undefined;
  }
  const raw = typeof row.data === "string" ? new TextEncoder().encode(row.data) : row.data;
  if (!(raw instanceof Uint8Array)) {
    ctx.skip("bad_shape", where, "data is neither text nor a blob");
    return undefined;
  }
  let bytes: Uint8Array = raw;
  if (type === "zstd") {
    try {
      const z = unzstd(bytes);
      if (z.torn !== undefined || z.frames === 0) throw new Error("frame cut short");
      bytes = z.data;
    } catch (e) {
      ctx.skip("corrupt", where, `zstd: ${(e as Error).message}`);
      return undefined;
    }
  }
  const { text, repaired } = decodeUtf8(bytes);
  try {
    const doc = obj(JSON.parse(text));
    if (repaired) ctx.skip("invalid_utf8", where, REPAIRED);
    if (!doc) ctx.skip("bad_shape", where, "thread is not a JSON object");
    return doc;
  } catch (e) {
    ctx.skip("malformed_json", where, (e as Error).message);
    return undefined;
  }
}

/** Worktree folders of a thread: the row's `folder_paths`, else the document's snapshot. */
function foldersOf(row: ThreadRow, doc: Obj): string[] {
  const listed = typeof row.folder_paths === "string"
    ? row.folder_paths.split("\n").map((l) => l.trim()).filter(Boolean)
    : [];
  if (listed.length) return listed;
  return arr(obj(doc.initial_project_snapshot)?.worktree_snapshots)
    .flatMap((w) => str(obj(w)?.worktree_path) ?? []);
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(source.path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    const c = columns(db, "threads");
    const missing = ["id", "data_type", "data"].filter((k) => !c.has(k));
    if (missing.length) {
      ctx.skip("unknown_schema", source.path, `threads lacks ${missing.join(", ")}`);
      ctx.endWatermark = ctx.since;
      return;
    }
    const list = db.prepare(`SELECT id, ${colOrNull(c, "updated_at")} FROM threads ORDER BY rowid`)
      .all() as Array<{ id: unknown; updated_at: unknown }>;
    const one = db.prepare(
      `SELECT data_type, CAST(data AS BLOB) AS data, ${
        ["summary", "created_at", "parent_id", "folder_paths"].map((k) => colOrNull(c, k)).join(
          ", ",
        )
      } FROM threads WHERE id = ?`,
    );
    let top = ctx.since;
    for (const { id, updated_at } of list) {
      if (typeof id !== "string") continue;
      const updated = toMillis(updated_at);
      if (updated !== undefined) top = Math.max(top, updated);
      if (ctx.since > 0 && updated !== undefined && updated < ctx.since) continue;
      const row = getRow<ThreadRow>(one, id);
      if (!row) continue; // deleted since the list was read
      const where = `${source.path}: thread ${id}`;
      const doc = decodeRow(row, where, ctx);
      if (!doc) continue;
      const folders = foldersOf(row, doc);
      const events = threadEvents(doc, folders, (r, w, d) => ctx.skip(r, `${where} ${w}`, d));
      if (!events.length) continue;
      const up = updated ?? toMillis(doc.updated_at);
      yield {
        harness: ID,
        id,
        project: folders[0],
        title: str(doc.title) ?? str(doc.summary) ?? str(row.summary),
        started: toMillis(row.created_at) ?? up,
        updated: up,
        model: str(obj(doc.model)?.model),
        parent: str(row.parent_id) ?? str(obj(doc.subagent_context)?.parent_thread_id),
        path: source.path,
        events,
      };
    }
    ctx.endWatermark = top;
    // The threads held now: those deleted since the last read go.
    ctx.endHolds = list.flatMap(({ id }) => typeof id === "string" ? [id] : []);
  } finally {
    handle.close();
  }
}

/** The Zed parser: one `sqlite` source, the thread store. */
export const zed: Parser = { id: ID, discover, parse };
