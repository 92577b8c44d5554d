/**
 * `deja restore <path>`: the spans agents replaced in a file, and one of them back.
 *
 * Parse ({@link parseRestore}) → run ({@link restoreData}, then {@link pickSpan} and
 * `writeSpan` for one span) → render ({@link restoreJson}, {@link spanJson},
 * {@link restoreText}, {@link spanNotes}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, opt, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { isDirSync } from "../../core/fs.ts";
import { DejaError } from "../../core/errors.ts";
import type { Store } from "../store.ts";
import { shortRef } from "../sessions.ts";
import { foundPath, matchLabel, splitLine } from "../memory/paths.ts";
import { blame } from "../memory/blame.ts";
import type { MoveAway } from "../memory/renames.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  listSpans,
  notRestorable,
  type RestoreList,
  type RestoreSpan,
  spanCalls,
  writeSpan,
} from "../memory/restore.ts";
import {
  FILTER_OPTIONS,
  hiddenHint,
  hiddenOf,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  withStore,
} from "./_memory.ts";

export const restoreCmd: CommandSpec = {
  refresh: true,
  usage:
    "restore <path>[:line] [--span N|<id>] [-o <file>] [--force] [--harness <id>] [--project <text>] [--junk] [--json]",
  maxPositionals: 1,
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    span: {
      type: "string",
      value: "<n>",
      description: "print span n, or the span of that id (as listed: its session's id, @, the " +
        "call's place; numbers shift as new sessions are indexed, an id does not; " +
        "'deja show <id>' opens its session; " +
        "controls removed, -o writes it byte for byte)",
    },
    out: {
      type: "string",
      short: "o",
      value: "<file>",
      description:
        "write the span to this file (- for stdout), alone (never over an existing file without --force); " +
        "-o on the file it came from, with --force, undoes that edit in place",
    },
    force: {
      type: "boolean",
      description: "let -o overwrite an existing file; on the file the span came from, put the " +
        "span back where its edit's new text is, keeping the rest (refused when the file has " +
        "moved on and no longer holds that text exactly once)",
    },
    json: { type: "boolean", description: "print spans as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runRestore(a, io)),
};

/** What `deja restore` was asked. */
export interface RestoreArgs {
  /** The path as typed. */
  path: string;
  filter: SessionFilter;
  /**
   * The span to print or write: its number (1-based, as listed) or its id ({@link spanId});
   * none lists them.
   */
  span?: number | string;
  /** The file to write the span to (`-o`); `-` is stdout. */
  out?: string;
  force: boolean;
  json: boolean;
}

/** The spans of the file, each with the shortest reference of its session. */
export interface RestoreData extends Omit<RestoreList, "spans" | "away"> {
  spans: Array<RestoreSpan & { ref: string }>;
  /** {@link RestoreList.away}, each with the shortest reference of the session that did it. */
  away?: Array<MoveAway & { byRef: string }>;
  /**
   * A line typed with the path (`app.py:3`): its text in the file now, and whether spans
   * were kept to those whose edit or write put that text there (else all are listed).
   */
  line?: {
    n: number;
    text: string | null;
    kept: boolean;
    past?: number;
    /** Why the line cannot be told (blame's note: too short, not readable here; trial 97 F5). */
    note?: string;
    /** Spans of the whole file: the kept ones keep their numbers among them (trial 97 F4). */
    of?: number;
  };
}

/**
 * A span's id: the letters and digits of its session's id (the last 64 of a longer one), `@`,
 * the call's place in the session, and `.k` for the k-th part of a call that recorded several
 * (`a1b2…9c01ab3e@41`, `…@41.2`). The whole id: trial 94 F4 had the last 8 grow to the whole
 * when a session whose id ended alike was indexed, so a listed id stopped naming its span. An
 * id of the last 8 (listed before) still names its span while no other session's ends alike
 * ({@link spanById} refuses one that names several).
 * Numbers count from the newest span, so a session indexed between a listing and `--span 2`
 * shifts them (a background refresh, an agent still at work); an id does not shift. Trial
 * 13: ids made of the shortest unique start of the session's id grew when a session sharing
 * that start was indexed, and ids of Codex and opencode start with the time they began.
 */
