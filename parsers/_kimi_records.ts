/**
 * Kimi CLI records -> deja events (private to `kimi.ts`): the wire stream
 * (`wire.jsonl`), the consolidated context (`context.jsonl`,
 * `context_sub_N.jsonl`) and the tools both name.
 *
 * Facts from Kimi CLI's source (`wire/types.py`, `soul/context.py`,
 * `soul/compaction.py`, `tools/file/replace.py`, read via the search tool)
 * and observed in realdata/kimi (Kimi CLI 1.17, wire protocol 1.3).
 *
 * @module
 */
import type { EditSpan, Event, SkipReason, ToolCallInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, type Obj, obj, str } from "./_util.ts";
import { toolResultFrom } from "./_gemini_events.ts";
import { absolutePath } from "../core/paths.ts";

/** How a mapper reports what it skips. */
export interface KimiCtx {
  /** Absolute work directory, when known (relative tool paths resolve against it). */
  project?: string;
  skip(reason: SkipReason, where: string, detail?: string): void;
}

// ---- tools -------------------------------------------------------------------

/**
 * What a call means. Kimi CLI names: `Shell {command}`, `ReadFile` /
 * `ReadMediaFile {path}`, `WriteFile {path, content}`, `StrReplaceFile {path,
 * edit: {old, new} | [{old, new}]}`, `Glob {pattern, directory?}`, `Grep
 * {pattern, path?}`; the Kimi Code names `Bash`, `Read`, `Write`, `Edit
 * {old_string, new_string}` (docs/registry/kimi.md) map the same way.
 * `Glob` and `Grep` are searches, not reads: no `paths` (a user trial found
 * `Glob {pattern: "backend/.env*"}` listed as the file `backend/.env*` read).
 */
export function kimiTool(name: string, id: string, input: unknown, project?: string): ToolCallInfo {
  const tool: ToolCallInfo = { name, id, input };
  const a = obj(input);
  if (!a) return tool;
  const path = str(a.path);
  const abs = (p: string) => absolutePath(p, project);
  switch (name) {
    case "Shell":
    case "Bash":
      if (str(a.command)) tool.command = str(a.command);
      break;
    case "ReadFile":
    case "ReadMediaFile":
    case "Read":
      if (path) tool.paths = [abs(path)];
      break;
    case "WriteFile":
    case "Write":
      if (path && typeof a.content === "string") {
        tool.writes = [{ path: abs(path), content: a.content }];
      }
      break;
    case "StrReplaceFile":
    case "Edit": {
      const edits = editSpans(a, path ? abs(path) : undefined);
      if (edits.length) tool.edits = edits;
      break;
    }
      // `Glob` and `Grep` search: their pattern and directory are not files
      // read, so they give no `paths` (the call keeps its input).
  }
  return tool;
}

function editSpans(a: Obj, path?: string): EditSpan[] {
  if (!path) return [];
  if (typeof a.old_string === "string" && typeof a.new_string === "string") {
    return [{ path, old: a.old_string, new: a.new_string }];
  }
  const list = Array.isArray(a.edit) ? a.edit : [a.edit];
  return list.flatMap((e) => {
    const o = obj(e);
    return o && typeof o.old === "string" && typeof o.new === "string"
      ? [{ path, old: o.old, new: o.new }]
      : [];
  });
}

/**
 * Reads a tool result's status line (`Command failed with exit code: 1.`,
 * `Command executed successfully.`, with or without an `ERROR: ` prefix).
 */
export function statusExit(message: string): number | undefined {
  const m = /exit code:?\s*(-?\d+)/i.exec(message);
  if (m) return Number(m[1]);
  return /^(ERROR:\s*)?Command executed successfully\b/i.test(message.trim()) ? 0 : undefined;
}

/** Text of a content value: a string or `[{type:"text", text}]` parts (think and media parts dropped). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  const out: string[] = [];
  for (const p of arr(content)) {
    const o = obj(p);
    if (o && (o.type === undefined || o.type === "text") && typeof o.text === "string") {
      out.push(o.text);
    }
  }
  return out.join("\n");
}

const SYSTEM_PART = /^\s*<system>([\s\S]*?)<\/system>\s*$/;

/** Content parts (a string is one part) as texts. */
function partTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  return arr(content).flatMap((p) => {
    const o = obj(p);
    return o && (o.type === undefined || o.type === "text") && typeof o.text === "string"
      ? [o.text]
      : [];
  });
}

