/**
 * Crush (charmbracelet/crush): one SQLite store per project.
 *
 * Layout:
 * - Registry `${DEJA_CRUSH_ROOT:-${CRUSH_GLOBAL_DATA:-${XDG_DATA_HOME:-~/.local/share}/crush}}/projects.json`
 *   (`%LOCALAPPDATA%\crush` on Windows), `{"projects":[{path, data_dir,
 *   last_accessed}]}` (charmbracelet/crush `internal/projects/projects.go`;
 *   realdata/crush/projects.json). A missing registry means no sources; a
 *   damaged one is a discovery problem (the indexer keeps the stores found
 *   before) and its intact entries are still followed.
 * - Store `<data_dir>/crush.db` (WAL mode, so `-wal` beside it); `data_dir` is
 *   followed as written, absolute or relative to the project `path`, and
 *   defaults to `<path>/.crush`. An entry whose project directory is gone is
 *   skipped silently. The session's project is the registry `path`
 *   (SourceRef.hint.project).
 * - Tables `sessions` and `messages` (goose migrations; schema generations
 *   20250627 / 20250812 / 20260127 seen in realdata/crush, told apart by
 *   columns, never by version). Only `sessions.id` and `messages.{id,
 *   session_id, role, parts}` are required; a store without them is skipped as
 *   `unknown_schema`. A column not in {@link KNOWN_COLUMNS} is noted as drift
 *   (`deja drift`), and the goose `version_id` is the version the store names.
 *
 * Units: `created_at`/`updated_at` are whole Unix **seconds** in every real
 * store although the schema comments say milliseconds (realdata/crush, all
 * six dbs); both are read through toMillis. The watermark is
 * `max(sessions.updated_at)` exactly as stored (Crush's own unit), and a
 * later pass re-reads, whole, every session with `updated_at >= since` or a
 * message so updated, because Crush rewrites message rows in place (an
 * edited message moves only its own `updated_at`).
 *
 * Mapping: `text` parts of user/assistant rows are speech (whole
 * `<think>…</think>` blocks stripped, as in local reasoning models' output
 * and titles in realdata/crush/crush.db); `reasoning`, `binary`, `image_url`
 * are dropped; `finish` is dropped unless its reason is `error`, which is a
 * `notice` `Error: <message>` plus its `details` (the provider refused:
 * "Bad Request", "API Error", realdata windows-copilot and k3s dbs). An
 * assistant row without a `finish` part, or one whose reason is `canceled`
 * or `error`, marks its text `cut` (the reply stopped mid-way, realdata
 * gpt5-unfinished db); `tool_call.input` is a JSON string decoded once more;
 * `tool_result` rows (role `tool`) link by `tool_call_id`, lose their `<cwd>`
 * trailer, and a bash result ending in `Exit code N` carries `exit: N`, one
 * without that line `exit: 0` (Crush writes it only when N is not 0), unless it
 * is an error, aborted or moved to the background (charmbracelet/crush@37f36e93
 * `internal/agent/tools/bash.go`, _crush_parts.ts bashExit); an error result
 * `User denied permission` (`Permission denied` before 2025-11) is `notRun`
 * (the person refused the call); `shell_command` parts
 * (bang mode) become a call plus a result with `exit_code`. Tool calls with an
 * empty name (a streamed call split in pieces, realdata k3s db) are joined, by
 * part order, to the named call before them in the same message, which gets
 * the whole arguments (shown as `$ <command>`); Crush refused that call
 * (`invalid parameters`), so it derives no command, read, edit or write and
 * its result is `notRun` ("Not run: invalid parameters"); the pieces' "Tool
 * not found" results are dropped; pieces with no such call show as one
 * "tool call with no name (n fragments)" (_crush_parts.ts joinFragments). Summary messages
 * (`is_summary_message = 1`, or the row `sessions.summary_message_id` names)
 * are `summary` events. `title-<id>` title-generation sessions are skipped;
 * `parent_session_id` sets `parent`.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { Parser, SourceRef } from "../core/model.ts";
import { isDir, reportUnstatable, statOrNull, statRegular } from "../core/fs.ts";
import { readRegistryJson } from "./_json_doc.ts";
import { heldIds, noteUnknownColumns, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { allRows } from "../core/sqlite_rows.ts";
import { arr, obj, str } from "./_util.ts";
import {
  crushRoot,
  type CrushSessionRow,
  fileHistory,
  messagesSql,
  type RawMessage,
  readSchema,
  readSession,
  sessionsSql,
} from "./_crush_store.ts";
import { absolutePath } from "../core/paths.ts";

export { crushRoot, readCrushSession } from "./_crush_store.ts";

/**
 * Columns known per table (schema generations 20250627, 20250812, 20260127 in
 * realdata/crush). Any other is noted as drift: `session_metadata` for
 * `sessions`, `content` for `messages`.
 */
