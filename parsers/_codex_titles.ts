/**
 * Thread titles of Codex-format homes: `session_index.jsonl` beside
 * `sessions/` holds `{id, thread_name, updated_at}` lines (observed in a Codex
 * 0.116–0.121 home; newer builds stop writing it), the last line per id wins.
 * Read once per file size and mtime.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { SourceRef } from "../core/model.ts";
import { readLines } from "./_jsonl.ts";
import { statOrNull } from "../core/fs.ts";
import { obj, str } from "./_util.ts";

/** Titles from `session_index.jsonl`, cached by the file's size and mtime. */
const titleCache = new Map<string, { stamp: string; names: Map<string, string> }>();

/** The title `session_index.jsonl` gives thread `id`, if any. */
export async function titleFor(source: SourceRef, id: string): Promise<string | undefined> {
  const index = source.hint?.index ?? indexBeside(source.path);
  if (!index) return undefined;
  const st = await statOrNull(index);
  if (!st?.isFile()) return undefined;
  const stamp = `${st.size}:${st.mtimeMs}`;
  let hit = titleCache.get(index);
  if (hit?.stamp !== stamp) {
    hit = { stamp, names: new Map() };
    const dec = new TextDecoder();
    try {
      for await (const line of readLines(index, 0, 1 << 20)) {
        try {
          const o = obj(JSON.parse(dec.decode(line.bytes)));
          const [k, v] = [str(o?.id), str(o?.thread_name)?.trim()];
          if (k && v) hit.names.set(k, v);
        } catch { /* a torn or foreign line */ }
      }
    } catch {
      return undefined;
    }
    titleCache.set(index, hit);
  }
  return hit.names.get(id);
}

/** `<home>/session_index.jsonl` for a rollout under `sessions/` or `archived_sessions/`. */
function indexBeside(path: string): string | undefined {
  let dir = dirname(path);
  for (let i = 0; i < 6; i++) {
    const name = basename(dir);
    if (name === "sessions" || name === "archived_sessions") {
      return join(dirname(dir), "session_index.jsonl");
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
