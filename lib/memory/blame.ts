/**
 * `blame`: the sessions that read, edited or wrote a file, newest first, each
 * with the reasoning around its changes. Reads, edits and writes are counted
 * by call: a call that recorded several spans of the file (a Cursor
 * `edit_file`'s diff chunks, a MultiEdit's pairs) is one change. Reads include those of
 * shell commands (`cat f`, `Get-Content f`: ./shell_reads.ts), counted apart as well.
 *
 * Line rule (`path:line`): the file as it is now is read (when it exists and
 * is under 8 MiB) and line N taken, trimmed. A line with fewer than four
 * non-space characters identifies nothing and gives no preference. Otherwise a
 * session whose recorded spans hold that text ranks first: `wrote` when the
 * content of one of its writes contains it, or one of its edits added it (read
 * by where the edit's new text is in the file, `lineMark` below; else by
 * counts: its new side holds it more times than the old side), `replaced`
 * when the old side holds it more times (the session changed the code around
 * it). An edit whose both sides hold it as many
 * times left it as it was (unchanged context, realdata trial: two Claude
 * edits of index.css whose old and new strings both held `margin: 0;` were
 * both said to have written it) and counts for neither; failed edits count
 * for neither. Each change carries the same mark for itself, so a session
 * that edited the file three times names the one edit that put the line there
 * (realdata trial: "wrote the line" over three edits, only the last holding it).
 * A line past the end gives `lines` (the file's count) so the caller can say
 * it is out of range rather than "cannot tell". Within each group, newest first: by each session's newest touch in the order
 * `restore` lists spans (lib/memory/order.ts: best known time, subagents at their spawning call).
 *
 * @module
 */
import { projectHolds } from "../project_path.ts";
import { movesAfter, patchGone, resolvedIn } from "./moves.ts";
import { type MoveAway, nameChain, type NameHop, withRenames } from "./renames.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import {
  filesUnder,
  type FileTouch,
  type FileUnder,
  findTouches,
  type PathMatch,
  type TouchMatch,
} from "./paths.ts";
import {
  doubtfulPlace,
  editLines,
  everyOccurrence,
  linesOf,
  wholeOccurrences,
} from "./edit_lines.ts";
import { gist } from "./text.ts";
import { shellReadRows, shellReadsIn } from "./shell_reads.ts";
import { readTextSync } from "../../core/fsread.ts";
import { countsAsHidden } from "../search/sessions.ts";

/** Options of {@link blame}. */
export interface BlameOptions {
  /** Directory a relative path resolves against. */
  cwd: string;
  /** 1-based line of the file as it is now (see the module's line rule). */
  line?: number;
  /** Only sessions of these harnesses. */
  harness?: string[];
  /** Only sessions whose project contains this text. */
  project?: string;
  /** Sessions returned at most (default 10). */
  limit?: number;
  /** Row ids left out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
  hidden?: Set<number>;
  /** Reads the current file (tests); default: the file system, undefined when unreadable. */
  readFile?: (path: string) => string | undefined;
}

/** One change a session made to the file, with the assistant text around it. */
export interface BlameChange {
  op: "edit" | "write";
  /** Path as recorded. */
  path: string;
  /** Epoch ms, when known. */
  time: number | null;
  /** Position of the call in its session. */
  seq: number;
  /**
   * Spans the call recorded for the file (1 for most; a Cursor `edit_file`
   * records one per diff chunk, a MultiEdit one per replacement). The change
   * is the call: counts and the line rule take its spans together.
   */
  spans: number;
  /** Gist of the assistant turn just before the call (null when a user turn came between). */
  before: string | null;
  /** Gist of the assistant turn just after the call. */
  after: string | null;
  /** How this change's text relates to the requested line (as {@link BlameSession.line}). */
  line: "wrote" | "replaced" | null;
  /** `line` is told by the line's text, which is repeated: it may be another occurrence. */
  lineUnsure?: true;
  /** An edit that replaced every occurrence of its old text (`replace_all`). */
  replaceAll?: boolean;
}

