/**
 * Claude Code transcripts.
 *
 * Store: `${DEJA_CLAUDE_ROOT:-${CLAUDE_CONFIG_DIR:-~/.claude}/projects}`, every
 * `*.jsonl` below it (formats-anchor §3.1; observed in realdata/farm/claude,
 * Claude Code 2.1.332):
 * - `<encoded-cwd>/<sessionId>.jsonl` — one session, append-only JSONL;
 * - `<encoded-cwd>/<sessionId>/subagents/agent-<agentId>.jsonl` — a subagent
 *   run (agent ids like `a897fe51ff61acd8`, `aside_question-<hex>`,
 *   `acompact-<hex>`; public files, Claude Code 2.1.68–2.1.88);
 * - `<encoded-cwd>/agent-<agentId>.jsonl` — the older subagent layout beside
 *   the sessions (public file, Claude Code 2.1.1).
 * `~/.claude/history.jsonl` (prompt history) lives outside `projects/` and is
 * not read.
 *
 * Records: one JSON object per line with `type`. `user` / `assistant` lines
 * carry `message` (Anthropic Messages shape), `uuid`, `sessionId`, `cwd`,
 * `timestamp` (ISO 8601 string -> epoch ms). Everything else is bookkeeping,
 * ignored silently: see {@link BOOKKEEPING}; `custom-title.customTitle` >
 * `ai-title.aiTitle` > `summary.summary` give the title; an `attachment` of
 * type `queued_command` (commandMode `prompt`) is a prompt typed mid-turn.
 * Unknown types are counted as `unknown_record`.
 *
 * Mapping:
 * - Session id = the line's `sessionId`. A subagent (a line in an `agent-*`
 *   file, or with `isSidechain` and `agentId`) gets id
 *   `<parentSessionId>/agent-<agentId>` and `parent` = the parent's
 *   `sessionId` (for `subagents/` files also the directory name).
 * - project = the recorded `cwd` as written (Windows paths kept); only when no
 *   line has one, a lossy decode of the encoded directory name.
 * - One API response is split over several lines, one content block per line,
 *   all with the same `message.id` (observed in every public file and the
 *   farm; 2.1.332 adds `apiBlockIndex`). Event keys are therefore
 *   `a:<message.id>:t:<fnv1a(text)>` for text and `a:<message.id>:c:<tool_use
 *   id>` for tool calls, `u:<uuid>` for user lines and `res:<tool_use_id>` for
 *   results: distinct blocks never collide and a repeated line collapses.
 * - Thinking blocks are dropped; `message.model` gives the model unless it is
 *   `<synthetic>` (harness-made error replies, kept as assistant text).
 * - User lines: `isCompactSummary` -> summary; `isMeta` -> dropped; only
 *   tool_result blocks -> tool_result events (text blocks beside them are
 *   harness notes, dropped); otherwise cleaned prose (see `cleanUserText`).
 *
 * Resume: `ctx.endState` keeps the last sessionId, cwd, title, model and the
 * current session key, so a parse from an offset yields the same ids.
 * Sessions stream out in chunks of {@link CHUNK_EVENTS} events.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import type { Event, ParseCtx, Parser, Session, SourceRef } from "../lib/model.ts";
import { readJsonl } from "./_jsonl.ts";
import { walk } from "./_fs.ts";
import { rootFrom } from "./_roots.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import {
  decodeProjectDir,
  fnv1a,
  hasToolResult,
  toolCallInfo,
  toolResultEvent,
  userText,
} from "./_claude_records.ts";

/** Events held before a chunk is yielded. */
export const CHUNK_EVENTS = 256;

/**
 * Record types Claude Code writes that carry nothing to index (observed in
 * the public files and the farm run, plus the metadata kinds its session
 * loader knows, read via the search tool).
 */
export const BOOKKEEPING: ReadonlySet<string> = new Set([
  "queue-operation",
  "progress",
  "file-history-snapshot",
  "file-history-delta",
  "last-prompt",
  "attachment",
  "system",
  "tag",
  "task-summary",
  "agent-name",
  "agent-color",
  "agent-setting",
  "pr-link",
  "mode",
  "permission-mode",
  "isolation-latch",
  "worktree-state",
  "bridge-session",
  "attribution-snapshot",
  "speculation-accept",
  "content-replacement",
  "fork-context-ref",
  "marble-origami-commit",
  "marble-origami-snapshot",
  "marble-origami-reset",
  "continued-in",
  "ended-by-model",
  "relocated",
  "atis-latch",
  "api-request",
  "api-request-shape",
  "api-request-blob",
  "tools-used",
  "cost-state",
]);