// ---- context.jsonl -------------------------------------------------------------

/** Context roles Kimi CLI writes for its own bookkeeping. */
const CONTEXT_BOOKKEEPING = new Set(["_system_prompt", "_usage", "_checkpoint", "system"]);

const COMPACTED = "Previous context has been compacted";

/**
 * Maps one `context.jsonl` line `{role, content, tool_calls?, tool_call_id?}`.
 * `<system>…</system>` parts are harness-authored: on a user turn they are
 * dropped (a turn of nothing else, e.g. `CHECKPOINT 3`, disappears), except
 * the compaction marker, whose turn becomes a summary; on a tool result the
 * first one is the status line (error flag, exit code) and is stripped.
 *
 * @returns the events, or undefined for a role Kimi CLI does not write.
 */
export function contextEvents(rec: Obj, key: string, ctx: KimiCtx): Event[] | undefined {
  const role = str(rec.role);
  if (role && CONTEXT_BOOKKEEPING.has(role)) return [];
  switch (role) {
    case "user": {
      const parts = partTexts(rec.content);
      const sys = parts.map((p) => SYSTEM_PART.exec(p)?.[1]);
      const rest = parts.filter((_p, i) => sys[i] === undefined).join("\n").trim();
      if (sys.some((s) => s?.startsWith(COMPACTED))) {
        return rest ? [{ kind: "summary", text: rest, key: `m:${key}` }] : [];
      }
      return rest ? [{ kind: "user", text: rest, key: `m:${key}` }] : [];
    }
    case "assistant": {
      const text = textOf(rec.content).trim();
      const events: Event[] = text ? [{ kind: "assistant", text, key: `m:${key}` }] : [];
      arr(rec.tool_calls).forEach((tc, i) => {
        const call = obj(tc);
        const fn = obj(call?.function);
        const id = str(call?.id) ?? `${key}:${i}`;
        const tool = kimiTool(
          str(fn?.name) ?? "unknown",
          id,
          decodeArgs(fn?.arguments),
          ctx.project,
        );
        events.push({ kind: "tool_call", text: "", key: `c:${id}`, tool });
      });
      return events;
    }
    case "tool": {
      const id = str(rec.tool_call_id) ?? key;
      const parts = partTexts(rec.content);
      const status = parts.length ? SYSTEM_PART.exec(parts[0])?.[1]?.trim() : undefined;
      const body = tidy((status === undefined ? parts : parts.slice(1)).join("\n"));
      return [resultEvent(id, body || status || "", status ?? "", status?.startsWith("ERROR"))];
    }
    default:
      return undefined;
  }
}