export function spanId(
  s: Pick<PickedSpan, "session" | "seq" | "part" | "parts">,
  chars = ID_CHARS,
): string {
  const tail = s.session.replace(/[^0-9A-Za-z]/g, "").slice(-chars).toLowerCase();
  return `${tail}@${s.seq}${s.parts > 1 ? `.${s.part}` : ""}`;
}

/** Letters and digits of a session's id a span's id ends with ({@link spanId}). */
const ID_CHARS = 64;

/** The id of each listed span ({@link spanId}), longer where two would be the same. */
function spanIds(spans: readonly PickedSpan[]): Map<PickedSpan, string> {
  const out = new Map<PickedSpan, string>();
  const count = new Map<string, number>();
  for (const s of spans) count.set(spanId(s), (count.get(spanId(s)) ?? 0) + 1);
  for (const s of spans) out.set(s, count.get(spanId(s))! > 1 ? spanId(s, 64) : spanId(s));
  return out;
}

const SPAN_ID = /^([0-9A-Za-z][\w.:-]*)@(\d+)(?:\.(\d+))?$/;

/** `--span`: a number (1 or more) or an id ({@link spanId}). @throws {DejaError} exit 2 */
function spanArg(a: Args): number | string {
  const v = String(a.values.span).trim();
  if (SPAN_ID.test(v)) return v;
  // Trial 63: `--span @36` was told "a positive whole number", the ids it takes unsaid.
  if (!/^\d+$/.test(v)) {
    throw new DejaError(
      `--span takes a span's number or its id, not '${v}'`,
      // The ids the file's own listing gives, not one of a session of no index (trial 97 F10).
      "'deja restore <file>' lists each span with both: --span 2, or --span <id> as listed " +
        "(<session>@<place>)",
      2,
    );
  }
  return intOpt(a, "span", 1);
}

/** A span `deja restore` picked, as the render step needs it. */
export type PickedSpan = RestoreData["spans"][number];

/**
 * Reads `deja restore`'s arguments.
 *
 * @throws {DejaError} exit 2 when no path is given, a harness is unknown, --span is bad, or
 *   `-o -` (stdout) comes with --json.
 */
export function parseRestore(a: Args): RestoreArgs {
  const path = a.positionals[0];
  if (!path) throw new DejaError("which file? give its path", "deja restore <path>", 2);
  const filter = parseFilter(a);
  const out = opt(a, "out");
  if (out === "-" && a.values.json) {
    throw new DejaError(
      "-o - writes the span's bytes to stdout; --json cannot go with it",
      `deja restore ${path} --span N --json prints the span as JSON`,
      2,
    );
  }
  return {
    path,
    filter,
    span: a.values.span === undefined ? undefined : spanArg(a),
    out,
    force: Boolean(a.values.force),
    json: Boolean(a.values.json),
  };
}

