/**
 * Gemini CLI message records -> deja events (private to `gemini.ts`).
 *
 * A message record is `{id, timestamp, type, content, displayContent?,
 * thoughts?, tokens?, model?, toolCalls?}` (Gemini CLI's
 * `chatRecordingTypes.ts`, read via the search tool; observed in
 * realdata/gemini-cli and realdata/farm/gemini, 0.61.0). `content` is a
 * string or a list of parts (`{text}`, `{functionResponse}`, ...).
 *
 * @module
 */
import type { EditSpan, Event, SkipReason, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, type Obj, obj, str, withModel } from "./_util.ts";
import { absolutePath } from "../core/paths.ts";

/** Context the mapping needs: where relative paths resolve, and how to count skips. */
export interface MapCtx {
  /** Absolute project directory, when known (relative tool paths resolve against it). */
  project?: string;
  /** Time given to events whose record has none (the session start), epoch ms. */
  fallbackTime?: number;
  skip(reason: SkipReason, where: string, detail?: string): void;
  where: string;
}

/**
 * Message types Gemini CLI writes for what it tells the person itself (`Update successful!`,
 * an API error, a warning): the harness's words, kept as notices (trial 54: `show` left out
 * the info message realdata's chat-tiny-with-info-message.json begins with).
 */
const UI_TYPES: ReadonlySet<string> = new Set(["info", "error", "warning"]);

/** The environment block Gemini CLI sends as the first user turn (not typed by a person). */
const SESSION_CONTEXT = "<session_context>";

/**
 * The message Gemini CLI's subagent runner sends as a user turn when the subagent ran out of
 * turns or time, or stopped calling tools (its `getFinalWarningMessage`, local-executor.ts,
 * read via the search tool; observed in realdata/gemini-cli/chat-subagent-kind-subagent.json):
 * the harness's words, not a request (trial 51: the digest quoted it as "1 more request").
 */
const GRACE_NOTICE =
  /^(?:You have exceeded the (?:time limit|maximum number of turns)|You have stopped calling tools without finishing|Execution was interrupted)\. You have one final chance to complete the task\b/;

/**
 * Maps one message record to events, in order: the message's text, then for
 * each tool call a `tool_call` and (when the call has a result) a `tool_result`.
 *
 * @returns the events, and the model named on an assistant message.
 */
export function geminiMessageEvents(m: Obj, ctx: MapCtx): { events: Event[]; model?: string } {
  const type = str(m.type);
  const id = str(m.id) ?? "";
  const time = toMillis(m.timestamp) ?? ctx.fallbackTime;
  const events: Event[] = [];
  // A message with no id has no key: keyed `m:` alike, each one replaced the one before
  // (trial 29: a chat of id-less messages kept only its last).
  const key = id ? { key: `m:${id}` } : {};
  if (type === "user") {
    const text = (partsText(m.displayContent) || partsText(m.content)).trim();
    if (text && !text.startsWith(SESSION_CONTEXT)) {
      events.push({ kind: GRACE_NOTICE.test(text) ? "notice" : "user", text, time, ...key });
    }
    events.push(...responseParts(m.content, time));
    return { events };
  }
  if (type === "gemini" || type === "model") {
    const text = partsText(m.content).trim();
    if (text) events.push({ kind: "assistant", text, time, ...key });
    arr(m.toolCalls).forEach((tc, i) => {
      const call = obj(tc);
      if (!call) {
        ctx.skip("bad_shape", ctx.where, `toolCalls[${i}] of message ${id} is not an object`);
        return;
      }
      events.push(...toolEvents(call, `${id}:${i}`, time, ctx));
    });
    // A resumed chat's `$set` snapshot holds API parts instead of `toolCalls` (farm, 0.61.0).
    if (!arr(m.toolCalls).length) {
      arr(m.content).forEach((p, i) => {
        const fc = obj(obj(p)?.functionCall);
        if (fc) events.push(...toolEvents(fc, `${id}:p${i}`, time, ctx));
      });
    }
    return { events: withModel(events, m.model), model: str(m.model) };
  }
  if (type && UI_TYPES.has(type)) {
    const text = partsText(m.content).trim();
    // Its level said, but for plain information (trial 60: an API error read as an info line).
    const said = type === "info" ? text : `${type}: ${text}`;
    if (text) events.push({ kind: "notice", text: said, time, ...key });
    return { events };
  }
  ctx.skip("unknown_record", ctx.where, `message type ${JSON.stringify(m.type)}`);
  return { events };
}

/**
 * Tool results carried as `functionResponse` parts of a user message: the
 * resumed chat's snapshot keeps them only there (observed in a farm run of
 * 0.61.0, `--resume latest`: the `$set.messages` list is rewritten in API
 * form, each response twice). Keyed by call id like the results of
 * `toolCalls`, so a copy replaces the other.
 */
function responseParts(content: unknown, time: number | undefined): Event[] {
  const out: Event[] = [];
  for (const p of arr(content)) {
    const fr = obj(obj(p)?.functionResponse);
    const callId = str(fr?.id);
    if (!fr || !callId) continue;
    const res = resultOf([p]);
    let text = stripFraming(res.text ?? "");
    let exit: number | undefined;
    if (str(fr.name) === SHELL) ({ text, exit } = shellOutput(text));
    out.push(toolResultFrom(callId, text, time, exit, res.isError));
  }
  return out;
}

/** Text of a content value: a string, one part, or a list of parts (thought parts dropped). */
export function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p === "string") {
      out.push(p);
      continue;
    }
    const o = obj(p);
    if (o && typeof o.text === "string" && o.thought !== true) out.push(o.text);
  }
  return out.join("\n");
}