/** Drops leading blank lines and trailing space, keeping the indentation of a line-numbered listing. */
function tidy(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

function resultEvent(
  callId: string,
  text: string,
  status: string,
  isError?: boolean,
  time?: number,
): Event {
  return toolResultFrom(callId, tidy(text), time, statusExit(status), isError);
}

// ---- wire.jsonl ----------------------------------------------------------------

/** Assistant text still being streamed, or a tool call whose arguments may still grow. */
export interface KimiWireState {
  /** Assistant text pieces joined so far; `shown` when the last pass already emitted it. */
  text?: { key: string; text: string; time?: number; shown?: boolean };
  /** The last tool call: `ToolCallPart` records append to its arguments. */
  call?: { id: string; name: string; args: string; time?: number };
}

/** Wire messages that carry nothing to index (`SubagentEvent`: sub-agents are read from their own context file). */
const WIRE_BOOKKEEPING = new Set([
  "StatusUpdate",
  "ApprovalRequest",
  "ApprovalResponse",
  "ApprovalRequestResolved",
  "ToolCallRequest",
  "QuestionRequest",
  "QuestionResponse",
  "HookTriggered",
  "HookResolved",
  "MCPLoadingBegin",
  "MCPLoadingEnd",
  "Notification",
  "PlanDisplay",
  "SubagentEvent",
]);

/**
 * The notice a `StepInterrupted {}` becomes. Kimi CLI writes it when a step
 * stops early (realdata 0be84c98: five turns each cut ~1.5 s after
 * `TurnBegin`, no reply); without it `show` printed five identical prompts.
 */
export const INTERRUPTED = "[Step interrupted]";

/** Wire messages that close a streamed assistant message and the open tool call. */
const BOUNDARIES = new Set([
  "TurnBegin",
  "SteerInput",
  "TurnEnd",
  "StepBegin",
  "StepInterrupted",
  "CompactionBegin",
  "CompactionEnd",
]);

/**
 * Replays `wire.jsonl` records `{timestamp (epoch s), message: {type, payload}}`
 * into events, keeping streamed state across calls (and across passes through
 * {@link KimiWireState}).
 */
export class WireReader {
  readonly events: Event[] = [];
  /** Epoch ms of the first and last timed record. */
  first?: number;
  last?: number;
  private callEvent?: Event;

  constructor(readonly state: KimiWireState, private readonly ctx: KimiCtx) {}

  /** Feeds one record; `at` is its byte offset (keys derive from it). */
  add(rec: Obj, at: number, where: string): void {
    if (rec.type === "metadata") return;
    const msg = obj(rec.message);
    const type = str(msg?.type);
    const payload = obj(msg?.payload) ?? {};
    const time = toMillis(rec.timestamp);
    if (time !== undefined) {
      this.first = Math.min(this.first ?? time, time);
      this.last = Math.max(this.last ?? time, time);
    }
    if (!type) {
      this.ctx.skip("unknown_record", where, `keys ${Object.keys(rec).slice(0, 4).join(",")}`);
      return;
    }
    if (type === "ContentPart" || type === "TextPart" || type === "ThinkPart") {
      this.piece(payload, at, time);
      return;
    }
    if (type === "ToolCallPart") {
      this.argsPiece(payload);
      return;
    }
    if (WIRE_BOOKKEEPING.has(type)) return;
    this.flush();
    if (BOUNDARIES.has(type)) {
      this.state.call = undefined;
      this.callEvent = undefined;
      if (type === "TurnBegin" || type === "SteerInput") {
        const text = textOf(payload.user_input).trim();
        if (text) this.events.push({ kind: "user", text, time, key: `m:${at}` });
      } else if (type === "StepInterrupted") {
        // The harness speaking: the step stopped before it finished (a cancel
        // or a failed call; the record says neither).
        this.events.push({ kind: "notice", text: INTERRUPTED, time, key: `n:${at}` });
      }
      return;
    }
    if (type === "ToolCall") {
      const fn = obj(payload.function);
      const id = str(payload.id) ?? String(at);
      this.state.call = {
        id,
        name: str(fn?.name) ?? "unknown",
        args: textArg(fn?.arguments),
        time,
      };
      this.callEvent = undefined;
      this.emitCall();
      return;
    }
    if (type === "ToolResult") {
      const rv = obj(payload.return_value) ?? {};
      const id = str(payload.tool_call_id) ?? String(at);
      const output = tidy(textOf(rv.output));
      const status = str(rv.message) ?? "";
      this.events.push(resultEvent(id, output || status, status, rv.is_error === true, time));
      return;
    }
    this.ctx.skip("unknown_record", where, `wire message ${type}`);
  }

  /** Emits what is still streaming (end of what was written so far). */
  finish(): void {
    const t = this.state.text;
    if (t && !t.shown) {
      this.emitText(t);
      t.shown = true;
    }
  }

  private piece(p: Obj, at: number, time?: number): void {
    if (p.type !== "text" || typeof p.text !== "string") return;
    const t = this.state.text;
    if (t) {
      t.text += p.text;
      t.shown = false;
    } else {
      this.state.text = { key: `m:${at}`, text: p.text, time };
    }
  }

  private argsPiece(p: Obj): void {
    const call = this.state.call;
    if (!call || typeof p.arguments_part !== "string") return;
    call.args += p.arguments_part;
    this.emitCall();
  }

  private flush(): void {
    const t = this.state.text;
    if (t && !t.shown) this.emitText(t);
    this.state.text = undefined;
  }

  private emitText(t: NonNullable<KimiWireState["text"]>): void {
    const text = t.text.trim();
    if (text) this.events.push({ kind: "assistant", text, time: t.time, key: t.key });
  }

  /** Emits the open call, or updates the copy this pass already emitted. */
  private emitCall(): void {
    const c = this.state.call!;
    const tool = kimiTool(c.name, c.id, decodeArgs(c.args), this.ctx.project);
    if (this.callEvent) {
      this.callEvent.tool = tool;
      return;
    }
    this.callEvent = { kind: "tool_call", text: "", time: c.time, key: `c:${c.id}`, tool };
    this.events.push(this.callEvent);
  }
}

function textArg(v: unknown): string {
  if (typeof v === "string") return v;
  return v === undefined || v === null ? "" : JSON.stringify(v);
}
