/**
 * Time words in a query (`yesterday`, `last week`, `3 days ago`, `in march`,
 * `on friday`): taken out of the search terms and turned into a window that
 * ranks sessions (closer is better), never filters them.
 *
 * Windows are in local time of the machine running deja (a person's
 * "yesterday" is theirs), epoch milliseconds.
 *
 * @module
 */

import { distance } from "./distance.ts";
import { isEnglish } from "./english.ts";

/** A window of time named in a query. */
export interface TimeHint {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** The words that named it, as typed (a typo of a time word read as that word). */
  words: string;
  /** When a typo of a time word was read ({@link timeTypos}): `words` as typed (`last a weeek`). */
  typed?: string;
}

const DAY = 86400e3;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
/** Short month names: three letters, and `sept`. */
const SHORT = [...MONTHS.map((m) => m.slice(0, 3)), "sept"];
const SHORT_NAMES = SHORT.join("|");
/** Every name of a month after `in`, `since` and the like, longest first. */
const MONTH_NAMES = [...MONTHS, ...SHORT].sort((a, b) => b.length - a.length).join("|");

/** The month (0-11) `name` names: whole or short. */
function monthOf(name: string): number {
  const n = name.toLowerCase();
  const whole = MONTHS.indexOf(n);
  return whole >= 0 ? whole : n === "sept" ? 8 : SHORT.indexOf(n);
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  few: 3,
  couple: 2,
  "couple of": 2,
  several: 4,
};

function startOfDay(t: number): number {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

interface Rule {
  re: RegExp;
  /** Whether the match names a time (else the rule is passed over); every match when absent. */
  accept?(m: RegExpExecArray): boolean;
  window(m: RegExpExecArray, now: number): [number, number];
}

/** Local midnight of the first day of `now`'s week (Monday). */
function startOfWeek(t: number): number {
  const d = new Date(startOfDay(t));
  return d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
}

/** Local midnight of the first day of the month `delta` months from `now`'s. */
function startOfMonth(t: number, delta = 0): number {
  const d = new Date(t);
  return new Date(d.getFullYear(), d.getMonth() + delta, 1).getTime();
}

/** Local midnight of January 1 of the year `delta` years from `now`'s. */
function startOfYear(t: number, delta = 0): number {
  return new Date(new Date(t).getFullYear() + delta, 0, 1).getTime();
}

/** Milliseconds of a unit named in a query (`day`, `weeks`, `month`, `yr`). */
function unitMs(unit: string): number {
  const u = unit.toLowerCase();
  return u.startsWith("d")
    ? DAY
    : u.startsWith("w")
    ? 7 * DAY
    : u.startsWith("m")
    ? 30 * DAY
    : 365 * DAY;
}

/**
 * A window `[from, to)` turned by the word before it: `since` and `from` run it to now,
 * `after` starts at its end, `before` ends at its start; other words (`in`, `during`) keep it.
 */
function turned(word: string | undefined, w: [number, number], now: number): [number, number] {
  switch (word?.toLowerCase()) {
    case "since":
    case "from":
      return [w[0], now + 1];
    case "after":
      return [w[1], now + 1];
    case "before":
      return [0, w[0]];
    default:
      return w;
  }
}

/** A count in words or digits (`3`, `three`, `a few`). */
const COUNT = "(\\d+|an?|one|two|three|four|five|six|few|several|couple(?: of)?)";

function countOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : COUNTS[word.toLowerCase()] ?? 1;
}

/** A day of the month, 1-31, with its ordinal ending when typed (`13th`). */
const DAY_OF_MONTH = "(?:3[01]|[12]\\d|0?[1-9])(?:st|nd|rd|th)?";
const YEAR = "(?:19|20)\\d\\d";
/** A month with its day, and the year when typed: `jan 13th`, `13 january 2026`, `march 5, 2025`. */
const MONTH_DAY =
  `(?:${MONTH_NAMES})\\.?\\s+${DAY_OF_MONTH}(?:,?\\s+${YEAR})?|${DAY_OF_MONTH}\\s+(?:of\\s+)?(?:${MONTH_NAMES})\\.?(?:,?\\s+${YEAR})?`;
/**
 * One end of a range (`from march to may 2026`, `between jan 13 and jan 20`, `until friday`):
 * a month with a day and a year when typed (`august of 2025`), a year, an ISO month or date, a
 * weekday, today or yesterday.
 */
