/**
 * `--re`: a JavaScript regular expression tested on the text of every event
 * under the filters (no index: a scan). Case-sensitive, like grep; write
 * `(?i)` at the start for a case-insensitive pattern. Sessions are ranked by
 * how many of their events match, then by recency.
 *
 * JavaScript's engine backtracks, so a pattern can take time exponential in the
 * text's length (`(\w+\s?)+$` on a line of words: over a minute on one fake home).
 * Two bounds: {@link compilePattern} refuses the shapes that do that (a repeated
 * group holding a repeat, a repeated choice of alternatives that start alike) before
 * any row is read, and {@link regexScan} stops with an error in time for the process to
 * end within {@link REGEX_BUDGET_MS} of the scan's start: the texts are tested in a worker
 * thread that is terminated then (lib/search/regex_run.ts), so even one text the pattern
 * never finishes with cannot hold the scan, nor the process, past its budget.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { type Filters, filterSql } from "./retrieve.ts";
import { eventWeight, type ScoredEvent, type SessionScore } from "./rank.ts";
import { testTexts } from "./regex_run.ts";

/**
 * Milliseconds from a `--re` scan's start (its worker's start included) to the end of the
 * process when the scan is stopped with an error (exit 2): the scan stops
 * {@link REGEX_END_MS} before, to say so and end (core/runtime.ts `threadLeftRunning`).
 */
export const REGEX_BUDGET_MS = 10_000;

/** Of a scan's budget, what is kept for the message and the end of the process (ms). */
export const REGEX_END_MS = 250;

/**
 * Compiles a `--re` pattern.
 *
 * @throws {DejaError} (exit 2) naming the syntax error, or the part of the pattern
 *   that could take exponential time ({@link catastrophic}).
 */
export function compilePattern(pattern: string): RegExp {
  let flags = "u";
  let src = pattern;
  if (src.startsWith("(?i)")) {
    flags += "i";
    src = src.slice(4);
  }
  let re: RegExp;
  try {
    re = new RegExp(src, flags);
  } catch (e) {
    throw new DejaError(
      `--re: not a valid regular expression: ${(e as Error).message}`,
      "the syntax is JavaScript's; write (?i) first to ignore case",
      2,
    );
  }
  const bad = catastrophic(src, flags);
  if (bad) {
    throw new DejaError(
      `--re: the pattern can take exponential time on a long text: ${bad}`,
      "write each repeat once: [\\w\\s]+ for (\\w+\\s?)+, a(b|c)* for (ab|ac)*, \\w+ for (\\w|\\d)+",
      2,
    );
  }
  return re;
}

/** A quantifier that repeats without bound: `*`, `+`, `{n,}`. */
const UNBOUNDED = /^(?:[*+]|\{\d+,\})/;

interface Group {
  /** Where the group opened (its `(`). */
  start: number;
  /** A quantifier without bound stands in it or in a group it holds. */
  repeats: boolean;
  /** Its top-level alternatives' sources so far. */
  branches: string[];
  /** Where its current alternative began. */
  branchStart: number;
}

/**
 * The first part of a pattern (JavaScript syntax, valid) that can backtrack
 * exponentially, described for a message; undefined when there is none. Two shapes:
 * a group repeated without bound that holds a repeat without bound of its own
 * (`(\w+\s?)+`, `(a*)*`; not when each repetition ends in a character only its last atom
 * takes, {@link separated}: `(\d+\.)+`), and a group repeated without bound two of whose
 * alternatives can start with the same character (`(a|a)*`, `(\w|\d)+`; an ASCII
 * character is tried on both first atoms). Repeats side by side (`\s*\s*x`) take
 * polynomial time: the scan's time budget bounds those.
 */
export function catastrophic(src: string, flags = "u"): string | undefined {
  const stack: Group[] = [{ start: -1, repeats: false, branches: [], branchStart: 0 }];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
    } else if (c === "[") {
      i = classEnd(src, i);
    } else if (c === "(") {
      let body = i + 1;
      if (src[body] === "?") {
        const m = /^\?(?:[:=!]|<[=!]|<[^>]*>)/.exec(src.slice(body));
        body += m ? m[0].length : 1;
      }
      stack.push({ start: i, repeats: false, branches: [], branchStart: body });
      i = body;
      continue;
    } else if (c === "|") {
      const g = stack[stack.length - 1];
      g.branches.push(src.slice(g.branchStart, i));
      g.branchStart = i + 1;
      i++;
      continue;
    } else if (c === ")" && stack.length > 1) {
      const g = stack.pop()!;
      g.branches.push(src.slice(g.branchStart, i));
      const after = src.slice(i + 1);
      const text = src.slice(g.start, i + 1);
      if (UNBOUNDED.test(after)) {
        if (g.repeats && !(g.branches.length === 1 && separated(g.branches[0], flags))) {
          return `the repeated group ${text} holds a repeat of its own`;
        }
        if (startAlike(g.branches, flags)) {
          return `the repeated group ${text} has alternatives that can start alike`;
        }
      }
      if (g.repeats || UNBOUNDED.test(after)) stack[stack.length - 1].repeats = true;
      i++;
      continue;
    } else {
      i++;
    }
    // After an atom (an escape, a class or a character): a repeat of it.
    if (UNBOUNDED.test(src.slice(i))) stack[stack.length - 1].repeats = true;
  }
  return undefined;
}

