/**
 * Taking notes out of deja's own notes file (`notes.jsonl`, parsers/deja.ts).
 * The file is deja's, not a harness's store, so a forget removes the notes'
 * lines from it instead of only keeping them out of the index: their text is
 * gone from disk, and a note written later under the same session id (one per
 * project and day) is read as usual. The file is rewritten through a
 * temporary file and a rename; every other line is kept byte for byte
 * (malformed ones and an unterminated tail included).
 *
 * @module
 */
import {
  appendFileSync,
  chmodSync,
  linkSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { readBytesSync } from "../../core/fsread.ts";
import { type NoteRecord, noteRecord } from "../../parsers/deja.ts";

/** Largest notes file rewritten (bytes); a larger one is refused rather than read in part. */
const MAX_NOTES = 1 << 30;

/** The lines of `bytes`, each with its newline (the last may have none). */
function lines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** Reads a line as a note, or undefined (blank, malformed, not a note, or unterminated). */
function parseLine(line: Uint8Array, tz: string | undefined): NoteRecord | undefined {
  if (line[line.length - 1] !== 0x0a) return undefined; // a tail still being written
  try {
    return noteRecord(JSON.parse(new TextDecoder().decode(line)), tz);
  } catch {
    return undefined;
  }
}

/** The notes of the file at `path`, read in zone `tz` (none when it is missing). */
export function listNotes(path: string, tz?: string): NoteRecord[] {
  let bytes: Uint8Array;
  try {
    bytes = readBytesSync(path, MAX_NOTES);
  } catch {
    return [];
  }
  return lines(bytes).map((l) => parseLine(l, tz)).filter((n) => n !== undefined);
}

/**
 * Removes from the notes file at `path` every note `drop` picks (read in zone
 * `tz`) and returns them; the file is left untouched when none is picked.
 * Call with the writer lock held. A note appended while the file is being
 * rewritten is not lost: the size is checked before the rename and the
 * rewrite starts over when it changed. With `keep`, the file as it was is kept there (a
 * hard link: no room needed) for {@link putBackNotes}, when a note was dropped.
 *
 * @throws {Error} when the file cannot be read or written; no temporary file is left.
 */
export function dropNotes(
  path: string,
  tz: string | undefined,
  drop: (n: NoteRecord) => boolean,
  keep?: string,
): NoteRecord[] {
  for (let attempt = 0;; attempt++) {
    let bytes: Uint8Array;
    try {
      bytes = readBytesSync(path, MAX_NOTES);
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return [];
      throw e;
    }
    const dropped: NoteRecord[] = [];
    const kept: Uint8Array[] = [];
    for (const l of lines(bytes)) {
      const n = parseLine(l, tz);
      if (n && drop(n)) dropped.push(n);
      else kept.push(l);
    }
    if (!dropped.length) return [];
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    const out = new Uint8Array(kept.reduce((s, l) => s + l.length, 0));
    let at = 0;
    for (const l of kept) {
      out.set(l, at);
      at += l.length;
    }
    try {
      writeFileSync(tmp, out, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      // `deja remember` appends without the writer lock: never rename over a line it just added.
      if (statSync(path).size !== bytes.length) {
        rmSync(tmp, { force: true });
        if (attempt < 5) continue;
        throw new Error(`${path} kept changing while it was rewritten; nothing was removed`);
      }
      if (keep) linkSync(path, keep);
      renameSync(tmp, path);
    } catch (e) {
      // A write that failed (a full disk) leaves no temporary file behind (trial 114 F7).
      rmSync(tmp, { force: true });
      throw e;
    }
    return dropped;
  }
}

/**
 * Puts the notes file at `path` back as {@link dropNotes} kept it at `kept` (its rewrite
 * undone: the step after it failed), with any line appended to the file since `size` (its
 * length after the rewrite) added again. A rename: it needs no room on a full disk, but
 * for those lines.
 */
export function putBackNotes(path: string, kept: string, size: number): void {
  const now = readFileSync(path);
  if (now.length > size) appendFileSync(kept, now.subarray(size));
  renameSync(kept, path);
}
