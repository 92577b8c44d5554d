/**
 * `deja last [n]`: the most recent sessions.
 *
 * Parse ({@link parseLast}) → run ({@link lastData}) → render ({@link lastJson}, {@link lastText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import {
  colors,
  fmtSessionTime,
  intOpt,
  opt,
  printJson,
  searchInstead,
  wholeNumber,
} from "./common.ts";
import { oneLine, plural, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { modelsOf, shortRef } from "../sessions.ts";
import { type LastSession, lastSessions } from "../memory/last.ts";
import type { Store } from "../store.ts";
import {
  FILTER_OPTIONS,
  hiddenHint,
  hiddenOf,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  sessionJsonOf,
  SINCE_OPTION,
  timeOpt,
  undatedHint,
  withStore,
} from "./_memory.ts";
import { filteredText, filtersUsed, type FilterUsed, phraseShown } from "./_filtered.ts";
import { isUndated } from "../session_time.ts";
import {
  monthWithoutYear,
  noSuchDay,
  runsToNow,
  type TimeHint,
  yearsBefore,
} from "../search/timewords.ts";
import { parseSince } from "../query.ts";
import { lastWindow, rollingFor, windowDays, windowLine } from "./last_window.ts";
import { orphanMark } from "./search_words.ts";

export { lastWindow, windowLine } from "./last_window.ts";

export const lastCmd: CommandSpec = {
  asks: true,
  refresh: true,
  usage: "last [n | -n | --limit <n>] [week | 30 days | this week | last week | in march | " +
    "yesterday | jan 13th …] [--harness <id>] [--project <text>] [--since <30d|date>] " +
    "[--model <text>] [--junk] [--json]",
  // What each form of time words means (trial 103 F1: `week` was read as the calendar week
  // before this one, and the help said nothing of it).
  details: [
    // Trial 120 L9: `deja last -5` was taken, and no help said so.
    "A count: 5, -5 (as head -5 reads it) and --limit 5 say the same; 0 or less is refused.",
    "Time words after 'last' (local time; each prints the days it covers):",
    "  week, month, year, 2 weeks, 30 days   back from now: the past 7, 30, 365, 14, 30 days",
    "  5 week, 20 month                      a count first: the newest 5 of the past week",
    "  this week, this month, this year      the calendar's, from Monday (the 1st) up to now",
    "  last week, last month, last year      the calendar's one before this (a week: Monday to Sunday)",
    "  yesterday, jan 13th, in march, 2025   those days; since march, until friday: from, up to",
    "A session is listed for a window with an end when one of its events falls in it (one whose",
    "events have no times: when its start or its end does).",
  ].join("\n"),
  maxPositionals: 1,
  // `deja last 30 days`, `deja last 2 weeks` (trial 17b: refused, 'days' unexpected).
  // A month's day it has not (`feb 30`) fits too, to be refused by name.
  wordsFit: (words) => lastWindow(words) !== undefined || noSuchDay(words.join(" ")) !== undefined,
  count: true,
  options: {
    limit: {
      type: "string",
      value: "<n>",
      description: "sessions to show (default 10), as the positional n (search's option)",
    },
    ...FILTER_OPTIONS,
    since: {
      ...SINCE_OPTION.since,
      description:
        "only sessions active this recently (30d, 12h, 2w, 3mo, 45m for minutes, a date, or yesterday…)",
    },
    ...JUNK_OPTION,
    json: { type: "boolean", description: "print the sessions as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runLast(a, io)),
};

/** What `deja last` was asked. */
export interface LastArgs {
  /** How many sessions, newest first. */
  n: number;
  filter: SessionFilter;
  /** Epoch ms: only sessions last active at or after (`--since`), and the value as typed. */
  since?: number;
  sinceText?: string;
  /** Epoch ms: only sessions started before (a window named: `deja last month`). */
  until?: number;
  json: boolean;
  /** The window time words named (`deja last month`, `deja in march`), for `--json`. */
  window?: TimeHint;
}

/** The sessions `deja last` lists, each with its shortest reference. */
export interface LastData {
  sessions: Array<LastSession & { ref: string }>;
  /** Sessions of throwaway or excluded projects left out. */
  hidden: number;
  /** Sessions `--since` left out because they are undated (lib/session_time.ts). */
  undated: number;
  /** When the filters left none: sessions without them (else 0). */
  without: number;
  /** Sessions the filters let through, listed or not, when known (lib/memory/last.ts). */
  total?: number;
  /**
   * When a month or day named without its year held none: the latest of the five years
   * before whose same days hold some, and how many ({@link earlierYear}).
   */
  earlier?: { year: number; sessions: number };
  /**
   * When a calendar week, month or year named (`last week`) held none: the command that counts
   * the same unit back from now, and how many sessions it lists (trial 103 F1).
   */
  rolling?: { command: string; words: string; sessions: number };
}