/** A quantifier after an atom: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not. */
const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/;

/** Characters an atom is tried on to tell whether two atoms can match the same one. */
const PROBES = [
  ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
  "é",
  "ß",
  "→",
  "中",
  "\u00a0",
  "\u2028",
];

/**
 * Whether a repeated group's body is atoms ending in one that is always there and matches
 * nothing another atom of the body can (`\w+\.` in `(\w+\.)+`, `[a-z]+,`, `a+b`): every
 * repetition then ends at the one character only that atom takes, so a text splits into
 * repetitions one way only, and the repeat inside does not backtrack exponentially (trial
 * 16: `(\d+\.)+\d+`, `(\w+-)+\w+` were refused). Anything else (a group, an alternative,
 * an anchor, a longer escape) is not read: the group stays refused.
 */
function separated(body: string, flags: string): boolean {
  const atoms: Array<{ src: string; quantified: boolean }> = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    let end: number;
    if (c === "\\") {
      if (!/^[dDwWsStnr.\-\/,:;_#@!%&=~'"<>]$/.test(body[i + 1] ?? "")) return false;
      end = i + 2;
    } else if (c === "[") {
      end = classEnd(body, i);
    } else if ("()|^$*+?{}".includes(c)) {
      return false;
    } else {
      end = i + c.length;
    }
    const q = QUANTIFIER.exec(body.slice(end));
    atoms.push({ src: body.slice(i, end), quantified: q !== null });
    i = end + (q ? q[0].length : 0);
  }
  const last = atoms.at(-1);
  if (!last || last.quantified || atoms.length < 2) return false;
  const test = (src: string) => new RegExp(`^(?:${src})$`, flags.replace("g", ""));
  let sep: RegExp;
  let others: RegExp[];
  try {
    sep = test(last.src);
    others = atoms.slice(0, -1).map((a) => test(a.src));
  } catch {
    return false;
  }
  const probes = [...PROBES, ...body];
  return !probes.some((ch) => sep.test(ch) && others.some((o) => o.test(ch)));
}

/** The index after the character class opening at `i`. */
function classEnd(src: string, i: number): number {
  let j = i + 1;
  if (src[j] === "^") j++;
  if (src[j] === "]") j++;
  while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
  return j + 1;
}

/** Whether two of `branches` can start with the same ASCII character (each alternative's first atom tried). */
function startAlike(branches: string[], flags: string): boolean {
  if (branches.length < 2) return false;
  const firsts = branches.map((b) => firstAtom(b, flags));
  if (firsts.some((f) => f === undefined)) return false;
  for (let ch = 0; ch < 128; ch++) {
    const c = String.fromCharCode(ch);
    if (firsts.filter((f) => f!.test(c)).length > 1) return true;
  }
  return false;
}

/** An alternative's first atom (an escape, a class or a character) as a pattern; undefined when it starts otherwise. */
function firstAtom(branch: string, flags: string): RegExp | undefined {
  let atom: string;
  if (!branch || "()^$".includes(branch[0])) return undefined;
  if (branch[0] === "\\") atom = branch.slice(0, 2);
  else if (branch[0] === "[") atom = branch.slice(0, classEnd(branch, 0));
  else atom = branch[0];
  try {
    return new RegExp(`^(?:${atom})$`, flags.replace("g", ""));
  } catch {
    return undefined;
  }
}

/**
 * Events whose text `re` matches, scored per session (filed under `rootOf`).
 *
 * @param budgetMs milliseconds the scan and the end of the process after it may take.
 * @throws {DejaError} (exit 2) when the scan runs longer than `budgetMs` less {@link REGEX_END_MS}.
 */
export function regexScan(
  store: Store,
  re: RegExp,
  f: Filters,
  rootOf: (id: number) => number,
  budgetMs = REGEX_BUDGET_MS,
): Map<number, SessionScore> {
  const { sql, args } = filterSql(f, "events");
  const rows = Q.scanRows.extend(sql, args).iterate(store, {});
  const until = Date.now() + Math.max(0, budgetMs - REGEX_END_MS);
  type Row = typeof rows extends Iterable<infer R> ? R : never;
  const test = (batch: Row[]): Row[] => {
    const hits = testTexts(re, batch.map((r) => r.text), until - Date.now());
    if (hits === "timeout") {
      throw new DejaError(
        `--re: the pattern took too long (a scan is stopped at ${budgetMs / 1000} s); simplify it`,
        "fewer repeats of repeats, or narrow the scan with --project, --harness, --since or --role",
        2,
      );
    }
    return hits.map((i) => batch[i]);
  };
  return scoreScan(
    (function* () {
      let batch: Row[] = [];
      let chars = 0;
      for (const r of rows) {
        batch.push(r);
        chars += r.text.length;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
          yield* test(batch);
          batch = [];
          chars = 0;
        }
      }
      if (batch.length) yield* test(batch);
    })(),
    rootOf,
  );
}