function toolEvents(
  call: Obj,
  fallbackId: string,
  msgTime: number | undefined,
  ctx: MapCtx,
): Event[] {
  const name = str(call.name) ?? "unknown";
  const id = str(call.id) ?? fallbackId;
  const time = toMillis(call.timestamp) ?? msgTime;
  const input = decodeArgs(call.args);
  const tool: ToolCallInfo = { name, id, input, ...toolMeaning(name, obj(input), ctx.project) };
  const events: Event[] = [{ kind: "tool_call", text: "", time, key: `c:${id}`, tool }];
  const res = resultOf(call.result);
  const status = str(call.status);
  const isError = status === "error" || res.isError;
  if (res.text === undefined && !isError) return events;
  let text = stripFraming(res.text ?? "");
  let exit: number | undefined;
  if (name === SHELL) {
    const raw = text;
    ({ text, exit } = shellOutput(text));
    if (exit === undefined && status === "success" && !isError && ranToZero(raw)) exit = 0;
  }
  events.push(toolResultFrom(id, text, time, exit, isError));
  return events;
}

/**
 * Whether a shell report without an `Exit Code` line, of a call whose `status` is `success`, is
 * one of a command that exited 0: Gemini CLI writes the line only for a non-zero code (its
 * `shell.ts`, `exitCode !== null && exitCode !== 0`). Not when it says the code was none
 * (older builds' `Exit Code: (none)`: killed, or never started), names a signal or an error,
 * or ran the command in the background.
 */
function ranToZero(report: string): boolean {
  return !/^Exit Code:/m.test(report) && !/^Signal: (?!\(none\))/m.test(report) &&
    !/^Error: (?!\(none\))/m.test(report) && !/^Background PIDs:/m.test(report) &&
    !/moved to background|cancelled|timed out/i.test(report.slice(0, 200));
}

/**
 * A `tool_result` event keyed `r:<callId>` (a later copy of the same result
 * replaces it), with `exit` and `isError` only when known.
 */
export function toolResultFrom(
  callId: string,
  text: string,
  time?: number,
  exit?: number,
  isError?: boolean,
): Event {
  return {
    kind: "tool_result",
    text,
    time,
    key: `r:${callId}`,
    result: {
      callId,
      ...(exit !== undefined ? { exit } : {}),
      ...(isError ? { isError: true } : {}),
    },
  };
}

/** The shell tool of Gemini CLI and of its fork Qwen Code. */
export const SHELL = "run_shell_command";

/**
 * What a call means, from its name and arguments (tool names from Gemini CLI's
 * `base-declarations.ts`; Qwen Code keeps them): `run_shell_command` ->
 * command, `replace`/`edit` -> one edit span, `write_file` -> a write,
 * `read_file` -> a path. Relative paths resolve against `project`.
 */
export function toolMeaning(
  name: string,
  a: Obj | undefined,
  project?: string,
): Partial<ToolCallInfo> {
  if (!a) return {};
  const file = str(a.file_path) ?? str(a.absolute_path) ?? str(a.path);
  switch (name) {
    case SHELL: {
      const command = str(a.command);
      return command ? { command } : {};
    }
    case "replace":
    case "edit": {
      if (!file || typeof a.old_string !== "string" || typeof a.new_string !== "string") return {};
      const edit: EditSpan = {
        path: absolutePath(file, project),
        old: a.old_string,
        new: a.new_string,
      };
      return { edits: [edit] };
    }
    case "write_file": {
      if (!file || typeof a.content !== "string") return {};
      const write: WriteSpan = { path: absolutePath(file, project), content: a.content };
      return { writes: [write] };
    }
    case "read_file":
      return file ? { paths: [absolutePath(file, project)] } : {};
    default:
      return {};
  }
}

/** The text of a `result` part list: each `functionResponse.response.output` (or `.error`), and text parts. */
export function resultOf(result: unknown): { text?: string; isError?: boolean } {
  if (result === undefined || result === null) return {};
  const out: string[] = [];
  let isError = false;
  for (const p of Array.isArray(result) ? result : [result]) {
    if (typeof p === "string") {
      out.push(p);
      continue;
    }
    const o = obj(p);
    if (!o) continue;
    const resp = obj(obj(o.functionResponse)?.response);
    if (resp) {
      if (typeof resp.output === "string") out.push(resp.output);
      else if (typeof resp.error === "string") {
        out.push(resp.error);
        isError = true;
      } else if (typeof resp.content === "string") out.push(resp.content);
    } else if (typeof o.text === "string") out.push(o.text);
  }
  return out.length ? { text: out.join("\n"), isError } : { isError };
}

/** Removes the `<untrusted_context>` wrapper Gemini CLI puts around tool output (0.61.0). */
function stripFraming(text: string): string {
  const m = /^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/.exec(text);
  return (m ? m[1] : text).trim();
}

/**
 * Reads the shell tool's report: `Output: ...`, then `Exit Code: N` when the
 * command failed, and bookkeeping lines (`Process Group PGID: 739`; older
 * builds also `Error: (none)`, `Signal: (none)`, ...). Keeps the output and
 * any real error, drops the bookkeeping.
 */
export function shellOutput(text: string): { text: string; exit?: number } {
  const code = /^Exit Code: (-?\d+)\s*$/m.exec(text);
  const kept = text.split("\n").filter((l) =>
    !/^(Command|Directory|Error|Exit Code|Signal|Background PIDs|Process Group PGID): \(none\)\s*$/
      .test(l) && !/^Process Group PGID: \d+\s*$/.test(l)
  );
  const out = kept.join("\n").replace(/^Output: ?/m, "").trim();
  return code ? { text: out, exit: Number(code[1]) } : { text: out };
}
