/**
 * Reading JSON with every failure counted instead of thrown: whole documents
 * (files rewritten in place, re-read whole on change) and JSON values kept
 * in SQLite columns.
 *
 * @module
 */
import { readBytes } from "../core/fsread.ts";
import type { ParseCtx } from "../core/model.ts";
import { type Obj, obj } from "./_util.ts";

/** Cap on one document: 256 MiB. */
const MAX_DOC = 256 << 20;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads and parses a whole JSON document. A missing file, an empty file,
 * invalid UTF-8, an oversized file, invalid JSON or something that is not a
 * regular file (a FIFO, a link to a device: lib/fsread.ts) is counted and
 * gives undefined.
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
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    ctx.skip("invalid_utf8", where);
    return undefined;
  }
  if (text.trim() === "") {
    ctx.skip("empty", where);
    return undefined;
  }
  return parseJson(text.replace(/^\uFEFF/, ""), where, ctx);
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
