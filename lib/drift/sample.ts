/**
 * Drift samples: one record, redacted and cut down to a size that can be
 * pasted into a report, and the one-line re-read of a JSONL record by offset.
 *
 * Secrets are redacted on the whole strings *before* anything is cut, so a
 * secret split by a cut cannot slip past the patterns; the home directory
 * becomes `~`. Object keys are all kept (an unknown field must stay visible);
 * strings, arrays and nesting are cut.
 *
 * @module
 */
import { openRegular } from "../../core/fsread.ts";
import { redactDeep } from "../redact.ts";

/** How far a sample is cut down. */
export const SAMPLE_LIMITS = {
  /** Characters kept of one string. */
  string: 200,
  /** Elements kept of one array. */
  array: 4,
  /** Nesting levels kept below the record. */
  depth: 8,
  /** Characters of the whole sample (JSON text) at most. */
  chars: 4096,
} as const;

/** Bytes of one JSONL line `deja drift` reads at most: 1 MiB. */
export const MAX_RECORD_BYTES = 1 << 20;

/**
 * A record as compact JSON text: secrets redacted, `home` shown as `~`, long
 * strings and arrays cut with a `…[+N …]` marker, at most
 * {@link SAMPLE_LIMITS}.chars characters (a longer text is cut and ends in `…`).
 *
 * @example pasteable({ type: "x", key: "sk-ant-abcdefghijklmnopqrstuv" })
 *   === '{"type":"x","key":"[redacted:anthropic_key]"}'
 */
export function pasteable(value: unknown, home?: string): string {
  const clean = redactDeep(value, {});
  const text = JSON.stringify(shrink(clean, 0, home && home.length > 1 ? home : undefined)) ??
    "null";
  return text.length > SAMPLE_LIMITS.chars ? text.slice(0, SAMPLE_LIMITS.chars - 1) + "…" : text;
}

function shrink(v: unknown, depth: number, home: string | undefined): unknown {
  if (typeof v === "string") {
    const s = home ? v.replaceAll(home, "~") : v;
    return s.length > SAMPLE_LIMITS.string
      ? `${s.slice(0, SAMPLE_LIMITS.string)}…[+${s.length - SAMPLE_LIMITS.string} chars]`
      : s;
  }
  if (v === null || typeof v !== "object") return v;
  if (depth >= SAMPLE_LIMITS.depth) return Array.isArray(v) ? ["…"] : { "…": "…" };
  if (Array.isArray(v)) {
    const kept = v.slice(0, SAMPLE_LIMITS.array).map((x) => shrink(x, depth + 1, home));
    if (v.length > SAMPLE_LIMITS.array) kept.push(`…[+${v.length - SAMPLE_LIMITS.array} more]`);
    return kept;
  }
  return Object.fromEntries(
    Object.entries(v).map((
      [k, x],
    ) => [home ? k.replaceAll(home, "~") : k, shrink(x, depth + 1, home)]),
  );
}

/** What {@link recordAt} found: the parsed record, or why there is none. */
export type RecordAt = { value: unknown } | { problem: string };

/**
 * Reads the one JSONL line that starts at byte `offset` of `path` (read-only,
 * at most `maxBytes` bytes) and parses it.
 *
 * @returns `{value}`, or `{problem}` when the file is gone or shorter, the
 *   line is longer than `maxBytes`, or it is not one JSON value.
 */
export async function recordAt(
  path: string,
  offset: number,
  maxBytes = MAX_RECORD_BYTES,
): Promise<RecordAt> {
  let fh;
  try {
    fh = await openRegular(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return {
      problem: `cannot open the store: ${code === "ENOTREG" ? (e as Error).message : code ?? e}`,
    };
  }
  try {
    // Read in 64 KiB steps until the newline, so a short line costs one small read.
    const buf = new Uint8Array(maxBytes + 1);
    let got = 0;
    while (got < buf.length) {
      const want = Math.min(64 << 10, buf.length - got);
      const { bytesRead } = await fh.read(buf, got, want, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (buf.subarray(got - bytesRead, got).includes(10)) break;
    }
    if (got === 0) return { problem: "the store is shorter than when it was indexed" };
    const nl = buf.subarray(0, got).indexOf(10);
    if (nl === -1 && got > maxBytes) return { problem: `the record is over ${maxBytes} bytes` };
    const line = buf.subarray(0, nl === -1 ? got : nl);
    try {
      return { value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(line)) };
    } catch {
      return { problem: "the line there is no longer one JSON record (the store changed)" };
    }
  } finally {
    await fh.close();
  }
}

/**
 * Splits a `<path>@<byte offset>` locator; undefined for any other form.
 *
 * @example jsonlWhere("/a/b.jsonl@120") // { path: "/a/b.jsonl", offset: 120 }
 */
export function jsonlWhere(where: string): { path: string; offset: number } | undefined {
  const m = /^(.+)@(\d+)$/s.exec(where);
  return m ? { path: m[1], offset: Number(m[2]) } : undefined;
}
