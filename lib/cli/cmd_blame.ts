/** `deja blame <path>[:line]`: the sessions that read, edited or wrote a file, and why. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, opt, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { shortRef } from "../sessions.ts";
import { blame, type BlameSession } from "../memory/blame.ts";
import { describeSession } from "../memory/last.ts";
import {
  FILTER_OPTIONS,
  harnessOpt,
  hiddenFor,
  hiddenHint,
  JUNK_OPTION,
  sessionJson,
  withStore,
} from "./_memory.ts";

export const blameCmd: CommandSpec = {
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

/**
 * Splits `path:line`. A trailing `:N` is a line number unless the whole
 * argument names an existing file.
 */
export function splitLine(arg: string, cwd: string): { path: string; line?: number } {
  const m = /^(.+):(\d+)$/.exec(arg);
  if (!m || existsSync(resolve(cwd, arg))) return { path: arg };
  return { path: m[1], line: Number(m[2]) };
}

function runBlame(a: Args, io: IO): number {
  const arg = a.positionals[0];
  if (!arg) throw new DejaError("which file? give a path, optionally path:line", undefined, 2);
  const { path, line } = splitLine(arg, io.cwd);
  const harness = harnessOpt(a);
  const limit = intOpt(a, "limit", 10);
  return withStore(io, (store) => {
    const r = blame(store, path, {
      cwd: io.cwd,
      line,
      harness,
      project: opt(a, "project"),
      limit,
      hidden: hiddenFor(store, a, io),
    });
    if (a.values.json) {
      printJson(io, {
        target: r.target,
        match: r.match,
        line: r.line ?? null,
        total: r.total,
        hidden: r.hidden,
        sessions: r.sessions.map((s) => ({
          ...sessionJson(store, s.session),
          last: isoTime(s.last),
          paths: s.paths,
          reads: s.reads,
          edits: s.edits,
          writes: s.writes,
          failed: s.failed,
          line: s.line,
          changes: s.changes.map((c) => ({ ...c, time: isoTime(c.time) })),
        })),
      });
      return r.sessions.length ? 0 : 1;
    }
    if (!r.sessions.length) {
      io.err(`deja: no session touched ${tilde(r.target, io.env.home)}\n`);
      hiddenHint(io, r.hidden);
      return 1;
    }
    const c = colors(io);
    const out: string[] = [
      c.bold(r.match === "exact" ? tilde(r.target, io.env.home) : path) +
      c.dim(`  ${r.match} match, ${r.total} session${r.total === 1 ? "" : "s"}`),
    ];
    if (r.line) {
      out.push(
        c.dim(
          r.line.text === null
            ? `line ${r.line.number}: cannot tell which session wrote it (${r.line.note}); ` +
              "every session that touched the file is listed"
            : `line ${r.line.number}: ${oneLine(r.line.text, 100)}`,
        ),
      );
    }
    for (const s of r.sessions) out.push(...sessionLines(s, store, io, c));
    io.out(out.join("\n") + "\n");
    hiddenHint(io, r.hidden);
    return 0;
  });
}

function sessionLines(
  s: BlameSession,
  store: Parameters<typeof shortRef>[0],
  io: IO,
  c: ReturnType<typeof colors>,
): string[] {
  const counts = [
    s.edits && `${s.edits} edit${s.edits === 1 ? "" : "s"}`,
    s.writes && `${s.writes} write${s.writes === 1 ? "" : "s"}`,
    s.reads && `${s.reads} read${s.reads === 1 ? "" : "s"}`,
    s.failed && `${s.failed} failed`,
  ].filter(Boolean).join(", ");
  const mark = s.line ? c.yellow(`  ${s.line} the line`) : "";
  const lines = [
    "",
    `${c.cyan(shortRef(store, s.session.harness, s.session.native_id))}  ${
      c.bold(s.session.harness)
    }  ${fmtTime(s.last ?? s.session.updated)}  ${tilde(s.session.project, io.env.home)}  ${
      c.dim(counts)
    }${mark}`,
  ];
  const name = describeSession(store, s.session);
  if (name) lines.push(`  ${oneLine(name, 100)}`);
  // The newest three changes; a gist already printed for the change before is not repeated.
  const said = s.changes.filter((x) => x.before || x.after);
  const shown = said.slice(-3);
  let prev = said[said.length - shown.length - 1];
  for (const ch of shown) {
    lines.push(`    ${c.dim(`${ch.op.padEnd(5)} ${fmtTime(ch.time)}`)}`);
    if (ch.before && ch.before !== prev?.before) {
      lines.push(`      before: ${ch.before}`);
    }
    if (ch.after && ch.after !== prev?.after) {
      lines.push(`      after:  ${ch.after}`);
    }
    prev = ch;
  }
  const more = said.length - shown.length;
  if (more > 0) lines.push(c.dim(`    … ${more} earlier change${more === 1 ? "" : "s"} (--json)`));
  return lines;
}
