/**
 * Timestamp reading shared by every parser.
 *
 * Stores write seconds (Crush, Codex history), milliseconds (most), microseconds
 * (Muse) or ISO 8601 strings with or without a zone. Everything becomes epoch
 * **milliseconds**.
 *
 * @module
 */

/**
 * Reads a timestamp of any unit and returns epoch milliseconds.
 *
 * Numbers (or numeric strings): above 1e14 are microseconds, above 1e11
 * milliseconds, above 0 seconds (fractions kept as milliseconds). Strings are
 * ISO 8601 / RFC 3339; a date-time without a zone (`2026-01-02 10:00:00`) is
 * read as UTC.
 *
 * @returns epoch ms, or `undefined` for anything unreadable, zero or negative.
 * @example toMillis(1754000000) === 1754000000000
 */
export function toMillis(v: unknown): number | undefined {
  if (typeof v === "number") return fromNumber(v);
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  if (s === "") return undefined;
  if (/^-?\d+(\.\d+)?$/.test(s)) return fromNumber(Number(s));
  let iso = s;
  // "YYYY-MM-DD HH:MM[:SS]" -> "YYYY-MM-DDTHH:MM[:SS]"
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(iso)) iso = iso.replace(" ", "T");
  // No zone designator after a time part -> UTC (Date.parse would use local time).
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso)) iso += "Z";
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

function fromNumber(n: number): number | undefined {
  if (!Number.isFinite(n) || n <= 0) return undefined;
  if (n > 1e14) return Math.floor(n / 1000);
  if (n > 1e11) return Math.floor(n);
  return Math.floor(n * 1000);
}
