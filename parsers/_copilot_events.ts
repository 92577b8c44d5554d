/**
 * GitHub Copilot CLI `events.jsonl` records mapped onto deja events.
 *
 * Record envelope `{type, data, id, timestamp (ISO), parentId, agentId?}`; the
 * types and fields read here were observed in realdata/farm/copilot (Copilot
 * CLI 1.0.102) and realdata/copilot-cli (1.0.59, 1.0.60), and checked against
 * the published event schema (github/copilot-sdk
 * `nodejs/src/generated/session-events.ts`, read via the search tool) for the
 * ones no real store holds: `agentId` (events of a sub-agent),
 * `session.compaction_complete.summaryContent`, `user.message.source`,
 * `tool.execution_complete.error`.
 *
 * @module
 */
import type { Event, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";
import { commandOf, functionCall, resolveIn } from "./_responses_items.ts";

/**
 * Event-type families the CLI writes that carry nothing deja indexes (usage,
 * hooks, permissions, turn markers, MCP and UI state, ...). A type in one of
 * them that is not read below is ignored without a count; a type outside them
 * is `unknown_record`.
 */
const QUIET_FAMILIES = [
  "session.",
  "assistant.",
  "tool.",
  "hook.",
  "permission.",
  "subagent.",
  "skill.",
  "system.",
  "user_input.",
  "elicitation.",
  "sampling.",
  "mcp.",
  "external_tool.",
  "command.",
  "commands.",
  "capabilities.",
  "exit_plan_mode.",
  "model.",
  "pending_messages.",
  "auto_mode.",
  "session_limits.",
  "managed_settings.",
  "factory_run.",
  "canvas.",
  "extensions.",
  "ui.",
  "custom_notification",
  "binary_asset",
  "abort",
];

/** Shell tools: `command` holds the command line (Windows builds run `powershell`). */
const SHELL_TOOLS = new Set(["bash", "powershell", "shell"]);
/** Tools that read one file or directory from `path`. */
const READ_TOOLS = new Set(["view", "read", "read_file"]);
/** Tools that replace `old_str` by `new_str` in `path`. */
const EDIT_TOOLS = new Set(["edit", "str_replace"]);
/** Tools that write a whole file from `file_text` (or `content`). */
const WRITE_TOOLS = new Set(["create", "write", "write_file"]);

/** The `user.message` sources that are typed by a person; others are injected. */
const TYPED_SOURCES = new Set(["user", "command"]);

/** What the reader needs from the session so far (it may change it). */
export interface CopilotState {
  /** `data.sessionId` of `session.start`. */
  id?: string;
  /** `session.start` `context.cwd`. */
  cwd?: string;
  /** Latest model named by the records. */
  model?: string;
  /** Epoch ms of `session.start` `startTime`. */
  started?: number;
}

/** Events of one agent: `""` is the main agent, else the sub-agent's id. */
export type AgentEvents = Map<string, Event[]>;

/** Folds `events.jsonl` records into events per agent, updating the shared state. */
export class EventReader {
  readonly byAgent: AgentEvents = new Map();
  /** Latest record time (epoch ms). */
  updated?: number;
  /** Earliest record time (epoch ms). */
  earliest?: number;

  constructor(
    private readonly st: CopilotState,
    private readonly skip: (reason: "unknown_record" | "bad_shape", where: string) => void,
  ) {}

  record(value: unknown, where: string): void {
    const rec = obj(value);
    if (!rec) return this.skip("bad_shape", where);
    const type = str(rec.type);
    const data = obj(rec.data) ?? {};
    const time = toMillis(rec.timestamp);
    if (time !== undefined) {
      if (this.updated === undefined || time > this.updated) this.updated = time;
      if (this.earliest === undefined || time < this.earliest) this.earliest = time;
    }
    const agent = str(rec.agentId) ?? str(data.parentToolCallId) ?? "";
    switch (type) {
      case "session.start":
      case "session.resume":
        return this.start(type, data);
      case "session.model_change":
        this.st.model = str(data.newModel) ?? this.st.model;
        return;
      case "user.message":
        return this.user(agent, data, time);
      case "assistant.message":
        return this.assistant(agent, data, time);
      case "tool.execution_start":
        return this.call(agent, str(data.toolName), data.arguments, str(data.toolCallId), time);
      case "tool.execution_complete":
        return this.push(agent, keyed(resultEvent(data, time)));
      case "permission.completed":
        return this.denied(agent, data, time);
      case "session.error":
      case "session.warning":
        return this.notice(agent, type, data, time);
      case "session.compaction_complete": {
        const text = str(data.summaryContent)?.trim();
        if (text) this.push(agent, { kind: "summary", text, ...at(time) });
        return;
      }
      default:
        if (type === undefined || !QUIET_FAMILIES.some((f) => type.startsWith(f))) {
          this.skip("unknown_record", where);
        }
    }
  }

  /**
   * A `session.error` / `session.warning` (`{errorType | warningType, message}`:
   * an MCP config that does not load, a model list without sign-in, a policy)
   * as a `notice`, the harness speaking (not the model), `Error (mcp): <message>`,
   * so pasting the message finds the session.
   */
  private notice(agent: string, type: string, data: Obj, time: number | undefined): void {
    const message = str(data.message)?.trim();
    if (!message) return;
    const error = type === "session.error";
    const sort = str(error ? data.errorType : data.warningType);
    const text = `${error ? "Error" : "Warning"}${sort ? ` (${sort})` : ""}: ${message}`;
    this.push(agent, { kind: "notice", text, ...at(time) });
  }

  /**
   * A `permission.completed` whose `result.kind` starts with `denied`
   * (`denied-interactively-by-user`, realdata b87feda8: the person said no to
   * `mkdir -p …`, then aborted, so no `tool.execution_complete` follows) is the
   * call's result: it was not run (`notRun`, so `show` says so). A completion
   * written later for the same call replaces it (same key).
   */
  private denied(agent: string, data: Obj, time: number | undefined): void {
    const kind = str(obj(data.result)?.kind);
    const callId = str(data.toolCallId);
    if (!kind?.startsWith("denied") || !callId) return;
    const who = kind === "denied-interactively-by-user" ? "by the user" : `(${kind})`;
    this.push(agent, {
      kind: "tool_result",
      text: `Permission denied ${who}: not run.`,
      ...at(time),
      key: `result:${callId}`,
      result: { callId, isError: true, notRun: true },
    });
  }

  private push(agent: string, ev: Event): void {
    // The model of the reply: `assistant.message` `model`, else the session's latest.
    withModel([ev], this.st.model);
    let list = this.byAgent.get(agent);
    if (!list) this.byAgent.set(agent, list = []);
    list.push(ev);
  }

  private start(type: string, data: Obj): void {
    if (type === "session.start" && this.st.id === undefined) {
      this.st.id = str(data.sessionId);
      const started = toMillis(data.startTime);
      if (started !== undefined) this.st.started = started;
    }
    const cwd = str(obj(data.context)?.cwd);
    if (cwd && this.st.cwd === undefined) this.st.cwd = cwd;
    this.st.model = str(data.selectedModel) ?? this.st.model;
  }

  private user(agent: string, data: Obj, time: number | undefined): void {
    const source = str(data.source);
    if (source !== undefined && !TYPED_SOURCES.has(source)) return; // skill, autopilot, agent-*
    if (data.isAutopilotContinuation === true) return;
    const text = typeof data.content === "string" ? data.content.trim() : "";
    if (text) this.push(agent, { kind: "user", text, ...at(time) });
  }

  private assistant(agent: string, data: Obj, time: number | undefined): void {
    this.st.model = str(data.model) ?? this.st.model;
    // reasoningText / reasoningOpaque / encryptedContent are thinking: dropped.
    const text = typeof data.content === "string" ? data.content.trim() : "";
    if (text) this.push(agent, { kind: "assistant", text, ...at(time) });
    for (const r of arr(data.toolRequests)) {
      const req = obj(r);
      if (req) this.call(agent, str(req.name), req.arguments, str(req.toolCallId), time);
    }
  }

  /**
   * A tool call, from a `toolRequests[]` entry or a `tool.execution_start`.
   * Both carry the same call; they share the key `call:<toolCallId>`, so the
   * start replaces the request where the request stood.
   */
  private call(
    agent: string,
    name: string | undefined,
    args: unknown,
    id: string | undefined,
    time: number | undefined,
  ): void {
    const tool = copilotToolCall(name ?? "unknown", args, this.st.cwd);
    if (id) tool.id = id;
    this.push(agent, {
      kind: "tool_call",
      text: "",
      ...at(time),
      ...(id ? { key: `call:${id}` } : {}),
      tool,
    });
  }
}

/** `{time}` when the time is known, else nothing (no `time: undefined` key). */
export function at(time: number | undefined): { time?: number } {
  return time === undefined ? {} : { time };
}

/** The smallest defined value, or undefined. */
export function min(...xs: Array<number | undefined>): number | undefined {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? Math.min(...v) : undefined;
}

/** The largest defined value, or undefined. */
export function max(...xs: Array<number | undefined>): number | undefined {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? Math.max(...v) : undefined;
}

/**
 * A Copilot CLI tool call: `command` for the shell tools, `paths` for reads,
 * one edit per `edit` / `str_replace` (`old_str` -> `new_str`), one write per
 * `create`, and the legacy `str_replace_editor` by its `command` argument.
 * `apply_patch` (OpenAI models) reads its patch text. Relative paths resolve
 * against the session's cwd.
 */
export function copilotToolCall(
  name: string,
  rawArgs: unknown,
  cwd: string | undefined,
): ToolCallInfo {
  if (name === "apply_patch") return functionCall(name, rawArgs, cwd);
  const input = decodeArgs(rawArgs);
  const args = obj(input);
  const info: ToolCallInfo = { name, ...(input !== undefined ? { input } : {}) };
  const path = str(args?.path) ?? str(args?.file_path);
  const abs = path ? resolveIn(cwd, path) : undefined;
  const op = name === "str_replace_editor" ? str(args?.command) : name;
  if (SHELL_TOOLS.has(name)) {
    const command = commandOf(args?.command);
    if (command) info.command = command;
  } else if (abs && op && READ_TOOLS.has(op)) {
    info.paths = [abs];
  } else if (abs && op && EDIT_TOOLS.has(op) && typeof args?.old_str === "string") {
    info.edits = [{ path: abs, old: args.old_str, new: str(args.new_str) ?? "" }];
  } else if (abs && op && WRITE_TOOLS.has(op)) {
    const content = typeof args?.file_text === "string"
      ? args.file_text
      : typeof args?.content === "string"
      ? args.content
      : undefined;
    if (content !== undefined) info.writes = [{ path: abs, content }];
  } else if (abs && op === "insert") {
    info.paths = [abs];
  }
  return info;
}

/**
 * The trailer the shell tool appends to its output: `<shellId: N completed
 * with exit code N>` (1.0.102, farm) or `<exited with exit code N>` (older
 * builds, the legacy history files).
 */
const SHELL_TRAILER =
  /\n?<(?:shellId: \S+ completed with|exited with) exit code (-?\d+|[A-Z_]+)>\s*$/;

/** Splits the shell trailer off a tool output, returning the numeric exit it named. */
export function stripShellTrailer(text: string): { text: string; exit?: number } {
  const m = SHELL_TRAILER.exec(text);
  if (!m) return { text };
  const n = /^-?\d+$/.test(m[1]) ? Number(m[1]) : undefined;
  return { text: text.slice(0, m.index), ...(n !== undefined ? { exit: n } : {}) };
}

/**
 * A `tool.execution_complete` as a tool_result: `result.content` (else the
 * text of `result.contents[]`, else `detailedContent`) with the shell trailer
 * stripped, or `error.message` for a failure. The exit status comes from
 * `shellExecution.exitCode` (1.0.102), else `toolTelemetry.metrics.exit_code`,
 * else the trailer. `isError` when `success` is false or the exit is non-zero
 * (the CLI reports a failing command as `success: true`).
 */
/** A result keyed by its call (`result:<toolCallId>`), so a later one for the call replaces it. */
function keyed(ev: Event): Event {
  return ev.result?.callId ? { ...ev, key: `result:${ev.result.callId}` } : ev;
}

export function resultEvent(data: Obj, time: number | undefined): Event {
  const res = obj(data.result);
  const err = obj(data.error);
  let raw = typeof res?.content === "string" ? res.content : "";
  if (!raw) {
    raw = arr(res?.contents).map((b) => str(obj(b)?.text) ?? "").filter((t) => t).join("\n");
  }
  if (!raw && typeof res?.detailedContent === "string") raw = res.detailedContent;
  if (!raw && err) raw = str(err.message) ?? "";
  const stripped = stripShellTrailer(raw);
  const exit = num(obj(data.shellExecution)?.exitCode) ??
    num(obj(obj(data.toolTelemetry)?.metrics)?.exit_code) ?? stripped.exit;
  const result: ToolResultInfo = {};
  const callId = str(data.toolCallId);
  if (callId) result.callId = callId;
  if (exit !== undefined) result.exit = exit;
  result.isError = data.success === false || (exit !== undefined && exit !== 0);
  return { kind: "tool_result", text: stripped.text.trimEnd(), ...at(time), result };
}
