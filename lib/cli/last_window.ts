/**
 * The window `deja last`'s words name (`week`, `4 march`, `2025`, `24 hours`, `since
 * yesterday`), read with a count before it when one was given, and the line that names its
 * days. Split from lib/cli/cmd_last.ts: what the words mean, apart from what the command lists.
 *
 * @module
 */
import { type TimeHint, timeHint, timeTypos } from "../search/timewords.ts";
import { localTime } from "../memory/text.ts";
import { parseSince, SPAN, timeOnly } from "../query.ts";
import { wholeNumber } from "./common.ts";

/**
 * The window `deja last`'s words name, with a count before it when one was given: `week`
 * (the past 7 days, {@link pastUnit}), `30 days`, `march` (as `last …`), `yesterday`, `jan
 * 13th`, `in march`, `until friday`, `last week` (the calendar's, as typed), `5 in march`,
 * `3 last week` (trial 18a: `yesterday`, `jan 13th`, `in march` were refused or searched, `5
 * in march` searched the word `5`). Undefined when they name none.
 */
export function lastWindow(
  words: readonly string[],
  now = Date.now(),
): { hint: TimeHint; phrase: string; n?: number } | undefined {
  if (!words.length) return undefined;
  // A typo of a time word (`weeek`, `yesterdya`) read as that word, and said (trial 106 F7:
  // `deja last weeek` was the calendar's week, `deja last week` the past 7 days).
  const fixed = timeTypos(words.join(" "));
  if (fixed.typos.length) {
    const w = lastWindow(fixed.text.split(/\s+/).filter(Boolean), now);
    // (A count of sessions is no part of the window's words.)
    const typed = words.filter((x) => w?.n === undefined || !/^\d+$/.test(x)).join(" ");
    return w && { ...w, hint: { ...w.hint, typed } };
  }
  const past = pastUnit(words, now);
  if (past) return past;
  const read = (ws: readonly string[]) => {
    const text = ws.join(" ");
    const last = timeOnly(`last ${text}`, now);
    if (last) return { hint: last, phrase: `last ${text}` };
    const typed = timeOnly(text, now);
    if (typed) return { hint: typed, phrase: text };
    // A day named alone (trial 18b: `deja last march 4`, `deja last 2026-11-29` were refused).
    const day = timeOnly(`on ${text}`, now);
    return day ? { hint: day, phrase: text } : undefined;
  };
  // A month alone is its latest, this one while it runs (trial 59: `deja last december` on
  // December 6 listed last year's); a year alone is that year, not a count (trial 59: `deja
  // last 2025` listed 2,025 sessions of every year); a month with its year is named as typed
  // (trial 60: "last march 2025"). Each is read as `in …`.
  const year = (w: string | undefined) => w !== undefined && /^(?:19[89]|20\d)\d$/.test(w);
  if (
    (words.length === 1 && (MONTH.test(words[0]) || year(words[0]))) ||
    (words.length === 2 && MONTH.test(words[0]) && year(words[1]))
  ) {
    const hint = timeOnly(`in ${words.join(" ")}`, now);
    if (hint) return { hint, phrase: words.join(" ") };
  }
  const all = timeOnly(`last ${words.join(" ")}`, now);
  if (all) return { hint: all, phrase: `last ${words.join(" ")}` };
  // A day before its month is that day, not a count (trial 59: `deja last 4 march` listed four
  // sessions of the whole of March under "last march").
  if (words.length > 1 && /^\d{1,2}(?:st|nd|rd|th)?$/i.test(words[0]) && MONTH.test(words[1])) {
    const day = read(words);
    if (day) return day;
  }
  const n = words.length > 1 ? wholeNumber(words[0]) : undefined;
  const counted = n !== undefined ? read(words.slice(1)) : undefined;
  if (counted) return { ...counted, n };
  const whole = read(words) ?? sinceWindow(words, now);
  if (whole || words.length < 2) return whole;
  // The count after the window (`week 5`, `yesterday 3`; trial 106 F7: refused), where the
  // words together name none (`march 5` is a day).
  // (Never after a month: `feb 30` is a day no calendar holds, not February's 30 sessions.)
  const after = MONTH.test(words[words.length - 2])
    ? undefined
    : wholeNumber(words[words.length - 1]);
  const before = after === undefined ? undefined : lastWindow(words.slice(0, -1), now);
  return before && before.n === undefined ? { ...before, n: after } : undefined;
}

/**
 * A unit alone (`week`, `month`), or after a count of sessions (`50 week`): the past one, back
 * from now, as `deja last 7 days` reads it (trial 103 F1: `deja last week` was the calendar week
 * before this one, and on a Sunday said "no session" while five ran in the last 7 days; F2:
 * `deja last 50 week` read 50 weeks and listed 10). A count of more than one before the unit in
 * the plural is a span (`deja last 2 weeks`); the calendar's weeks are named: `this week`,
 * `last week` ({@link rollingFor} points from them to this form). An article is no count (`a
 * week`).
 */
