/**
 * The query side of the optional embeddings: the query is embedded (one
 * request, {@link QUERY_TIMEOUT_MS} at most), the literal search's candidates
 * are reordered by a mix of their lexical score and their cosine to the query,
 * and when literal search found little (nothing matched, or fewer sessions
 * than asked) sessions whose vectors are closer than every candidate's are
 * added. The tier and `nothingMatched` stay the literal search's, so exit
 * codes and "nothing matched" keep meaning what they meant. Off (the result
 * returned as it is, nothing sent) without a configured endpoint; an endpoint
 * that fails leaves the result as it is with a warning.
 *
 * @module
 */
import { inSince } from "../session_time.ts";
import type { Env } from "../../core/model.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import type { SearchOptions, SearchResult, SessionHit } from "../search.ts";
import { redact } from "../redact.ts";
import { embedConfig } from "./config.ts";
import { cosine, EmbedError, embedTexts } from "./client.ts";
import { Vectors } from "./vectors.ts";
import { hiddenSessions, originHidden } from "../search/sessions.ts";

/** Milliseconds the query's embedding may take (unless the config says otherwise). */
export const QUERY_TIMEOUT_MS = 3000;

/** Candidates a search should return for the rerank to choose from. */
export const CANDIDATES = 30;

/** What the rerank did. */
export interface Rerank {
  result: SearchResult;
  /** `off`: no endpoint; `used`: reranked; `no-vectors`: none stored yet; `failed`: see warning. */
  state: "off" | "used" | "no-vectors" | "failed";
  /** One line for stderr (endpoint down, no vectors yet), without the `deja: ` prefix. */
  warning?: string;
  hint?: string;
}

/** Share of the final score that comes from the vectors (more when nothing matched literally). */
const WEIGHT = { matched: 0.5, nothing: 0.8 };

/**
 * Reranks `res` (a search asked for {@link CANDIDATES} or more sessions) and cuts it to `limit`.
 *
 * @param o the options the search ran with: an added session passes the same filters and
 *   hiding (lib/search/sessions.ts) as a found one.
 */
export async function rerank(
  store: Store,
  env: Env,
  res: SearchResult,
  o: SearchOptions & { limit: number },
): Promise<Rerank> {
  const cut = (r: SearchResult): SearchResult => ({ ...r, results: r.results.slice(0, o.limit) });
  const { config, problem } = embedConfig(env);
  if (!config) {
    return {
      result: cut(res),
      state: problem ? "failed" : "off",
      ...(problem
        ? { warning: problem, hint: "fix or remove it to search without embeddings" }
        : {}),
    };
  }
  const vectors = Vectors.read(env);
  const stored = vectors?.all(config.model) ?? [];
  vectors?.close();
  if (!stored.length) {
    return {
      result: cut(res),
      state: "no-vectors",
      warning: "no session vectors yet for the embeddings endpoint",
      hint: "run 'deja index' to make them",
    };
  }
  let q: Float32Array;
  try {
    [q] = await embedTexts(config, [redact(res.query, {})], config.timeoutMs ?? QUERY_TIMEOUT_MS);
  } catch (e) {
    if (!(e instanceof EmbedError)) throw e;
    return { result: cut(res), state: "failed", warning: e.message, hint: e.hint };
  }
  const byKey = new Map(stored.map((v) => [`${v.harness}\0${v.native}`, v.vec]));
  const cos = (h: { harness: string; id: string }) => {
    const v = byKey.get(`${h.harness}\0${h.id}`);
    return v ? Math.max(0, cosine(q, v)) : 0;
  };
  const w = res.nothingMatched ? WEIGHT.nothing : WEIGHT.matched;
  const top = Math.max(...res.results.map((r) => r.score), 1e-9);
  const scored = res.results.map((r) => ({ r, c: cos(r), s: 0 }));
  for (const x of scored) x.s = w * x.c + (1 - w) * (x.r.score / top);
  if (res.nothingMatched || res.results.length < o.limit) {
    const best = Math.max(0, ...scored.map((x) => x.c));
    const seen = new Set(res.results.map((r) => `${r.harness}\0${r.id}`));
    const near = stored
      .map((v) => ({ v, c: Math.max(0, cosine(q, v.vec)) }))
      .filter((x) => x.c > best && !seen.has(`${x.v.harness}\0${x.v.native}`))
      .sort((a, b) => b.c - a.c);
    const hidden = near.length ? hiddenBy(store, o) : new Set<number>();
    for (const { v, c } of near) {
      if (scored.length >= Math.max(o.limit, res.results.length + o.limit)) break;
      const hit = addedHit(store, v.harness, v.native, o, hidden);
      if (hit) scored.push({ r: hit, c, s: w * c });
    }
  }
  scored.sort((a, b) => b.s - a.s);
  const results = scored.slice(0, o.limit).map((x) => ({ ...x.r, score: x.s }));
  return {
    result: { ...res, results, total: Math.max(res.total, scored.length) },
    state: "used",
  };
}

/** Row ids the search left out: the same rule `search()` applies (lib/search/sessions.ts). */
function hiddenBy(store: Store, o: SearchOptions): Set<number> {
  const out = new Set(
    hiddenSessions(store, o.exclude ?? [], Boolean(o.hideThrowaway) && !o.project, o.env, o.here),
  );
  if (o.origins && o.env) { for (const id of originHidden(store, o.env, o.origins)) out.add(id); }
  for (const id of o.leaveOut ?? []) out.add(id);
  return out;
}

/** A session the vectors found, as a hit (null when the search's filters leave it out). */
function addedHit(
  store: Store,
  harness: string,
  native: string,
  o: SearchOptions,
  hidden: ReadonlySet<number>,
): SessionHit | null {
  if (o.sessionIds || o.kinds || o.regex) return null;
  const s = Q.sessionByKey.get(store, { harness, native_id: native });
  if (!s || hidden.has(s.id)) return null;
  if (o.harness && !o.harness.includes(s.harness)) return null;
  if (o.project && !(s.project ?? "").toLowerCase().includes(o.project.toLowerCase())) return null;
  if (o.since !== undefined && !inSince(s, o.since)) return null;
  const first = Q.firstUserEvent.get(store, { id: s.id });
  return {
    rowid: s.id,
    harness: s.harness,
    id: s.native_id,
    project: s.project,
    title: s.title,
    started: s.started,
    updated: s.updated,
    timeFromFile: !!s.time_from_file,
    parent: s.parent,
    origin: s.origin ?? null,
    score: 0,
    hits: 0,
    gaveUp: false,
    throwaway: false,
    spread: true,
    titleMatch: false,
    promptMatch: false,
    snippets: first
      ? [{
        eventId: first.id,
        kind: "user",
        seq: first.seq,
        time: first.time,
        text: first.text.slice(0, 400),
        session: s.native_id,
      }]
      : [],
  };
}