/** One session that touched the file. */
export interface BlameSession {
  session: SessionRow;
  /** Recorded paths that matched (one unless several checkouts or spellings). */
  paths: string[];
  /** Reads that found the file (a failed read counts in `failed`); all counts are of calls. */
  reads: number;
  /** Of `reads`, those of a shell command (`cat f`, `sed -n 1,80p f`: ./shell_reads.ts). */
  shellReads: number;
  /** Edit calls (one however many spans it recorded). */
  edits: number;
  /** Write calls. */
  writes: number;
  /** Calls that failed: edits and writes that changed nothing, reads that found nothing. */
  failed: number;
  /** Epoch ms of the latest touch. */
  last: number | null;
  /** How its spans relate to the requested line; null without a line or a match. */
  line: "wrote" | "replaced" | null;
  /**
   * Each of its changes that gave `line` told it by the line's text alone, and that text is
   * repeated (in the file, or in a change of it): another occurrence may be the one it
   * wrote or replaced (trial 108 F2: `    pass` credited to three sessions).
   */
  lineUnsure?: true;
  /** Successful edits and writes (one per call), in session order. */
  changes: BlameChange[];
  /**
   * A command of the session removed the file after its last touch (lib/memory/moves.ts), or
   * of a later session (`moved_on_by`).
   */
  removed?: true;
  /** A command of the session moved it after its last touch, to this path (as typed). */
  moved_to?: string;
  /**
   * The names the file had in this session before it moved it here (whole paths, oldest
   * first: ./renames.ts); its changes under them are among `changes` (trial 97 F1).
   */
  moved_from?: string[];
  /**
   * The file came here through a copy (`cp`) of an earlier name, by this session
   * (`moved_from`) or by `moved_by` (`earlier_names`): that name's history up to the copy.
   */
  copied?: true;
  /**
   * The names the file had when this session touched it, before a later session moved it
   * here (whole paths, oldest first: ./renames.ts; trial 100 F1), and that session's native
   * id (`moved_by`).
   */
  earlier_names?: string[];
  moved_by?: string;
  moved_by_harness?: string;
  /**
   * With `earlier_names`: the names later sessions gave the file on its way here, oldest first,
   * each with the session that gave it (trial 110 F3: `as b.py → c.py → d.py; moved here later
   * by` the session that moved b.py to c.py, not the one that moved it here).
   */
  moved_through?: NameHop[];
  /**
   * `moved_to` was a later session's move (native id, harness), not this one's; with `removed`,
   * the later session that removed the file.
   */
  moved_on_by?: string;
  moved_on_by_harness?: string;
  /** `moved_to` may be a folder it went into (./moves.ts `LaterMove.unsure`; trial 97 F2). */
  unsure?: true;
}

/** The requested line: its current text (null when unusable) and why it was not used. */
export interface BlameLine {
  number: number;
  text: string | null;
  note?: string;
  /** Lines the file has now, when it was read (a `number` above it is out of range). */
  lines?: number;
}

/** What {@link blame} returns. */
export interface BlameResult {
  /** The path made absolute. */
  target: string;
  match: PathMatch | null;
  /** The relative record an exact match is of (lib/memory/paths.ts `TouchMatch.recorded`). */
  recorded?: string;
  /** The requested line: its current text (null when unusable) and why it was not used. */
  line?: BlameLine;
  sessions: BlameSession[];
  /** Sessions that touched the file before filters and the limit. */
  total: number;
  /** Sessions left after the filters and `hidden`, before the limit: what a listing counts. */
  listed: number;
  /** Sessions that touched it and were left out as `hidden`. */
  hidden: number;
  /**
   * Sessions left out that touched an earlier file of this name, which a session moved away
   * (trial 105 F2) or removed (trial 110 F4) before the file here was made: where it went (or
   * that it was removed) and who did it.
   */
  away?: Array<{ session: string; harness: string; move: MoveAway }>;
}

/** Reads the file as it is now, or undefined (missing, unreadable, over 8 MiB). */
function readCurrent(path: string): string | undefined {
  try {
    return readTextSync(path);
  } catch {
    return undefined;
  }
}

function lineInfo(n: number, body: string | undefined): BlameLine {
  if (n < 1) return { number: n, text: null, note: "lines are counted from 1" };
  if (body === undefined) return { number: n, text: null, note: "the file is not readable here" };
  // Lines as people count them (wc -l, editors): a final newline ends the last line, it does
  // not start an empty one.
  const lines = linesOf(body);
  if (n > lines.length) {
    const count = `${lines.length} line${lines.length === 1 ? "" : "s"}`;
    return { number: n, text: null, note: `the file has ${count}`, lines: lines.length };
  }
  const text = lines[n - 1].trim();
  if (text.replace(/\s/g, "").length < 4) {
    return {
      number: n,
      text: null,
      note: "the line is too short to identify",
      lines: lines.length,
    };
  }
  return { number: n, text, lines: lines.length };
}

