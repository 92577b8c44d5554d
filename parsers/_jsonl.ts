/**
 * Streaming JSONL reading with byte offsets, for append-only stores.
 *
 * Reads in 256 KiB chunks, never the whole file. {@link readLines} hands out
 * raw lines, skipping one over its size cap as `oversized` without holding it
 * (or, when asked, feeding a long line piece by piece to a sink instead).
 * {@link readJsonl} parses them: a line up to {@link STREAM_LINE_BYTES} with
 * `JSON.parse`, a longer one in pieces (parsers/_json_stream.ts) keeping of
 * each string only what the index could store, so memory stays bounded however
 * long the line. A line that is not valid UTF-8 is read with U+FFFD for each
 * bad sequence (core/text.ts `decodeUtf8`) and kept, counted `invalid_utf8`
 * (repaired, not lost); one that is not JSON is skipped as `malformed_json`
 * (only that, even when it also held bad bytes). An unterminated last line that
 * does not parse is left for the next pass (the harness is still writing it):
 * `ctx.endOffset` stops before it, and it is counted `partial_line` (pending,
 * not lost: lib/skips.ts PENDING_REASONS), unless it cannot become a record
 * (a NUL byte, a syntax error before its end): then it is `malformed_json`.
 * A file whose first lines are nearly
 * all not JSON is not JSONL at all: one `not_jsonl` skip, not one per line.
 *
 * @module
 */
import { closeSync, readSync } from "node:fs";
import { openRegularSized } from "../core/fsread.ts";
import { collectGarbage } from "../core/runtime.ts";
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import type { ParseCtx, SkipReason } from "../core/model.ts";
import { JsonStream } from "./_json_stream.ts";

const CHUNK = 256 * 1024;
/** Default cap on one line: 32 MiB. */
export const MAX_LINE_BYTES = 32 << 20;

/** Where {@link readLines} hands the bytes of a line too long to hold, piece by piece. */
export interface LineSink {
  /** The next bytes of the line (a view valid during the call only). */
  push(bytes: Uint8Array): void;
}

/** What {@link readLines} does with long lines: over `over` bytes, a sink from `open` takes them. */
export interface LongLines<T extends LineSink> {
  over: number;
  open(): T;
}

/** One raw line. */
export interface RawLine<T extends LineSink = LineSink> {
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past the line's newline (or the end of file for the tail). */
  end: number;
  /** The line's bytes without the newline; empty when `oversized`. */
  bytes: Uint8Array;
  /** True when the line was longer than the cap (its bytes were dropped). */
  oversized: boolean;
  /** True for a last line with no newline after it. */
  partial: boolean;
  /** The sink that took the line's bytes instead of `bytes` (a long line, see {@link LongLines}). */
  sink?: T;
}

/**
 * Yields the lines of `path` from byte `start` on.
 *
 * @param maxLine cap on one line in bytes (default {@link MAX_LINE_BYTES}).
 * @param long where lines over `long.over` bytes go instead of being held:
 *   each such line gets its own sink, fed its bytes as they are read (no cap
 *   applies), and is yielded with it and no `bytes`.
 * @throws the file-system error when the file cannot be opened;
 *   `NotRegularFileError` for a FIFO, device or socket (core/fsread.ts).
 */
