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
import type { SessionCache, SessRow } from "./sessions.ts";

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
  /** Sessions listed after every other, whatever their score (other forms of a word typed alone). */
  below?: ReadonlySet<number>,
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
  const under = (x: { s: SessionScore }) => Number(below?.has(x.s.sessionId) ?? false);
  ranked.sort((a, b) =>
    Number(b.note) - Number(a.note) || under(a) - under(b) || b.score - a.score ||
    (b.row.updated ?? 0) - (a.row.updated ?? 0) || a.row.id - b.row.id
  );
  const copies = foldCopies(store, cache, ranked, limit);
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
    ...(s.capped ? { hitsCapped: true } : {}),
    gaveUp,
    throwaway,
    spread: s.spread,
    titleMatch: false,
    promptMatch: false,
    ...(copies.has(row.id) ? { copies: copies.get(row.id) } : {}),
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

/** Ranked sessions compared for copies: those shown and as many again. */
const COPY_WINDOW = 2;

/**
 * Folds into one result the sessions whose matched events are all copies of another's: a
 * resumed or forked Claude Code session starts with the records of the one it continued
 * (same start, and each record's time, kind and text; anthropics/claude-code issues 4926 and
 * 28463), and the search listed both with the same hit (trial 19: `production build
 * broken`). Among the first {@link COPY_WINDOW} × `limit` of `ranked`, two sessions of the
 * same harness and machine (`deja remote`: a mirror's copy is listed with its machine) that
 * started at the same recorded time are compared: when every matched event of one is held by
 * the other (its session or subagents; the same kind, time and text), the one is dropped and
 * named among the other's copies, the other taking the better rank of the two (a fork ranked
 * above the longer session it copied, trial 21). A copy that matched anything new of its own
 * stays. Returns, per kept session row id, the native ids of its copies.
 */
function foldCopies(
  store: Store,
  cache: SessionCache,
  ranked: { s: SessionScore; row: SessRow; score: number }[],
  limit: number,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const n = Math.min(ranked.length, COPY_WINDOW * limit);
  const drop = new Set<number>();
  /** Every matched event of `from` is held by the session `to` (or its subagents). */
  const within = (from: SessionScore, to: number) => {
    const ids = [...new Set(from.events.map((e) => e.row.event_id))];
    if (!ids.length || from.events.some((e) => e.row.time == null)) return false;
    const sessions = JSON.stringify(cache.members(to));
    return Q.eventsHeldBy.get(store, { ids: JSON.stringify(ids), sessions })!.n === ids.length;
  };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i && !drop.has(i); j++) {
      const [a, b] = [ranked[j].row, ranked[i].row];
      if (drop.has(j) || a.harness !== b.harness || a.origin !== b.origin) continue;
      if (a.started == null || a.started !== b.started) continue;
      if (!within(ranked[i].s, a.id)) {
        if (!within(ranked[j].s, b.id)) continue;
        // The one ranked above is the copy: the other takes its place and its score.
        const score = ranked[j].score;
        [ranked[j], ranked[i]] = [ranked[i], ranked[j]];
        ranked[j].score = Math.max(score, ranked[j].score);
      }
      drop.add(i);
      const [k, c] = [ranked[j].row.id, ranked[i].row];
      out.set(k, [...out.get(k) ?? [], c.native_id, ...out.get(c.id) ?? []]);
      out.delete(c.id);
    }
  }
  if (drop.size) {
    const left = ranked.filter((_, i) => !drop.has(i));
    ranked.length = 0;
    ranked.push(...left);
  }
  return out;
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
