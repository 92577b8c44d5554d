/**
 * Antigravity transcript steps mapped onto deja events.
 *
 * A step is one line of `transcript.jsonl`: `{step_index, source, type,
 * status, created_at (RFC 3339), content (string), thinking?, tool_calls?}`.
 * Facts from docs/registry/antigravity.md (a read of another reader, vshulcz/deja-vu)
 * unless marked "later reader": those come from that reader's newer tests,
 * read via the search tool, which say they were shaped from real IDE
 * transcripts. No real Antigravity store was available to check any of it.
 *
 * @module
 */
import type { Event, ToolCallInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, type Obj, obj, str } from "./_util.ts";
import { parsePatch } from "./_patch.ts";
import { isAbsoluteAny, isWindowsDrivePath } from "../core/paths.ts";

/** Step types of MODEL steps that are the agent speaking. */
const SPEECH = new Set(["PLANNER_RESPONSE", ""]);

/** Step type -> planner tool names whose call the step carries out (later reader). */
const STEP_TOOLS: Record<string, string[]> = {
  RUN_COMMAND: ["run_command"],
  GENERIC: ["run_command"],
  VIEW_FILE: ["view_file", "view_file_outline", "view_code_item"],
  LIST_DIRECTORY: ["list_dir"],
  CODE_ACTION: ["replace_file_content", "multi_replace_file_content", "write_to_file"],
  GREP_SEARCH: ["grep_search"],
};

/** Header labels naming the file a VIEW_FILE / CODE_ACTION / LIST_DIRECTORY step touched. */
const PATH_LABELS = ["File Path:", "Created file", "Edited file", "Modified file"];

/** Planner tool-call argument names that hold a file path (later reader). */
const PATH_ARGS = ["AbsolutePath", "TargetFile"];

/**
 * Planner tool-call argument names that hold a directory listed or searched
 * (`list_dir`, `grep_search`; later reader): not a file read, so no `paths`,
 * but still a hint for the project.
 */
const DIR_ARGS = ["DirectoryPath", "SearchPath"];

/** A planner tool call still waiting for the step that carries it out. */
interface Pending {
  tool: ToolCallInfo;
  names: string;
}

/** Folds steps into events; the caller resolves the project afterwards. */
export class StepReader {
  readonly events: Event[] = [];
  /** Absolute paths the steps touched, in order (project fallback). */
  readonly paths: string[] = [];
  /** The first absolute `Cwd` of a `run_command` call (later reader). */
  cwd?: string;
  started?: number;
  updated?: number;
  private pending: Pending[] = [];
  private line = 0;

  constructor(
    private readonly skip: (reason: "unknown_record" | "bad_shape", where: string) => void,
  ) {}

  step(value: unknown, where: string): void {
    this.line++;
    const rec = obj(value);
    if (!rec) return this.skip("bad_shape", where);
    const source = str(rec.source);
    if (source === undefined) return this.skip("unknown_record", where);
    const time = this.touch(toMillis(rec.created_at));
    const content = typeof rec.content === "string" ? rec.content : "";
    const type = typeof rec.type === "string" ? rec.type : "";
    const idx = typeof rec.step_index === "number" ? rec.step_index : this.line - 1;
    if (source === "USER_EXPLICIT") {
      const text = cleanUserContent(content);
      if (text) this.push({ kind: "user", text, ...at(time) });
    } else if (source === "MODEL") {
      if (SPEECH.has(type)) this.planner(rec, content, idx, time);
      else this.work(type, content, idx, time);
    }
    // Every other source (SYSTEM, ...) is harness-authored: dropped without a count.
  }

  private touch(t: number | undefined): number | undefined {
    // A step with no readable time takes the session's start, once one is known.
    if (t === undefined) return this.started;
    if (this.started === undefined || t < this.started) this.started = t;
    if (this.updated === undefined || t > this.updated) this.updated = t;
    return t;
  }

  private push(ev: Event): void {
    this.events.push(ev);
  }

