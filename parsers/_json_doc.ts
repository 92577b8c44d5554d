/**
 * Reading JSON with every failure counted instead of thrown: whole documents
 * (files rewritten in place, re-read whole on change) and JSON values kept
 * in SQLite columns.
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { readBytes } from "../core/fsread.ts";
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