/**
 * The files under folder `folder` (a {@link BlameResult.target}) that sessions touched, reads
 * of shell commands included, the sessions of `hidden` left out ({@link filesUnder}): what
 * `blame` of a folder names, in the CLI and over MCP (trial 130 F5, trial 132 F4 and F5).
 */
export function blameFolder(
  store: Store,
  folder: string,
  hidden?: ReadonlySet<number>,
): FileUnder[] {
  return filesUnder(store, folder, hidden, (name) => shellReadsIn(store, name));
}

/**
 * How many of a session's reads were a shell command's, as CLI and MCP say it: ` (shell)` for
 * all, ` (2 by shell)`, nothing for none.
 */
export function shellReadWords(reads: number, shell: number): string {
  return !shell ? "" : shell === reads ? " (shell)" : ` (${shell} by shell)`;
}

/**
 * Sessions that touched the file `typed` names (matching: {@link findTouches}).
 */
export function blame(store: Store, typed: string, opts: BlameOptions): BlameResult {
  // Under the names the file had before a session moved it here too (trial 97 F1).
  // Less an earlier file of its name another session moved away (trial 105 F2).
  // With the reads of shell commands (`cat f`, `Get-Content f`: trial 130 F2).
  const m = withRenames(
    store,
    findTouches(store, typed, opts.cwd, (name) => shellReadRows(store, name)),
  );
  const body = opts.line === undefined ? undefined : (opts.readFile ?? readCurrent)(m.target);
  // Matched by the name alone, the file here is not one any session recorded: its line's
  // text in another project's file says nothing of who wrote it here (trial 10: `calc.py:3`
  // in an untouched project credited a session that edited another calc.py).
  const line = opts.line === undefined
    ? undefined
    : m.match === "basename" && opts.line >= 1
    ? { number: opts.line, text: null, note: "only files of the same name elsewhere were touched" }
    : lineInfo(opts.line, body);
  const at: LineAt | null = line?.text
    ? { text: line.text, number: line.number, body, repeated: repeatedIn(line.text, body, m) }
    : null;
  const bySession = new Map<number, FileTouch[]>();
  for (const t of m.touches) {
    const list = bySession.get(t.sessionId) ?? [];
    list.push(t);
    bySession.set(t.sessionId, list);
  }
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify([...bySession.keys()]) });
  const entries: BlameSession[] = [];
  let hidden = 0;
  for (const s of rows) {
    // Filtered out before hidden ones are counted: the "left out" note counts only sessions
    // the filters keep (trial 109 F9: under harness aider it counted other harnesses' ones).
    if (opts.harness?.length && !opts.harness.includes(s.harness)) continue;
    if (opts.project && !projectHolds(s.project, opts.project)) continue;
    if (opts.hidden?.has(s.id)) {
      if (countsAsHidden(opts.hidden, s.id)) hidden++;
      continue;
    }
    const touches = bySession.get(s.id)!;
    // A patch's deletion or rename is no read (trial 97 F8).
    const gone = touches.some((t) => t.op === "read") ? patchGone(store, s.id, s.project) : null;
    entries.push(entry(s, touches, at, gone));
  }
  const rank = (e: BlameSession) => (e.line === "wrote" ? 2 : e.line === "replaced" ? 1 : 0);
  // Within a rank, sessions follow their newest touch in the touches' order (lib/memory/order.ts).
  const place = new Map<number, number>();
  m.touches.forEach((t, i) => place.has(t.sessionId) || place.set(t.sessionId, i));
  entries.sort((a, b) => rank(b) - rank(a) || place.get(a.session.id)! - place.get(b.session.id)!);
  // The text around each change is read only for the sessions returned.
  const shown = entries.slice(0, opts.limit ?? 10);
  // Edits that replaced every occurrence, of the sessions returned (trial 57: restore said so,
  // blame did not).
  const every = everyOccurrence(store, shown.flatMap((e) => bySession.get(e.session.id)!));
  for (const e of shown) {
    const touches = bySession.get(e.session.id)!;
    // Each change's own words: not those said before an earlier change of the file or after a
    // later one (trial 130 F6: "said before: Editing alpha." under the gamma edit that followed).
    const seqs = new Set(e.changes.map((c) => c.seq));
    for (const c of e.changes) {
      Object.assign(c, around(store, e.session.id, c.seq, seqs));
      if (touches.some((t) => t.seq === c.seq && t.path === c.path && every.has(t.id))) {
        c.replaceAll = true;
      }
    }
    // Removed or moved by a command after its last touch (trial 47: a file written, then
    // deleted with `rm`, was only "1 write" here where ctx said "removed later").
    const last = new Map<string, number>();
    for (const t of bySession.get(e.session.id)!) {
      if (!t.failed) last.set(t.path, Math.max(last.get(t.path) ?? 0, t.seq));
    }
    // A path it only tried to change, by its last try (trial 94 F12: a Crush file whose one edit
    // failed, then moved with `mv`, was never "moved later").
    for (const t of bySession.get(e.session.id)!) {
      if (t.failed && !e.changes.some((c) => c.path === t.path)) {
        last.set(t.path, Math.max(last.get(t.path) ?? 0, t.seq));
      }
    }
    // Its earlier names were moved here, not "later to" it (trial 97 F1).
    const before = m.renamed?.get(e.session.id);
    const earlier = m.earlier?.get(e.session.id);
    if (earlier) {
      e.earlier_names = before ?? [earlier.path];
      e.moved_by = earlier.by;
      e.moved_by_harness = earlier.byHarness;
      if (earlier.on.length > 1) e.moved_through = earlier.on.slice(0, -1);
      if (earlier.copied) e.copied = true;
    } else if (before) {
      e.moved_from = before;
      if (m.copied?.has(e.session.id)) e.copied = true;
    }
    const moves = movesAfter(store, e.session.id, e.session.project, last);
    for (const [k, later] of moves) {
      // A move of an earlier name is the one that brought the file here, unless it went on
      // past here, or was then removed (trial 108 F5: `mv x.py tmp.py && mv y.py x.py && mv
      // tmp.py y.py`; blame of tmp.py said "moved here from x.py", not that it left for y.py).
      // A copy's source going on takes nothing from the copy.
      if (before?.includes(resolvedIn(k, e.session.project) ?? k)) {
        if (e.copied || later.unsure) continue;
        const to = later.moved_to === undefined
          ? undefined
          : resolvedIn(later.moved_to, e.session.project);
        // Where this session left it: here, or where a later session moved it from.
        const left = earlier ? earlier.path : m.target;
        if (!later.removed && (to === undefined || to === left)) continue;
      }
      Object.assign(e, later);
      break;
    }
    // Moved on by a later session (trial 105 F2: `git mv lib/app.py src/core.py` in another
    // session was said nowhere).
    // Or removed by one (trial 110 F4).
    const on = m.later?.get(e.session.id);
    if (on && !e.moved_to && !e.removed) {
      if (on.removed) e.removed = true;
      else e.moved_to = on.to;
      e.moved_on_by = on.by;
      e.moved_on_by_harness = on.byHarness;
    }
  }
  return {
    target: m.target,
    match: m.match,
    ...(m.recorded ? { recorded: m.recorded } : {}),
    ...(line ? { line } : {}),
    sessions: shown,
    total: bySession.size,
    listed: entries.length,
    hidden,
    ...(m.away?.size ? { away: awayOf(store, m.away) } : {}),
  };
}

