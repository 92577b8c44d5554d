/**
 * Messages of the Cline family's task format -> deja events. Shared by the
 * Cline VS Code extension and CLI, Roo Code and the Kilo Code extension (see
 * `_task_history.ts` for the files, `_task_tools.ts` for the tools).
 *
 * Accepted message shapes:
 * - Anthropic `{role: "user" | "assistant", content: string | blocks, ts?}`
 *   with `text`, `tool_use {id, name, input}`, `tool_result {tool_use_id,
 *   content, is_error}`, `thinking`, `image` blocks (Cline, Kilo, Roo before
 *   its v2 store; `ts` epoch ms on each message in realdata/cline and
 *   realdata/farm/cline).
 * - Roo's v2 store `{role: "user" | "assistant" | "tool", content}` with AI
 *   SDK parts `text`, `tool-call {toolCallId, toolName, input}`, `tool-result
 *   {toolCallId, output {type, value}}`, `reasoning`, plus role-less
 *   `{type: "reasoning"}` items and `isSummary` / `isTruncationMarker` flags
 *   (RooCodeInc/Roo-Code `src/core/task-persistence/rooMessage.ts`, read via
 *   the search tool).
 *
 * User turns: only text a person typed is a `user` event. Cline wraps it in
 * `<task>`, `<user_message>`, `<answer>`, `<feedback>` or (CLI) `<user_input
 * mode="…">`; `<environment_details>` blocks and the notices the extension
 * adds (`[TASK RESUMPTION] …`, `# task_progress …`, `# TODO LIST UPDATE
 * REQUIRED …`, `Files attached by the user: …`) are preamble and dropped.
 * A text block that begins `[tool for 'x'] Result:` is the result of the
 * previous assistant message's next call of that tool.
 *
 * @module
 */
import type { Event, ParseCtx } from "../core/model.ts";
import { arr, blockText, decodeArgs, type Obj, obj, str, withModel } from "./_util.ts";
import { toMillis } from "./_time.ts";
import {
  COMMAND_TOOLS,
  exitFrom,
  SPEECH_TOOLS,
  splitXmlTools,
  stripCommandFraming,
  stripLineNumbers,
  taskToolInfo,
  textResult,
} from "./_task_tools.ts";

/** What {@link taskEvents} found. */
export interface TaskEvents {
  events: Event[];
  /** The first model an assistant message names. */
  model?: string;
  /** The working directory named by the first `<environment_details>` block. */
  envCwd?: string;
  /**
   * The working directory named by the last `<environment_details>` block when it
   * differs from the first: the task was resumed in another folder (a copy of the
   * repository renamed, the workspace reopened elsewhere) and worked there.
   */
  movedCwd?: string;
}

interface Call {
  name: string;
  id?: string;
  speech: boolean;
}

