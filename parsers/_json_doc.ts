/**
 * Reading JSON with every failure counted instead of thrown: whole documents
 * (files rewritten in place, re-read whole on change) and JSON values kept
 * in SQLite columns.
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { openRegularSync, readBytes } from "../core/fsread.ts";
import { closeSync, readSync } from "node:fs";
import { JsonStream, type StreamFailure } from "./_json_stream.ts";
import type { ParseCtx } from "../core/model.ts";
import { type Obj, obj } from "./_util.ts";
import { salvageJson } from "./_json_salvage.ts";

/** Cap on one document: 256 MiB. */
const MAX_DOC = 256 << 20;

/**
 * Reads and parses a whole JSON document. A missing file, an empty file, an
 * oversized file or something that is not a regular file (a FIFO, a link to a
 * device: core/fsread.ts) is counted and gives undefined. Invalid UTF-8 is
 * counted and read with replacement characters; a document that does not
 * parse whole is read record by record ({@link salvageDocument}), so one
 * damaged record costs only itself.
 */
export async function readJsonDocument(
  path: string,
  where: string,
  ctx: ParseCtx,
): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(path, MAX_DOC);
  } catch (e) {
    const big = (e as { code?: string }).code === "EFBIG";
    ctx.skip(big ? "oversized" : "unreadable", where, (e as Error).message);
    return undefined;
  }
  const { text, repaired } = decodeUtf8(bytes);
  if (repaired) ctx.skip("invalid_utf8", where, REPAIRED);
  if (text.trim() === "") {
    ctx.skip("empty", where);
    return undefined;
  }
  return salvageDocument(text.replace(/^\uFEFF/, ""), where, ctx);
}

/**
 * A document over this many bytes is not read whole: {@link streamDocument}
 * reads it in pieces (one whole read holds the bytes, their text and the parsed
 * value at once, several times the file's size).
 */
export const WHOLE_DOC_BYTES = 64 << 20;

/**
 * A document over this many bytes, of a harness whose reader can take it in pieces
 * (a Gemini chat, a Cline task's history), is read with {@link streamDocument}: read
 * whole, one holds about seven times its size at once (trial 28: a 64 MB Gemini chat
 * peaked at 446 MB; trial 29: a 151 MB Cline history at 708 MB).
 */
export const STREAM_DOC_BYTES = 8 << 20;

/** Bytes of a document read whole: `DEJA_WHOLE_DOC_MAX` (tests), else {@link STREAM_DOC_BYTES}. */
export function wholeDocMax(ctx: Pick<ParseCtx, "env">): number {
  const n = Number(ctx.env.get("DEJA_WHOLE_DOC_MAX"));
  return n > 0 ? Math.min(n, STREAM_DOC_BYTES) : STREAM_DOC_BYTES;
}

/**
 * The first byte of a file that is not white space or a BOM (`[`, `{`), or
 * undefined when its first KB holds none.
 *
 * @throws the file-system error when the file cannot be opened.
 */
