/**
 * `deja handoff --to <harness> [id-prefix]`: start another harness with this session's context.
 *
 * Parse ({@link parseHandoff}) → run ({@link handoffData}; starting the harness is the last
 * step) → render ({@link handoffJson}, {@link pasteNote}, {@link startingNote}).
 *
 * @module
 */
import { olderRedaction } from "../fresh/revised.ts";
import type { Args, CommandSpec } from "./common.ts";
import { opt, printJson } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { byteLength } from "../../core/text.ts";
import { indexPath, Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { type HandoffPlan, handoffPlan } from "../handoff.ts";
import { harnessFacts } from "../../core/registry.ts";
import { findTarget } from "../install/facts.ts";
import { displayCommand, runInherit } from "../shell.ts";

export const handoffCmd: CommandSpec = {
  refresh: true,
  usage: "handoff --to <harness> [id-prefix] | handoff [id-prefix] --print [--json]",
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
  run: (a, io) => Promise.resolve(runHandoff(a, io)),
};

/** What `deja handoff` was asked. */
export interface HandoffArgs {
  /**
   * The target: a registry id, or what `--to` said when it names no harness or install target;
   * null without `--to` (`--print` and `--json` need none: the packet is the same for any).
   */
  to: string | null;
  /** The session to hand off; the newest of the current project when absent. */
  ref?: string;
  /** Print the packet instead of starting the harness. */
  print: boolean;
  json: boolean;
}

/**
 * Reads `deja handoff`'s arguments; `--to` may name an install target (its harness is meant).
 *
 * @throws {DejaError} exit 2 without `--to`, unless `--print` or `--json` (which start nothing).
 */
export function parseHandoff(a: Args): HandoffArgs {
  const raw = opt(a, "to");
  if (!raw && !a.values.print && !a.values.json) {
    throw new DejaError(
      "--to <harness> is required to start one",
      "e.g. deja handoff --to crush; or deja handoff --print for the text to paste anywhere",
      2,
    );
  }
  return {
    to: !raw ? null : harnessFacts(raw) ? raw : findTarget(raw)?.harness.harness ?? raw,
    ref: a.positionals[0],
    print: Boolean(a.values.print),
    json: Boolean(a.values.json),
  };
}

/**
 * The handoff plan: the packet, and the argv that starts the target with it.
 *
 * @throws {DejaError} without an index, and as `handoffPlan` does (lib/handoff.ts).
 */
export function handoffData(args: HandoffArgs, io: Pick<IO, "env" | "cwd">): HandoffPlan {
  const store = Store.open(indexPath(io.env));
  try {
    // A harness started with the digest is an agent given it: nothing older secret-redaction
    // rules wrote goes into its prompt (trial 135 F1, High: during the re-read after an upgrade
    // `handoff --to codex` started it with 10 secrets in clear). `--print` and `--json` are the
    // person's to read, with the warning every command gives then.
    const older = !args.print && !args.json ? olderRedaction(store) : 0;
    if (older) {
      throw new DejaError(
        `deja is reading ${
          older === 1 ? "1 store" : `${older} stores`
        } of its history again under new secret-redaction rules: no session is handed to an ` +
          "agent until then",
        "try again in a minute, or run 'deja index' to finish it now",
        2,
      );
    }
    return handoffPlan(store, args.to, args.ref, io.cwd, io.env.home);
  } finally {
    store.close();
  }
}

/** The `--json` document (docs/json-output.md, `handoff`). */
export function handoffJson(plan: HandoffPlan): Record<string, unknown> {
  return {
    from: { harness: plan.from.harness, id: plan.from.native_id, project: plan.from.project },
    to: plan.to,
    mode: plan.mode,
    cwd: plan.cwd,
    argv: plan.argv,
    packet: plan.packet,
    bytes: byteLength(plan.packet),
    project_here: Boolean(plan.from.project) && !awayFrom(plan),
  };
}

/** What stderr says when the target cannot take the packet as a prompt. */
export function pasteNote(plan: HandoffPlan): string {
  const to = plan.to ?? "the target";
  return `deja: ${
    harnessFacts(to)?.displayName ?? to
  } cannot be started with a prompt: paste the text above into it\n`;
}

/**
 * What stderr says before the target starts: its command, the packet named by its size, and
 * when the session's project is not on this machine, that it starts here instead (trial 42:
 * it started in the current directory and said nothing, the digest's paths being the
 * project's).
 */
export function startingNote(plan: HandoffPlan, argv: string[]): string {
  const bytes = byteLength(plan.packet);
  const shown = argv.map((a) => (a === plan.packet ? `<${bytes}-byte digest>` : a));
  const away = awayFrom(plan) ? `${awayNote(plan)}: starting in ${plan.cwd}\n` : "";
  return `${away}deja: starting ${displayCommand(shown, plan.cwd)}\n`;
}

/** Whether the session's project is not on this machine (the plan's `cwd` is another). */
function awayFrom(plan: HandoffPlan): boolean {
  return Boolean(plan.from.project) && plan.cwd !== plan.from.project;
}

function awayNote(plan: HandoffPlan): string {
  return `deja: the session's project ${plan.from.project} is not on this machine`;
}

function runHandoff(a: Args, io: IO): number {
  const args = parseHandoff(a);
  const plan = handoffData(args, io);
  if (args.json) {
    printJson(io, handoffJson(plan));
    return 0;
  }
  if (plan.mode === "paste" || args.print || !plan.argv) {
    io.out(plan.packet.endsWith("\n") ? plan.packet : plan.packet + "\n");
    // Printed to paste: where it goes is the person's to choose, the project's absence is said
    // all the same (trial 43: only the start of a target said it).
    if (awayFrom(plan)) io.err(`${awayNote(plan)}: its paths are that project's\n`);
    if (plan.mode === "paste" && plan.to !== null) io.err(pasteNote(plan));
    return 0;
  }
  io.err(startingNote(plan, plan.argv));
  return runInherit(plan.argv, plan.cwd);
}
