/**
 * Message content blocks in the Anthropic Messages shape (`text`, `thinking`,
 * `tool_use`, `tool_result`) -> deja events: user text cleaning, assistant
 * blocks, tool calls, tool results. Claude Code writes its records this way,
 * and so do the harnesses of `_claude_family.ts` and others that store
 * Anthropic-shaped messages (Factory, Trae, CodeBuddy, Command Code, ...);
 * see `claude.ts` for where each fact was observed.
 *
 * @module
 */
import type { EditSpan, Event, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { arr, blockText, type Obj, obj, str } from "./_util.ts";
import { absolutePath } from "../core/paths.ts";
import { fmtBytes, fnv1a32 } from "../core/text.ts";
import { runEnd } from "../core/run_end.ts";

/** Tags whose whole element is harness-injected and never what a person typed. */
const NOISE_TAGS = [
  "system-reminder",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "ide_opened_file",
  "ide_selection",
  "ide_diagnostics",
  "task-notification",
  "bash-stdout",
  "bash-stderr",
  "command-message",
];
const NOISE_RE = new RegExp(`<(${NOISE_TAGS.join("|")})>[\\s\\S]*?</\\1>`, "g");
const COMMAND_NAME_RE = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGS_RE = /<command-args>([\s\S]*?)<\/command-args>/;
const BASH_INPUT_RE = /<bash-input>([\s\S]*?)<\/bash-input>/g;
/** Markers Claude Code writes as user text when a turn is cut short. */
const INTERRUPT_RE = /^\[Request interrupted by user[^\]]*\]$/;
/** The instruction Claude Code gives its compaction subagent (`agent-acompact-*`). */
const COMPACT_PROMPT = "Your task is to create a detailed summary of the conversation so far";
const SYSTEM_REMINDER_RE = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const TOOL_USE_ERROR_RE = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/;
const EXIT_RE = /^(?:Error: )?Exit code (-?\d+)(?:\r?\n|$)/;

/**
 * What a person typed, from one user text: slash commands become `/name args`,
 * `!` shell input becomes `!cmd`, injected elements (system reminders, IDE
 * context, local command output, task notifications) are removed, and an
 * interrupt marker alone reads as nothing. Returns "" when nothing is left.
 */
export function cleanUserText(text: string): string {
  const name = COMMAND_NAME_RE.exec(text);
  if (name) {
    const cmd = name[1].trim();
    const args = (COMMAND_ARGS_RE.exec(text)?.[1] ?? "").trim();
    return `${cmd.startsWith("/") ? cmd : "/" + cmd}${args ? " " + args : ""}`;
  }
  let t = text.replace(NOISE_RE, "");
  t = t.replace(BASH_INPUT_RE, (_m, cmd: string) => `!${cmd.trim()}`);
  t = t.trim();
  if (INTERRUPT_RE.test(t)) return "";
  return t;
}

/** User prose of a `user` message's content (string or blocks), cleaned; "" when none. */
export function userText(content: unknown): string {
  const parts: string[] = [];
  if (typeof content === "string") parts.push(cleanUserText(content));
  else {
    for (const b of arr(content)) {
      const o = obj(b);
      if (o?.type === "text" && typeof o.text === "string") parts.push(cleanUserText(o.text));
    }
  }
  return parts.filter((p) => p !== "").join("\n");
}

/**
 * True for the instruction Claude Code gives its compaction subagent: not the
 * user's words (its text stays out of the index), but the question the
 * summary that follows answers (the Claude family shows it as a notice).
 */
export function isCompactPrompt(text: string): boolean {
  return text.startsWith(COMPACT_PROMPT);
}

/** The notice that stands for a compaction agent's instruction. */
export const COMPACT_NOTICE =
  "Claude Code asked this agent to summarise the conversation so far (its instruction is not shown)";