const POINT =
  `(?:${MONTH_DAY}|(?:${MONTH_NAMES})\\.?(?:,?\\s+(?:of\\s+)?${YEAR})?|${YEAR}(?:-\\d\\d(?:-\\d\\d)?)?|${
    WEEKDAYS.join("|")
  }|today|yesterday)`;

/** The month (0-11), day and year typed in a {@link POINT}, each undefined when not typed. */
function pointParts(text: string): { month?: number; day?: number; year?: number } {
  const t = text.toLowerCase();
  const year = /\b((?:19|20)\d\d)\b/.exec(t)?.[1];
  const name = new RegExp(`\\b(${MONTH_NAMES})\\b`).exec(t)?.[1];
  const day = /(?:^|\s)(\d{1,2})(?:st|nd|rd|th)?\b/.exec(t)?.[1];
  return {
    month: name === undefined ? undefined : monthOf(name),
    day: day === undefined ? undefined : Number(day),
    year: year === undefined ? undefined : Number(year),
  };
}

/** Whether a {@link POINT} names a day that exists (`2026-02-30`, `feb 30` do not). */
function pointExists(text: string): boolean {
  const iso = /^((?:19|20)\d\d)(?:-(\d\d)(?:-(\d\d))?)?$/.exec(text.trim());
  if (iso) {
    return dayExists({
      year: Number(iso[1]),
      month: iso[2] ? Number(iso[2]) - 1 : undefined,
      day: iso[3] ? Number(iso[3]) : undefined,
    });
  }
  return dayExists(pointParts(text.toLowerCase()));
}

/**
 * When `text` is a month's day alone (`feb 30`, `31 april`, `on april 31st 2026`) that no
 * calendar holds: the same month with its last day, as typed (`feb 28 2025`), to offer in its
 * place. Undefined for anything else (trial 64: `deja last "feb 30"` was told it takes a
 * number).
 */
export function noSuchDay(text: string): string | undefined {
  const t = text.trim().replace(/^on\s+/i, "");
  if (!new RegExp(`^(?:${MONTH_DAY})$`, "i").test(t)) return undefined;
  const p = pointParts(t);
  if (p.month === undefined || p.day === undefined || dayExists(p)) return undefined;
  const name = new RegExp(`\\b(${MONTH_NAMES})\\b`, "i").exec(t)![1];
  const last = new Date(p.year ?? 2024, p.month + 1, 0).getDate();
  return `${name} ${last}${p.year === undefined ? "" : ` ${p.year}`}`;
}

/**
 * Whether the day typed exists: a month 0-11 and a day within it (February 29 of a year not
 * typed is one). A month or year alone is always one.
 */
export function dayExists(p: { month?: number; day?: number; year?: number }): boolean {
  if (p.month !== undefined && (p.month < 0 || p.month > 11)) return false;
  if (p.day === undefined || p.month === undefined) return true;
  const last = new Date(p.year ?? 2024, p.month + 1, 0).getDate();
  return p.day >= 1 && p.day <= last;
}

/**
 * The window of one {@link POINT}: a day, a month or a year. A month or day typed without its
 * year is the last one up to now, or of `year` when the range's other end gave one.
 */
function pointWindow(text: string, now: number, year?: number): [number, number] {
  const t = text.trim().toLowerCase();
  const iso = /^((?:19|20)\d\d)(?:-(\d\d)(?:-(\d\d))?)?$/.exec(t);
  if (iso) {
    const [y, mo, d] = [Number(iso[1]), iso[2] ? Number(iso[2]) - 1 : 0, Number(iso[3] ?? 1)];
    if (!iso[2]) return [new Date(y, 0, 1).getTime(), new Date(y + 1, 0, 1).getTime()];
    if (!iso[3]) return [new Date(y, mo, 1).getTime(), new Date(y, mo + 1, 1).getTime()];
    return [new Date(y, mo, d).getTime(), new Date(y, mo, d + 1).getTime()];
  }
  if (t === "today") return [startOfDay(now), startOfDay(now) + DAY];
  if (t === "yesterday") return [startOfDay(now) - DAY, startOfDay(now)];
  const weekday = WEEKDAYS.indexOf(t);
  if (weekday >= 0) return lastWeekday(weekday, now);
  const p = pointParts(t);
  const d = new Date(now);
  let y = p.year ?? year ?? d.getFullYear();
  const month = p.month ?? 0;
  if (p.year === undefined && year === undefined) {
    const ahead = month > d.getMonth() || (month === d.getMonth() && (p.day ?? 1) > d.getDate());
    if (ahead) y--;
    // February 29 typed without its year: the last year that had one.
    while (!dayExists({ year: y, month, day: p.day })) y--;
  }
  return p.day === undefined
    ? [new Date(y, month, 1).getTime(), new Date(y, month + 1, 1).getTime()]
    : [new Date(y, month, p.day).getTime(), new Date(y, month, p.day + 1).getTime()];
}