/** {@link BlameResult.away} of `TouchMatch.away`, each session by its native id. */
function awayOf(store: Store, away: Map<number, MoveAway>): NonNullable<BlameResult["away"]> {
  const rows = Q.sessionsByIds.all(store, { ids: JSON.stringify([...away.keys()]) });
  return rows.map((s) => ({ session: s.native_id, harness: s.harness, move: away.get(s.id)! }));
}

/**
 * How a listing says a session's earlier names and the moves that brought the file here:
 * `as b.py; moved to c.py by b2000000, then here by b3000000`; `ref` names a session by its
 * harness and native id. Names one session gave in a row are said once, by the last of them.
 */
export function earlierWords(
  s: BlameSession,
  ref: (harness: string, id: string) => string,
): string {
  type Hop = { path?: string; by: string; byHarness?: string; copied?: boolean };
  const through = s.moved_through ?? [];
  const last = { by: s.moved_by!, byHarness: s.moved_by_harness };
  const who = (h: Hop) => `${h.byHarness ?? s.session.harness} ${h.by}`;
  const runs: Hop[] = [];
  for (const h of [...through, { ...last, copied: s.copied && !through.some((x) => x.copied) }]) {
    const prev = runs.at(-1);
    if (prev && who(prev) === who(h)) {
      runs[runs.length - 1] = { ...h, copied: prev.copied || h.copied };
    } else runs.push(h);
  }
  const by = (h: Hop) => ref(h.byHarness ?? s.session.harness, h.by);
  const verb = (h: Hop) => (h.copied ? "copied" : "moved");
  const names = nameChain(s.earlier_names ?? [], s.session.project);
  const here = runs.at(-1)!;
  if (runs.length === 1) return `as ${names}; ${verb(here)} here later by ${by(here)}`;
  const steps = runs.slice(0, -1).map((h) =>
    `${verb(h)} to ${nameChain([h.path!], s.session.project)} by ${by(h)}`
  );
  return `as ${names}; ${steps.join(", then ")}, then ${verb(here)} here by ${by(here)}`;
}

