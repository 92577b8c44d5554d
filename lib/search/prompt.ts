/**
 * A typed prompt: a query equal, or nearly, to what a person once typed as a
 * prompt (`what is this project about`). Stop words are what such a query is
 * made of, so the ladder, which drops them, cannot tell the session where it
 * was typed from any other that names `project`; this reads the query whole —
 * every token, in order, as one phrase in a user turn no more than a few
 * tokens longer — and the sessions holding such a turn rank first.
 *
 * @module
 */
import { Q } from "../schema.ts";
import { ftsTerm } from "../query.ts";
import { type Filters, matchRows } from "./retrieve.ts";
import type { ScoredEvent, SessionScore } from "./rank.ts";
import type { Store } from "../store.ts";
import { tokens } from "./tokenize.ts";

/** Fewest tokens a query needs to be read as a prompt. */
const MIN_TOKENS = 3;
/** Most tokens read as a prompt (a longer query is a paste). */
const MAX_TOKENS = 40;
/** Prompt turns read. */
const MAX_ROWS = 200;

/** Extra tokens a prompt may hold beyond the query: 2, or a quarter of the query. */
export function slack(n: number): number {
  return Math.max(2, Math.ceil(n / 4));
}

/**
 * Per root session, the user turns that hold `query` as typed (see the module
 * doc), best first; empty for a short, quoted or pasted query.
 */
export function typedPrompts(
  store: Store,
  query: string,
  f: Filters,
  rootOf: (id: number) => number,
): Map<number, ScoredEvent[]> {
  const out = new Map<number, ScoredEvent[]>();
  const toks = tokens(query);
  if (toks.length < MIN_TOKENS || toks.length > MAX_TOKENS || query.includes('"')) return out;
  if (f.kinds?.length && !f.kinds.includes("user")) return out;
  const rows = matchRows(store, ftsTerm(toks), { ...f, kinds: ["user"] }, MAX_ROWS);
  if (!rows.length) return out;
  const texts = new Map<number, string>();
  for (
    const r of Q.eventTexts.all(store, { ids: JSON.stringify(rows.map((r) => r.event_id)) })
  ) texts.set(r.id, r.text);
  const most = toks.length + slack(toks.length);
  for (const r of rows) {
    if (tokens(texts.get(r.event_id) ?? "").length > most) continue;
    const root = rootOf(r.session_id);
    let list = out.get(root);
    if (!list) out.set(root, list = []);
    list.push({ row: r, score: -r.bm25 });
  }
  return out;
}

/**
 * Lifts the sessions of `prompts` above every other in `scores` (adding those
 * the ladder did not find), keeping their order among themselves, with the
 * prompt turn as their first event.
 */
export function liftPrompts(
  scores: Map<number, SessionScore>,
  prompts: Map<number, ScoredEvent[]>,
): void {
  if (!prompts.size) return;
  let top = 0;
  for (const s of scores.values()) top = Math.max(top, s.score);
  const lift = Math.max(1, top) * LIFT;
  for (const [id, events] of prompts) {
    const s = scores.get(id);
    if (s) {
      const ids = new Set(events.map((e) => e.row.event_id));
      s.events = [...events, ...s.events.filter((e) => !ids.has(e.row.event_id))];
      s.score = lift + s.score;
    } else {
      scores.set(id, { sessionId: id, score: lift + events[0].score, events, spread: false });
    }
  }
}

/** Above any session-level multiplier's spread (recency, throwaway, gave up, time words). */
const LIFT = 10;
