/**
 * The stat manifest: a small file beside the index (`index.fresh.json`) that
 * holds what the stat pass of a no-op `deja index` reads from the index (the
 * stamps of every known store, the freshness map, the last full run's
 * summaries, the totals), stamped with the index file's own size and mtime.
 * While the index is unchanged since the manifest was written, the no-op run
 * (./noop.ts) answers from it without loading SQLite or taking the writer lock
 * (issue 18: opening the index, reading it and the checkpoint of the one row
 * the run wrote were half its time).
 *
 * Any write to the index (an index run, `remember`, `forget`, a migration, a
 * rebuild, a copy put in its place) changes the stamp of `index.db` or of its
 * `-wal`, and the manifest is then ignored until the next run that holds the
 * writer lock writes it again. The manifest's mtime is when a run last found
 * the stores up to date ({@link checkedAt}).
 *
 * @module
 */
import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { FreshMap } from "./map.ts";
import type { StaleRow } from "./check.ts";
import type { HarnessSummary } from "../indexer.ts";
import { readersKey } from "../version.ts";
import { GarbagePacer } from "../../core/runtime.ts";
import { tombstonesAgree } from "../forget/tombstones.ts";

/** The manifest's format version; another version is ignored. */
const VERSION = 1;

/** What the manifest holds (JSON). */
export interface Manifest {
  v: typeof VERSION;
  /** The index's schema version (lib/schema.ts) when written. */
  schema: number;
  /** The readers that wrote it (lib/version.ts readersKey): other readers' runs vouch for nothing. */
  readers: string;
  /** {@link indexStamp} of the index the rest was read from. */
  index: string;
  /** The `sources` rows the stat pass compares (lib/fresh/check.ts). */
  rows: readonly StaleRow[];
  /** The freshness map (`meta` fresh_map). */
  map: FreshMap;
  /** The summaries of the last full run (`meta` last_index). */
  harnesses: HarnessSummary[];
  /** True when an exclusion pattern has dropped sessions (a lifted one needs a full run). */
  excluded: boolean;
  /** Sessions and events in the index. */
  totals: { sessions: number; events: number };
  /**
   * The index's record of the tombstones file it agrees with (lib/forget/tombstones.ts
   * `TOMBSTONES_KEY`; absent: none): the manifest vouches for nothing once the file differs
   * (trial 111 F3: after the index lost a forget's writes, its file was as the manifest had
   * stamped it, and every check said "up to date").
   */
  tombstones?: string;
}

/** Path of the manifest of the index at `indexPath`. */
export function manifestPath(indexPath: string): string {
  return join(dirname(indexPath), "index.fresh.json");
}

/**
 * The index file's stamp: device, inode, size and mtime of `index.db`, and the
 * size and mtime of its `-wal` when that holds anything (an empty `-wal` is
 * what any reader leaves). Null when the index is missing.
 */
export function indexStamp(indexPath: string): string | null {
  try {
    const db = statSync(indexPath);
    let wal: number[] = [];
    try {
      const w = statSync(indexPath + "-wal");
      if (w.size > 0) wal = [w.size, w.mtimeMs];
    } catch { /* no -wal */ }
    return JSON.stringify([db.dev, db.ino, db.size, db.mtimeMs, ...wal]);
  } catch {
    return null;
  }
}

/**
 * The manifest when it describes the index at `indexPath` as it is now, else
 * null (absent, damaged, another version or schema, the index changed, or the tombstones
 * file differs from what the index agreed with).
 */
export function readManifest(indexPath: string, schema: number): Manifest | null {
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(manifestPath(indexPath), "utf8"));
  } catch {
    return null;
  }
  if (m?.v !== VERSION || m.schema !== schema || !Array.isArray(m.rows)) return null;
  if (m.readers !== readersKey()) return null;
  if (!Array.isArray(m.harnesses) || typeof m.map !== "object" || !m.map) return null;
  const now = indexStamp(indexPath);
  if (now === null || m.index !== now) return null;
  return tombstonesAgree(m.tombstones, indexPath) ? m : null;
}