/** `wrote the line`, or `may have written the line` when told by a repeated text alone. */
export function lineWords(line: "wrote" | "replaced", unsure?: true): string {
  return unsure
    ? `may have ${line === "wrote" ? "written" : "replaced"} the line`
    : `${line} the line`;
}

/** The requested line: its trimmed text, its number, and the file it is in as now. */
interface LineAt {
  text: string;
  number: number;
  body?: string;
  /** The text is on more than one line of the file, or of one side of a change of it. */
  repeated: boolean;
}

/** Whether line text `text` is repeated in `body` or in one side of a touch of `m`. */
function repeatedIn(text: string, body: string | undefined, m: TouchMatch): boolean {
  if (lineCount(body ?? null, text) > 1) return true;
  return m.touches.some((t) => lineCount(t.old, text) > 1 || lineCount(t.new, text) > 1);
}

function entry(
  s: SessionRow,
  touches: FileTouch[],
  at: LineAt | null,
  gone: ReadonlySet<string> | null,
): BlameSession {
  const e: BlameSession = {
    session: s,
    paths: [...new Set(touches.map((t) => t.path))],
    reads: 0,
    shellReads: 0,
    edits: 0,
    writes: 0,
    failed: 0,
    last: null,
    line: null,
    changes: [],
  };
  // One call is one touch, whatever the number of its spans (a Cursor edit_file's diff
  // chunks, a MultiEdit's pairs: realdata trial, style.css "8 edits" from 6 edit_file calls).
  const calls = new Map<string, FileTouch[]>();
  for (const t of [...touches].sort((a, b) => a.seq - b.seq || a.id - b.id)) {
    const key = `${t.eventId} ${t.op} ${t.failed}`;
    const group = calls.get(key);
    if (group) group.push(t);
    else calls.set(key, [t]);
  }
  for (const spans of calls.values()) {
    const t = spans[0];
    for (const x of spans) e.last = Math.max(e.last ?? 0, x.time ?? s.updated ?? 0) || null;
    if (t.failed) {
      e.failed++;
      continue;
    }
    if (t.op === "read") {
      if (!gone?.has(`${t.seq} ${resolvedIn(t.path, s.project) ?? t.path}`)) {
        e.reads++;
        if (t.shell) e.shellReads++;
      }
      continue;
    }
    if (t.op === "edit") e.edits++;
    else e.writes++;
    const mark = at ? lineMark(t.op, spans, at) : null;
    const line = mark === null ? null : mark.line;
    if (line === "wrote" && e.line !== "wrote") e.line = "wrote";
    else if (line === "replaced" && e.line === null) e.line = "replaced";
    e.changes.push({
      op: t.op,
      path: t.path,
      time: t.time,
      seq: t.seq,
      spans: spans.length,
      before: null,
      after: null,
      line,
      ...(mark?.unsure ? { lineUnsure: true as const } : {}),
    });
  }
  const gave = e.changes.filter((c) => c.line !== null && c.line === e.line);
  if (gave.length && gave.every((c) => c.lineUnsure)) e.lineUnsure = true;
  return e;
}