const KNOWN_COLUMNS = {
  sessions: new Set([
    "id",
    "parent_session_id",
    "title",
    "message_count",
    "prompt_tokens",
    "completion_tokens",
    "cost",
    "updated_at",
    "created_at",
    "summary_message_id",
    "todos",
  ]),
  messages: new Set([
    "id",
    "session_id",
    "role",
    "parts",
    "model",
    "created_at",
    "updated_at",
    "finished_at",
    "provider",
    "is_summary_message",
  ]),
};

/**
 * The store's schema generation, `schema <goose version_id>` (Crush keeps no
 * version of its own in the store), or undefined without a goose table.
 */
function schemaGeneration(db: DatabaseSync): string | undefined {
  if (!tables(db).has("goose_db_version")) return undefined;
  try {
    const r = db.prepare(
      "SELECT max(version_id) AS v FROM goose_db_version WHERE is_applied = 1",
    ).get() as { v: unknown } | undefined;
    return r?.v ? `schema ${r.v}` : undefined;
  } catch {
    return undefined;
  }
}

/** The Crush parser. */
export const crush: Parser = {
  id: "crush",

  async discover({ env, problem, rebase }) {
    const root = crushRoot(env);
    const here = rebase ?? ((p: string) => p);
    const list = obj(await readRegistryJson(join(root, "projects.json"), problem));
    const sources: SourceRef[] = [];
    const wants: string[] = [];
    const watch: string[] = [];
    const seen = new Set<string>();
    // Stores projects.json names that are not there, looked at all the same: listed as absent
    // by `deja sources --verbose`, as other harnesses' roots are (trial 101 F8).
    const absent: string[] = [];
    for (const e of arr(list?.projects)) {
      const p = obj(e);
      const project = str(p?.path);
      if (!project) continue;
      const dd = str(p?.data_dir);
      const db = here(join(dd ? absolutePath(dd, project) : join(project, ".crush"), "crush.db"));
      wants.push(db, `${db}-wal`, `${db}-shm`);
      // A project deleted with its store is normal; a store kept elsewhere (an absolute
      // `data_dir`) outlives its project and is read (trial 29: skipped without a word).
      if (!(await isDir(here(project))) && !(await statOrNull(db))) {
        // One a folder above may not be opened is named as unreadable, not taken for absent
        // (trial 127 F7: Crush's unreadable projects folder left it "up to date").
        if (await reportUnstatable(db, problem)) continue;
        absent.push(dirname(db));
        continue;
      }
      // A store that appears here (a copy, a first run of Crush) changes this folder's mtime.
      watch.push(dirname(db));
      if (seen.has(db) || !(await statRegular(db, problem))) continue;
      seen.add(db);
      sources.push({
        harness: "crush",
        path: db,
        kind: "sqlite",
        companions: [`${db}-wal`],
        hint: { project },
      });
    }
    // Crush rewrites projects.json in place (os.WriteFile, charmbracelet/crush@127ce367
    // internal/projects/projects.go): a new project's store appears without any folder's mtime moving.
    return {
      roots: [root, ...new Set(absent)],
      sources,
      wants,
      watch,
      reads: [join(root, "projects.json")],
    };
  },

  async *parse(source, ctx) {
    const store = openOrCountEmpty(source.path, ctx);
    if (!store) return;
    try {
      const db = store.db;
      const generation = schemaGeneration(db);
      if (generation) ctx.version?.(generation);
      const schema = readSchema(db);
      if (typeof schema === "string") {
        ctx.skip("unknown_schema", source.path, schema);
        ctx.endWatermark = ctx.since;
        return;
      }
      const known = KNOWN_COLUMNS;
      noteUnknownColumns(db, ctx, source.path, "sessions", known.sessions, "session_metadata");
      noteUnknownColumns(db, ctx, source.path, "messages", known.messages, "content");
      const project = source.hint?.project ?? projectOf(source.path);
      const { s, m } = schema;
      const hasUpdated = s.has("updated_at");
      // A message edited in place moves its own `updated_at`, not its session's (Crush's
      // trigger; trial 72: an older message edited was never read again): both count.
      const msgUpdated = hasUpdated && m.has("updated_at");
      // The watermark stays the sessions': a stray future `messages.updated_at` (the public
      // store holds one, a trigger fired during redaction) would hide every session after it.
      const top = hasUpdated
        ? (db.prepare("SELECT max(updated_at) AS w FROM sessions").get() as { w: unknown })?.w
        : undefined;
      // A store put back from an older copy (its newest session older than the watermark) is
      // read whole (trial 89 F1: what the copy holds that the index lost stayed lost).
      const newest = typeof top === "number" ? top : Number(top);
      const back = Number.isFinite(newest) && newest < ctx.since;
      const since = hasUpdated && ctx.since > 0 && !back ? ctx.since : 0;
      // And a session the index does not hold from it is read whatever its time.
      const held = since && ctx.held ? [JSON.stringify([...ctx.held])] : [];
      const where = !since
        ? ""
        : (msgUpdated
          ? " WHERE updated_at >= ? OR id IN (SELECT session_id FROM messages WHERE updated_at >= ?)"
          : " WHERE updated_at >= ?") +
          (held.length ? " OR id NOT IN (SELECT value FROM json_each(?))" : "");
      const sessions = allRows<CrushSessionRow>(
        db.prepare(sessionsSql(s) + where + " ORDER BY rowid"),
        ...(since ? (msgUpdated ? [since, since] : [since]) : []),
        ...held,
      );
      const msgs = db.prepare(messagesSql(m));
      const history = fileHistory(db);
      for (const row of sessions) {
        if (typeof row.id !== "string" || row.id.startsWith("title-")) continue;
        const raw = allRows<RawMessage>(msgs, row.id);
        yield readSession(row, raw, source.path, project, ctx.skip.bind(ctx), history);
      }
      // Never past now (trial 91 F2: one session stamped in the future, a clock skewed or a
      // store synced from another machine, hid every later change of the others): that one
      // is read again each time instead.
      const w = Math.min(newest, nowIn(newest));
      ctx.endWatermark = Number.isFinite(w) && w > 0 ? w : ctx.since;
      // The sessions held now: those Crush deleted since the last read go.
      ctx.endHolds = heldIds(db, "sessions");
    } finally {
      store.close();
    }
  },
};

/** Now in the unit of `stamp`: milliseconds for a stamp past 10^12, else seconds. */
function nowIn(stamp: number): number {
  return stamp > 1e12 ? Date.now() : Math.floor(Date.now() / 1000);
}

/** `<project>` for a store at `<project>/.crush/crush.db` when discovery gave no hint. */
function projectOf(dbPath: string): string | undefined {
  const dataDir = dirname(dbPath);
  return basename(dataDir) === ".crush" ? dirname(dataDir) : undefined;
}