export function firstJsonByte(path: string): string | undefined {
  const fd = openRegularSync(path);
  try {
    const b = new Uint8Array(1024);
    const n = readSync(fd, b, 0, b.length, 0);
    for (let i = 0; i < n; i++) {
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (i < 3 && (c === 0xef || c === 0xbb || c === 0xbf)) continue;
      return String.fromCharCode(c);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Bytes read at a time by {@link streamDocument}. */
const PIECE = 1 << 20;

/** What {@link streamDocument} read of a document besides the items it yielded. */
export interface StreamedDocument {
  /**
   * The top-level value, the streamed array left empty; after a failure, the
   * members finished before it (undefined when the value was not even begun).
   */
  value: unknown;
  /** Why the read stopped before the end, and the byte offset it stopped at. */
  failure?: { why: StreamFailure; at: number };
  /** Damaged stretches of the streamed array passed over: where each began and the byte read from again. */
  skipped: Array<{ at: number; resumed: number }>;
  /** Bytes that were not UTF-8 were read as U+FFFD. */
  repaired: boolean;
}

/**
 * Reads a JSON document too large to hold in pieces (parsers/_json_stream.ts),
 * yielding each item of the array under its top-level key `key` as soon as it
 * is read, never holding the items together; strings keep what the index can
 * store of them (`KEEP_CHARS`, core/text.ts). The generator's return value is
 * the rest of the document.
 *
 * A damaged item is passed over when `resync` is given: the bytes that start an
 * item on a line of its own as its writer lays the document out (`\n    {` for
 * a pretty-printed member array). The read goes on from the next such start and
 * each damaged stretch is returned in `skipped`; what follows the array (its
 * document's later members) is then not read. Without one, or when no item
 * starts after the damage, the read stops there (`failure`).
 *
 * @throws the file-system error when the file cannot be opened (NotRegularFileError
 *   for something that is not a regular file).
 */
export function* streamDocument(
  path: string,
  key: string,
  resync?: Uint8Array,
): Generator<unknown, StreamedDocument> {
  const items: unknown[] = [];
  const item = (v: unknown) => items.push(v);
  let stream = new JsonStream(undefined, { key, item });
  const first = stream;
  const skipped: StreamedDocument["skipped"] = [];
  let failure: StreamedDocument["failure"];
  const fd = openRegularSync(path);
  const piece = new Uint8Array(PIECE);
  let pos = 0;
  /** Where a damaged item began, while the next item's start is looked for. */
  let lost: number | undefined;
  /** Bytes that were not UTF-8, in a read that was then passed over. */
  let repaired = false;
  try {
    for (;;) {
      const n = readSync(fd, piece, 0, PIECE, pos);
      if (n === 0) break;
      let from = 0;
      while (from < n) {
        if (lost !== undefined) {
          const at = find(piece, n, from, resync!);
          if (at < 0) break;
          skipped.push({ at: lost, resumed: pos + at });
          lost = undefined;
          repaired ||= stream.repaired;
          stream = new JsonStream(undefined, { key: "", item });
          stream.push(OPEN);
          from = at;
        }
        stream.push(from === 0 && n === PIECE ? piece : piece.subarray(from, n));
        for (const v of items) yield v;
        items.length = 0;
        if (!stream.failure) break;
        const at = pos + from + stream.failedAt;
        // The array's items read again after a damage ended with the array: done.
        if (stream !== first && stream.complete) break;
        // A damage may also close the array and the document early (`"}]}` in a message):
        // text after a whole document is looked past too, for the next item.
        if (!resync || !(stream.inSpill || stream.complete)) {
          failure = { why: stream.failure, at };
          break;
        }
        lost = at;
        from += stream.failedAt + 1;
      }
      if (failure || (stream !== first && stream.complete)) break;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  if (lost !== undefined) failure = { why: "malformed_json", at: lost };
  // Read again after a damage, the file ended before the array did (cut short).
  else if (stream !== first && !stream.complete && !failure) {
    failure = { why: "malformed_json", at: pos };
  }
  const done = first.failure ? undefined : first.end();
  if (stream === first && !failure && !done) failure = { why: first.failure!, at: pos };
  return {
    value: done ? done.value : first.partial,
    ...(failure ? { failure } : {}),
    skipped,
    repaired: repaired || first.repaired || stream.repaired,
  };
}

/**
 * Counts what a {@link streamDocument} read passed over or stopped at, in `path`: each
 * damaged item passed over, and where the read stopped with the `n` items kept before it.
 */
export function countStreamDamage(
  doc: StreamedDocument,
  path: string,
  n: number,
  ctx: Pick<ParseCtx, "skip">,
): void {
  for (const x of doc.skipped) {
    ctx.skip(
      "malformed_json",
      `${path}@${x.at}`,
      `a damaged message passed over: read again from byte ${x.resumed}`,
    );
  }
  if (doc.failure) {
    ctx.skip(doc.failure.why, `${path}@${doc.failure.at}`, `read up to here: ${n} messages kept`);
  }
}

/** `[`: a read resumed after a damage is the array's items alone. */
const OPEN = new Uint8Array([0x5b]);

/** The first place of `pattern` in `b[from..n)`, or -1 (a start split between pieces is missed). */
function find(b: Uint8Array, n: number, from: number, pattern: Uint8Array): number {
  for (
    let i = b.indexOf(pattern[0], from);
    i >= 0 && i + pattern.length <= n;
    i = b.indexOf(pattern[0], i + 1)
  ) {
    let j = 1;
    while (j < pattern.length && b[i + j] === pattern[j]) j++;
    if (j === pattern.length) return i + 1; // the item starts after the line break
  }
  return -1;
}

/**
 * Parses a whole JSON document's text; when it does not parse, reads it
 * record by record (`_json_salvage.ts`): each damaged record is counted as
 * `malformed_json` and the rest is kept. Undefined when nothing is readable.
 */
export function salvageDocument(
  text: string,
  where: string,
  ctx: Pick<ParseCtx, "skip">,
): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return salvageJson(text, where, ctx);
  }
}

/** {@link readJsonDocument}, then the value must be an object (else counted `bad_shape`). */
export async function readJsonObject(
  path: string,
  where: string,
  ctx: ParseCtx,
): Promise<Obj | undefined> {
  const doc = await readJsonDocument(path, where, ctx);
  return doc === undefined ? undefined : objectOrSkip(doc, where, ctx);
}

/**
 * A TEXT or BLOB column holding a JSON object, decoded; a value that is not
 * text, not JSON or not an object is counted.
 */
export function jsonColumn(v: unknown, where: string, ctx: ParseCtx): Obj | undefined {
  const s = typeof v === "string"
    ? v
    : v instanceof Uint8Array
    ? new TextDecoder().decode(v)
    : undefined;
  if (s === undefined) {
    ctx.skip("bad_shape", where, "data is not text");
    return undefined;
  }
  const parsed = parseJson(s, where, ctx);
  return parsed === undefined ? undefined : objectOrSkip(parsed, where, ctx);
}

function parseJson(text: string, where: string, ctx: ParseCtx): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    ctx.skip("malformed_json", where, (e as Error).message);
    return undefined;
  }
}

function objectOrSkip(v: unknown, where: string, ctx: ParseCtx): Obj | undefined {
  const o = obj(v);
  if (!o) ctx.skip("bad_shape", where, "not a JSON object");
  return o;
}

/**
 * Reads a harness's registry or companion index (Crush's `projects.json`)
 * for discovery. A missing file is normal and gives undefined; an unreadable
 * or damaged one is reported through `problem` (the indexer lists it as an
 * error of the harness and keeps the stores it found before), and what can
 * still be read of it is returned ({@link salvageDocument}).
 */
export async function readRegistryJson(
  path: string,
  problem: ((path: string, error: Error) => void) | undefined,
  maxBytes = 8 << 20,
): Promise<unknown> {
  let text: string;
  try {
    // Regular files only, never more than maxBytes read (core/fsread.ts).
    text = decodeUtf8(await readBytes(path, maxBytes)).text;
  } catch (e) {
    if ((e as { code?: string }).code !== "ENOENT") problem?.(path, e as Error);
    return undefined;
  }
  const damaged: string[] = [];
  const value = salvageDocument(text.replace(/^\uFEFF/, ""), path, {
    skip: (_reason, where, detail) => damaged.push(`${where}${detail ? `: ${detail}` : ""}`),
  });
  if (damaged.length) {
    // trial 101 F7: "read what was intact" of `{"projects":[`, where nothing was.
    const what = holdsAnything(value) ? "read what was intact" : "nothing in it could be read";
    problem?.(path, new Error(`damaged JSON, ${what} (${damaged[0]})`));
  }
  return value;
}

/** Whether a salvaged value holds any value of its own (`{"projects": []}` holds none). */
function holdsAnything(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (Array.isArray(v)) return v.some(holdsAnything);
  if (typeof v === "object") return Object.values(v as object).some(holdsAnything);
  return true;
}
