/**
 * Continue `history[]` items -> deja events, and `workspaceDirectory` -> the
 * project directory. Private to `parsers/continue.ts` (see there for the store).
 *
 * Format facts and where they were checked:
 * - An item is `{message, contextItems, editorState?, toolCallStates?, promptLogs?,
 *   reasoning?, conversationSummary?}`; `message.role` is `user`, `assistant`,
 *   `thinking`, `system` or `tool`; content is a string or `[{type:"text", text}]`
 *   (continuedev/continue `core/index.d.ts`; realdata/continue).
 * - `message.toolCalls[].function.arguments` is a JSON string; `toolCallStates[]`
 *   holds `{toolCallId, toolCall, status, parsedArgs, output?: [{content}]}`.
 *   IDE builds also write a `tool` message per answered call, with the same
 *   text as the state's output (realdata/continue, session-devcontainer-large);
 *   the CLI does not (farm, `cn` 1.5.47).
 * - `status` is one of `generating` (arguments still streaming), `generated`
 *   (waiting for approval), `calling` (running), `errored`, `done`, `canceled`
 *   (continuedev/continue `core/index.d.ts` ToolStatus, read 2026-12 via the
 *   library mirror). `canceled` is a call that never ran: the person rejected it
 *   or stopped the stream (the GUI also turns a dangling `generated` one into
 *   `canceled`), the CLI's refused permission (its output then says `Permission
 *   denied by user`), or an edit whose diff was rejected (gui
 *   `handleApplyStateUpdate.ts`: accepted = status is not `canceled`). Observed
 *   with no output in the real IDE store (8c3cc493: `ls -aF`, `git fetch
 *   origin`, a `create_new_file` of `.continue/config.json`; 4574729b: `ls -R`).
 *   Such a call, and a `generating` / `generated` one, is kept with its
 *   arguments but without what it would have meant (no command, read, edit or
 *   write: nothing ran or changed), and its result says `not run` (isError and notRun,
 *   the way Copilot's refused permission reads). An `errored` state without
 *   output gets a result all the same (the call failed; it did not stay
 *   unfinished); a `calling` one without output has none (it never finished).
 * - Tool names: the CLI's `Read`, `Edit`, `MultiEdit`, `Write`, `List`,
 *   `Search`, `Bash` (extensions/cli/src/tools/builtInToolNames.ts; farm), with
 *   `file_path` / `filepath` keys; the IDE's `read_file`, `create_new_file`,
 *   `edit_existing_file`, `single_find_and_replace`, `multi_edit`,
 *   `run_terminal_command`, … with `filepath` relative to the workspace
 *   (core/tools/definitions/*.ts; realdata/continue).
 * - A failed CLI `Bash` call's output reads `Error executing tool Bash: Error
 *   (exit code N): <stderr>` (extensions/cli/src/tools/runTerminalCommand.ts
 *   rejects with `Error (exit code N): …`; farm). N becomes `exit`; both prefixes
 *   are stripped. Other exit statuses are not recorded.
 *
 * @module
 */
import type { Event, ParseCtx } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, type Obj, obj, str, withModel } from "./_util.ts";
import { callInfo, type CallKind } from "./_call_info.ts";
import { uriToPath } from "./_vscode.ts";

/** Continue's tools by what they do (CLI and IDE names). */
const KINDS: Readonly<Record<string, CallKind>> = {
  Bash: "shell",
  Read: "read",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "write",
  run_terminal_command: "shell",
  read_file: "read",
  read_file_range: "read",
  create_new_file: "write",
  edit_existing_file: "edit",
  single_find_and_replace: "edit",
  multi_edit: "edit",
  search_and_replace_in_file: "edit",
};

const TOOL_FAILED = /^Error executing tool [^:\n]+: /;
const EXIT_CODE = /^Error \(exit code (-?\d+)\): /;

/** What {@link historyEvents} read. */
export interface HistoryRead {
  events: Event[];
  /** The last model an assistant message's `usage.model` named. */
  model?: string;
  /** Earliest and latest `reasoning.startAt` / `endAt` seen (epoch ms). */
  earliest?: number;
  latest?: number;
}

