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
import { stemmer } from "stemmer";
import { ABLATE } from "./rank.ts";

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
  stems?: Map<string, Set<string>>,
  /** Filled: a root whose own title does not hold the query, the subagent's title that does. */
  via?: Map<number, string>,
): Set<number> {
  const out = new Set<number>();
  const own = new Set<number>();
  if (!parsed.parts.length || f.kinds?.length) return out;
  const respelt = (p: ParsedQuery["parts"][number]) =>
    p.tokens.length === 1 ? spelt?.get(p.tokens[0]) : undefined;
  const stemOf = (p: ParsedQuery["parts"][number]) =>
    stems && p.tokens.length === 1 && !p.quoted ? stemmer(p.tokens[0]) : undefined;
  // Every word as a substring first (AND binds before the query's OR), then as whole tokens;
  // a word by its stem as the substring (`inquiri` of `inquiries` as `inquir`, in `Inquiry`).
  const [first = "%", ...more] = [
    ...new Set(
      parsed.parts.filter((p) => !respelt(p)).flatMap((p) => {
        const st = stemOf(p)?.replace(/i$/, "");
        return st && st.length >= 3 ? [st] : p.tokens;
      }),
    ),
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
      if (alts) return alts.some((a) => toks.includes(a));
      const st = stemOf(p);
      return st ? toks.some((t) => stemmer(t) === st) : holds(toks, p.tokens);
    };
    if (!parsed.parts.every(held)) continue;
    const root = rootOf(r.id);
    out.add(root);
    if (root === r.id) own.add(root);
    else if (!via?.has(root)) via?.set(root, r.title);
    // The title's words each query word was matched to in another form.
    for (const p of parsed.parts) {
      const st = stemOf(p);
      if (!st || toks.includes(p.tokens[0])) continue;
      for (const t of toks) {
        if (stemmer(t) !== st) continue;
        if (!stems!.has(p.tokens[0])) stems!.set(p.tokens[0], new Set());
        stems!.get(p.tokens[0])!.add(t);
      }
    }
  }
  for (const id of own) via?.delete(id);
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
): {
  titled: Set<number>;
  spelt: boolean;
  forms?: Array<{ from: string; to: string[] }>;
  /** A root session matched by a subagent's title alone: that title (trial 78 F7). */
  via: Map<number, string>;
} {
  const via = new Map<number, string>();
  const titled = titledSessions(store, parsed, f, rootOf, undefined, undefined, via);
  if (titled.size) return { titled, spelt: false, via };
  const fixes = new Map((corrected ?? []).filter((c) => c.to.length).map((c) => [c.from, c.to]));
  const spelt = fixes.size
    ? titledSessions(store, parsed, f, rootOf, fixes, undefined, via)
    : titled;
  if (spelt.size) return { titled: spelt, spelt: true, via };
  // In any form of each word (trial 16: `instruction cli` never found "Instructions in
  // CLI.md", `greet` no "Simple greeting", `backfil bug` no "Backfill Loading State Bug").
  if (ABLATE.titleForms) return { titled, spelt: false, via };
  const seen = new Map<string, Set<string>>();
  const formed = titledSessions(store, parsed, f, rootOf, undefined, seen, via);
  const forms = [...seen].map(([from, to]) => ({ from, to: [...to] }));
  return { titled: formed, spelt: false, via, ...(forms.length ? { forms } : {}) };
}

/**
 * Lifts the sessions of `titled` above every other in `scores` (adding those
 * the ladder did not find, with no matching events), keeping their order
 * among themselves. A `factor` of 1 puts them level with the best of the others
 * (a title outside the window the query's time words name, lib/search.ts).
 */
export function liftTitled(
  scores: Map<number, SessionScore>,
  titled: Set<number>,
  factor = LIFT,
): void {
  if (!titled.size) return;
  let top = 0;
  for (const s of scores.values()) top = Math.max(top, s.score);
  const lift = Math.max(1, top) * factor;
  for (const id of titled) {
    const s = scores.get(id);
    if (s) s.score = lift + s.score;
    else scores.set(id, { sessionId: id, score: lift, events: [], spread: false });
  }
}

/** Above any session-level multiplier's spread (recency, throwaway, gave up, time words). */
const LIFT = 10;