/**
 * Reads `deja last`'s arguments: the count as `n` or `--limit` (search takes `--limit`).
 *
 * @throws {DejaError} exit 2 when the count is not a positive whole number, `n` and
 * `--limit` differ, or a harness is unknown.
 */
export function parseLast(a: Args, now = Date.now()): LastArgs {
  // A `--since` cut from its unit (`--since 3 months`) is named before the unit as a count.
  const since = timeOpt(a, "since");
  // `--since september 2025` unquoted (trial 18a): September of this year, and 2025 sessions.
  const rest = since.text !== undefined && a.positionals.length === 1
    ? parseSince(`${since.text} ${a.positionals[0]}`, now)
    : undefined;
  if (rest !== undefined && rest !== since.ms) {
    throw new DejaError(
      `--since took '${since.text}', and '${a.positionals[0]}' after it is no count of sessions`,
      `quote the words: deja last --since '${since.text} ${a.positionals[0]}'`,
      2,
    );
  }
  const nText = a.positionals[0];
  const given = nText === undefined ? undefined : wholeNumber(nText);
  // `deja last week`, `deja last month`: the sessions of that window (trial 16: `last month`
  // was refused as a count, and the hint searched the words).
  const window = lastWindow(a.positionals, now);
  if (window) {
    const phrase = window.phrase;
    if (opt(a, "since") !== undefined) {
      // The words as typed (trial 105 F6: `last last week --since yesterday` offered `deja
      // last week`, the past 7 days, not the calendar week typed; `5 week` lost its 5).
      throw new DejaError(
        `last was given two windows, '${phrase}' and --since ${opt(a, "since")}`,
        `give one: 'deja last ${a.positionals.join(" ")}' or 'deja last --since ${
          opt(a, "since")
        }'`,
        2,
      );
    }
    const limit = opt(a, "limit") === undefined ? undefined : intOpt(a, "limit", 10);
    if (window.n !== undefined && limit !== undefined && window.n !== limit) {
      throw new DejaError(
        `last was given two counts, ${window.n} and --limit ${limit}`,
        `give one: 'deja last ${limit} ${phrase}' or 'deja last ${phrase} --limit ${limit}'`,
        2,
      );
    }
    return {
      n: window.n ?? limit ?? 10,
      filter: parseFilter(a),
      since: window.hint.from,
      until: window.hint.to,
      sinceText: phrase,
      json: Boolean(a.values.json),
      window: window.hint,
    };
  }
  // A date no calendar holds (trial 60: `2026-02-30` listed March 2 before it was refused).
  const day = a.positionals.join(" ").match(/^(?:on\s+)?((?:19|20)\d\d-\d\d-\d\d)$/i)?.[1];
  if (day) {
    // The month's last day, when the month exists (trial 61: 2026-02-28 offered for any date).
    const [y, m] = day.split("-").map(Number);
    const last = m >= 1 && m <= 12
      ? `${day.slice(0, 8)}${String(new Date(y, m, 0).getDate()).padStart(2, "0")}`
      : `${y}-12-31`;
    throw new DejaError(`'${day}' is no calendar day`, `give one that is: deja last ${last}`, 2);
  }
  const other = noSuchDay(a.positionals.join(" "));
  if (other) {
    throw new DejaError(
      `'${a.positionals.join(" ")}' is no calendar day`,
      `give one that is: deja last ${other}`,
      2,
    );
  }
  if (nText !== undefined && given === undefined) {
    throw new DejaError(
      `last takes a positive whole number, not '${nText}'`,
      `${searchInstead(["last", ...a.positionals])}; 'deja last 20' lists the newest 20`,
    );
  }
  const limit = opt(a, "limit") === undefined ? undefined : intOpt(a, "limit", 10);
  if (given !== undefined && limit !== undefined && given !== limit) {
    throw new DejaError(
      `last was given two counts, ${given} and --limit ${limit}`,
      `give one: 'deja last ${limit}' or 'deja last --limit ${limit}'`,
      2,
    );
  }
  const n = given ?? limit ?? 10;
  return {
    n,
    filter: parseFilter(a),
    since: since.ms,
    sinceText: since.text,
    json: Boolean(a.values.json),
  };
}

