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

/** Bytes read at a time by {@link streamDocument}. */
const PIECE = 1 << 20;

/** What {@link streamDocument} read of a document besides the items it yielded. */
export interface StreamedDocument {
  /**
   * The top-level value, the streamed array left empty; after a failure, the
   * members finished before it (undefined when the value was not even begun).
   */
  value: unknown;
  /** Why the read stopped before the end, and the byte offset of the piece it stopped in. */
  failure?: { why: StreamFailure; at: number };
  /** Bytes that were not UTF-8 were read as U+FFFD. */
  repaired: boolean;
}

/**
 * Reads a JSON document too large to hold in pieces (parsers/_json_stream.ts),
 * yielding each item of the array under its top-level key `key` as soon as it
 * is read, never holding the items together; strings keep what the index can
 * store of them (`KEEP_CHARS`, core/text.ts). The generator's return value is
 * the rest of the document. Unlike {@link salvageDocument}, a damaged document
 * is read only up to the damage: the items before it are yielded, the failure
 * is returned.
 *
 * @throws the file-system error when the file cannot be opened (NotRegularFileError
 *   for something that is not a regular file).
 */
export function* streamDocument(
  path: string,
  key: string,
): Generator<unknown, StreamedDocument> {
  const items: unknown[] = [];
  const stream = new JsonStream(undefined, { key, item: (v) => items.push(v) });
  const fd = openRegularSync(path);
  const piece = new Uint8Array(PIECE);
  let pos = 0;
  try {
    for (;;) {
      const n = readSync(fd, piece, 0, PIECE, pos);
      if (n === 0) break;
      stream.push(n === PIECE ? piece : piece.subarray(0, n));
      for (const item of items) yield item;
      items.length = 0;
      if (stream.failure) break;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  const done = stream.end();
  return {
    value: done ? done.value : stream.partial,
    ...(stream.failure ? { failure: { why: stream.failure, at: pos } } : {}),
    repaired: stream.repaired,
  };
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
    problem?.(path, new Error(`damaged JSON, read what was intact (${damaged[0]})`));
  }
  return value;
}
