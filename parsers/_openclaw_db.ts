/**
 * OpenClaw's per-agent SQLite store `agents/<agentId>/agent/openclaw-agent.sqlite`
 * (builds from 2026.9.x on). Private to `parsers/openclaw.ts`.
 *
 * Schema (realdata/farm/openclaw, OpenClaw 2026.9.6, `schema_meta.schema_version` 23;
 * openclaw/openclaw `src/state/openclaw-agent-schema.sql`, `openclaw-agent-db-contract.ts`
 * and `src/config/sessions/transcript-payload.ts`, read via the search tool):
 * - `transcript_events(session_id, seq, event_json, created_at)`: one pi session entry
 *   per row, `seq` 0 the `session` header; `created_at` epoch ms.
 * - Generation "zstd" adds `event_zstd BLOB, event_utf8_bytes, navigation_json`: an entry
 *   of 1 KiB or more may be stored zstd-compressed (level 1, with checksum) with
 *   `event_json` NULL and its UTF-8 length in `event_utf8_bytes`.
 * - Sessions: `session_windows(session_id, session_key, created_at, updated_at, model,
 *   parent_session_key, spawned_by, display_name, …)` with `session_nodes(session_key,
 *   current_session_id, entry_json, label, …)` (schema v14 on); older agent databases
 *   have `sessions(session_id, session_key, …)` and `session_entries(session_key,
 *   session_id, entry_json)` instead (an older schema file seen via the search tool).
 *   Generations are told apart by tables and columns, never by the version number.
 * - Reset/deleted generations may live on as whole JSONL blobs in
 *   `session_transcript_archives(archive_blob, encoding identity|zstd)` and reclaimed ones
 *   in `session_transcript_cold_archives(storage 'sqlite', archive_blob)`; both are read.
 * - `auth_profile_store` / `auth_profile_state` hold credentials: never read.
 *
 * Watermark: epoch ms, the newest `transcript_events.created_at` / window `updated_at` /
 * archive time seen; a pass re-reads, whole, every session with anything at or after it.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { ParseCtx, Session, SourceRef } from "../core/model.ts";
import { colOrNull as col, columns, openOrCountEmpty, tables } from "../core/sqlite_read.ts";
import { allRows } from "../core/sqlite_rows.ts";
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { isZstd, unzstd } from "./_zstd.ts";
import { toMillis } from "./_time.ts";
import { num, str } from "./_util.ts";
import { type PiMeta, PiReader } from "./_pi_events.ts";

/** What this database's generation offers. */
interface Schema {
  zstd: boolean;
  /** `session_windows` (v14+) or `sessions` (older). */
  windows?: string;
  winCols: Set<string>;
  /** session key -> current session id: [table, id column]. */
  keys?: [string, string];
  archives: boolean;
  cold: boolean;
}

function readSchema(db: DatabaseSync): Schema | string {
  const t = tables(db);
  if (!t.has("transcript_events")) return "no transcript_events table";
  const ev = columns(db, "transcript_events");
  for (const c of ["session_id", "seq", "created_at"]) {
    if (!ev.has(c)) return `transcript_events.${c} missing`;
  }
  if (!ev.has("event_json") && !ev.has("event_zstd")) return "transcript_events has no payload";
  const windows = ["session_windows", "sessions"].find((n) =>
    t.has(n) && columns(db, n).has("session_id")
  );
  const keys: [string, string] | undefined = t.has("session_nodes")
    ? ["session_nodes", "current_session_id"]
    : t.has("session_entries")
    ? ["session_entries", "session_id"]
    : t.has("session_routes")
    ? ["session_routes", "session_id"]
    : undefined;
  const archiveOk = (n: string) => t.has(n) && columns(db, n).has("archive_blob");
  return {
    zstd: ev.has("event_zstd"),
    windows,
    winCols: windows ? columns(db, windows) : new Set(),
    keys,
    archives: archiveOk("session_transcript_archives"),
    cold: archiveOk("session_transcript_cold_archives"),
  };
}

/**
 * zstd bytes -> UTF-8 text, checking the recorded length when there is one;
 * bytes that are not UTF-8 read as U+FFFD, counted `invalid_utf8` at `where`.
 */
function unzstdText(bytes: Uint8Array, ctx: ParseCtx, where: string, expect?: number): string {
  const out = unzstd(bytes).data;
  if (expect !== undefined && out.byteLength !== expect) {
    throw new Error(`decoded ${out.byteLength} bytes, row says ${expect}`);
  }
  return decodeText(out, ctx, where);
}

