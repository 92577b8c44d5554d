/** `deja fix "<error text>"`: what ran after the same error before, where it did not come back. */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { shortRef } from "../sessions.ts";
import { findFixes } from "../memory/fix.ts";
import { withStore } from "./_memory.ts";

/** Largest error text read from stdin: 1 MiB. */
const STDIN_MAX = 1 << 20;

export const fixCmd: CommandSpec = {
  refresh: true,
  usage: 'fix "<error text>" | fix - (reads stdin) [--limit N] [--json]',
  options: {
    limit: { type: "string", value: "<n>", description: "commands to show (default 3)" },
    json: { type: "boolean", description: "print the answer as JSON (docs/json-output.md)" },
  },
  run: runFix,
};

async function runFix(a: Args, io: IO): Promise<number> {
  let text = a.positionals.join(" ");
  if (text.trim() === "-") text = await io.readStdin(STDIN_MAX, 10_000);
  if (!text.trim()) {
    throw new DejaError(
      "no error text given",
      'deja fix "<error line>", or pipe it: … | deja fix -',
    );
  }
  const limit = intOpt(a, "limit", 3);
  return withStore(io, (store) => {
    const r = findFixes(store, text, { limit });
    const ref = (harness: string, id: string) => shortRef(store, harness, id);
    if (a.values.json) {
      printJson(io, {
        status: r.status,
        message: r.message,
        signatures: r.signatures,
        seen: r.seen,
        fixes: r.fixes.map((f) => ({
          command: f.command,
          sessions: f.sessions,
          succeeded: f.succeeded,
          retry: f.retry,
          last: isoTime(f.last),
          examples: f.examples.map((e) => ({
            harness: e.harness,
            session: e.session,
            short_id: ref(e.harness, e.session),
            time: isoTime(e.time),
            failed: e.failed,
            then: e.then,
            edited: e.edited,
          })),
        })),
      });
      return r.status === "found" ? 0 : 1;
    }
    const c = colors(io);
    if (r.status !== "found") {
      io.out(`${r.message}\n`);
      if (r.signatures.length) io.out(c.dim(`looked for: ${r.signatures.join(" | ")}\n`));
      return 1;
    }
    const out = [r.message];
    for (const f of r.fixes) {
      out.push(
        "",
        `  ${c.bold(oneLine(f.command, 140))}`,
        c.dim(
          `    ${f.sessions} session${
            f.sessions === 1 ? "" : "s"
          }, succeeded ${f.succeeded}/${f.sessions}, last ${fmtTime(f.last)}${
            f.retry ? ", the same command run again" : ""
          }`,
        ),
      );
      for (const e of f.examples) {
        out.push(
          `    after ${c.red(oneLine(e.failed, 80))} failed in ${
            c.cyan(ref(e.harness, e.session))
          } ${e.harness}`,
        );
        if (e.edited.length) {
          out.push(`      edited ${e.edited.map((p) => tilde(p, io.env.home)).join(", ")}`);
        }
      }
    }
    io.out(out.join("\n") + "\n");
    return 0;
  });
}