const USER_TAG_RE = /<(task|user_message|user_input|answer|feedback)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g;
const USER_TAG_OPEN_RE = /<(task|user_message|user_input|answer|feedback)(?:\s[^>]*)?>/;
const ENV_RE = /<environment_details>[\s\S]*?(?:<\/environment_details>|$)/g;
const ENV_CWD_RE = /# Current (?:Working|Workspace) Directory \((.+?)\) Files/;
const PREAMBLE_RE =
  /^(?:\[|#|\(|<|Files attached by the user|New message to respond to|The user has |Note: )/;
const QUIET_BLOCKS: ReadonlySet<string> = new Set([
  "thinking",
  "redacted_thinking",
  "reasoning",
  "thoughtSignature",
  "image",
  "file",
  "document",
]);

/**
 * Maps a task's messages to events, in order. `cwd` resolves relative paths
 * (the task's recorded working directory; else the one its first
 * `<environment_details>` names). Unknown message roles and block types are
 * counted `unknown_record` at `where`.
 */
export function taskEvents(
  messages: unknown[],
  cwd: string | undefined,
  where: string,
  ctx: ParseCtx,
): TaskEvents {
  const reader = new TaskReader(cwd, where, ctx);
  messages.forEach((m, n) => reader.add(m, n));
  return { ...reader.found(), events: reader.take() };
}

/**
 * The messages of a task read one at a time ({@link taskEvents}; a history too
 * large to hold is read in pieces, parsers/_task_history.ts): {@link add} each
 * message in order, {@link take} the events made so far whenever wanted, and
 * {@link found} what the messages said of the task.
 */
export class TaskReader {
  private ev: Event[] = [];
  private model?: string;
  private envCwd?: string;
  private latestCwd?: string;
  /** The previous assistant message's calls not yet answered. */
  private pending: Call[] = [];
  private byId = new Map<string, Call>();

  constructor(
    private cwd: string | undefined,
    private where: string,
    private ctx: ParseCtx,
  ) {}

  /** Events made since the last take, handed over. */
  take(): Event[] {
    return this.ev.splice(0);
  }

  /** Whether events wait to be taken. */
  get held(): boolean {
    return this.ev.length > 0;
  }

  /** The first model named, and the working directories the environment details named so far. */
  found(): Omit<TaskEvents, "events"> {
    const out: Omit<TaskEvents, "events"> = {};
    if (this.model) out.model = this.model;
    if (this.envCwd) out.envCwd = this.envCwd;
    if (this.latestCwd !== this.envCwd) out.movedCwd = this.latestCwd;
    return out;
  }

  // The extension repeats the working directory in every <environment_details>; a resumed
  // task may have moved, so relative paths resolve against the latest one.
  private base(): string | undefined {
    return this.latestCwd ?? this.cwd;
  }

  private callEvents(name: string, id: string | undefined, input: unknown, time?: number): void {
    const ev = this.ev;
    const field = SPEECH_TOOLS[name];
    const call: Call = { name, id, speech: field !== undefined };
    this.pending.push(call);
    if (id) this.byId.set(id, call);
    if (field) {
      push(ev, "assistant", str(obj(input)?.[field]) ?? "", time);
      return;
    }
    const info = taskToolInfo(name, id, input, this.base());
    const commands = name === "run_commands" ? arr(obj(input)?.commands) : [];
    if (commands.length > 1) {
      // One call per command, so each gets its own result and exit status.
      commands.forEach((c, k) => {
        const one = taskToolInfo(
          name,
          id ? `${id}#${k}` : undefined,
          { commands: [c] },
          this.base(),
        );
        ev.push(withTime({ kind: "tool_call", text: "", tool: one }, time));
      });
      return;
    }
    ev.push(withTime({ kind: "tool_call", text: "", tool: info }, time));
  }

  private textResultEvents(name: string, body: string, time?: number): void {
    const pending = this.pending;
    let k = pending.findIndex((c) => c.name === name);
    if (k === -1) k = pending.length ? 0 : -1;
    const call = k === -1 ? undefined : pending.splice(k, 1)[0];
    resultEvents(this.ev, call ?? { name, speech: false }, body, time);
  }

  private userText(text: string, time?: number): void {
    const named = ENV_CWD_RE.exec(text)?.[1]?.trim();
    if (named) {
      this.envCwd ??= named;
      this.latestCwd = named;
    }
    const bare = text.replace(ENV_RE, "").trim();
    const res = textResult(bare);
    if (res) this.textResultEvents(res.name, res.body, time);
    else for (const t of typedText(bare)) push(this.ev, "user", t, time);
  }

  /** Message number `n` of the task (`n` names it in what is counted). */
  add(raw: unknown, n: number): void {
    const { ev, where, ctx } = this;
    const m = obj(raw);
    if (!m) {
      ctx.skip("bad_shape", `${where}#${n}`, "message is not an object");
      return;
    }
    const time = toMillis(m.ts);
    const role = m.role;
    if (role === undefined && m.type === "reasoning") return;
    if (m.isTruncationMarker === true || role === "system") return;
    const isUser = role === "user" || role === "tool";
    if (!isUser && role !== "assistant") {
      ctx.skip("unknown_record", `${where}#${n}`, `role ${String(role)}`);
      return;
    }
    const model = role === "assistant"
      ? str(obj(m.modelInfo)?.modelId) ?? str(obj(m.modelInfo)?.id) ?? str(m.model)
      : undefined;
    if (role === "assistant") {
      this.pending = [];
      this.model ??= model;
    }
    const from = ev.length;
    if (m.isSummary === true) {
      push(ev, "summary", blockText(m.content).trim(), time);
      return;
    }
    for (const { o, type } of blocks(m.content)) {
      if (type === "text" && isUser) this.userText(typeof o.text === "string" ? o.text : "", time);
      else if (type === "text") {
        const { prose, calls } = splitXmlTools(typeof o.text === "string" ? o.text : "");
        push(ev, "assistant", prose, time);
        for (const c of calls) this.callEvents(c.name, undefined, c.input, time);
      } else if (type === "tool_use" && !isUser) {
        this.callEvents(str(o.name) ?? "unknown", str(o.id), o.input, time);
      } else if (type === "tool-call" && !isUser) {
        this.callEvents(str(o.toolName) ?? "unknown", str(o.toolCallId), decodeArgs(o.input), time);
      } else if ((type === "tool_result" || type === "tool-result") && isUser) {
        const id = str(o.tool_use_id) ?? str(o.toolCallId);
        const call = (id ? this.byId.get(id) : undefined) ??
          { name: str(o.name) ?? str(o.toolName) ?? "unknown", id, speech: false };
        this.pending = this.pending.filter((c) => c !== call);
        blockResult(ev, call, o, time);
      } else if (!QUIET_BLOCKS.has(type)) {
        ctx.skip("unknown_record", `${where}#${n}`, `${String(role)} block ${type}`);
      }
    }
    // The reply's model (`modelInfo.modelId` of an assistant message), on what it said and called.
    if (model) withModel(ev.slice(from), model);
  }
}

/** A message's content as typed blocks (a string is one text block). */
function blocks(content: unknown): Array<{ o: Obj; type: string }> {
  const list = typeof content === "string" ? [{ type: "text", text: content }] : arr(content);
  const out: Array<{ o: Obj; type: string }> = [];
  for (const b of list) {
    const o = obj(b);
    const type = str(o?.type);
    if (o && type) out.push({ o, type });
  }
  return out;
}

/** What a person typed in one user text block (tag contents, or plain text that is not preamble). */
function typedText(text: string): string[] {
  const tagged = [...text.matchAll(USER_TAG_RE)].map((m) => m[2].trim()).filter((t) => t !== "");
  if (tagged.length || USER_TAG_OPEN_RE.test(text)) return tagged;
  if (text === "" || PREAMBLE_RE.test(text)) return [];
  return [text];
}

/** Events for a text-form result (extension): speech tools give the user's reply only. */
function resultEvents(
  ev: Event[],
  call: Call,
  body: string,
  time: number | undefined,
): void {
  const replies = [...body.matchAll(USER_TAG_RE)].map((m) => m[2].trim()).filter((t) => t);
  if (call.speech) {
    for (const r of replies) push(ev, "user", r, time);
    return;
  }
  const command = COMMAND_TOOLS.has(call.name);
  const exit = command ? exitFrom(body) : undefined;
  let text = body.trim();
  if (command) text = stripCommandFraming(text);
  else if (call.name === "read_file") text = stripLineNumbers(text);
  const err = exit !== undefined ? exit !== 0 : /^(\[ERROR\]|Error\b|The user denied)/.test(text);
  ev.push(withTime({
    kind: "tool_result",
    text,
    result: resultInfo(call.id, exit, err),
  }, time));
  for (const r of replies) push(ev, "user", r, time);
}

/** A `tool_result` / `tool-result` block (CLI, native tool protocol). */
function blockResult(ev: Event[], call: Call, o: Obj, time: number | undefined): void {
  const output = obj(o.output);
  const flagged = o.is_error === true || /^error/.test(str(output?.type) ?? "");
  const content = output ? output.value : o.content;
  const entries = Array.isArray(content) ? content.map(obj).filter((x) => x && "query" in x) : [];
  if (entries.length && call.name === "run_commands") {
    // Cline CLI: one entry per command, in call order.
    entries.forEach((e, k) => {
      const id = call.id && entries.length > 1 ? `${call.id}#${k}` : call.id;
      const text = str(e!.result) ?? str(e!.error) ?? "";
      const exit = exitFrom(text) ?? exitFrom(str(e!.error) ?? "");
      ev.push(withTime({
        kind: "tool_result",
        text: stripCommandFraming(text),
        result: resultInfo(id, exit, e!.success === false || flagged),
      }, time));
    });
    return;
  }
  let text: string;
  let success: boolean | undefined;
  if (entries.length) {
    text = entries.map((e) => str(e!.result) ?? str(e!.error) ?? "").join("\n");
    success = entries.every((e) => e!.success !== false);
  } else if (typeof content === "string") {
    const decoded = obj(decodeArgs(content));
    if (decoded && ("result" in decoded || "error" in decoded)) {
      text = str(decoded.result) ?? str(decoded.error) ?? "";
      success = decoded.success === false ? false : undefined;
    } else text = content;
  } else if (output && output.value !== undefined && !Array.isArray(content)) {
    text = JSON.stringify(output.value);
  } else {
    text = blockText(content);
  }
  if (call.speech) {
    for (const m of text.matchAll(USER_TAG_RE)) {
      if (m[2].trim()) push(ev, "user", m[2].trim(), time);
    }
    return;
  }
  const command = COMMAND_TOOLS.has(call.name);
  const exit = command ? exitFrom(text) : undefined;
  if (command) text = stripCommandFraming(text);
  const err = flagged || success === false || text.trimStart().startsWith("[ERROR]") ||
    (exit !== undefined && exit !== 0);
  ev.push(withTime({ kind: "tool_result", text, result: resultInfo(call.id, exit, err) }, time));
}

function resultInfo(callId: string | undefined, exit: number | undefined, isError: boolean) {
  const r: Event["result"] = { isError };
  if (callId) r.callId = callId;
  if (exit !== undefined) r.exit = exit;
  return r;
}

function push(ev: Event[], kind: Event["kind"], text: string, time: number | undefined): void {
  const t = text.trim();
  if (t !== "") ev.push(withTime({ kind, text: t }, time));
}

function withTime(e: Event, time: number | undefined): Event {
  if (time !== undefined) e.time = time;
  return e;
}
