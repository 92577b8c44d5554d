/**
 * The index-time embeddings pass (`deja index` runs it after indexing when an
 * endpoint is configured): the sessions without a current vector, newest
 * first, each as its summary-worth text — title, first typed prompts, final
 * answer, at most {@link TEXT_CHARS} characters, redacted again on the way
 * out — sent in batches, bounded by sessions and time per run (the rest wait
 * for the next run). An endpoint that fails stops the pass with one warning;
 * the index is never touched.
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { indexPath, Store as IndexStore } from "../store.ts";
import { redact } from "../redact.ts";
import { type EmbedConfig, embedConfig } from "./config.ts";
import { EmbedError, embedTexts } from "./client.ts";
import { type StoredVector, Vectors } from "./vectors.ts";

/** Characters of text sent per session at most. */
export const TEXT_CHARS = 2000;

/** Bounds of one pass. */
export interface PassOptions {
  /** Sessions embedded at most (default 2000). */
  maxSessions?: number;
  /** Milliseconds the pass may take in all (default 60000). */
  budgetMs?: number;
  /** Texts per request (default 32). */
  batch?: number;
}

/** What a pass did. */
export interface PassResult {
  embedded: number;
  /** Sessions still without a current vector (a later run does them). */
  pending: number;
  /** The endpoint's failure, when it stopped the pass. */
  error?: EmbedError;
}

/**
 * The text of a session sent to the endpoint: title, first three user turns,
 * last assistant text, each clipped, redacted (a second pass over text
 * redacted at index time: a rule added since then applies too).
 */
export function sessionText(store: Store, s: { id: number; title: string | null }): string {
  const parts: string[] = [];
  if (s.title?.trim()) parts.push(s.title.trim().slice(0, 200));
  for (const t of Q.userTurns.all(store, { session: s.id, limit: 3 })) {
    const x = t.text.trim();
    if (x && !x.startsWith("<")) parts.push(x.slice(0, 500));
  }
  const last = Q.lastAnswer.get(store, { id: s.id })?.text.trim();
  if (last) parts.push(last.slice(0, 600));
  return redact(parts.join("\n").replace(/\s+/g, " ").slice(0, TEXT_CHARS), {});
}

/** Runs the pass against the index at `indexPath(env)` when an endpoint is configured. */
export async function embedPass(env: Env, o: PassOptions = {}): Promise<PassResult | null> {
  const { config } = embedConfig(env);
  if (!config) return null;
  const store = IndexStore.open(indexPath(env), { readOnly: true });
  const vectors = Vectors.write(env);
  try {
    return await pass(store, vectors, config, o);
  } finally {
    vectors.close();
    store.close();
  }
}

async function pass(
  store: Store,
  vectors: Vectors,
  cfg: EmbedConfig,
  o: PassOptions,
): Promise<PassResult> {
  const t0 = Date.now();
  const budget = o.budgetMs ?? 60_000;
  const max = o.maxSessions ?? 2000;
  const batch = o.batch ?? 32;
  const have = vectors.stamps(cfg.model);
  const todo = Q.lastSessions.all(store, { harnesses: null, project: null, since: null, limit: -1 })
    .filter((s) => have.get(`${s.harness}\0${s.native_id}`) !== stampOf(s));
  let embedded = 0;
  for (let i = 0; i < todo.length && embedded < max; i += batch) {
    const left = budget - (Date.now() - t0);
    if (left <= 0) break;
    const chunk = todo.slice(i, Math.min(i + batch, i + max - embedded));
    const texts = chunk.map((s) => sessionText(store, s) || `${s.harness} session`);
    let vecs: Float32Array[];
    try {
      vecs = await embedTexts(cfg, texts, Math.min(left, cfg.timeoutMs ?? 30_000));
    } catch (e) {
      if (!(e instanceof EmbedError)) throw e;
      return { embedded, pending: todo.length - embedded, error: e };
    }
    const rows: StoredVector[] = chunk.map((s, k) => ({
      harness: s.harness,
      native: s.native_id,
      stamp: stampOf(s),
      vec: vecs[k],
    }));
    vectors.put(cfg.model, rows);
    embedded += rows.length;
  }
  return { embedded, pending: todo.length - embedded };
}

/** When a session's vector is current: its last update and its event count. */
function stampOf(s: { updated: number | null; started: number | null; events: number }): string {
  return `${s.updated ?? s.started ?? 0}:${s.events}`;
}
