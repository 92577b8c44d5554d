/**
 * Tombstones: the sessions a person told deja to forget, kept outside the
 * index in `<data dir>/tombstones.jsonl` (mode 0600), so that neither a later
 * `deja index` nor `deja index --rebuild` (which may delete index.db) brings
 * them back. One JSON object a line; rewritten whole through a temporary file
 * and a rename.
 *
 * @module
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readTextSync } from "../../core/fsread.ts";

/** One forgotten session. */
export interface Tombstone {
  /** `harness:native id`, the key `--unforget` takes. */
  key: string;
  harness: string;
  id: string;
  project: string | null;
  title: string | null;
  /** Store path the session was read from (re-read on `--unforget`). */
  source: string | null;
  /** Native id of the parent session, for a subagent forgotten with its parent. */
  parent?: string;
  /** Epoch ms of the forget. */
  at: number;
  /** The selector that forgot it (`--session 1a2b`, `--project acme`, `--before 2026-01-01`). */
  reason: string;
}

/** The tombstones file beside the index at `indexPath`. */
export function tombstoneFile(indexPath: string): string {
  return join(dirname(indexPath), "tombstones.jsonl");
}

/** Reads the tombstones (none when the file is missing; unreadable lines skipped). */
export function readTombstones(file: string): Tombstone[] {
  let text: string;
  try {
    text = readTextSync(file);
  } catch {
    return [];
  }
  const out: Tombstone[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const t = JSON.parse(line) as Tombstone;
      if (typeof t.key === "string" && typeof t.harness === "string") out.push(t);
    } catch { /* a torn line: skip */ }
  }
  return out;
}

/** Replaces the tombstones file with `list` (atomic: temporary file, then rename). */
export function writeTombstones(file: string, list: Tombstone[]): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  writeFileSync(tmp, list.map((t) => JSON.stringify(t)).join("\n") + (list.length ? "\n" : ""), {
    mode: 0o600,
  });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** `harness:id` of a session. */
export function keyOf(harness: string, id: string): string {
  return `${harness}:${id}`;
}
