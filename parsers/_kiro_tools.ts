/**
 * Kiro CLI content blocks -> deja tool calls and results. Private to
 * `parsers/kiro.ts`.
 *
 * Tool names and inputs (aws/amazon-q-developer-cli `crates/agent/src/agent/tools/`,
 * the open ancestor Kiro CLI grew from, read via the search tool): `shell`
 * (aliases `execute_bash`, `execute_cmd`) `{command}`; `read` (`fs_read`)
 * `{path}` or `{operations: [{path, ...}]}`; `write` (`fs_write`)
 * `{command: create|strReplace|insert, path, content, oldStr, newStr}`, or
 * the older chat-cli spelling `{command: create|str_replace|insert|append,
 * path, file_text, old_str, new_str}`; `ls`, `glob`, `grep` `{path}` (a
 * directory listed or searched, not a file read: no `paths`).
 * A shell result is `{kind: "json", data: {exit_status, stdout, stderr}}`
 * (`exit_status` a numeric string; chat-cli `tools/execute/unix.rs`).
 * Whether Kiro keeps every one of these shapes is not confirmed on a real store.
 *
 * @module
 */
import type { Event, ToolCallInfo } from "../core/model.ts";
import { arr, num, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";

/** Kiro's tool names (and the aliases it still accepts) by what they do. */
const KINDS: Record<string, ToolKind> = {
  shell: "shell",
  execute_bash: "shell",
  execute_cmd: "shell",
  executeCmd: "shell",
  read: "read",
  fs_read: "read",
  fsRead: "read",
};
const WRITE = new Set(["write", "fs_write", "fsWrite"]);

/** A `toolUse` block's data -> what the call means. */
export function kiroToolCall(d: Obj, cwd: string | undefined): ToolCallInfo {
  const name = str(d.name) ?? "unknown";
  const info: ToolCallInfo = { name };
  const id = str(d.toolUseId);
  if (id) info.id = id;
  if (d.input !== undefined) info.input = d.input;
  const i = obj(d.input) ?? {};
  if (KINDS[name] === "read" && !str(i.path)) {
    // `{operations: [{mode, path, ...}]}`: every path the call reads.
    const paths = [...arr(i.operations), ...arr(i.ops)].map((o) => str(obj(o)?.path));
    describeTool(info, "read", { paths: [...new Set(paths.filter((p) => p))] }, cwd);
  } else if (KINDS[name]) {
    describeTool(info, KINDS[name], i, cwd);
  } else if (WRITE.has(name)) {
    const [kind, args] = writeArgs(i);
    if (kind) describeTool(info, kind, args, cwd);
  }
  return info;
}

/** A `write` call's sub-command as a write or an edit (an insertion replaces nothing). */
function writeArgs(i: Obj): [ToolKind | undefined, Obj] {
  const cmd = str(i.command) ?? "";
  const path = i.path;
  if (cmd === "create") return ["write", { path, content: i.content ?? i.file_text }];
  if (cmd === "strReplace" || cmd === "str_replace") {
    return ["edit", { path, old_str: i.oldStr ?? i.old_str, new_str: i.newStr ?? i.new_str }];
  }
  if (cmd === "insert" || cmd === "append") {
    return ["edit", { path, old_str: "", new_str: i.content ?? i.new_str }];
  }
  return [undefined, i];
}

/** A `toolResult` block's data -> a tool_result event. */
export function kiroToolResult(d: Obj, time: number | undefined): Event {
  const callId = str(d.toolUseId);
  const parts: string[] = [];
  let exit: number | undefined;
  for (const item of arr(d.content)) {
    const o = obj(item);
    if (!o) continue;
    if (o.kind === "text" && typeof o.data === "string") parts.push(o.data);
    else if (o.kind === "json") {
      const j = obj(o.data);
      const code = num(j?.exit_status ?? j?.exitStatus ?? j?.exit_code);
      if (code !== undefined) exit = code;
      const streams = [str(j?.stdout), str(j?.stderr)].filter((x): x is string => !!x);
      if (streams.length) parts.push(streams.join("\n"));
      else if (code === undefined) parts.push(JSON.stringify(o.data ?? null));
    }
  }
  const result: Event["result"] = { isError: d.status === "error" };
  if (callId) result.callId = callId;
  if (exit !== undefined) result.exit = exit;
  const e: Event = { kind: "tool_result", text: parts.join("\n"), result };
  if (callId) e.key = `res:${callId}`;
  if (time !== undefined) e.time = time;
  return e;
}