/** The spans agents replaced in the file, newest first. @throws {DejaError} on an unknown --from */
export function restoreData(
  store: Store,
  args: RestoreArgs,
  io: Pick<IO, "env" | "cwd">,
): RestoreData {
  // `app.py:3`, as blame takes it (trial 16: "no agent replaced text in …/app.py:3").
  const place = splitLine(args.path, io.cwd);
  const r = listSpans(store, place.path, {
    cwd: io.cwd,
    harness: args.filter.harness,
    project: args.filter.project,
    hidden: hiddenOf(store, args.filter, io),
  });
  let spans = r.spans.map((s) => ({ ...s, ref: shortRef(store, s.harness, s.session) }));
  const { away: gone, ...rest } = r;
  const away = gone?.map((a) => ({ ...a, byRef: shortRef(store, a.byHarness, a.by) }));
  const listed = { ...rest, ...(away ? { away } : {}) };
  if (place.line === undefined) return { ...listed, spans };
  // The spans of the calls that wrote the line as it is now, by blame's line rule: those to
  // give back.
  const b = blame(store, place.path, {
    cwd: io.cwd,
    line: place.line,
    harness: args.filter.harness,
    project: args.filter.project,
    limit: 1000,
    hidden: hiddenOf(store, args.filter, io),
  });
  const wrote = new Set(
    b.sessions.flatMap((e) =>
      e.changes.filter((c) => c.line === "wrote").map((c) => `${e.session.native_id} ${c.seq}`)
    ),
  );
  const put = spans.filter((s) => wrote.has(`${s.session} ${s.seq}`));
  // Each keeps its number in the whole list, so the `--span N` the listing names is the span
  // `restore <path> --span N` picks too (trial 94 F5: renumbered from 1, span 1 of `app.py:3`
  // was span 4 of `app.py`, and `app.py --span 1` printed another session's text).
  if (put.length) spans = put;
  const past = b.line?.lines !== undefined && place.line > b.line.lines ? b.line.lines : undefined;
  const note = b.line?.text ? undefined : b.line?.note;
  return {
    ...listed,
    spans,
    line: {
      n: place.line,
      text: b.line?.text ?? null,
      kept: put.length > 0,
      past,
      ...(note && past === undefined ? { note } : {}),
      of: r.spans.length,
    },
  };
}

/**
 * The span `--span` names (the only one when -o is given without it).
 *
 * @throws {DejaError} exit 1 when several spans leave it open or the number is past the list.
 */
export function pickSpan(d: RestoreData, args: RestoreArgs): PickedSpan {
  if (args.span === undefined && d.spans.length > 1) {
    throw new DejaError(
      `${d.spans.length} spans: say which one to write`,
      `deja restore ${args.path} lists them; then --span N -o ${args.out}`,
    );
  }
  if (typeof args.span === "string") return spanById(d, args.span, args.path);
  if (args.span === undefined && d.spans.length) return d.spans[0];
  const n = args.span ?? 1;
  // By its number in the whole list, which a line's listing keeps (restoreData).
  const span = d.spans.find((s) => s.n === n);
  if (!span) {
    const file = d.spans[0]?.path ?? d.target;
    // The kept spans keep their numbers in the whole list: say which they are, not "no span 1
    // among the 1" (trial 97 F4).
    const kept = d.spans.map((s) => `--span ${s.n}`).join(", ");
    throw new DejaError(
      d.line?.kept
        ? `span ${n} did not put line ${d.line.n} of ${file} there; ${
          d.spans.length === 1 ? "the span that did is" : "the spans that did are"
        } ${kept}, numbered as in the file's whole listing`
        : `no span ${n}: ${file} has ${d.spans.length} span${d.spans.length === 1 ? "" : "s"}`,
      d.line?.kept
        ? `deja restore ${args.path.replace(/:\d+$/, "")} --span ${n} picks among all its spans`
        : `deja restore ${args.path} lists them`,
    );
  }
  return span;
}

/**
 * The span of id `id` ({@link spanId}; more of the end of its session's id names the same
 * span).
 *
 * @throws {DejaError} exit 1 when no span of the file has that id, or it names several.
 */
function spanById(d: RestoreData, id: string, path: string): PickedSpan {
  const [, ref, seq, part] = SPAN_ID.exec(id)!;
  const tail = ref.toLowerCase();
  const ends = (session: string) =>
    session.replace(/[^0-9A-Za-z]/g, "").toLowerCase().endsWith(tail);
  const found = d.spans.filter((s) =>
    (ends(s.session) && s.seq === Number(seq) &&
      (part === undefined ? s.part === 1 || s.parts === 1 : s.part === Number(part))) ||
    // An older call that replaced the same text, listed as the newer one.
    (part === undefined && s.also?.some((a) => ends(a.session) && a.seq === Number(seq)))
  );
  const sessions = new Set(found.map((s) => s.session));
  if (sessions.size > 1) {
    throw new DejaError(
      `span id ${id} names ${sessions.size} sessions' spans`,
      `deja restore ${path} lists each with a longer id`,
    );
  }
  if (!found.length) {
    throw new DejaError(
      `no span ${id} among the ${d.spans.length} span${d.spans.length === 1 ? "" : "s"} of ${
        d.spans[0]?.path ?? d.target
      }`,
      `deja restore ${path} lists them with their ids`,
    );
  }
  return found[0];
}

