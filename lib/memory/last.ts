/**
 * `last`: the most recent sessions, newest first (updated time, else started;
 * ties by harness then id). Subagent sessions are left out: they are filed
 * under their parent, which `deja show` lists them with.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { Q } from "../schema.ts";
import type { SessionRow } from "../sessions.ts";

/** Options of {@link lastSessions}. */
export interface LastOptions {
  /** Sessions returned at most (default 10). */
  limit?: number;
  /** Only these harnesses. */
  harness?: string[];
  /** Only projects whose path contains this text. */
  project?: string;
}

/** The most recent sessions (see the module). */
export function lastSessions(store: Store, opts: LastOptions = {}): SessionRow[] {
  const h = opts.harness?.length ? JSON.stringify(opts.harness) : null;
  const p = opts.project ? `%${opts.project.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return store.stmt(Q.lastSessions).all(h, h, p, p, opts.limit ?? 10) as unknown as SessionRow[];
}