/** The `n` most recent sessions the filter lets through (`now`: epoch ms, for the rolling hint). */
export function lastData(
  store: Store,
  args: LastArgs,
  io: Pick<IO, "env" | "cwd">,
  now = Date.now(),
): LastData {
  const { sessions, hidden, undated, total } = lastSessions(store, {
    limit: args.n,
    harness: args.filter.harness,
    project: args.filter.project,
    since: args.since,
    until: args.until,
    hidden: hiddenOf(store, args.filter, io),
    // Always counted (trial 59: `--project` and `--junk` listed 10 with no total, so neither
    // a person nor a script could tell 17 more were left out).
    count: true,
  });
  // Nothing under --harness/--project: how many sessions there are without them, as
  // `deja last` counts them (trial 24: 52 here, subagents and throwaway ones included,
  // where `deja last` said 45).
  const unfiltered = () => {
    const all = lastSessions(store, {
      limit: 1,
      // As plain `deja last` hides them (trial 59: `--project nosuch` said 49 where `deja
      // last` lists 45: a project named keeps its throwaway sessions).
      hidden: hiddenOf(store, { ...args.filter, model: undefined, project: undefined }, io),
      count: true,
    });
    return all.total ?? 0;
  };
  const without = sessions.length || !filtersOf(args).length ? 0 : unfiltered();
  const earlier = sessions.length || hidden ? undefined : earlierYear(store, args, io);
  const rolling = sessions.length ? undefined : rollingCount(store, args, io, now);
  return {
    sessions: sessions.map((s) => ({ ...s, ref: shortRef(store, s.harness, s.native_id) })),
    hidden,
    undated,
    without,
    ...(total !== undefined ? { total } : {}),
    ...(earlier ? { earlier } : {}),
    ...(rolling ? { rolling } : {}),
  };
}

/**
 * For a calendar week, month or year (`last week`, `this month`) that holds no session: how
 * many the same unit back from now holds under the same filters, when any (trial 103 F1:
 * `deja last week` on a Sunday said "no session" while five ran in the past 7 days).
 */
function rollingCount(
  store: Store,
  args: LastArgs,
  io: Pick<IO, "env" | "cwd">,
  now: number,
): LastData["rolling"] {
  const r = args.window && rollingFor(args.window, now);
  if (!r) return undefined;
  const { total } = lastSessions(store, {
    limit: 1,
    harness: args.filter.harness,
    project: args.filter.project,
    since: r.hint.from,
    hidden: hiddenOf(store, args.filter, io),
    count: true,
  });
  return total ? { command: r.command, words: r.hint.words, sessions: total } : undefined;
}

/**
 * For a window of a month or a day named without its year (read as the last one) that holds
 * no session: the latest of the five years before whose same days hold some under the same
 * filters, and how many (trial 24: `deja last in september` found nothing and said only to
 * drop the words, while all six September sessions were of 2025).
 */
function earlierYear(
  store: Store,
  args: LastArgs,
  io: Pick<IO, "env" | "cwd">,
): LastData["earlier"] {
  const w = args.window;
  if (!w || !monthWithoutYear(w) || runsToNow(w)) return undefined;
  const hidden = hiddenOf(store, args.filter, io);
  for (let years = 1; years <= 5; years++) {
    const then = yearsBefore(w, years);
    const r = lastSessions(store, {
      limit: 1,
      harness: args.filter.harness,
      project: args.filter.project,
      since: then.from,
      until: then.to,
      hidden,
    });
    if (r.sessions.length) {
      return { year: new Date(then.from).getFullYear(), sessions: r.total ?? 1 };
    }
  }
  return undefined;
}

/** The `--json` document (docs/json-output.md, `last`). */
export function lastJson(d: LastData, window?: TimeHint): Record<string, unknown> {
  return {
    // The window time words named, as search gives it (trial 18a: `deja in jan --json` had none).
    ...(window
      ? {
        time: {
          from: new Date(window.from).toISOString(),
          to: new Date(window.to).toISOString(),
          words: window.words.trim(),
        },
      }
      : {}),
    sessions: d.sessions.map(({ ref, ...s }) => ({
      ...sessionJsonOf(s, ref),
      model: s.model,
      models: modelsOf(s),
      events: s.events,
      // A subagent whose parent is not indexed: the parent's id.
      parent: s.parent ?? null,
      description: s.description,
      // The same text under the name search's results give it (`results[].about`).
      about: s.description,
    })),
    hidden: d.hidden,
    undated: d.undated,
    undated_listed: d.sessions.filter(isUndated).length,
    ...(d.total !== undefined ? { total: d.total } : {}),
    ...(d.earlier ? { earlier: d.earlier } : {}),
  };
}