/** Weekday names and their three-letter forms, for a regular expression. */
const WEEKDAY_NAMES = [...WEEKDAYS, ...WEEKDAYS.map((w) => w.slice(0, 3))].join("|");

/**
 * The year, of this one and the six before it, in which the month's day `point` (no year
 * typed) falls on weekday `name`: the latest not after today; undefined when `name` is absent,
 * a year is typed, or none does.
 */
function weekdayYear(name: string | undefined, point: string, now: number): number | undefined {
  if (!name) return undefined;
  const { year, month, day } = pointParts(point);
  if (year !== undefined || month === undefined || day === undefined) return undefined;
  const want = WEEKDAYS.findIndex((w) => w.startsWith(name.toLowerCase().slice(0, 3)));
  const thisYear = new Date(now).getFullYear();
  for (let y = thisYear; y > thisYear - 7; y--) {
    const at: Date = new Date(y, month, day);
    if (at.getTime() <= now && at.getMonth() === month && at.getDay() === want) return y;
  }
  return undefined;
}

/** The last `weekday` (0 Sunday) before today, as a day's window. */
function lastWeekday(weekday: number, now: number): [number, number] {
  const back = (new Date(now).getDay() - weekday + 7) % 7 || 7;
  const start = startOfDay(now) - back * DAY;
  return [start, start + DAY];
}

/**
 * A range's window, from the start of its first end to the end of its last (trial 17b: `from
 * august to september` searched both months as words). The first end takes the last end's year
 * when it has none, a year earlier when it would start after the last (`from november to
 * february 2026`), and a weekday a week earlier (`from friday to monday`).
 */
function rangeWindow(first: string, last: string, now: number): [number, number] {
  const end = pointWindow(last, now);
  const typed = pointParts(first).year !== undefined || /^\d{4}/.test(first.trim());
  const endYear = new Date(end[0]).getFullYear();
  let start = pointWindow(first, now, typed ? undefined : endYear);
  if (start[0] >= end[1] && !typed) {
    start = WEEKDAYS.includes(first.trim().toLowerCase())
      ? [start[0] - 7 * DAY, start[1] - 7 * DAY]
      : pointWindow(first, now, endYear - 1);
  }
  return [Math.min(start[0], end[0]), Math.max(start[1], end[1])];
}

