/**
 * Records of a zstd-compressed JSONL file, read whole: every complete frame is
 * decoded (`_zstd.ts`: node:zlib alone stops after the first frame), then the
 * lines are parsed. Shared by the stores that compress their logs (DeepSeek
 * Harness `session.jsonl.zstd`, Codex `rollout-*.jsonl.zst`).
 *
 * A compressed file is a `document` source: it is re-read whole when it
 * changes, so there is no byte offset to resume from.
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import { readBytes } from "../core/fsread.ts";
import type { ParseCtx } from "../core/model.ts";
import { statOrNull } from "../core/fs.ts";
import { unzstd } from "./_zstd.ts";

/** Cap on a compressed log read whole (bytes on disk): 256 MiB. */
export const MAX_ZSTD_BYTES = 256 << 20;

/** One record of a compressed log. */
export interface ZstRecord {
  value: unknown;
  /** `<path>: line at byte <n> of the decompressed log` (for skips and drift). */
  where: string;
}

/**
 * Yields the JSON records of the compressed JSONL file `path`. An empty file,
 * one over {@link MAX_ZSTD_BYTES}, a damaged frame (the frames before it and
 * from the next frame magic after it are kept, each damaged stretch counted), an
 * unterminated last frame, and lines that are not UTF-8 or not JSON are
 * reported through `ctx.skip`; blank lines are skipped silently.
 *
 * @throws the file-system error when the file cannot be read.
 */
export async function* zstdJsonl(path: string, ctx: ParseCtx): AsyncGenerator<ZstRecord> {
  const size = (await statOrNull(path))?.size ?? 0;
  if (size === 0) {
    ctx.skip("empty", path);
    return;
  }
  if (size > MAX_ZSTD_BYTES) {
    ctx.skip("oversized", path, `${size} bytes compressed, over the ${MAX_ZSTD_BYTES}-byte cap`);
    return;
  }
  const z = unzstd(await readBytes(path, MAX_ZSTD_BYTES), { lenient: true });
  for (const d of z.damaged ?? []) ctx.skip("corrupt", `${path}@${d.at}`, d.message);
  if (z.torn !== undefined) {
    ctx.skip(
      "malformed_json",
      `${path}@${z.torn}`,
      "unterminated zstd frame, left for the next run",
    );
  }
  let start = 0;
  while (start < z.data.length) {
    let nl = z.data.indexOf(10, start);
    if (nl < 0) nl = z.data.length;
    const where = `${path}: line at byte ${start} of the decompressed log`;
    const bytes = z.data.subarray(start, nl);
    start = nl + 1;
    const { text, repaired } = decodeUtf8(bytes);
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.skip("malformed_json", where);
      continue;
    }
    if (repaired) ctx.skip("invalid_utf8", where, REPAIRED);
    yield { value, where };
  }
}
