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
 * is no event). A word `spelt` lists is held when the title holds any of its
 * spellings.
 */
export function titledSessions(
  store: Store,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
  spelt?: ReadonlyMap<string, readonly string[]>,
): Set<number> {
  const out = new Set<number>();
  if (!parsed.parts.length || f.kinds?.length) return out;
  const respelt = (p: ParsedQuery["parts"][number]) =>
    p.tokens.length === 1 ? spelt?.get(p.tokens[0]) : undefined;
  // Every word as a substring first (AND binds before the query's OR), then as whole tokens.
  const [first = "%", ...more] = [
    ...new Set(parsed.parts.filter((p) => !respelt(p)).flatMap((p) => p.tokens)),
  ].map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
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
    const held = (p: ParsedQuery["parts"][number]) => {
      const alts = respelt(p);
      return alts ? alts.some((a) => toks.includes(a)) : holds(toks, p.tokens);
    };
    if (parsed.parts.every(held)) out.add(rootOf(r.id));
  }
  return out;
}

/**
 * {@link titledSessions}, and when none holds the query as typed but some of its words were
 * corrected (`corrected`: by the close-spellings tier, or lib/search/spelling.ts), those
 * holding it as corrected, any spelling of a word (`spelt`): `waybar backgrund paddng`
 * ranked a prompt history above the session titled "Adjust waybar background and padding"
 * (new-user trial, 2026-12), and `Getting Startd and Introductions` found nothing.
 */
export function titledOrSpelt(
  store: Store,
  parsed: ParsedQuery,
  f: Filters,
  rootOf: (id: number) => number,
  corrected: Array<{ from: string; to: string[] }> | undefined,
): { titled: Set<number>; spelt: boolean } {
  const titled = titledSessions(store, parsed, f, rootOf);
  const fixes = new Map((corrected ?? []).filter((c) => c.to.length).map((c) => [c.from, c.to]));
  if (titled.size || !fixes.size) return { titled, spelt: false };
  const spelt = titledSessions(store, parsed, f, rootOf, fixes);
  return { titled: spelt, spelt: spelt.size > 0 };
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
