/**
 * The live Crush session a `hook-tool --crush` call runs in, read from that
 * project's crush.db (read-only, core/sqlite_read.ts) the way the Crush parser
 * reads it: the newest message the person sent, the newest finished command
 * and whether it failed, the newest summary. Crush has only PreToolUse, so
 * this is how the hook learns what happened since its last call.
 *
 * Which crush.db: the registry entry (`projects.json`) whose project is the
 * project directory or the nearest one above the working directory, else the
 * nearest `.crush/crush.db` from the working directory upwards.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Env, Session } from "../../core/model.ts";
import { openStore } from "../../core/sqlite_read.ts";
import { crushRoot, readCrushSession } from "../../parsers/crush.ts";

import { runFailed } from "../memory/outcome.ts";
import { readTextSync } from "../../core/fsread.ts";
import { absolutePath } from "../../core/paths.ts";

/** Busy timeout of the hook's read of a live crush.db, in milliseconds: a locked store costs no more. */
export const HOOK_BUSY_MS = 100;

/** What the hook needs to know about the live session. */
export interface LiveSession {
  session: Session;
  /** The store it was read from. */
  db: string;
  /** True for a subagent (task) session: the person did not write its prompt. */
  subagent: boolean;
  /** The newest user message: its message id and text. */
  user?: { id: string; text: string };
  /** The newest command whose result is in, when it failed. */
  failure?: { callId: string; command: string; output: string };
  /** Message id of the newest summary. */
  summary?: string;
}

function underOrAt(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith("/") ? root : root + "/");
}

/** The crush.db of the project `projectDir` (or the one `cwd` is in), or undefined. */
export function findCrushDb(env: Env, projectDir: string, cwd: string): string | undefined {
  try {
    const reg = JSON.parse(readTextSync(join(crushRoot(env), "projects.json"))) as {
      projects?: Array<{ path?: unknown; data_dir?: unknown }>;
    };
    let best: { path: string; db: string } | undefined;
    for (const p of reg.projects ?? []) {
      if (typeof p.path !== "string" || !p.path) continue;
      if (!underOrAt(projectDir, p.path) && !underOrAt(cwd, p.path)) continue;
      const dd = typeof p.data_dir === "string" && p.data_dir ? p.data_dir : ".crush";
      const db = join(absolutePath(dd, p.path), "crush.db");
      if (existsSync(db) && (!best || p.path.length > best.path.length)) {
        best = { path: p.path, db };
      }
    }
    if (best) return best.db;
  } catch { /* no registry: look for the folder */ }
  for (const start of [projectDir, cwd]) {
    for (let d = start, i = 0; i < 64; d = dirname(d), i++) {
      const db = join(d, ".crush", "crush.db");
      if (existsSync(db)) return db;
      if (dirname(d) === d) break;
    }
  }
  return undefined;
}

/** Reads session `id` of the store at `db` (undefined when the store or the session is missing). */
export function readLive(
  env: Env,
  db: string,
  id: string,
  project: string,
): LiveSession | undefined {
  // The hook path: a short busy timeout, and never a copy (the index answers instead).
  const h = openStore(db, env, { busyMs: HOOK_BUSY_MS, copy: false });
  let session: Session | undefined;
  try {
    session = readCrushSession(h.db, id, db, project, () => {});
  } finally {
    h.close();
  }
  if (!session) return undefined;
  const live: LiveSession = { session, db, subagent: Boolean(session.parent) };
  const commands = new Map<string, string>();
  for (const e of session.events) {
    const msg = e.key?.split("#")[0] ?? "";
    if (e.kind === "user") live.user = { id: msg, text: e.text };
    else if (e.kind === "summary") live.summary = msg;
    else if (e.kind === "tool_call" && e.tool?.command && e.tool.id) {
      commands.set(e.tool.id, e.tool.command);
    } else if (e.kind === "tool_result" && e.result?.callId && commands.has(e.result.callId)) {
      const failed = runFailed({
        exit: e.result.exit ?? null,
        isError: e.result.isError === true,
        output: e.text,
      });
      live.failure = failed
        ? { callId: e.result.callId, command: commands.get(e.result.callId)!, output: e.text }
        : undefined;
    }
  }
  return live;
}