  private notePath(p: string | undefined): void {
    if (p && isAbsoluteAny(p)) this.paths.push(p);
  }

  /** PLANNER_RESPONSE (or an untyped MODEL step): speech, plus its `tool_calls` (later reader). */
  private planner(rec: Obj, content: string, idx: number, time: number | undefined): void {
    const text = content.trim();
    if (text) this.push({ kind: "assistant", text, ...at(time) });
    arr(rec.tool_calls).forEach((c, n) => {
      const call = obj(c);
      const name = str(call?.name);
      if (!call || !name) return;
      const args = decodeArgValues(obj(call.args));
      const tool: ToolCallInfo = { name, id: `step-${idx}.${n}`, input: args };
      const command = str(args.CommandLine)?.trim();
      if (name === "run_command" && command) tool.command = command;
      const cwd = str(args.Cwd);
      if (name === "run_command" && cwd && isAbsoluteAny(cwd) && !this.cwd) this.cwd = cwd;
      const p = PATH_ARGS.map((k) => str(args[k])).find((v) => v !== undefined);
      if (p) {
        const path = fileUriPath(p) ?? p;
        tool.paths = [path];
        this.notePath(path);
      }
      const dir = DIR_ARGS.map((k) => str(args[k])).find((v) => v !== undefined);
      if (dir && !p) this.notePath(fileUriPath(dir) ?? dir);
      this.push({ kind: "tool_call", text: "", ...at(time), tool });
      this.pending.push({ tool, names: name });
    });
  }

  /**
   * A tool step. Its header names the command (`Task Description:`) or the
   * file; a CODE_ACTION may carry a `[diff_block_start]` diff (later reader).
   * When a planner call of the matching tool is waiting, the step is that
   * call's result; otherwise the step is a call of its own (named by its type)
   * when the header names anything. The content without its leading time
   * header lines is the result text; a step with nothing else yields no result.
   */
  private work(type: string, content: string, idx: number, time: number | undefined): void {
    const found: ToolCallInfo = { name: type };
    if (type === "RUN_COMMAND" || type === "GENERIC") {
      const cmd = headerField(content, "Task Description:");
      if (cmd) found.command = cmd;
    } else if (type === "LIST_DIRECTORY") {
      // A directory listed, not a file read: the call keeps it as its input only.
      const path = headerPath(content);
      if (path) {
        this.notePath(path);
        found.input = { DirectoryPath: path };
      }
    } else if (type === "VIEW_FILE" || type === "CODE_ACTION") {
      const path = headerPath(content) ??
        (type === "CODE_ACTION" ? changedPath(content) : undefined);
      if (path) {
        this.notePath(path);
        const edits = type === "CODE_ACTION" ? diffEdits(content, path) : [];
        if (edits.length) found.edits = edits;
        else found.paths = [path];
      }
    }
    const call = this.takePending(type);
    let callId: string | undefined;
    if (call) {
      callId = call.id;
      if (found.command && !call.command) call.command = found.command;
      if (found.paths && !call.paths) call.paths = found.paths;
      if (found.edits) {
        call.edits = found.edits;
        delete call.paths;
      }
    } else if (found.command || found.paths || found.edits || found.input) {
      callId = `step-${idx}`;
      this.push({ kind: "tool_call", text: "", ...at(time), tool: { ...found, id: callId } });
    }
    const body = stepBody(content);
    if (body) {
      this.push({
        kind: "tool_result",
        text: body,
        ...at(time),
        result: { ...(callId ? { callId } : {}), isError: false },
      });
    }
  }

  private takePending(type: string): ToolCallInfo | undefined {
    const names = STEP_TOOLS[type] ?? [type.toLowerCase()];
    const at = this.pending.findIndex((p) => names.includes(p.names));
    if (at < 0) return undefined;
    return this.pending.splice(at, 1)[0].tool;
  }
}

function at(time: number | undefined): { time?: number } {
  return time === undefined ? {} : { time };
}

