/** `deja resume <id-prefix> [--exec]`: the harness's own command that reopens a session. */
import type { CommandSpec } from "./common.ts";
import { printJson } from "./common.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { type ResumePlan, resumePlan } from "../resume.ts";
import type { IO } from "../../core/runtime.ts";
import { displayCommand, runInherit } from "../shell.ts";

export const resumeCmd: CommandSpec = {
  usage: "resume <id-prefix | harness:id-prefix> [--exec] [--json]",
  maxPositionals: 1,
  options: {
    exec: {
      type: "boolean",
      description: "run it now (in the project directory) instead of printing it",
    },
    json: { type: "boolean", description: "print the plan as JSON (docs/json-output.md)" },
  },
  run(a, io) {
    const ref = a.positionals[0];
    if (!ref) {
      throw new DejaError("which session? give an id or its first characters", undefined, 2);
    }
    const store = Store.open(indexPath(io.env));
    let plan;
    try {
      plan = resumePlan(store, ref, io.env);
    } finally {
      store.close();
    }
    const line = displayCommand(plan.argv, plan.cwd);
    if (a.values.json) {
      const { remote, ...rest } = plan;
      printJson(io, {
        ...rest,
        command: line,
        host: remote?.host ?? null,
        remote_cwd: remote?.cwd ?? null,
        clone: remote?.clone ?? null,
      });
      return Promise.resolve(0);
    }
    if (!a.values.exec) {
      if (plan.id !== plan.asked) {
        io.err(`deja: ${plan.asked} is a subagent; resuming its parent\n`);
      }
      if (plan.remote) remoteNote(io, plan, plan.remote);
      io.out(line + "\n");
      return Promise.resolve(0);
    }
    return Promise.resolve(runInherit(plan.argv, plan.cwd ?? io.cwd));
  },
};

/** Where a remote's session reopens, and the clone here when there is one (stderr). */
function remoteNote(io: IO, p: ResumePlan, r: NonNullable<ResumePlan["remote"]>): void {
  io.err(`deja: this session ran on ${p.origin} (${r.host}); resume it there:\n`);
  if (r.clone) {
    io.err(
      `hint: its project is cloned here (${r.clone}), but the session itself stays on ${p.origin}; ` +
        `'deja handoff --to <harness> ${p.origin}:${
          p.id.slice(0, 8)
        }' carries the work over here\n`,
    );
  }
}