/** The project directory a `workspaceDirectory` value names. */
export function workspacePath(w: string | undefined): string | undefined {
  if (!w) return undefined;
  const dc = /^vscode-remote:\/\/dev-container(?:%2[Bb]|\+)([0-9a-fA-F]+)(?=[/@?#]|$)/.exec(w);
  if (dc) {
    const host = devContainerHost(dc[1]);
    if (host) return host;
  }
  return uriToPath(w);
}

/** A dev-container authority's hex: JSON `{hostPath}` (or, in older builds, the path). */
function devContainerHost(hex: string): string | undefined {
  if (hex.length % 2) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  const text = new TextDecoder().decode(bytes);
  if (!text.trimStart().startsWith("{")) return uriToPath(text);
  try {
    const host = str(obj(JSON.parse(text))?.hostPath);
    return host ? uriToPath(host) : undefined;
  } catch {
    return undefined;
  }
}

/** The statuses of a call that never ran, and what its result says. */
const NOT_RUN: Readonly<Record<string, string>> = {
  canceled: "Cancelled: not run.",
  generating: "Not run: its arguments were still streaming when the session was saved.",
  generated: "Not run: it was waiting for approval when the session was saved.",
};

/** True when a state with this status never ran its call. */
function neverRan(status: string | undefined): boolean {
  return status !== undefined && Object.hasOwn(NOT_RUN, status);
}

/** The text of a tool result, its exit status where the CLI recorded one. */
function resultOf(callId: string, text: string, status: string | undefined): Event {
  if (status !== undefined && neverRan(status)) {
    const said = text.trim();
    const result = { callId, isError: true, notRun: true };
    return { kind: "tool_result", text: NOT_RUN[status] + (said ? `\n${said}` : ""), result };
  }
  let t = text.replace(TOOL_FAILED, "");
  const m = EXIT_CODE.exec(t);
  if (m) t = t.slice(m[0].length);
  const result: Event["result"] = { callId, isError: status === "errored" };
  if (m) result.exit = Number(m[1]);
  return { kind: "tool_result", text: t.trimEnd(), result };
}

/** The result a state stands for when it holds no output: none while it runs or when done. */
function outputless(status: string | undefined): string | undefined {
  if (neverRan(status)) return "";
  return status === "errored" ? "Failed (Continue recorded no output)." : undefined;
}

function outputText(state: Obj): string | undefined {
  const out = arr(state.output).map((o) => str(obj(o)?.content)).filter((t): t is string => !!t);
  return out.length ? out.join("\n") : undefined;
}

/**
 * Maps a session's `history` to events. `project` resolves relative tool
 * paths; bad items are counted through `ctx.skip` at `<path>#history[i]`.
 */
export function historyEvents(
  history: unknown[],
  project: string | undefined,
  path: string,
  ctx: ParseCtx,
): HistoryRead {
  const out: HistoryRead = { events: [] };
  // Calls a `tool` message answers: their state's output would repeat it.
  const answered = new Set<string>();
  for (const it of history) {
    const m = obj(obj(it)?.message);
    if (m?.role === "tool" && str(m.toolCallId)) answered.add(m.toolCallId as string);
  }
  const statusOf = new Map<string, string>();
  history.forEach((it, i) => {
    const where = `${path}#history[${i}]`;
    const item = obj(it);
    const msg = obj(item?.message);
    if (!item || !msg) {
      ctx.skip("bad_shape", where, "history item without message");
      return;
    }
    const reasoning = obj(item.reasoning);
    const time = toMillis(reasoning?.endAt) ?? toMillis(reasoning?.startAt);
    if (time !== undefined) {
      out.earliest = Math.min(out.earliest ?? time, time);
      out.latest = Math.max(out.latest ?? time, time);
    }
    const push = (e: Event) => out.events.push(time === undefined ? e : { ...e, time });
    const role = str(msg.role);
    const text = blockText(msg.content).trim();
    if (role === "user") {
      if (text) push({ kind: "user", text });
    } else if (role === "assistant") {
      const model = str(obj(msg.usage)?.model);
      if (model) out.model = model;
      // The reply's model (`usage.model`), on the reply and its calls.
      const reply: Event[] = text ? [{ kind: "assistant", text }] : [];
      reply.push(...assistantTools(msg, arr(item.toolCallStates), project, answered, statusOf));
      withModel(reply, model).forEach(push);
    } else if (role === "tool") {
      const id = str(msg.toolCallId) ?? "";
      push(resultOf(id, blockText(msg.content), statusOf.get(id)));
    } else if (role !== "system" && role !== "thinking") {
      ctx.skip("unknown_record", where, `message role ${role ?? "(none)"}`);
    }
    const summary = str(item.conversationSummary);
    if (summary) push({ kind: "summary", text: summary });
  });
  return out;
}

/** An assistant item's calls, then the results its states hold that no `tool` message repeats. */
function assistantTools(
  msg: Obj,
  states: unknown[],
  project: string | undefined,
  answered: ReadonlySet<string>,
  statusOf: Map<string, string>,
): Event[] {
  const calls = arr(msg.toolCalls).map(obj).filter((c): c is Obj => !!c);
  const byId = new Map<string, Obj>();
  for (const s of states.map(obj)) {
    const id = str(s?.toolCallId);
    if (!s || !id) continue;
    byId.set(id, s);
    const status = str(s.status);
    if (status) statusOf.set(id, status);
    if (!calls.some((c) => c.id === id) && obj(s.toolCall)) calls.push(obj(s.toolCall)!);
  }
  const events: Event[] = [];
  const results: Event[] = [];
  for (const c of calls) {
    const fn = obj(c.function);
    const id = str(c.id);
    const state = id ? byId.get(id) : undefined;
    const args = fn?.arguments ?? state?.parsedArgs;
    const tool = callInfo(str(fn?.name) ?? "unknown", id, args, KINDS, project);
    const status = state ? str(state.status) : undefined;
    if (neverRan(status)) {
      // Nothing ran and nothing changed: no command, read, edit or write to derive.
      for (const k of ["command", "paths", "edits", "writes"] as const) delete tool[k];
    }
    events.push({ kind: "tool_call", text: "", tool });
    const output = state ? outputText(state) ?? outputless(status) : undefined;
    if (id && state && output !== undefined && !answered.has(id)) {
      results.push(resultOf(id, output, status));
    }
  }
  return [...events, ...results];
}