const USER_BLOCKS = [
  /<ADDITIONAL_METADATA>[\s\S]*?<\/ADDITIONAL_METADATA>/g,
  /<USER_SETTINGS_CHANGE>[\s\S]*?<\/USER_SETTINGS_CHANGE>/g,
];

/**
 * What the person typed: the `<ADDITIONAL_METADATA>` and
 * `<USER_SETTINGS_CHANGE>` blocks removed, then a leading `<USER_REQUEST>` and
 * a trailing `</USER_REQUEST>`, then trimmed.
 */
export function cleanUserContent(text: string): string {
  let t = text;
  for (const re of USER_BLOCKS) t = t.replace(re, "");
  return t.replace(/^\s*<USER_REQUEST>\s*/, "").replace(/\s*<\/USER_REQUEST>\s*$/, "").trim();
}

/** The value of the first line that starts (after trimming) with `label`. */
export function headerField(text: string, label: string): string | undefined {
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith(label)) {
      const v = line.slice(label.length).trim();
      if (v) return v;
    }
  }
  return undefined;
}

/**
 * The file a step header names: the first `File Path:` / `Created file` /
 * `Edited file` / `Modified file` line whose value is a `file://` URI
 * (optionally in backticks; anything after the first space dropped).
 */
export function headerPath(text: string): string | undefined {
  for (const label of PATH_LABELS) {
    let v = headerField(text, label);
    if (!v) continue;
    v = v.replace(/^`+/, "");
    const space = v.indexOf(" ");
    if (space > 0) v = v.slice(0, space);
    const p = fileUriPath(v.replace(/`+$/, ""));
    if (p) return p;
  }
  return undefined;
}

/** `The following changes were made by the <tool> tool to: <path>.` (later reader). */
function changedPath(text: string): string | undefined {
  const m = /changes were made by the \S+ tool to: (.+?)\.(?:\s|$)/.exec(text);
  if (!m) return undefined;
  const v = m[1].trim();
  const p = fileUriPath(v) ?? v;
  return isAbsoluteAny(p) ? p : undefined;
}

/** The spans of a `[diff_block_start]` ... `[diff_block_end]` unified diff (later reader). */
function diffEdits(text: string, path: string) {
  const m = /\[diff_block_start\]\n?([\s\S]*?)\[diff_block_end\]/.exec(text);
  if (!m) return [];
  const lines = m[1].split("\n").filter((l) => !/^(---|\+\+\+) /.test(l));
  return parsePatch(`*** Begin Patch\n*** Update File: ${path}\n${lines.join("\n")}\n*** End Patch`)
    .edits;
}

/** A step's content without its leading blank, `Created At:` and `Completed At:` lines. */
export function stepBody(text: string): string {
  const lines = text.split("\n");
  let cut = 0;
  while (cut < lines.length) {
    const l = lines[cut].trim();
    if (l !== "" && !l.startsWith("Created At:") && !l.startsWith("Completed At:")) break;
    cut++;
  }
  return lines.slice(cut).join("\n").trim();
}

/** The local path of a `file://` URI (percent-decoded; `/C:/x` -> `C:/x`), else undefined. */
export function fileUriPath(v: string): string | undefined {
  if (!v.startsWith("file://")) return undefined;
  let p = v.slice("file://".length);
  try {
    p = decodeURIComponent(p);
  } catch { /* keep it raw */ }
  if (p.startsWith("/") && isWindowsDrivePath(p.slice(1))) p = p.slice(1);
  return p || undefined;
}

/**
 * Planner call arguments as written: each value may itself be JSON text
 * (`"CommandLine": "\"go test ./...\""`, later reader); a string that is a
 * JSON string literal is decoded once.
 */
function decodeArgValues(args: Obj | undefined): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(args ?? {})) {
    if (typeof v === "string" && v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch { /* not JSON: keep it */ }
    }
    out[k] = v;
  }
  return out;
}
