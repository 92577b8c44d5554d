/** `deja ctx <query | id-prefix>`: a Markdown digest of the best session, to paste into a prompt. */
import type { Args, CommandSpec } from "./common.ts";
import { intOpt, isoTime, opt, printJson, quoteShown } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { CTX_BUDGET, sessionDigest } from "../memory/digest.ts";
import { pickSession } from "../memory/pick.ts";
import {
  FILTER_OPTIONS,
  harnessOpt,
  hiddenHint,
  JUNK_OPTION,
  sessionJson,
  withStore,
} from "./_memory.ts";
import { searchHiding } from "../search/sessions.ts";

export const ctxCmd: CommandSpec = {
  refresh: true,
  usage:
    "ctx <query... | id-prefix> [--budget <bytes>] [--harness <id>] [--project <text>] [--junk] [--json]",
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    budget: {
      type: "string",
      value: "<bytes>",
      description: `largest digest in bytes (default ${CTX_BUDGET}, at least 256)`,
    },
    json: { type: "boolean", description: "print the digest and its parts as JSON" },
  },
  run: (a, io) => Promise.resolve(runCtx(a, io)),
};

function runCtx(a: Args, io: IO): number {
  const arg = a.positionals.join(" ").trim();
  if (!arg) {
    throw new DejaError("no query or session id given", 'try: deja ctx "what you remember"');
  }
  const harness = harnessOpt(a);
  const budget = intOpt(a, "budget", CTX_BUDGET);
  return withStore(io, (store) => {
    // A search hides what search hides (the one rule, lib/search/sessions.ts); an id is shown.
    const missed = { hidden: 0 };
    const picked = pickSession(store, arg, {
      harness,
      project: opt(a, "project"),
      ...searchHiding({ env: io.env, junk: Boolean(a.values.junk), here: io.cwd }),
    }, missed);
    if (!picked) {
      if (a.values.json) {
        printJson(io, { query: arg, via: null, session: null, hidden: missed.hidden });
      } else {
        io.err(`deja: nothing matched ${quoteShown(arg)}\n`);
        hiddenHint(io, missed.hidden);
      }
      return 1;
    }
    const d = sessionDigest(store, picked.session.id, {
      query: picked.via === "search" ? arg : undefined,
      budgetBytes: budget,
      home: io.env.home,
    });
    if (a.values.json) {
      printJson(io, {
        query: arg,
        via: picked.via,
        tier: picked.tier ?? null,
        session: sessionJson(store, d.session),
        budget: Math.max(256, budget),
        bytes: d.bytes,
        truncated: d.truncated,
        markdown: d.markdown,
        problem: d.problem,
        decisions: d.decisions,
        commands: d.commands.map((c) => ({ ...c, time: isoTime(c.time) })),
        files: d.files,
        outcome: d.outcome,
      });
      return 0;
    }
    io.out(d.markdown);
    return 0;
  });
}
