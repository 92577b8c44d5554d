/**
 * Private helpers of the Zed parser ({@link ../parsers/zed.ts}): one decoded
 * thread document into events.
 *
 * Document generations (zed-industries/zed `crates/agent/src/db.rs`,
 * `legacy_thread.rs`, `thread.rs`, read via the search tool):
 * - `version: "0.3.0"` (`DbThread`, flattened beside `version`): `title`,
 *   `updated_at`, `messages[]` of serde externally tagged values
 *   `{"User": {id, content[]}}`, `{"Agent": {content[], tool_results{},
 *   reasoning_details}}` or the bare string `"Resume"`. User content:
 *   `{"Text": s}`, `{"Mention": {uri, content}}`, `{"Image": ...}`. Agent
 *   content: `{"Text": s}`, `{"Thinking": {text, signature}}`,
 *   `{"RedactedThinking": s}`, `{"ToolUse": {id, name, raw_input, input,
 *   is_input_complete}}`. `tool_results` maps a tool-use id to `{tool_use_id,
 *   tool_name, is_error, content, output}`; `content` is a string,
 *   `{"Text": s}`, `{type:"text", text}`, `{text}` or a list of those
 *   (`LanguageModelToolResultContent`'s lenient reader). Also `model
 *   {provider, model}`, `subagent_context {parent_thread_id}`,
 *   `initial_project_snapshot {worktree_snapshots[{worktree_path}]}`.
 * - Anything else (agent-1 `SerializedThread`, no version or another one):
 *   `summary` (title), `updated_at`, `messages[] {id, role
 *   (user|assistant|system), segments[{type: text|thinking|redacted_thinking,
 *   text}], tool_uses[{id, name, input}], tool_results[{tool_use_id,
 *   is_error, content, output}], context}`.
 *
 * Tools (zed `crates/agent/src/tools/*`, search tool): `terminal {command,
 * cd}` (a failed command's result reads `Command "…" failed with exit code
 * N.`); `edit_file` / `streaming_edit_file {display_description, path, mode:
 * edit|create|overwrite, content, edits[{old_text, new_text}]}`;
 * `read_file`, `create_directory`, `delete_path`, `open`, `diagnostics`
 * `{path}`; `move_path` / `copy_path {source_path, destination_path}`;
 * `save_file` / `restore_file_from_disk {paths[]}`. Tool paths are relative
 * to the project's worktrees and start with a worktree's directory name
 * (`backend/src/main.rs` for the worktree `/a/b/backend`).
 *
 * @module
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { isWindowsDrivePath } from "../core/paths.ts";

const KINDS: Record<string, ToolKind> = {
  terminal: "shell",
  read_file: "read",
  edit_file: "edit",
  streaming_edit_file: "edit",
  create_directory: "paths",
  delete_path: "paths",
  open: "paths",
  diagnostics: "paths",
  move_path: "move",
  copy_path: "move",
  save_file: "paths",
  restore_file_from_disk: "paths",
};

/** A worktree-relative tool path made absolute against the thread's folders. */
export function zedPath(p: string, folders: readonly string[]): string {
  if (isAbsolute(p) || isWindowsDrivePath(p) || folders.length === 0) return p;
  for (const f of folders) {
    const name = basename(f);
    if (p === name || p.startsWith(`${name}/`) || p.startsWith(`${name}\\`)) {
      return join(dirname(f), p);
    }
  }
  return join(folders[0], p);
}

function toolCall(use: Obj, folders: readonly string[]): ToolCallInfo | undefined {
  const name = str(use.name);
  if (!name) return undefined;
  const input = use.input ?? use.raw_input;
  const tool: ToolCallInfo = { name, id: str(use.id), input };
  const a = obj(input);
  let kind = KINDS[name];
  if (!a || !kind) return tool;
  if (kind === "edit" && (a.mode === "create" || a.mode === "overwrite")) kind = "write";
  describeTool(tool, kind, a, undefined);
  if (
    !tool.edits && !tool.writes && !tool.paths && kind !== "shell" && typeof a.path === "string"
  ) {
    tool.paths = [a.path]; // an edit_file call that names only its target
  }
  const fix = (p: string) => zedPath(p, folders);
  tool.paths = tool.paths?.map(fix);
  tool.edits = tool.edits?.map((e) => ({ ...e, path: fix(e.path) }));
  tool.writes = tool.writes?.map((w) => ({ ...w, path: fix(w.path) }));
  for (const k of ["paths", "edits", "writes"] as const) if (!tool[k]) delete tool[k];
  return tool;
}

/** The text of a tool result's `content`, whichever of its shapes it has. */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(resultText).filter(Boolean).join("\n");
  const o = obj(content);
  if (!o) return "";
  for (const [k, v] of Object.entries(o)) {
    if (k.toLowerCase() === "text" && typeof v === "string") return v;
  }
  return "";
}

/**
 * A `terminal` result without Zed's framing: the `Command "…" failed with
 * exit code N.` line (its N is the exit status) and the code fence around
 * the output.
 */
