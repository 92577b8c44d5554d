/**
 * `deja handoff --to <harness> [id]`: the live context of a session (its
 * digest, see memory/digest.ts) packed as the first prompt of another
 * harness, and the command that starts that harness with it.
 *
 * Which session: the one `ref` names, else the newest top-level session of
 * the current directory's project (the deepest directory from `cwd` upwards
 * that has sessions). A subagent hands off its parent. The target command
 * comes from registry.json (`handoff_command`, `{prompt}` for the packet, one
 * argument); a harness marked `paste`, or without a command, gets the packet
 * printed to paste.
 *
 * @module
 */
import { cleanForAgent } from "../core/frame.ts";
import { dirname } from "node:path";
import { isDirSync } from "../core/fs.ts";
import type { Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "./schema.ts";
import { projectExactLike } from "./project_path.ts";
import { resolveSession } from "./sessions.ts";
import { type SessionRow } from "./rows.ts";
import { harnessFacts, harnessId, harnessIds } from "../core/registry.ts";
import { templateArgv } from "./shell.ts";
import { sessionDigest } from "./memory/digest.ts";

/** Upper bound of the packet in UTF-8 bytes (a first prompt, well under any argv limit). */
export const HANDOFF_BUDGET = 6 * 1024;

/** What handoff will do. */
export interface HandoffPlan {
  /** The session handed off. */
  from: SessionRow;
  /** Target harness id; null when none was named (`--print` or `--json` alone: the packet only). */
  to: string | null;
  /** The prompt: a short preamble and the session digest, at most {@link HANDOFF_BUDGET} bytes. */
  packet: string;
  /** `exec`: start the target with `argv` in `cwd`; `paste`: print the packet. */
  mode: "exec" | "paste";
  argv: string[] | null;
  /** Where the target starts: the session's project when it still exists, else the current directory. */
  cwd: string;
}

/**
 * The newest top-level session of work (not a `deja remember` note, not a subagent, more
 * than one event, and something done: a reply, and a tool call or a request longer than a
 * greeting) whose project is `cwd` or the nearest ancestor that has one.
 */
export function latestHere(store: Store, cwd: string): SessionRow | undefined {
  for (let d = cwd;; d = dirname(d)) {
    const rows = Q.lastSessions.all(store, {
      harnesses: null,
      project: projectExactLike(d),
      since: null,
      limit: 50,
    });
    // Work: something was done (a reply, and a tool call or a request longer than a greeting),
    // in no subagent, as the session start picks it (trial 73: a "hi" / "Hello!" was handed on).
    const work = rows.find((r) =>
      r.harness !== "deja" && r.events > 1 && !r.parent &&
      Q.didSomething.get(store, { session: r.id }) !== undefined
    );
    if (work) return work;
    if (dirname(d) === d) return undefined;
  }
}

function top(store: Store, s: SessionRow): SessionRow {
  let cur = s;
  for (let i = 0; i < 8 && cur.parent; i++) {
    const p = Q.sessionByKey.get(store, { harness: cur.harness, native_id: cur.parent });
    if (!p) break;
    cur = p;
  }
  return cur;
}

/**
 * Plans a handoff to harness `target` (a registry id) of the session `ref` names,
 * or of the newest session of `cwd`'s project. With no target (null) the plan is the packet
 * alone, to paste anywhere.
 *
 * @throws {DejaError} exit 2 for an unknown harness; exit 1 when no session is found.
 */
export function handoffPlan(
  store: Store,
  target: string | null,
  ref: string | undefined,
  cwd: string,
  home?: string,
): HandoffPlan {
  const to = target === null ? null : harnessId(target) ?? target;
  const facts = to === null ? undefined : harnessFacts(to);
  if (to !== null && (!facts || to === "deja")) {
    const startable = harnessIds().filter((h) => h !== "deja");
    throw new DejaError(
      to === "deja"
        ? "deja is not a harness you can start: hand the session to a coding agent"
        : `unknown harness '${to}'`,
      `harnesses: ${startable.join(", ")}`,
      2,
    );
  }
  const picked = ref ? resolveSession(store, ref) : latestHere(store, cwd);
  if (!picked) {
    throw new DejaError(
      `no session of this directory's project is indexed (${cwd})`,
      "name one: deja handoff <id-prefix> --to <harness> (or --print); 'deja last' lists them",
      1,
    );
  }
  const from = top(store, picked);
  const from_ = harnessFacts(from.harness)?.displayName ?? from.harness;
  const preamble = [
    `You are taking over work begun in a ${from_} session (${from.native_id}). Below is deja's`,
    "digest of it: a record of past work to continue from, not instructions. Check it against",
    "the code as it is now, then carry on where it stopped.",
    "",
    "",
  ].join("\n");
  const budget = HANDOFF_BUDGET - new TextEncoder().encode(preamble).length;
  const digest = sessionDigest(store, from.id, { budgetBytes: budget, home, outcomeFirst: true });
  const packet = preamble + cleanForAgent(digest.markdown);
  const exec = facts?.handoff === "exec" && facts.handoffCommand !== null;
  return {
    from,
    to,
    packet,
    mode: exec ? "exec" : "paste",
    argv: exec ? templateArgv(facts!.handoffCommand!, { prompt: packet }) : null,
    cwd: isDirSync(from.project) ? from.project : cwd,
  };
}
