/**
 * `deja how <tool>`: the real invocations, those run in the project here first (the
 * indexed project the working directory is in, lib/memory/how.ts `enclosingProject`),
 * then those run elsewhere, each group most widely used first and labelled. Outside
 * every indexed project (or with `--project`) one list, and stderr says why.
 *
 * Parse ({@link parseHow}) → run ({@link howData}) → render ({@link howJson}, {@link howText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtSessionTime, intOpt, isoTime, namedWords, printJson } from "./common.ts";
import { cutNote } from "../query.ts";
import { commandLines, oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import type { Store } from "../store.ts";
import { enclosingProject, type HowResult, howRuns, runsStatus } from "../memory/how.ts";
import { filteredText, filtersUsed } from "./_filtered.ts";
import {
  hiddenHint,
  hiddenOf,
  JUNK_OPTION,
  parseFilter,
  type SessionFilter,
  withStore,
} from "./_memory.ts";

export const howCmd: CommandSpec = {
  dashWords: true,
  asks: true,
  refresh: true,
  words: true,
  usage: "how <tool words...> [--project <text>] [--junk] [--limit N] [--json]",
  options: {
    project: {
      type: "string",
      value: "<text>",
      description: "only projects whose path contains this (., ../x: from the current directory)",
    },
    ...JUNK_OPTION,
    limit: { type: "string", value: "<n>", description: "commands to show (default 8)" },
    json: { type: "boolean", description: "print the commands as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runHow(a, io)),
};

/** What `deja how` was asked. */
export interface HowArgs {
  /** The words typed (a "quoted phrase" kept as typed). */
  what: string;
  /** `--project` and `--junk` (how takes no `--harness` or `--from`). */
  filter: SessionFilter;
  /** Most commands to show. */
  limit: number;
  json: boolean;
}

/**
 * Reads `deja how`'s arguments.
 *
 * @throws {DejaError} when no words are given or --limit is not a positive number.
 */
export function parseHow(a: Args): HowArgs {
  const what = a.positionals.join(" ").trim();
  if (!what) throw new DejaError("how to run what? give a tool name", "deja how docker build");
  return {
    what,
    filter: parseFilter(a),
    limit: intOpt(a, "limit", 8),
    json: Boolean(a.values.json),
  };
}

/**
 * The distinct commands that hold every word, by number of sessions: without `--project`,
 * those run in the project the working directory is in first.
 */
export function howData(store: Store, args: HowArgs, io: Pick<IO, "env" | "cwd">): HowResult {
  const here = args.filter.project === undefined
    ? enclosingProject(store, io.cwd, io.env.home)
    : undefined;
  return howRuns(store, args.what, {
    project: args.filter.project,
    limit: args.limit,
    hidden: hiddenOf(store, args.filter, io),
    ...(here === undefined ? {} : { here }),
  });
}

/** The `--json` document (docs/json-output.md, `how`). */
export function howJson(r: HowResult): Record<string, unknown> {
  return {
    words: r.words,
    total: r.total,
    hidden: r.hidden,
    // The project whose commands come first (`commands[].here`); null outside every one.
    project_here: r.here ?? null,
    total_here: r.totalHere,
    // Snake_case like every other document (docs/json-output.md): `last_exit` alone.
    // `harness`, `session`, `short_id`: the session of the latest run (`deja show` takes the id).
    commands: r.commands.map((
      { latest, timeFromFile, lastExit, lastStatus, noResult, person, lastByPerson, ...c },
    ) => ({
      ...c,
      last: isoTime(c.last),
      time_from_file: timeFromFile,
      last_exit: lastExit,
      last_status: lastStatus,
      no_result: noResult,
      // trial 103 F9: runs the person made in a harness's `!` shell mode (no exit recorded).
      person_runs: person,
      last_by_person: lastByPerson,
      harness: latest.harness,
      session: latest.session,
      short_id: latest.ref,
    })),
    // No command ran: the calls holding the words that never did (refused, denied, cancelled).
    ...(r.notRun
      ? {
        not_run: r.notRun.map((n) => ({
          command: n.command,
          harness: n.harness,
          session: n.session,
          short_id: n.ref,
        })),
      }
      : {}),
  };
}

