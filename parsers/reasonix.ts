/**
 * Reasonix (esengine/DeepSeek-Reasonix): JSONL transcripts and the 1.x
 * frame logs. Store layout from docs/registry/reasonix.md (third-party reading of
 * `internal/contract/config/{storage_roots,paths}.go`; no real store here).
 *
 * State root: `${DEJA_REASONIX_ROOT}`, else `$REASONIX_STATE_HOME`, else the
 * `[storage] state` entry of `${REASONIX_HOME:-~/.reasonix}/config.toml`,
 * else `$REASONIX_HOME`, else `~/.reasonix` (`%APPDATA%\reasonix` on Windows).
 * Under it:
 * - `projects/<workspace slug>/sessions/<id>.jsonl` and `sessions/<id>.jsonl`
 *   (0.x and 2.x): one flat message per line, appended (an `append`
 *   source). Sidecar `<id>.jsonl.meta` `{created_at, updated_at,
 *   workspace_root, custom_title, topic_title, name}` (0.x: `<id>.meta.json`
 *   `{workspace, summary}`), read on every pass. Siblings named
 *   `<id>.<something>.jsonl` (`.events`, `.wire`, `.guardian`, ...),
 *   `subagent-*.jsonl` and `subagents/` are not transcripts.
 * - `projects/<slug>/sessions-v4/<id>/events.frames`, `sessions-v4/<id>/…`,
 *   and `desktop-sessions-v5/by-id/<id>/…` (1.x, a `document` source):
 *   `manifest.json {sessionId, createdAt}`, desktop `header.json {cwd}`.
 *   The same id may exist in several stores; desktop wins over sessions-v4,
 *   which wins over JSONL. Dot-directories (`.content-v1`) are not entered.
 *
 * Mapping (`_reasonix_store.ts`): user (`raw_content` before `content`;
 * `host_authored` lines dropped), assistant text, tool calls with decoded
 * arguments (`bash` command, `read_file` paths, `write_file` writes,
 * `edit_file` / `multi_edit` edits, `move_file` paths), tool results with
 * `tool_execution.exitCode`; `system` and `local_only` lines dropped.
 * Session id: the file stem or directory name; project: `workspace_root`
 * (or `header.json` cwd); title: `custom_title`, `topic_title`, `name`,
 * then a replayed `session/title`. Times: `createdAt` is Unix **ms**;
 * sidecar `created_at` / `updated_at` read with toMillis.
 *
 * @module
 */
