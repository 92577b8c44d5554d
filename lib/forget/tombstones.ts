/**
 * Tombstones: the sessions a person told deja to forget, kept outside the
 * index in `<data dir>/tombstones.jsonl` (mode 0600), so that neither a later
 * `deja index` nor `deja index --rebuild` (which may delete index.db) brings
 * them back. One JSON object a line; rewritten whole through a temporary file
 * and a rename.
 *
 * @module
 */
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readTextSync } from "../../core/fsread.ts";
import { plural } from "../../core/text.ts";

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

/**
 * `meta` key: the {@link tombstoneStamp} of the tombstones file the index last made itself agree
 * with (its forgotten sessions removed). Written in the same file as the removal, it goes with
 * it when the index loses writes (its `-wal` deleted, an older copy put back: trial 111 F3, a
 * forgotten session was found again): then it differs from the file's stamp, and the index is
 * checked against the file again (lib/forget/reapply.ts).
 */
export const TOMBSTONES_KEY = "tombstones_applied";

/**
 * The tombstones file's stamp, `<size>:<mtime ms>`, read with one stat: '' when there is none
 * (an index with no forgotten session and no record of one agrees with it).
 */
export function tombstoneStamp(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.size}:${Math.trunc(st.mtimeMs)}` : "";
}

/**
 * Whether an index that recorded `recorded` ({@link TOMBSTONES_KEY}, undefined when it has no
 * record) agrees with the tombstones file beside `indexPath` as it is now.
 */
export function tombstonesAgree(recorded: string | undefined, indexPath: string): boolean {
  return (recorded ?? "") === tombstoneStamp(tombstoneFile(indexPath));
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
  try {
    writeFileSync(
      tmp,
      list.map((t) => JSON.stringify(t)).join("\n") + (list.length ? "\n" : ""),
      { mode: 0o600 },
    );
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (e) {
    // A write that failed (a full disk) leaves no temporary file behind (trial 114 F7).
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** `harness:id` of a session. */
export function keyOf(harness: string, id: string): string {
  return `${harness}:${id}`;
}

/** Forgotten sessions found in the index again and removed (lib/forget/reapply.ts). */
export interface Reforgotten {
  count: number;
  /** `harness:native id` of the first few. */
  first: string[];
}

/** The line said of {@link Reforgotten}: which forgotten sessions were found again and removed. */
export function reforgottenLine(r: Reforgotten): string {
  const more = r.count > r.first.length ? `, ${r.count - r.first.length} more` : "";
  return `deja: the index held ${plural(r.count, "forgotten session")} again (${
    r.first.join(", ")
  }${more}): it had lost writes made since the forget (its -wal removed, or an older copy put ` +
    "back); removed again, as tombstones.jsonl says";
}