/** Events whose texts cross to the worker at once (lib/search/regex_run.ts). */
const BATCH_ROWS = 2000;
/** Characters of text that cross to the worker at once. */
const BATCH_CHARS = 4 * 1024 * 1024;

/** Matching events a {@link literalScan} reads at most (the newest first). */
export const LITERAL_SCAN_ROWS = 2000;

/**
 * Events holding every one of `pieces` as written (SQLite `instr`, case-sensitive),
 * under the filters, scored per session as {@link regexScan} scores them. The query
 * of symbols FTS5's unicode61 tokenizer drops as separators (emoji, `→`, `✓`) has
 * no terms to look up, so it is a scan of the events' text: each row is tested in
 * SQLite, and at most {@link LITERAL_SCAN_ROWS} matching rows cross into the ranking.
 * With `anyCase`, ASCII letters match in either case.
 */
export function literalScan(
  store: Store,
  pieces: string[],
  f: Filters,
  rootOf: (id: number) => number,
  anyCase = false,
): Map<number, SessionScore> {
  const { sql, args } = filterSql(f, "events");
  // SQLite's lower() folds ASCII letters only: `anyCase` is for ASCII pieces (`c#`).
  const text = anyCase ? "lower(e.text)" : "e.text";
  if (anyCase) pieces = pieces.map((p) => p.toLowerCase());
  const has = pieces.map(() => ` AND instr(${text}, ?) > 0`).join("");
  const rows = Q.scanRows.extend(`${sql}${has} ORDER BY e.id DESC LIMIT ${LITERAL_SCAN_ROWS}`, [
    ...args,
    ...pieces,
  ])
    .iterate(store, {});
  return scoreScan(rows, rootOf);
}

/** The scanned rows' sessions (filed under `rootOf`), ranked by how many events match, then their best one. */
function scoreScan(
  rows: Iterable<Omit<ScoredEvent["row"], "bm25">>,
  rootOf: (id: number) => number,
): Map<number, SessionScore> {
  const out = new Map<number, SessionScore>();
  for (const r of rows) {
    const sid = rootOf(r.session_id);
    let s = out.get(sid);
    if (!s) out.set(sid, s = { sessionId: sid, score: 0, events: [], spread: false });
    const ev: ScoredEvent = {
      row: {
        event_id: r.event_id,
        session_id: r.session_id,
        seq: r.seq,
        kind: r.kind,
        time: r.time,
        flags: r.flags,
        bm25: 0,
      },
      score: eventWeight(r.kind, r.flags),
    };
    s.events.push(ev);
  }
  for (const s of out.values()) {
    s.events.sort((a, b) => b.score - a.score || a.row.seq - b.row.seq);
    s.score = Math.log1p(s.events.length) + s.events[0].score;
  }
  return out;
}

/** A snippet of `text` around the first match of `re`, the match marked `\x01 … \x02`. */
export function regexSnippet(text: string, re: RegExp, width = 240): string {
  const m = new RegExp(re.source, re.flags.replace("g", "")).exec(text);
  if (!m) return text.slice(0, width);
  const start = m.index;
  const end = start + Math.max(1, m[0].length);
  const from = Math.max(0, start - 80);
  const to = Math.min(text.length, Math.max(end + 40, from + width));
  return (from > 0 ? "…" : "") + text.slice(from, start) + "\x01" + text.slice(start, end) +
    "\x02" + text.slice(end, to) + (to < text.length ? "…" : "");
}
