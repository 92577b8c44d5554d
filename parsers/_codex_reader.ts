/**
 * The Codex rollout reader, shared by every harness that writes Codex rollouts
 * (`codex`, and TRAE CLI, a codex-rs fork). A harness names its differences in
 * a {@link RolloutDialect}; with the empty dialect this is exactly Codex.
 *
 * Format facts (record types, fork copies, titles) are documented in
 * `parsers/codex.ts`; tool records in `_responses_items.ts`.
 *
 * @module
 */
import { basename } from "node:path";
import type { Event, ParseCtx, ToolCallInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { blockText, num, type Obj, obj, str, withModel } from "./_util.ts";
import {
  customToolCall,
  envContextCwd,
  functionCall,
  isInjectedUserMessage,
  localShellCall,
  readOutput,
  resultInfo,
  uuid7Millis,
} from "./_responses_items.ts";
import { isAbsoluteAny } from "../core/paths.ts";
import { fnv1a32 } from "../core/text.ts";

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

/**
 * `session_meta` payload fields known (realdata/codex 0.116–0.121 and the farm run, 0.171.0;
 * `instructions` from the bare 2025 header). Any other is noted as `session_metadata` drift.
 */
const META_FIELDS: ReadonlySet<string> = new Set([
  "id",
  "session_id",
  "timestamp",
  "cwd",
  "originator",
  "cli_version",
  "source",
  "model_provider",
  "base_instructions",
  "instructions",
  "git",
  "dynamic_tools",
  "forked_from_id",
  "agent_nickname",
  "agent_role",
  "account_scoped",
  "runtime_workspace_roots",
  "thread_source",
  "history_mode",
  "context_window",
]);

/** Message roles that are not speech (harness-authored), dropped without a note. */
const QUIET_ROLES = new Set(["developer", "system"]);

/** What a parse hands to the next pass of the same file (JSON). */
export interface RolloutState {
  /** Session id, once a `session_meta` settled it. */
  id?: string;
  cwd?: string;
  parent?: string;
  model?: string;
  /** Epoch ms: the session's first time. */
  started?: number;
  /** Epoch ms: when this thread was created (fork boundary test). */
  created?: number;
  /**
   * A roled user or assistant message was seen: `event_msg` speech of both kinds is a
   * duplicate (what a pass of reader revision 1 recorded; {@link roledKinds} since).
   */
  roled?: boolean;
  /**
   * The kinds (`user`, `assistant`) a roled message was seen of: `event_msg` speech of such a
   * kind is a duplicate. Per kind, not per file: a rollout with roled prompts may hold its
   * replies only as `event_msg` `agent_message`, as the parent's history a forked rollout
   * copies does (realdata Codex Desktop 0.119, fork 019d924b of 019d9249).
   */
  roledKinds?: string[];
  /** Inside a parent's history copied into a forked rollout. */
  inherited?: boolean;
  /** The dialect's own state (JSON). */
  ext?: unknown;
}

/** How a harness's rollouts differ from Codex's. Every member is optional but `harness`. */
export interface RolloutDialect {
  /** Harness id put on the sessions. */
  harness: string;
  /** False: user-role `response_item` messages are the harness's own injections (default true). */
  userItems?: boolean;
  /** Tool names whose arguments hold a shell command, beyond Codex's. */
  shells?: ReadonlySet<string>;
  /** Reads an `event_msg` payload outside a fork copy; true when it was handled. */
  event?(r: RolloutReader, p: Obj, time: number | undefined): boolean;
  /** Reads an outer record type Codex does not write; true when it is the dialect's. */
  record?(r: RolloutReader, type: string, p: Obj, time: number | undefined, where: string): boolean;
  /** True: `history.jsonl` beside the rollouts is read for threads whose rollout is gone. */
  history?: boolean;
  /** The dedupe key of an event about to be kept (see `lib/merge.ts`). */
  key?(r: RolloutReader, ev: Event): string | undefined;
}

/**
 * The text of an `event_msg` `error`: its `message`, or the `error` (or
 * `error.message`) inside it when the provider's JSON reply was passed on whole.
 * Indexed as a `notice` `Error: <text>` (it was the assistant's reply until
 * realdata 019da908 showed a refusal as the model speaking).
 */
function errorMessage(value: unknown): string | undefined {
  const raw = typeof value === "string" ? value.trim() : "";
  if (!raw.startsWith("{")) return raw || undefined;
  try {
    const e = obj(JSON.parse(raw))?.error;
    const inner = typeof e === "string" ? e : str(obj(e)?.message);
    return inner?.trim() || raw;
  } catch {
    return raw;
  }
}

/** The id a file name gives: the uuid before `.jsonl`, else the stem without `rollout-`. */
export function fileId(path: string): string {
  const name = basename(path).replace(/\.zst$/, "");
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name);
  return m ? m[1] : name.replace(/^rollout-/, "").replace(/\.jsonl$/, "");
}