const RULES: Rule[] = [
  {
    // `from march to may 2026`, `between jan 13th and jan 20th`, `from 2025-08 to 2025-10`.
    re: new RegExp(
      `\\b(?:from|between)\\s+(${POINT})\\s+(?:to|until|till|through|thru|and|-)\\s+(${POINT})(?![\\w-])`,
      "i",
    ),
    accept: (m) => pointExists(m[1]) && pointExists(m[2]),
    window: (m, now) => rangeWindow(m[1], m[2], now),
  },
  {
    // `until march`, `till friday`, `up to 2025-10-01`: up to the end of that point.
    re: new RegExp(`\\b(?:until|till|up until|up to)\\s+(${POINT})(?![\\w-])`, "i"),
    accept: (m) => pointExists(m[1]),
    window: (m, now) => [0, pointWindow(m[1], now)[1]],
  },
  {
    // A day of a month (`on jan 13th`, `13 january 2026`, `since march 5`): `may 5` and
    // `march 3` alone may be a verb and a count, so they need a word before them or a year.
    // A weekday before it tells the year typed none (`Fri Sep 5` of a pasted terminal banner
    // is 2025's, a Friday; trial 92 F12: read as this year's, a Saturday).
    re: new RegExp(
      `\\b(?:(in|on|during|since|from|after|before)\\s+)?(?:(${WEEKDAY_NAMES}),?\\s+)?(${MONTH_DAY})(?![\\w-])`,
      "i",
    ),
    accept: (m) =>
      (m[1] !== undefined || m[2] !== undefined || !/^(?:may|march)\b/i.test(m[3]) ||
        /\d{4}/.test(m[3])) &&
      dayExists(pointParts(m[3])),
    window: (m, now) => turned(m[1], pointWindow(m[3], now, weekdayYear(m[2], m[3], now)), now),
  },
  {
    re: /\b(?:earlier )?(?:today|tonight|this (?:morning|afternoon|evening))\b/i,
    window: (_m, now) => [startOfDay(now), now + 1],
  },
  {
    re: /\b(?:yesterday|last night)\b/i,
    window: (_m, now) => [startOfDay(now) - DAY, startOfDay(now)],
  },
  {
    re: new RegExp(`\\b${COUNT}\\s+(day|week|month|year)s?\\s+ago\\b`, "i"),
    // Whole days around that time (trial 59: `2 days ago` at noon said "Sat 03-28 to Mon
    // 03-30" but ran noon to noon, leaving out a session of Monday evening), ending before
    // today for days (`1 day ago` is not today).
    window: (m, now) => {
      const n = countOf(m[1]);
      const unit = unitMs(m[2]);
      const center = now - n * unit;
      const half = Math.max(DAY, n * unit * 0.3);
      const end = startOfDay(center + half) + DAY;
      return [startOfDay(center - half), unit === DAY ? Math.min(end, startOfDay(now)) : end];
    },
  },
  {
    // `the last 30 days`, `past 2 weeks`, `in the last few months`: up to now.
    re: new RegExp(
      `\\b(?:in the |over the |during the |for the |the )?(?:last|past)\\s+${COUNT}\\s+(day|week|month|year)s?\\b`,
      "i",
    ),
    window: (m, now) => [now - countOf(m[1]) * unitMs(m[2]), now + 1],
  },
  // Calendar weeks, months and years (trial 16: `last month` on December 3 was October 2
  // to November 8, so a session of November 29 "fell outside" it).
  { re: /\bthis week\b/i, window: (_m, now) => [startOfWeek(now), now + 1] },
  { re: /\bpast week\b/i, window: (_m, now) => [now - 7 * DAY, now + 1] },
  {
    re: /\blast week\b/i,
    window: (_m, now) => [startOfWeek(now) - 7 * DAY, startOfWeek(now)],
  },
  { re: /\bthis month\b/i, window: (_m, now) => [startOfMonth(now), now + 1] },
  { re: /\bpast month\b/i, window: (_m, now) => [now - 31 * DAY, now + 1] },
  {
    re: /\blast month\b/i,
    window: (_m, now) => [startOfMonth(now, -1), startOfMonth(now)],
  },
  { re: /\bthis year\b/i, window: (_m, now) => [startOfYear(now), now + 1] },
  { re: /\bpast year\b/i, window: (_m, now) => [now - 365 * DAY, now + 1] },
  { re: /\blast year\b/i, window: (_m, now) => [startOfYear(now, -1), startOfYear(now)] },
  { re: /\b(?:recently|lately)\b/i, window: (_m, now) => [now - 14 * DAY, now + 1] },
  {
    // A date after a word that makes it one (`since 2025-09-01`, `on 2025-08-08`, `in 2025-08`).
    // With a time of day after it (`since 2026-02-28T10:00`, trial 62: read as February).
    re:
      /\b(in|on|during|since|from|after|before)\s+((?:19|20)\d\d)-(\d\d)(?:-(\d\d)(?:[T ](\d\d):(\d\d)(?::\d\d(?:\.\d+)?)?(Z)?)?)?(?![\w:-])/i,
    // No calendar day is none (trial 60: `2026-02-30` listed March 2).
    accept: (m) =>
      dayExists({
        year: Number(m[2]),
        month: Number(m[3]) - 1,
        day: m[4] ? Number(m[4]) : undefined,
      }),
    window: (m, now) => {
      const [y, mo] = [Number(m[2]), Number(m[3]) - 1];
      // A time of day is that minute (since it, before it).
      const at = !m[5]
        ? 0
        : m[7]
        ? Date.UTC(y, mo, Number(m[4]), Number(m[5]), Number(m[6]))
        : new Date(y, mo, Number(m[4]), Number(m[5]), Number(m[6])).getTime();
      const w: [number, number] = at
        ? [at, at + 60_000]
        : m[4]
        ? [new Date(y, mo, Number(m[4])).getTime(), new Date(y, mo, Number(m[4]) + 1).getTime()]
        : [new Date(y, mo, 1).getTime(), new Date(y, mo + 1, 1).getTime()];
      return turned(m[1], w, now);
    },
  },
  {
    // A whole date typed alone (`redis 2025-09-06`, trial 57: searched as text, it matched
    // nothing and was no time either); one with a clock time after it (a pasted log line),
    // inside a path or a version, or that is no calendar day (`2026-02-30`) stays text.
    re: /(?<![\w:./-])((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\w:./-]|\s+\d)/,
    accept: (m) => {
      const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      return d.getMonth() === Number(m[2]) - 1;
    },
    window: (m) => {
      const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
      return [new Date(y, mo, d).getTime(), new Date(y, mo, d + 1).getTime()];
    },
  },
  {
    // `early march`, `in mid-august 2025`, `late sept`: the month's first, middle or last ten
    // days (trial 90 F6: `devcontainer in early march` searched `early` and `march` as words,
    // and listed sessions saying them, none of the three devcontainer sessions of March 4-5).
    re: new RegExp(
      `\\b(?:(?:in|during)\\s+)?(?:the\\s+)?(early|mid|late)[- ]?(${MONTH_NAMES})\\b\\.?(?:,?\\s+(?:of\\s+)?((?:19|20)\\d\\d)\\b)?`,
      "i",
    ),
    window: (m, now) => {
      const month = monthOf(m[2]);
      const d = new Date(now);
      let year = m[3] ? Number(m[3]) : d.getFullYear();
      if (!m[3] && month > d.getMonth()) year--;
      const part = m[1].toLowerCase();
      const from = part === "early" ? 1 : part === "mid" ? 11 : 21;
      const to = part === "late"
        ? new Date(year, month + 1, 1).getTime()
        : new Date(year, month, from + 10).getTime();
      return [new Date(year, month, from).getTime(), to];
    },
  },
  {
    // "may" and "march" alone are verbs: only "in may", "last march", "since may" count, or
    // a year after them (`march 2025`). A short name
    // (`sep`, `sept.`, `dec`) counts after such a word or before a year only (`jan` is a name).
    // "since" and "from" run to now, "before" and "after" turn the window (trial 16: `since
    // september 2025` was September alone; `before`, `after` were searched as words).
    re: new RegExp(
      `\\b(?:(in|during|last|since|from|after|before|back in)\\s+(${MONTH_NAMES})|(${
        MONTHS.filter((m) => m !== "may" && m !== "march").join("|")
      })|(${SHORT_NAMES}|may|march)(?=\\.?,?\\s+(?:of\\s+)?(?:19|20)\\d\\d\\b))\\b\\.?(?:,?\\s+(?:of\\s+)?((?:19|20)\\d\\d)\\b)?`,
      "i",
    ),
    window: (m, now) => {
      const month = monthOf(m[2] ?? m[3] ?? m[4]);
      const d = new Date(now);
      // The year typed after the month (`in september 2025`, trial 16: searched September
      // of this year and the word `2025`), else the last such month.
      let year = m[5] ? Number(m[5]) : d.getFullYear();
      // A month not yet come is last year's; so is this month called "last" (trial 42: `last
      // december` said in December searched this December, not the one before).
      const last = m[1]?.toLowerCase() === "last";
      if (!m[5] && (month > d.getMonth() || (last && month === d.getMonth()))) year--;
      const w: [number, number] = [
        new Date(year, month, 1).getTime(),
        new Date(year, month + 1, 1).getTime(),
      ];
      return turned(m[1], w, now);
    },
  },
  {
    // A year after a word that makes it one (`in 2025`, `since 2024`; `python 2025` is words).
    // Not the year of a date (`since 2026-02-30`, no calendar day, trial 61: read as 2026).
    re: /\b(in|during|since|from|after|before)\s+((?:19|20)\d\d)\b(?![-/]\d)/i,
    window: (m, now) => {
      const y = Number(m[2]);
      return turned(m[1], [new Date(y, 0, 1).getTime(), new Date(y + 1, 0, 1).getTime()], now);
    },
  },
  {
    // `since monday`, `before friday` too (trial 59: searched as words).
    re: new RegExp(
      `\\b(on|last|since|from|after|before)\\s+(${WEEKDAYS.join("|")})\\b`,
      "i",
    ),
    window: (m, now) => turned(m[1], lastWeekday(WEEKDAYS.indexOf(m[2].toLowerCase()), now), now),
  },
];

