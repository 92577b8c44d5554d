/**
 * `deja resume`: the harness's own command that reopens a session, and the
 * directory to run it in.
 *
 * The command comes from registry.json (`capabilities.resume`, `{id}` for the
 * native session id), split into argv so the id is one argument and never
 * passes through a shell. A subagent resumes its parent. The command runs in
 * the session's project directory: Crush, Claude Code, Gemini CLI and
 * opencode look sessions up from there (Crush only in `<project>/.crush`), so
 * a project directory that no longer exists is refused.
 *
 * @module
 */
import { existsSync, statSync } from "node:fs";
import type { Store } from "./store.ts";
import { DejaError } from "../core/errors.ts";
import { Q } from "./schema.ts";
import { resolveSession, shortRef } from "./sessions.ts";
import { type SessionRow } from "./rows.ts";
import { harnessFacts } from "../core/registry.ts";
import { templateArgv } from "./shell.ts";

/** Session ids deja passes to a command: no shell metacharacters, no leading dash. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What to run to reopen a session. */
export interface ResumePlan {
  harness: string;
  /** The session asked for (native id). */
  asked: string;
  /** The session reopened: `asked`, or its parent for a subagent. */
  id: string;
  /** Directory to run in, or null when the store does not say. */
  cwd: string | null;
  argv: string[];
}

/** The parent session of a subagent (the row when indexed, else a stand-in with the same project). */
function topSession(store: Store, s: SessionRow): SessionRow {
  let cur = s;
  for (let i = 0; i < 8 && cur.parent; i++) {
    const p = Q.sessionByKey.get(store, { harness: cur.harness, native_id: cur.parent });
    cur = p ?? { ...cur, native_id: cur.parent, parent: null };
  }
  return cur;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Plans the resume of the session `ref` names (an id prefix, `harness:prefix`).
 *
 * @throws {DejaError} exit 1 when no session matches; exit 2 when several do,
 *   when the harness has no resume command, when the id has unsafe characters,
 *   or when the project directory is gone.
 */
export function resumePlan(store: Store, ref: string): ResumePlan {
  const asked = resolveSession(store, ref);
  const s = topSession(store, asked);
  const facts = harnessFacts(s.harness);
  const show = `read it with 'deja show ${shortRef(store, asked.harness, asked.native_id)}'`;
  if (!facts?.resume) {
    throw new DejaError(
      `${facts?.displayName ?? s.harness} has no command that reopens a session`,
      show,
      2,
    );
  }
  if (!SAFE_ID.test(s.native_id)) {
    throw new DejaError(
      `the session id '${s.native_id}' has characters deja will not pass to a command`,
      show,
      2,
    );
  }
  if (s.project && !isDir(s.project)) {
    throw new DejaError(
      `the project directory ${s.project} no longer exists, and ${facts.displayName} looks for ` +
        `this session from there`,
      show,
      2,
    );
  }
  return {
    harness: s.harness,
    asked: asked.native_id,
    id: s.native_id,
    cwd: s.project && existsSync(s.project) ? s.project : null,
    argv: templateArgv(facts.resume, { id: s.native_id }),
  };
}
