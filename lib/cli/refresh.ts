/**
 * The freshen-on-use step main.ts runs before a command that reads the index:
 * changes read in within the budget, the rest handed to a background run, and
 * one line on stderr when the answer may miss recent work.
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import type { Args } from "./common.ts";
import { freshen, freshnessNote, refreshOff } from "../fresh/freshen.ts";

/** Runs the step for a command's parsed `args` (see the module doc). */
export async function refreshFor(io: IO, args: Args): Promise<void> {
  if (args.values["no-refresh"] || refreshOff(io.env)) return;
  const f = await freshen(io.env);
  const { ms: _ms, ...stable } = f; // the time it took varies run to run; scripts get the facts
  io.freshness = stable;
  const note = freshnessNote(f);
  if (note) io.err(note + "\n");
}
