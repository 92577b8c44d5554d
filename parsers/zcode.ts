/**
 * ZCode, Z.ai's desktop coding agent, and its CLI.
 *
 * Store, under `${DEJA_ZCODE_ROOT:-~/.zcode}` (docs/registry/zcode.md, a low-confidence
 * third-party note: deja-vu's registry, citing volcengine/OpenViking's plugin
 * notes and the `zcode-stats` tool; no real store was available):
 * - `projects/<encoded-cwd>/<session>.jsonl` — append-only transcripts of flat
 *   lines `{role, content, timestamp, sessionId, usage?}` (the shape of Command
 *   Code's v2 transcripts); `usage` is ignored. Content is a string or
 *   Anthropic-shaped blocks (`text`, `tool_use`, `tool_result`, `thinking`).
 * - `cli/db/db.sqlite` (+ `-wal`) — the CLI's store in opencode's schema
 *   (`session` / `message(data)` / `part(data)`), read by the shared
 *   `readOpencodeDb` (a `sqlite` source, watermark `max(session.time_updated)`
 *   in ms). Its `session.task_type` (`interactive`, `subagent_child`, `fork`)
 *   is not read: a subagent's `parent_id` already files it under its parent.
 *
 * Mapping (transcripts): session id = the lines' `sessionId` (else the file
 * stem, so a resumed pass gives the same id); project = the lossy decode of
 * the encoded folder name (`-w-z` -> `/w/z`), as no line names a cwd.
 * `timestamp` is ISO 8601 or epoch (s/ms). user text -> user; a user line of
 * `tool_result` blocks -> tool_result events; assistant text -> assistant,
 * `tool_use` -> tool_call (Claude Code's tool names assumed: unconfirmed);
 * `system` lines dropped; any other role, or a line with no role, is counted
 * `unknown_record`.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
} from "../core/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { isRegularFile, listFiles } from "../core/fs.ts";
import { rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import {
  assistantEvents,
  decodeProjectDir,
  hasToolResult,
  toolResultEvent,
  userText,
} from "./_message_blocks.ts";
import { readOpencodeDb } from "./_opencode_db.ts";

const ID = "zcode";

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const home = rootFrom(env, ID, [], "~/.zcode");
  const projects = join(home, "projects");
  const dbDir = join(home, "cli", "db");
  const match = (_p: string, name: string) => name.endsWith(".jsonl");
  const sources: SourceRef[] = (await listFiles(projects, { match, maxDepth: 1, onError: problem }))
    .map((path) => ({ harness: ID, path, kind: "append" as const }));
  const db = join(dbDir, "db.sqlite");
  if (await isRegularFile(db, problem)) {
    sources.push({ harness: ID, path: db, kind: "sqlite", companions: [`${db}-wal`] });
  }
  return { roots: [projects, dbDir], sources };
}

/** What a resumed pass needs from earlier lines. */
interface State {
  sid?: string;
}

/** One flat line -> events (keys from the line's byte offset). */
function lineEvents(r: Obj, at: number, cwd: string | undefined): Event[] | undefined {
  const role = r.role;
  const content = r.content;
  const key = `l:${at}`;
  if (role === "system") return [];
  if (role === "user") {
    if (hasToolResult(content)) {
      return arr(content).map(obj).filter((b): b is Obj => b?.type === "tool_result")
        .map((b) => toolResultEvent(b, undefined));
    }
    const text = userText(content);
    return text ? [{ kind: "user", text, key }] : [];
  }
  if (role === "assistant") return assistantEvents(key, content, undefined, cwd);
  return undefined;
}

async function* parseTranscript(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const st: State = { ...(obj(ctx.state) as State | undefined) };
  const cwd = decodeProjectDir(basename(dirname(source.path)));
  const events: Event[] = [];
  for await (const line of readJsonl(source.path, ctx)) {
    const where = `${source.path}@${line.start}`;
    const r = obj(line.value);
    if (!r) {
      ctx.skip("bad_shape", where, "line is not an object");
      continue;
    }
    st.sid ??= str(r.sessionId);
    const time = toMillis(r.timestamp);
    const evs = lineEvents(r, line.start, cwd);
    if (!evs) {
      const what = typeof r.role === "string" ? `role ${r.role}` : `type ${String(r.type)}`;
      ctx.skip("unknown_record", where, what);
      continue;
    }
    for (const e of evs) {
      if (time !== undefined) e.time = time;
      else delete e.time;
      events.push(e);
    }
  }
  ctx.endState = st;
  if (!events.length) return;
  const id = st.sid ?? basename(source.path, ".jsonl");
  yield spanTimes(newSession(ID, id, source.path, events, { project: cwd }));
}

/** The ZCode parser. */
export const zcode: Parser = {
  id: ID,
  discover,
  parse: (source, ctx) =>
    source.kind === "sqlite" ? readOpencodeDb(ID, source.path, ctx) : parseTranscript(source, ctx),
};
