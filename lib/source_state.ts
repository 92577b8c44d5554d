/**
 * What the index remembers about each store between runs (the `sources`
 * table) and the cheap checks that tell whether a store changed: size and
 * mtime, a hash of a JSONL file's head and of the 4 KiB before the resume
 * offset, and a document's sha256.
 *
 * @module
 */
import { openRegular, openRegularSync } from "../core/fsread.ts";
import type { SkipReason, SourceRef } from "../core/model.ts";
import type { DriftSummary } from "./parse_ctx.ts";
import { Q } from "./schema.ts";
import type { Store } from "./store.ts";
import { revisionOf } from "./version.ts";
import { closeSync, readSync } from "node:fs";

// The stamp of a file is the stat pass's (core/stat.ts), which loads nothing else.
export { stamp } from "../core/stat.ts";

/**
 * node:crypto, loaded on first use: loading it costs a Bun binary several milliseconds of
 * start-up that a command which reads no store body never uses (issue 18).
 */
async function crypto(): Promise<typeof import("node:crypto")> {
  return cryptoModule ??= await import("node:crypto");
}
let cryptoModule: typeof import("node:crypto") | undefined;

/**
 * Hash of the first 1 KiB and the 4 KiB before `offset`: detects a rewritten prefix cheaply.
 * Read synchronously: five awaited file operations per store cost a run over thousands
 * of small stores more than the reads themselves (issue 18).
 */
async function headHash(path: string, offset: number): Promise<string> {
  const h = (await crypto()).createHash("sha1");
  const fd = openRegularSync(path);
  try {
    const a = new Uint8Array(Math.min(1024, offset));
    readSync(fd, a, 0, a.length, 0);
    const bStart = Math.max(0, offset - 4096);
    const b = new Uint8Array(offset - bStart);
    readSync(fd, b, 0, b.length, bStart);
    h.update(a);
    h.update(b);
  } finally {
    closeSync(fd);
  }
  return `${offset}:${h.digest("hex")}`;
}

/** sha256 of a whole regular file, read in 1 MiB steps (core/fsread.ts refuses anything else). */
export async function fileHash(path: string): Promise<string> {
  const h = (await crypto()).createHash("sha256");
  const fh = await openRegular(path);
  try {
    const buf = new Uint8Array(1 << 20);
    for (let pos = 0;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return h.digest("hex");
}

/** {@link headHash}, or null when the file cannot be read. */
export async function safeHeadHash(path: string, offset: number): Promise<string | null> {
  try {
    return await headHash(path, offset);
  } catch {
    return null;
  }
}

/** The skip counts of a stored `skipped` JSON; {} when absent or unreadable. */
export function parseSkips(json: string | null): Partial<Record<SkipReason, number>> {
  if (!json) return {};
  try {
    return (JSON.parse(json) as { counts?: Partial<Record<SkipReason, number>> }).counts ?? {};
  } catch {
    return {};
  }
}

/** Where a stored `skipped` JSON says records were skipped (`<reason> at <where>`); [] when absent. */
export function parseSkipExamples(json: string | null): string[] {
  if (!json) return [];
  try {
    const ex = (JSON.parse(json) as { examples?: unknown }).examples;
    return Array.isArray(ex) ? ex.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** What a store's last read skipped (the `skipped` JSON of its `sources` row). */
export interface SkipRecord {
  /** Records skipped, by reason. */
  counts: Partial<Record<SkipReason, number>>;
  /** Where, `<reason> at <where>[: detail]`, and the read-partly note of a damaged read. */
  examples: string[];
  /** Sessions a damaged read returned shorter or not at all, kept as indexed (absent: none). */
  kept?: number;
  /** Their native ids (the first 200; absent in a record written before they were kept). */
  keptIds?: string[];
}

/** A stored `skipped` JSON whole, to save again unchanged. */
export function parseSkipRecord(json: string | null): SkipRecord {
  const kept = parseKept(json);
  const keptIds = kept ? parseKeptIds(json) : undefined;
  return {
    counts: parseSkips(json),
    examples: parseSkipExamples(json),
    ...(kept ? { kept } : {}),
    ...(keptIds ? { keptIds } : {}),
  };
}

/** The native ids of the sessions a stored `skipped` JSON says were kept; undefined when unsaid. */
export function parseKeptIds(json: string | null): string[] | undefined {
  if (!json) return undefined;
  try {
    const ids = (JSON.parse(json) as { keptIds?: unknown }).keptIds;
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : undefined;
  } catch {
    return undefined;
  }
}

/** Sessions a stored `skipped` JSON says the read kept as indexed (damage); 0 when none. */
export function parseKept(json: string | null): number {
  if (!json) return 0;
  try {
    const k = (JSON.parse(json) as { kept?: unknown }).kept;
    return typeof k === "number" && k > 0 ? k : 0;
  } catch {
    return 0;
  }
}

/** A stored drift summary; undefined when absent or unreadable. */
export function parseDrift(json: string | null): DriftSummary | undefined {
  if (!json) return undefined;
  try {
    const d = JSON.parse(json) as DriftSummary;
    return d && typeof d === "object" && Array.isArray(d.notes) ? d : undefined;
  } catch {
    return undefined;
  }
}

/** What a good pass over a source leaves for the next run (see {@link saveSource}). */
export interface SourcePass {
  /** The store's size in bytes when read. */
  size: number;
  /** Its mtime, epoch ms. */
  mtime: number;
  /** JSON `[[size, mtime], ...]` of its companions (`-wal` and the like). */
  companions: string;
  /** Bytes read (append sources; 0 for others). */
  offset: number;
  /** Hash of the head bytes, to tell an append from a rewrite; null when none. */
  headHash: string | null;
  /** The parser's resume state as JSON; null when none. */
  state: string | null;
  /** SQLite stores: the highest `updated` seen. */
  watermark: number;
  /** Documents: the content hash; null for others. */
  hash: string | null;
  /** Records skipped, counted by reason, with a few examples. */
  skipped: SkipRecord;
  /** The drift summary as JSON; null when none. */
  drift: string | null;
}

/** Writes a source's row after a good pass (its session and event totals recounted). */
export function saveSource(store: Store, src: SourceRef, pass: SourcePass): void {
  const totals = Q.sourceTotals.get(store, { source: src.path })!;
  Q.upsertSource.run(store, {
    path: src.path,
    harness: src.harness,
    kind: src.kind,
    size: pass.size,
    mtime: pass.mtime,
    companions: pass.companions,
    offset: pass.offset,
    head_hash: pass.headHash,
    state: pass.state,
    watermark: pass.watermark,
    hash: pass.hash,
    // With the sessions it holds a copy of, held from another store (lib/copies.ts): `deja
    // sources` counts copies as the stores' sessions less the distinct ones.
    sessions: totals.sessions + (Q.copyCount.get(store, { source: src.path })?.n ?? 0),
    events: totals.events,
    skipped: JSON.stringify(pass.skipped),
    error: null,
    indexed_at: Date.now(),
    drift: pass.drift,
    reader: revisionOf(src.harness),
  });
}
