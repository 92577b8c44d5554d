/**
 * `restore`: the text agents replaced in a file (the old side of each edit)
 * and the content they wrote, newest first, so an earlier version of a span
 * can be got back.
 *
 * Rules: failed edits and writes are left out (nothing changed); an edit
 * whose old side is empty (text inserted, a new file) has nothing to give
 * back; the same text recorded twice for the same path is listed once, at its
 * newest place. Spans are numbered from 1, newest first. A span with no time
 * of its own carries the time that placed it (its session's, lib/memory/order.ts)
 * with `timeSource` saying so, never a bare "unknown" beside an order that used one.
 * A call may record several spans of one file (a Cursor `edit_file` one per diff
 * chunk, a MultiEdit one per pair); each stays a span of its own (each is a place
 * the file held that text, restorable alone), marked as a part of its call, and
 * counts of edits are counts of calls (realdata trial: style.css listed as 8
 * edits from 6 `edit_file` calls).
 *
 * Only an edit's span is restorable: it is the text the file held before. A
 * write's span is the content the agent put in the file; what the file held
 * before it is unknown, so such a span is listed (`restorable: false`,
 * `unrestorable: "write"`) for reference and {@link writeSpan} refuses to
 * write it out as if it were the original. So is a span that is not the text
 * the file held because the index changed it: a secret replaced by
 * `[redacted:<kind>]` (`"redacted"`; written back, the placeholder would
 * stand where the key was) or a middle cut past the 1 MiB cap (`"cut"`).
 * Such a span can still be printed, to restore the rest by hand.
 *
 * A write whose store says it made the file (Claude Code's Write result of `type: "create"`)
 * had nothing before it: its span is listed as `unrestorable: "created"`, not as unknown
 * (trial 110 F6).
 *
 * A write over a file whose store kept what the file held (Claude Code's Write result,
 * `originalFile`, lib/ingest.ts) is restorable as an edit is: its span is the file before
 * the write, and put back in place it undoes the write while the file still holds what the
 * write put there (trial 16).
 *
 * Writing a span back ({@link writeSpan}): to another file, the span is the
 * whole content written (a copy to compare). Onto the file it came from (with
 * `force`), it is an undo of that edit: when the file now holds the edit's new
 * text exactly once, the span is spliced in its place and the rest of the file
 * is kept; when it does not (the file moved on, the new text is repeated, or
 * the edit deleted text so there is nothing to find), the write is refused,
 * `force` or not, and nothing of the file is lost. Replacing the whole file
 * with one span was the earlier rule; people read "write it back" as putting
 * the span back in place and lost the rest of the file.
 *
 * @module
 */
import { projectHolds } from "../project_path.ts";
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isAbsoluteAny } from "../../core/paths.ts";
import type { Store } from "../store.ts";
import { DejaError, writeReason } from "../../core/errors.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../rows.ts";
import { type FileTouch, findTouches, type PathMatch } from "./paths.ts";
import { type MoveAway, withRenames } from "./renames.ts";
import { Anchors, placedTime, type TimeSource } from "./order.ts";
import { countsAsHidden } from "../search/sessions.ts";
import { doubtfulPlace, everyOccurrence, lineOfItsOwn, wholeOccurrences } from "./edit_lines.ts";

