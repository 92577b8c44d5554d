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
import { Q } from "../schema.ts";
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
import { filteredText, filtersUsed } from "./_filtered.ts";
import { isUndated } from "../session_time.ts";
import type { TimeHint } from "../search/timewords.ts";
import { timeOnly } from "../query.ts";

export const lastCmd: CommandSpec = {
  asks: true,
  refresh: true,
  usage: "last [n | --limit <n>] [--harness <id>] [--project <text>] [--since <30d|date>] " +
    "[--junk] [--json]",
  maxPositionals: 1,
  // `deja last 30 days`, `deja last 2 weeks` (trial 17b: refused, 'days' unexpected).
  wordsFit: (words) => timeOnly(`last ${words.join(" ")}`) !== undefined,
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
}

/**
 * Reads `deja last`'s arguments: the count as `n` or `--limit` (search takes `--limit`).
 *
 * @throws {DejaError} exit 2 when the count is not a positive whole number, `n` and
 * `--limit` differ, or a harness is unknown.
 */
export function parseLast(a: Args, now = Date.now()): LastArgs {
  // A `--since` cut from its unit (`--since 3 months`) is named before the unit as a count.
  timeOpt(a, "since");
  const nText = a.positionals[0];
  const given = nText === undefined ? undefined : wholeNumber(nText);
  // `deja last week`, `deja last month`: the sessions of that window (trial 16: `last month`
  // was refused as a count, and the hint searched the words).
  const phrase = nText === undefined ? undefined : `last ${a.positionals.join(" ")}`;
  const window = phrase && (given === undefined || a.positionals.length > 1)
    ? timeOnly(phrase, now)
    : undefined;
  if (window) {
    if (opt(a, "since") !== undefined) {
      throw new DejaError(
        `last was given two windows, '${phrase}' and --since ${opt(a, "since")}`,
        `give one: 'deja ${phrase}' or 'deja last --since ${opt(a, "since")}'`,
        2,
      );
    }
    const limit = opt(a, "limit") === undefined ? 10 : intOpt(a, "limit", 10);
    return {
      n: limit,
      filter: parseFilter(a),
      since: window.from,
      until: window.to,
      sinceText: phrase,
      json: Boolean(a.values.json),
    };
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
  const { ms: since, text: sinceText } = timeOpt(a, "since");
  return { n, filter: parseFilter(a), since, sinceText, json: Boolean(a.values.json) };
}

/** The `n` most recent sessions the filter lets through. */
export function lastData(store: Store, args: LastArgs, io: Pick<IO, "env" | "cwd">): LastData {
  const { sessions, hidden, undated } = lastSessions(store, {
    limit: args.n,
    harness: args.filter.harness,
    project: args.filter.project,
    since: args.since,
    until: args.until,
    hidden: hiddenOf(store, args.filter, io),
  });
  // Nothing under --harness/--project: how many sessions there are without them.
  const unfiltered = () =>
    lastSessions(store, { limit: 1, hidden: hiddenOf(store, args.filter, io) }).sessions.length
      ? Number(Q.sessionCount.get(store, {})?.n ?? 0)
      : 0;
  const without = sessions.length || !filtersOf(args).length ? 0 : unfiltered();
  return {
    sessions: sessions.map((s) => ({ ...s, ref: shortRef(store, s.harness, s.native_id) })),
    hidden,
    undated,
    without,
  };
}

/** The `--json` document (docs/json-output.md, `last`). */
export function lastJson(d: LastData): Record<string, unknown> {
  return {
    sessions: d.sessions.map(({ ref, ...s }) => ({
      ...sessionJsonOf(s, ref),
      model: s.model,
      models: modelsOf(s),
      events: s.events,
      description: s.description,
      // The same text under the name search's results give it (`results[].about`).
      about: s.description,
    })),
    hidden: d.hidden,
    undated: d.undated,
    undated_listed: d.sessions.filter(isUndated).length,
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
      }  ${c.dim(plural(s.events, "event"))}`,
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
  filters: Array<{ flag: string; value: string; phrase?: boolean }>,
): string {
  const words: Record<string, string> = {
    "--harness": "in harness",
    "--project": "in project",
    "--since": "since",
  };
  const where = filters.map((x) => ` ${x.phrase ? "in" : words[x.flag] ?? x.flag} ${x.value}`)
    .join(",");
  const them = hidden === 1 ? "it is" : `all ${hidden} are`;
  const n = `${hidden} session${hidden === 1 ? "" : "s"}`;
  return `deja: ${n} in the index match${hidden === 1 ? "es" : ""}${where}, but ${them} hidden: ` +
    `the project is throwaway (a temp or test directory) or excluded\n` +
    `hint: --junk shows the throwaway ones\n`;
}

/** The filters `deja last` was given, `--since` with them. */
function filtersOf(args: LastArgs) {
  const used = filtersUsed({ ...args.filter, since: args.sinceText });
  return args.until === undefined
    ? used
    : used.map((f) => f.flag === "--since" ? { ...f, phrase: true } : f);
}

function runLast(a: Args, io: IO): number {
  const args = parseLast(a);
  const code = showLast(args, io);
  // `deja last 2025` lists the newest 2025 sessions; the year is one word away (trial 17b).
  const n = a.positionals[0];
  if (!args.json && a.positionals.length === 1 && /^(?:19[89]|20\d)\d$/.test(n ?? "")) {
    io.err(`hint: ${n} was read as a count; the sessions of the year ${n}: deja in ${n}\n`);
  }
  return code;
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
  }, io);
}

function showLast(args: LastArgs, io: IO): number {
  const d = withStore(io, (store) => lastData(store, args, io));
  if (args.json) {
    printJson(io, lastJson(d));
    return d.sessions.length ? 0 : 1;
  }
  if (!d.sessions.length) {
    if (d.hidden) {
      // Sessions do match, all hidden: say so, not "none matches" and "drop the filter".
      io.err(hiddenOnlyText(d.hidden, filtersOf(args)));
      undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
      return 1;
    }
    const f = { filters: filtersOf(args), without: d.without };
    io.err(filteredText("deja: no session in the index matches", f));
    undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
    return 1;
  }
  io.out(lastText(d, io));
  hiddenHint(io, d.hidden);
  undatedHint(io, d.undated, args.until === undefined ? undefined : `'${args.sinceText}'`);
  return 0;
}