function pastUnit(
  words: readonly string[],
  now: number,
): { hint: TimeHint; phrase: string; n?: number } | undefined {
  // `a week`, `one month`: the past one too (trial 105 F8: `deja last a week` was headed
  // "last a week").
  const m = /^(?:(\d+)\s+|(?:an?|one)\s+)?(day|week|month|year)$/i.exec(words.join(" "));
  const n = m?.[1] === undefined ? undefined : wholeNumber(m[1]);
  if (!m || (m[1] !== undefined && (n === undefined || n < 2))) return undefined;
  const span = timeOnly(`past 1 ${m[2]}`, now);
  if (!span) return undefined;
  const phrase = `past ${m[2].toLowerCase()}`;
  return { hint: { ...span, words: phrase }, phrase, ...(n !== undefined ? { n } : {}) };
}

/**
 * For a calendar week, month or year named (`last week`, `this month`): the same unit back
 * from now (`past week`) and the command that lists it, for the hint when the calendar's one
 * holds no session (trial 103 F1). Undefined for any other window.
 */
export function rollingFor(
  w: TimeHint,
  now = Date.now(),
): { hint: TimeHint; command: string } | undefined {
  const unit = /^\s*(?:this|last)\s+(week|month|year)\s*$/i.exec(w.words)?.[1]?.toLowerCase();
  const past = unit === undefined ? undefined : pastUnit([unit], now);
  return past ? { hint: past.hint, command: `deja last ${unit}` } : undefined;
}

/**
 * A span back from now (`24 hours`, `90d`) or `since` and what `--since` takes (`since
 * yesterday`), as `--since` reads it (trial 59: these worked as `--since` and were refused
 * as words).
 */
function sinceWindow(
  words: readonly string[],
  now: number,
): { hint: TimeHint; phrase: string } | undefined {
  const text = words.join(" ");
  const after = /^since\s+(.+)$/i.exec(text)?.[1];
  if (after === undefined && !SPAN.test(text)) return undefined;
  const from = parseSince(after ?? text, now);
  if (from === undefined || from > now) return undefined;
  const phrase = after === undefined ? `last ${text}` : text;
  return { hint: { from, to: now + 1, words: phrase }, phrase };
}

/** A month's name, whole or short (`march`, `sept`, `dec.`). */
const MONTH =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?$/i;

/**
 * The days time words named, as a person reads them: `last week: Mon 2026-11-23 to Sun
 * 2026-11-29`, `past week: since Fri 2026-11-27` (local dates; `to` is exclusive).
 */
export function windowLine(w: TimeHint, now: number): string {
  return `${w.words.trim()}${typedAs(w)}: ${windowDays(w, now)}`;
}

/** ` (read from 'yesterdya')` for a window named with a typo of a time word (trial 106 F7). */
export function typedAs(w: Pick<TimeHint, "typed">): string {
  return w.typed ? ` (read from '${w.typed.trim()}')` : "";
}

/**
 * How `--since`'s words were read when they held a typo of a time word (` (read as
 * 'yesterday')`), else "" (trial 106 F7).
 */
export function sinceReadAs(typed: string, now = Date.now()): string {
  const h = timeHint(typed, now).hint ?? timeHint(`on ${typed}`, now).hint;
  return h?.typed ? ` (read as '${h.words.replace(/^on\s+/i, "").trim()}')` : "";
}

/**
 * The days of a window alone: `Mon 2026-11-23 to Sun 2026-11-29`, `since Fri 2026-11-27
 * 09:30`, `up to Sun 2025-08-31` (what {@link windowLine} says after the words, and what
 * `deja last`'s "no session" line names; trial 103 F1).
 */
export function windowDays(w: TimeHint, now: number): string {
  const at = localTime; // `YYYY-MM-DD HH:MM`
  const day = (ms: number) =>
    `${["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(ms).getDay()]} ${
      at(ms).slice(0, 10)
    }`;
  const first = day(w.from);
  // Up to now (`past week`): read when the command began, a moment before `now`; from a time
  // of day, said (trial 18: "since Fri 2026-11-27" left out that morning's sessions).
  const clock = at(w.from).slice(11);
  if (w.to > now - 60_000) return `since ${first}${clock === "00:00" ? "" : ` ${clock}`}`;
  const lastDay = day(w.to - 1);
  // No start (`before 2025-09-01`, `until march`: from the epoch; trial 60 printed "Thu - to").
  if (w.from <= 0) return `up to ${lastDay}`;
  return first === lastDay ? first : `${first} to ${lastDay}`;
}
