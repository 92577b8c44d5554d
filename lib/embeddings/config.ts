/**
 * The optional embeddings endpoint, off unless the user names one:
 * `DEJA_EMBED_URL` (and `DEJA_EMBED_MODEL`, `DEJA_EMBED_API_KEY`,
 * `DEJA_EMBED_TIMEOUT_MS`), else `${XDG_CONFIG_HOME:-~/.config}/deja/embeddings.json`
 * (`{"url": ..., "model": ...}`; the key is read from the environment only,
 * never from a file deja reads). Environment values win over the file's.
 *
 * Two dialects, told apart by the URL's path: Ollama (`/api/embed`) and
 * OpenAI-compatible (anything else, e.g. `/v1/embeddings` of OpenAI,
 * llama.cpp's server, LM Studio, vLLM).
 *
 * @module
 */
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { xdgConfig } from "../../core/paths.ts";
import { readTextSync } from "../../core/fsread.ts";

/** A configured endpoint. */
export interface EmbedConfig {
  /** The full endpoint URL (`http://127.0.0.1:11434/api/embed`). */
  url: string;
  /** The embedding model's name as the endpoint knows it. */
  model: string;
  /** Request and response shape. */
  dialect: "ollama" | "openai";
  /** Sent as `Authorization: Bearer <key>` when set (`DEJA_EMBED_API_KEY`). */
  key?: string;
  /** Milliseconds one request may take (default 3000 for a query, 30000 at index time). */
  timeoutMs?: number;
}

/** Where the configuration file is. */
export function embedConfigFile(env: Env): string {
  return join(xdgConfig(env), "deja", "embeddings.json");
}

/** The configuration, or why there is none usable. */
export type ConfigResult =
  | { config: EmbedConfig; problem?: undefined }
  | { config: null; problem?: string };

/**
 * Reads the configuration. No URL anywhere: `{config: null}` and nothing is
 * ever sent. A bad file or URL: `{config: null, problem}` (the caller warns).
 */
export function embedConfig(env: Env): ConfigResult {
  let file: { url?: unknown; model?: unknown; timeout_ms?: unknown } = {};
  const path = embedConfigFile(env);
  let text: string | undefined;
  try {
    text = readTextSync(path);
  } catch { /* no file */ }
  if (text !== undefined) {
    try {
      const v = JSON.parse(text);
      if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
      file = v;
    } catch (e) {
      return { config: null, problem: `${path} is not a JSON object (${(e as Error).message})` };
    }
  }
  const url = env.get("DEJA_EMBED_URL") ?? (typeof file.url === "string" ? file.url : undefined);
  if (!url) return { config: null };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { config: null, problem: `the embeddings URL '${url}' is not a URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { config: null, problem: `the embeddings URL '${url}' is not http(s)` };
  }
  const dialect = /\/api\/embed\/?$/.test(parsed.pathname) ? "ollama" : "openai";
  const model = env.get("DEJA_EMBED_MODEL") ??
    (typeof file.model === "string" ? file.model : undefined) ??
    (dialect === "ollama" ? "nomic-embed-text" : "text-embedding-3-small");
  const t = Number(env.get("DEJA_EMBED_TIMEOUT_MS") ?? file.timeout_ms);
  return {
    config: {
      url,
      model,
      dialect,
      key: env.get("DEJA_EMBED_API_KEY"),
      ...(Number.isFinite(t) && t > 0 ? { timeoutMs: t } : {}),
    },
  };
}
