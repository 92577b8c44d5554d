/**
 * `how`: the real invocations of a tool run on this machine, most widely
 * used first — the commands holding every word of the question as whole
 * tokens (the index's tokens, lib/search/tokenize.ts: `git` is not found in
 * `.github`), a `"quoted phrase"` as contiguous tokens; folded by their text
 * (white space collapsed), ranked those holding a word only inside a dotted word
 * (`commit` of `commit.gpgsign`) last, then by the number of sessions that ran them,
 * then by runs, then by recency (a dated time over an undated session's,
 * lib/session_time.ts: the latest run is the latest dated one). With the
 * project the person is in ({@link enclosingProject}), the commands run in it
 * come first, each marked `here`, then those run elsewhere: a command run both
 * here and elsewhere is two entries, each counting only its own runs (a `here`
 * entry's sessions, outcomes and latest run are this project's alone).
 * Commands the person ran themselves in a harness's `!` shell mode (a user event `!<command>`)
 * count as runs too, marked so ({@link HowCommand.person}): they ran for real, with no exit
 * status recorded (trial 103 F9).
 *
 * @module
 */
import { dirname } from "node:path";
import { newerFirst, SHARED_FILE, timeRank } from "../session_time.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { projectArg, projectLike } from "../project_path.ts";
import {
  type Outcome,
  outcomeLabel,
  outcomeMix,
  outcomeOf,
  type RunFacts,
  runFacts,
} from "./outcome.ts";
import { tokens } from "../search/tokenize.ts";
import { callHeadline } from "../render.ts";
import { countsAsHidden } from "../search/sessions.ts";
import { shortRef } from "../sessions.ts";
import { MAX_QUERY_TERMS, MAX_QUERY_TOKEN, type QueryCut } from "../query.ts";
import type { CommandRunRow } from "../rows.ts";

/** One distinct command. */
export interface HowCommand {
  /** The command, white space collapsed. */
  command: string;
  /** The command as its latest run recorded it (its lines and spacing kept). */
  text: string;
  /** Distinct sessions that ran it. */
  sessions: number;
  /** Times it ran. */
  runs: number;
  /** Epoch ms of the latest run (the session's time when the run has none). */
  last: number | null;
  /** True when `last` is the session's store file's mtime (the run and its session record no time). */
  timeFromFile: boolean;
  /** Runs that exited 0. */
  ok: number;
  /** Runs that failed: non-zero exit, an error result, or output reporting a failure (outcome.ts). */
  failed: number;
  /** Runs whose exit status the store does not record and whose output reports no failure. */
  unknown: number;
  /**
   * Of the `unknown` runs, calls that got no result at all (the session ended before they
   * finished): said `no result`, as ctx says it (trial 103 F7).
   */
  noResult: number;
  /**
   * Of `runs`, those the person ran themselves in a harness's `!` shell mode ({@link
   * personRuns}): no exit status is recorded for them, so each counts in `unknown`, or in
   * `failed` when the output the harness showed after it reports a failure (outcome.ts).
   */
  person: number;
  /** The latest run is one the person ran themselves ({@link person}). */
  lastByPerson: boolean;
  /** Exit status of the latest run (null when unknown). */
  lastExit: number | null;
  /**
   * The latest run's status in words (outcome.ts `outcomeLabel`: `exit 0`, `exit 1 of grep`,
   * `failed by its output (exit 0 of tail)`, `exit unknown`).
   */
  lastStatus: string;
  /** The session of the latest run: harness, native id and shortest reference (`deja show` takes it). */
  latest: { harness: string; session: string; ref: string };
  /**
   * These are the command's runs in the project `here` ({@link HowOptions}); false for its
   * runs elsewhere (a second entry when it ran in both), and without one.
   */
  here: boolean;
}

/** Options of {@link howRuns}. */
export interface HowOptions {
  /** Only sessions whose project contains this text. */
  project?: string;
  /** Commands returned at most (default 8). */
  limit?: number;
  /** Row ids left out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
  hidden?: Set<number>;
  /**
   * The project the person is in, as the index keeps it ({@link enclosingProject}): the
   * commands run in its sessions come first (by the same rule), then the others.
   */
  here?: string;
}

