/**
 * The mock model's view of a harness's tools: the tool list of any wire
 * protocol reduced to one shape, the tool chosen for each role (shell, read,
 * edit, write, agent) by name first and by schema after, and the arguments
 * that role's call gets.
 *
 * @module
 */

/** A JSON schema, as loosely as harnesses write them. */
export type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  items?: Schema;
  anyOf?: Schema[];
  description?: string;
};

/** One tool the harness offered. */
export interface Tool {
  name: string;
  /**
   * `function`: JSON arguments; `custom`: free text (Codex's apply_patch); `local_shell`: argv;
   * `tool_search`: the Responses API's client-side search over deferred tools (Codex).
   */
  kind: "function" | "custom" | "local_shell" | "tool_search";
  schema: Schema;
  /** For a function inside a Responses `namespace` tool: `name` is `<namespace>__<inner>`. */
  namespace?: { namespace: string; inner: string };
}

/** The roles a scenario needs a tool for. */
export type Role = "shell" | "read" | "edit" | "write" | "agent";

const EXACT: Record<Role, string[]> = {
  shell: [
    "Bash",
    "bash",
    "shell",
    "exec_command",
    "shell_command",
    "run_shell_command",
    "execute_command",
    "launch-process",
    "run_terminal_cmd",
    "run_command",
    "terminal",
    "local_shell",
    "execute_bash",
    "Shell",
  ],
  read: ["Read", "read_file", "read", "view", "ReadFile", "view_file", "file_read", "readFile"],
  edit: [
    "Edit",
    "edit",
    "replace",
    "str_replace",
    "str_replace_based_edit_tool",
    "str_replace_editor",
    "edit_file",
    "replace_in_file",
    "search_replace",
    "apply_patch",
    "editFile",
    "MultiEdit",
    "multi_edit",
  ],
  write: [
    "Write",
    "write",
    "write_file",
    "write_to_file",
    "create_file",
    "WriteFile",
    "file_write",
    "create",
    "Create",
    "save-file",
  ],
  agent: [
    "Task",
    "Agent",
    "task",
    "agent",
    "invoke_agent",
    "spawn_agent",
    "delegate_to_agent",
    "subagent",
  ],
};

const FUZZY: Record<Role, [RegExp, RegExp]> = {
  shell: [/bash|shell|command|terminal|exec/i, /output|kill|background|status|stdin|list|read/i],
  read: [/^read|read_?file|view/i, /many|multiple|notebook|image|mcp|resource|media|url|web/i],
  edit: [/edit|replace|patch/i, /notebook|multi|todo|memory|image/i],
  write: [/write|create_file|save/i, /todo|memory|notebook|stdin|agent|process/i],
  agent: [/agent/i, /list|status|output|kill|cancel|result|wait|send|resume|close/i],
};

/** The properties of a schema (empty when it has none). */
export function props(s: Schema | undefined): Record<string, Schema> {
  return (s && typeof s === "object" && s.properties) || {};
}

function typeOf(s: Schema | undefined): string {
  const t = s?.type ?? s?.anyOf?.[0]?.type;
  return String(Array.isArray(t) ? t[0] : t ?? "").toLowerCase();
}

/** The first of `names` that the schema has as a property. */
export function keyOf(s: Schema, names: string[]): string | undefined {
  const p = props(s);
  return names.find((n) => n in p);
}

/** True when `t` can carry an edit as this mock writes one. */
function canEdit(t: Tool): boolean {
  if (t.kind === "custom" || /patch/i.test(t.name)) return true;
  return keyOf(t.schema, OLD_KEYS) !== undefined || "edits" in props(t.schema);
}

function isAgent(t: Tool): boolean {
  const p = props(t.schema);
  return "prompt" in p || "task" in p || "message" in p;
}

/** The tool for `role`, or undefined when the harness offers none. */
export function pick(tools: Tool[], role: Role): Tool | undefined {
  const ok = (t: Tool) =>
    role === "agent" ? isAgent(t) : role === "edit" ? canEdit(t) : role !== "shell" ||
      t.kind !== "custom";
  for (const n of EXACT[role]) {
    const t = tools.find((x) => x.name === n && ok(x));
    if (t) return t;
  }
  if (role === "agent") return tools.find((t) => "subagent_type" in props(t.schema));
  const [want, reject] = FUZZY[role];
  return tools.find((t) => want.test(t.name) && !reject.test(t.name) && ok(t));
}

/** True when the edit tool takes a patch (no read is needed first). */
export function isPatch(t: Tool): boolean {
  return t.kind === "custom" || /patch/i.test(t.name);
}

const PATH_KEYS = [
  "file_path",
  "filepath",
  "path",
  "filePath",
  "absolute_path",
  "target_file",
  "file",
  "filename",
];
const OLD_KEYS = ["old_string", "oldString", "old_str", "old_text", "oldText", "search", "old"];
const NEW_KEYS = ["new_string", "newString", "new_str", "new_text", "newText", "replace", "new"];
const CONTENT_KEYS = ["content", "file_text", "file_content", "text", "contents", "data"];

/** Fills the required properties the call has not set with harmless values. */
export function fillRequired(s: Schema, args: Record<string, unknown>, cwd: string) {
  const p = props(s);
  for (const k of s.required ?? []) {
    if (k in args) continue;
    const ps = p[k] ?? {};
    const t = typeOf(ps);
    if (ps.enum?.length) args[k] = ps.enum[0];
    else if (t === "number" || t === "integer") {
      args[k] = /second/i.test(k) ? 60 : /timeout/i.test(k) ? 60000 : 0;
    } else if (t === "boolean") args[k] = /approv|confirm|safe|^wait$/i.test(k);
    else if (t === "array") args[k] = [];
    else if (t === "object") args[k] = {};
    else if (/dir|cwd|workdir|working/i.test(k)) args[k] = cwd;
    else args[k] = "farm step";
  }
  return args;
}