/** UTF-8 bytes as text, bad sequences as U+FFFD and counted (core/text.ts `decodeUtf8`). */
function decodeText(bytes: Uint8Array, ctx: ParseCtx, where: string): string {
  const got = decodeUtf8(bytes);
  if (got.repaired) ctx.skip("invalid_utf8", where, REPAIRED);
  return got.text;
}

interface EventRow {
  seq: number;
  event_json: string | null;
  event_zstd: Uint8Array | null;
  event_utf8_bytes: number | null;
}

interface WindowRow {
  session_id: string;
  session_key: string | null;
  created_at: unknown;
  updated_at: unknown;
  model: string | null;
  parent_session_key: string | null;
  spawned_by: string | null;
  display_name: string | null;
}

/** Reads one agent database, yielding every session changed at or after `ctx.since`. */
export function* parseAgentDb(source: SourceRef, ctx: ParseCtx): Generator<Session> {
  const store = openOrCountEmpty(source.path, ctx);
  if (!store) return;
  try {
    const schema = readSchema(store.db);
    // A store of another shape is reported, and its watermark kept, not read as "no sessions".
    const reader = typeof schema === "string"
      ? undefined
      : new DbReader(store.db, schema, source, ctx);
    if (reader) yield* reader.sessions();
    else ctx.skip("unknown_schema", source.path, schema as string);
    ctx.endWatermark = Math.max(ctx.since, reader?.watermark ?? 0);
  } finally {
    store.close();
  }
}

class DbReader {
  watermark = 0;
  private windows = new Map<string, WindowRow>();

  constructor(
    private db: DatabaseSync,
    private s: Schema,
    private source: SourceRef,
    private ctx: ParseCtx,
  ) {}

  /** Session ids with anything at or after `since`, in first-seen order. */
  private changed(): string[] {
    const since = this.ctx.since;
    const ids = new Map<string, number>();
    const note = (id: unknown, w: unknown) => {
      const t = typeof w === "number" ? w : Number(w);
      if (typeof id !== "string") return;
      if (Number.isFinite(t) && t > this.watermark) this.watermark = t;
      if (!(Number.isFinite(t) && t >= since) && since > 0) return;
      const first = ids.get(id);
      if (first === undefined || t < first) ids.set(id, t);
    };
    const q = (sql: string) => this.db.prepare(sql).all() as Array<{ id: unknown; w: unknown }>;
    for (
      const r of q(
        "SELECT session_id AS id, max(created_at) AS w FROM transcript_events GROUP BY session_id",
      )
    ) note(r.id, r.w);
    if (this.s.windows) {
      const c = this.s.winCols;
      const rows = allRows<WindowRow>(this.db.prepare(
        `SELECT session_id, ${col(c, "session_key")}, ${col(c, "created_at")}, ${
          col(c, "updated_at")
        }, ${col(c, "model")}, ${col(c, "parent_session_key")}, ${col(c, "spawned_by")}, ${
          col(c, "display_name")
        } FROM ${this.s.windows}`,
      ));
      for (const w of rows) {
        this.windows.set(w.session_id, w);
        note(w.session_id, w.updated_at);
      }
    }
    if (this.s.archives) {
      for (
        const r of q(
          "SELECT session_id AS id, max(created_at) AS w FROM session_transcript_archives GROUP BY session_id",
        )
      ) note(r.id, r.w);
    }
    if (this.s.cold) {
      for (
        const r of q(
          "SELECT session_id AS id, archived_at AS w FROM session_transcript_cold_archives",
        )
      ) note(r.id, r.w);
    }
    return [...ids.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  }

  *sessions(): Generator<Session> {
    const ids = this.changed();
    const rows = this.db.prepare(
      `SELECT seq, ${
        this.s.zstd
          ? "event_json, event_zstd, event_utf8_bytes"
          : "event_json, NULL AS event_zstd, NULL AS event_utf8_bytes"
      } FROM transcript_events WHERE session_id = ? ORDER BY seq`,
    );
    for (const id of ids) {
      const meta: PiMeta = { id };
      const reader = new PiReader(
        meta,
        (reason, where, detail) => this.ctx.skip(reason, where, detail),
      );
      this.archived(id, reader);
      for (const row of allRows<EventRow>(rows, id)) {
        const where = `${this.source.path}#${id}@${row.seq}`;
        const text = this.payload(row, where);
        if (text !== undefined) this.feed(reader, text, where);
      }
      const s = this.session(id, meta, reader);
      if (s) yield s;
    }
  }

  private payload(row: EventRow, where: string): string | undefined {
    if (typeof row.event_json === "string") return row.event_json;
    if (row.event_zstd instanceof Uint8Array) {
      try {
        return unzstdText(row.event_zstd, this.ctx, where, num(row.event_utf8_bytes));
      } catch (e) {
        this.ctx.skip("corrupt", where, `zstd event: ${(e as Error).message}`);
        return undefined;
      }
    }
    this.ctx.skip("bad_shape", where, "row has no payload");
    return undefined;
  }

  private feed(reader: PiReader, text: string, where: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.ctx.skip("malformed_json", where);
    }
    reader.record(value, where);
  }

