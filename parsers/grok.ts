/**
 * Grok Build (xAI's `grok` CLI) and the `grok.db` of superagent-ai's `grok`
 * CLI, the two products that keep sessions under `~/.grok`.
 *
 * Grok Build store, `${DEJA_GROK_ROOT:-${GROK_HOME:-~/.grok}}/sessions/` (docs.x.ai
 * "Sessions"; `GROK_HOME` relocation from SpecStory's Grok page and
 * harness-convert's `docs/grok-format.md`, read via the search tool):
 * - `sessions/<url-encoded cwd>/<session id>/updates.jsonl`: the ACP
 *   `session/update` stream, append-only (kind "append"; `_grok_acp.ts`).
 *   Its `timestamp` is epoch **seconds** (harness-convert, which writes
 *   sessions Grok resumes), `params._meta.agentTimestampMs` epoch ms is the
 *   fallback (docs/registry/grok.md).
 * - `summary.json` beside it: `info.id`, `info.cwd`, `generated_title`,
 *   `session_summary`, `created_at`/`updated_at` (ISO), `current_model_id`,
 *   `session_kind` (`subagent`, `subagent_fork`), `parent_session_id`
 *   (docs/registry/grok.md; harness-convert). Read on every pass.
 * - `<group>/.cwd` holds the real cwd when the encoded name would be too long
 *   (harness-convert). Other files (`chat_history.jsonl`, `events.jsonl`,
 *   `signals.json`, ...) are not read.
 * - Session id = `info.id`, else the directory name; project = `info.cwd`,
 *   else `.cwd`, else the URL-decoded group name when it is an absolute path;
 *   title = `generated_title`, else `session_summary`; a subagent's `parent`
 *   is `parent_session_id` (a `subagent` without one keeps no edge).
 *
 * `grok.db` (`${DEJA_GROK_DB:-<root>/grok.db}`, where root is DEJA_GROK_ROOT
 * or `~/.grok`: superagent-ai/grok-cli opens `os.homedir()/.grok/grok.db`
 * whatever GROK_HOME says): SQLite, read by `_grok_db.ts`; watermark = newest
 * `sessions.updated_at` in epoch ms.
 *
 * The npm `@vibe-kit/grok-cli` (0.0.x, the farm's `grok`) keeps no history at
 * all: it writes only `.grok/settings.json`, and its headless `-p` mode prints
 * OpenAI-style `{role, content, tool_calls}` lines on stdout (realdata/farm/grok,
 * 0.0.34). Such lines are not ACP updates and count as `unknown_record`.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Env,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { isRegularFile, readJsonFile, readText, walk } from "../core/fs.ts";
import { expandHome, isWindowsDrivePath, overrideVar, rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { type Obj, obj, str } from "./_util.ts";
import { AcpReader, type AcpState } from "./_grok_acp.ts";
import { parseGrokDb } from "./_grok_db.ts";
import { newSession, type SessionMeta, spanTimes } from "./_session_meta.ts";

const ID = "grok";
/** Events held before a chunk is yielded. */
const CHUNK_EVENTS = 256;
/** Titles Grok Build writes before it has made one (harness-convert drops the same). */
const PLACEHOLDER_TITLES = new Set(["New session", "New Agent"]);

/** `${DEJA_GROK_ROOT:-${GROK_HOME:-~/.grok}}`. */
export function grokHome(env: Env): string {
  return rootFrom(env, ID, [["GROK_HOME", ""]], "~/.grok");
}

/** Where `grok.db` is looked for. */
export function grokDbPath(env: Env): string {
  const db = env.get("DEJA_GROK_DB");
  if (db) return expandHome(env, db);
  const root = env.get(overrideVar(ID)) ? grokHome(env) : expandHome(env, "~/.grok");
  return join(root, "grok.db");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const sessions = join(grokHome(env), "sessions");
  const db = grokDbPath(env);
  const out: SourceRef[] = [];
  const match = (_p: string, name: string) => name === "updates.jsonl";
  for await (const path of walk(sessions, { match, maxDepth: 5, onError: problem })) {
    out.push({
      harness: ID,
      path,
      kind: "append",
      companions: [join(dirname(path), "summary.json")],
    });
  }
  if (await isRegularFile(db, problem)) {
    out.push({ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`] });
  }
  return { roots: [sessions, db], sources: out };
}

/** Session facts from `summary.json` and the directory layout. */
interface Facts extends SessionMeta {
  id: string;
}

async function facts(path: string): Promise<Facts> {
  const dir = dirname(path);
  const group = dirname(dir);
  const sum: Obj = obj(await readJsonFile(join(dir, "summary.json"))) ?? {};
  const info = obj(sum.info) ?? {};
  const f: Facts = { id: str(info.id) ?? basename(dir) };
  f.project = str(info.cwd) ?? await groupCwd(group);
  const title = [str(sum.generated_title), str(sum.session_summary)]
    .find((t) => t && !PLACEHOLDER_TITLES.has(t.trim()));
  if (title) f.title = title.trim();
  f.model = str(sum.current_model_id);
  f.parent = str(sum.parent_session_id);
  if (f.parent && f.parent === f.id) f.id = `${f.parent}/${basename(dir)}`;
  f.started = toMillis(sum.created_at);
  f.updated = toMillis(sum.updated_at);
  return f;
}

/** The cwd a session group stands for: its `.cwd` file, else its URL-decoded name. */
async function groupCwd(group: string): Promise<string | undefined> {
  try {
    const t = (await readText(join(group, ".cwd"), 64 << 10)).trim();
    if (t) return t;
  } catch { /* no .cwd */ }
  let name: string;
  try {
    name = decodeURIComponent(basename(group));
  } catch {
    return undefined;
  }
  return name.startsWith("/") || isWindowsDrivePath(name) ? name : undefined;
}

async function* parseUpdates(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const f = await facts(source.path);
  const reader = new AcpReader(obj(ctx.state) as AcpState | undefined, f.project);
  const chunk = (events: Session["events"]): Session => {
    const meta = { project: f.project, title: f.title, model: f.model, parent: f.parent };
    return spanTimes(newSession(ID, f.id, source.path, events, meta), f.started, f.updated);
  };
  let pending = 0;
  let yielded = false;
  for await (const line of readJsonl(source.path, ctx)) {
    const skip = reader.record(line.value, line.start);
    if (skip) ctx.skip(skip.reason, `${source.path}@${line.start}`, skip.detail);
    if (++pending < CHUNK_EVENTS) continue;
    pending = 0;
    const events = reader.take();
    if (events.length) {
      yield chunk(events);
      yielded = true;
    }
  }
  const events = reader.take();
  const had = obj(ctx.state)?.had === true;
  // A resumed pass with nothing new still refreshes the title and times from summary.json.
  if (events.length || (!yielded && had)) yield chunk(events);
  ctx.endState = { ...reader.state(), ...(had || yielded || events.length ? { had: true } : {}) };
}

/** The Grok parser. */
export const grok: Parser = {
  id: ID,
  discover,
  parse(source, ctx) {
    return basename(source.path) === "updates.jsonl" || source.kind === "append"
      ? parseUpdates(source, ctx)
      : parseGrokDb(source, ctx);
  },
};
