/**
 * What a session's tool calls and results say of how each run went, per
 * event: a shell call's from its command row, any other call's and every
 * result's from the result's status (`events.data` `{exit, isError, notRun?}`),
 * judged by lib/memory/outcome.ts. `deja show` prints it beside each call and
 * result, and the view marks the same events with the same words (trial 112
 * F1: the view marked only shell commands, so a Read whose result was an
 * error looked like a success there while `show` said `failed`).
 *
 * @module
 */
import type { CommandAtRow, EventRow } from "../rows.ts";
import {
  BY_OUTPUT,
  exitOf,
  type Outcome,
  outcomeOf,
  runEnd,
  runFacts,
  statusOwner,
} from "./outcome.ts";

/** What is said of a call or result: its exit, failed, or (`not_run`) that it never ran. */
export interface RunStatus {
  exit: number | null;
  is_error: number;
  /** lib/memory/outcome.ts's judgement, as every other surface makes it. */
  outcome: Outcome;
  /** The store says the call never ran (core/model.ts `ToolResultInfo.notRun`). */
  not_run?: boolean;
  /** The status in words when a program last in a pipe returned it (`exit 0 of head`). */
  of?: string;
  /** How it ended when not by itself (lib/memory/outcome.ts `runEnd`: `timed out after 2m`). */
  ended?: string;
}

/** The status of each command run, by its call's event row id. */
export function commandStatuses(rows: Iterable<CommandAtRow>): Map<number, RunStatus> {
  const out = new Map<number, RunStatus>();
  for (const c of rows) {
    const facts = runFacts(c);
    const owner = facts.exit === null ? null : statusOwner(facts.command, facts.exit);
    const ended = runEnd(facts.output ?? facts.head);
    out.set(c.event_id, {
      exit: facts.exit,
      is_error: c.is_error,
      outcome: outcomeOf(facts),
      ...(owner ? { of: owner } : {}),
      ...(ended ? { ended } : {}),
    });
  }
  return out;
}

/**
 * Adds to `out` (the {@link commandStatuses}) the outcome of every tool result
 * that records one, and of each call that ran no command but has such a
 * result: a failed `view` or `edit` shows failed like a failed `bash`. A
 * result saying the call never ran marks its call so even over a command row
 * (which says only `failed`). A successful result with no exit adds nothing
 * (nothing to say). The result of a command judged failed (its output reports
 * a failure, lib/memory/outcome.ts) says so like its call.
 */
export function addResultStatuses(
  calls: readonly Pick<EventRow, "id" | "call_id">[],
  results: readonly Pick<EventRow, "id" | "call_id" | "data">[],
  out: Map<number, RunStatus>,
): void {
  const ofCommand = new Map<string, RunStatus>();
  for (const e of calls) {
    const o = out.get(e.id);
    if (o && !ofCommand.has(e.call_id!)) ofCommand.set(e.call_id!, o);
  }
  const byCall = new Map<string, RunStatus>();
  for (const e of results) {
    if (!e.data) continue;
    let info: { exit?: number; isError?: boolean; notRun?: boolean };
    try {
      info = JSON.parse(e.data);
    } catch {
      continue;
    }
    // A command's result says what its call says (trial 12: a lone `grep` that matched nothing,
    // `unknown` on its call, was `failed` on its result, judged from its exit alone).
    const ran = e.call_id && info.notRun !== true ? ofCommand.get(e.call_id) : undefined;
    if (ran) {
      out.set(e.id, ran);
      continue;
    }
    const exit = typeof info.exit === "number" ? info.exit : null;
    const outcome = outcomeOf({ exit, isError: info.isError === true });
    if (outcome === "unknown") continue;
    const o: RunStatus = { exit, is_error: outcome === "failed" ? 1 : 0, outcome };
    if (info.notRun === true) o.not_run = true;
    out.set(e.id, o);
    if (e.call_id && !byCall.has(e.call_id)) byCall.set(e.call_id, o);
  }
  for (const e of calls) {
    const o = byCall.get(e.call_id!);
    if (o && (!out.has(e.id) || o.not_run)) out.set(e.id, o);
  }
  for (const e of results) {
    const o = e.call_id ? ofCommand.get(e.call_id) : undefined;
    if (o?.outcome === "failed" && !out.has(e.id)) out.set(e.id, o);
  }
}

/** How a status is shown: `not_run` apart, else the outcome its words are coloured by. */
export type StatusTone = Outcome | "not_run";

/**
 * The words said of a call or result of status `o` (`exit 1`, `failed`, `not run`,
 * `failed by its output (exit 0 of head)`), and their tone; null when nothing is said: a
 * result repeats its call's status only when it failed (the call says `exit 0`).
 */
export function statusWords(
  o: RunStatus,
  kind: string,
): { words: string; tone: StatusTone } | null {
  if (kind === "tool_result" && o.outcome !== "failed") return null;
  if (o.not_run) return { words: "not run", tone: "not_run" };
  if (o.ended) {
    const exit = o.exit !== null && o.ended.startsWith("timed") ? ` (exit ${o.exit})` : "";
    return { words: `${o.ended}${exit}`, tone: o.outcome };
  }
  if (o.of) {
    return {
      words: o.outcome === "failed"
        ? `${BY_OUTPUT} (${exitOf(o.exit, o.of)})`
        : exitOf(o.exit, o.of),
      tone: o.outcome,
    };
  }
  if (o.exit !== null) {
    // PowerShell's 0 beside an error it printed (lib/memory/outcome.ts): said as `ctx` says it.
    if (o.exit !== 0) return { words: `exit ${o.exit}`, tone: "failed" };
    return o.outcome === "failed"
      ? { words: `${BY_OUTPUT} (exit 0)`, tone: "failed" }
      : { words: "exit 0", tone: "ok" };
  }
  return o.outcome === "failed" ? { words: "failed", tone: "failed" } : null;
}
