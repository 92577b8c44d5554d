/**
 * The local time zone read from the system's zone file (RFC 8536 TZif: `TZ`, else
 * /etc/localtime), so printing a local time does not wake the runtime's own zone machinery:
 * in the Bun binary the first local-time call of a process (`getHours`, `getTimezoneOffset`)
 * costs 9-10 ms of ICU set-up, whatever the zone (measured 2026-12-05 on a bare compiled
 * script, and in a cold `deja quokkafrost`: 10-12 ms of its ~80 between the last query and
 * the printed line; issue 15's cold-query latency).
 *
 * {@link localOffsetMs} answers the offset from UTC at an instant: from the file's
 * transitions, and past the last one from its footer, a POSIX TZ rule
 * (`CET-1CEST,M3.5.0,M10.5.0/3`). `TZ` may name a zone (`Europe/Berlin`, `:Asia/Tokyo`,
 * under `TZDIR` or /usr/share/zoneinfo). Where the zone cannot be read so (no such file,
 * Windows, an empty `TZ`, a `TZ` that is a rule or a path, which the runtimes read as UTC, a
 * footer this reader does not know) the runtime's `Date` answers, as before. Checked against
 * the runtime's own offsets at 105,925 instants from 1975 to 2060 in fifteen zones with
 * unusual histories (core/localzone_test.ts).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { envVar, isWindows } from "./runtime.ts";
import type { Env } from "./model.ts";

/** One local time type of a zone: its offset east of UTC, in seconds. */
interface Rule {
  /** Standard offset, seconds east of UTC. */
  std: number;
  /** Daylight offset, seconds east of UTC (absent: no daylight time). */
  dst?: number;
  /** When daylight time starts and ends, each a date rule and seconds after local midnight. */
  start?: DateRule;
  end?: DateRule;
}

type DateRule =
  | { kind: "J"; n: number; at: number } // day 1-365 of the year, February 29 never counted
  | { kind: "N"; n: number; at: number } // day 0-365 of the year, February 29 counted
  | { kind: "M"; month: number; week: number; day: number; at: number }; // week 5: the last

/** A zone: transitions (seconds since the epoch) with the offset each starts, then a rule. */
export interface Zone {
  times: number[];
  offsets: number[];
  /** The offset before the first transition (time type 0). */
  first: number;
  /** What holds after the last transition (the footer), when the file has one. */
  rule?: Rule;
}

const DAY_S = 86400;

