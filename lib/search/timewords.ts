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

/** A window of time named in a query. */
export interface TimeHint {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** The words that named it, as typed. */
  words: string;
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
  window(m: RegExpExecArray, now: number): [number, number];
}

const RULES: Rule[] = [
  {
    re: /\b(?:earlier )?(?:today|tonight|this (?:morning|afternoon|evening))\b/i,
    window: (_m, now) => [startOfDay(now), now + 1],
  },
  {
    re: /\b(?:yesterday|last night)\b/i,
    window: (_m, now) => [startOfDay(now) - DAY, startOfDay(now)],
  },
  {
    re:
      /\b(\d+|an?|one|two|three|four|five|six|few|several|couple(?: of)?)\s+(day|week|month|year)s?\s+ago\b/i,
    window: (m, now) => {
      const n = /^\d+$/.test(m[1]) ? Number(m[1]) : COUNTS[m[1].toLowerCase()] ?? 1;
      const unit = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY }[
        m[2].toLowerCase() as "day"
      ];
      const center = now - n * unit;
      const half = Math.max(DAY, n * unit * 0.3);
      return [center - half, center + half];
    },
  },
  { re: /\b(?:this|past) week\b/i, window: (_m, now) => [now - 7 * DAY, now + 1] },
  { re: /\blast week\b/i, window: (_m, now) => [now - 14 * DAY, now - 5 * DAY] },
  { re: /\b(?:this|past) month\b/i, window: (_m, now) => [now - 31 * DAY, now + 1] },
  { re: /\blast month\b/i, window: (_m, now) => [now - 62 * DAY, now - 25 * DAY] },
  { re: /\blast year\b/i, window: (_m, now) => [now - 730 * DAY, now - 300 * DAY] },
  { re: /\b(?:recently|lately)\b/i, window: (_m, now) => [now - 14 * DAY, now + 1] },
  {
    // "may" alone is a verb: only "in may", "last may", "since may" count. A short name
    // (`sep`, `sept`, `dec`) counts after such a word or before a year only (`jan` is a name).
    // "since" names the month and what came after it (trial 16: read as "in").
    re: new RegExp(
      `\\b(?:(in|during|last|since|back in)\\s+(${MONTH_NAMES})|(${
        MONTHS.filter((m) => m !== "may").join("|")
      })|(${SHORT_NAMES})(?=,?\\s+(?:19|20)\\d\\d\\b))\\b(?:,?\\s+((?:19|20)\\d\\d)\\b)?`,
      "i",
    ),
    window: (m, now) => {
      const month = monthOf(m[2] ?? m[3] ?? m[4]);
      const d = new Date(now);
      // The year typed after the month (`in september 2025`, trial 16: searched September
      // of this year and the word `2025`), else the last such month.
      let year = m[5] ? Number(m[5]) : d.getFullYear();
      if (!m[5] && month > d.getMonth()) year--;
      const from = new Date(year, month, 1).getTime();
      if (m[1]?.toLowerCase() === "since") return [from, now + 1];
      return [from, new Date(year, month + 1, 1).getTime()];
    },
  },
  {
    re: new RegExp(`\\b(?:on|last)\\s+(${WEEKDAYS.join("|")})\\b`, "i"),
    window: (m, now) => {
      const want = WEEKDAYS.indexOf(m[1].toLowerCase());
      const today = new Date(now).getDay();
      const back = (today - want + 7) % 7 || 7;
      const start = startOfDay(now) - back * DAY;
      return [start, start + DAY];
    },
  },
];

/**
 * Finds the first time phrase in `text`.
 *
 * @returns the text without it, and the window it names (undefined when none).
 */
export function timeHint(text: string, now: number): { rest: string; hint?: TimeHint } {
  for (const r of RULES) {
    const m = r.re.exec(text);
    if (!m) continue;
    const [from, to] = r.window(m, now);
    const rest = text.slice(0, m.index) + " " + text.slice(m.index + m[0].length);
    return { rest, hint: { from, to, words: m[0] } };
  }
  return { rest: text };
}

/** Whether a session's time span `[start, end]` (epoch ms) meets `hint`'s window. */
export function inWindow(hint: TimeHint, start: number, end: number): boolean {
  return end >= hint.from && start < hint.to;
}

/**
 * How well a session's time span `[start, end]` (epoch ms) fits `hint`: 1.5
 * inside the window, falling gently with the distance in days outside it.
 */
export function timeFit(hint: TimeHint, start: number, end: number): number {
  if (inWindow(hint, start, end)) return 1.5;
  const gap = end < hint.from ? hint.from - end : start - hint.to;
  const days = gap / DAY;
  return 1 / (1 + days / 14);
}
