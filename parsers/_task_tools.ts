/**
 * Tool calls of the Cline family (Cline, Roo Code, Kilo Code): what each
 * tool's input means, the SEARCH/REPLACE diff format of their edit tools, the
 * XML tool syntax older tasks wrote inside assistant text, and the
 * `[tool for 'x'] Result:` text their extensions send back as the result.
 *
 * Facts, and where they come from:
 * - `execute_command {command}`, `read_file {path}`, `write_to_file
 *   {absolutePath | path, content}`, `replace_in_file {absolutePath | path,
 *   diff}` with blocks `------- SEARCH` / `=======` / `+++++++ REPLACE`;
 *   results as text blocks `[execute_command for '…'] Result:\nCommand
 *   executed successfully (exit code 0).` / `Command failed with exit code 1.`:
 *   observed in realdata/cline (Cline VS Code extension, 2026 task file).
 * - Older Cline and Roo write the markers `<<<<<<< SEARCH` / `>>>>>>>
 *   REPLACE`; Roo's `apply_diff {path, diff}` puts `:start_line:N` and a
 *   `-------` line after `<<<<<<< SEARCH`; `search_replace` / `edit`
 *   `{file_path, old_string, new_string}`: read in RooCodeInc/Roo-Code
 *   `src/core/prompts/tools/native-tools/*.ts` via the search tool.
 * - The Cline CLI (3.0.65, realdata/farm/cline): `run_commands {commands:
 *   string[]}` whose result content is `[{query, result, error?, success}]`
 *   with `[Command exited with code N]` framing; `apply_patch {input}` with
 *   the apply_patch envelope; `read_files {files}` and `editor {path,
 *   old_text, new_text}` from docs/registry/cline.md
 *
 * @module
 */
