/**
 * Whether a SQLite store's write-ahead log (`<db>-wal`) is damaged, read as a plain file
 * (read-only; the store is never opened for it). SQLite applies a log's frames up to the
 * first one whose checksum fails, or that is cut short, and says nothing of the rest: a
 * store read through a damaged log returns an older state of itself, which looks like
 * messages or sessions deleted (trial 114 F4). lib/index_source.ts asks this before it
 * follows a read of a database that returned less than the index held.
 *
 * The format (public, sqlite.org/fileformat.html): a 32-byte header (magic 0x377f0682 or
 * 0x377f0683, version, page size, checkpoint sequence, two salts, two checksums over the
 * first 24 bytes), then frames of a 24-byte header (page number, the database's size in
 * pages after a commit, else 0, the two salts, two checksums) and one page. A frame is valid
 * while its salts are the header's and the checksum, carried on from the header's over each
 * frame's first 8 header bytes and its page, holds.
 *
 * A log ends cleanly at its end, or at a frame of other salts (frames an earlier log left,
 * which SQLite writes over from the start after a checkpoint). It is damaged when a frame
 * with the header's salts fails its checksum, when its last frame is cut short, or when
 * its header is not a log's header.
 *
 * @module
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;

/**
 * SQLite's log checksum over `data` (a multiple of 8 bytes), carried on from `s`: words read
 * big-endian when `big`, else little-endian.
 */
export function walChecksum(data: Uint8Array, big: boolean, s: [number, number]): [number, number] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let s0 = s[0], s1 = s[1];
  for (let i = 0; i + 8 <= data.byteLength; i += 8) {
    s0 = (s0 + view.getUint32(i, !big) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !big) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * Why the log at `path` is damaged (`frame 12 of 40 fails its checksum`), or null when it is
 * absent, empty, unreadable here, or ends cleanly.
 */
export function walDamage(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = statSync(path).size;
    if (size === 0) return null;
    const head = new Uint8Array(32);
    if (readSync(fd, head, 0, 32, 0) < 32) return "its header is cut short";
    const hv = new DataView(head.buffer);
    const magic = hv.getUint32(0);
    const pageSize = hv.getUint32(8);
    if (
      (magic !== MAGIC_LE && magic !== MAGIC_BE) || pageSize < 512 || pageSize > 65536 ||
      (pageSize & (pageSize - 1))
    ) return "its header is not a write-ahead log's";
    const big = magic === MAGIC_BE;
    let sum = walChecksum(head.subarray(0, 24), big, [0, 0]);
    if (sum[0] !== hv.getUint32(24) || sum[1] !== hv.getUint32(28)) {
      return "its header fails its checksum";
    }
    const salt1 = hv.getUint32(16), salt2 = hv.getUint32(20);
    const frameSize = 24 + pageSize;
    const total = Math.floor((size - 32) / frameSize);
    const frame = new Uint8Array(frameSize);
    const fv = new DataView(frame.buffer);
    for (let i = 0; i < total; i++) {
      const at = 32 + i * frameSize;
      if (readSync(fd, frame, 0, frameSize, at) < frameSize) return null;
      // Frames an earlier log left: the log ends here.
      if (fv.getUint32(8) !== salt1 || fv.getUint32(12) !== salt2) return null;
      sum = walChecksum(frame.subarray(0, 8), big, sum);
      sum = walChecksum(frame.subarray(24), big, sum);
      if (fv.getUint32(0) === 0 || sum[0] !== fv.getUint32(16) || sum[1] !== fv.getUint32(20)) {
        return `frame ${i + 1} of ${total} fails its checksum`;
      }
    }
    const rest = (size - 32) % frameSize;
    if (!rest) return null;
    // A part of a frame an earlier log left ends it cleanly too.
    const at = 32 + total * frameSize;
    if (rest >= 16 && readSync(fd, frame, 0, 16, at) === 16) {
      if (fv.getUint32(8) !== salt1 || fv.getUint32(12) !== salt2) return null;
    }
    return `its last frame is cut short (${rest} of ${frameSize} bytes)`;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