/** Title records, by rank (a higher rank is never replaced by a lower one). */
const TITLES: Record<string, { field: string; rank: number }> = {
  "custom-title": { field: "customTitle", rank: 3 },
  "ai-title": { field: "aiTitle", rank: 2 },
  "summary": { field: "summary", rank: 1 },
};

/** What a pass hands to the next one (JSON). */
interface ClaudeState {
  /** Last `sessionId` seen in the file. */
  sid?: string;
  /** Last `cwd` seen in the file. */
  cwd?: string;
  title?: string;
  rank?: number;
  model?: string;
  /** Session key that last received events, and its parent. */
  cur?: string;
  curParent?: string;
}

/** Facts read from a source path. */
interface FileFacts {
  stem: string;
  /** `agent-<id>.jsonl` -> `<id>`. */
  agentId?: string;
  /** `<parent>/subagents/agent-*.jsonl` -> `<parent>`. */
  dirParent?: string;
  /** The encoded project directory name. */
  encoded: string;
}

function fileFacts(path: string): FileFacts {
  const stem = basename(path).replace(/\.jsonl$/, "");
  const agentId = /^agent-(.+)$/.exec(stem)?.[1];
  const dir = dirname(path);
  const inSub = basename(dir) === "subagents";
  return {
    stem,
    agentId,
    dirParent: inSub ? basename(dirname(dir)) : undefined,
    encoded: basename(inSub ? dirname(dirname(dir)) : dir),
  };
}

interface Route {
  id: string;
  parent?: string;
}

function route(r: Obj, st: ClaudeState, f: FileFacts): Route | undefined {
  const sid = str(r.sessionId) ?? st.sid ?? f.dirParent ?? (f.agentId ? undefined : f.stem);
  if (!sid) return undefined;
  const agentId = str(r.agentId) ?? f.agentId;
  if (agentId && (f.agentId !== undefined || r.isSidechain === true)) {
    return { id: `${sid}/agent-${agentId}`, parent: sid };
  }
  return { id: sid };
}

function assistantEvents(r: Obj, msg: Obj, time: number | undefined, cwd?: string): Event[] {
  const mid = str(msg.id) ?? str(r.uuid) ?? "";
  const content = typeof msg.content === "string"
    ? [{ type: "text", text: msg.content }]
    : arr(msg.content);
  const out: Event[] = [];
  for (const b of content) {
    const o = obj(b);
    if (!o) continue;
    if (o.type === "text" && typeof o.text === "string" && o.text.trim() !== "") {
      out.push({ kind: "assistant", text: o.text, time, key: `a:${mid}:t:${fnv1a(o.text)}` });
    } else if (o.type === "tool_use" || o.type === "server_tool_use") {
      const tool = toolCallInfo(o, cwd);
      const ident = tool.id ?? fnv1a(JSON.stringify(o.input ?? null));
      out.push({ kind: "tool_call", text: "", time, key: `a:${mid}:c:${ident}`, tool });
    }
  }
  return out;
}

function userEvents(r: Obj, msg: Obj, time: number | undefined, f: FileFacts): Event[] {
  const uuid = str(r.uuid);
  const key = uuid ? `u:${uuid}` : undefined;
  const content = msg.content;
  if (r.isCompactSummary === true) {
    const text = userText(content, false);
    return text ? [{ kind: "summary", text, time, key }] : [];
  }
  if (r.isMeta === true) return [];
  if (hasToolResult(content)) {
    const blocks = arr(content).map(obj).filter((o): o is Obj => o?.type === "tool_result");
    const extra = blocks.length === 1 ? r.toolUseResult : undefined;
    return blocks.map((b) => toolResultEvent(b, extra, time));
  }
  const agentId = str(r.agentId) ?? f.agentId;
  const text = userText(content, agentId?.startsWith("acompact-") ?? false);
  return text ? [{ kind: "user", text, time, key }] : [];
}

/** A prompt typed while the agent was busy (`attachment.type` `queued_command`). */
function queuedPrompt(r: Obj, time: number | undefined): Event[] {
  const a = obj(r.attachment);
  if (a?.type !== "queued_command") return [];
  if (a.commandMode !== undefined && a.commandMode !== "prompt") return [];
  const kind = str(obj(a.origin)?.kind);
  if (kind && kind !== "human") return [];
  const text = userText(a.prompt, false);
  const uuid = str(r.uuid);
  return text ? [{ kind: "user", text, time, key: uuid ? `u:${uuid}` : undefined }] : [];
}

