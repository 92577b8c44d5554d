/**
 * Grok Build's ACP update stream (`updates.jsonl`) -> deja events. Private to
 * `parsers/grok.ts`; see that module for the store layout and sources.
 *
 * One line is one `session/update` notification as the agent sent it:
 * `{timestamp, method?, params: {sessionId?, update: {sessionUpdate, ...},
 * _meta: {promptId?, eventId?, agentTimestampMs?}}}`. Speech arrives in
 * pieces (`user_message_chunk`, `agent_message_chunk`) that are joined back
 * into whole turns; tool activity arrives as one `tool_call` and any number of
 * `tool_call_update` patches (ACP patch semantics: an omitted field keeps its
 * value, a `content` list replaces the previous one).
 *
 * @module
 */
import type { EditSpan, Event, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { blockText, decodeArgs, type Obj, obj, str } from "./_util.ts";

import { describeTool, type ToolKind } from "./_tool_args.ts";
import { absolutePath } from "../core/paths.ts";

/** ACP update kinds that carry nothing to index (ACP v1 schema; `turn_completed` from Grok Build). */
const BOOKKEEPING: ReadonlySet<string> = new Set([
  "agent_thought_chunk",
  "plan",
  "available_commands_update",
  "current_mode_update",
  "turn_completed",
]);

/** Statuses after which a tool call will not change again. */
const FINAL: ReadonlySet<string> = new Set(["completed", "failed"]);

/** What is known of one tool call, patched by each update. */
interface CallState {
  title?: string;
  kind?: string;
  input?: unknown;
  locations?: string[];
  edits?: EditSpan[];
  writes?: WriteSpan[];
  text?: string;
  status?: string;
  time?: number;
}

/** The speech turn still open for joining. */
interface OpenTurn {
  key: string;
  kind: "user" | "assistant";
  /** Join key (`promptId` / `promptIndex` / `messageId`); absent: join only adjacent chunks. */
  join?: string;
  text: string;
  time?: number;
  /** Keyless turns: false once any other record came after the last chunk. */
  adjacent: boolean;
}

/** What one pass hands to the next (JSON). */
export interface AcpState {
  open?: OpenTurn;
  /** Calls not yet completed or failed. */
  calls?: Record<string, CallState>;
}

/** Why a record was not used. */
export type AcpSkip = { reason: "unknown_record" | "bad_shape"; detail: string };

/** Reads records one by one; `take()` hands over the events made since the last call. */
export class AcpReader {
  private out: Event[] = [];
  private open?: OpenTurn;
  /** The event of the open turn when it is still in `out` (so it can grow in place). */
  private openEvent?: Event;
  private calls: Map<string, CallState>;

  constructor(state: AcpState | undefined, private readonly cwd: string | undefined) {
    this.open = state?.open ? { ...state.open } : undefined;
    this.calls = new Map(Object.entries(state?.calls ?? {}));
  }

  /** Events made since the last `take()`. */
  take(): Event[] {
    const e = this.out;
    this.out = [];
    this.openEvent = undefined;
    return e;
  }

  /** The state to save for the next pass. */
  state(): AcpState {
    const st: AcpState = {};
    if (this.open) st.open = { ...this.open };
    if (this.calls.size) st.calls = Object.fromEntries(this.calls);
    return st;
  }

  /** Reads one record at byte `start`; returns why it was skipped, if it was. */
  record(value: unknown, start: number): AcpSkip | undefined {
    const r = obj(value);
    const params = obj(r?.params);
    const update = obj(params?.update);
    const kind = str(update?.sessionUpdate);
    if (!r || !params || !update || !kind) {
      const what = r && typeof r.role === "string" ? `role ${r.role}` : "no params.update";
      return { reason: "unknown_record", detail: `not an ACP session/update (${what})` };
    }
    if (r.method !== undefined && r.method !== "session/update") {
      return { reason: "unknown_record", detail: `method ${String(r.method)}` };
    }
    const meta = obj(params._meta);
    const time = toMillis(r.timestamp) ?? toMillis(meta?.agentTimestampMs);
    if (kind === "user_message_chunk" || kind === "agent_message_chunk") {
      const speaker = kind === "user_message_chunk" ? "user" : "assistant";
      const join = speaker === "assistant"
        ? str(meta?.promptId) ?? str(update.messageId)
        : keyOf(obj(update._meta)?.promptIndex) ?? str(update.messageId);
      this.chunk(speaker, contentText(update.content), join, start, time);
      return undefined;
    }
    if (kind === "tool_call" || kind === "tool_call_update") {
      const id = str(update.toolCallId);
      if (!id) return { reason: "bad_shape", detail: `${kind} without toolCallId` };
      if (this.open) this.open.adjacent = false;
      this.tool(id, update, kind === "tool_call", time);
      return undefined;
    }
    if (BOOKKEEPING.has(kind)) return undefined;
    return { reason: "unknown_record", detail: `sessionUpdate ${kind}` };
  }

  private chunk(
    kind: "user" | "assistant",
    text: string,
    join: string | undefined,
    start: number,
    time: number | undefined,
  ): void {
    const o = this.open;
    const joins = o !== undefined && o.kind === kind &&
      (join !== undefined ? o.join === join : o.join === undefined && o.adjacent);
    if (joins) {
      o.text += text;
      o.adjacent = true;
      if (this.openEvent) this.openEvent.text = o.text;
      else this.emitOpen();
      return;
    }
    if (text === "") return;
    this.open = { key: `m:${start}`, kind, text, adjacent: true };
    if (join !== undefined) this.open.join = join;
    if (time !== undefined) this.open.time = time;
    this.emitOpen();
  }

  private emitOpen(): void {
    const o = this.open!;
    const e: Event = { kind: o.kind, text: o.text, key: o.key };
    if (o.time !== undefined) e.time = o.time;
    this.out.push(e);
    this.openEvent = e;
  }

  private tool(id: string, u: Obj, first: boolean, time: number | undefined): void {
    const c: CallState = this.calls.get(id) ?? {};
    if (first || c.time === undefined) c.time = time;
    let described = first;
    const title = str(u.title);
    if (title) [c.title, described] = [title, true];
    const kind = str(u.kind);
    if (kind) [c.kind, described] = [kind, true];
    if (u.rawInput !== undefined && u.rawInput !== null) {
      [c.input, described] = [decodeArgs(u.rawInput), true];
    }
    if (Array.isArray(u.locations)) {
      c.locations = u.locations.map((l) => str(obj(l)?.path)).filter((p): p is string => !!p);
      described = true;
    }
    let output = false;
    if (Array.isArray(u.content)) {
      const body = toolContent(u.content, this.cwd);
      c.text = body.text;
      output = body.text !== "";
      if (body.edits.length || body.writes.length) {
        [c.edits, c.writes, described] = [body.edits, body.writes, true];
      }
    }
    if (!output && u.rawOutput !== undefined) {
      const t = rawOutputText(u.rawOutput);
      if (t !== undefined) [c.text, output] = [t, true];
    }
    const status = str(u.status);
    if (status) c.status = status;
    if (described) this.pushCall(id, c);
    if (output || (status !== undefined && FINAL.has(status))) this.pushResult(id, c, time);
    if (c.status && FINAL.has(c.status)) this.calls.delete(id);
    else this.calls.set(id, c);
  }

  private pushCall(id: string, c: CallState): void {
    const e: Event = {
      kind: "tool_call",
      text: "",
      key: `call:${id}`,
      tool: callInfo(id, c, this.cwd),
    };
    if (c.time !== undefined) e.time = c.time;
    this.replaceOrPush(e);
  }

  private pushResult(id: string, c: CallState, time: number | undefined): void {
    const e: Event = {
      kind: "tool_result",
      text: c.text ?? "",
      key: `res:${id}`,
      result: { callId: id, isError: c.status === "failed" },
    };
    if (time !== undefined) e.time = time;
    this.replaceOrPush(e);
  }

  /** Replaces an event with the same key made in this batch, else appends. */
  private replaceOrPush(e: Event): void {
    const at = this.out.findIndex((x) => x.key === e.key);
    if (at >= 0) this.out[at] = e;
    else this.out.push(e);
  }
}

/** A number or string key as text. */
function keyOf(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return str(v);
}

/** Text of a chunk's `content`: one `{type, text}` block, or a list of them. */
export function contentText(content: unknown): string {
  const o = obj(content);
  if (o) {
    const t = o.type;
    return (t === undefined || t === "text") && typeof o.text === "string" ? o.text : "";
  }
  return blockText(content);
}

/** Output text, diffs and whole-file writes of a tool call's `content` list. */
function toolContent(
  content: unknown[],
  cwd: string | undefined,
): { text: string; edits: EditSpan[]; writes: WriteSpan[] } {
  const texts: string[] = [];
  const edits: EditSpan[] = [];
  const writes: WriteSpan[] = [];
  for (const item of content) {
    const o = obj(item);
    if (o?.type === "content") {
      const t = contentText(o.content);
      if (t !== "") texts.push(t);
    } else if (o?.type === "diff" && str(o.path)) {
      const path = absolutePath(str(o.path)!, cwd);
      const newText = typeof o.newText === "string" ? o.newText : "";
      if (typeof o.oldText === "string") edits.push({ path, old: o.oldText, new: newText });
      else writes.push({ path, content: newText });
    }
  }
  return { text: texts.join("\n"), edits, writes };
}

/** `rawOutput` as text: a string, or the output field of an object. */
function rawOutputText(raw: unknown): string | undefined {
  if (typeof raw === "string") return raw;
  const o = obj(raw);
  if (!o) return undefined;
  return str(o.output) ?? str(o.content) ?? str(o.stdout) ?? str(o.text);
}

/** Grok Build tool names (harness-convert's vocabulary) by what they do; ACP `kind` decides first. */
const NAMES: Record<string, ToolKind> = {
  run_terminal_command: "shell",
  read_file: "read",
  list_dir: "list", // a directory listed, not a file read
  search_replace: "edit",
  write: "write",
};
const ACP_KINDS: Record<string, ToolKind> = { execute: "shell", read: "read", edit: "edit" };

/** What a call means, from what is known of it so far. */
function callInfo(id: string, c: CallState, cwd: string | undefined): ToolCallInfo {
  const name = c.title ?? c.kind ?? "tool";
  const info: ToolCallInfo = { name, id };
  if (c.input !== undefined) info.input = c.input;
  const kind = NAMES[name] ?? (c.kind ? ACP_KINDS[c.kind] : undefined);
  if ((kind === "read" || kind === "paths") && c.locations?.length) {
    describeTool(info, "paths", { paths: c.locations }, cwd);
  } else if (kind) {
    describeTool(info, kind, obj(c.input) ?? {}, cwd);
  }
  // ACP `diff` content is what the edit really did: it wins over the arguments.
  if (c.edits?.length) [info.edits, info.paths] = [c.edits, undefined];
  if (c.writes?.length) info.writes = c.writes;
  if (info.paths === undefined) delete info.paths;
  return info;
}