/** One restorable span. */
export interface RestoreSpan {
  /** 1-based number, newest first (what `--span` takes). */
  n: number;
  /** `edit`: text an edit replaced; `write`: content a write put in the file. */
  op: "edit" | "write";
  /**
   * True when `text` is what the file held before (an edit's old side, as
   * indexed, unchanged); false otherwise, `unrestorable` says why.
   */
  restorable: boolean;
  /**
   * Why the span cannot be written back: `write` (what the file held before
   * the write is unknown), `created` (the write made the file: nothing was
   * there before it), `redacted` (a secret in it was replaced at index
   * time), `cut` (its middle was cut at index time); null when restorable.
   */
  unrestorable: Unrestorable | null;
  /** Path as recorded. */
  path: string;
  /** The span's text, exactly as indexed. */
  text: string;
  /** An edit's new side (what the edit put where `text` was); null for a write. */
  after: string | null;
  /** Lines in `text`. */
  lines: number;
  /** UTF-8 bytes in `text`. */
  bytes: number;
  /** True when a secret in it was replaced by `[redacted:<kind>]` at index time. */
  redacted: boolean;
  /** True when the span was over the 1 MiB cap and its middle was cut at index time. */
  cut: boolean;
  /**
   * True when the edit replaced every occurrence of `text` (`replace_all`): written back in
   * place it goes back in each of them (trial 52: a `<#!` replaced on nine lines was listed
   * as a one-line span).
   */
  replaceAll?: boolean;
  /**
   * Epoch ms: the event's, else the time that placed it in the order
   * (lib/memory/order.ts: its session's, or a subagent's spawning call);
   * null when nothing is known.
   */
  time: number | null;
  /** Where `time` comes from (`event`, `session`, `file`); null when it is null. */
  timeSource: TimeSource | null;
  harness: string;
  /** Native id of the session. */
  session: string;
  /**
   * Older calls that replaced the same text in the file, listed as this one (the text they
   * give back is the same): their session and call place, so an id listed before this one came
   * still names it (trial 16).
   */
  also?: Array<{ session: string; seq: number }>;
  /**
   * The session's work directory (its project), against which a relative
   * `path` resolves; null when the session recorded none.
   */
  workDir: string | null;
  /** Index row id of the session. */
  sessionRowId: number;
  /** Position of the call in its session. */
  seq: number;
  /** Index row id of the call's event: spans with the same one are parts of one call. */
  eventId: number;
  /**
   * This span's place among the listed spans of its call (1-based, in the
   * call's order) and how many the call has: 1 and 1 for most; a Cursor
   * `edit_file` records one span per diff chunk, a MultiEdit one per pair.
   */
  part: number;
  parts: number;
}

/** Why a span cannot be written back (see {@link RestoreSpan.unrestorable}). */
export type Unrestorable = "write" | "created" | "redacted" | "cut";

/** What {@link listSpans} returns. */
export interface RestoreList {
  /** The path made absolute. */
  target: string;
  match: PathMatch | null;
  /** The relative record an exact match is of (lib/memory/paths.ts `TouchMatch.recorded`). */
  recorded?: string;
  spans: RestoreSpan[];
  /** Sessions with spans of the file that were left out as `hidden`. */
  hidden: number;
  /**
   * Where the earlier files of this name went that sessions left out had changed: moved away
   * (trial 105 F2) or removed (trial 110 F4) before the file here was made, once per place (a
   * removal once per session that made it).
   */
  away?: MoveAway[];
}

const enc = new TextEncoder();