function stripUndefined(e: Event): Event {
  if (e.time === undefined) delete e.time;
  if (e.key === undefined) delete e.key;
  return e;
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const f = fileFacts(source.path);
  const st: ClaudeState = { ...(obj(ctx.state) as ClaudeState | undefined) };
  const pending = new Map<string, Session>();
  let held = 0;
  let titleDirty = false;
  const fallbackProject = () => decodeProjectDir(f.encoded);

  const chunkFor = (rt: Route): Session => {
    let s = pending.get(rt.id);
    if (!s) {
      s = { harness: "claude", id: rt.id, path: source.path, events: [] };
      if (rt.parent) s.parent = rt.parent;
      const project = st.cwd ?? fallbackProject();
      if (project) s.project = project;
      pending.set(rt.id, s);
    }
    return s;
  };

  const flush = (): Session[] => {
    const out = [...pending.values()];
    pending.clear();
    held = 0;
    if (st.title && st.cur) {
      const main = out.find((s) => s.id === st.cur);
      if (main) {
        main.title = st.title;
        titleDirty = false;
      } else if (titleDirty) {
        const meta: Session = {
          harness: "claude",
          id: st.cur,
          path: source.path,
          title: st.title,
          events: [],
        };
        if (st.curParent) meta.parent = st.curParent;
        const project = st.cwd ?? fallbackProject();
        if (project) meta.project = project;
        out.push(meta);
        titleDirty = false;
      }
    }
    for (const s of out) if (!s.model && st.model && s.id === st.cur) s.model = st.model;
    return out;
  };

  for await (const line of readJsonl(source.path, ctx)) {
    const where = `${source.path}@${line.start}`;
    const r = obj(line.value);
    if (!r) {
      ctx.skip("bad_shape", where, "record is not an object");
      continue;
    }
    const sid = str(r.sessionId);
    if (sid) st.sid = sid;
    const cwd = str(r.cwd);
    if (cwd) st.cwd = cwd;
    const type = str(r.type) ?? "";
    const time = toMillis(r.timestamp);
    let events: Event[];
    let model: string | undefined;
    if (type === "user" || type === "assistant") {
      const msg = obj(r.message);
      if (!msg) {
        ctx.skip("bad_shape", where, `${type} record without message`);
        continue;
      }
      if (type === "assistant") {
        events = assistantEvents(r, msg, time, st.cwd);
        const m = str(msg.model);
        if (m && m !== "<synthetic>") model = m;
      } else {
        events = userEvents(r, msg, time, f);
      }
    } else if (type === "attachment") {
      events = queuedPrompt(r, time);
    } else if (TITLES[type]) {
      const { field, rank } = TITLES[type];
      const t = str(r[field]);
      if (t && rank >= (st.rank ?? 0)) {
        if (t !== st.title) titleDirty = true;
        st.title = t;
        st.rank = rank;
      }
      continue;
    } else if (BOOKKEEPING.has(type)) {
      continue;
    } else {
      ctx.skip("unknown_record", where, type ? `type ${type}` : "record without type");
      continue;
    }
    if (model) st.model = model;
    if (events.length === 0) continue;
    const rt = route(r, st, f);
    if (!rt) {
      ctx.skip("bad_shape", where, "no session id");
      continue;
    }
    const s = chunkFor(rt);
    if (cwd) s.project = cwd;
    if (model) s.model = model;
    for (const e of events) {
      s.events.push(stripUndefined(e));
      if (e.time !== undefined) {
        s.started = s.started === undefined ? e.time : Math.min(s.started, e.time);
        s.updated = s.updated === undefined ? e.time : Math.max(s.updated, e.time);
      }
    }
    st.cur = rt.id;
    if (rt.parent) st.curParent = rt.parent;
    else delete st.curParent;
    held += events.length;
    if (held >= CHUNK_EVENTS) yield* flush();
  }
  yield* flush();
  ctx.endState = st;
}

/** The Claude Code parser. */
export const claude: Parser = {
  id: "claude",
  async discover({ env, problem }) {
    const root = rootFrom(env, "claude", [["CLAUDE_CONFIG_DIR", "projects"]], "~/.claude/projects");
    const sources: SourceRef[] = [];
    const match = (_p: string, name: string) => name.endsWith(".jsonl");
    for await (const path of walk(root, { match, maxDepth: 6, onError: problem })) {
      sources.push({ harness: "claude", path, kind: "append" });
    }
    return { roots: [root], sources };
  },
  parse,
};