import { readBytes } from "../core/fsread.ts";
import { basename, dirname, join, sep } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { listFiles, readJsonFile, readText, statOrNull } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { expandHome, rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { type Obj, obj, str } from "./_util.ts";
import { reasonixMessageEvents, replayFrames } from "./_reasonix_store.ts";

const ID = "reasonix";
const MAX_FRAMES_BYTES = 256 << 20;

/** The `[storage] state = "..."` entry of a config.toml, when set. */
export function tomlStateDir(toml: string): string | undefined {
  let section = "";
  for (const line of toml.split(/\r?\n/)) {
    const head = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (head) section = head[1].trim();
    const m = /^\s*state\s*=\s*["']([^"']+)["']/.exec(line);
    if (m && section === "storage") return m[1];
  }
  return undefined;
}

/** The Reasonix home (config.toml's folder), or undefined when a variable places the state root. */
function reasonixHome(env: Env): string | undefined {
  if (env.get("DEJA_REASONIX_ROOT") || env.get("REASONIX_STATE_HOME")) return undefined;
  const fallback = env.platform === "win32"
    ? join(env.get("APPDATA") ?? "~/AppData/Roaming", "reasonix")
    : "~/.reasonix";
  return rootFrom(env, ID, [["REASONIX_HOME", ""]], fallback);
}

/** The Reasonix state root. */
export async function reasonixRoot(env: Env): Promise<string> {
  const home = reasonixHome(env);
  if (home === undefined) return rootFrom(env, ID, [["REASONIX_STATE_HOME", ""]], "~/.reasonix");
  try {
    const state = tomlStateDir(await readText(join(home, "config.toml"), 1 << 20));
    if (state) return expandHome(env, state);
  } catch { /* no config: the home is the state root */ }
  return home;
}

type Store = "jsonl" | "v4" | "v5";
const RANK: Record<Store, number> = { jsonl: 0, v4: 1, v5: 2 };

/** Which store a discovered file belongs to, and its session id. */
function classify(root: string, path: string): { store: Store; id: string } | undefined {
  const parts = path.slice(root.length + 1).split(sep);
  if (parts.some((p) => p.startsWith(".") || p === "subagents")) return undefined;
  const name = parts[parts.length - 1];
  const parent = parts[parts.length - 2];
  if (name === "events.frames") {
    const id = parent;
    if (parts[0] === "desktop-sessions-v5" && parts[1] === "by-id" && parts.length === 4) {
      return { store: "v5", id };
    }
    if (parts[parts.length - 3] === "sessions-v4") return { store: "v4", id };
    return undefined;
  }
  const m = /^([^.]+)\.jsonl$/.exec(name);
  if (!m || parent !== "sessions" || m[1].startsWith("subagent-")) return undefined;
  return { store: "jsonl", id: m[1] };
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = await reasonixRoot(env);
  const files = await listFiles(root, {
    match: (_p, n) => n.endsWith(".jsonl") || n === "events.frames",
    maxDepth: 4,
    skipDirs: new Set(["subagents", ".content-v1"]),
    onError: problem,
  });
  const best = new Map<string, { store: Store; path: string }>();
  for (const path of files) {
    const c = classify(root, path);
    const had = c && best.get(c.id);
    if (c && (!had || RANK[had.store] < RANK[c.store])) best.set(c.id, { store: c.store, path });
  }
  const sources: SourceRef[] = [...best.entries()].map(([id, { store, path }]) => ({
    harness: ID,
    path,
    kind: store === "jsonl" ? "append" : "document",
    hint: { id, store },
  }));
  // config.toml may move the state root: an edit of it is a place to look again.
  const home = reasonixHome(env);
  return { roots: [root], sources, ...(home ? { reads: [join(home, "config.toml")] } : {}) };
}

interface Meta {
  project?: string;
  title?: string;
  created?: number;
  updated?: number;
}

/** Sidecar facts of a JSONL transcript (`.jsonl.meta`, or 0.x `.meta.json`). */
async function sidecar(jsonl: string): Promise<Meta> {
  const m = obj(await readJsonFile(`${jsonl}.meta`)) ??
    obj(await readJsonFile(jsonl.replace(/\.jsonl$/, ".meta.json"))) ?? {};
  return {
    project: str(m.workspace_root) ?? str(m.workspace),
    title: str(m.custom_title) ?? str(m.topic_title) ?? str(m.name) ?? str(m.summary),
    created: toMillis(m.created_at),
    updated: toMillis(m.updated_at),
  };
}

function bounds(events: Event[]): { first?: number; last?: number } {
  const t = events.map((e) => e.time).filter((x): x is number => x !== undefined);
  return t.length
    ? { first: t.reduce((a, b) => Math.min(a, b)), last: t.reduce((a, b) => Math.max(a, b)) }
    : {};
}

async function* parseJsonl(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const meta = await sidecar(source.path);
  const events: Event[] = [];
  const skip = ctx.skip.bind(ctx);
  for await (const line of readJsonl(source.path, ctx)) {
    const m = obj(line.value);
    if (!m) skip("bad_shape", `${source.path}@${line.start}`, "not a JSON object");
    else events.push(...reasonixMessageEvents(m, `@${line.start}`, meta.project, skip));
  }
  if (ctx.offset === 0 && ((await statOrNull(source.path))?.size ?? 0) === 0) {
    ctx.skip("empty", source.path);
  }
  if (!events.length) return;
  const { first, last } = bounds(events);
  yield {
    harness: ID,
    id: source.hint?.id ?? basename(source.path, ".jsonl"),
    project: meta.project,
    title: meta.title,
    started: meta.created ?? first,
    updated: meta.updated ?? last,
    path: source.path,
    events,
  };
}

async function* parseFrames(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const dir = dirname(source.path);
  const size = (await statOrNull(source.path))?.size ?? 0;
  if (size === 0 || size > MAX_FRAMES_BYTES) {
    ctx.skip(size === 0 ? "empty" : "oversized", source.path);
    return;
  }
  const replay = replayFrames(
    await readBytes(source.path, MAX_FRAMES_BYTES),
    source.path,
    ctx.skip.bind(ctx),
  );
  const manifest: Obj = obj(await readJsonFile(join(dir, "manifest.json"))) ?? {};
  const id = str(manifest.sessionId) ?? source.hint?.id ?? basename(dir);
  // A sessions-v4 log under projects/<slug>/ shares its sidecar with the JSONL mirror.
  const meta = await sidecar(join(dirname(dirname(dir)), "sessions", `${basename(dir)}.jsonl`));
  const project = str(obj(await readJsonFile(join(dir, "header.json")))?.cwd) ?? meta.project;
  const skip = ctx.skip.bind(ctx);
  const events = replay.messages.flatMap(({ key, msg }) =>
    reasonixMessageEvents(msg, key, project, skip)
  );
  if (!events.length) return;
  const { first, last } = bounds(events);
  yield {
    harness: ID,
    id,
    project,
    title: meta.title ?? replay.title,
    started: toMillis(manifest.createdAt) ?? meta.created ?? first,
    updated: meta.updated ?? last,
    path: source.path,
    events,
  };
}

/** The Reasonix parser: JSONL transcripts (0.x, 2.x) and 1.x frame logs. */
export const reasonix: Parser = {
  id: ID,
  discover,
  parse: (
    source,
    ctx,
  ) => (source.path.endsWith(".jsonl") ? parseJsonl(source, ctx) : parseFrames(source, ctx)),
};
