/**
 * A rerank of the `relevance` tier (nothing matched as typed: where a
 * question in other words lands) by where a session holds the query's words.
 * A session states its problem in its title, its first prompts, its summaries
 * and its conclusions (lib/schema_search.ts `fieldsOf`); a question in other
 * words names the same problem. So among the tier's best
 * {@link CANDIDATES}, the share of the query's IDF weight those fields hold
 * (each word by its best alternative there: as typed or a form 1, a related
 * word its weight, lib/search/related.ts) lifts a session:
 * `score × (1 + LIFT · share)`. A session that names the words only deep in a
 * tool output keeps its score.
 *
 * @module
 */
import { Q } from "../schema.ts";
import type { TermStats } from "./expand.ts";
import { ABLATE, type SessionScore } from "./rank.ts";
import type { SessionCache } from "./sessions.ts";
import { tokens } from "./tokenize.ts";

/** The relevance tier's best sessions reranked. */
export const CANDIDATES = Number(Deno.env.get("CAND") ?? 30);
/** How much a session whose fields hold the whole query is lifted (×1 + this). */
export const LIFT = Number(Deno.env.get("LIFT") ?? 1);

function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Reranks the best {@link CANDIDATES} of `scores` in place (see the module doc).
 *
 * @param alts per query word, its alternatives (token lists), as the relevance tier kept them.
 * @param weights per query word, the weight of each alternative (absent: 1 each).
 */
export function rerankFielded(
  stats: TermStats,
  cache: SessionCache,
  scores: Map<number, SessionScore>,
  alts: string[][][],
  weights?: number[][],
): void {
  if (ABLATE.fielded || scores.size < 2 || alts.length < 2) return;
  const top = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, CANDIDATES);
  const ids = new Set<number>();
  for (const s of top) for (const m of cache.members(s.sessionId)) ids.add(m);
  const held = new Map<number, Set<string>>();
  const rest = new Map<number, Set<string>>();
  const firstSeen = new Set<number>();
  const rows = Q.fieldsOf.all(stats.store, { ids: JSON.stringify([...ids]) });
  rows.sort((a, b) => a.seq - b.seq);
  for (const r of rows) {
    const root = cache.root(r.session_id);
    let head = r.kind !== "user" || !firstSeen.has(r.session_id);
    if (r.kind === "user") firstSeen.add(r.session_id);
    if (Number(Deno.env.get("CONCL") ?? 1) === 0 && r.kind === "assistant") head = false;
    const into = head ? held : rest;
    let set = into.get(root);
    if (!set) into.set(root, set = new Set());
    for (const t of tokens(r.text ?? "")) set.add(t);
  }
  const REST = Number(Deno.env.get("REST") ?? 1);
  const n = Math.max(1, Q.eventCount.get(stats.store, {})!.n);
  const w = (ti: number, i: number) => weights?.[ti]?.[i] ?? 1;
  const termIdf = alts.map((a, ti) => {
    const best = Math.max(...a.map((_, i) => w(ti, i)));
    const df = Math.max(
      0,
      ...a.filter((_, i) => w(ti, i) === best).map((toks) =>
        Math.min(...toks.map((t) => stats.docs(t)))
      ),
    );
    return idf(n, df);
  });
  if (Deno.env.get("DBG")) console.log(alts.map((a, ti) => `${termIdf[ti].toFixed(1)}:` + a.map((t, i) => t.join("+") + "/" + w(ti, i).toFixed(2)).join(",")).join("\n"));
  const total = termIdf.reduce((a, b) => a + b, 0) || 1;
  for (const s of top) {
    const set = held.get(s.sessionId) ?? new Set();
    const more = rest.get(s.sessionId) ?? new Set();
    let share = 0;
    alts.forEach((a, ti) => {
      let best = 0;
      a.forEach((toks, i) => {
        if (w(ti, i) > best && toks.every((t) => set.has(t))) best = w(ti, i);
        if (w(ti, i) * REST > best && toks.every((t) => more.has(t))) best = w(ti, i) * REST;
      });
      share += termIdf[ti] * Math.min(1, best) ** Number(Deno.env.get("POW") ?? 1);
    });
    s.score *= 1 + LIFT * share / total;
  }
}
