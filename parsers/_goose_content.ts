/**
 * Private helpers of the Goose parser ({@link ../parsers/goose.ts}): one
 * Goose message (its `content` block list, from the SQLite `content_json`
 * column or a legacy JSONL line) into events.
 *
 * Block shapes (serde `tag = "type"`, camelCase), checked in block/goose and
 * in other readers' fixtures of Goose 1.x stores via the search tool:
 * - `{type:"text", text}`.
 * - `{type:"toolRequest", id, toolCall:{status:"success", value:{name,
 *   arguments}}}` (or `{status:"error", error}`).
 * - `{type:"toolResponse", id, toolResult:{status, value}}` where `value` is
 *   `{content:[{type:"text", text}], isError}` (Goose 1.1x and later) or the
 *   bare content list (older builds); `status:"error"` carries `error`.
 * - `thinking`, `redactedThinking`, `image` carry nothing to index;
 *   `toolConfirmationRequest`, `frontendToolRequest`,
 *   `contextLengthExceeded`, `summarizationRequested`,
 *   `conversationCompacted`, `systemNotification` are bookkeeping.
 * - Tool names: `developer__shell {command}`, `developer__text_editor
 *   {command: view|write|str_replace|insert|undo_edit, path, file_text,
 *   old_str, new_str}` (Goose developer extension), and the flat `shell`,
 *   `write`, `edit`, `read` of newer builds.
 * - `metadata_json {userVisible, agentVisible}`: a row the user never saw is
 *   harness-authored context (continuation prompts, compaction summaries).
 *   Its user text is dropped and its assistant text becomes a `summary`
 *   (inferred from the flag's meaning; no real store had one).
 *
 * @module
 */
import type { Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { arr, blockText, decodeArgs, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";

/** One message, whichever store it came from. */
export interface GooseMessage {
  /** Row id or line offset: the key prefix of its events. */
  key: string;
  role: string;
  content: unknown;
  /** Epoch ms. */
  time?: number;
  /** False when the harness hid the message from the user. */
  userVisible: boolean;
}

const DROPPED = new Set([
  "thinking",
  "redactedThinking",
  "image",
  "toolConfirmationRequest",
  "frontendToolRequest",
  "contextLengthExceeded",
  "summarizationRequested",
  "conversationCompacted",
  "systemNotification",
]);

const KINDS: Record<string, ToolKind> = {
  developer__shell: "shell",
  shell: "shell",
  bash: "shell",
  write: "write",
  edit: "edit",
  read: "read",
  view: "read",
};

/** `developer__text_editor` commands and what they mean. */
const EDITOR: Record<string, ToolKind> = { view: "read", write: "write", str_replace: "edit" };

function callInfo(
  id: string | undefined,
  call: Obj,
  project: string | undefined,
): ToolCallInfo | undefined {
  const value = obj(call.value) ?? obj(call.Ok) ?? call;
  const name = str(value.name);
  if (!name) return undefined;
  const input = decodeArgs(value.arguments);
  const tool: ToolCallInfo = { name, id, input };
  const a = obj(input);
  const kind = name.endsWith("text_editor") ? EDITOR[str(a?.command) ?? ""] : KINDS[name];
  if (a && kind) describeTool(tool, kind, a, project);
  return tool;
}

function resultInfo(id: string | undefined, res: Obj): { text: string; result: ToolResultInfo } {
  const value = res.value ?? res.Ok;
  const v = obj(value);
  const content = v ? v.content : value;
  const failed = res.status === "error" || v?.isError === true || res.Err !== undefined;
  const text = blockText(content) || (failed ? String(res.error ?? res.Err ?? "") : "");
  return { text, result: { callId: id, isError: failed } };
}

/**
 * The events of one message, in block order; keys `<message key>#<block
 * index>`. Problems are counted on `skip`.
 */
export function gooseEvents(
  m: GooseMessage,
  project: string | undefined,
  skip: ParseCtx["skip"],
): Event[] {
  const out: Event[] = [];
  const blocks = typeof m.content === "string"
    ? [{ type: "text", text: m.content }]
    : arr(m.content);
  if (!Array.isArray(m.content) && typeof m.content !== "string") {
    skip("bad_shape", m.key, "content is not a block list");
    return out;
  }
  if (m.role !== "user" && m.role !== "assistant") {
    skip("unknown_record", m.key, `role ${m.role}`);
    return out;
  }
  for (const [i, raw] of blocks.entries()) {
    const b = obj(raw);
    const key = `${m.key}#${i}`;
    const type = str(b?.type);
    if (!b || !type) {
      skip("bad_shape", key, "block without a type");
      continue;
    }
    if (DROPPED.has(type)) continue;
    if (type === "text") {
      const text = typeof b.text === "string" ? b.text : "";
      if (!text.trim()) continue;
      if (m.userVisible) {
        out.push({ kind: m.role === "user" ? "user" : "assistant", text, time: m.time, key });
      } else if (m.role === "assistant") out.push({ kind: "summary", text, time: m.time, key });
    } else if (type === "toolRequest") {
      const tool = callInfo(str(b.id), obj(b.toolCall) ?? {}, project);
      if (tool) out.push({ kind: "tool_call", text: "", tool, time: m.time, key });
      else skip("bad_shape", key, "tool request without a name (failed call)");
    } else if (type === "toolResponse") {
      const { text, result } = resultInfo(str(b.id), obj(b.toolResult) ?? {});
      out.push({ kind: "tool_result", text, result, time: m.time, key });
    } else {
      skip("unknown_record", key, `block type ${type}`);
    }
  }
  return out;
}
