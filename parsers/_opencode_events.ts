/**
 * opencode's message/part records mapped onto deja sessions and events.
 *
 * Shared by every reader of the opencode data model: the SQLite store
 * (`_opencode_db.ts`, also used by forks with the same schema such as the Kilo
 * CLI) and opencode's legacy JSON tree (`opencode.ts`). A message is
 * `{role, time.created, path.cwd, modelID, summary, ...}`; its content lives in
 * parts `{type, ...}`. Facts from opencode's `session/message-v2.ts` (read via
 * the search tool) and observed in realdata/opencode (1.17.3-aiand.1) and
 * realdata/farm/opencode (1.18.33):
 *
 * - `text` parts are speech; `synthetic: true` marks text opencode wrote
 *   itself, which is dropped.
 * - A command the person ran themselves (the TUI's `!` shell mode, opencode's
 *   `session/prompt.ts` `shell()`, read via the search tool) is a user message
 *   whose one part is the synthetic text "The following tool was executed by
 *   the user", then an assistant message (`parentID` that user message; older
 *   versions set none, and it simply follows) holding one `bash` tool part
 *   `{input: {command}, output}`. Such a part becomes the person's own command,
 *   as Claude Code's `!` bash mode reads: a `user` event `!<command>`, and its
 *   output a `notice` (as a local command's output), not an agent tool call
 *   (realdata/opencode 1.17.3: `!ls`, `!pwd`).
 * - an assistant message with `summary: true` is a compaction summary; its
 *   text becomes `summary` events.
 * - `tool` parts carry `tool`, `callID` and `state {status, input, output |
 *   error, metadata, time {start, end}}`; status is pending, running,
 *   completed or error. Bash's exit status is `state.metadata.exit`.
 * - `reasoning`, `step-start`, `step-finish`, `snapshot`, `patch`, `retry`,
 *   `agent`, `file`, `compaction` and `subtask` parts carry nothing to index.
 *
 * All times are epoch milliseconds in the store.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import type { EditSpan, Event, ParseCtx, Session, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";
import { toMillis } from "./_time.ts";
import { parsePatch } from "./_patch.ts";
import { absolutePath } from "../core/paths.ts";

/** One part record: its id, decoded `data`, and the row's creation time if the store has one. */
export interface OcPart {
  id: string;
  data: Obj;
  /** Epoch ms (the SQLite row's `time_created`), when known. */
  time?: number;
}

/** One message record with its parts in order. */
export interface OcMessage {
  id: string;
  data: Obj;
  /** Epoch ms (the SQLite row's `time_created`), when known. */
  time?: number;
  parts: OcPart[];
}

/** Session-level facts, from a `session` row or a legacy session file. */
export interface OcSessionInfo {
  id: string;
  directory?: string;
  title?: string;
  parentId?: string;
  /** Epoch ms. */
  created?: number;
  /** Epoch ms. */
  updated?: number;
  /** Model id from the session row, used when no assistant message names one. */
  model?: string;
}

/** Part types opencode writes that carry nothing to index (ignored silently). */
const QUIET_PARTS: ReadonlySet<string> = new Set([
  "reasoning",
  "step-start",
  "step-finish",
  "snapshot",
  "patch",
  "retry",
  "agent",
  "file",
  "compaction",
  "subtask",
]);

/** opencode's placeholder title before one is generated ("New session - <ISO>"). */
const DEFAULT_TITLE = /^(New|Child) session - \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Builds one deja session from opencode records.
 *
 * @param harness harness id written into the session (`opencode`, `kilocode`).
 * @param path the store file the records came from.
 */
