/**
 * The freshen-on-use step main.ts runs before a command that reads the index:
 * changes read in within the budget, the rest handed to a background run, and
 * one line on stderr when the answer may miss recent work.
 *
 * @module
 */
import type { IO } from "../../core/runtime.ts";
import type { Args } from "./common.ts";
import {
  DEFAULT_BUDGET_MS,
  freshen,
  type Freshness,
  freshnessNote,
  olderRulesLine,
  refreshOff,
} from "../fresh/freshen.ts";
import { DejaError } from "../../core/errors.ts";
import { existsSync } from "node:fs";
import { deletedLine, indexPath, knownDamage, Store } from "../store.ts";
import { olderRedaction } from "../fresh/revised.ts";
import { Q } from "../schema.ts";
import {
  reforgottenLine,
  tombstoneFile,
  TOMBSTONES_KEY,
  tombstonesAgree,
} from "../forget/tombstones.ts";

/**
 * Runs the step for a command's parsed `args` (see the module doc). With no
 * index yet it says nothing: the command's own "no index" error is then
 * reworded by {@link firstRunError}, so the person sees one message. An index
 * deleted while its manifest says it held sessions is said at once, whatever the
 * command does next: the background run started now replaces that manifest.
 */
export async function refreshFor(io: IO, args: Args): Promise<void> {
  if (args.values["no-refresh"] || refreshOff(io.env)) {
    await removeForgottenAgain(io);
    return olderRulesNote(io);
  }
  const f = await freshen(io.env);
  // The time it took varies run to run; scripts get the facts.
  const { ms: _ms, unchecked, ...stable } = f;
  io.freshness = stable;
  // The index was busy for the step (another command writing it): asked here, before the
  // command reads it (trial 133 F1: one of three commands at once after an upgrade showed what
  // older redaction rules let through, and said nothing).
  if (unchecked) return olderRulesNote(io, false);
  if (f.state === "no_index" && f.deleted && f.background) {
    io.err(`deja: ${deletedLine(indexPath(io.env), f.deleted, " in the background now")}\n`);
  }
  // Known damage is said after the command, unless the command met it itself and said so
  // (one message, not two: the run's own names the file).
  if (f.state === "no_index" || f.state === "damaged") return;
  const note = freshnessNote(f);
  if (note) io.err(note + "\n");
}

/**
 * With the refresh off, stores an older secrets redaction read are read again by no command:
 * said, since results may show what those rules let through (trial 132 F2: a search with
 * `DEJA_NO_REFRESH=1` showed such a secret and said nothing). Costs a read of the `sources`
 * table.
 */
function olderRulesNote(io: IO, off = true): void {
  const path = indexPath(io.env);
  if (!existsSync(path) || knownDamage(path)) return;
  let n = 0;
  try {
    const store = Store.open(path, { readOnly: true, busyMs: off ? 200 : 1000 });
    try {
      n = olderRedaction(store);
    } finally {
      store.close();
    }
  } catch {
    return; // an index that cannot be read is the command's to report
  }
  if (!n) return;
  if (!off) {
    io.freshness = { ...io.freshness, redaction: n };
    io.err(olderRulesLine(n, false) + "\n");
    return;
  }
  io.freshness = {
    state: "off",
    read: 0,
    pending: n,
    behind_ms: 0,
    background: false,
    redaction: n,
  };
  io.err(
    `deja: ${n === 1 ? "1 store was" : `${n} stores were`} read under older secret-redaction ` +
      "rules and, with the refresh off, not read again: results may show secrets those rules " +
      "let through ('deja index' reads them again)\n",
  );
}

/**
 * With the refresh off, forgotten sessions the index holds again (it lost the writes that
 * removed them) are still removed before the command reads it, and said: tombstones.jsonl says
 * they are forgotten for good (trial 111 F3). Costs a stat when nothing was ever forgotten, and
 * a read of one row of the index otherwise.
 */
async function removeForgottenAgain(io: IO): Promise<void> {
  const path = indexPath(io.env);
  if (!existsSync(tombstoneFile(path)) || !existsSync(path)) return;
  try {
    const store = Store.open(path, { readOnly: true, busyMs: 200 });
    try {
      if (tombstonesAgree(Q.getMeta.get(store, { key: TOMBSTONES_KEY })?.value, path)) return;
    } finally {
      store.close();
    }
  } catch {
    return; // an index that cannot be read is the command's to report
  }
  const again = (await import("../forget/reapply.ts")).reapplyNow(io.env, DEFAULT_BUDGET_MS);
  if (again) io.err(reforgottenLine(again) + "\n");
}

/** The note on damage found earlier, said after a command that ran without meeting it. */
export function damageAfter(io: IO): void {
  const f = io.freshness as Freshness | undefined;
  if (f?.state === "damaged") io.err(freshnessNote(f) + "\n");
}

/**
 * The error to report instead of `e` when `e` is the index's "no index" error
 * and this command just started a background run that builds it (exit 2): one
 * message, not "building it" followed by "run 'deja index' first".
 */
export function firstRunError(io: IO, e: unknown): unknown {
  if (!(e instanceof DejaError) || !e.message.startsWith("no index at ")) return e;
  const f = io.freshness as Partial<Freshness> | undefined;
  if (f?.state !== "no_index" || !f.background) return e;
  // The deleted index was said by refreshFor, and the new one named as being built.
  if (f.deleted) {
    return new DejaError(
      "nothing to answer from until the new index is built",
      "try again in a minute, or run 'deja index' to build it now with progress",
      2,
    );
  }
  return new DejaError(
    "no index yet: building it in the background now (first run)",
    "try again in a minute, or run 'deja index' to build it now with progress",
    2,
  );
}