import type { EditSpan, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { arr, type Obj, obj, str } from "./_util.ts";

import { parsePatch } from "./_patch.ts";
import { absolutePath } from "../core/paths.ts";

/** Tools whose input is the agent talking to the user: shown as assistant prose, not as calls. */
export const SPEECH_TOOLS: Readonly<Record<string, string>> = {
  attempt_completion: "result",
  ask_followup_question: "question",
  plan_mode_respond: "response",
};

/** Tools that run a shell command. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["execute_command", "run_commands"]);

/** Tool names the XML tool syntax may use inside assistant text. */
const XML_TOOLS: ReadonlySet<string> = new Set([
  "execute_command",
  "read_file",
  "write_to_file",
  "replace_in_file",
  "apply_diff",
  "insert_content",
  "search_and_replace",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "browser_action",
  "use_mcp_tool",
  "access_mcp_resource",
  "ask_followup_question",
  "attempt_completion",
  "plan_mode_respond",
  "new_task",
  "switch_mode",
  "codebase_search",
  "update_todo_list",
  "fetch_instructions",
  "web_fetch",
]);

/**
 * What a call means: `command` for shell tools, `paths` for reads, `edits`
 * for SEARCH/REPLACE and string-replace tools, `writes` for whole-file
 * writes. Relative paths are joined to `cwd` when it is known. Listing and
 * searching (`list_files`, `search_files`, `list_code_definition_names`)
 * name a directory and a pattern, not a file read: no `paths`.
 */
export function taskToolInfo(
  name: string,
  id: string | undefined,
  input: unknown,
  cwd: string | undefined,
): ToolCallInfo {
  const info: ToolCallInfo = { name };
  if (id) info.id = id;
  if (input !== undefined) info.input = input;
  const i = obj(input) ?? {};
  const abs = (p: string) => absolutePath(p, cwd);
  const file = str(i.absolutePath) ?? str(i.path) ?? str(i.file_path) ?? str(i.filePath);
  switch (name) {
    case "execute_command":
      info.command = str(i.command);
      break;
    case "run_commands":
      info.command = arr(i.commands).filter((c): c is string => typeof c === "string").join("\n") ||
        undefined;
      break;
    case "read_file":
    case "read_files": {
      const paths = [...(file ? [file] : []), ...fileList(i.files), ...fileList(i.paths)];
      if (paths.length) info.paths = [...new Set(paths.map(abs))];
      break;
    }
    case "write_to_file":
      if (file && typeof i.content === "string") {
        info.writes = [{ path: abs(file), content: i.content }];
      }
      break;
    case "replace_in_file":
    case "apply_diff":
      if (file && typeof i.diff === "string") {
        const edits = searchReplaceBlocks(i.diff).map((b) => ({ path: abs(file), ...b }));
        if (edits.length) info.edits = edits;
      }
      break;
    case "search_replace":
    case "edit":
    case "edit_file":
      if (file && typeof i.old_string === "string" && typeof i.new_string === "string") {
        info.edits = [{ path: abs(file), old: i.old_string, new: i.new_string }];
      }
      break;
    case "search_and_replace":
      if (file && typeof i.search === "string" && typeof i.replace === "string") {
        info.edits = [{ path: abs(file), old: i.search, new: i.replace }];
      }
      break;
    case "editor":
      editorTool(info, i, file, abs);
      break;
    case "insert_content":
      if (file) info.paths = [abs(file)];
      break;
    case "apply_patch": {
      const text = str(i.input) ?? str(i.patch) ?? (typeof input === "string" ? input : undefined);
      if (!text) break;
      const fx = parsePatch(text, cwd);
      if (fx.edits.length) info.edits = fx.edits;
      if (fx.writes.length) info.writes = fx.writes as WriteSpan[];
      break;
    }
  }
  if (info.command === undefined) delete info.command;
  return info;
}

/** The Cline CLI `editor` tool: a replace (`old_text`/`new_text`) or a create (`file_text`). */
function editorTool(
  info: ToolCallInfo,
  i: Obj,
  file: string | undefined,
  abs: (p: string) => string,
): void {
  if (!file) return;
  if (typeof i.old_text === "string") {
    info.edits = [{
      path: abs(file),
      old: i.old_text,
      new: typeof i.new_text === "string" ? i.new_text : "",
    }];
  } else if (typeof i.file_text === "string") {
    info.writes = [{ path: abs(file), content: i.file_text }];
  } else {
    info.paths = [abs(file)];
  }
}

function fileList(v: unknown): string[] {
  const out: string[] = [];
  for (const f of arr(v)) {
    const p = typeof f === "string" ? f : str(obj(f)?.path) ?? str(obj(f)?.file_path);
    if (p) out.push(p);
  }
  return out;
}

const SEARCH_RE = /^\s*(?:<{7}|-{7}) SEARCH>?\s*$/;
const DIVIDER_RE = /^\s*={7}\s*$/;
const REPLACE_RE = /^\s*(?:>{7}|\+{7}) REPLACE<?\s*$/;

/**
 * The spans of a SEARCH/REPLACE diff: each `SEARCH` section is `old`, the
 * section after `=======` is `new`. Roo's `:start_line:`/`:end_line:` lines
 * and the `-------` separator after them are not content. A block without its
 * closing marker still counts (the model sometimes leaves it out).
 */
export function searchReplaceBlocks(diff: string): Array<Omit<EditSpan, "path">> {
  const out: Array<Omit<EditSpan, "path">> = [];
  let mode: "none" | "search" | "replace" = "none";
  let oldL: string[] = [];
  let newL: string[] = [];
  let head = true;
  const flush = () => {
    if (mode === "replace") out.push({ old: oldL.join("\n"), new: newL.join("\n") });
    mode = "none";
    oldL = [];
    newL = [];
  };
  for (const raw of diff.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (SEARCH_RE.test(line)) {
      flush();
      mode = "search";
      head = true;
    } else if (mode === "search" && DIVIDER_RE.test(line)) {
      mode = "replace";
    } else if (mode === "replace" && REPLACE_RE.test(line)) {
      flush();
    } else if (mode === "search") {
      if (head && /^:(start|end)_line:\s*-?\d*\s*$/.test(line)) continue;
      if (head && /^-{7}\s*$/.test(line) && oldL.length === 0) {
        head = false;
        continue;
      }
      head = false;
      oldL.push(line);
    } else if (mode === "replace") {
      newL.push(line);
    }
  }
  flush();
  return out;
}

/** One tool call found in assistant text written with the XML tool syntax. */
export interface XmlToolCall {
  name: string;
  input: Record<string, string | string[]>;
}

/**
 * Splits assistant text of the XML tool protocol into prose and tool calls:
 * `<execute_command><command>ls</command></execute_command>`. Parameters are
 * the direct child elements; `read_file`'s `<args><file><path>` list becomes
 * `paths`. `<thinking>` blocks are dropped.
 */
export function splitXmlTools(text: string): { prose: string; calls: XmlToolCall[] } {
  const calls: XmlToolCall[] = [];
  let prose = text.replace(/<thinking>[\s\S]*?<\/thinking>/g, "");
  const re = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
  prose = prose.replace(re, (whole, name: string, body: string) => {
    if (!XML_TOOLS.has(name)) return whole;
    calls.push({ name, input: xmlParams(name, body) });
    return "";
  });
  return { prose: prose.replace(/\n{3,}/g, "\n\n").trim(), calls };
}

function xmlParams(name: string, body: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  const open = /<([a-z_]+)>/g;
  let m: RegExpExecArray | null;
  while ((m = open.exec(body)) !== null) {
    const key = m[1];
    const start = m.index + m[0].length;
    const end = body.lastIndexOf(`</${key}>`);
    if (end < start) continue;
    if (!(key in params)) params[key] = trimNl(body.slice(start, end));
    open.lastIndex = end + key.length + 3;
  }
  if (name === "read_file" && typeof params.args === "string") {
    const paths = [...params.args.matchAll(/<path>([\s\S]*?)<\/path>/g)].map((x) => x[1].trim());
    if (paths.length) params.paths = paths;
    delete params.args;
  }
  return params;
}

function trimNl(s: string): string {
  return s.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

/** A result sent back as text: `[name for 'arg'] Result:` or `[name] Result:`. */
const RESULT_HEAD = /^\[([A-Za-z0-9_:.-]+)(?: for '[\s\S]*?')?\] Result:[ \t]*\r?\n?/;

/** The tool name and body of a text-form result, or undefined when `text` is not one. */
export function textResult(text: string): { name: string; body: string } | undefined {
  const m = RESULT_HEAD.exec(text);
  return m ? { name: m[1], body: text.slice(m[0].length) } : undefined;
}

const EXIT_RE = /\bexit(?:ed with)? code:?\s*(-?\d+)/i;

/** The exit status a command result's text records, if any. */
export function exitFrom(text: string): number | undefined {
  const m = EXIT_RE.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * A command result's text without its framing: the extension's opening
 * `Command executed successfully (exit code 0).` / `Command failed with exit
 * code 1.` line (Roo: `Command executed in terminal … Exit code: N`) and its
 * `Output:` label, the CLI's `[Command exited with code N]` line, and bare
 * `[stdout]` / `[stderr]` labels.
 */
export function stripCommandFraming(text: string): string {
  return text
    .replace(/^Command [^\n]*?exit code:?\s*-?\d+[^\n]*(\r?\n)?(Output:[ \t]*(\r?\n)?)?/i, "")
    .split("\n")
    .filter((l) => !/^\[Command exited with code -?\d+\]$/.test(l.trim()))
    .filter((l) => !/^\[(stdout|stderr)\]$/.test(l.trim()))
    .join("\n")
    .replace(/^\n+/, "")
    .replace(/\n+$/, "");
}

/** `read_file` output lines `12 | code` lose their numbers; the `(File has N lines total.)` note goes. */
export function stripLineNumbers(text: string): string {
  const lines = text.replace(/\n*\(File has \d+ lines total\.\)\s*$/, "").split("\n");
  const numbered = lines.filter((l) => l !== "");
  if (numbered.length === 0 || !numbered.every((l) => /^\s*\d+ \|( |$)/.test(l))) return text;
  return lines.map((l) => l.replace(/^\s*\d+ \|( |$)/, "")).join("\n");
}