/** Parses the POSIX TZ rule `s` (`EST5EDT,M3.2.0,M11.1.0`, `<+0530>-5:30`), or undefined. */
export function parseRule(s: string): Rule | undefined {
  let i = 0;
  const name = (): boolean => {
    if (s[i] === "<") {
      const close = s.indexOf(">", i);
      if (close < 0) return false;
      i = close + 1;
      return true;
    }
    const m = /^[A-Za-z]{3,}/.exec(s.slice(i));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  const clock = (): number | undefined => {
    const m = /^([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(s.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    const v = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === "-" ? -v : v;
  };
  const date = (): DateRule | undefined => {
    let r: DateRule | undefined;
    let m: RegExpExecArray | null;
    const rest = s.slice(i);
    if ((m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(rest))) {
      r = { kind: "M", month: Number(m[1]), week: Number(m[2]), day: Number(m[3]), at: 7200 };
      if (r.month < 1 || r.month > 12 || r.week < 1 || r.week > 5 || r.day > 6) return undefined;
    } else if ((m = /^J(\d{1,3})/.exec(rest))) {
      r = { kind: "J", n: Number(m[1]), at: 7200 };
      if (r.n < 1 || r.n > 365) return undefined;
    } else if ((m = /^(\d{1,3})/.exec(rest))) {
      r = { kind: "N", n: Number(m[1]), at: 7200 };
      if (r.n > 365) return undefined;
    } else return undefined;
    i += m[0].length;
    if (s[i] === "/") {
      i++;
      const at = clock();
      if (at === undefined) return undefined;
      r.at = at;
    }
    return r;
  };
  if (!name()) return undefined;
  const stdWest = clock();
  if (stdWest === undefined) return undefined;
  const std = 0 - stdWest; // east of UTC (0 - x: never -0)
  if (i === s.length) return { std };
  if (!name()) return undefined;
  let dst = std + 3600;
  if (i < s.length && s[i] !== ",") {
    const w = clock();
    if (w === undefined) return undefined;
    dst = 0 - w;
  }
  // No dates: POSIX leaves them to the implementation; glibc's, the United States' rule.
  if (i === s.length) s += ",M3.2.0,M11.1.0";
  if (s[i++] !== ",") return undefined;
  const start = date();
  if (!start || s[i++] !== ",") return undefined;
  const end = date();
  if (!end || i !== s.length) return undefined;
  return { std, dst, start, end };
}

/** Parses a TZif file (versions 1 to 4), or undefined when `b` is not one. */
export function parseTzif(b: Uint8Array): Zone | undefined {
  const magic = (at: number) =>
    b.length >= at + 44 && b[at] === 0x54 && b[at + 1] === 0x5a && b[at + 2] === 0x69 &&
    b[at + 3] === 0x66;
  if (!magic(0)) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const counts = (at: number) => {
    const c = [0, 1, 2, 3, 4, 5].map((k) => dv.getUint32(at + 20 + 4 * k));
    return { isut: c[0], isstd: c[1], leap: c[2], time: c[3], type: c[4], char: c[5] };
  };
  const v2 = b[4] >= 0x32;
  let head = 0;
  let c = counts(0);
  let size = 4;
  if (v2) {
    head = 44 + c.time * 5 + c.type * 6 + c.char + c.leap * 8 + c.isstd + c.isut;
    if (!magic(head)) return undefined;
    c = counts(head);
    size = 8;
  }
  let p = head + 44;
  const end = p + c.time * (size + 1) + c.type * 6 + c.char + c.leap * (size + 4) + c.isstd +
    c.isut;
  if (c.type < 1 || end > b.length) return undefined;
  const times: number[] = [];
  for (let k = 0; k < c.time; k++, p += size) {
    times.push(size === 8 ? Number(dv.getBigInt64(p)) : dv.getInt32(p));
  }
  const index: number[] = [];
  for (let k = 0; k < c.time; k++) index.push(b[p++]);
  const types: number[] = [];
  for (let k = 0; k < c.type; k++, p += 6) types.push(dv.getInt32(p));
  if (index.some((x) => x >= types.length)) return undefined;
  const zone: Zone = { times, offsets: index.map((x) => types[x]), first: types[0] };
  if (v2 && b[end] === 0x0a) {
    const close = b.indexOf(0x0a, end + 1);
    const footer = close > end ? new TextDecoder().decode(b.subarray(end + 1, close)) : "";
    if (footer) {
      const rule = parseRule(footer);
      if (!rule) return undefined; // a rule this reader does not know: the runtime answers
      zone.rule = rule;
    }
  }
  return zone;
}

/** Days from the epoch to the first of January of `year`. */
function yearDay(year: number): number {
  return Date.UTC(year, 0, 1) / 86400e3;
}

function leap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Seconds since the epoch of local midnight (offset 0) starting the day `r` names in `year`, plus its time. */
function ruleTime(r: DateRule, year: number): number {
  let day: number;
  if (r.kind === "J") day = yearDay(year) + r.n - 1 + (leap(year) && r.n >= 60 ? 1 : 0);
  else if (r.kind === "N") day = yearDay(year) + r.n;
  else {
    const first = Date.UTC(year, r.month - 1, 1) / 86400e3;
    const days = (Date.UTC(year, r.month, 1) / 86400e3) - first;
    const weekday = (((first + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
    let d = (r.day - weekday + 7) % 7 + (r.week - 1) * 7;
    while (d >= days) d -= 7;
    day = first + d;
  }
  return day * DAY_S + r.at;
}

/** The offset (seconds east of UTC) `rule` gives at `t` (seconds since the epoch). */
export function ruleOffset(rule: Rule, t: number): number {
  if (rule.dst === undefined || !rule.start || !rule.end) return rule.std;
  const year = new Date((t + rule.std) * 1000).getUTCFullYear();
  // The start is given in standard time, the end in daylight time.
  const on = ruleTime(rule.start, year) - rule.std;
  const off = ruleTime(rule.end, year) - rule.dst;
  const dst = on < off ? t >= on && t < off : !(t >= off && t < on);
  return dst ? rule.dst : rule.std;
}

/** The offset (seconds east of UTC) of `zone` at `t` (seconds since the epoch). */
export function zoneOffset(zone: Zone, t: number): number {
  const { times } = zone;
  if (!times.length || t < times[0]) {
    return !times.length && zone.rule ? ruleOffset(zone.rule, t) : zone.first;
  }
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) { // the last transition at or before t
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  if (lo === times.length - 1 && zone.rule) return ruleOffset(zone.rule, t);
  return zone.offsets[lo];
}

function readZoneFile(path: string): Zone | undefined {
  try {
    return parseTzif(readFileSync(path));
  } catch {
    return undefined;
  }
}

/**
 * The zone `tz` (the value of `TZ`; undefined when unset) names, or undefined when it
 * cannot be read here (then the runtime's `Date` is the one to ask).
 */
export function zoneOf(tz: string | undefined, tzdir?: string): Zone | undefined {
  if (tz === undefined) return readZoneFile("/etc/localtime");
  // A zone's name only: the runtimes read a rule (`EST5EDT,M3.2.0,M11.1.0`) or a path as UTC,
  // and deja's time windows (lib/search/timewords.ts) ask the runtime.
  const name = tz.startsWith(":") ? tz.slice(1) : tz;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined;
  return readZoneFile(`${tzdir || "/usr/share/zoneinfo"}/${name}`);
}

let local: Zone | null | undefined;

function localZone(): Zone | null {
  if (local === undefined) {
    local = isWindows() ? null : zoneOf(envVar("TZ"), envVar("TZDIR")) ?? null;
  }
  return local;
}

/** The local zone's offset from UTC at `ms` (epoch ms), in milliseconds east. */
export function localOffsetMs(ms: number): number {
  const z = localZone();
  if (!z) return -new Date(ms).getTimezoneOffset() * 60_000;
  return zoneOffset(z, Math.floor(ms / 1000)) * 1000;
}

/** `ms` as the local wall clock: a Date whose UTC fields (`getUTCHours` …) read local time. */
export function localClock(ms: number): Date {
  return new Date(ms + localOffsetMs(ms));
}

/**
 * What a command says on stderr when `TZ` is set to what the runtimes cannot read: a POSIX
 * rule (`EST5EDT,M3.2.0,M11.1.0`, `IST-5:30`), a path, or a name no zone file has. They
 * then show UTC, and so does deja (its time words ask the runtime): said, not left silent
 * (trial 42: every time hours off, with no word of why). Undefined when `TZ` is unset or
 * empty, names a zone, or is UTC in other words (`UTC0`).
 */
export function zoneWarning(env: Env): string | undefined {
  const tz = env.get("TZ");
  if (tz === undefined || isWindows() || zoneOf(tz, env.get("TZDIR"))) return undefined;
  const rule = parseRule(tz.replace(/^:/, ""));
  if (rule && rule.std === 0 && rule.dst === undefined) return undefined;
  return `deja: TZ=${tz} is not a time zone name deja can read: times are shown in UTC\n` +
    "hint: set TZ to a zone's name, e.g. TZ=America/New_York (the names are under " +
    "/usr/share/zoneinfo)\n";
}
