/**
 * Hermes Agent (NousResearch/hermes-agent): SQLite state stores.
 *
 * Layout, under `${DEJA_HERMES_ROOT:-${HERMES_HOME:-~/.hermes}}`:
 * - `state.db` (+ `-wal`): the store of Hermes 0.17 and later, WAL mode
 *   (realdata/hermes; hermes-agent `hermes_state.py` `get_hermes_home() /
 *   "state.db"`, search tool).
 * - `profiles/<name>/state.db`: one store per profile (older builds;
 *   docs/registry/hermes.md). 0-byte files are not listed.
 * - `config.yaml` (root or profile) whose `sessiondb:` block names a
 *   `provider: postgresql` (docs/registry/hermes.md; not confirmed in source):
 *   the sessions live in a remote database. deja never connects; the config
 *   becomes a source whose parse counts one `unsupported` skip, so
 *   `deja sources` says why nothing came from it.
 *
 * Tables (realdata/hermes, `schema_version` 17): `sessions(id, source, model,
 * title, cwd, parent_session_id, started_at REAL, ended_at REAL, ...)` and
 * `messages` (see `_hermes_rows.ts`). Required columns: `messages.session_id`,
 * `role`, `content`, `timestamp`; everything else (the whole `sessions`
 * table included) is optional and read as NULL when missing, so older and
 * newer generations are told apart by columns, never by `schema_version`.
 * A store without the required columns is counted `unknown_schema`.
 *
 * Units: `started_at`, `ended_at` and `messages.timestamp` are REAL Unix
 * **seconds** with a fraction (`1783250505.5514`); toMillis keeps the
 * fraction as milliseconds. The watermark is the newest of those times in
 * **ms**; a later pass re-reads, whole, every session with activity at or
 * after it. `sessions.model` is the string `'null'` on cron sessions
 * (realdata) and then ignored. `project` is `sessions.cwd` when set.
 * `parent` is `parent_session_id` (compression continues a session in a
 * child). Sessions without any event are not yielded.
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
import { listFiles, readText, statRegular } from "../core/fs.ts";
import { rootFrom } from "../core/paths.ts";
import { colOrNull, columns, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { allRows } from "../core/sqlite_rows.ts";
import { toMillis } from "./_time.ts";
import { str } from "./_util.ts";
import { hermesEvents, type HermesRow } from "./_hermes_rows.ts";

const ID = "hermes";

/** The Hermes home directory. */
export function hermesRoot(env: Env): string {
  return rootFrom(env, ID, [["HERMES_HOME", ""]], "~/.hermes");
}

