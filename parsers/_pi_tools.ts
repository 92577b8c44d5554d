/**
 * pi-family tool calls and tool results mapped onto deja's ToolCallInfo and
 * ToolResultInfo. Shared by every pi-lineage parser (pi, omp, prime, senpi,
 * gjc, kimchi, openclaw) through `_pi_events.ts`.
 *
 * Format facts, with where each was checked:
 * - A call is an assistant content block `{type:"toolCall", id, name, arguments}` with
 *   `arguments` an object (realdata/farm pi 0.73.1, omp 18.2.3, openclaw 2026.9.6).
 * - Shell: pi/omp `bash {command}`, OpenClaw `exec {command}` (farm stores).
 * - Read: `read {path}` (farm stores). Write: `write {path, content}` (farm omp).
 * - Edit: `edit {path, edits:[{oldText, newText}]}` (farm pi 0.73.1 and openclaw
 *   2026.9.6); older pi wrote `edit {path, oldText, newText}` (badlogic/pi-mono
 *   `core/tools/edit.ts`, read via the search tool). omp's `edit` takes its own
 *   hash-anchored patch language; only its path is kept.
 * - OpenClaw also offers `apply_patch` (tool list in the farm store's session entry); its
 *   `input` is read with the shared apply_patch reader.
 * - Results: `{role:"toolResult", toolCallId, toolName, content[], details, isError}`. The
 *   exit status is `details.exitCode` (omp, openclaw) or only a trailer in the text: pi and
 *   omp end a failed command's output with `Command exited with code N`, OpenClaw with
 *   `(Command exited with code N)`; omp adds `Wall time: X seconds` (farm stores).
 * - prime-agent `ipython` results carry `details.diffs[{path, oldStr, newStr}]`; Senpi's
 *   codemode `eval` results carry `details.toolCalls[{name, args}]` (docs/registry/prime.md, senpi.md:
 *   from the notes, no real store).
 *
 * @module
 */
import type { EditSpan, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { arr, blockText, num, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { parsePatch } from "./_patch.ts";

/** Tool names by what they do (pi, omp, openclaw and the forks' built-ins). */
const KINDS: Record<string, ToolKind> = {
  bash: "shell",
  exec: "shell",
  shell: "shell",
  read: "read",
  read_file: "read",
  edit: "edit",
  edit_file: "edit",
  write: "write",
  write_file: "write",
};

/**
 * A pi-family tool call. `name` and `args` as the store wrote them; relative
 * paths resolve against `cwd` (the session header's).
 */
export function piToolCall(
  name: string,
  id: string | undefined,
  args: unknown,
  cwd: string | undefined,
): ToolCallInfo {
  const a = obj(args);
  const info: ToolCallInfo = { name, ...(id ? { id } : {}), input: args };
  const kind = KINDS[name.toLowerCase()];
  if (kind && a) describeTool(info, kind, a, cwd);
  else if (name.toLowerCase() === "apply_patch") {
    const patch = typeof args === "string" ? args : str(a?.input) ?? str(a?.patch);
    if (patch) {
      const fx = parsePatch(patch, cwd);
      if (fx.edits.length) info.edits = fx.edits;
      if (fx.writes.length) info.writes = fx.writes;
    }
  }
  return info;
}

/** prime `ipython` result diffs `{path, oldStr, newStr}` as edit spans. */
function diffSpans(diffs: unknown, cwd: string | undefined): EditSpan[] {
  return arr(diffs).flatMap((d) => {
    const o = obj(d);
    const t: ToolCallInfo = { name: "diff" };
    if (o) describeTool(t, "edit", { path: o.path, old_str: o.oldStr, new_str: o.newStr }, cwd);
    return t.edits ?? [];
  });
}

/** `... Command exited with code N` (pi, omp) or `(Command exited with code N)` (OpenClaw). */
const EXIT_TRAILER = /\n*\(?Command exited with code (-?\d+)\)?\s*$/;
/** omp's timing line after a shell command's output. */
const WALL_TRAILER = /\n*Wall time: [\d.]+ ?(?:s|seconds?)\s*$/;

/** Senpi's codemode cell output `{"text": "..."}` as its text (anything else unchanged). */
function cellText(body: string): string {
  if (!body.startsWith("{")) return body;
  try {
    const o = obj(JSON.parse(body));
    return typeof o?.text === "string" && Object.keys(o).length === 1 ? o.text : body;
  } catch {
    return body;
  }
}

/** A tool result's text with pi-family framing removed, and what it says about the call. */
export interface PiResult {
  text: string;
  result: ToolResultInfo;
  /** Replaced spans reported only by the result (prime `ipython` diffs). */
  edits?: EditSpan[];
  /** Calls run inside the result's cell (Senpi codemode `eval`), `{name, args}`. */
  inner: Array<{ name: string; args: unknown }>;
}

/**
 * Reads a `toolResult` message: text blocks joined, the exit trailer and omp's
 * wall-time line stripped, `exit` from `details.exitCode` or the trailer (0 for a `bash`
 * result marked no error that gives neither), and `isError` when the harness said so or
 * the exit status is not 0.
 */
export function piToolResult(msg: Obj, cwd: string | undefined): PiResult {
  let body = blockText(msg.content);
  const details = obj(msg.details);
  let exit = num(details?.exitCode) ?? num(details?.exit_code);
  const trailer = EXIT_TRAILER.exec(body);
  if (trailer) {
    body = body.slice(0, trailer.index);
    exit ??= Number(trailer[1]);
  }
  // pi's bash tool answers with an error for any exit but 0 (or a kill by a signal), adding the
  // trailer (pi-mono packages/coding-agent/src/core/tools/bash.ts, read through the search
  // tool): a bash result the harness marked no error, with no status of its own, exited 0 (trial
  // 104 F3: `ls` was "exit unknown"; omp's farm store alike).
  if (exit === undefined && msg.isError === false && msg.toolName === "bash") exit = 0;
  body = body.replace(WALL_TRAILER, "").trimEnd();
  if (msg.toolName === "eval") body = cellText(body);
  const result: ToolResultInfo = {};
  const callId = str(msg.toolCallId) ?? str(msg.tool_call_id);
  if (callId) result.callId = callId;
  if (exit !== undefined) result.exit = exit;
  result.isError = msg.isError === true || (exit !== undefined && exit !== 0);
  const out: PiResult = { text: body, result, inner: [] };
  const edits = diffSpans(details?.diffs, cwd);
  if (edits.length) {
    out.edits = edits;
    result.edits = edits;
  }
  for (const c of arr(details?.toolCalls)) {
    const o = obj(c);
    const name = str(o?.name) ?? str(o?.tool);
    if (name) out.inner.push({ name, args: o?.args ?? o?.arguments ?? o?.input });
  }
  return out;
}
