/**
 * Zstandard reading shared by the parsers whose stores compress (Crush parts,
 * Zed thread bodies, DeepSeek Harness session logs, Reasonix frames).
 *
 * `node:zlib`'s `zstdDecompressSync` (Deno 2.9, Bun) stops after the FIRST
 * frame of its input and ignores the rest (checked on Deno 2.9.6: two
 * concatenated frames decode to the first one only; the streaming
 * decompressor does the same). Logs that append one frame per write
 * (DeepSeek Harness `session.jsonl.zstd`) therefore have to be cut into
 * frames first. {@link unzstd} walks the frame headers (RFC 8878 §3.1: magic,
 * frame header descriptor, optional window/dictionary/content-size fields,
 * 3-byte block headers, optional 4-byte checksum) without decompressing,
 * skips skippable frames, and decompresses each complete frame on its own.
 * An incomplete last frame (a writer mid-append) is reported, not decoded.
 *
 * `node:zlib` is loaded on the first frame, not with this module: a Bun binary
 * spends several milliseconds setting it up, and the Crush hook, which runs
 * before every tool call, imports this module but rarely meets a frame.
 *
 * @module
 */
import process from "node:process";

type Zlib = { zstdDecompressSync(b: Uint8Array): Uint8Array };
let zlib: Zlib | undefined;

/** `node:zlib`'s zstdDecompressSync, loaded on first use. */
function zstdDecompressSync(b: Uint8Array): Uint8Array {
  zlib ??= (process as unknown as { getBuiltinModule(id: string): Zlib }).getBuiltinModule(
    "node:zlib",
  );
  return zlib.zstdDecompressSync(b);
}

/** The first four bytes of a zstd frame (0xFD2FB528 little-endian). */
export const ZSTD_MAGIC: readonly number[] = [0x28, 0xb5, 0x2f, 0xfd];

/** True when `bytes` starts with the zstd frame magic. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZSTD_MAGIC.every((b, i) => bytes[i] === b);
}

/** What {@link unzstd} decoded. */
export interface ZstdResult {
  /** The decompressed bytes of every complete frame, in order. */
  data: Uint8Array;
  /** Number of data frames decoded. */
  frames: number;
  /** Byte offset of an incomplete trailing frame, when the input ends mid-frame. */
  torn?: number;
  /** With `lenient`: the first frame that could not be read. */
  bad?: { at: number; message: string };
  /**
   * With `lenient`: every stretch that could not be read; decoding went on at
   * the next frame magic after each.
   */
  damaged?: Array<{ at: number; message: string }>;
}

const u32 = (b: Uint8Array, at: number) =>
  (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/**
 * The end offset of the frame starting at `start`, `-1` when the input ends
 * inside it, or `"skip"`-tagged end for a skippable frame.
 *
 * @throws Error for a bad magic number or a reserved block type.
 */
function frameEnd(b: Uint8Array, start: number): { end: number; skippable: boolean } | -1 {
  if (start + 4 > b.length) return -1;
  const magic = u32(b, start);
  if ((magic & 0xfffffff0) === 0x184d2a50) {
    if (start + 8 > b.length) return -1;
    const end = start + 8 + u32(b, start + 4);
    return end <= b.length ? { end, skippable: true } : -1;
  }
  if (magic !== 0xfd2fb528) throw new Error("not a zstd frame (bad magic number)");
  let p = start + 4;
  if (p >= b.length) return -1;
  const fhd = b[p++];
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  const checksum = (fhd >> 2) & 1;
  if (!single) p += 1;
  p += [0, 1, 2, 4][fhd & 3];
  p += fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag];
  for (;;) {
    if (p + 3 > b.length) return -1;
    const h = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16);
    p += 3;
    const type = (h >> 1) & 3;
    if (type === 3) throw new Error(`reserved zstd block type at byte ${p - 3}`);
    p += type === 1 ? 1 : h >>> 3;
    if (p > b.length) return -1;
    if (h & 1) break;
  }
  if (checksum) p += 4;
  return p <= b.length ? { end: p, skippable: false } : -1;
}

/**
 * Decompresses every complete zstd frame of `bytes` (one frame or many
 * concatenated) and joins their output.
 *
 * @param opts.lenient instead of throwing at a bad frame, report it in
 *   `damaged` and go on at the next frame magic after it (frames before and
 *   after the damage are kept); a frame cut short with a frame after it is
 *   damage too, not a torn tail.
 * @throws Error when a frame is malformed or fails to decompress (the message
 *   names the byte offset), unless `lenient`; an incomplete last frame is
 *   never an error (`torn`).
 */
export function unzstd(bytes: Uint8Array, opts: { lenient?: boolean } = {}): ZstdResult {
  const parts: Uint8Array[] = [];
  let size = 0;
  let frames = 0;
  let at = 0;
  const damaged: Array<{ at: number; message: string }> = [];
  const done = (torn?: number): ZstdResult => {
    const r: ZstdResult = { data: join(parts, size), frames };
    if (torn !== undefined) r.torn = torn;
    if (damaged.length) [r.bad, r.damaged] = [damaged[0], damaged];
    return r;
  };
  while (at < bytes.length) {
    let out: Uint8Array | undefined;
    let end: number;
    try {
      const f = frameEnd(bytes, at);
      if (f === -1) {
        // Cut short: the writer's last append, unless a later frame shows it was damage.
        const next = opts.lenient ? nextMagic(bytes, at + 1) : -1;
        if (next < 0) return done(at);
        throw new Error("frame cut short before a later frame");
      }
      end = f.end;
      if (!f.skippable) out = new Uint8Array(zstdDecompressSync(bytes.subarray(at, f.end)));
    } catch (e) {
      const message = `zstd frame at byte ${at}: ${(e as Error).message}`;
      if (!opts.lenient) throw new Error(message);
      damaged.push({ at, message });
      // Resynchronise at the next frame magic after the damage.
      const next = nextMagic(bytes, at + 1);
      if (next < 0) return done();
      at = next;
      continue;
    }
    if (out) {
      parts.push(out);
      size += out.length;
      frames++;
    }
    at = end;
  }
  return done();
}

/** Offset of the next zstd or skippable frame magic at or after `from`, or -1. */
function nextMagic(b: Uint8Array, from: number): number {
  for (let i = from; i + 4 <= b.length; i++) {
    const z = b[i] === 0x28 && b[i + 1] === 0xb5 && b[i + 2] === 0x2f && b[i + 3] === 0xfd;
    const skip = (b[i] & 0xf0) === 0x50 && b[i + 1] === 0x2a && b[i + 2] === 0x4d &&
      b[i + 3] === 0x18;
    if (z || skip) return i;
  }
  return -1;
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
