/** `deja handoff --to <harness> [id-prefix]`: start another harness with this session's context. */
import type { CommandSpec } from "./common.ts";
import { opt, printJson } from "./common.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { handoffPlan } from "../handoff.ts";
import { harnessFacts } from "../../core/registry.ts";
import { findTarget } from "../install/facts.ts";
import { displayCommand, runInherit } from "../shell.ts";

export const handoffCmd: CommandSpec = {
  usage: "handoff --to <harness> [id-prefix] [--print] [--json]",
  maxPositionals: 1,
  options: {
    to: {
      type: "string",
      value: "<harness>",
      description: "the harness to continue in (crush, claude, ...)",
    },
    print: { type: "boolean", description: "print the packet instead of starting the harness" },
    json: {
      type: "boolean",
      description: "print the plan as JSON, start nothing (docs/json-output.md)",
    },
  },
  run(a, io) {
    const raw = opt(a, "to");
    if (!raw) throw new DejaError("--to <harness> is required", "e.g. deja handoff --to crush", 2);
    const to = harnessFacts(raw) ? raw : findTarget(raw)?.harness.harness ?? raw;
    const store = Store.open(indexPath(io.env));
    let plan;
    try {
      plan = handoffPlan(store, to, a.positionals[0], io.cwd, io.env.home);
    } finally {
      store.close();
    }
    if (a.values.json) {
      printJson(io, {
        from: { harness: plan.from.harness, id: plan.from.native_id, project: plan.from.project },
        to: plan.to,
        mode: plan.mode,
        cwd: plan.cwd,
        argv: plan.argv,
        packet: plan.packet,
        bytes: new TextEncoder().encode(plan.packet).length,
      });
      return Promise.resolve(0);
    }
    if (plan.mode === "paste" || a.values.print || !plan.argv) {
      io.out(plan.packet.endsWith("\n") ? plan.packet : plan.packet + "\n");
      if (plan.mode === "paste") {
        io.err(
          `deja: ${
            harnessFacts(to)?.displayName ?? to
          } cannot be started with a prompt: paste the text above into it\n`,
        );
      }
      return Promise.resolve(0);
    }
    const bytes = new TextEncoder().encode(plan.packet).length;
    const shown = plan.argv.map((a) => (a === plan.packet ? `<${bytes}-byte digest>` : a));
    io.err(`deja: starting ${displayCommand(shown, plan.cwd)}\n`);
    return Promise.resolve(runInherit(plan.argv, plan.cwd));
  },
};