/** The sessions as text, two lines each (colour on a terminal). */
export function lastText(d: LastData, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const out: string[] = [];
  for (const s of d.sessions) {
    out.push(
      `${c.cyan(s.ref)}  ${c.bold(s.harness)}  ${fmtSessionTime(s.updated ?? s.started, s)}  ${
        tilde(s.project, io.env.home)
      }  ${c.dim(plural(s.events, "event"))}${
        // Listed on its own, a subagent shares its parent's short id (trial 37: read as the
        // parent session itself): said as search and show say it (trial 139 L1: "its parent
        // session is not in the index" of one whose store records no parent).
        s.parent ? c.dim(`  ${orphanMark(s.parent)}`) : ""}`,
    );
    if (s.description) out.push(`  ${oneLine(s.description, 100)}`);
  }
  return out.join("\n") + "\n";
}

/**
 * When every session that matches is hidden: how many, why, and the flag that
 * shows the throwaway ones (an excluded project stays hidden; `deja forget`
 * and the exclude file say so).
 */
export function hiddenOnlyText(
  hidden: number,
  filters: FilterUsed[],
): string {
  const words: Record<string, string> = {
    "--harness": "in harness",
    "--project": "in project",
    "--since": "since",
  };
  const where = filters.map((x) =>
    ` ${x.phrase ? phraseShown(x) : `${words[x.flag] ?? x.flag} ${x.value}`}`
  )
    .join(",");
  const them = hidden === 1 ? "it is" : `all ${hidden} are`;
  const n = `${hidden} session${hidden === 1 ? "" : "s"}`;
  return `deja: ${n} in the index match${hidden === 1 ? "es" : ""}${where}, but ${them} hidden: ` +
    `the project is throwaway (a temp or test directory) or excluded\n` +
    `hint: --junk shows the throwaway ones\n`;
}

/**
 * The filters `deja last` was given, `--since` with them; a window's words with the days they
 * named (trial 103 F1: "no session matches last week" said nothing of which week).
 */
function filtersOf(args: LastArgs, now = Date.now()) {
  const used = filtersUsed({ ...args.filter, since: args.sinceText });
  const w = args.window;
  return args.until === undefined
    ? used
    : used.map((f) =>
      f.flag === "--since" ? { ...f, phrase: true, ...(w ? { range: windowDays(w, now) } : {}) } : f
    );
}

function runLast(a: Args, io: IO): number {
  const args = parseLast(a);
  return showLast(args, io);
}

/**
 * The sessions of the window `hint` names, as `deja last <window>` lists them, under the
 * filters of `a` (`--harness`, `--project`, `--junk`, `--json`): what a search of time
 * words alone asks for (lib/cli/cmd_search.ts).
 */
export function runLastWindow(a: Args, io: IO, hint: TimeHint, n: number): number {
  return showLast({
    n,
    filter: parseFilter(a),
    since: hint.from,
    until: hint.to,
    sinceText: hint.words.trim(),
    json: Boolean(a.values.json),
    window: hint,
  }, io);
}

function showLast(args: LastArgs, io: IO): number {
  const d = withStore(io, (store) => lastData(store, args, io));
  if (args.json) {
    printJson(io, lastJson(d, args.window));
    return d.sessions.length ? 0 : 1;
  }
  // The days a window's words named (trial 17: `last week` listed the previous calendar week,
  // Monday to Sunday, and said nothing of it).
  if (args.window) io.err(`${windowLine(args.window, Date.now())}\n`);
  if (!d.sessions.length) {
    if (d.hidden) {
      // Sessions do match, all hidden: say so, not "none matches" and "drop the filter".
      io.err(hiddenOnlyText(d.hidden, filtersOf(args)));
      undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
      return 1;
    }
    const f = { filters: filtersOf(args), without: d.without };
    io.err(filteredText("deja: no session in the index matches", f));
    if (d.earlier && args.window) {
      const { year, sessions } = d.earlier;
      io.err(
        `hint: the same days of ${year} hold ${
          plural(sessions, "session")
        }: deja last ${args.window.words.trim()} ${year}\n`,
      );
    }
    if (d.rolling) {
      const { command, words, sessions } = d.rolling;
      io.err(
        `hint: '${command}' counts back from now: the ${words} holds ${
          plural(sessions, "session")
        }\n`,
      );
    }
    undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
    return 1;
  }
  io.out(lastText(d, io));
  // Trial 18a: `deja from august to october 2025` listed 10 of 25 and said nothing.
  if (d.total !== undefined && d.total > d.sessions.length) {
    io.err(`showing ${d.sessions.length} of ${d.total}: --limit shows more\n`);
  }
  hiddenHint(io, d.hidden);
  undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
  return 0;
}