/**
 * Words one of which every rule of {@link RULES} needs (a month or a weekday, or a word such
 * as `since`, `ago`, `last`). Text without any is not matched against them: the first use of
 * their expressions compiles them, ~3 ms of a cold `deja <word>` in the Bun binary (issue 15).
 */
const CUES = new Set([
  ...MONTHS,
  ...SHORT,
  ...WEEKDAYS,
  ...["from", "between", "until", "till", "up", "in", "on", "during", "since", "after", "before"],
  ...["today", "tonight", "this", "yesterday", "last", "ago", "past", "recently", "lately"],
]);

function mayNameTime(text: string): boolean {
  return text.toLowerCase().split(/[^a-z]+/).some((w) => CUES.has(w)) ||
    /\d{4}-\d\d-\d\d/.test(text);
}

/** The first time phrase of `text`: where it stands, and its window. */
function firstTime(
  text: string,
  now: number,
): { at: number; len: number; hint: TimeHint } | undefined {
  if (!mayNameTime(text)) return undefined;
  for (const r of RULES) {
    const m = r.re.exec(text);
    if (!m || (r.accept && !r.accept(m))) continue;
    const [from, to] = r.window(m, now);
    return { at: m.index, len: m[0].length, hint: { from, to, words: m[0] } };
  }
  return undefined;
}