/**
 * How many lines of `span` are the line `text` (trimmed, as it is): a line the span holds
 * whole, not the start of a longer one (trial 63: `port: 808` and `- name: chex` were
 * "wrote the line" of an edit that wrote `port: 8080` and `- name: chex-mix-timer-backend`).
 */
function lineCount(span: string | null, text: string): number {
  if (!span?.includes(text)) return 0;
  let n = 0;
  for (const l of span.split("\n")) if (l.trim() === text) n++;
  return n;
}

/**
 * How one change (its spans together) relates to the line: a write wrote it
 * when the file keeps that line of the written content in its place (by a line
 * diff of the two; by its text alone when the file cannot be read). An edit is read by where it is: when its new text is in
 * the file once, the line is inside that block or not, and inside it, one the
 * edit added (`wrote`) or one both sides keep (context: neither; trial 9 had
 * `kind: Rule` and `port: 80` credited to an edit that only carried them). An
 * edit of part of one line (`'hello'` -> `'howdy'`) wrote the line it is in
 * (trial 9: "no recorded edit changed this text"). Where the new text is not
 * in the file once (changed since, or repeated), by counts: the new sides
 * holding the text more times than the old wrote it, fewer replaced it, as
 * many left it as it was; a one-line edit whose new side is in the line and
 * whose old side is not (`replace_all` of `foo` with `bar`) wrote it.
 */
function lineMark(
  op: "edit" | "write",
  spans: readonly FileTouch[],
  at: LineAt,
): { line: "wrote" | "replaced"; unsure?: true } | null {
  const by = lineMarkOf(op, spans, at);
  if (by === null || by.placed || !at.repeated) return by && { line: by.line };
  return { line: by.line, unsure: true };
}

/**
 * {@link lineMark}, `placed` when an edit's new text in the file once put the line there:
 * not told by the line's text alone. An edit whose new text is in the file once, the line
 * outside it, neither wrote nor replaced the line, however many times its old side held the
 * text (trial 108 F2: an edit of f's `pass` "replaced" g's `pass` three lines below).
 */
function lineMarkOf(
  op: "edit" | "write",
  spans: readonly FileTouch[],
  at: LineAt,
): { line: "wrote" | "replaced"; placed?: true } | null {
  const wrote = { line: "wrote" as const };
  const text = at.text;
  const count = (side: "old" | "new") => spans.reduce((n, t) => n + lineCount(t[side], text), 0);
  const added = count("new");
  if (op !== "edit") {
    if (!added) return null;
    // Where the file is read, by place: the line is one the file keeps of the written content,
    // at the place the diff of the two gives it (trial 10: a later edit put `return None` where
    // the write had `pass`, and the write was credited for the line by its text elsewhere).
    if (at.body === undefined) return wrote;
    const body = at.body;
    return spans.some((t) => keptAt(t.new, body, at.number)) ? wrote : null;
  }
  const placed = spans.map((t) => placedMark(t, at));
  if (placed.includes("wrote")) return { line: "wrote", placed: true };
  const located = placed.every((p) => p !== undefined);
  if (located) return null;
  const removed = count("old");
  if (added > removed) return wrote;
  if (added < removed) return { line: "replaced" };
  // Where the text stands whole (trial 64: `timeout = 600` and `BETAMAX` were credited to
  // edits that wrote `timeout = 60` and `BETA`).
  const holds = (t: string | null) => wholeOccurrences(at.text, t!.trim()).count > 0;
  // Not a line that only repeats it while another line is it alone (a comment beside the
  // setting the edit wrote).
  const alone = (t: string) =>
    at.text.trim() === t.trim() || !at.body?.split("\n").some((l) => l.trim() === t.trim());
  const part = spans.some((t) =>
    fragment(t.new) && holds(t.new) && alone(t.new!) && !(fragment(t.old) && holds(t.old))
  );
  return part ? wrote : null;
}

/** Whether line `number` (1-based) of `body` is a line of `written` the diff of the two keeps. */
function keptAt(written: string | null, body: string, number: number): boolean {
  if (!written) return false;
  return editLines(written, body).some((l) => l.mark === " " && l.at === number - 1);
}

/** A one-line piece of text of three or more characters besides spaces. */
function fragment(t: string | null): boolean {
  return t !== null && !t.includes("\n") && t.replace(/\s/g, "").length >= 3;
}

