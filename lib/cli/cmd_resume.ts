/** `deja resume <id-prefix> [--exec]`: the harness's own command that reopens a session. */
import type { Command } from "./common.ts";
import { printJson } from "./common.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { resumePlan } from "../resume.ts";
import { displayCommand, runInherit } from "../shell.ts";

export const resumeCmd: Command = {
  name: "resume",
  summary: "Print (or run) the harness's own command that reopens a session, in its project.",
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
      plan = resumePlan(store, ref);
    } finally {
      store.close();
    }
    const line = displayCommand(plan.argv, plan.cwd);
    if (a.values.json) {
      printJson(io, { ...plan, command: line });
      return Promise.resolve(0);
    }
    if (!a.values.exec) {
      if (plan.id !== plan.asked) {
        io.err(`deja: ${plan.asked} is a subagent; resuming its parent\n`);
      }
      io.out(line + "\n");
      return Promise.resolve(0);
    }
    return Promise.resolve(runInherit(plan.argv, plan.cwd ?? io.cwd));
  },
};
