/**
 * `deja resume <id-prefix> [--exec]`: the harness's own command that reopens a session.
 *
 * Parse ({@link parseResume}) → run ({@link resumeData}; `--exec` runs the plan) → render
 * ({@link resumeJson}, {@link resumeNotes}, the command line).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import { printJson } from "./common.ts";
import type { Env } from "../../core/model.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { type ResumePlan, resumePlan } from "../resume.ts";
import type { IO } from "../../core/runtime.ts";
import { displayCommand, runInherit } from "../shell.ts";

export const resumeCmd: CommandSpec = {
  // A session written since the last index is found (trial 100 F5: "no session matches" until
  // another command refreshed the index).
  refresh: true,
  asks: true,
  usage: "resume <id-prefix | harness:id-prefix> [--exec] [--json]",
  maxPositionals: 1,
  options: {
    exec: {
      type: "boolean",
      description: "run it now (in the project directory) instead of printing it",
    },
    json: { type: "boolean", description: "print the plan as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runResume(a, io)),
};

/** What `deja resume` was asked. */
export interface ResumeArgs {
  /** A session id or its first characters, optionally `harness:`-prefixed. */
  ref: string;
  /** Run the command instead of printing it. */
  exec: boolean;
  json: boolean;
}

/** The plan and the one line a person can paste to run it. */
export interface ResumeData {
  plan: ResumePlan;
  /** The command as one POSIX shell line, `cd` first when the plan has a directory. */
  command: string;
}

/**
 * Reads `deja resume`'s arguments.
 *
 * @throws {DejaError} exit 2 when no session is named.
 */
export function parseResume(a: Args): ResumeArgs {
  const ref = a.positionals[0];
  if (!ref) {
    throw new DejaError(
      "which session? give an id or its first characters",
      "'deja last --project .' lists this project's sessions with their ids",
      2,
    );
  }
  return { ref, exec: Boolean(a.values.exec), json: Boolean(a.values.json) };
}

/**
 * The command that reopens the session `ref` names, from the index at `env`.
 *
 * @throws {DejaError} without an index, and as `resumePlan` does (lib/resume.ts).
 */
export function resumeData(env: Env, ref: string): ResumeData {
  const store = Store.open(indexPath(env));
  try {
    const plan = resumePlan(store, ref, env);
    return { plan, command: displayCommand(plan.argv, plan.cwd, plan.env) };
  } finally {
    store.close();
  }
}

/** The `--json` document (docs/json-output.md, `resume`). */
export function resumeJson(d: ResumeData): Record<string, unknown> {
  const { remote, note, needsCwd, env, ...rest } = d.plan;
  return {
    ...rest,
    env: env ?? {},
    command: d.command,
    note: note ?? null,
    needs_cwd: needsCwd ?? false,
    host: remote?.host ?? null,
    remote_cwd: remote?.cwd ?? null,
    clone: remote?.clone ?? null,
  };
}

/**
 * What stderr says before the command: a subagent's parent, where a remote's session reopens,
 * a project directory deja cannot give.
 */
export function resumeNotes(p: ResumePlan): string {
  const out: string[] = [];
  if (p.id !== p.asked) out.push(`deja: ${p.asked} is a subagent; resuming its parent\n`);
  if (p.note) out.push(`deja: ${p.note}\n`);
  const r = p.remote;
  if (r) {
    out.push(`deja: this session ran on ${p.origin} (${r.host}); resume it there:\n`);
    if (r.clone) {
      out.push(
        `hint: its project is cloned here (${r.clone}), but the session itself stays on ${p.origin}; ` +
          `'deja handoff --to <harness> ${p.origin}:${
            p.id.slice(0, 8)
          }' carries the work over here\n`,
      );
    }
  }
  return out.join("");
}

function runResume(a: Args, io: IO): number {
  const args = parseResume(a);
  const d = resumeData(io.env, args.ref);
  if (args.json) {
    printJson(io, resumeJson(d));
    return 0;
  }
  if (args.exec) {
    if (d.plan.needsCwd) {
      throw new DejaError(
        d.plan.note ?? "this session's project directory is not known",
        `without --exec deja prints the command: run it from the project directory`,
        2,
      );
    }
  }
  // The notes (a subagent's parent, a remote, a folder Claude Code looks in) are said before
  // the command runs as before it is printed.
  const notes = resumeNotes(d.plan);
  if (notes) io.err(notes);
  if (args.exec) return runInherit(d.plan.argv, d.plan.cwd ?? io.cwd, d.plan.env);
  io.out(d.command + "\n");
  return 0;
}