export function* readLines<T extends LineSink = LineSink>(
  path: string,
  start = 0,
  maxLine = MAX_LINE_BYTES,
  long?: LongLines<T>,
): Generator<RawLine<T>> {
  // Read synchronously: a source read in process is a small one (lib/parse_pool.ts), a large
  // one is read in a parse worker, and four awaited file operations per store cost a run over
  // thousands of small stores more than the reads themselves (issue 18). A plain generator, not
  // an async one: see readJsonl for what the promises of two async hops a line cost.
  const { fd, size } = openRegularSized(path);
  try {
    // A buffer no larger than the file (16 KiB at least, for one that grows while read): most
    // stores are small. A 256 KiB buffer for each of the 2,282 sessions of 40 KB of the issue-18
    // corpus: peak RSS 126-129 MB, against 120-123 MB sized (compiled binary, 5 alternated
    // runs; wall and CPU within the noise, 3.39 s / 5.23 s mean before, 3.30 s / 5.11 s after).
    const chunk = new Uint8Array(Math.min(CHUNK, Math.max(size - start + 1, 16 << 10)));
    let parts: Uint8Array[] = [];
    let partLen = 0;
    let oversized = false;
    let sink: T | undefined;
    let lineStart = start;
    let pos = start;
    // A line that grows past `long.over`: what was held goes to a new sink, the rest follows.
    const toSink = (piece: Uint8Array): boolean => {
      if (!long) return false;
      if (!sink) {
        if (partLen + piece.length <= long.over) return false;
        sink = long.open();
        for (const p of parts) sink.push(p);
        parts = [];
        partLen = 0;
      }
      sink.push(piece);
      return true;
    };
    const take = (piece: Uint8Array) => {
      if (oversized || toSink(piece)) return;
      if (partLen + piece.length > maxLine) {
        oversized = true;
        parts = [];
        partLen = 0;
        return;
      }
      parts.push(piece.slice());
      partLen += piece.length;
    };
    const join = (last: Uint8Array): Uint8Array => {
      if (parts.length === 0) return last;
      const out = new Uint8Array(partLen + last.length);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      out.set(last, at);
      return out;
    };
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break;
      let i = 0;
      while (i < bytesRead) {
        const nl = chunk.indexOf(10, i);
        if (nl === -1 || nl >= bytesRead) {
          take(chunk.subarray(i, bytesRead));
          break;
        }
        const end = pos + nl + 1;
        let bytes: Uint8Array = new Uint8Array(0);
        if (oversized || toSink(chunk.subarray(i, nl))) {
          // held by no one: the line was dropped, or its sink has it
        } else if (partLen + (nl - i) > maxLine) {
          oversized = true;
        } else {
          bytes = join(chunk.subarray(i, nl));
        }
        const line: RawLine<T> = { start: lineStart, end, bytes, oversized, partial: false };
        if (sink) line.sink = sink;
        yield line;
        parts = [];
        partLen = 0;
        oversized = false;
        sink = undefined;
        lineStart = end;
        i = nl + 1;
      }
      pos += bytesRead;
    }
    if (partLen > 0 || oversized || sink) {
      const line: RawLine<T> = {
        start: lineStart,
        end: pos,
        bytes: join(new Uint8Array(0)),
        oversized,
        partial: true,
      };
      if (sink) line.sink = sink;
      yield line;
    }
  } finally {
    closeSync(fd);
  }
}

/** One parsed JSONL record. */
export interface JsonLine {
  value: unknown;
  /** Byte offset of the record. */
  start: number;
  end: number;
}

/**
 * Lines longer than this (bytes) are not held whole: {@link readJsonl} reads
 * them in pieces with {@link JsonStream}, keeping of each string only what the
 * index can store of it.
 */
export const STREAM_LINE_BYTES = 1 << 20;

/** Bytes of lines read between two garbage collection hints (core/runtime.ts). */
const GC_BYTES = 32 << 20;

/** A {@link JsonStream} that counts the bytes it is fed towards a garbage collection. */
class PacedStream extends JsonStream {
  constructor(private took: (n: number) => void) {
    super();
  }
  override push(b: Uint8Array): void {
    super.push(b);
    this.took(b.length);
  }
}

/** What one line read by {@link readJsonl} comes to. */
type Outcome =
  /** Nothing but white space; `end` is undefined for an unterminated one. */
  | { kind: "blank"; end?: number }
  /** An unterminated last line that does not parse yet: the pass stops before it. */
  | { kind: "unfinished"; where: string }
  | { kind: "skip"; reason: SkipReason; where: string; detail?: string; end: number }
  | {
    kind: "record";
    record: JsonLine;
    repaired: boolean;
    where: string;
    /** A torn record before it on its line, lost (counted `malformed_json`). */
    torn?: boolean;
  };

/**
 * Lines judged, from the start of a file whose first line is not JSON, before
 * deciding whether the file is JSONL at all ({@link readJsonl}).
 */
export const JUDGE_LINES = 16;

/**
 * Yields each JSON value of a JSONL file from `ctx.offset`, counting what it
 * skips through `ctx.skip` and setting `ctx.endOffset` to the byte after the
 * last record it consumed (an unparseable unterminated tail is not consumed).
 * A UTF-8 BOM and surrounding white space are ignored; blank lines are skipped
 * silently. A file with nothing but white space, read from its start, is
 * counted `empty` once.
 *
 * A file read from its start whose first line is not JSON is judged on its
 * first {@link JUDGE_LINES} lines: when at most one in eight of them is a JSON
 * object, it is not JSONL at all (random bytes, a binary, a file of another
 * format) and counts one `not_jsonl` skip with its path, nothing else, and
 * nothing of it is consumed; otherwise its lines are counted one by one as in
 * any other file.
 *
 * A line over {@link STREAM_LINE_BYTES} (or `maxLine`, when smaller) is read in
 * pieces, never held: its strings longer than `KEEP_CHARS` (core/text.ts) keep
 * their head and tail around a marker counting what was cut, as the index
 * would cap them anyway. Such a line that is not JSON counts `malformed_json`
 * (`oversized` when it is also over `maxLine`), and one whose kept values
 * would still pass `LINE_BUDGET` (parsers/_json_stream.ts) counts `oversized`.
 *
 * A plain generator (a caller may still `for await` it): as async generators,
 * this and {@link readLines} cost two promise hops a line, and the whole read
 * of the 100 MB bench corpus (61k lines, one Bun thread, FTL off as a batch
 * run has it, load 7) took 360-480 ms of CPU against 180-200 for a bare loop
 * of `readSync`, `decode` and `JSON.parse`; as generators read with `for ... of`,
 * the common line taken without `outcome`'s objects, 260-320 ms (issue 18).
 * Measured and not kept: decoding each 256 KiB read once and cutting the lines
 * from the string (`indexOf("\n")`, the bytes' offsets kept beside): 190-205
 * ms against 185-235 a line at a time with `JSON.parse`, no gain.
 */
