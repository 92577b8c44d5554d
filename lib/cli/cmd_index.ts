/** `deja index`: read every harness's stores into the index. */
import type { Command } from "./common.ts";
import { colors, intOpt, printJson } from "./common.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { indexPath } from "../store.ts";
import { harnessOpt } from "./_memory.ts";
import { CR, csi } from "./output.ts";

export const indexCmd: Command = {
  name: "index",
  summary: "Read the session stores of every harness into the index (only what changed).",
  usage: "index [--rebuild] [--quiet] [--harness <id>] [--json]",
  maxPositionals: 0,
  options: {
    rebuild: { type: "boolean", description: "start a new index from scratch" },
    quiet: { type: "boolean", short: "q", description: "print nothing unless something failed" },
    harness: {
      type: "string",
      value: "<id>",
      description: "only this harness (repeatable)",
      multiple: true,
    },
    wait: {
      type: "string",
      value: "<seconds>",
      description: "wait this long for another running index",
    },
    json: { type: "boolean", description: "print the summary as JSON" },
  },
  async run(a, io) {
    const only = harnessOpt(a);
    const waitMs = a.values.wait === undefined ? 0 : intOpt(a, "wait", 1) * 1000;
    const tty = io.errTTY && !a.values.quiet && !a.values.json;
    const res = await runIndex(io.env, parsers, {
      rebuild: Boolean(a.values.rebuild),
      only,
      waitMs,
      progress: tty ? (line) => io.err(`${CR}${csi("2K")}indexing ${line}`) : undefined,
    });
    if (tty) io.err(`${CR}${csi("2K")}`);
    const failed = res.harnesses.some((h) => h.errors.length);
    if (a.values.json) {
      printJson(io, { index: indexPath(io.env), ms: Math.round(res.ms), harnesses: res.harnesses });
      return 0;
    }
    if (a.values.quiet && !failed) return 0;
    const c = colors(io);
    const lines: string[] = [];
    let absent = 0;
    for (const h of res.harnesses) {
      if (a.values.quiet && !h.errors.length) continue;
      // A harness with no store on this machine is one line at the end, not a row of zeros.
      if (!h.found && !h.errors.length) {
        absent++;
        continue;
      }
      const skipped = Object.entries(h.skipped).map(([k, v]) => `${v} ${k}`).join(", ");
      const drift = Object.values(h.drift).reduce((n, v) => n + (v ?? 0), 0);
      lines.push(
        `${c.bold(h.harness.padEnd(13))} ${String(h.found).padStart(4)} stores, ${
          String(h.read).padStart(4)
        } read, ${String(h.sessions).padStart(5)} sessions, ${String(h.events).padStart(7)} events${
          skipped ? c.yellow(`, skipped: ${skipped}`) : ""
        }${drift ? c.yellow(`, ${drift} unknown to deja (see 'deja drift')`) : ""}`,
      );
      for (const e of h.errors.slice(0, 5)) lines.push(c.red(`              error: ${e}`));
      if (h.errors.length > 5) {
        lines.push(c.red(`              … ${h.errors.length - 5} more errors`));
      }
    }
    if (absent) {
      lines.push(
        c.dim(
          `${absent} other harnesses have no store here ('deja sources' lists where deja looked)`,
        ),
      );
    }
    lines.push(c.dim(`indexed in ${(res.ms / 1000).toFixed(2)} s -> ${indexPath(io.env)}`));
    io.out(lines.join("\n") + "\n");
    return 0;
  },
};