/** Folds rollout records into events, updating the shared state. */
export class RolloutReader {
  readonly events: { ev: Event; fallback: boolean }[] = [];
  updated?: number;
  /** A rollback took back more turns than this pass read (a resumed pass: some were indexed before). */
  overran = false;
  private readonly keys = new Set<string>();
  constructor(
    private readonly path: string,
    readonly st: RolloutState,
    private readonly dialect: RolloutDialect,
    private readonly skip: (
      reason: "unknown_record" | "bad_shape",
      where: string,
      detail?: string,
    ) => void,
    /** Where drift and the harness version are reported (none when recovering a head). */
    private readonly notes: Pick<ParseCtx, "drift" | "version"> = {},
  ) {}

  /**
   * The parent's history a forked rollout copies after its second `session_meta`, read as
   * that thread of its own (meta first), for a parent whose rollout is gone. Only what this
   * pass saw: the copy sits at the head of the file, so a pass from the start has it whole.
   */
  copy?: RolloutReader;

  /** Feeds one record; one of a parent's copied history also goes to {@link copy}. */
  record(value: unknown, where: string): void {
    this.read(value, where);
    if (this.st.inherited) {
      this.copy ??= new RolloutReader(this.path, {}, this.dialect, () => {});
      this.copy.record(value, where);
    }
  }