/** What {@link howRuns} returns. */
export interface HowResult {
  /** The words every command holds (folded tokens; a phrase or a word of several tokens as `a b`). */
  words: string[];
  /**
   * {@link words} as the question wrote them, to name them: a word of several tokens as typed
   * (`tag.gpgsign`, not `tag gpgsign`: trial 132 F10).
   */
  shown: string[];
  commands: HowCommand[];
  /**
   * Entries that matched, before the limit: distinct commands, a command run both here
   * and elsewhere counting twice ({@link HowCommand.here}).
   */
  total: number;
  /** Sessions that ran a matching command and were left out as `hidden`. */
  hidden: number;
  /** Words left out to keep the question within SQLite's limits (search's rule, lib/query.ts). */
  cut?: QueryCut;
  /** The project whose commands came first ({@link HowOptions}); absent without one. */
  here?: string;
  /** Entries of `here`: distinct matching commands that ran in it (0 without it). */
  totalHere: number;
  /**
   * When no command ran: the calls holding the words that never ran (refused, denied,
   * cancelled), each once, the latest first, at most 5, with a session of each.
   */
  notRun?: Array<{ command: string; harness: string; session: string; ref: string }>;
}

/**
 * The indexed project the directory `dir` is in: the deepest of `dir` and its parents that
 * is some session's project (a filesystem root never is: every path is in it).
 *
 * @returns the project as the index keeps it; undefined when `dir` is in none.
 */
export function enclosingProject(store: Store, dir: string, home?: string): string | undefined {
  const dirs: string[] = [];
  const start = projectArg(dir, "");
  // The user's home is no project of a folder below it (trial 68: `how git push` in a new
  // project said "none ran in this project (~)").
  const top = home === undefined ? undefined : projectArg(home, "");
  for (let d = start; dirname(d) !== d; d = dirname(d)) {
    if (d !== start && d === top) break;
    dirs.push(d);
  }
  if (!dirs.length) return undefined;
  const found = new Set(
    Q.projectsAmong.all(store, { dirs: JSON.stringify(dirs) }).map((r) => r.project),
  );
  return dirs.find((d) => found.has(d));
}

/**
 * The terms of a `how` question: each a list of tokens that must appear
 * contiguously — a word typed alone (`git`, `foo-bar` as `foo bar`) or a
 * phrase in double quotes (`"git log"`). A flag typed (`--name-status`, `-rf`)
 * has its tokens marked as a command's flags have ({@link commandTokens}).
 */
export function howTerms(what: string): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const add = (t: string[]) => {
    if (t.length && !seen.has(t.join(" "))) (seen.add(t.join(" ")), out.push(t));
  };
  for (const m of what.matchAll(/"([^"]*)"?|([^"]+)/g)) {
    if (m[1] !== undefined) add(commandTokens(m[1]));
    else for (const w of m[2].split(/\s+/)) add(commandTokens(w));
  }
  return out;
}

/** The mark before a token of a flag: no token of a word typed alone begins with it. */
const FLAG = "-";

/** A flag: a word beginning with a dash and a letter or digit (`--name-status`, `-rf`, `-3`). */
const FLAG_WORD = /^-+[\p{L}\p{N}]/u;

/** The mark before a token of a dotted word ({@link DOTTED_WORD}), in {@link onlyInKey} only. */
const DOTTED = ".";

/**
 * A dotted word: parts joined by single dots, no slash, maybe `=value` after it — a config key
 * (`commit.gpgsign`, `user.email=x`) or a file name (`manage.py`).
 */
const DOTTED_WORD = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+(?:=\S*)?$/u;

/**
 * The tokens of a command ({@link tokens}), those of each flag marked {@link FLAG}: a word
 * of the question is no match of a word inside a flag (trial 103 F12: `how git status` listed
 * `git diff main...HEAD --name-status`), while a flag typed matches that flag. With `dotted`,
 * the tokens of each dotted word are marked {@link DOTTED} too ({@link onlyInKey}).
 */
