/**
 * Qwen Code (`@qwen-code/qwen-code`, a fork of Gemini CLI).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
  ToolCallInfo,
} from "../core/model.ts";
import { listFiles } from "../core/fs.ts";
import { readJsonl } from "./_jsonl.ts";
import { absolutePath, rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";
import {
  partsText,
  resultOf,
  SHELL,
  shellOutput,
  toolMeaning,
  toolResultFrom,
} from "./_gemini_events.ts";

const ID = "qwen";

/**
 * The Qwen Code parser.
 *
 * Store layout, under `${DEJA_QWEN_ROOT:-${QWEN_RUNTIME_DIR:-${QWEN_HOME:-~/.qwen}}}`
 * (the runtime directory holds the sessions and falls back to the Qwen home;
 * Qwen Code's `Storage.getRuntimeBaseDir`, read via the search tool):
 * `projects/<cwd with every non-alphanumeric character as "-">/chats/<sessionId>.jsonl`,
 * one append-only JSONL file per session (observed in realdata/farm/qwen,
 * Qwen Code 0.24.4).
 *
 * Records `{uuid, parentUuid, sessionId, timestamp (ISO), type, subtype?, cwd,
 * version, gitBranch?, message?: {role, parts[]}, model?, toolCallResult?,
 * systemPayload?, isSidechain?, agentId?}` (Qwen Code's
 * `chatRecordingService.ts`; farm run):
 * - `user` -> user (the typed `systemPayload.displayText` when present, else
 *   the text parts); subtypes `notification`, `cron`, `goal_runtime` are
 *   harness-authored and dropped.
 * - `assistant` -> assistant text (thought parts dropped) and one tool_call
 *   per `functionCall {id, name, args}` part (`run_shell_command` ->
 *   command, `edit`/`replace` -> edits, `write_file` -> writes, `read_file` /
 *   `read_many_files` -> paths).
 * - `tool_result` (and any `functionResponse` part elsewhere) -> tool_result:
 *   `response.output` or `response.error` (error), exit code from
 *   `toolCallResult.resultDisplay.exitCode` of a `shell_result`, whose
 *   `output` is the command's own output; older results are read from the
 *   `Exit Code: N` framing.
 * - `system`: `chat_compression` -> summary (the first compressed turn),
 *   `custom_title` -> title, `parent_session` -> parent, `slash_command`
 *   invocations -> user; every other subtype (`ui_telemetry`,
 *   `attribution_snapshot`, ...) is bookkeeping and ignored.
 * - Records marked `isSidechain` with an `agentId` (subagent rounds, written to
 *   `projects/<slug>/subagents/<session>/agent-<type>-<call>.jsonl`; farm run,
 *   0.24.4) become their own session `<sessionId>/<agentId>` with `parent` =
 *   the session.
 * A record written twice (same `uuid`) replaces its first copy: event keys
 * derive from the uuid and the call id. Times: ISO strings -> epoch ms.
 * Project: the records' `cwd`.
 */
export const qwen: Parser = { id: ID, discover, parse };

function qwenRoot(env: DiscoverCtx["env"]): string {
  return rootFrom(env, ID, [["QWEN_RUNTIME_DIR", ""], ["QWEN_HOME", ""]], "~/.qwen");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const projects = join(qwenRoot(env), "projects");
  const files = await listFiles(projects, {
    // Subagent rounds: projects/<slug>/subagents/<parent session>/agent-<type>-<call>.jsonl
    // (farm run of Qwen Code 0.24.4); their records carry isSidechain and agentId.
    match: (p, n) =>
      n.endsWith(".jsonl") &&
      (basename(dirname(p)) === "chats" || basename(dirname(dirname(p))) === "subagents"),
    maxDepth: 3,
    onError: problem,
  });
  return {
    roots: [projects],
    sources: files.map((path) => ({ harness: ID, path, kind: "append" as const })),
  };
}

/** What a resumed pass needs from earlier in the file. */
interface QwenState {
  sessionId?: string;
  cwd?: string;
}

/** User-record subtypes the harness writes on its own (not typed by a person). */
const HARNESS_USER = new Set(["notification", "cron", "goal_runtime"]);

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const state = (obj(ctx.state) ?? {}) as QwenState;
  let sessionId = str(state.sessionId);
  let cwd = str(state.cwd);
  const out = new Map<string, Session>();
  const session = (id: string, parent?: string): Session => {
    let s = out.get(id);
    if (!s) {
      s = { harness: ID, id, parent, path: source.path, events: [] };
      out.set(id, s);
    }
    return s;
  };
  let records = 0;
  for await (const { value, start } of readJsonl(source.path, ctx)) {
    records++;
    const where = `${source.path}@${start}`;
    const rec = obj(value);
    if (!rec) {
      ctx.skip("unknown_record", where, "line is not a JSON object");
      continue;
    }
    sessionId ??= str(rec.sessionId) ?? basename(source.path, ".jsonl");
    cwd = str(rec.cwd) ?? cwd;
    const agent = rec.isSidechain === true ? str(rec.agentId) : undefined;
    const s = agent ? session(`${sessionId}/${agent}`, sessionId) : session(sessionId);
    s.project = cwd ?? s.project;
    const time = toMillis(rec.timestamp);
    if (time !== undefined) {
      s.started = Math.min(s.started ?? time, time);
      s.updated = Math.max(s.updated ?? time, time);
    }
    const mapped = recordEvents(rec, time, cwd);
    if (mapped === undefined) {
      ctx.skip("unknown_record", where, `type ${JSON.stringify(rec.type)}`);
      continue;
    }
    s.events.push(...mapped.events);
    if (mapped.model) s.model = mapped.model;
    if (mapped.title) s.title = mapped.title;
    if (mapped.parent && !agent) s.parent = mapped.parent;
  }
  if (!records && ctx.offset === 0) ctx.skip("empty", source.path);
  if (sessionId) ctx.endState = { sessionId, cwd } satisfies QwenState;
  // A resumed pass may carry only bookkeeping records: it still moves `updated`.
  for (const s of out.values()) if (s.events.length || s.title || ctx.offset > 0) yield s;
}