  private read(value: unknown, where: string): void {
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
        return this.skip("unknown_record", where, type ? `type ${type}` : "record without type");
      }
    }
    const time = toMillis(rec.timestamp);
    this.touch(time);
    switch (type) {
      case "session_meta":
        return this.meta(payload, time, where);
      case "turn_context":
        this.endCopyAt(payload);
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
        if (type !== undefined && this.dialect.record?.(this, type, payload, time, where)) return;
        if (type === undefined || !QUIET_RECORDS.has(type)) {
          this.skip("unknown_record", where, type ? `type ${type}` : "record without type");
        }
    }
  }

  private touch(time: number | undefined): void {
    if (time === undefined) return;
    if (this.st.started === undefined || time < this.st.started) this.st.started = time;
    if (this.updated === undefined || time > this.updated) this.updated = time;
  }

  /**
   * Keeps an event; `fallback` ones are dropped when the file has roled messages. An event
   * whose dialect key was already kept in this pass is a copy: the first one stays.
   */
  push(ev: Event, fallback = false): void {
    const kept = ev.time === undefined ? dropTime(ev) : ev;
    // The model of the turn (`turn_context.model`, the latest before this reply).
    withModel([kept], this.st.model);
    // A fallback (an `event_msg` beside the roled message it repeats) is not keyed as a record:
    // the two are alike, and the roled one must stay.
    const key = this.dialect.key?.(this, kept) ?? (fallback ? undefined : recordKey(kept));
    if (key) {
      if (this.keys.has(key)) return;
      this.keys.add(key);
      kept.key = key;
    }
    this.events.push({ ev: kept, fallback });
  }

  private noteCwd(cwd: string | undefined): void {
    if (!this.st.cwd && cwd && isAbsoluteAny(cwd)) this.st.cwd = cwd;
  }

  private meta(p: Obj, time: number | undefined, where: string): void {
    const id = metaId(p) ?? (this.st.id === undefined ? fileId(this.path) : undefined);
    const version = str(p.cli_version);
    if (version && this.st.id === undefined) this.notes.version?.(version);
    for (const k of Object.keys(p)) {
      if (!META_FIELDS.has(k)) {
        this.notes.drift?.("session_metadata", where, `session_meta field ${k}`);
      }
    }
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
    const start = t === "task_started" || t === "turn_started";
    if (start && this.st.inherited && this.ownTurn(p)) this.st.inherited = false;
    if (!start) this.endCopyAt(p);
    if (this.st.inherited) return;
    if (t === "thread_rolled_back") return this.rollback(num(p.num_turns) ?? 0);
    if (this.dialect.event?.(this, p, time) || start) return;
    if (t === "error") {
      const message = errorMessage(p.message);
      // The harness speaking (a provider refusal, a dropped stream), not the model: a notice.
      if (message) this.push({ kind: "notice", text: `Error: ${message}`, time });
      return;
    }
    if (t === "turn_aborted") {
      // The harness speaking: the turn stopped before it finished (codex-rs
      // `TurnAbortReason`: `interrupted` by the user, `replaced` by a new turn, `review_ended`).
      const reason = str(p.reason);
      this.push({ kind: "notice", text: `[Turn aborted${reason ? `: ${reason}` : ""}]`, time });
      return;
    }
    const text = typeof p.message === "string" ? p.message.trim() : "";
    if (!text) return;
    if (t === "user_message" && !isInjectedUserMessage({}, [text])) {
      this.push({ kind: "user", text, time }, true);
    } else if (t === "agent_message") {
      this.push({ kind: "assistant", text, time }, true);
    }
    // Every other event_msg (token_count, task_complete, item_completed, ...) is the
    // UI event stream: it repeats items or carries nothing to index.
  }

  /** Indexes of this pass's events that open a user turn (the speech that will be kept). */
  private turnStarts(): number[] {
    const out: number[] = [];
    this.events.forEach((e, i) => {
      if (e.ev.kind === "user" && (!e.fallback || !roledKind(this.st, "user"))) out.push(i);
    });
    return out;
  }

  /**
   * `thread_rolled_back {num_turns}`: the last `n` user turns are taken back,
   * as codex-rs drops them from the thread's history (`drop_last_n_user_turns`:
   * cut at the n-th user message from the end; with more than there are, at the
   * first, keeping what came before it). The turns that were taken back are
   * dropped here too.
   */
  private rollback(n: number): void {
    if (n <= 0) return;
    const starts = this.turnStarts();
    if (n > starts.length) this.overran = true;
    if (starts.length === 0) return;
    const cut = starts[Math.max(0, starts.length - n)];
    for (const e of this.events.splice(cut)) if (e.ev.key) this.keys.delete(e.ev.key);
  }

  /**
   * Ends a fork's copied history at a record naming a turn of this thread
   * (`turn_context`, or an `event_msg` whose type key was damaged), when that
   * turn's start is known: a damaged `task_started` must not cost the fork.
   */
  private endCopyAt(p: Obj): void {
    if (this.st.inherited && p.turn_id !== undefined && this.ownTurn(p, true)) {
      this.st.inherited = false;
    }
  }

  /**
   * True when a turn began at or after this thread's creation (not a copied
   * parent turn); an unknown start counts as own unless `strict`.
   */
  private ownTurn(p: Obj, strict = false): boolean {
    const created = this.st.created;
    const started = toMillis(num(p.started_at)) ?? uuid7Millis(p.turn_id);
    if (created === undefined || started === undefined) return !strict;
    return started >= Math.floor(created / 1000) * 1000;
  }

  /** Reads one response item (also the items a dialect finds elsewhere). */
  item(p: Obj, time: number | undefined, where: string): void {
    const t = str(p.type) ?? "";
    const cwd = this.st.cwd;
    switch (t) {
      case "message":
        return this.message(p, time, where);
      case "function_call": {
        const name = str(p.name) ?? "unknown";
        return this.call(functionCall(name, p.arguments, cwd, this.dialect.shells), p, time);
      }
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
        if (!QUIET_ITEMS.has(t)) this.skip("unknown_record", where, `response_item type ${t}`);
    }
  }

  private call(tool: ToolCallInfo, p: Obj, time: number | undefined): void {
    const id = str(p.call_id) ?? str(p.id);
    if (id) tool.id = id;
    this.push({ kind: "tool_call", text: "", time, tool });
  }

  private message(p: Obj, time: number | undefined, where: string): void {
    const role = str(p.role);
    if (role !== "user" && role !== "assistant") {
      // developer, system: harness-authored; any other role is new.
      if (!QUIET_ROLES.has(role ?? "")) this.notes.drift?.("roles", where, `message role ${role}`);
      return;
    }
    const parts = typeof p.content === "string" ? [p.content] : textParts(p.content);
    if (role === "user" && (this.dialect.userItems === false || isInjectedUserMessage(p, parts))) {
      for (const part of parts) this.noteCwd(envContextCwd(part));
      return;
    }
    // Injected preambles do not count: event-only files may carry them.
    if (!roledKind(this.st, role)) this.st.roledKinds = [...this.st.roledKinds ?? [], role];
    const text = parts.join("\n").trim();
    if (text) this.push({ kind: role, text, time });
  }
}