/** One span in JSON (docs/json-output.md, `restore`), its text only when `withText`. */
export function spanJson(s: PickedSpan, withText: boolean): Record<string, unknown> {
  return {
    n: s.n,
    id: spanId(s),
    op: s.op,
    restorable: s.restorable,
    unrestorable: s.unrestorable,
    path: s.path,
    lines: s.lines,
    bytes: s.bytes,
    redacted: s.redacted,
    cut: s.cut,
    replace_all: s.replaceAll ?? false,
    time: isoTime(s.time),
    time_source: s.timeSource,
    time_from_file: s.timeSource === "file",
    harness: s.harness,
    session: s.session,
    short_id: s.ref,
    part: s.part,
    parts: s.parts,
    ...(withText ? { text: s.text } : {}),
  };
}

/** The listing's `--json` document (docs/json-output.md, `restore`). */
export function restoreJson(d: RestoreData): Record<string, unknown> {
  if (!d.spans.length) return { target: d.target, match: d.match, spans: [], hidden: d.hidden };
  return {
    target: d.target,
    match: d.match,
    recorded: d.recorded ?? null,
    hidden: d.hidden,
    moved_away: (d.away ?? []).flatMap((a) => a.to === undefined ? [] : [a.to]),
    // An earlier file of this name removed before this one was made (trial 110 F4).
    removed_by: (d.away ?? []).filter((a) => a.removed).map((a) => ({
      harness: a.byHarness,
      id: a.by,
    })),
    ...(d.line
      ? {
        line: {
          n: d.line.n,
          text: d.line.text,
          kept: d.line.kept,
          past_end: d.line.past ?? null,
          cannot_tell: d.line.note ?? null,
        },
      }
      : {}),
    spans: ((ids) => d.spans.map((s) => ({ ...spanJson(s, false), id: ids.get(s) })))(
      spanIds(d.spans),
    ),
  };
}

/** `8 spans` (or `8 spans of 6 edits` when some call recorded several: edits are calls). */
function spanCount(spans: readonly PickedSpan[]): string {
  const n = `${spans.length} span${spans.length === 1 ? "" : "s"}`;
  const { edits, writes } = spanCalls(spans);
  if (edits + writes === spans.length) return n;
  const calls = [
    edits && `${edits} edit${edits === 1 ? "" : "s"}`,
    writes && `${writes} write${writes === 1 ? "" : "s"}`,
  ].filter(Boolean).join(", ");
  return `${n} of ${calls}`;
}

/**
 * `numbered among the file's 3, ` when a line kept some of the file's spans: their
 * numbers are their places in the whole list (trial 97 F4: "1 span" numbered 2).
 */
function ofFile(d: RestoreData): string {
  if (!d.line?.kept || d.line.of === undefined || d.line.of === d.spans.length) return "";
  return `numbered among the file's ${d.line.of}, `;
}