/** Arguments of a shell call running `cmd`. */
export function shellArgs(t: Tool, cmd: string, cwd: string): Record<string, unknown> {
  const key = keyOf(t.schema, ["command", "cmd", "commands", "script", "input"]) ?? "command";
  const a: Record<string, unknown> = {};
  const isArray = typeOf(props(t.schema)[key]) === "array";
  a[key] = isArray ? (key === "commands" ? [cmd] : ["bash", "-lc", cmd]) : cmd;
  if ("description" in props(t.schema)) a.description = `Run ${cmd}`;
  if ("requires_approval" in props(t.schema)) a.requires_approval = false;
  return fillRequired(t.schema, a, cwd);
}

/** Arguments of a read call for `path`. */
export function readArgs(t: Tool, path: string, cwd: string): Record<string, unknown> {
  const a: Record<string, unknown> = { [keyOf(t.schema, PATH_KEYS) ?? "file_path"]: path };
  if ("command" in props(t.schema)) a.command = "view";
  return fillRequired(t.schema, a, cwd);
}

/** A Codex-style patch: one update or one added file. */
export function patchText(file: string, change: { old: string; new: string } | string): string {
  const body = typeof change === "string"
    ? `*** Add File: ${file}\n${
      change.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n")
    }`
    : `*** Update File: ${file}\n@@\n-${change.old}\n+${change.new}`;
  return `*** Begin Patch\n${body}\n*** End Patch\n`;
}

/**
 * Arguments of an edit replacing `old` by `new` in `path`. A tool that only
 * writes whole files gets `whole` (the file's new content).
 */
export function editArgs(
  t: Tool,
  path: string,
  rel: string,
  change: { old: string; new: string },
  whole: string,
  cwd: string,
): Record<string, unknown> {
  if (isPatch(t)) {
    const key = keyOf(t.schema, ["input", "patch", "patchText", "patch_text", "diff"]) ?? "input";
    return fillRequired(t.schema, { [key]: patchText(rel, change) }, cwd);
  }
  const a: Record<string, unknown> = { [keyOf(t.schema, PATH_KEYS) ?? "file_path"]: path };
  if ("command" in props(t.schema)) a.command = "str_replace";
  const ok = keyOf(t.schema, OLD_KEYS);
  const nk = keyOf(t.schema, NEW_KEYS);
  if (ok && nk) {
    a[ok] = change.old;
    a[nk] = change.new;
  } else if ("edits" in props(t.schema)) {
    const item = props(t.schema).edits.items ?? {};
    a.edits = [{
      [keyOf(item, ["oldText", ...OLD_KEYS]) ?? "oldText"]: change.old,
      [keyOf(item, ["newText", ...NEW_KEYS]) ?? "newText"]: change.new,
    }];
  } else {
    a[keyOf(t.schema, CONTENT_KEYS) ?? "content"] = whole;
  }
  if ("instruction" in props(t.schema)) a.instruction = `Replace '${change.old}'`;
  if ("description" in props(t.schema)) a.description = "Edit the README greeting";
  return fillRequired(t.schema, a, cwd);
}

/** Arguments of a write of `content` to `path` (a patch adding the file for patch tools). */
export function writeArgs(
  t: Tool,
  path: string,
  rel: string,
  content: string,
  cwd: string,
): Record<string, unknown> {
  if (isPatch(t)) {
    const key = keyOf(t.schema, ["input", "patch", "patchText", "patch_text", "diff"]) ?? "input";
    return fillRequired(t.schema, { [key]: patchText(rel, content) }, cwd);
  }
  const a: Record<string, unknown> = { [keyOf(t.schema, PATH_KEYS) ?? "file_path"]: path };
  a[keyOf(t.schema, CONTENT_KEYS) ?? "content"] = content;
  if ("command" in props(t.schema)) a.command = "create";
  return fillRequired(t.schema, a, cwd);
}

/** Arguments of an agent (subagent) call handing over `prompt`. */
export function agentArgs(
  t: Tool,
  prompt: string,
  agentType: string | undefined,
  cwd: string,
): Record<string, unknown> {
  const a: Record<string, unknown> = {
    [keyOf(t.schema, ["prompt", "task", "message"]) ?? "prompt"]: prompt,
  };
  if ("description" in props(t.schema)) a.description = "Farm helper";
  const typeKey = keyOf(t.schema, ["subagent_type", "agent_type", "agent_name", "agent"]);
  if (typeKey) {
    const e = props(t.schema)[typeKey].enum;
    a[typeKey] = agentType && (!e || e.includes(agentType)) ? agentType : e?.[0] ?? "general";
  }
  return fillRequired(t.schema, a, cwd);
}

/** A value that satisfies `s` (for requests that ask for JSON output). */
export function fillSchema(s: Schema, key = ""): unknown {
  const t = typeOf(s);
  if (s.enum?.length) return key === "next_speaker" && s.enum.includes("user") ? "user" : s.enum[0];
  if (t === "object" || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props(s))) out[k] = fillSchema(v, k);
    return out;
  }
  if (t === "array") return [];
  if (t === "number" || t === "integer") return 0;
  if (t === "boolean") return false;
  return "farm";
}
