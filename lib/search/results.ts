/**
 * The last step of a search: session-level multipliers (lib/search/rank.ts),
 * the order (notes lifted within a literal tier), the limit, and the hits
 * with their best events (snippet texts are filled by the caller).
 *
 * @module
 */
import { fileTimeOf, isUndated } from "../session_time.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import type { TimeHint } from "../query.ts";
import type { SearchOptions, SessionHit, Tier } from "../search.ts";
import { sessionMultiplier, type SessionScore } from "./rank.ts";
import type { SessionCache } from "./sessions.ts";

/** Applies session multipliers, sorts, caps, and builds the hits (snippet texts filled later). */
export function finish(
  store: Store,
  cache: SessionCache,
  scores: Map<number, SessionScore>,
  tier: Tier,
  o: SearchOptions,
  now: number,
  time: TimeHint | undefined,
  limit: number,
): SessionHit[] {
  if (!scores.size) return [];
  const ids = [...scores.keys()];
  cache.load(ids);
  const signals = new Map<number, { concluded: number | null; gave_up: number | null }>();
  for (
    const r of Q.sessionSignals.all(store, { ids: JSON.stringify(ids) })
  ) signals.set(r.session_id, r);
  const literal = tier !== "relevance";
  const ranked = [...scores.values()].map((s) => {
    const row = cache.get(s.sessionId)!;
    const sig = signals.get(s.sessionId);
    const gaveUp = sig?.gave_up != null && (sig.concluded == null || sig.gave_up > sig.concluded);
    const throwaway = cache.throwaway(s.sessionId, o.env, o.here);
    const m = sessionMultiplier(
      {
        harness: row.harness,
        started: row.started,
        updated: row.updated,
        gaveUp,
        throwaway,
        undated: isUndated(row),
      },
      now,
      time,
    );
    return {
      s,
      row,
      gaveUp,
      throwaway,
      score: s.score * m,
      note: literal && row.harness === "deja",
    };
  });
  ranked.sort((a, b) =>
    Number(b.note) - Number(a.note) || b.score - a.score ||
    (b.row.updated ?? 0) - (a.row.updated ?? 0) || a.row.id - b.row.id
  );
  // Candidates beyond the number shown: identical texts are dropped once filled (fillSnippets).
  const per = (o.snippets ?? 3) * SPARE;
  return ranked.slice(0, limit).map(({ s, row, gaveUp, throwaway, score }) => ({
    rowid: row.id,
    harness: row.harness,
    id: row.native_id,
    project: row.project,
    title: row.title,
    started: row.started,
    updated: row.updated,
    timeFromFile: fileTimeOf(row.time_from_file) ?? false,
    parent: row.parent,
    origin: row.origin ?? null,
    score,
    hits: new Set(s.events.map((e) => e.row.event_id)).size,
    gaveUp,
    throwaway,
    spread: s.spread,
    titleMatch: false,
    promptMatch: false,
    snippets: pickSnippets(s, per).map((e) => ({
      eventId: e.row.event_id,
      kind: e.row.kind,
      seq: e.row.seq,
      time: e.row.time,
      text: "",
      session: cache.get(e.row.session_id)?.native_id ?? row.native_id,
    })),
  }));
}

/** How many candidate events per snippet shown, so duplicates can be dropped. */
const SPARE = 4;

/**
 * Fills the snippet texts of `hits` with `make(eventText, eventId)`, then keeps
 * at most `n` per hit, dropping a snippet whose text (marks and spacing aside)
 * an earlier one of the same hit already shows: the same line from three
 * events is shown once.
 *
 * The spare candidates are read and made only when an earlier one was dropped: reading and
 * marking all {@link SPARE} times `n` was ~20 ms of a cold query of two common words on the
 * 100 MB bench (issue 15), for snippets no one saw.
 */
export function fillSnippets(
  store: Store,
  hits: SessionHit[],
  n: number,
  make: (text: string) => string,
): void {
  const texts = eventTexts(
    store,
    hits.flatMap((r) => r.snippets.slice(0, n).map((s) => s.eventId)),
  );
  for (const hit of hits) {
    const seen = new Set<string>();
    const kept: SessionHit["snippets"] = [];
    let spares = false;
    for (const s of hit.snippets) {
      if (kept.length >= n) break;
      if (!spares && !texts.has(s.eventId)) {
        // A candidate past the first `n` (or one the index no longer holds): the rest at once.
        spares = true;
        const rest = hit.snippets.map((x) => x.eventId).filter((id) => !texts.has(id));
        for (const [id, text] of eventTexts(store, rest)) texts.set(id, text);
      }
      s.text = make(texts.get(s.eventId) ?? "");
      const key = s.text.replaceAll("\x01", "").replaceAll("\x02", "").replace(/\s+/g, " ").trim();
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(s);
    }
    hit.snippets = kept;
  }
}

/** The best `n` distinct events, best first. */
function pickSnippets(s: SessionScore, n: number) {
  const seen = new Set<number>();
  const out = [];
  for (const e of s.events) {
    if (seen.has(e.row.event_id)) continue;
    seen.add(e.row.event_id);
    out.push(e);
    if (out.length >= n) break;
  }
  return out;
}

/** The texts of events `ids`, by id. */
export function eventTexts(store: Store, ids: number[]): Map<number, string> {
  const out = new Map<number, string>();
  if (!ids.length) return out;
  for (
    const r of Q.eventTexts.all(store, { ids: JSON.stringify(ids) })
  ) out.set(r.id, r.text);
  return out;
}
