/**
 * Whether a long query's first session by relevance holds every word that
 * carries meaning (lib/search.ts names the result after that, not "nothing
 * matched"). A long query skips the forms tier (one word's form would rank a
 * marathon session first), so `why does agent IDE freeze` asked of a session
 * where `the IDE freezes when the agent runs` is ranked by relevance; its
 * question words (`why`, `does`) are stop words and never asked for. The
 * question's scaffolding (`how did we fix …`, `what was the root cause …`,
 * lib/search/concepts.ts) is what it asks about the session, not what the
 * session says: a session lacking those words still holds the question when it
 * holds every other one (two at least).
 *
 * @module
 */
import { ftsAny, type ParsedQuery } from "../query.ts";
import { expand, type TermStats } from "./expand.ts";
import { type Filters, matchRows } from "./retrieve.ts";
import { SCAFFOLD } from "./concepts.ts";

/** A long query's words as typed or in another form, the forms the history holds, and the words left out. */
export interface Forms {
  alts: string[][][];
  changes: Array<{ from: string; to: string[] }>;
  /** Words of the question's scaffolding not asked for (empty: every word is). */
  left: string[];
}

/**
 * The ways a long query can be held, most literal first: every word, some in
 * another form (only when a form is needed: the exact tier found none as
 * typed); then without its scaffolding words, as typed, then in other forms.
 */
export function formsOf(stats: TermStats, parsed: ParsedQuery): Forms[] {
  const out: Forms[] = [];
  const ex = expand(stats, parsed.parts, "stemmed");
  if (ex?.changes.length) out.push({ alts: ex.alts, changes: ex.changes, left: [] });
  const scaffold = (p: ParsedQuery["parts"][number]) =>
    !p.quoted && p.tokens.length === 1 && SCAFFOLD.has(p.tokens[0]);
  const core = parsed.parts.filter((p) => !scaffold(p));
  if (core.length < 2 || core.length === parsed.parts.length) return out;
  const left = parsed.parts.filter(scaffold).map((p) => p.tokens[0]);
  const typed = expand(stats, core, "exact");
  if (typed) out.push({ alts: typed.alts, changes: [], left });
  const cx = expand(stats, core, "stemmed");
  if (cx?.changes.length) out.push({ alts: cx.alts, changes: cx.changes, left });
  return out;
}

/**
 * The first of `forms` one event of the session made of `members` (a root and
 * its subagents) holds whole, each word as typed or in a form — as a session
 * only the forms match must to join the exact matches (lib/search/ladder.ts
 * `withForms`): words scattered over a long session are a near miss, not a
 * match. Undefined when it holds none.
 */
export function heldBy(
  stats: TermStats,
  forms: readonly Forms[],
  f: Filters,
  members: number[],
): Forms | undefined {
  const ids = f.sessionIds ? members.filter((id) => f.sessionIds!.includes(id)) : members;
  if (!ids.length) return undefined;
  return forms.find((fm) => {
    const all = fm.alts.map(ftsAny).join(" AND ");
    return matchRows(stats.store, all, { ...f, sessionIds: ids }, 1).length > 0;
  });
}