/** The provider named by a `sessiondb:` block of a Hermes config.yaml, when it is remote. */
export function remoteProvider(yaml: string): string | undefined {
  const lines = yaml.split(/\r?\n/);
  const at = lines.findIndex((l) => /^sessiondb\s*:\s*(#.*)?$/.test(l));
  if (at < 0) return undefined;
  for (const l of lines.slice(at + 1)) {
    if (/^\S/.test(l)) break;
    const m = /^\s+(?:provider|backend)\s*:\s*["']?([A-Za-z]+)["']?/.exec(l);
    if (m && /^postgres(ql)?$/i.test(m[1])) return m[1];
  }
  return undefined;
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = hermesRoot(env);
  const profiles = await listFiles(join(root, "profiles"), {
    match: (_p, n) => n === "state.db" || n === "config.yaml",
    maxDepth: 1,
    onError: problem,
  });
  const sources: SourceRef[] = [];
  for (const path of [join(root, "state.db"), join(root, "config.yaml"), ...profiles]) {
    const st = await statRegular(path, problem);
    if (!st || st.size === 0) continue;
    if (basename(path) === "state.db") {
      sources.push({ harness: ID, path, kind: "sqlite", companions: [`${path}-wal`] });
      continue;
    }
    let text = "";
    try {
      text = await readText(path, 1 << 20);
    } catch (e) {
      problem?.(path, e as Error);
    }
    const remote = remoteProvider(text);
    if (remote) sources.push({ harness: ID, path, kind: "document", hint: { remote } });
  }
  // A config.yaml edited to name a remote provider is a new source, its folder's mtime unmoved.
  const configs = [join(root, "config.yaml"), ...profiles.filter((p) => p.endsWith(".yaml"))];
  return { roots: [root], sources, reads: configs };
}

interface SessionRow {
  id: string;
  title: string | null;
  model: string | null;
  cwd: string | null;
  parent_session_id: string | null;
  started_at: unknown;
  ended_at: unknown;
}

function parse(source: SourceRef, ctx: ParseCtx): AsyncIterable<Session> {
  if (source.hint?.remote) {
    ctx.skip(
      "unsupported",
      source.path,
      `sessions are kept in a ${source.hint.remote} database (sessiondb); deja reads local stores only and does not connect`,
    );
    return (async function* () {})();
  }
  return readStore(source.path, ctx);
}

async function* readStore(path: string, ctx: ParseCtx): AsyncGenerator<Session> {
  const handle = openOrCountEmpty(path, ctx);
  if (!handle) return;
  try {
    const db = handle.db;
    const m = columns(db, "messages");
    const missing = ["session_id", "role", "content", "timestamp"].filter((c) => !m.has(c));
    if (missing.length) {
      ctx.skip("unknown_schema", path, `messages lacks ${missing.join(", ") || "the table"}`);
      ctx.endWatermark = ctx.since;
      return;
    }
    const metas = sessionRows(db);
    const activity = db.prepare(
      "SELECT session_id AS id, max(timestamp) AS last, min(timestamp) AS first FROM messages GROUP BY session_id",
    ).all() as Array<{ id: unknown; last: unknown; first: unknown }>;
    const last = new Map<string, number>();
    const bump = (id: unknown, t: unknown) => {
      const ms = toMillis(t);
      if (typeof id !== "string" || ms === undefined) return;
      last.set(id, Math.max(last.get(id) ?? 0, ms));
    };
    for (const s of metas.values()) {
      bump(s.id, s.started_at);
      bump(s.id, s.ended_at);
    }
    for (const a of activity) bump(a.id, a.last);
    const rows = db.prepare(
      `SELECT id, role, content, ${colOrNull(m, "tool_calls")}, ${colOrNull(m, "tool_call_id")}, ${
        colOrNull(m, "tool_name")
      }, timestamp FROM messages WHERE session_id = ? ORDER BY timestamp, id`,
    );
    const ids = [...new Set([...metas.keys(), ...activity.map((a) => String(a.id))])];
    let top = ctx.since;
    for (const id of ids) {
      const at = last.get(id) ?? 0;
      top = Math.max(top, at);
      if (ctx.since > 0 && at < ctx.since) continue;
      const meta = metas.get(id);
      const project = str(meta?.cwd);
      const events = hermesEvents(
        allRows<HermesRow>(rows, id),
        project,
        ctx.skip.bind(ctx),
      );
      if (!events.length) continue;
      const model = str(meta?.model);
      yield {
        harness: ID,
        id,
        project,
        title: str(meta?.title),
        started: toMillis(meta?.started_at) ?? events.find((e) => e.time)?.time,
        updated: at || undefined,
        model: model && model !== "null" ? model : undefined,
        parent: str(meta?.parent_session_id),
        path,
        events,
      };
    }
    ctx.endWatermark = top;
  } finally {
    handle.close();
  }
}

/** `sessions` rows by id (empty when the table is missing). */
function sessionRows(db: DatabaseSync): Map<string, SessionRow> {
  const out = new Map<string, SessionRow>();
  if (!tables(db).has("sessions")) return out;
  const s = columns(db, "sessions");
  if (!s.has("id")) return out;
  const cols = ["title", "model", "cwd", "parent_session_id", "started_at", "ended_at"]
    .map((c) => colOrNull(s, c)).join(", ");
  const order = s.has("started_at") ? " ORDER BY started_at, rowid" : " ORDER BY rowid";
  for (
    const r of allRows<SessionRow>(db.prepare(`SELECT id, ${cols} FROM sessions${order}`))
  ) {
    if (typeof r.id === "string") out.set(r.id, r);
  }
  return out;
}

/**
 * The Hermes parser: one `sqlite` source per state store, one `document`
 * source per config that points at a remote (PostgreSQL) store.
 */
export const hermes: Parser = { id: ID, discover, parse };