const LOCAL_OUTPUT_RE = /^<local-command-(stdout|stderr)>([\s\S]*)<\/local-command-\1>$/;
/** IDE context an editor integration attaches to a prompt (removed from the user's words). */
const IDE_RE = /<(ide_opened_file|ide_selection|ide_diagnostics)>([\s\S]*?)<\/\1>/g;
// deno-lint-ignore no-control-regex
const ANSI_RE = /\x1b\[[0-9;]*m/g;

/**
 * What the harness said in a user record that is no one's prose: the
 * interrupt marker (`[Request interrupted by user]`, `… for tool use]`) and a
 * local slash command's output (`<local-command-stdout>Login
 * interrupted</local-command-stdout>`, colour codes removed; `(no content)`
 * and empty output say nothing), and the output of a command the person ran in
 * `!` bash mode (`<bash-stdout>`, `<bash-stderr>`). Each whole text (string
 * content or text block) is one notice; {@link userText} drops these from the
 * user's words.
 */
export function harnessNotices(content: unknown): string[] {
  const texts = typeof content === "string"
    ? [content]
    : arr(content).map(obj).filter((o) => o?.type === "text").map((o) => str(o?.text) ?? "");
  const out: string[] = [];
  for (const raw of texts) {
    const t = raw.trim();
    if (INTERRUPT_RE.test(t)) {
      out.push(t);
      continue;
    }
    const m = LOCAL_OUTPUT_RE.exec(t);
    if (m) {
      const said = m[2].replace(ANSI_RE, "").trim();
      if (said && said !== "(no content)") out.push(said);
      continue;
    }
    // The output of a command the person ran in `!` bash mode (trial 103 F9: `show` printed
    // `!frobnicate --version` and never its output), as opencode's `!` output reads.
    const bash = bashOutput(t);
    if (bash) out.push(bash);
  }
  return out;
}

const BASH_OUTPUT_RE = /<bash-(stdout|stderr)>([\s\S]*?)<\/bash-\1>/g;

/**
 * The stdout and stderr of a `!` bash-mode command, from a text that holds only those
 * elements (`<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`); undefined when it
 * holds anything else, or neither says anything.
 */
function bashOutput(t: string): string | undefined {
  if (!t.startsWith("<bash-std") || t.replace(BASH_OUTPUT_RE, "").trim()) return undefined;
  const parts = [...t.matchAll(BASH_OUTPUT_RE)].map((m) => m[2].replace(ANSI_RE, "").trim())
    .filter(Boolean);
  return parts.length ? parts.join("\n") : undefined;
}

/**
 * What Claude Code's IDE integration attached to a user record: the inside of
 * each `<ide_opened_file>`, `<ide_selection>` and `<ide_diagnostics>` element
 * of its texts (string content or text blocks), trimmed, in order; empty ones
 * are left out. The IDE wrote them, not the person (`The user selected the
 * lines 13 to 18 from …`, realdata `mac-2.0.2-session.jsonl`), so they are
 * notices beside the prompt, never its text ({@link userText} removes them).
 */
export function ideNotices(content: unknown): string[] {
  const texts = typeof content === "string"
    ? [content]
    : arr(content).map(obj).filter((o) => o?.type === "text").map((o) => str(o?.text) ?? "");
  const out: string[] = [];
  for (const t of texts) {
    for (const m of t.matchAll(IDE_RE)) {
      const said = m[2].trim();
      if (said) out.push(said);
    }
  }
  return out;
}

/** True when a user message's content holds at least one `tool_result` block. */
export function hasToolResult(content: unknown): boolean {
  return arr(content).some((b) => obj(b)?.type === "tool_result");
}

/**
 * One `tool_result` block -> a tool_result event. `extra` is the record's
 * top-level `toolUseResult` (used only when it belongs to this block alone):
 * its stdout/stderr fill an empty text. A leading `Exit code N` line on an
 * error result gives `exit`, and a shell run that `toolUseResult` shows ended cleanly
 * gives exit 0 ({@link finishedClean}); system reminders appended to a result are removed.
 * An image the result holds is said (`(image: image/jpeg, 234.9 KiB)`, {@link imageNotes}),
 * where before a Read of a picture was a blank result.
 */
export function toolResultEvent(block: Obj, extra: unknown, time?: number): Event {
  const callId = str(block.tool_use_id);
  const isError = block.is_error === true;
  let text = blockText(block.content);
  const bare = text.replace(SYSTEM_REMINDER_RE, "");
  if (bare !== text) text = bare.trimEnd();
  if (text === "") text = fallbackText(extra);
  const images = imageNotes(block.content, extra);
  if (images) text = text ? `${text}\n${images}` : images;
  const wrapped = TOOL_USE_ERROR_RE.exec(text.trim());
  if (wrapped) text = wrapped[1].trim();
  // The Bash tool starts a failed command's result with `Exit code N`; the
  // line stays in the text (it is what the model saw) and N becomes `exit`.
  const m = isError ? EXIT_RE.exec(text) : null;
  // A run its output says went to the background (or was stopped) has no status of its own,
  // whatever `toolUseResult` lacks (trial 19: a `run_in_background` call without
  // `backgroundTaskId` read as exit 0).
  const exit = m
    ? Number(m[1])
    : !isError && finishedClean(extra) && runEnd(text) === null
    ? 0
    : undefined;
  const result: Event["result"] = { isError };
  if (callId) result.callId = callId;
  if (exit !== undefined) result.exit = exit;
  // Stopped while it ran (its output so far kept, `interrupted: true`) is not "never ran".
  if (NOT_RUN_RE.test(text) && obj(extra)?.interrupted !== true) result.notRun = true;
  // A Write over an existing file: Claude Code keeps the file as it was (2.1.332's output
  // schema: `type` "create" or "update", `originalFile` null for a new file or one too large).
  const x = obj(extra);
  if (!isError && x?.type === "update" && typeof x.originalFile === "string") {
    result.overwritten = x.originalFile;
  }
  // A Write that made the file: there was nothing before it (trial 110 F6).
  if (!isError && x?.type === "create") result.created = true;
  const ev: Event = { kind: "tool_result", text, result };
  if (time !== undefined) ev.time = time;
  if (callId) ev.key = `res:${callId}`;
  return ev;
}

/**
 * The results Claude Code writes for a call it never ran (read in its bundled source,
 * 2.1.332): the person refused it, a permission rule denied it, the person interrupted the
 * turn before it ran, the turn ended first, or a PreToolUse hook blocked it (`PreToolUse:Bash
 * hook error: …`; trials 13 and 14: such calls showed as `failed`).
 */
const NOT_RUN_RE = new RegExp(
  "^(?:The user doesn't want to proceed with this tool use\\.|" +
    "Permission to (?:use|read|edit|write) .{1,400}? has been denied|" +
    "Claude requested permissions to use .{1,200}?, but you haven't granted it yet|" +
    "\\[Request interrupted by user for tool use\\]|\\[Tool call did not complete: |" +
    "PreToolUse:\\S+ hook error: )",
);

/**
 * True when a shell result's `toolUseResult` says the command ran to its end with status 0:
 * not an error result, `interrupted: false`, and none of what Claude Code writes for a run
 * that did not end that way: `backgroundTaskId` (run in the background, or moved there at
 * its timeout, with `timedOutAfterMs`), `returnCodeInterpretation` (a non-zero status its
 * Bash tool does not call an error: grep's 1, "No matches found"), `backgroundedByUser`.
 * Claude Code 2.1.332 in the farm (docs/registry/claude.md): every non-zero exit and every
 * timeout is an error result starting `Exit code N`; a clean run has that shape.
 */
function finishedClean(extra: unknown): boolean {
  const o = obj(extra);
  if (!o || o.interrupted !== false || typeof o.stdout !== "string") return false;
  return o.backgroundTaskId === undefined && o.timedOutAfterMs === undefined &&
    !o.returnCodeInterpretation && o.backgroundedByUser !== true;
}

/**
 * Each `image` block of a result's content said in one line: its media type and its size,
 * the file's (`toolUseResult.file.originalSize` of a Read, when the result is its block's
 * alone) else the image's own (its base64 data decoded). Claude Code 2.1.88 (trial 112 F7, a
 * Read of a .jpg): `{type: "image", source: {type: "base64", media_type, data}}`, and
 * `toolUseResult` `{type: "image", file: {base64, type, originalSize}}`. "" when none.
 */
function imageNotes(content: unknown, extra: unknown): string {
  const blocks = arr(content).map(obj).filter((b) => b?.type === "image");
  if (!blocks.length) return "";
  const x = obj(extra);
  const file = x?.type === "image" && blocks.length === 1 ? obj(x.file) : undefined;
  return blocks.map((b) => {
    const src = obj(b!.source);
    const type = str(src?.media_type) ?? str(file?.type);
    const data = str(src?.data);
    const bytes = typeof file?.originalSize === "number"
      ? file.originalSize
      : data
      ? Math.floor(data.length * 3 / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0)
      : undefined;
    const said = [type, bytes === undefined ? undefined : fmtBytes(bytes)].filter(Boolean);
    return said.length ? `(image: ${said.join(", ")})` : "(image)";
  }).join("\n");
}

function fallbackText(extra: unknown): string {
  if (typeof extra === "string") return extra.replace(/^Error: /, "");
  const o = obj(extra);
  if (!o) return "";
  return [str(o.stdout), str(o.stderr)].filter((s) => s).join("\n");
}

/**
 * A harness's tool names and argument keys, by what the tool does. Claude
 * Code's is {@link CLAUDE_TOOLS}; harnesses with Claude-shaped tools under
 * other names (Factory Droid's `Execute`, `Create`, `old_str`) give their own.
 */
export interface ToolVocabulary {
  /** Run `input.command` in a shell. */
  shell: ReadonlySet<string>;
  /**
   * Read `file_path` (`notebook_path`; `path` when neither is given). Search
   * and listing tools (Claude Code's `Glob`, `Grep`, `LS`) are not here: their
   * `path` is a directory searched and their `pattern` a glob or regex, never
   * a file read, so they give the call no `paths` (a user trial found
   * `read backend/.env*` and a `~/.claude` directory listed as files read).
   */
  read: ReadonlySet<string>;
  /** Replace one span of `file_path`. */
  edit: ReadonlySet<string>;
  /** Replace each span of `edits[]` in `file_path`. */
  multiEdit: ReadonlySet<string>;
  /** Write `content` to `file_path` whole. */
  write: ReadonlySet<string>;
  /** Keys of the replaced text and of its replacement (the first present wins). */
  old: readonly string[];
  new: readonly string[];
}

/** Claude Code's tools (also CodeBuddy Code's, which kept the names and keys). */
export const CLAUDE_TOOLS: ToolVocabulary = {
  shell: new Set(["Bash", "PowerShell"]),
  read: new Set(["Read", "NotebookRead"]),
  edit: new Set(["Edit"]),
  multiEdit: new Set(["MultiEdit"]),
  write: new Set(["Write"]),
  old: ["old_string"],
  new: ["new_string"],
};

/**
 * A `tool_use` block -> what the call means. Relative paths are joined to
 * `cwd` (Windows-style when the cwd is a Windows path).
 */
export function toolCallInfo(
  block: Obj,
  cwd: string | undefined,
  vocab: ToolVocabulary = CLAUDE_TOOLS,
): ToolCallInfo {
  const name = str(block.name) ?? "unknown";
  const input = block.input;
  const info: ToolCallInfo = { name };
  const id = str(block.id);
  if (id) info.id = id;
  if (input !== undefined) info.input = input;
  const i = obj(input) ?? {};
  const abs = (p: string) => absolutePath(p, cwd);
  const filePath = str(i.file_path) ?? str(i.notebook_path);
  const pick = (o: Obj, keys: readonly string[]) => o[keys.find((k) => k in o) ?? keys[0]];
  const spanOf = (o: Obj) => span(abs(filePath!), pick(o, vocab.old), pick(o, vocab.new));
  if (vocab.shell.has(name)) {
    const cmd = str(i.command);
    if (cmd) info.command = cmd;
  } else if (vocab.read.has(name)) {
    const p = filePath ?? str(i.path);
    if (p) info.paths = [abs(p)];
  } else if (vocab.edit.has(name) && filePath) {
    info.edits = [spanOf(i)];
  } else if (vocab.multiEdit.has(name) && filePath) {
    const edits: EditSpan[] = [];
    for (const e of arr(i.edits)) {
      const o = obj(e);
      if (o) edits.push(spanOf(o));
    }
    if (edits.length) info.edits = edits;
  } else if (vocab.write.has(name) && filePath) {
    info.writes = [{
      path: abs(filePath),
      content: typeof i.content === "string" ? i.content : "",
    }];
  } else if (name === "NotebookEdit" && filePath) {
    // A cell replaced or inserted; the old cell text is not in the call.
    info.paths = [abs(filePath)];
    if (i.edit_mode !== "delete" && typeof i.new_source === "string") {
      const w: WriteSpan = { path: abs(filePath), content: i.new_source };
      info.writes = [w];
    }
  }
  return info;
}

/**
 * An assistant message's content (string or blocks) -> assistant and tool_call
 * events. One API response may be split over several records sharing `mid`
 * (its message id), so keys are `a:<mid>:t:<fnv1a(text)>` for text and
 * `a:<mid>:c:<tool id>` for calls: a repeated block collapses, distinct ones
 * never collide. Thinking blocks are dropped.
 */
export function assistantEvents(
  mid: string,
  content: unknown,
  time: number | undefined,
  cwd?: string,
  vocab: ToolVocabulary = CLAUDE_TOOLS,
  /** Called with the type of each block of a kind no reader here knows, and whether its text was kept. */
  unknown?: (type: string, kept: boolean) => void,
): Event[] {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : arr(content);
  const out: Event[] = [];
  for (const b of blocks) {
    const o = obj(b);
    if (!o) continue;
    if (o.type === "text" && typeof o.text === "string" && o.text.trim() !== "") {
      out.push({ kind: "assistant", text: o.text, time, key: `a:${mid}:t:${fnv1a(o.text)}` });
    } else if (o.type === "tool_use" || o.type === "server_tool_use") {
      const tool = toolCallInfo(o, cwd, vocab);
      const ident = tool.id ?? fnv1a(JSON.stringify(o.input ?? null));
      out.push({ kind: "tool_call", text: "", time, key: `a:${mid}:c:${ident}`, tool });
    } else if (typeof o.type === "string" && !KNOWN_BLOCKS.has(o.type)) {
      // A kind of block no reader here knows is counted (drift shows it), its text kept
      // (trial 56: a new block type's text was lost with no count and no drift).
      const kept = typeof o.text === "string" && o.text.trim() !== "";
      unknown?.(o.type, kept);
      if (kept) {
        out.push({
          kind: "assistant",
          text: o.text as string,
          time,
          key: `a:${mid}:t:${fnv1a(o.text as string)}`,
        });
      }
    }
  }
  return out;
}

/**
 * The assistant block kinds of the Messages API read or left out on purpose: text and calls
 * read; thinking, images, documents and the server tools' results (their calls are read) not.
 */
const KNOWN_BLOCKS: ReadonlySet<string> = new Set([
  "text",
  "tool_use",
  "server_tool_use",
  "thinking",
  "redacted_thinking",
  "image",
  "document",
  "search_result",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "mcp_tool_use",
  "mcp_tool_result",
  "container_upload",
]);

function span(path: string, oldS: unknown, newS: unknown): EditSpan {
  return {
    path,
    old: typeof oldS === "string" ? oldS : "",
    new: typeof newS === "string" ? newS : "",
  };
}

/** FNV-1a (32-bit) of a string's UTF-16 units, as 8 hex digits: a text block's identity. */
export function fnv1a(s: string): string {
  return fnv1a32(s).toString(16).padStart(8, "0");
}

/**
 * Best-effort decode of an encoded project directory name, used only when no
 * record carries a `cwd`: `C--Users-x-app` -> `C:\Users\x\app`,
 * `-home-x-app` -> `/home/x/app`. Lossy: Claude Code writes every
 * non-alphanumeric character as `-`, so `my-app` decodes to `my/app`.
 */
export function decodeProjectDir(name: string): string | undefined {
  const win = /^([A-Za-z])--(.*)$/.exec(name);
  if (win) return `${win[1]}:\\${win[2].replaceAll("-", "\\")}`;
  if (name.startsWith("-")) return name.replaceAll("-", "/");
  return undefined;
}