export function terminalOutput(text: string): { text: string; exit?: number } {
  let body = text;
  let exit: number | undefined;
  const failed = /^Command "[\s\S]*?" failed with exit code (-?\d+)\.[^\n]*(?:\n\n|$)/.exec(body);
  if (failed) {
    exit = Number(failed[1]);
    body = body.slice(failed[0].length);
  }
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(body);
  return { text: fenced ? fenced[1] : body, exit };
}

function toolResult(r: Obj, key: string): Event {
  const raw = resultText(r.content);
  const result: ToolResultInfo = { callId: str(r.tool_use_id), isError: r.is_error === true };
  if (str(r.tool_name) !== "terminal") return { kind: "tool_result", text: raw, result, key };
  const { text, exit } = terminalOutput(raw);
  if (exit !== undefined) result.exit = exit;
  return { kind: "tool_result", text, result, key };
}

/** The text a person typed in a `User` message: `Text` blocks and mentions by name. */
function userText(content: unknown[]): string {
  const parts: string[] = [];
  for (const b of content) {
    const o = obj(b);
    const mention = obj(o?.Mention);
    if (typeof o?.Text === "string") parts.push(o.Text);
    else if (mention) {
      const named = typeof mention.uri === "string" ? mention.uri : mentionPath(mention.uri);
      if (named) parts.push(`@${named}`);
    }
  }
  return parts.join("");
}

/** A readable name for a serialised `MentionUri` (`{"File": {"abs_path": ...}}` and kin). */
function mentionPath(uri: unknown): string | undefined {
  const o = obj(uri);
  if (!o) return undefined;
  for (const v of Object.values(o)) {
    const inner = obj(v);
    const s = str(inner?.abs_path) ?? str(inner?.path) ?? str(inner?.name) ?? str(inner?.url);
    if (s) return s;
  }
  return undefined;
}

/** Events of a `version: "0.3.0"` document. */
function currentEvents(
  messages: unknown[],
  folders: readonly string[],
  skip: ParseCtx["skip"],
): Event[] {
  const out: Event[] = [];
  for (const [i, raw] of messages.entries()) {
    const key = `${i}`;
    if (raw === "Resume") continue;
    const m = obj(raw);
    const user = obj(m?.User);
    const agent = obj(m?.Agent);
    if (user) {
      const text = userText(arr(user.content));
      if (text.trim()) out.push({ kind: "user", text, key });
    } else if (agent) {
      for (const [j, b] of arr(agent.content).entries()) {
        const o = obj(b);
        const use = obj(o?.ToolUse);
        if (typeof o?.Text === "string") {
          if (o.Text.trim()) out.push({ kind: "assistant", text: o.Text, key: `${key}#${j}` });
        } else if (use) {
          const tool = toolCall(use, folders);
          if (tool) out.push({ kind: "tool_call", text: "", tool, key: `${key}#${j}` });
          else skip("bad_shape", `message ${key}#${j}`, "ToolUse without a name");
        }
      }
      for (const [id, r] of Object.entries(obj(agent.tool_results) ?? {})) {
        const o = obj(r);
        if (o) out.push(toolResult({ tool_use_id: id, ...o }, `${key}#r:${id}`));
      }
    } else {
      skip("unknown_record", `message ${key}`, "neither User, Agent nor Resume");
    }
  }
  return out;
}

/** Events of an agent-1 (legacy) document. */
function legacyEvents(
  messages: unknown[],
  folders: readonly string[],
  skip: ParseCtx["skip"],
): Event[] {
  const out: Event[] = [];
  for (const [i, raw] of messages.entries()) {
    const m = obj(raw);
    const key = `${i}`;
    const role = str(m?.role);
    if (!m || (role !== "user" && role !== "assistant" && role !== "system")) {
      skip("unknown_record", `message ${key}`, `role ${role}`);
      continue;
    }
    if (role === "system") continue; // the harness's own prompt
    const text = arr(m.segments).map(obj)
      .map((s) => (s?.type === "text" && typeof s.text === "string" ? s.text : ""))
      .filter(Boolean).join("\n");
    if (text.trim()) out.push({ kind: role, text, key });
    const names = new Map<string, string>();
    for (const [j, u] of arr(m.tool_uses).entries()) {
      const use = obj(u);
      const tool = use ? toolCall(use, folders) : undefined;
      if (!tool) continue;
      if (tool.id) names.set(tool.id, tool.name);
      out.push({ kind: "tool_call", text: "", tool, key: `${key}#u${j}` });
    }
    for (const [j, r] of arr(m.tool_results).entries()) {
      const o = obj(r);
      if (o) {
        out.push(toolResult({ tool_name: names.get(String(o.tool_use_id)), ...o }, `${key}#r${j}`));
      }
    }
  }
  return out;
}

/** The events of a decoded thread document, by generation. */
export function threadEvents(
  doc: Obj,
  folders: readonly string[],
  skip: ParseCtx["skip"],
): Event[] {
  const messages = arr(doc.messages);
  return doc.version === "0.3.0"
    ? currentEvents(messages, folders, skip)
    : legacyEvents(messages, folders, skip);
}