export function commandTokens(command: string, dotted = false): string[] {
  const out: string[] = [];
  for (const w of command.split(/\s+/)) {
    const toks = tokens(w);
    out.push(
      ...(FLAG_WORD.test(w)
        ? toks.map((t) => FLAG + t)
        : dotted && DOTTED_WORD.test(w)
        ? toks.map((t) => DOTTED + t)
        : toks),
    );
  }
  return out;
}

/**
 * True when `command` holds some term of `terms` only inside dotted words: such a command ranks
 * below those holding every term as words of their own (trial 130 F3: `how git commit` listed
 * `git config --global commit.gpgsign` first). It still matches: `manage` of
 * `python manage.py` is as likely meant.
 */
function onlyInKey(command: string, terms: string[][]): boolean {
  const toks = commandTokens(command, true);
  return !terms.every((t) => holds(toks, t));
}

/** A term's token without its flag mark: as the text holds it, and as it is named. */
function unmarked(t: string): string {
  return t.startsWith(FLAG) ? t.slice(FLAG.length) : t;
}

/**
 * The calls holding `terms` that never ran ({@link HowResult.notRun}; trial 15: `deja how rm
 * build` said "no command holds 'rm' and 'build'" of an `rm -rf build` the user denied).
 */
function refusedOnly(store: Store, subs: string[], terms: string[][]): Pick<HowResult, "notRun"> {
  const rows = Q.notRunCalls.all(store, { words: JSON.stringify(subs) })
    .map((r) => ({ ...r, command: callHeadline(r.text) }))
    .filter((r) => terms.every((t) => holds(commandTokens(r.command), t)))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
  const seen = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!seen.has(r.command)) seen.set(r.command, r);
  const picked = [...seen.values()].slice(0, 5);
  if (!picked.length) return {};
  const byId = new Map(
    Q.sessionsByIds.all(store, { ids: JSON.stringify(picked.map((r) => r.session_id)) })
      .map((s) => [s.id, s]),
  );
  return {
    notRun: picked.map((r) => {
      const s = byId.get(r.session_id);
      const harness = s?.harness ?? "", session = s?.native_id ?? "";
      return {
        command: r.command,
        harness,
        session,
        ref: s ? shortRef(store, harness, session) : "",
      };
    }),
  };
}

/** True when `toks` holds `term` as contiguous tokens. */
function holds(toks: string[], term: string[]): boolean {
  for (let i = 0; i + term.length <= toks.length; i++) {
    if (term.every((t, j) => toks[i + j] === t)) return true;
  }
  return false;
}

/**
 * How a command's runs went, with the person's own runs said ({@link HowCommand.person}):
 * `mix` (outcome.ts `outcomeMix`) as it is when there are none; `1 by you in ! shell mode, no exit
 * recorded` when every run is the person's and none is known to have failed; else `mix` and
 * how many of them were the person's. `who` names the person: `you` (the CLI), `the user` (MCP).
 */
export function runsPhrase(
  c: Pick<HowCommand, "person" | "runs" | "unknown">,
  mix: string,
  who: string,
): string {
  if (!c.person) return mix;
  const by = `by ${who} in ! shell mode, no exit recorded`;
  if (c.person === c.runs && c.unknown === c.runs) return `${c.person} ${by}`;
  return `${mix}; ${c.person} of them ${by}`;
}

/**
 * How a command's runs went as `deja how` and mode how both say it: {@link runsPhrase} of
 * `outcomeMix`, and a status recorded but not the command's own (`exit 1 of rg`: the mix counts
 * such a run as unknown) said beside it (trial 13: `runs: 1 exit unknown` beside exit 1), or
 * alone for a lone run of unknown outcome (trial 14: `1 exit unknown (last exit 0 (|| true))`
 * read as a contradiction); a run that timed out or went to the background says so. Trial 109
 * F4: mode how said `1 exit unknown` where `deja how` said `exit 1 of rg`.
 *
 * @param wrap styles a part of the mix (colour); `aside` the `(the last: …)` note.
 */
