/**
 * Which session a `ctx`-style argument means: an id prefix when it resolves
 * to exactly one session, otherwise the best search result.
 *
 * @module
 */
import type { Store } from "../store.ts";
import { DejaError } from "../../core/errors.ts";
import { Q } from "../schema.ts";
import { looksLikeId, resolveSession } from "../sessions.ts";
import { type SessionRow } from "../rows.ts";
import { search, type SearchOptions } from "../search.ts";

/** The session an argument picked, and how. */
export interface Picked {
  session: SessionRow;
  /** `id`: the argument resolved as an id prefix; `search`: the top search result. */
  via: "id" | "search";
  /** Search tier (`exact` or `session`) when `via` is `search`. */
  tier?: string;
}

/**
 * Picks the session `arg` names. One word of four or more characters is tried
 * as an id prefix ({@link resolveSession}); when no session has that prefix,
 * or several do and the word does not look like an id, `arg` is searched and
 * the best result (a parent session when the hit is in a subagent) is taken.
 * `filters` go to {@link search} as they are (harness, project, the hiding
 * rule: `hideThrowaway`, `exclude`, `here`, `env`); a session named by its id
 * is picked whatever they say.
 *
 * @param missed on a miss, gets how many sessions the search left out as
 *   hidden although they matched (for the `--junk` hint).
 * @returns null when neither finds a session.
 * @throws {DejaError} (exit 2) when an id-like argument matches several sessions.
 */
export function pickSession(
  store: Store,
  arg: string,
  filters: Omit<SearchOptions, "limit"> = {},
  missed?: { hidden: number },
): Picked | null {
  const a = arg.trim();
  if (!a) return null;
  if (!/\s/.test(a) && a.length >= 4) {
    try {
      return { session: resolveSession(store, a), via: "id" };
    } catch (e) {
      if (!(e instanceof DejaError)) throw e;
      if (e.exitCode !== 1 && looksLikeId(a)) throw e;
    }
  }
  const res = search(store, a, { ...filters, limit: 1 });
  const top = res.results[0];
  const session = top ? Q.sessionById.get(store, { id: top.rowid }) : undefined;
  if (session) return { session, via: "search", tier: res.tier };
  if (missed) missed.hidden = res.hidden;
  return null;
}