/**
 * The commands as text, each with its runs and outcomes (colour on a terminal); with a
 * project here, its commands under `In <project>:` and the rest under `Elsewhere:`.
 */
export function howText(r: HowResult, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const out: string[] = [];
  let group = "";
  for (const h of r.commands) {
    const label = !r.here
      ? ""
      : h.here
      ? `In ${tilde(r.here, io.env.home)}:`
      : r.totalHere
      ? "Elsewhere:"
      : `Elsewhere (none ran in ${tilde(r.here, io.env.home)}):`;
    if (label !== group) out.push(c.bold(label));
    group = label;
    // The person's own runs (`!` shell mode) said as theirs, no exit recorded (trial 103 F9).
    const mix = runsStatus(h, "you", (t, o) => o === "failed" ? c.red(t) : t, c.dim);
    // Calls none of which got a result were made, not run (trial 103 F7: "ran 1 time … runs:
    // 1 exit unknown" of a call that never finished).
    const verb = h.noResult === h.runs ? "called" : "ran";
    out.push(
      ...commandLines(h.text, 160).map((l) => c.bold(l)),
      c.dim(
        `  ${verb} ${h.runs} time${h.runs === 1 ? "" : "s"} in ${h.sessions} session${
          h.sessions === 1 ? "" : "s"
        }, last ${fmtSessionTime(h.last, h)} in `,
      ) + c.cyan(h.latest.ref) + c.dim("; runs: ") + mix,
    );
  }
  if (r.total > r.commands.length) {
    const hereLeft = r.totalHere - r.commands.filter((h) => h.here).length;
    const of = hereLeft ? `, ${hereLeft} of them in ${tilde(r.here!, io.env.home)}` : "";
    out.push(c.dim(`… ${r.total - r.commands.length} more (--limit${of})`));
  }
  return out.join("\n") + "\n";
}

function runHow(a: Args, io: IO): number {
  const args = parseHow(a);
  const filters = filtersUsed(args.filter);
  const [r, without] = withStore(io, (store) => {
    const r = howData(store, args, io);
    // Nothing under --project: how many commands the words find without it.
    if (r.commands.length || !filters.length) return [r, 0] as const;
    const all = howData(store, { ...args, filter: { ...args.filter, project: undefined } }, io);
    return [r, all.total] as const;
  });
  const cut = cutNote(r.cut);
  if (cut && !args.json) io.err(`deja: ${cut}\n`);
  if (args.json) {
    printJson(io, howJson(r));
    return r.commands.length ? 0 : 1;
  }
  if (!r.commands.length) {
    // Not "no command": when hidden sessions hold one, say so (as `fix` does); the hint
    // below counts them and names --junk.
    // Words with nothing to search (`deja how '%'`, trial 61: "no command holds " and nothing).
    const head = !r.words.length
      ? `deja: nothing to look for: '${args.what}' holds no word`
      : r.hidden
      ? `deja: only hidden sessions hold a command with ${namedWords(r.shown)}`
      : `deja: no command holds ${namedWords(r.shown)}`;
    io.err(filteredText(head, { filters, without }, "command"));
    // Calls that hold the words but never ran: said, not left as "no command" (trial 15).
    for (const n of r.notRun ?? []) {
      io.err(
        `  never ran (refused, denied or cancelled): ${
          oneLine(n.command, 120)
        } in ${n.ref} ${n.harness}\n`,
      );
    }
    hiddenHint(io, r.hidden);
    return 1;
  }
  io.out(howText(r, io));
  if (!r.here && !filters.length) {
    io.err(
      `deja: ${tilde(io.cwd, io.env.home)} is in no indexed project: commands from every project\n`,
    );
  }
  hiddenHint(io, r.hidden);
  return 0;
}
