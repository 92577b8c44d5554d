/** `deja how <tool>`: the real invocations run here, most widely used first. */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, opt, printJson } from "./common.ts";
import { oneLine } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { howRuns } from "../memory/how.ts";
import { outcomeMix } from "../memory/outcome.ts";
import { hiddenFor, hiddenHint, JUNK_OPTION, withStore } from "./_memory.ts";

export const howCmd: CommandSpec = {
  refresh: true,
  usage: "how <tool words...> [--project <text>] [--junk] [--limit N] [--json]",
  options: {
    project: {
      type: "string",
      value: "<text>",
      description: "only projects whose path contains this",
    },
    ...JUNK_OPTION,
    limit: { type: "string", value: "<n>", description: "commands to show (default 8)" },
    json: { type: "boolean", description: "print the commands as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runHow(a, io)),
};

function runHow(a: Args, io: IO): number {
  const what = a.positionals.join(" ").trim();
  if (!what) throw new DejaError("how to run what? give a tool name", "deja how docker build");
  const limit = intOpt(a, "limit", 8);
  return withStore(io, (store) => {
    const r = howRuns(store, what, {
      project: opt(a, "project"),
      limit,
      hidden: hiddenFor(store, a, io),
    });
    if (a.values.json) {
      printJson(io, {
        words: r.words,
        total: r.total,
        hidden: r.hidden,
        commands: r.commands.map((c) => ({ ...c, last: isoTime(c.last) })),
      });
      return r.commands.length ? 0 : 1;
    }
    if (!r.commands.length) {
      io.err(`deja: no command run here holds ${r.words.map((w) => `'${w}'`).join(" and ")}\n`);
      hiddenHint(io, r.hidden);
      return 1;
    }
    const c = colors(io);
    const out: string[] = [];
    for (const h of r.commands) {
      const mix = outcomeMix(h, (t, o) => o === "failed" ? c.red(t) : t);
      out.push(
        c.bold(oneLine(h.command, 160)),
        c.dim(
          `  ran ${h.runs} time${h.runs === 1 ? "" : "s"} in ${h.sessions} session${
            h.sessions === 1 ? "" : "s"
          }, last ${fmtTime(h.last)}; runs: `,
        ) + mix,
      );
    }
    if (r.total > r.commands.length) {
      out.push(c.dim(`… ${r.total - r.commands.length} more (--limit)`));
    }
    io.out(out.join("\n") + "\n");
    hiddenHint(io, r.hidden);
    return 0;
  });
}
