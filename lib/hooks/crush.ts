/**
 * `deja hook-tool --crush`: Crush has only PreToolUse, so this one hook
 * carries everything the other harnesses get from four. Before each matched
 * tool call it reads the live session from the project's crush.db
 * (crush_live.ts) and adds, each at most once per session and in this order:
 *
 * 1. the fix pair, when the newest finished command failed (what ran next the
 *    last times that error came up);
 * 2. the recall for the newest message the person sent;
 * 3. the packet, when a summary was written since the last call;
 * 4. on the session's first call, the digest of the last session in the
 *    project;
 * 5. what this command or file already has (as `hook-tool`).
 *
 * Items 1–3 follow something already stored, so they arrive one tool call
 * late; a turn with no matched tool call gets none of them (the next message
 * replaces the last one's recall). A subagent's session gets only 1 and 5: its
 * prompt was written by the parent agent, which had the rest already.
 *
 * Crush facts (charmbracelet/crush internal/hooks/input.go, runner.go,
 * internal/agent/hooked_tool.go): the event on stdin is
 * `{"event":"PreToolUse","session_id","cwd","tool_name","tool_input":{…}}`;
 * the environment adds CRUSH_SESSION_ID, CRUSH_PROJECT_DIR, CRUSH_CWD,
 * CRUSH_TOOL_INPUT_COMMAND and CRUSH_TOOL_INPUT_FILE_PATH; the output's
 * `context` is appended to the tool's result.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import type { Store } from "../store.ts";
import type { CrushCursor, HookState } from "./state.ts";
import { type Current, type Said } from "./_util.ts";
import { contextBlock, promptBlock } from "./recall.ts";
import { fixNote } from "./point.ts";
import { findCrushDb, type LiveSession, readLive } from "./crush_live.ts";

/** One item the hook may say, and how saying it (or finding nothing) moves the cursor. */
export interface Part {
  said: Said | null;
  /** Marks the item as handled; applied when it was said or had nothing to say. */
  advance?: (state: HookState) => void;
  /** Upper bound of this item in bytes (before framing). */
  budget: number;
  /** Place in the printed block (ascending; default 0): items are fitted by priority, shown by this. */
  order?: number;
}

/** Per-item budgets in UTF-8 bytes. */
export const CRUSH_ITEM = { fix: 512, recall: 1536, packet: 2048, digest: 2048 } as const;

function cursor(state: HookState): CrushCursor {
  return (state.crush ??= {});
}

/** The items 1–4 (see the module) for the live session `id`. */
export async function crushParts(
  store: Store,
  env: Env,
  where: { project: string; cwd: string; id?: string; home?: string },
  current: Current,
  state: HookState,
  seen: Set<string>,
): Promise<Part[]> {
  const parts: Part[] = [];
  let live: LiveSession | undefined;
  if (where.id) {
    const db = findCrushDb(env, where.project, where.cwd);
    try {
      if (db) live = readLive(env, db, where.id, where.project);
    } catch {
      // A locked, damaged or foreign store: what the index knows is still worth saying.
    }
  }
  const c = state.crush;
  if (live?.failure && live.failure.callId !== c?.fail) {
    const f = live.failure;
    parts.push({
      said: fixNote(store, f.output, current, seen, CRUSH_ITEM.fix, where.project),
      advance: (s) => void (cursor(s).fail = f.callId),
      budget: CRUSH_ITEM.fix,
      order: 4,
    });
  }
  if (live?.subagent) return parts;
  if (live?.user && live.user.id !== c?.user) {
    const u = live.user;
    parts.push({
      said: promptBlock(store, u.text, where.project, current, seen, CRUSH_ITEM.recall),
      advance: (s) => void (cursor(s).user = u.id),
      budget: CRUSH_ITEM.recall,
      order: 3,
    });
  }
  if (live?.summary && live.summary !== c?.summary) {
    const id = live.summary;
    const { packetBlock } = await import("./packet.ts");
    parts.push({
      said: packetBlock(live.session, id, CRUSH_ITEM.packet, where.home),
      advance: (s) => void (cursor(s).summary = id),
      budget: CRUSH_ITEM.packet,
      order: 2,
    });
  }
  if (!c && where.id) { // without a session id it could not be said only once
    parts.push({
      said: contextBlock(store, where.project, current, seen, CRUSH_ITEM.digest, {
        home: where.home,
      }),
      advance: (s) => void cursor(s),
      budget: CRUSH_ITEM.digest,
      order: 1,
    });
  }
  return parts;
}
