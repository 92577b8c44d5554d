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
  const fast = isoUtcMillis(v);
  if (fast !== undefined) return fast;
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

/** The value of digit `i` of `s`, or -1 when it is no digit. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/**
 * The common shape, `YYYY-MM-DDTHH:MM:SS.mmmZ` (what Claude Code and most
 * stores write on every record), read without regular expressions or
 * `Date.parse`: the same value {@link toMillis} gives it the long way, or
 * undefined for any other string (also a day past the 28th, a date some
 * months lack, which `Date.parse` judges).
 */
function isoUtcMillis(s: string): number | undefined {
  if (
    s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90
  ) return undefined;
  let bad = 0;
  const num = (at: number, n: number) => {
    let v = 0;
    for (let i = at; i < at + n; i++) {
      const d = digit(s, i);
      bad |= d;
      v = v * 10 + d;
    }
    return v;
  };
  const year = num(0, 4), month = num(5, 2), day = num(8, 2);
  const hour = num(11, 2), min = num(14, 2), sec = num(17, 2), ms = num(20, 3);
  if (
    bad < 0 || year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 ||
    min > 59 ||
    sec > 59
  ) return undefined;
  const t = Date.UTC(year, month - 1, day, hour, min, sec, ms);
  return t > 0 ? t : undefined;
}