/** What {@link writeManifest}'s `read` gives: the manifest's fields, its rows as they come. */
export type ManifestBody = Omit<Manifest, "v" | "index" | "readers" | "rows"> & {
  rows: Iterable<StaleRow>;
};

/** Rows written to the file at a time ({@link writeManifest}). */
const ROWS_AT_ONCE = 1000;

/** Characters of rows written between two garbage collections ({@link writeManifest}). */
const GC_CHARS = 2 << 20;

/**
 * Writes the manifest of the index at `indexPath` with what `read` gives, then
 * calls `done`, atomically (mode 0600). Call with the writer lock held and the
 * writer's connection closed: `read` opens the index (read only), `done` closes
 * it. The rows are written as they come, a thousand at a time: held whole with
 * their JSON, the manifest of 100,000 stores took the run's peak from 144 to
 * 236 MB at its very end (trial 29). When the index changed while it was read,
 * no manifest is left. Never throws.
 */
export function writeManifest(
  indexPath: string,
  read: () => { body: ManifestBody; done(): void },
): void {
  const path = manifestPath(indexPath);
  const tmp = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    const before = indexStamp(indexPath);
    if (before === null) return dropManifest(indexPath);
    const { body, done } = read();
    try {
      const { rows, ...rest } = body;
      const head: Omit<Manifest, "rows"> = {
        v: VERSION,
        index: before,
        readers: readersKey(),
        ...rest,
      };
      fd = openSync(tmp, "w", 0o600);
      // The rows last: `{...head, "rows": [ ... ]}`.
      writeSync(fd, `${JSON.stringify(head).slice(0, -1)},"rows":[`);
      let part: string[] = [];
      let first = true;
      // The rows' objects and strings are garbage once written, collected late under Bun.
      const pacer = new GarbagePacer(GC_CHARS);
      const flush = () => {
        if (!part.length) return;
        const text = (first ? "" : ",") + part.join(",");
        writeSync(fd!, text);
        pacer.took(text.length);
        first = false;
        part = [];
      };
      for (const r of rows) {
        part.push(JSON.stringify(r));
        if (part.length >= ROWS_AT_ONCE) flush();
      }
      flush();
      writeSync(fd, "]}");
    } finally {
      done();
      if (fd !== undefined) closeSync(fd);
    }
    if (indexStamp(indexPath) !== before) {
      rmSync(tmp, { force: true });
      return dropManifest(indexPath);
    }
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch { /* not there */ }
    dropManifest(indexPath);
  }
}

/** Removes the manifest (the next run with the writer lock writes it again). */
export function dropManifest(indexPath: string): void {
  try {
    rmSync(manifestPath(indexPath), { force: true });
  } catch { /* not ours to remove */ }
}

/** Marks now as the time a run last found the stores up to date. */
export function touchManifest(indexPath: string): void {
  try {
    const now = new Date();
    utimesSync(manifestPath(indexPath), now, now);
  } catch { /* the next run with the lock writes it */ }
}

/**
 * Epoch ms of the index's last run that read the stores or found them up to
 * date: the later of the last full run's record in `meta` and the manifest's
 * mtime (a no-op run answered from the manifest only touches it). 0 when unknown.
 */
export function lastIndexAt(
  store: { path: string; db: { prepare(sql: string): { get(...a: string[]): unknown } } },
): number {
  let at = 0;
  try {
    const row = store.db.prepare("SELECT value FROM meta WHERE key = 'last_index'").get() as
      | { value: string }
      | undefined;
    at = Number(JSON.parse(row?.value ?? "{}").at) || 0;
  } catch { /* unknown */ }
  try {
    return Math.max(at, Math.floor(statSync(manifestPath(store.path)).mtimeMs));
  } catch {
    return at;
  }
}