/** What one record contributes; undefined for a record type Qwen Code does not write. */
interface Mapped {
  events: Event[];
  model?: string;
  title?: string;
  parent?: string;
}

function recordEvents(rec: Obj, time: number | undefined, cwd?: string): Mapped | undefined {
  const uuid = str(rec.uuid) ?? String(time ?? "");
  const parts = arr(obj(rec.message)?.parts);
  const subtype = str(rec.subtype);
  const payload = obj(rec.systemPayload);
  switch (rec.type) {
    case "user": {
      if (subtype && HARNESS_USER.has(subtype)) return { events: [] };
      const typed = str(payload?.displayText) ?? partsText(parts);
      const events: Event[] = typed.trim()
        ? [{ kind: "user", text: typed.trim(), time, key: `m:${uuid}` }]
        : [];
      return { events: events.concat(responses(parts, rec, time)) };
    }
    case "assistant": {
      const text = partsText(parts).trim();
      const events: Event[] = text ? [{ kind: "assistant", text, time, key: `m:${uuid}` }] : [];
      parts.forEach((p, i) => {
        const call = obj(obj(p)?.functionCall);
        if (call) events.push(callEvent(call, `${uuid}:${i}`, time, cwd));
      });
      withModel(events, rec.model);
      return { events: events.concat(responses(parts, rec, time)), model: str(rec.model) };
    }
    case "tool_result":
      return { events: responses(parts, rec, time) };
    case "system":
      return systemRecord(subtype, payload, uuid, time);
    default:
      return undefined;
  }
}

function callEvent(call: Obj, fallbackId: string, time?: number, cwd?: string): Event {
  const name = str(call.name) ?? "unknown";
  const id = str(call.id) ?? fallbackId;
  const input = decodeArgs(call.args);
  const args = obj(input);
  const tool: ToolCallInfo = { name, id, input, ...toolMeaning(name, args, cwd) };
  if (name === "read_many_files" && args) {
    const paths = arr(args.paths).flatMap((p) =>
      typeof p === "string" && p ? [absolutePath(p, cwd)] : []
    );
    if (paths.length) tool.paths = paths;
  }
  return { kind: "tool_call", text: "", time, key: `c:${id}`, tool };
}

/** One tool_result per `functionResponse` part of a record. */
function responses(parts: unknown[], rec: Obj, time?: number): Event[] {
  const tcr = obj(rec.toolCallResult);
  const events: Event[] = [];
  parts.forEach((p, i) => {
    const fr = obj(obj(p)?.functionResponse);
    if (!fr) return;
    const id = str(fr.id) ?? str(tcr?.callId) ?? `${str(rec.uuid)}:${i}`;
    const own = tcr && (str(tcr.callId) ?? id) === id ? tcr : undefined;
    const res = resultOf([p]);
    const isError = res.isError === true || own?.status === "error";
    let text = res.text ?? "";
    let exit: number | undefined;
    const display = obj(own?.resultDisplay);
    if (display?.type === "shell_result") {
      exit = num(display.exitCode);
      if (typeof display.output === "string") text = display.output;
    } else if (str(fr.name) === SHELL) {
      exit = shellOutput(text).exit;
      text = framedOutput(text);
    }
    events.push(toolResultFrom(id, text.trim(), time, exit, isError));
  });
  return events;
}

function systemRecord(
  subtype: string | undefined,
  payload: Obj | undefined,
  uuid: string,
  time?: number,
): Mapped {
  switch (subtype) {
    case "chat_compression": {
      const first = obj(arr(payload?.compressedHistory)[0]);
      const text = first?.role === "user" ? partsText(arr(first.parts)).trim() : "";
      return { events: text ? [{ kind: "summary", text, time, key: `m:${uuid}` }] : [] };
    }
    case "custom_title":
      return { events: [], title: str(payload?.customTitle) };
    case "parent_session":
      return { events: [], parent: str(payload?.parentSessionId) };
    case "slash_command": {
      const raw = str(payload?.rawCommand)?.trim();
      const typed = payload?.phase === "invocation" && payload.hiddenInvocation !== true && raw;
      return { events: typed ? [{ kind: "user", text: raw, time, key: `m:${uuid}` }] : [] };
    }
    default:
      return { events: [] };
  }
}

/**
 * The command's own output inside the shell tool's report (`Command: ...`,
 * `Directory: ...`, `Output: ...`, then `Error:`, `Exit Code:`, `Signal:`,
 * `Background PIDs:`, `Process Group PGID:` lines; `(empty)` for none).
 */
function framedOutput(text: string): string {
  const m = /^Output: ?([\s\S]*?)\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): /m
    .exec(text);
  if (!m) return shellOutput(text).text;
  const out = m[1].trim();
  return out === "(empty)" ? "" : out;
}