/** The spans listed newest first, each with its first line (colour on a terminal). */
export function restoreText(d: RestoreData, typed: string, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const target = foundPath(d, typed);
  const match = d.match ?? "";
  const lines = [
    c.bold(tilde(target, io.env.home)) +
    c.dim(`  ${matchLabel(d)}, ${spanCount(d.spans)}, ${ofFile(d)}newest first`),
  ];
  const approx = d.spans.filter((s) => s.timeSource === "session" || s.timeSource === "file");
  // `~`: not the span's own time (lib/memory/order.ts); own times stay aligned beside them.
  const when = (s: PickedSpan) =>
    s.time === null
      ? fmtTime(null)
      : `${s.timeSource === "event" ? (approx.length ? " " : "") : "~"}${fmtTime(s.time)}`;
  const width = Math.max(0, ...d.spans.map((s) => when(s).length));
  const ids = spanIds(d.spans);
  for (const s of d.spans) {
    const flags = [
      s.unrestorable === "write" && "previous content unknown, not restorable",
      s.unrestorable === "created" && "created the file, nothing before it to restore",
      s.unrestorable === "redacted" && "secret redacted when indexed, not restorable",
      s.unrestorable === "cut" && "middle cut when indexed, not restorable",
      s.redacted && s.unrestorable !== "redacted" && "redacted",
      s.cut && s.unrestorable !== "cut" && "cut",
      s.timeSource === "file" && "file time",
      s.parts > 1 && `part ${s.part} of ${s.parts} of one ${s.op}`,
      s.replaceAll && "replaced every occurrence",
    ].filter(Boolean).join(", ");
    const where = s.path === target && match === "exact" ? "" : `  ${tilde(s.path, io.env.home)}`;
    lines.push(
      `${String(s.n).padStart(3)}  ${when(s).padEnd(width)}  ${s.op.padEnd(5)}  ${
        String(s.lines).padStart(4)
      } line${s.lines === 1 ? " " : "s"}  ${c.cyan(ids.get(s)!)} ${s.harness} ${
        // The session as `deja show` takes it: the span's id ends with its id, which is no
        // session's short id (trial 60: `deja show 861a8eb7` found nothing).
        c.dim(s.ref)}${where}${flags ? c.yellow(`  (${flags})`) : ""}`,
    );
    const first = s.text.split("\n").find((l) => l.trim()) ?? "";
    lines.push(c.dim(`       │ ${oneLine(first, 90)}`));
  }
  if (approx.length) {
    lines.push(c.dim(
      `~ no time of its own: its session's${
        approx.some((s) => s.timeSource === "file")
          ? " (file time: the store file's last change, the session records none)"
          : ""
      }`,
    ));
  }
  lines.push(c.dim(
    "deja restore <path> --span N prints one (or --span <id>, as listed, which stays " +
      "when new sessions are indexed); add -o <file> to write it",
  ));
  return lines.join("\n") + "\n";
}

/** What stderr says of a line typed with the path: which spans are listed for it. */
export function lineNote(line: NonNullable<RestoreData["line"]>, spans: number): string {
  const shown = line.text === null ? "" : ` (${oneLine(line.text, 60)})`;
  return line.kept
    ? `deja: line ${line.n}${shown}: the ${
      spans === 1 ? "span whose edit" : `${spans} spans whose edits`
    } put it there\n`
    : line.past !== undefined
    ? `deja: line ${line.n} is past the end of the file (${line.past} lines); every span of it\n`
    : line.note !== undefined
    // What blame says of it, not a claim that no edit did (trial 97 F5: "no listed edit put it
    // there" of a line too short to tell, and of a file not readable here).
    ? `deja: line ${line.n}: cannot tell which edit put it there (${line.note}); every span of the file\n`
    : `deja: line ${line.n}${shown}: no listed edit put it there; every span of the file\n`;
}

/** What stderr says about a picked span before it is printed or written. */
export function spanNotes(span: PickedSpan, writing: boolean): string[] {
  const notes: string[] = [];
  if (span.redacted && !writing) {
    notes.push(
      `deja: span ${span.n} passed through redaction: [redacted:…] stands where a secret was\n`,
    );
  }
  if (span.unrestorable === "write" && !writing) {
    notes.push(
      `deja: span ${span.n} is what a write put in the file, not what it held before (unknown)\n`,
    );
  }
  if (span.unrestorable === "created" && !writing) {
    notes.push(
      `deja: span ${span.n} is what the write that created the file put in it; the file did ` +
        "not exist before\n",
    );
  }
  return notes;
}