/**
 * The time words a typo of is read (four letters or more: a shorter word one edit from `ago`
 * or `may` is too often another word).
 */
const TYPO_TARGETS = [
  ...MONTHS.filter((m) => m.length > 3),
  ...WEEKDAYS,
  ...["today", "tonight", "yesterday", "recently", "lately", "morning", "afternoon", "evening"],
  ...["week", "weeks", "month", "months", "year", "years", "days", "last", "past", "since"],
  ...["this", "from", "until", "after", "before", "during", "between", "early"],
];
const TYPO_TARGET_SET: ReadonlySet<string> = new Set(TYPO_TARGETS);
/** Time words that name a window alone: a typo of another alone (`junee`) stays a word. */
const ALONE: ReadonlySet<string> = new Set(["today", "tonight", "yesterday", "recently", "lately"]);

/** A typo read as a time word: where it stands in the text, as typed and as read. */
export interface TimeTypo {
  at: number;
  typed: string;
  meant: string;
}

/**
 * The words of `text` that are a typo of a time word: one edit (a transposition counts) from
 * one of {@link TYPO_TARGETS}, four letters or more, and no English word (`list` is not
 * `last`, `pasta` not `past`; lib/search/english.ts); `text` with them read as those words.
 * Trial 107 F7: `last a weeek` was searched as words, `yesterdya` got no word of it.
 */
export function timeTypos(text: string): { text: string; typos: TimeTypo[] } {
  const typos: TimeTypo[] = [];
  let out = "";
  let from = 0;
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const w = m[0].toLowerCase();
    if (w.length < 4 || TYPO_TARGET_SET.has(w)) continue;
    const near = TYPO_TARGETS.filter((t) => distance(w, t, 1) === 1)
      .sort((a, b) => Math.abs(a.length - w.length) - Math.abs(b.length - w.length));
    if (!near.length || isEnglish(w)) continue;
    out += text.slice(from, m.index);
    typos.push({ at: out.length, typed: m[0], meant: near[0] });
    out += near[0];
    from = m.index! + m[0].length;
  }
  return { text: out + text.slice(from), typos };
}

/**
 * Finds the first time phrase in `text`. A typo of a time word is read as that word when the
 * phrase it then makes holds it ({@link timeTypos}; alone, only a word that names a window
 * alone: `yesterdya`, not `junee`), and said in `typed`; words with no time phrase in them
 * stay as they are (`weekly report`).
 *
 * @returns the text without it, and the window it names (undefined when none).
 */