export function buildSession(
  harness: string,
  path: string,
  info: OcSessionInfo,
  messages: OcMessage[],
  ctx: ParseCtx,
): Session {
  let cwd = info.directory && isAbsolute(info.directory) ? info.directory : undefined;
  let model: string | undefined;
  for (const m of messages) {
    cwd ??= absOrUndefined(str(obj(m.data.path)?.cwd));
    if (m.data.role === "assistant") model ??= str(m.data.modelID);
  }
  const events: Event[] = [];
  const shellPrompts = new Set(messages.filter(isUserShellPrompt).map((m) => m.id));
  messages.forEach((m, i) => {
    const parent = str(m.data.parentID);
    const userRan = m.data.role === "assistant" &&
      (parent ? shellPrompts.has(parent) : i > 0 && shellPrompts.has(messages[i - 1].id));
    const evs = opencodeMessageEvents(m, cwd, ctx, userRan);
    // The reply's model (`modelID` of an assistant message); a command the person ran is theirs.
    if (m.data.role === "assistant" && !userRan) withModel(evs, m.data.modelID);
    events.push(...evs);
  });
  const title = info.title && !DEFAULT_TITLE.test(info.title) ? info.title : undefined;
  return {
    harness,
    id: info.id,
    project: cwd,
    title,
    started: info.created,
    updated: info.updated,
    model: model ?? info.model,
    parent: info.parentId,
    path,
    events,
  };
}

/** The text opencode's `shell()` writes as the user message before a command the person ran. */
const USER_SHELL_TEXT = "The following tool was executed by the user";

/** True for the user message opencode writes before a command the person ran themselves. */
function isUserShellPrompt(m: OcMessage): boolean {
  return m.data.role === "user" && m.parts.length > 0 &&
    m.parts.every((p) =>
      p.data.type === "text" && p.data.synthetic === true &&
      str(p.data.text)?.trim() === USER_SHELL_TEXT
    );
}

/**
 * The events of one message, in part order. Unknown roles and part types are counted.
 *
 * @param userRan the message holds a command the person ran themselves (see the module doc).
 */
export function opencodeMessageEvents(
  msg: OcMessage,
  sessionCwd: string | undefined,
  ctx: ParseCtx,
  userRan = false,
): Event[] {
  const role = msg.data.role;
  if (role !== "user" && role !== "assistant") {
    ctx.skip("unknown_record", `message ${msg.id}`, `role ${String(role)}`);
    return [];
  }
  const msgTime = toMillis(obj(msg.data.time)?.created) ?? msg.time;
  const cwd = absOrUndefined(str(obj(msg.data.path)?.cwd)) ?? sessionCwd;
  const speech = role === "user" ? "user" : msg.data.summary === true ? "summary" : "assistant";
  const out: Event[] = [];
  for (const part of msg.parts) {
    const type = str(part.data.type);
    if (type === "text") {
      if (part.data.synthetic === true) continue;
      const text = typeof part.data.text === "string" ? part.data.text : "";
      if (text.trim() === "") continue;
      const time = toMillis(obj(part.data.time)?.start) ?? part.time ?? msgTime;
      out.push({ kind: speech, text, time, key: part.id });
    } else if (type === "tool") {
      out.push(...(userRan && userCommand(part, msgTime) || toolEvents(part, msgTime, cwd, ctx)));
    } else if (type === undefined || !QUIET_PARTS.has(type)) {
      ctx.skip("unknown_record", `part ${part.id}`, `type ${String(part.data.type)}`);
    }
  }
  return out;
}

/**
 * A shell tool part the person ran -> a `user` event `!<command>` and a `notice` with its
 * output (when it has some); undefined for a part without a command.
 */
function userCommand(part: OcPart, msgTime: number | undefined): Event[] | undefined {
  const state = obj(part.data.state) ?? {};
  const command = str(obj(state.input)?.command)?.trim();
  if (!command) return undefined;
  const times = obj(state.time);
  const start = toMillis(times?.start) ?? part.time ?? msgTime;
  const out: Event[] = [{ kind: "user", text: `!${command}`, time: start, key: part.id }];
  const status = str(state.status);
  const said = status === "error"
    ? errorText(state, obj(state.metadata))
    : outputText(str(part.data.tool) ?? "bash", state.output).trimEnd();
  if (said.trim()) {
    const time = toMillis(times?.end) ?? start;
    out.push({ kind: "notice", text: said, time, key: `${part.id}:result` });
  }
  return out;
}