/**
 * Where an edit's new text is in the file once: `wrote` when line `at.number` is a line it
 * added (or the line a one-line edit changed part of), null when it is context the edit kept
 * or outside the edit; undefined when the new text is not in the file exactly once.
 */
function placedMark(t: FileTouch, at: LineAt): "wrote" | null | undefined {
  const neu = t.new ?? "";
  if (at.body === undefined || neu.trim() === "") return undefined;
  const { count, at: first } = wholeOccurrences(at.body, neu);
  if (count !== 1) return undefined;
  const start = at.body.slice(0, first).split("\n").length;
  if (!neu.includes("\n")) {
    // Inside a longer line while another holds the text grown longer: not the edit's line
    // for certain (trial 64: a comment beside `timeout = 600` credited for `timeout = 60`).
    if (doubtfulPlace(at.body, neu, first)) return null;
    return at.number === start ? "wrote" : null;
  }
  const i = at.number - start;
  if (i < 0) return null;
  const added = editLines(t.old ?? "", neu).find((l) => l.at === i);
  return added === undefined ? null : added.mark === "+" ? "wrote" : null;
}

/**
 * Gists of the nearest assistant turns before and after a call, within its user turn, and not
 * past another change of the file (`changes`: their seqs): words before an earlier change are
 * that change's, words after a later one are the later one's.
 */
function around(store: Store, sid: number, seq: number, changes: ReadonlySet<number>) {
  const win = Q.eventsBetween.all(store, { session: sid, from: seq - 40, to: seq + 40 });
  let before: string | null = null;
  let after: string | null = null;
  for (const e of win) {
    if (e.seq < seq) {
      if (e.kind === "user" || changes.has(e.seq)) before = null;
      else if (e.kind === "assistant" && e.text.trim()) before = gist(e.text);
    } else if (e.seq > seq) {
      if (e.kind === "user" || changes.has(e.seq)) break;
      if (e.kind === "assistant" && e.text.trim()) {
        after = gist(e.text);
        break;
      }
    }
  }
  return { before, after };
}

/** A change a listing shows, with the words said around it that go under it. */
export interface ShownChange {
  change: BlameChange;
  /** What was said before it, left out where the change listed before it already says it. */
  before?: string;
  /** What was said after it, left out where the next change shown says the same. */
  after?: string;
}

/** What a listing of one session's changes shows ({@link shownChanges}). */
export interface ShownChanges {
  /** The newest changes (with a line: the newest holding it), oldest first. */
  shown: ShownChange[];
  /** Earlier ones not shown (with a line: earlier ones holding it). */
  earlier: number;
  /** With a line: its changes that do not hold the line, none shown. */
  other: number;
}

/**
 * The changes a listing of session `s` shows, for `deja blame` and the MCP `blame` mode alike
 * (trial 131 F1: MCP listed 3 of 4 edits without saying one was left out, and pinned a remark
 * to another edit than the CLI): the newest `n`, each with its time whether or not words
 * surround it (trial 37: a Crush edit with no gist was counted and never listed). A gist said
 * before is not repeated; what was said after several changes goes under the last of them,
 * the one it follows (trial 52: a closing "Done … 4 passed" under the first of three edits).
 * With `byLine`, only the changes holding the session's mark for the line, each with its words.
 */
export function shownChanges(s: BlameSession, byLine = false, n = 3): ShownChanges {
  const words = (x: string | null) => x ?? undefined;
  if (byLine) {
    const held = s.line ? s.changes.filter((x) => x.line === s.line) : [];
    const shown = held.slice(-n);
    return {
      shown: shown.map((c) => ({ change: c, before: words(c.before), after: words(c.after) })),
      earlier: held.length - shown.length,
      other: s.changes.length - held.length,
    };
  }
  const shown = s.changes.slice(-n);
  const earlier = s.changes.length - shown.length;
  let before = s.changes.slice(0, earlier).findLast((x) => x.before)?.before;
  return {
    shown: shown.map((c, i) => {
      const out: ShownChange = {
        change: c,
        before: c.before && c.before !== before ? c.before : undefined,
        after: c.after && c.after !== shown[i + 1]?.after ? c.after : undefined,
      };
      before = c.before ?? before;
      return out;
    }),
    earlier,
    other: 0,
  };
}