  /** Feeds the JSONL blobs of archived generations of `id` (oldest first). */
  private archived(id: string, reader: PiReader): void {
    const blobs: Array<{ blob: unknown; zstd: boolean; where: string }> = [];
    if (this.s.archives) {
      const rows = this.db.prepare(
        "SELECT generation, encoding, archive_blob FROM session_transcript_archives WHERE session_id = ? ORDER BY created_at",
      ).all(id) as Array<{ generation: string; encoding: string; archive_blob: unknown }>;
      for (const r of rows) {
        blobs.push({
          blob: r.archive_blob,
          zstd: r.encoding === "zstd",
          where: `archive ${r.generation}`,
        });
      }
    }
    if (this.s.cold) {
      const r = this.db.prepare(
        "SELECT storage, archive_name, archive_blob FROM session_transcript_cold_archives WHERE session_id = ?",
      ).get(id) as { storage: string; archive_name: string; archive_blob: unknown } | undefined;
      if (r && r.storage !== "sqlite") {
        this.ctx.skip(
          "unsupported",
          `${this.source.path}#${id}`,
          `cold archive file ${r.archive_name}`,
        );
      } else if (r) {
        blobs.push({ blob: r.archive_blob, zstd: false, where: `cold ${r.archive_name}` });
      }
    }
    for (const b of blobs) {
      const where = `${this.source.path}#${id} ${b.where}`;
      let text: string;
      try {
        const bytes = b.blob instanceof Uint8Array
          ? b.blob
          : new TextEncoder().encode(String(b.blob ?? ""));
        text = b.zstd || isZstd(bytes)
          ? unzstdText(bytes, this.ctx, where)
          : decodeText(bytes, this.ctx, where);
      } catch (e) {
        this.ctx.skip("corrupt", where, (e as Error).message);
        continue;
      }
      text.split("\n").forEach((line, i) => {
        if (line.trim()) this.feed(reader, line, `${where}:${i + 1}`);
      });
    }
  }

  /** The session key -> current session id, for a parent link. */
  private idOfKey(key: string): string {
    if (!this.s.keys) return key;
    const [table, idCol] = this.s.keys;
    const r = this.db.prepare(`SELECT ${idCol} AS id FROM ${table} WHERE session_key = ?`).get(
      key,
    ) as
      | { id: unknown }
      | undefined;
    return str(r?.id) ?? key;
  }

  /** The workspace the session entry recorded, for a header without `cwd`. */
  private workspaceOf(id: string): string | undefined {
    if (!this.s.keys || this.s.keys[0] === "session_routes") return undefined;
    const [table, idCol] = this.s.keys;
    try {
      const r = this.db.prepare(
        `SELECT json_extract(entry_json, '$.systemPromptReport.workspaceDir') AS d FROM ${table} WHERE ${idCol} = ? AND json_valid(entry_json)`,
      ).get(id) as { d: unknown } | undefined;
      return str(r?.d);
    } catch {
      return undefined;
    }
  }

  private session(id: string, meta: PiMeta, reader: PiReader): Session | undefined {
    if (reader.events.length === 0) return undefined;
    const w = this.windows.get(id);
    const parentKey = str(w?.parent_session_key) ?? str(w?.spawned_by);
    const parent = parentKey ? this.idOfKey(parentKey) : undefined;
    const started = meta.started ?? toMillis(w?.created_at);
    const updated = Math.max(reader.updated ?? 0, toMillis(w?.updated_at) ?? 0);
    const title = str(w?.display_name) ?? meta.title;
    const project = meta.cwd ?? this.workspaceOf(id);
    const model = meta.model ?? str(w?.model);
    return {
      harness: this.source.harness,
      id,
      ...(project ? { project } : {}),
      ...(title ? { title } : {}),
      ...(started !== undefined ? { started } : {}),
      ...(updated > 0 ? { updated } : {}),
      ...(model ? { model } : {}),
      ...(parent && parent !== id ? { parent } : {}),
      path: this.source.path,
      events: reader.events,
    };
  }
}