export function* readJsonl(
  path: string,
  ctx: ParseCtx,
  maxLine = MAX_LINE_BYTES,
): Generator<JsonLine> {
  ctx.endOffset = ctx.offset;
  let seen = false;
  let sinceGc = 0;
  const took = (n: number) => {
    sinceGc += n;
    if (sinceGc < GC_BYTES) return;
    collectGarbage();
    sinceGc = 0;
  };
  // A line read in pieces is counted as its pieces come: counted when it ends, a 200 MB line
  // left what its pieces' text made uncollected (issue 18's scale run: 137 -> 162 MB at it).
  const long = {
    over: Math.min(STREAM_LINE_BYTES, maxLine),
    open: () => new PacedStream(took),
  };
  // From the start of a file whose first line is not JSON: what the judged lines came to.
  let judging: Outcome[] | undefined;
  let first = ctx.offset === 0;
  for (const line of readLines(path, ctx.offset, maxLine, long)) {
    if (!line.sink) took(line.end - line.start);
    seen ||= line.oversized || line.sink !== undefined || line.bytes.some((b) => b > 0x20);
    if (!first && !judging && !line.sink && !line.oversized) {
      // The common line, read without the objects `outcome` describes it with (the same result).
      const record = plainRecord(line);
      if (record) {
        ctx.endOffset = record.end;
        yield record;
        continue;
      }
    }
    const got = outcome(line, path, maxLine);
    if (first && got.kind !== "blank") {
      first = false;
      if (got.kind === "skip" && got.reason === "malformed_json") judging = [];
    }
    if (judging) {
      judging.push(got);
      if (got.kind !== "unfinished" && judged(judging) < JUDGE_LINES) continue;
      if (notJsonl(ctx, path, judging)) return;
      const held = judging;
      judging = undefined;
      for (const o of held) {
        if (o.kind === "unfinished") return unfinished(ctx, o.where);
        yield* apply(ctx, o);
      }
      continue;
    }
    if (got.kind === "unfinished") return unfinished(ctx, got.where);
    yield* apply(ctx, got);
  }
  if (judging) {
    if (notJsonl(ctx, path, judging)) return;
    for (const o of judging) yield* apply(ctx, o);
  }
  // One meaning everywhere: a store with nothing but white space, read from its start, is `empty`.
  if (!seen && ctx.offset === 0) ctx.skip("empty", path, "no records");
}

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * `line` as a record when it is valid UTF-8 holding one JSON value; undefined
 * for anything else (blank, repaired, not JSON), which `outcome` then judges.
 */
function plainRecord(line: RawLine<JsonStream>): JsonLine | undefined {
  let text: string;
  try {
    text = strict.decode(line.bytes);
  } catch {
    return undefined;
  }
  try {
    return { value: JSON.parse(text), start: line.start, end: line.end };
  } catch {
    return undefined;
  }
}