/** True when `event_msg` speech of `kind` duplicates roled messages seen in `st`'s file. */
export function roledKind(st: RolloutState, kind: string): boolean {
  return st.roled === true || (st.roledKinds?.includes(kind) ?? false);
}

/**
 * The events `r` kept, without the `event_msg` speech its roled messages duplicate: in a
 * thread's own records, all speech of a kind a roled message was seen of ({@link roledKind});
 * in a parent's copy (`copy`, read whole in one pass), only speech whose text a roled message
 * of its kind repeats, as the copy may hold a reply in one form only.
 */
export function keptEvents(r: RolloutReader, copy = false): Event[] {
  const flat = (e: Event) => `${e.kind}\n${e.text.replace(/\s+/g, " ").trim()}`;
  const roled = copy ? new Set(r.events.filter((e) => !e.fallback).map((e) => flat(e.ev))) : null;
  return r.events.filter((e) =>
    !e.fallback || (roled ? !roled.has(flat(e.ev)) : !roledKind(r.st, e.ev.kind))
  ).map((e) => e.ev);
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

/** `ev` without its time. */
export function dropTime(ev: Event): Event {
  const { time: _t, ...rest } = ev;
  return rest;
}

/**
 * The key of an event no dialect keys: a call or a result by its call id, anything else by
 * its time, kind and text. A rollout copied under another name (a backup, a synced folder)
 * holds the same thread id, and its events were appended to the session again (trial 22: a
 * copied Codex rollout showed the conversation twice, search counted every hit twice, and
 * deleting the copy kept the doubles); keyed, the copy's events are the ones the index holds.
 * An event without a time is not keyed (two alike are not told apart).
 */
function recordKey(ev: Event): string | undefined {
  if (ev.kind === "tool_call" && ev.tool?.id) return `c:${ev.tool.id}`;
  if (ev.kind === "tool_result" && ev.result?.callId) return `r:${ev.result.callId}`;
  if (ev.time === undefined) return undefined;
  return `t:${ev.time}:${ev.kind}:${fnv1a32(ev.text).toString(36)}:${ev.text.length}`;
}
