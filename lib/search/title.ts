/**
 * Titles: a session's title (a harness's summary or the name a person gave
 * it, `Fix login redirect loop`) is a field of the session, not an event, so
 * the full-text index never sees it. A query whose every word a title holds
 * (as typed, whole words; a quoted phrase contiguously) names that session:
 * read at search time from the sessions table — a few thousand rows, narrowed
 * by a LIKE per word of the query, then checked token by token — and
 * ranked first, below a typed prompt only (lib/search/prompt.ts).
 *
 * @module
 */
import { inSince } from "../session_time.ts";
import { Q } from "../schema.ts";
import { projectHolds } from "../project_path.ts";
import type { ParsedQuery } from "../query.ts";
import type { Store } from "../store.ts";
import type { Filters } from "./retrieve.ts";
import type { SessionScore } from "./rank.ts";
import { tokens } from "./tokenize.ts";

/** `part` (its tokens) occurs contiguously in `toks`. */
function holds(toks: string[], part: string[]): boolean {
  for (let i = 0; i + part.length <= toks.length; i++) {
    if (part.every((t, j) => toks[i + j] === t)) return true;
  }
  return false;
}

/**
 * The root sessions (filed under `rootOf`) whose title holds every term of
 * `parsed` under filters `f`; empty when an event-kind filter is set (a title
 * is no event).
 */
export function titledSessions(
  store: Store,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
): Set<number> {
  const out = new Set<number>();
  if (!parsed.parts.length || f.kinds?.length) return out;
  // Every word as a substring first (AND binds before the query's OR), then as whole tokens.
  const [first, ...more] = [...new Set(parsed.parts.flatMap((p) => p.tokens))]
    .map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const rows = Q.titledSessions.extend(
    more.map(() => " AND title LIKE ? ESCAPE '\\'").join(""),
    more,
  ).all(store, { like: first });
  const only = f.sessionIds ? new Set(f.sessionIds) : undefined;
  const hide = new Set(f.hideSessionIds ?? []);
  const project = f.project;
  for (const r of rows) {
    if (only && !only.has(r.id)) continue;
    if (hide.has(r.id)) continue;
    if (f.harness?.length && !f.harness.includes(r.harness)) continue;
    if (project && !projectHolds(r.project, project)) continue;
    if (f.since !== undefined && !inSince(r, f.since)) continue;
    const toks = tokens(r.title);
    if (parsed.parts.every((p) => holds(toks, p.tokens))) out.add(rootOf(r.id));
  }
  return out;
}

/**
 * Lifts the sessions of `titled` above every other in `scores` (adding those
 * the ladder did not find, with no matching events), keeping their order
 * among themselves.
 */
export function liftTitled(scores: Map<number, SessionScore>, titled: Set<number>): void {
  if (!titled.size) return;
  let top = 0;
  for (const s of scores.values()) top = Math.max(top, s.score);
  const lift = Math.max(1, top) * LIFT;
  for (const id of titled) {
    const s = scores.get(id);
    if (s) s.score = lift + s.score;
    else scores.set(id, { sessionId: id, score: lift, events: [], spread: false });
  }
}

/** Above any session-level multiplier's spread (recency, throwaway, gave up, time words). */
const LIFT = 10;
