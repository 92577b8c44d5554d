/**
 * Codex CLI rollouts.
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
  ToolCallInfo,
} from "../lib/model.ts";
import { headRecords, readJsonl, readLines } from "./_jsonl.ts";
import { statOrNull, walk } from "./_fs.ts";
import { rootFrom } from "./_roots.ts";
import { toMillis } from "./_time.ts";
import { blockText, num, type Obj, obj, str } from "./_util.ts";
import {
  customToolCall,
  envContextCwd,
  functionCall,
  isAbsAny,
  isInjectedUserMessage,
  localShellCall,
  readOutput,
  resultInfo,
  uuid7Millis,
} from "./_codex_tools.ts";

/** Response-item payload types that carry nothing to index (reasoning is dropped on purpose). */
const QUIET_ITEMS = new Set([
  "reasoning",
  "ghost_snapshot",
  "compaction",
  "compaction_summary",
  "image_generation_call",
  "tool_search_call",
  "tool_search_output",
  "other",
]);

/** Response-item payload types, also used to recognise the bare records of 2025 rollouts. */
const ITEM_TYPES = new Set([
  ...QUIET_ITEMS,
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

/** Outer record types Codex writes that carry nothing to index. */
const QUIET_RECORDS = new Set(["world_state", "token_usage_record"]);

/** What a parse hands to the next pass of the same file (JSON). */
interface CodexState {
  /** Session id, once a `session_meta` settled it. */
  id?: string;
  cwd?: string;
  parent?: string;
  model?: string;
  /** Epoch ms: the session's first time. */
  started?: number;
  /** Epoch ms: when this thread was created (fork boundary test). */
  created?: number;
  /** A roled user/assistant message was seen: `event_msg` speech is a duplicate. */
  roled?: boolean;
  /** Inside a parent's history copied into a forked rollout. */
  inherited?: boolean;
}

/**
 * Codex CLI (`codex`) — rollout JSONL, kind "append".
 *
 * Store: `${DEJA_CODEX_ROOT:-${CODEX_HOME:-~/.codex}}/sessions/YYYY/MM/DD/rollout-<local
 * time>-<thread uuid>.jsonl` and, once archived, the flat `archived_sessions/` (observed in
 * realdata/codex, Codex Desktop/VS Code 0.116–0.121, and realdata/farm/codex, Codex 0.171.0).
 * One file per thread; each line `{timestamp (ISO, ms), type, payload}`. Titles come from
 * `session_index.jsonl` `{id, thread_name, updated_at}` beside them (last line per id wins)
 * when that file exists. `history.jsonl` (prompt history, `ts` in seconds) is not read: its
 * prompts repeat the rollouts'. The `*.sqlite` files are Codex state, not transcripts.
 *
 * Mapping (formats-anchor §3.2, confirmed on the real files unless noted):
 * - id: the first `session_meta`'s `payload.id` (thread id) when a string; `session_id` when
 *   `id` is absent (legacy); else the uuid ending the file name. cwd -> project; model from the
 *   latest `turn_context.model`.
 * - A forked or spawned thread's file holds its own meta, then a copy of the parent's rollout
 *   (starting with the parent's meta), then its own turns (realdata Codex Desktop 0.119; codex-rs
 *   writes `InitialHistory::Forked` items as is, read via the search tool). The copy is dropped:
 *   it ends at the first `task_started` whose `started_at` (s) or UUIDv7 `turn_id` is not older
 *   than the thread's creation. A spawned subagent gets `parent` =
 *   `source.subagent.thread_spawn.parent_thread_id` (or `forked_from_id`).
 * - Roled `response_item` messages are the speech; `event_msg` user/agent messages only count
 *   when the file has no roled message. developer/system roles and injected user-role
 *   preambles (`<environment_context>`, AGENTS.md, ...) are dropped. Reasoning is dropped.
 * - Tools: see `_codex_tools.ts`. `compacted.payload.message` -> summary.
 * - Bare 2025 records (`{id, timestamp, instructions}` header, `{record_type:"state"}`, items
 *   without an envelope) read the same way (other readers' fixtures, via the search tool).
 */
export const codex: Parser = {
  id: "codex",
  async discover(ctx: DiscoverCtx): Promise<Discovery> {
    const root = rootFrom(ctx.env, "codex", [["CODEX_HOME", ""]], "~/.codex");
    const sources: SourceRef[] = [];
    const match = (_p: string, name: string) =>
      name.startsWith("rollout-") && name.endsWith(".jsonl");
    const hint = { index: join(root, "session_index.jsonl") };
    for (const [dir, maxDepth] of [["sessions", 6], ["archived_sessions", 0]] as const) {
      for await (const path of walk(join(root, dir), { match, maxDepth, onError: ctx.problem })) {
        sources.push({ harness: "codex", path, kind: "append", hint });
      }
    }
    return { roots: [root], sources };
  },
  parse: parseRollout,
};

async function* parseRollout(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const path = source.path;
  const prior = obj(ctx.state) as CodexState | undefined;
  const st: CodexState = prior ? { ...prior } : {};
  if (!prior && ctx.offset > 0) await recoverHead(path, st);
  const r = new Reader(path, st, (reason, where) => ctx.skip(reason, where));
  let records = 0;
  for await (const line of readJsonl(path, ctx)) {
    records++;
    r.record(line.value, `${path}@${line.start}`);
  }
  if (records === 0 && ctx.offset === 0) ctx.skip("empty", path, "no records");
  ctx.endState = st;
  const events = r.events.filter((e) => !e.fallback || !st.roled).map((e) => e.ev);
  if (events.length === 0) return;
  const title = await titleFor(source, st.id ?? fileId(path));
  yield {
    harness: "codex",
    id: st.id ?? fileId(path),
    ...(st.cwd ? { project: st.cwd } : {}),
    ...(title ? { title } : {}),
    ...(st.started !== undefined ? { started: st.started } : {}),
    ...(r.updated !== undefined ? { updated: r.updated } : {}),
    ...(st.model ? { model: st.model } : {}),
    ...(st.parent ? { parent: st.parent } : {}),
    path,
    events,
  };
}

/** Rebuilds the state from the first records when a resumed pass has none saved. */
async function recoverHead(path: string, st: CodexState): Promise<void> {
  const r = new Reader(path, st, () => {});
  for (const v of await headRecords(path, 64)) r.record(v, path);
  st.inherited = false;
}

/** The id a file name gives: the uuid before `.jsonl`, else the stem without `rollout-`. */
function fileId(path: string): string {
  const name = basename(path);
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name);
  return m ? m[1] : name.replace(/^rollout-/, "").replace(/\.jsonl$/, "");
}

/** Folds records into events, updating the shared state. */
class Reader {
  readonly events: { ev: Event; fallback: boolean }[] = [];
  updated?: number;
  constructor(
    private readonly path: string,
    private readonly st: CodexState,
    private readonly skip: (reason: "unknown_record" | "bad_shape", where: string) => void,
  ) {}

  record(value: unknown, where: string): void {
    const rec = obj(value);
    if (!rec) return this.skip("bad_shape", where);
    let type = str(rec.type);
    let payload = obj(rec.payload);
    if (!payload) {
      if (rec.record_type !== undefined) return; // 2025 `{"record_type":"state"}` marker
      if (type === undefined && str(rec.id) && rec.timestamp !== undefined) {
        [type, payload] = ["session_meta", rec];
      } else if (type !== undefined && ITEM_TYPES.has(type)) {
        [type, payload] = ["response_item", rec];
      } else {
        return this.skip("unknown_record", where);
      }
    }
    const time = toMillis(rec.timestamp);
    this.touch(time);
    switch (type) {
      case "session_meta":
        return this.meta(payload, time);
      case "turn_context":
        if (this.st.inherited) return;
        this.st.model = str(payload.model) ?? this.st.model;
        return this.noteCwd(str(payload.cwd));
      case "response_item":
        if (!this.st.inherited) this.item(payload, time, where);
        return;
      case "event_msg":
        return this.event(payload, time);
      case "compacted": {
        const text = str(payload.message)?.trim();
        if (text && !this.st.inherited) this.push({ kind: "summary", text, time });
        return;
      }
      default:
        if (type === undefined || !QUIET_RECORDS.has(type)) this.skip("unknown_record", where);
    }
  }

  private touch(time: number | undefined): void {
    if (time === undefined) return;
    if (this.st.started === undefined || time < this.st.started) this.st.started = time;
    if (this.updated === undefined || time > this.updated) this.updated = time;
  }

  private push(ev: Event, fallback = false): void {
    this.events.push({ ev: ev.time === undefined ? dropTime(ev) : ev, fallback });
  }

  private noteCwd(cwd: string | undefined): void {
    if (!this.st.cwd && cwd && isAbsAny(cwd)) this.st.cwd = cwd;
  }

  private meta(p: Obj, time: number | undefined): void {
    const id = metaId(p) ?? (this.st.id === undefined ? fileId(this.path) : undefined);
    if (this.st.id !== undefined) {
      // A second meta with another id opens a copy of the parent's history.
      if (id !== undefined && id !== this.st.id) this.st.inherited = true;
      return;
    }
    this.st.id = id;
    const created = toMillis(p.timestamp) ?? time ?? uuid7Millis(p.id);
    if (created !== undefined) this.st.created = created;
    this.touch(created);
    this.noteCwd(str(p.cwd));
    const source = obj(p.source);
    const sub = source?.subagent;
    const spawn = obj(obj(sub)?.thread_spawn);
    const parent = str(spawn?.parent_thread_id) ??
      (sub !== undefined ? str(p.forked_from_id) : undefined);
    if (parent && parent !== id) this.st.parent = parent;
  }

  private event(p: Obj, time: number | undefined): void {
    const t = str(p.type);
    if (t === "task_started" || t === "turn_started") {
      if (this.st.inherited && this.ownTurn(p)) this.st.inherited = false;
      return;
    }
    if (this.st.inherited) return;
    const text = typeof p.message === "string" ? p.message.trim() : "";
    if (!text) return;
    if (t === "user_message" && !isInjectedUserMessage({}, [text])) {
      this.push({ kind: "user", text, time }, true);
    } else if (t === "agent_message") {
      this.push({ kind: "assistant", text, time }, true);
    }
    // Every other event_msg (token_count, task_complete, item_completed, error, ...) is the
    // UI event stream: it repeats items or carries nothing to index.
  }

  /** True when a turn began at or after this thread's creation (not a copied parent turn). */
  private ownTurn(p: Obj): boolean {
    const created = this.st.created;
    const started = toMillis(num(p.started_at)) ?? uuid7Millis(p.turn_id);
    if (created === undefined || started === undefined) return true;
    return started >= Math.floor(created / 1000) * 1000;
  }

  private item(p: Obj, time: number | undefined, where: string): void {
    const t = str(p.type) ?? "";
    const cwd = this.st.cwd;
    switch (t) {
      case "message":
        return this.message(p, time);
      case "function_call":
        return this.call(functionCall(str(p.name) ?? "unknown", p.arguments, cwd), p, time);
      case "custom_tool_call":
        return this.call(customToolCall(str(p.name) ?? "unknown", p.input, cwd), p, time);
      case "local_shell_call":
        return this.call(localShellCall(obj(p.action)), p, time);
      case "web_search_call":
        return this.call({ name: "web_search", input: p.action }, p, time);
      case "function_call_output":
      case "custom_tool_call_output": {
        const out = readOutput(p.output);
        const result = resultInfo(str(p.call_id), out);
        return this.push({ kind: "tool_result", text: out.text, time, result });
      }
      default:
        if (!QUIET_ITEMS.has(t)) this.skip("unknown_record", where);
    }
  }

  private call(tool: ToolCallInfo, p: Obj, time: number | undefined): void {
    const id = str(p.call_id) ?? str(p.id);
    if (id) tool.id = id;
    this.push({ kind: "tool_call", text: "", time, tool });
  }

  private message(p: Obj, time: number | undefined): void {
    const role = str(p.role);
    if (role !== "user" && role !== "assistant") return; // developer, system: harness-authored
    const parts = typeof p.content === "string" ? [p.content] : textParts(p.content);
    if (role === "user" && isInjectedUserMessage(p, parts)) {
      for (const part of parts) this.noteCwd(envContextCwd(part));
      return;
    }
    this.st.roled = true; // injected preambles do not count: event-only files may carry them
    const text = parts.join("\n").trim();
    if (text) this.push({ kind: role, text, time });
  }
}

function textParts(content: unknown): string[] {
  return (Array.isArray(content) ? content : []).map((b) => blockText([b])).filter((t) => t);
}

/** The id a `session_meta` payload names: `id` when a string, `session_id` when `id` is absent. */
function metaId(p: Obj): string | undefined {
  if (typeof p.id === "string" && p.id) return p.id;
  if (p.id === undefined || p.id === null || p.id === "") return str(p.session_id);
  return undefined;
}

function dropTime(ev: Event): Event {
  const { time: _t, ...rest } = ev;
  return rest;
}

/** Titles from `session_index.jsonl`, cached by the file's size and mtime. */
const titleCache = new Map<string, { stamp: string; names: Map<string, string> }>();

async function titleFor(source: SourceRef, id: string): Promise<string | undefined> {
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

/** `<codex home>/session_index.jsonl` for a rollout under `sessions/` or `archived_sessions/`. */
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
