/**
 * One request to the embeddings endpoint: texts in, one vector per text out,
 * within a time limit. Ollama's `/api/embed` takes `{model, input}` and
 * answers `{embeddings: number[][]}` (observed in Ollama's API docs, 0.5+);
 * OpenAI-compatible `/v1/embeddings` takes `{model, input}` and answers
 * `{data: [{index, embedding}]}`. Uses the runtime's `fetch` (Deno and Bun).
 *
 * @module
 */
import { DejaError } from "../../core/errors.ts";
import type { EmbedConfig } from "./config.ts";

/** The endpoint failed: down, slow, refused or answered something else. */
export class EmbedError extends DejaError {}

/** The hint every endpoint failure carries. */
export const EMBED_HINT = "search answers from the index alone; check the endpoint " +
  "(DEJA_EMBED_URL or ~/.config/deja/embeddings.json) or unset it to turn embeddings off";

/**
 * Embeds `texts` (already redacted by the caller) in one request.
 *
 * @returns one vector per text, in order, each of unit length.
 * @throws {EmbedError} when the endpoint is unreachable, exceeds `timeoutMs`, answers
 *   an HTTP error, or answers a shape with the wrong number of vectors.
 */
export async function embedTexts(
  cfg: EmbedConfig,
  texts: string[],
  timeoutMs: number,
): Promise<Float32Array[]> {
  if (!texts.length) return [];
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (cfg.key) headers.authorization = `Bearer ${cfg.key}`;
  let body: unknown;
  try {
    const res = await fetch(cfg.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: cfg.model, input: texts }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      const detail = (await res.text().catch(() => "")).slice(0, 200).replace(/\s+/g, " ");
      throw new EmbedError(
        `the embeddings endpoint ${cfg.url} answered HTTP ${res.status}${
          detail ? `: ${detail}` : ""
        }`,
        EMBED_HINT,
      );
    }
    body = await res.json();
  } catch (e) {
    if (e instanceof EmbedError) throw e;
    const name = (e as Error).name;
    const why = name === "TimeoutError" || name === "AbortError"
      ? `gave no answer within ${timeoutMs} ms`
      : `is unreachable (${(e as Error).message})`;
    throw new EmbedError(`the embeddings endpoint ${cfg.url} ${why}`, EMBED_HINT);
  }
  const vectors = cfg.dialect === "ollama" ? ollamaVectors(body) : openaiVectors(body);
  if (!vectors || vectors.length !== texts.length || vectors.some((v) => !v.length)) {
    throw new EmbedError(
      `the embeddings endpoint ${cfg.url} answered no ${cfg.dialect} embeddings for ${texts.length} texts`,
      EMBED_HINT,
    );
  }
  return vectors.map(unit);
}

function numbers(v: unknown): number[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x)) ? v : null;
}

function ollamaVectors(body: unknown): number[][] | null {
  const e = (body as { embeddings?: unknown })?.embeddings;
  if (!Array.isArray(e)) return null;
  const out = e.map(numbers);
  return out.every((v) => v) ? out as number[][] : null;
}

function openaiVectors(body: unknown): number[][] | null {
  const d = (body as { data?: unknown })?.data;
  if (!Array.isArray(d)) return null;
  const out: number[][] = [];
  for (const [i, item] of d.entries()) {
    const v = numbers((item as { embedding?: unknown })?.embedding);
    const at = (item as { index?: unknown })?.index;
    if (!v) return null;
    out[typeof at === "number" ? at : i] = v;
  }
  return out;
}

/** `v` scaled to unit length (a zero vector stays zero), as float32. */
export function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const k = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * k;
  return out;
}

/** Cosine of two unit vectors (0 when their lengths differ: another model wrote one). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