/** The restorable spans of the file `typed` names (matching: {@link findTouches}). */
export function listSpans(
  store: Store,
  typed: string,
  opts: {
    cwd: string;
    harness?: string[];
    project?: string;
    /** Row ids left out (the commands' rule: `defaultHidden`, lib/search/sessions.ts). */
    hidden?: Set<number>;
  },
): RestoreList {
  // Under the names the file had before a session moved it here too (trial 97 F1).
  // Less an earlier file of its name another session moved away (trial 105 F2).
  const m = withRenames(store, findTouches(store, typed, opts.cwd));
  const ids = [...new Set(m.touches.map((t) => t.sessionId))];
  const sessions = new Map<number, SessionRow>();
  for (const s of Q.sessionsByIds.all(store, { ids: JSON.stringify(ids) })) {
    sessions.set(s.id, s);
  }
  const anchors = m.anchors ?? new Anchors(store, sessions.values());
  const every = everyOccurrence(store, m.touches);
  const seen = new Map<string, RestoreSpan>();
  const spans: RestoreSpan[] = [];
  const hidden = new Set<number>();
  for (const t of m.touches) {
    if (t.failed || t.op === "read") continue;
    const s = sessions.get(t.sessionId);
    if (!s) continue;
    if (opts.hidden?.has(s.id)) {
      if (countsAsHidden(opts.hidden, s.id)) hidden.add(s.id);
      continue;
    }
    if (opts.harness?.length && !opts.harness.includes(s.harness)) continue;
    if (opts.project && !projectHolds(s.project, opts.project)) continue;
    // A write whose store kept the file it replaced (Claude Code's `originalFile`) gives that
    // back as an edit gives back its replaced text; another write, only what it wrote.
    const overwrote = t.op === "write" && typeof t.old === "string";
    const text = (t.op === "edit" || overwrote ? t.old : t.new) ?? "";
    if (text === "") continue;
    const key = `${t.path}\u0000${text}`;
    const same = seen.get(key);
    if (same) {
      (same.also ??= []).push({ session: s.native_id, seq: t.seq });
      continue;
    }
    const redacted = /\[redacted:[a-z_]+\]/.test(text);
    const cut = /\n… \[\d+ characters cut\] …\n/.test(text);
    const unrestorable = t.op === "write" && !overwrote
      ? (madeFile(store, t) ? "created" : "write")
      : redacted
      ? "redacted"
      : cut
      ? "cut"
      : null;
    const placed = placedTime(t, anchors);
    spans.push({
      n: spans.length + 1,
      op: t.op,
      restorable: unrestorable === null,
      unrestorable,
      path: t.path,
      text,
      after: t.op === "edit" || overwrote ? t.new ?? "" : null,
      lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
      bytes: enc.encode(text).length,
      redacted,
      cut,
      ...(every.has(t.id) ? { replaceAll: true } : {}),
      time: placed.time,
      timeSource: placed.source,
      harness: s.harness,
      session: s.native_id,
      workDir: s.project,
      sessionRowId: s.id,
      seq: t.seq,
      eventId: t.eventId,
      part: 1,
      parts: 1,
    });
    seen.set(key, spans[spans.length - 1]);
  }
  numberParts(spans);
  return {
    target: m.target,
    match: m.match,
    ...(m.recorded ? { recorded: m.recorded } : {}),
    spans,
    hidden: hidden.size,
    ...(m.away?.size
      ? {
        away: [
          ...new Map([...m.away.values()].map((a) => [a.to ?? `\0${a.session}`, a])).values(),
        ],
      }
      : {}),
  };
}

/** Whether write `t`'s result says it made the file (lib/prepare.ts: its status's `created`). */
function madeFile(store: Store, t: FileTouch): boolean {
  if (t.callId === null) return false;
  const data = Q.resultForCall.get(store, { session: t.sessionId, call: t.callId })?.data;
  if (!data?.includes('"created":true')) return false;
  try {
    return (JSON.parse(data) as { created?: unknown }).created === true;
  } catch {
    return false;
  }
}

/** Sets `part` and `parts` of spans that are parts of one call (in the call's own order). */
function numberParts(spans: RestoreSpan[]): void {
  const byCall = new Map<number, RestoreSpan[]>();
  for (const s of spans) {
    const list = byCall.get(s.eventId);
    if (list) list.push(s);
    else byCall.set(s.eventId, [s]);
  }
  for (const list of byCall.values()) {
    // Newest first puts a call's spans last row first (lib/memory/order.ts breaks the tie
    // on the row id, descending): the call's own order is the list's reversed.
    list.forEach((s, i) => Object.assign(s, { part: list.length - i, parts: list.length }));
  }
}

/** The calls the spans come from: edits and writes, one however many spans each recorded. */
export function spanCalls(spans: readonly RestoreSpan[]): { edits: number; writes: number } {
  const seen = new Map<number, "edit" | "write">();
  for (const s of spans) seen.set(s.eventId, s.op);
  const ops = [...seen.values()];
  return {
    edits: ops.filter((o) => o === "edit").length,
    writes: ops.filter((o) => o === "write").length,
  };
}

