/**
 * A session the index knows only from a copy of its history in another session's store
 * (trial 103 F11): a Codex fork's or subagent's rollout copies its parent's turns after a
 * second `session_meta`, and where no rollout of the parent's own is in the store, the parent
 * is read from that copy (parsers/_codex_rollout.ts `orphanCopies`; lib/resume_source.ts
 * tells such a store, `copy`). Its last event is where the copy stops, not where the session
 * ended: `show` and `ctx` say so.
 *
 * @module
 */
import type { SessionRow } from "../rows.ts";
import { shortRef } from "../sessions.ts";
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import { notReopened } from "../resume_source.ts";
import { ownId } from "../remote/label.ts";

/** The session whose store holds the copy: its native id and shortest reference. */
export interface CopiedIn {
  id: string;
  ref: string;
}

/**
 * The session whose store holds `s` only as a copy of `s`'s history, or undefined when `s`
 * is read from a store of its own.
 */
export function copiedIn(
  store: Store,
  s: Pick<SessionRow, "source" | "native_id" | "harness" | "origin">,
): CopiedIn | undefined {
  // Another session read from the same store first (an index query); the store's own
  // thread only then (a rollout not named with an id is told by its first line).
  const owner = Q.keysOfSource.all(store, { source: s.source })
    .find((o) => o.harness === s.harness && o.native_id !== s.native_id);
  if (!owner) return undefined;
  if (notReopened(s.harness, s.source, ownId(s))?.lives.kind !== "copy") return undefined;
  return { id: owner.native_id, ref: shortRef(store, owner.harness, owner.native_id) };
}

/** What `show` and `ctx` say of such a session (`lead`: opening a sentence). */
export function copiedText(ref: string, lead = false): string {
  return `${lead ? "Known" : "known"} only from the copy of its history in session ${ref}'s ` +
    "store (its own record is not in the store): the last event is where that copy stops, not " +
    "how the session ended";
}