export function timeHint(text: string, now: number): { rest: string; hint?: TimeHint } {
  const found = firstTime(text, now);
  if (found) {
    const rest = text.slice(0, found.at) + " " + text.slice(found.at + found.len);
    return { rest, hint: found.hint };
  }
  const read = timeTypos(text);
  if (!read.typos.length) return { rest: text };
  const t = firstTime(read.text, now);
  if (!t) return { rest: text };
  const end = t.at + t.len;
  const inside = read.typos.filter((x) => x.at >= t.at && x.at + x.meant.length <= end);
  const alone = !/\s/.test(t.hint.words.trim());
  if (!inside.length || (alone && !ALONE.has(inside[0].meant))) return { rest: text };
  // Back to the text as typed: each typo before a place moves it by its change of length.
  const back = (i: number) =>
    read.typos.filter((x) => x.at + x.meant.length <= i)
      .reduce((n, x) => n - (x.meant.length - x.typed.length), i);
  const [a, b] = [back(t.at), back(end)];
  return {
    rest: text.slice(0, a) + " " + text.slice(b),
    hint: { ...t.hint, typed: text.slice(a, b) },
  };
}

/**
 * The weight of a session inside the window, against at most 1 outside (trial 16: at 1.5, a
 * September session that said `kubectl` more ranked above the one August session of
 * `kubectl in august 2025`). At 20 the windows' edges ruled: `question` hit@1 lost 2 of 600
 * on ten recall seeds (a "last week" a few days off the calendar's); at 3, nothing moved.
 */
export const INSIDE = 3;

/**
 * Whether a session first active at `started` and last at `updated` (epoch ms, either null)
 * meets `hint`'s window; one with neither time does not. What ranks a title (lib/search.ts)
 * and what the first line says of the results (lib/cli/cmd_search.ts) read it alike.
 */
export function sessionMeets(
  hint: TimeHint,
  started: number | null | undefined,
  updated: number | null | undefined,
): boolean {
  const first = started ?? updated;
  return first != null && inWindow(hint, first, updated ?? first);
}

/** Whether a session's time span `[start, end]` (epoch ms) meets `hint`'s window. */
export function inWindow(hint: TimeHint, start: number, end: number): boolean {
  return end >= hint.from && start < hint.to;
}

/**
 * How well a session's time span `[start, end]` (epoch ms) fits `hint`: {@link INSIDE}
 * inside the window, so those sessions mostly come first; outside it, at most 1, falling gently
 * with the distance in days (the nearest outside first).
 */
export function timeFit(hint: TimeHint, start: number, end: number): number {
  if (inWindow(hint, start, end)) return INSIDE;
  const gap = end < hint.from ? hint.from - end : start - hint.to;
  const days = gap / DAY;
  return 1 / (1 + days / 14);
}

/** A month named (`in september`, `sep 8th`), in any of its spellings. */
const MONTH_NAMED = new RegExp(`\\b(?:${MONTH_NAMES})\\b`, "i");

/**
 * True when `hint`'s words name a month (or a day of one) without its year: read as the
 * last one, so the same days of an earlier year may be the ones meant (`deja last`'s hint,
 * search's first line).
 */
export function monthWithoutYear(hint: TimeHint): boolean {
  return MONTH_NAMED.test(hint.words) && !/\b\d{4}\b/.test(hint.words);
}

/**
 * A window run on to now from the month or day it names (`since january`, `from march 5`,
 * `after may`): no month of its own, so none of an earlier year stands in for it (trial 78:
 * `redis since january` said "4 fall in January 2025" of four sessions of September 2025).
 */
export function runsToNow(hint: TimeHint): boolean {
  // Not `from august to october` (trial 81: said "from August 2026 on"), a window with an end.
  return /^\s*(?:since|from|after)\b/i.test(hint.words) &&
    !/\b(?:to|until|till|through|thru|and|before)\b|[-–]/i.test(hint.words.replace(/^\S+/, ""));
}

/** `hint`'s window moved `years` calendar years back. */
export function yearsBefore(hint: TimeHint, years: number): TimeHint {
  const back = (ms: number) => {
    const d = new Date(ms);
    d.setFullYear(d.getFullYear() - years);
    return d.getTime();
  };
  return { ...hint, from: back(hint.from), to: back(hint.to) };
}