/** Why a span cannot be written back, in words (`restorable: false`). */
export function unrestorableReason(why: Unrestorable): string {
  return why === "write"
    ? "it is the content a write put in the file; what the file held before that write is unknown"
    : why === "created"
    ? "it is the content of the write that created the file; the file did not exist before it"
    : why === "redacted"
    ? "a secret in it was replaced by [redacted:…] when it was indexed; written back, the " +
      "placeholder would stand where the secret was"
    : "its middle was cut when it was indexed (over 1 MiB); written back, the file would lose it";
}

/** The refusal to write a span that is not restorable. */
export function notRestorable(span: RestoreSpan): DejaError {
  const why = span.unrestorable ?? "write";
  return new DejaError(
    `span ${span.n} is not restorable: ${unrestorableReason(why)}`,
    why === "write" || why === "created"
      ? "only 'edit' spans hold the text a file had before; --span N without -o prints this one"
      : `--span ${span.n} without -o prints it to see; restore that part by hand`,
  );
}

function same(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    if (realpathSync(a) === realpathSync(b)) return true;
    // A hard link is the same file under another name (trial 10: `-o` onto one truncated
    // the file the span came from to the span alone).
    const [x, y] = [statSync(a), statSync(b)];
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

/**
 * The file a span came from: its path, a relative one resolved against its
 * session's work dir; null when the path is relative and the work dir unknown.
 */
function cameFrom(span: RestoreSpan): string | null {
  if (isAbsoluteAny(span.path)) return span.path;
  return span.workDir === null ? null : resolve(span.workDir, span.path);
}

/** True when `path` ends with every component of the relative `rel`. */
function endsWithPath(path: string, rel: string): boolean {
  const split = (p: string) => p.split(/[\\/]+/).filter((x) => x !== "" && x !== ".");
  const [p, r] = [split(path), split(rel)];
  return r.length > 0 && r.length <= p.length &&
    r.every((x, i) => x === p[p.length - r.length + i]);
}

/**
 * The refusal to write a span whose recorded path is relative, from a session
 * that recorded no work dir, onto a file that may be the one it came from:
 * which directory the path was relative to is unknown, so putting it back (or
 * calling the file its own) would be a guess. JSON: `work_dir_unknown: true`.
 */
function workDirUnknown(span: RestoreSpan, path: string): DejaError {
  return new DejaError(
    `span ${span.n}'s path ${span.path} is relative and its session (${span.harness}) recorded ` +
      `no work dir: which ${span.path} it came from is unknown, so it is not written to ${path}`,
    `-o <another file> writes the span out alone to compare; copy it into the right file by hand`,
    2,
    { work_dir_unknown: true },
  );
}

/** What {@link writeSpan} did. */
export interface Written {
  /** The absolute path written. */
  path: string;
  /**
   * Set when the span was put back in place of its edit's new text in the
   * file it came from (an undo of that edit): the 1-based line it starts on.
   */
  spliced: { line: number } | null;
}

/**
 * Writes a span out (the module's rule): to another file, `span.text` exactly
 * as the whole content; onto the file it came from (`force`), spliced back in
 * place of its edit's new text.
 *
 * @param out the file, relative to `cwd`.
 * @param guard besides `span.path`, paths that are the file the span came from
 *   (the target the person typed, when it matched exactly).
 * @param lookalike the target the person typed when it matched the span's file by its
 *   name or a suffix only: refused as `out` when it exists, `force` or not.
 * @throws {DejaError} (exit 2) when the span is not restorable (a write: the
 *   file's previous content is unknown; redacted or cut: the text is not what
 *   the file held), `force` or not; when `out` is the file the span came from,
 *   or exists, and `force` is not set; when `out` is the file the span came
 *   from and does not hold the edit's new text exactly once, `force` or not;
 *   when the span's path is relative, its session's work dir unknown and
 *   `out` may be the file it came from (it ends with that path, or is a
 *   `guard`), `force` or not (`work_dir_unknown` in the error's JSON); or
 *   when the write fails.
 */
export function writeSpan(
  span: RestoreSpan,
  out: string,
  opts: { cwd: string; force?: boolean; guard?: string[]; lookalike?: string },
): Written {
  const path = resolve(opts.cwd, out);
  if (span.unrestorable) throw notRestorable(span);
  const from = cameFrom(span);
  const guard = opts.guard ?? [];
  if (from === null && (endsWithPath(path, span.path) || guard.some((g) => same(path, g)))) {
    throw workDirUnknown(span, path);
  }
  const own = [...(from === null ? [] : [from]), ...guard].some((g) => same(path, g));
  // The path typed matched the span's file by its name only: a file of another project, no
  // undo to do there, `--force` or not (trial 9: another project's old line was put back into
  // /tmp/otherproj/app.py, "the file span 2 came from").
  // A new file there loses nothing: the span alone is written, as to any other file.
  if (!own && opts.lookalike !== undefined && existsSync(path) && same(path, opts.lookalike)) {
    throw new DejaError(
      `${path} is not the file span ${span.n} came from (${from ?? span.path}): the path typed ` +
        "only ends like it",
      // Named by the file it came from, not "run restore from its project" (trial 97 F9: said in
      // that very project, of a file the session had renamed).
      `-o <another file> writes the span out alone to compare; to undo the edit in place, ` +
        `-o ${from ?? span.path} with --force`,
    );
  }
  const exists = existsSync(path);
  if (!opts.force) {
    if (own) {
      throw new DejaError(
        `${path} is the file span ${span.n} came from`,
        exists
          ? `add --force to put the span back in place of the text its ${span.op} put there ` +
            "(the rest of the file is kept), or write it elsewhere and compare"
          : "write it elsewhere and compare, or add --force to write it there",
      );
    }
    if (exists) {
      throw new DejaError(`${path} exists`, "choose another name, or add --force to overwrite it");
    }
  }
  let body = span.text;
  let spliced: Written["spliced"] = null;
  if (own && exists) {
    const now = readCurrent(path);
    const after = span.after ?? "";
    const hint = `--span ${span.n} prints the old text; -o <another file> writes it out to compare`;
    if (after === "") {
      throw new DejaError(
        `cannot put span ${span.n} back in ${path}: ` +
          (span.op === "write"
            ? "its write left the file empty and no text to find"
            : "its edit deleted it and left no text to find"),
        hint + "; put it back by hand",
      );
    }
    let { count, at } = wholeOccurrences(now, after);
    // Held twice, once as a line of its own and else inside longer lines (a comment quoting
    // it): the line of its own is the edit's, as blame credits it.
    const own = count > 1 ? lineOfItsOwn(now, after) : -1;
    if (own >= 0) [count, at] = [1, own];
    if (count !== 1) {
      throw new DejaError(
        `cannot put span ${span.n} back in ${path}: ` +
          (count === 0
            ? `the file no longer holds the text its ${span.op} put there (it changed since)`
            : `the file holds the text its ${span.op} put there more than once; which to undo ` +
              "is unclear"),
        hint,
      );
    }
    const doubt = doubtfulPlace(now, after, at);
    if (doubt) {
      throw new DejaError(
        `cannot put span ${span.n} back in ${path}: the text its ${span.op} put there stands whole ` +
          `only inside the longer line ${doubt.line}, and line ${doubt.grown} holds it grown ` +
          `longer, so where the ${span.op} was is unclear`,
        hint + "; put it back by hand",
      );
    }
    body = now.slice(0, at) + span.text + now.slice(at + after.length);
    spliced = { line: now.slice(0, at).split("\n").length };
  }
  try {
    writeFileSync(path, body, { flag: opts.force ? "w" : "wx" });
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).message;
    throw new DejaError(
      `cannot write ${path}: ${writeReason(e)}`,
      code === "EEXIST"
        ? "add --force to overwrite it"
        : code === "ENOENT"
        ? `create ${dirname(path)} first, or write the span elsewhere`
        : undefined,
    );
  }
  return { path, spliced };
}

/** The file as it is now, as text; refused when it cannot be read. */
function readCurrent(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new DejaError(`cannot read ${path}: ${(e as { code?: string }).code ?? e}`);
  }
}