function runRestore(a: Args, io: IO): number {
  const args = parseRestore(a);
  const d = withStore(io, (store) => restoreData(store, args, io));
  if (d.spans.length) hiddenHint(io, d.hidden);
  // An earlier file of this name moved away: its spans are that file's (trial 105 F2).
  if (!args.json) {
    for (const a of d.away ?? []) {
      const head = "deja: spans of an earlier file of this name are left out: it was";
      io.err(
        a.to === undefined
          ? `${head} removed by ${a.byRef} before this one was made\n`
          : `${head} moved to ${tilde(a.to, io.env.home)} before this one was made\n` +
            `hint: deja restore ${tilde(a.to, io.env.home)}\n`,
      );
    }
  }
  if (d.line && !args.json && d.spans.length) io.err(lineNote(d.line, d.spans.length));
  if (!d.spans.length) {
    // `app.py:abc`: a place that is no line number, on a file that exists (trial 18).
    const bad = /^(.+):([^:/\\]*)$/.exec(args.path);
    if (bad && !existsSync(resolve(io.cwd, args.path)) && existsSync(resolve(io.cwd, bad[1]))) {
      throw new DejaError(
        bad[2] ? `'${bad[2]}' is no line number` : "no line number after ':'",
        `deja restore ${bad[1]}:<line>, counting from 1; or deja restore ${bad[1]}`,
        2,
      );
    }
    // A folder, said as blame says it, in text and --json alike (trial 97 F7: "no agent
    // replaced text in" a directory, exit 1).
    if (isDirSync(d.target) || /[/\\]$/.test(args.path.trim())) {
      throw new DejaError(
        `${tilde(d.target, io.env.home)} is a directory: restore takes a file`,
        `deja restore ${args.path.replace(/[/\\]+$/, "")}/<file>`,
        2,
      );
    }
    if (args.json) printJson(io, restoreJson(d));
    else {
      io.err(
        `deja: no agent replaced text in ${tilde(d.target, io.env.home)}${
          d.hidden ? " in a session listed" : ""
        }\n`,
      );
    }
    hiddenHint(io, d.hidden);
    return 1;
  }
  if (args.span === undefined && args.out === undefined) {
    if (args.json) printJson(io, restoreJson(d));
    else io.out(restoreText(d, args.path, io));
    return 0;
  }
  const span = pickSpan(d, args);
  for (const note of spanNotes(span, args.out !== undefined)) io.err(note);
  if (args.out === "-") {
    // `-o -`: the span's bytes on stdout, refused as a write would be.
    if (span.unrestorable) throw notRestorable(span);
    io.out(span.text);
    return 0;
  }
  if (args.out !== undefined) {
    const written = writeSpan(span, args.out, {
      cwd: io.cwd,
      force: args.force,
      ...(d.match === "exact" ? { guard: [d.target] } : { lookalike: d.target }),
    });
    const where = tilde(written.path, io.env.home);
    if (args.json) {
      printJson(io, {
        written: written.path,
        in_place: written.spliced !== null,
        line: written.spliced?.line ?? null,
        span: spanJson(span, false),
      });
    } else if (written.spliced) {
      io.out(
        `put span ${span.n} (${span.lines} line${span.lines === 1 ? "" : "s"}) back in ${where} ` +
          `at line ${written.spliced.line}, in place of the text its ${span.op} put there; ` +
          "the rest of the file is unchanged\n",
      );
    } else {
      io.out(
        `wrote span ${span.n} (${span.lines} line${span.lines === 1 ? "" : "s"}) to ${where}\n`,
      );
    }
    return 0;
  }
  if (args.json) printJson(io, spanJson(span, true));
  // On a terminal a span without a final newline ends its last line, not the prompt's (trial
  // 13); to a pipe it goes as it is (`-o -` and `-o` write it byte for byte either way).
  else io.out(io.isTTY && !span.text.endsWith("\n") ? span.text + "\n" : span.text);
  return 0;
}