export function runsStatus(
  h: Pick<HowCommand, "person" | "runs" | "unknown" | "lastStatus" | "lastExit"> & Mix,
  who: string,
  wrap?: (text: string, o: Outcome) => string,
  aside: (text: string) => string = (t) => t,
): string {
  const said = h.lastStatus !== `exit ${h.lastExit}` && !h.lastStatus.startsWith("failed") &&
    !["exit unknown", "no result"].includes(h.lastStatus);
  if (said && h.runs === 1 && h.unknown === 1) return h.lastStatus;
  return runsPhrase(h, outcomeMix(h, wrap), who) +
    (said ? aside(` (the last: ${h.lastStatus})`) : "");
}

/** The counts {@link outcomeMix} reads. */
type Mix = Parameters<typeof outcomeMix>[0];

/** A run `how` counts: an agent's command call, or a command the person ran ({@link personRuns}). */
type Run = CommandRunRow & { person: boolean };

/**
 * Commands the person ran themselves in a harness's `!` shell mode holding every term (Claude
 * Code's `<bash-input>` and opencode's shell parts are user events `!<command>`; pi's `!` is a
 * bash call already among the commands), through the full-text index: no scan of the events.
 * A resumed session's copy of one (the same command at the same time in another session) is
 * the same run, counted once. Trial 103 F9: `how frobnicate` left out `!frobnicate --version`.
 */