/** What `line` comes to, without counting or yielding anything yet. */
function outcome(line: RawLine<JsonStream>, path: string, maxLine: number): Outcome {
  const where = `${path}@${line.start}`;
  const { start, end } = line;
  if (line.sink) {
    // A line whose bytes already failed before its end is no record being written.
    const broken = line.sink.failure === "malformed_json";
    const got = line.sink.end();
    if (!got && line.partial && !broken) return { kind: "unfinished", where }; // left for the next pass
    if (got) {
      const record = { value: got.value, start, end };
      return { kind: "record", record, repaired: line.sink.repaired, where };
    }
    const size = end - start;
    const reason = size > maxLine ? "oversized" : line.sink.failure!;
    const detail = `line of ${size} bytes read in pieces: ${line.sink.failure}`;
    return { kind: "skip", reason, where, detail, end };
  }
  if (line.oversized) {
    // A long line the harness is still writing: counted once, when it is finished; until
    // then the pass stops before it (read again, in bounded steps, when the file grows).
    if (line.partial) return { kind: "unfinished", where };
    return { kind: "skip", reason: "oversized", where, detail: `line over ${maxLine} bytes`, end };
  }
  const { text, repaired } = decodeUtf8(line.bytes);
  const trimmed = text.trim();
  if (trimmed === "") return { kind: "blank", end: line.partial ? undefined : end };
  try {
    return { kind: "record", record: { value: JSON.parse(trimmed), start, end }, repaired, where };
  } catch {
    // An unterminated one: the harness is still writing it, not a bad record, just not
    // finished. It is left for the next pass (endOffset stops before it). One with a NUL
    // byte is not (JSON text never holds one raw): damage, such as a zero-filled tail.
    if (line.partial && !line.bytes.includes(0)) return { kind: "unfinished", where };
    const after = line.partial ? undefined : afterTorn(text, start, end);
    if (after) return { kind: "record", record: after, repaired, where, torn: true };
    return { kind: "skip", reason: "malformed_json", where, end };
  }
}

/** Lines up to this size are searched for a whole record after a torn one ({@link afterTorn}). */
const TORN_MAX = 4 << 20;

/**
 * A whole JSON object that ends line `text` after a torn one: a harness that died mid-line
 * and wrote its next record on (trials 34, 36: the new record was lost with the fragment).
 * The first `{"` from which the rest of the line parses as an object, of at most 16 tried,
 * in a line of at most {@link TORN_MAX} characters; undefined when none.
 */
function afterTorn(text: string, start: number, end: number): JsonLine | undefined {
  if (text.length > TORN_MAX) return undefined;
  let at = text.indexOf('{"', 1);
  for (let tries = 0; at > 0 && tries < 16; tries++) {
    try {
      const value = JSON.parse(text.slice(at));
      if (value && typeof value === "object" && !Array.isArray(value)) {
        return { value, start: start + new TextEncoder().encode(text.slice(0, at)).length, end };
      }
    } catch { /* not from here */ }
    at = text.indexOf('{"', at + 1);
  }
  return undefined;
}

/** Counts or yields one line's outcome, moving `ctx.endOffset` past it. */
function* apply(ctx: ParseCtx, o: Outcome): Generator<JsonLine> {
  if (o.kind === "blank") {
    if (o.end !== undefined) ctx.endOffset = o.end;
  } else if (o.kind === "skip") {
    ctx.skip(o.reason, o.where, o.detail);
    ctx.endOffset = o.end;
  } else if (o.kind === "record") {
    ctx.endOffset = o.record.end;
    if (o.torn) ctx.skip("malformed_json", o.where, "a torn record, a whole one after it read");
    if (o.repaired) ctx.skip("invalid_utf8", o.where, REPAIRED);
    yield o.record;
  }
}

/** Lines among `held` that were judged: complete and not blank. */
function judged(held: Outcome[]): number {
  return held.filter((o) => o.kind === "skip" || o.kind === "record").length;
}

/**
 * When at most one in eight of the judged lines is a JSON object, counts the
 * file `not_jsonl` once (nothing of it consumed) and returns true.
 */
function notJsonl(ctx: ParseCtx, path: string, held: Outcome[]): boolean {
  const n = judged(held);
  const objects =
    held.filter((o) =>
      o.kind === "record" && typeof o.record.value === "object" && o.record.value !== null &&
      !Array.isArray(o.record.value)
    ).length;
  if (n === 0 || objects * 8 > n) return false;
  ctx.endOffset = ctx.offset;
  const what = n === 1
    ? "its one line is not a JSON record"
    : `${n - objects} of its first ${n} lines are not JSON records`;
  ctx.skip("not_jsonl", path, `not JSONL: ${what}`);
  return true;
}

/** Counts an unterminated last line left for the next pass (`partial_line`, not lost). */
function unfinished(ctx: ParseCtx, where: string): void {
  ctx.skip("partial_line", where, "last line not finished yet; read once it is");
}

/** Reads the first `n` JSON records of a file from byte 0 (header re-reads on resume). */
export async function headRecords(path: string, n: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const line of readLines(path, 0)) {
    if (line.oversized) continue;
    try {
      const t = decodeUtf8(line.bytes).text.trim();
      if (t) out.push(JSON.parse(t));
    } catch { /* not a record */ }
    if (out.length >= n || line.start > 4 << 20) break;
  }
  return out;
}
