/**
 * Cursor IDE chat "bubbles" (one message each) -> deja events. Private to
 * `parsers/cursor.ts` / `_cursor_db.ts`.
 *
 * Bubble facts observed in realdata/cursor (Cursor 1.1.6, bubble `_v` 2):
 * - `type` 1 = user, 2 = AI; `text` is the prose (empty on tool bubbles);
 *   `thinking` holds reasoning (dropped); `capabilityType` 15 marks a tool
 *   bubble.
 * - `timingInfo.clientRpcSendTime` / `clientSettleTime` / `clientEndTime` are
 *   epoch ms, but `clientStartTime` is a relative performance counter (values
 *   like 32003.7), not a date. User bubbles carry no time at all in 1.1.6.
 * - `toolFormerData {tool (number), toolCallId, name, rawArgs (JSON string),
 *   params (JSON string), result (JSON string), status, userDecision}`; the
 *   call and its result share the bubble. Names seen: `edit_file`
 *   (`rawArgs {target_file, instructions, code_edit}`; `result {diff {chunks
 *   [{diffString, oldStart, newStart, oldLines, newLines}]}, isApplied}`),
 *   `read_file` (`{target_file, …}` -> `{contents}`), `grep_search`,
 *   `codebase_search`, `file_search`.
 * - `diffString` lines start with a marker (`-` removed, `+` added, space
 *   context) followed by one space, then the line.
 * From docs/registry/cursor.md (third-party notes, not seen in the real store):
 * `run_terminal_cmd {command}` with `result {output, exitCodeV2}`,
 * `search_replace {file_path, old_string, new_string}`, `createdAt` on bubbles
 * (ISO on `_v` 3), `workspaceProjectDir`, `modelInfo.modelName`.
 *
 * @module
 */
import type { EditSpan, Event, ParseCtx, ToolCallInfo } from "../core/model.ts";
import { arr, decodeArgs, num, type Obj, obj, str } from "./_util.ts";
import { toMillis } from "./_time.ts";
import { absolutePath } from "../core/paths.ts";

/** The epoch-ms time a bubble records, if any. */
export function bubbleTime(b: Obj): number | undefined {
  const t = obj(b.timingInfo);
  return toMillis(t?.clientRpcSendTime) ?? toMillis(t?.clientSettleTime) ??
    toMillis(t?.clientEndTime) ?? toMillis(b.createdAt);
}

/**
 * Events of one bubble. `time` is the bubble's own or the last known time;
 * `project` resolves relative paths.
 */
export function bubbleEvents(
  b: Obj,
  time: number | undefined,
  project: string | undefined,
  where: string,
  ctx: ParseCtx,
): Event[] {
  const text = str(b.text) ?? str(b.rawText) ?? "";
  const out: Event[] = [];
  if (b.type === 1) {
    if (text.trim() !== "") out.push(at({ kind: "user", text: text.trim() }, time));
    return out;
  }
  if (b.type !== 2) {
    ctx.skip("unknown_record", where, `bubble type ${String(b.type)}`);
    return out;
  }
  if (text.trim() !== "") out.push(at({ kind: "assistant", text: text.trim() }, time));
  const tf = obj(b.toolFormerData);
  if (tf) out.push(...toolEvents(tf, time, project));
  return out;
}

function toolEvents(tf: Obj, time: number | undefined, project: string | undefined): Event[] {
  const name = str(tf.name) ?? `tool-${String(tf.tool ?? "unknown")}`;
  const id = str(tf.toolCallId);
  const args = decodeArgs(tf.rawArgs) ?? decodeArgs(tf.params);
  const result = decodeArgs(tf.result);
  const info: ToolCallInfo = { name };
  if (id) info.id = id;
  if (args !== undefined) info.input = args;
  describe(info, obj(args) ?? {}, obj(result), project);
  const out: Event[] = [at({ kind: "tool_call", text: "", tool: info }, time)];
  const status = str(tf.status);
  const rejected = tf.userDecision === "rejected" || obj(result)?.rejected === true;
  if (result === undefined && status !== "error") return out;
  const r = obj(result);
  const exit = num(r?.exitCodeV2) ?? num(r?.exitCode);
  const res: Event["result"] = { isError: status === "error" || rejected };
  if (id) res.callId = id;
  if (exit !== undefined) res.exit = Math.trunc(exit);
  out.push(at({ kind: "tool_result", text: resultText(result), result: res }, time));
  return out;
}

/** Sets `command`, `paths`, `edits` from a Cursor tool's arguments (and edit_file's result diff). */
function describe(info: ToolCallInfo, a: Obj, result: Obj | undefined, project?: string): void {
  const abs = (p: string) => absolutePath(p, project);
  const file = str(a.target_file) ?? str(a.file_path) ?? str(a.path) ??
    str(a.relativeWorkspacePath);
  switch (info.name) {
    case "run_terminal_cmd":
    case "run_terminal_command":
      if (str(a.command)) info.command = str(a.command);
      break;
    case "read_file":
    case "delete_file":
      if (file) info.paths = [abs(file)];
      break;
    case "search_replace":
      if (file && typeof a.old_string === "string" && typeof a.new_string === "string") {
        info.edits = [{ path: abs(file), old: a.old_string, new: a.new_string }];
      }
      break;
    case "edit_file": {
      if (!file) break;
      const edits = diffChunks(abs(file), result);
      if (edits.length) info.edits = edits;
      else info.paths = [abs(file)];
      break;
    }
  }
}

/** The spans of an `edit_file` result's `diff.chunks`: old = context + removed, new = context + added. */
export function diffChunks(path: string, result: Obj | undefined): EditSpan[] {
  const out: EditSpan[] = [];
  for (const c of arr(obj(result?.diff)?.chunks)) {
    const diff = str(obj(c)?.diffString);
    if (diff === undefined) continue;
    const oldL: string[] = [];
    const newL: string[] = [];
    for (const line of diff.split("\n")) {
      const mark = line[0] ?? " ";
      const body = line.slice(2);
      if (mark === "-") oldL.push(body);
      else if (mark === "+") newL.push(body);
      else {
        oldL.push(body);
        newL.push(body);
      }
    }
    out.push({ path, old: oldL.join("\n"), new: newL.join("\n") });
  }
  return out;
}

/** A tool result's text: terminal output, file contents, the edit diff, else the raw result. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  const r = obj(result);
  if (!r) return result === undefined ? "" : JSON.stringify(result);
  const direct = str(r.output) ?? str(r.contents) ?? str(r.content);
  if (direct !== undefined) return direct;
  const diff = obj(r.diff);
  if (diff) return arr(diff.chunks).map((c) => str(obj(c)?.diffString)).filter((s) => s).join("\n");
  return JSON.stringify(r);
}

function at(e: Event, time: number | undefined): Event {
  if (time !== undefined) e.time = time;
  return e;
}