export function personRuns(store: Store, terms: string[][], project: string | null): Run[] {
  const match = terms.map((t) => `"${t.map(unmarked).join(" ").replaceAll('"', '""')}"`)
    .join(" AND ");
  const rows = Q.userCommandRuns.all(store, { match, project })
    .filter((r) => terms.every((t) => holds(commandTokens(r.command), t)))
    .sort((a, b) => a.session_id - b.session_id || a.event_id - b.event_id);
  const seen = new Set<string>();
  const out: Run[] = [];
  for (const { event_id: _, ...r } of rows) {
    const key = `${r.time}\0${r.command.trim()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...r, command: r.command.trim(), person: true });
  }
  return out;
}

/** A word of several tokens as `typed` wrote it (`tag.gpgsign`), else as the tokens read. */
function asTyped(word: string, typed: string): string {
  const toks = word.split(" ");
  if (toks.length < 2) return word;
  const esc = toks.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const m = typed.match(new RegExp(esc.join("[^\\p{L}\\p{N}\\s]{1,3}"), "iu"));
  return m ? m[0] : word;
}

/**
 * Commands holding every term of `what` as whole tokens ({@link howTerms}), the person's own
 * (`!` shell mode, {@link personRuns}) among them.
 */
export function howRuns(store: Store, what: string, opts: HowOptions = {}): HowResult {
  const asked = howTerms(what);
  // Search's bounds: no token over MAX_QUERY_TOKEN, at most MAX_QUERY_TERMS terms.
  const short = asked.filter((t) => t.every((x) => x.length <= MAX_QUERY_TOKEN));
  const terms = short.slice(0, MAX_QUERY_TERMS);
  const cut = asked.length > terms.length
    ? { long: asked.length - short.length, terms: short.length - terms.length }
    : undefined;
  const words = terms.map((t) => t.map(unmarked).join(" "));
  const typed = words.map((w) => asTyped(w, what));
  const here = opts.here;
  const none = { words, shown: typed, commands: [], total: 0, hidden: 0, totalHere: 0 };
  if (!terms.length) return { ...none, ...(cut ? { cut } : {}), ...(here ? { here } : {}) };
  const hereIds = new Set(
    here ? Q.sessionIdsOf.all(store, { project: here }).map((r) => Number(r.id)) : [],
  );
  const like = opts.project ? projectLike(opts.project) : null;
  // SQL narrows by substring (cheap; ASCII tokens only, as SQLite's lower() folds only
  // those); the token rule is applied below.
  // deno-lint-ignore no-control-regex
  const subs = [...new Set(terms.flat().map(unmarked))].filter((t) => /^[\x00-\x7f]+$/.test(t));
  const rows: Run[] = Q.commandRuns.all(store, { words: JSON.stringify(subs), project: like })
    .filter((r) => {
      const toks = commandTokens(String(r.command));
      return terms.every((t) => holds(toks, t));
    }).map((r) => ({ ...r, person: false }));
  rows.push(...personRuns(store, terms, like));
  type Acc = Omit<HowCommand, "latest" | "lastStatus"> & {
    ids: Set<number>;
    lastAt: number;
    lastSid: number;
    /** The latest run's facts: its status in words is made for the commands shown only. */
    lastFacts: RunFacts | null;
    /** {@link onlyInKey}: ranks below the commands holding the words as words. */
    inKey: boolean;
  };
  const byKey = new Map<string, Acc>();
  const hidden = new Set<number>();
  for (const r of rows) {
    if (opts.hidden?.has(Number(r.session_id))) {
      if (countsAsHidden(opts.hidden, Number(r.session_id))) hidden.add(Number(r.session_id));
      continue;
    }
    const command = String(r.command).replace(/\s+/g, " ").trim();
    // Folded by command and here-ness: the here entry counts this project's runs alone.
    const isHere = hereIds.has(Number(r.session_id));
    const key = `${isHere ? "h" : "e"} ${command}`;
    const c = byKey.get(key) ?? {
      command,
      text: String(r.command),
      sessions: 0,
      runs: 0,
      last: null,
      timeFromFile: false,
      ok: 0,
      failed: 0,
      unknown: 0,
      noResult: 0,
      person: 0,
      lastByPerson: false,
      lastExit: null,
      lastFacts: null,
      ids: new Set<number>(),
      lastAt: -Infinity,
      lastSid: 0,
      here: isHere,
      inKey: onlyInKey(command, terms),
    };
    const exit = (r.exit as number | null) ?? null;
    const time = (r.time as number | null) ?? null;
    c.runs++;
    c.ids.add(Number(r.session_id));
    const facts = runFacts({
      exit,
      is_error: Number(r.is_error),
      output: (r.output as string | null) ?? null,
      command: String(r.command),
      head: (r.head as string | null) ?? null,
      no_result: r.no_result ?? 0,
    });
    const outcome = outcomeOf(facts);
    c[outcome]++; // the three outcomes are the three counts
    if (facts.noResult && outcome === "unknown") c.noResult++;
    if (r.person) c.person++;
    // The latest run by a dated time; an undated session's only when no run has one.
    const fromFile = Number(r.time_from_file ?? 0);
    const rank = timeRank(time, fromFile === SHARED_FILE);
    if (rank >= c.lastAt) {
      c.lastAt = rank;
      c.last = time;
      c.timeFromFile = fromFile !== 0;
      c.lastExit = exit;
      c.lastByPerson = r.person;
      c.lastFacts = facts;
      c.lastSid = Number(r.session_id);
      c.text = String(r.command);
    }
    byKey.set(key, c);
  }
  const all = [...byKey.values()].sort((a, b) =>
    Number(b.here) - Number(a.here) || Number(a.inKey) - Number(b.inKey) ||
    b.ids.size - a.ids.size || b.runs - a.runs || newerFirst(a.lastAt, b.lastAt) ||
    (a.command < b.command ? -1 : 1)
  ).map(({ ids, lastAt: _, inKey: _k, ...c }) => ({ ...c, sessions: ids.size }));
  const shown = all.slice(0, opts.limit ?? 8);
  const rowsById = new Map(
    Q.sessionsByIds.all(store, { ids: JSON.stringify([...new Set(shown.map((c) => c.lastSid))]) })
      .map((s) => [s.id, s]),
  );
  const commands: HowCommand[] = shown.map(({ lastSid, lastFacts, ...c }) => {
    const s = rowsById.get(lastSid);
    const harness = s?.harness ?? "", session = s?.native_id ?? "";
    // In words for the commands shown only (every run is judged, its label once a command).
    const lastStatus = lastFacts ? outcomeLabel(lastFacts) : "exit unknown";
    const ref = s ? shortRef(store, harness, session) : "";
    return { ...c, lastStatus, latest: { harness, session, ref } };
  });
  return {
    words,
    shown: typed,
    commands,
    ...(all.length ? {} : refusedOnly(store, subs, terms)),
    total: all.length,
    hidden: hidden.size,
    ...(cut ? { cut } : {}),
    ...(here ? { here } : {}),
    totalHere: all.filter((c) => c.here).length,
  };
}