/** A tool part -> a tool_call, plus a tool_result once the tool finished. */
function toolEvents(
  part: OcPart,
  msgTime: number | undefined,
  cwd: string | undefined,
  ctx: ParseCtx,
): Event[] {
  const d = part.data;
  const state = obj(d.state) ?? {};
  const status = str(state.status);
  const name = str(d.tool) ?? "unknown";
  let input: unknown = state.input;
  const inputObj = obj(input);
  if ((!inputObj || Object.keys(inputObj).length === 0) && typeof state.raw === "string") {
    input = decodeArgs(state.raw);
  }
  const callId = str(d.callID);
  const tool: ToolCallInfo = { name, id: callId, input };
  describe(tool, obj(input), cwd);
  const times = obj(state.time);
  const start = toMillis(times?.start) ?? part.time ?? msgTime;
  const out: Event[] = [{ kind: "tool_call", text: "", time: start, key: part.id, tool }];
  if (status === "completed" || status === "error") {
    const meta = obj(state.metadata);
    const exit = num(meta?.exit);
    const text = status === "error" ? errorText(state, meta) : outputText(name, state.output);
    out.push({
      kind: "tool_result",
      text,
      time: toMillis(times?.end) ?? start,
      key: `${part.id}:result`,
      result: {
        callId,
        exit: exit === undefined ? undefined : Math.trunc(exit),
        isError: status === "error",
      },
    });
  } else if (status !== "pending" && status !== "running") {
    ctx.skip("bad_shape", `part ${part.id}`, `tool status ${String(state.status)}`);
  }
  return out;
}

/** Sets `command`, `paths`, `edits`, `writes` from the input of opencode's built-in tools. */
function describe(tool: ToolCallInfo, input: Obj | undefined, cwd: string | undefined): void {
  if (!input) return;
  const abs = (p: string) => absolutePath(p, cwd);
  const filePath = str(input.filePath);
  switch (tool.name) {
    case "bash":
      tool.command = str(input.command);
      break;
    case "read":
      if (filePath) tool.paths = [abs(filePath)];
      break;
    case "edit": {
      const span = editSpan(filePath, input, abs);
      if (span) tool.edits = [span];
      break;
    }
    case "multiedit": {
      const edits: EditSpan[] = [];
      for (const e of arr(input.edits)) {
        const o = obj(e);
        const span = o && editSpan(str(o.filePath) ?? filePath, o, abs);
        if (span) edits.push(span);
      }
      if (edits.length) tool.edits = edits;
      break;
    }
    case "write":
      if (filePath && typeof input.content === "string") {
        tool.writes = [{ path: abs(filePath), content: input.content }];
      }
      break;
    case "apply_patch":
    case "patch": {
      const text = str(input.patchText) ?? str(input.patch);
      if (!text) break;
      const fx = parsePatch(text, cwd);
      if (fx.edits.length) tool.edits = fx.edits;
      if (fx.writes.length) tool.writes = fx.writes as WriteSpan[];
      break;
    }
  }
}

function editSpan(
  filePath: string | undefined,
  o: Obj,
  abs: (p: string) => string,
): EditSpan | undefined {
  if (!filePath || typeof o.oldString !== "string" || typeof o.newString !== "string") {
    return undefined;
  }
  return { path: abs(filePath), old: o.oldString, new: o.newString };
}

function errorText(state: Obj, meta: Obj | undefined): string {
  const parts = [str(state.error), str(meta?.output)].filter((s): s is string => s !== undefined);
  return parts.join("\n");
}

/**
 * A completed tool's output. The read tool wraps file content in
 * `<path>…</path><type>…</type><content>` with `N: ` line prefixes (1.18;
 * older builds `<file>` with `00001| `); that framing is stripped.
 */
function outputText(tool: string, output: unknown): string {
  const text = typeof output === "string" ? output : str(obj(output)?.text) ?? "";
  if (tool !== "read") return text;
  const m = /<content>\n?([\s\S]*?)\n?<\/content>/.exec(text) ??
    /<file>\n?([\s\S]*?)\n?<\/file>/.exec(text);
  if (!m) return text;
  return m[1]
    .split("\n")
    .filter((l) => !/^\((End of file|File has more lines)\b.*\)$/.test(l))
    .map((l) => l.replace(/^ *\d+(: |\| ?)/, ""))
    .join("\n")
    .replace(/\n+$/, "");
}

function absOrUndefined(p: string | undefined): string | undefined {
  return p && isAbsolute(p) ? p : undefined;
}
