/**
 * `deja blame <path>[:line]`: the sessions that read, edited or wrote a file, and why.
 *
 * Parse ({@link parseBlame}) → run ({@link blameData}) → render ({@link blameJson},
 * {@link blameText}).
 *
 * @module
 */
import { isDirSync } from "../../core/fs.ts";
import type { Args, CommandSpec } from "./common.ts";
import { shQuote } from "../shell.ts";
import { colors, fmtSessionTime, fmtTime, intOpt, isoTime, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import type { Store } from "../store.ts";
import { shortRef } from "../sessions.ts";
import {
  blame,
  type BlameChange,
  blameFolder,
  type BlameResult,
  type BlameSession,
  earlierWords,
  lineWords,
  shellReadWords,
  shownChanges,
} from "../memory/blame.ts";
import { describeSession } from "../memory/last.ts";
import { movedWords } from "../memory/moves.ts";
import { nameChain } from "../memory/renames.ts";
import { type FileUnder, foundPath, matchLabel, splitLine } from "../memory/paths.ts";
import {
  FILTER_OPTIONS,
  hiddenHint,
  hiddenOf,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  sessionJsonOf,
  withStore,
} from "./_memory.ts";
import { filteredText, filtersUsed } from "./_filtered.ts";

export const blameCmd: CommandSpec = {
  asks: true,
  refresh: true,
  usage: "blame <path>[:line] [--harness <id>] [--project <text>] [--junk] [--limit N] [--json]",
  maxPositionals: 1,
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    limit: { type: "string", value: "<n>", description: "sessions to show (default 10)" },
    json: { type: "boolean", description: "print the sessions as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runBlame(a, io)),
};

/** What `deja blame` was asked. */
export interface BlameArgs {
  /** The path as typed (without a `:line`). */
  path: string;
  line?: number;
  filter: SessionFilter;
  /** Most sessions to show. */
  limit: number;
  json: boolean;
}

/** What blame found, each session with its shortest reference and its description. */
export interface BlameData extends Omit<BlameResult, "sessions"> {
  /** The path as typed. */
  typed: string;
  sessions: Array<
    BlameSession & {
      ref: string;
      moved_on_by_ref?: string;
      /** Its earlier names and the moves that brought the file here, in words (`earlierWords`). */
      earlierText?: string;
      description: string | null;
    }
  >;
  /** One line per session left out as another file's ({@link BlameResult.away}). */
  awayText?: string[]; /**
   * With no session found: the files under the path taken as a folder that sessions touched
   * (`blameFolder`, shell reads too; trial 130 F5, trial 132 F5).
   */

  under?: FileUnder[];
  /**
   * With none under it either: how many files under the path only hidden sessions touched
   * (throwaway or excluded projects; the folder is refused all the same, saying so).
   */
  underHidden?: number;
}

/**
 * Reads `deja blame`'s arguments (`cwd` decides whether `a:12` is a file or line 12 of `a`).
 *
 * @throws {DejaError} exit 2 when no path is given, the line is 0, a harness is unknown or
 *   --limit is bad.
 */
export function parseBlame(a: Args, cwd: string): BlameArgs {
  const arg = a.positionals[0];
  if (!arg) {
    throw new DejaError(
      "which file? give a path, optionally path:line",
      "e.g. deja blame src/app.ts:42",
      2,
    );
  }
  const { path, line } = splitLine(arg, cwd);
  if (line === 0) {
    throw new DejaError(
      `no line 0 in ${path}: lines are counted from 1`,
      `deja blame ${path}:1 for the first line`,
      2,
    );
  }
  const filter = parseFilter(a);
  return { path, line, filter, limit: intOpt(a, "limit", 10), json: Boolean(a.values.json) };
}

/** The sessions that touched the file, newest first. @throws {DejaError} on an unknown --from */
export function blameData(store: Store, args: BlameArgs, io: Pick<IO, "env" | "cwd">): BlameData {
  const hidden = hiddenOf(store, args.filter, io);
  const r = blame(store, args.path, {
    cwd: io.cwd,
    line: args.line,
    harness: args.filter.harness,
    project: args.filter.project,
    limit: args.limit,
    hidden,
  });
  // Nothing of this path: it may be a folder whose files sessions touched (trial 130 F5).
  const under = r.sessions.length ? [] : blameFolder(store, r.target, hidden);
  const underHidden = r.sessions.length || under.length || !hidden?.size
    ? 0
    : blameFolder(store, r.target).length;
  const awayText = r.away?.map((a) => {
    const by = shortRef(store, a.move.byHarness, a.move.by);
    const head = `left out: ${
      shortRef(store, a.harness, a.session)
    } touched an earlier file of this name, `;
    // Removed, it is nowhere to blame (trial 110 F4).
    if (a.move.to === undefined) {
      const who = a.move.by === a.session && a.move.byHarness === a.harness ? "it" : by;
      return `${head}which ${who} removed before this one was made`;
    }
    const to = tilde(a.move.to, io.env.home);
    return `${head}moved to ${to} by ${by} before this one was made (deja blame ${to})`;
  });
  return {
    ...r,
    ...(awayText?.length ? { awayText } : {}),
    ...(under.length ? { under } : {}),
    ...(underHidden ? { underHidden } : {}),
    typed: args.path,
    sessions: r.sessions.map((s) => ({
      ...s,
      ref: shortRef(store, s.session.harness, s.session.native_id),
      ...(s.moved_by
        ? { earlierText: earlierWords(s, (harness, id) => shortRef(store, harness, id)) }
        : {}),
      ...(s.moved_on_by
        ? {
          moved_on_by_ref: shortRef(
            store,
            s.moved_on_by_harness ?? s.session.harness,
            s.moved_on_by,
          ),
        }
        : {}),
      description: describeSession(store, s.session),
    })),
  };
}

/** The `--json` document (docs/json-output.md, `blame`). */
export function blameJson(d: BlameData): Record<string, unknown> {
  return {
    target: d.target,
    match: d.match,
    recorded: d.recorded ?? null,
    line: d.line ?? null,
    total: d.total,
    listed: d.listed,
    hidden: d.hidden,
    away: (d.away ?? []).map((a) => ({
      harness: a.harness,
      id: a.session,
      removed: Boolean(a.move.removed),
      moved_to: a.move.to ?? null,
      moved_by: { harness: a.move.byHarness, id: a.move.by },
    })),
    sessions: d.sessions.map((s) => ({
      ...sessionJsonOf(s.session, s.ref),
      last: isoTime(s.last),
      paths: s.paths,
      reads: s.reads,
      shell_reads: s.shellReads,
      edits: s.edits,
      writes: s.writes,
      failed: s.failed,
      removed: Boolean(s.removed),
      moved_to: s.moved_to ?? null,
      moved_from: s.moved_from ?? [],
      copied: Boolean(s.copied),
      moved_on_by: s.moved_on_by ? { harness: s.moved_on_by_harness, id: s.moved_on_by } : null,
      earlier_names: s.earlier_names ?? [],
      moved_by: s.moved_by ? { harness: s.moved_by_harness, id: s.moved_by } : null,
      moved_through: (s.moved_through ?? []).map((h) => ({
        path: h.path,
        by: { harness: h.byHarness, id: h.by },
        copied: Boolean(h.copied),
      })),
      moved_unsure: Boolean(s.unsure),
      line: s.line,
      line_unsure: Boolean(s.lineUnsure),
      changes: s.changes.map(({ replaceAll, lineUnsure, ...c }) => ({
        ...c,
        time: isoTime(c.time),
        replace_all: replaceAll ?? false,
        line_unsure: Boolean(lineUnsure),
      })),
    })),
  };
}

/** The sessions as text, with the gist of their newest changes (colour on a terminal). */
export function blameText(d: BlameData, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  // Matched by a suffix or the name alone, the sessions may have touched different files: each
  // says its own (trial 113 F3: lib/d.py's and tests/d.py's sessions read as one file's).
  const files = d.match === "exact" ? 1 : new Set(d.sessions.flatMap((s) => s.paths)).size;
  const out: string[] = [
    c.bold(tilde(foundPath(d, d.typed), io.env.home)) +
    c.dim(
      `  ${matchLabel(d)}, ${d.listed} session${d.listed === 1 ? "" : "s"}` +
        (files > 1 ? ` of ${files} files` : ""),
    ),
  ];
  if (d.line) out.push(...lineHeader(d, c));
  for (const s of d.sessions) {
    out.push(...sessionLines(s, io, c, d.line?.text != null, files > 1));
  }
  // Sessions of an earlier file of this name, moved away before this one was made (trial 105
  // F2): left out, and where their file went said.
  for (const a of d.awayText ?? []) out.push("", c.dim(a));
  return out.join("\n") + "\n";
}

/** What the requested line is, and whether the sessions below say who wrote it. */
function lineHeader(d: BlameData, c: ReturnType<typeof colors>): string[] {
  const l = d.line!;
  const all = "every session that touched the file is listed";
  if (l.text === null) {
    if (l.lines !== undefined && l.number > l.lines) {
      const count = `${l.lines} line${l.lines === 1 ? "" : "s"}`;
      return [c.dim(`line ${l.number} is out of range: the file has ${count}; ${all}`)];
    }
    return [c.dim(`line ${l.number}: cannot tell which session wrote it (${l.note}); ${all}`)];
  }
  const out = [c.dim(`line ${l.number}: ${oneLine(l.text, 100)}`)];
  if (!d.sessions.some((s) => s.line)) {
    out.push(c.dim(
      "no recorded edit or write is known to have put this line here, so deja cannot tell which " +
        "session wrote it; " +
        all,
    ));
  } else if (d.sessions.some((s) => s.lineUnsure)) {
    // Trial 108 F2: `    pass` was "wrote the line" for two sessions and "replaced" for a third.
    out.push(c.dim(
      "its text is on more than one line of the file or of a change of it: where a change is " +
        'marked "may have", deja read it by the text alone and it may be another occurrence',
    ));
  }
  return out;
}

function runBlame(a: Args, io: IO): number {
  const args = parseBlame(a, io.cwd);
  const d = withStore(io, (store) => blameData(store, args, io));
  // A path that only files of its name elsewhere match: they are listed as the nearest, and
  // the file itself was found in none (trial 94 F7: the absolute path of a file no session
  // touched answered 9 sessions of other README.md files, exit 0). A bare name too: the file of
  // that name here is none of them, and those elsewhere may be several (trial 113 F3: `deja
  // blame d.py` from /tmp listed lib/d.py's and tests/d.py's sessions as one, exit 0).
  const elsewhere = d.sessions.length > 0 && d.match === "basename";
  // Trial 10: `deja blame proj/app` said "no session touched" a directory whose files a
  // dozen sessions edited. Before --json, which printed an empty listing with exit 1 (trial 97
  // F7); a path ending in a slash is a folder whether or not it is on this machine.
  // A folder not on this machine whose files sessions touched is one too (trial 130 F5: "no
  // session touched …/src" of a folder three of whose files one session edited).
  if (d.under?.length) throw folderError(d, io);
  // Only hidden sessions touched files under it: a folder all the same, said so (not "no
  // session touched" it, nor a plain "is a directory").
  if (d.underHidden) {
    const dir = tilde(d.target, io.env.home);
    const n = d.underHidden;
    throw new DejaError(
      `${dir} is a folder: blame takes a file; only sessions of throwaway or excluded projects ` +
        `touched ${n} file${n === 1 ? "" : "s"} under it`,
      `deja blame ${shQuote(d.target.replace(/\/+$/, ""))}/<file> --junk shows the throwaway ones`,
      2,
      { files_under_hidden: n },
    );
  }
  if (!d.sessions.length && (isDirSync(d.target) || /[/\\]$/.test(args.path.trim()))) {
    throw new DejaError(
      `${tilde(d.target, io.env.home)} is a directory: blame takes a file`,
      // The folder's whole path: `--project .` matches no project (trial 64).
      `deja blame ${args.path.replace(/\/+$/, "")}/<file>; deja last --project ${
        shQuote(d.target.replace(/\/+$/, "") || "/")
      } lists the sessions of a project`,
      // A usage error, as the README's exit codes say (trial 94 F8: it exited 1, "none found").
      2,
    );
  }
  if (args.json) {
    printJson(io, blameJson(d));
    return d.sessions.length && !elsewhere ? 0 : 1;
  }
  if (!d.sessions.length) {
    // Named as it matched (a bare name is no path of this directory: trial 9 was told "no
    // session touched /tmp/README.md" of a name claude had edited elsewhere), and the
    // filters named when they left nothing of what touched it.
    const shown = oneLine(tilde(d.match ? foundPath(d, d.typed) : d.target, io.env.home), 200);
    const filters = filtersUsed(args.filter);
    const visible = d.total - d.hidden;
    io.err(
      // Sessions of throwaway projects that did are said so (trial 52: "no session touched"
      // a file a hidden session had edited).
      filteredText(`deja: no session ${d.hidden ? `listed ` : ""}touched ${shown}`, {
        filters,
        without: filters.length ? visible : 0,
      }),
    );
    hiddenHint(io, d.hidden);
    return 1;
  }
  if (elsewhere) {
    io.err(
      `deja: no session touched ${
        oneLine(tilde(d.target, io.env.home), 200)
      } itself; listed: files of its name elsewhere\n`,
    );
  }
  io.out(blameText(d, io));
  if (d.sessions.length < d.listed) {
    io.err(`showing ${d.sessions.length} of ${d.listed}: --limit shows more\n`);
  }
  hiddenHint(io, d.hidden);
  return elsewhere ? 1 : 0;
}

/** How many of the files under a folder `--json` lists. */
const FOLDER_JSON = 20;

/**
 * The answer to a folder whose files sessions touched: blame takes a file, and the files under it
 * sessions touched, read through the shell too (`blameFolder`), are named (the first five;
 * --json: the first 20, with `files_under_total`),
 * those most sessions touched first. Exit 2, as for any folder.
 */
function folderError(d: BlameData, io: Pick<IO, "env">): DejaError {
  const under = d.under!;
  const n = under.length;
  const named = under.slice(0, 5).map((f) =>
    `${f.inside} (${f.sessions} session${f.sessions === 1 ? "" : "s"})`
  );
  // What --json lists: all when they are 20 or fewer (trial 133 F12: "(--json lists 20)" of 12).
  const listed = n > FOLDER_JSON ? `the first ${FOLDER_JSON}` : `all ${n}`;
  const more = n > named.length ? `, … ${n - named.length} more (--json lists ${listed})` : "";
  const dir = tilde(d.target, io.env.home);
  return new DejaError(
    `${dir} is a folder: blame takes a file; sessions touched ${n} file${
      n === 1 ? "" : "s"
    } under it: ${named.join(", ")}${more}`,
    `deja blame ${shQuote(under[0].path)} for one of them`,
    2,
    {
      files_under: under.slice(0, FOLDER_JSON).map((f) => ({ path: f.path, sessions: f.sessions })),
      files_under_total: n,
    },
  );
}

function sessionLines(
  s: BlameData["sessions"][number],
  io: Pick<IO, "env">,
  c: ReturnType<typeof colors>,
  byLine: boolean,
  named = false,
): string[] {
  const counts = [
    s.edits && `${s.edits} edit${s.edits === 1 ? "" : "s"}`,
    s.writes && `${s.writes} write${s.writes === 1 ? "" : "s"}`,
    s.reads && `${s.reads} read${s.reads === 1 ? "" : "s"}${shellReadWords(s.reads, s.shellReads)}`,
    s.failed && `${s.failed} failed`,
  ].filter(Boolean).join(", ") +
    (s.removed
      ? `; removed later${s.moved_on_by ? ` by ${s.moved_on_by_ref}` : ""}`
      : s.moved_to
      ? `; moved later ${
        s.moved_on_by
          ? `to ${nameChain([s.moved_to], s.session.project)} by ${s.moved_on_by_ref}`
          : movedWords(s)
      }`
      : "");
  // A session whose one touch was a patch's deletion or rename counts nothing (trial 97 F8).
  const said = counts.replace(/^; /, "");
  const mark = s.line ? c.yellow(`  ${lineWords(s.line, s.lineUnsure)}`) : "";
  const lines = [
    "",
    // A time only the store file's mtime gives is marked, as `last` marks it (trial 10).
    `${c.cyan(s.ref)}  ${c.bold(s.session.harness)}  ${
      fmtSessionTime(s.last ?? s.session.updated, s.session)
    }  ${tilde(s.session.project, io.env.home)}  ${c.dim(said)}${mark}`,
  ];
  if (s.description) lines.push(`  ${oneLine(s.description, 100)}`);
  // The file of the name it touched, where the sessions listed touched several.
  if (named) {
    const files = s.paths.map((p) => tilde(p, io.env.home)).join(", ");
    lines.push(`  ${c.dim(s.paths.length === 1 ? "file:" : "files:")} ${oneLine(files, 200)}`);
  }
  // Its changes under the names it had before are its history (trial 97 F1).
  if (s.moved_from) {
    lines.push(
      `  ${s.copied ? "copied" : "moved"} here from ${
        oneLine(nameChain(s.moved_from, s.session.project), 160)
      }`,
    );
  }
  // It touched the file under an earlier name, which a later session moved here (trial 100 F1).
  if (s.earlierText) lines.push(`  ${oneLine(s.earlierText, 240)}`);
  if (byLine) return [...lines, ...lineChanges(s, c)];
  // The newest three changes and the words around each (shownChanges, shared with MCP blame).
  const { shown, earlier: more } = shownChanges(s);
  // Several paths matched (a bare name, other checkouts): each change names its own (trial 9:
  // "2 edits" of two different README.md files, told apart only by --json).
  const where = (ch: BlameChange) => s.paths.length > 1 ? `  ${tilde(ch.path, io.env.home)}` : "";
  const when = changeTime(s.changes);
  for (const { change: ch, before, after } of shown) {
    lines.push(`    ${c.dim(`${ch.op.padEnd(5)} ${when(ch)}${where(ch)}${everyWords(ch)}`)}`);
    if (before) lines.push(`      said before: ${before}`);
    if (after) lines.push(`      said after:  ${after}`);
  }
  if (more > 0) lines.push(c.dim(`    … ${more} earlier change${more === 1 ? "" : "s"} (--json)`));
  return lines;
}

/** ` (every occurrence)` of an edit that replaced every occurrence of its old text. */
function everyWords(ch: BlameChange): string {
  return ch.replaceAll ? " (every occurrence)" : "";
}

/**
 * How a session's changes say their times: to the minute, or to the second when two of them
 * share a minute (they would read as one time).
 */
function changeTime(changes: readonly BlameChange[]): (ch: BlameChange) => string {
  const minutes = changes.flatMap((x) => x.time ? [Math.floor(x.time / 60_000)] : []);
  const seconds = new Set(minutes).size < minutes.length;
  return (ch) => fmtTime(ch.time, seconds);
}

/**
 * With a line: only the changes whose text holds it (the mark's own kind), each
 * with its time even when no gist surrounds it, and how many others there were.
 */
function lineChanges(s: BlameData["sessions"][number], c: ReturnType<typeof colors>): string[] {
  const changes = s.changes.length;
  if (!s.line) {
    return changes
      ? [
        c.dim(
          `    none of its ${changes} change${changes === 1 ? "" : "s"} wrote or replaced the line`,
        ),
      ]
      : [];
  }
  const { shown, earlier: n, other } = shownChanges(s, true);
  const lines: string[] = [];
  // As the listing without a line says them: the mark of a replace-all edit, and seconds where
  // two changes share a minute (trial 130 F6: the text hid which of two edits wrote the line).
  const when = changeTime(s.changes);
  for (const { change: ch, before, after } of shown) {
    lines.push(
      `    ${
        c.dim(
          `${ch.op.padEnd(5)} ${when(ch)}${everyWords(ch)}  ${lineWords(ch.line!, ch.lineUnsure)}`,
        )
      }`,
    );
    if (before) lines.push(`      said before: ${before}`);
    if (after) lines.push(`      said after:  ${after}`);
  }
  if (n > 0) {
    lines.push(c.dim(`    … ${n} earlier change${n === 1 ? "" : "s"} holding it (--json)`));
  }
  if (other > 0) {
    lines.push(
      c.dim(
        `    ${other} other change${other === 1 ? "" : "s"} of the file ${
          other === 1 ? "does" : "do"
        } not hold it (--json)`,
      ),
    );
  }
  return lines;
}
