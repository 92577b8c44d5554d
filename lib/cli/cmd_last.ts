/** `deja last [n]`: the most recent sessions. */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, opt, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { shortRef } from "../sessions.ts";
import { lastSessions } from "../memory/last.ts";
import {
  FILTER_OPTIONS,
  harnessOpt,
  hiddenFor,
  hiddenHint,
  JUNK_OPTION,
  sessionJson,
  withStore,
} from "./_memory.ts";

export const lastCmd: CommandSpec = {
  refresh: true,
  usage: "last [n] [--harness <id>] [--project <text>] [--junk] [--json]",
  maxPositionals: 1,
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    json: { type: "boolean", description: "print the sessions as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runLast(a, io)),
};

function runLast(a: Args, io: IO): number {
  const nText = a.positionals[0];
  const n = nText === undefined ? 10 : Number(nText);
  if (!Number.isInteger(n) || n <= 0) {
    throw new DejaError(`last takes a positive whole number, not '${nText}'`, "deja last 20");
  }
  const harness = harnessOpt(a);
  return withStore(io, (store) => {
    const { sessions: rows, hidden } = lastSessions(store, {
      limit: n,
      harness,
      project: opt(a, "project"),
      hidden: hiddenFor(store, a, io),
    });
    if (a.values.json) {
      printJson(io, {
        sessions: rows.map((s) => ({
          ...sessionJson(store, s),
          model: s.model,
          events: s.events,
          description: s.description,
        })),
        hidden,
      });
      return rows.length ? 0 : 1;
    }
    if (!rows.length) {
      io.err("deja: no session in the index matches\n");
      hiddenHint(io, hidden);
      return 1;
    }
    const c = colors(io);
    const out: string[] = [];
    for (const s of rows) {
      out.push(
        `${c.cyan(shortRef(store, s.harness, s.native_id))}  ${c.bold(s.harness)}  ${
          fmtTime(s.updated ?? s.started)
        }  ${tilde(s.project, io.env.home)}  ${c.dim(`${s.events} events`)}`,
      );
      if (s.description) out.push(`  ${oneLine(s.description, 100)}`);
    }
    io.out(out.join("\n") + "\n");
    hiddenHint(io, hidden);
    return 0;
  });
}
