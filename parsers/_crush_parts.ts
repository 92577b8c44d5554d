/**
 * Private helpers of the Crush parser ({@link ../parsers/crush.ts}): turning
 * one message's `parts` value into events, and the small text rules Crush
 * needs (`<cwd>` trailer, `Exit code N`, `<think>` blocks, the replaced span of
 * `lsp_replace_symbol`).
 *
 * Part shapes are `{type, data}` (charmbracelet/crush
 * `internal/message/{message,content}.go`); tool argument names come from
 * `internal/agent/tools/{bash,edit,lsp_replace_symbol}.go` and the real stores
 * under realdata/crush.
 *
 * @module
 */
import { decodeUtf8, REPAIRED } from "../core/text.ts";
import type { EditSpan, Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { arr, decodeArgs, num, type Obj, obj, str } from "./_util.ts";
import { isZstd, unzstd } from "./_zstd.ts";
import { stripFrames } from "../core/frame.ts";
import { absolutePath } from "../core/paths.ts";

/** Part types that carry nothing to index (dropped silently). */
const IGNORED = new Set(["reasoning", "binary", "image_url", "finish", "_meta"]);

/** One `messages` row, as the parser reads it. */
export interface MessageRow {
  id: string;
  role: string;
  /** Epoch ms of `created_at`. */
  time?: number;
  model?: string;
  /** True for a compaction summary (`is_summary_message` or `summary_message_id`). */
  summary: boolean;
  parts: Obj[];
}

/** What the parts reader needs from its caller. */
export interface PartsEnv {
  /** Absolute project directory (relative tool paths are joined to it). */
  project?: string;
  /** Tool name of every call id in the session (results find their call here). */
  calls: Map<string, string>;
  /** Ids of streamed pieces joined to an earlier call (joinFragments); their results are dropped. */
  dropped: Set<string>;
  /** Ids of the named calls those pieces were joined to (joinFragments): Crush never ran them. */
  joined: Set<string>;
  skip: ParseCtx["skip"];
}

/**
 * Decodes a raw `parts` cell (TEXT, or a BLOB that is UTF-8 JSON or a zstd
 * frame) into its part objects. Problems are counted on `skip` and yield
 * `undefined` (the message is dropped) or, for invalid UTF-8, a lenient decode.
 */
export function decodeParts(
  raw: unknown,
  where: string,
  skip: ParseCtx["skip"],
): Obj[] | undefined {
  let text: string;
  let repaired = false;
  if (raw instanceof Uint8Array) {
    let bytes = raw;
    // Some Crush builds compress `parts` (a zstd frame, told by its magic).
    if (isZstd(bytes)) {
      try {
        const z = unzstd(bytes);
        if (z.torn !== undefined) throw new Error(`frame cut short at byte ${z.torn}`);
        bytes = z.data;
      } catch (e) {
        skip("corrupt", where, `zstd parts: ${(e as Error).message}`);
        return undefined;
      }
    }
    // Kept and counted (once it parses): one bad byte should not hide a whole turn.
    const got = decodeUtf8(bytes);
    repaired = got.repaired;
    text = got.text;
  } else if (typeof raw === "string") {
    text = raw;
  } else {
    skip("bad_shape", where, "parts is not text");
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    skip("malformed_json", where, (e as Error).message);
    return undefined;
  }
  if (repaired) skip("invalid_utf8", where, REPAIRED);
  if (!Array.isArray(value)) {
    skip("bad_shape", where, "parts is not an array");
    return undefined;
  }
  const out: Obj[] = [];
  for (const [i, p] of value.entries()) {
    const o = obj(p);
    if (!o || typeof o.type !== "string") {
      skip("bad_shape", `${where}#${i}`, "part without a type");
      continue;
    }
    out.push(o);
  }
  return out;
}

/** Removes whole `<think>…</think>` blocks; an unclosed leading block drops the rest. */
export function stripThink(text: string): string {
  let t = text.replace(/<think>[\s\S]*?<\/think>/g, "");
  if (/^\s*<think>/.test(t)) t = "";
  return t.trim();
}

/** Removes the `<cwd>…</cwd>` trailer Crush appends to shell results. */
export function stripCwd(text: string): string {
  return text.replace(/\s*<cwd>[^<]*<\/cwd>\s*$/, "");
}

/** `N` when the last line of a shell result is `Exit code N`. */
export function exitCode(text: string): number | undefined {
  const lines = text.trimEnd().split(/\r?\n/);
  const m = /^Exit code (-?\d+)$/.exec((lines[lines.length - 1] ?? "").trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * A bash result that says the command did not finish in the foreground: aborted
 * (`Command was aborted before completion` as its last line), or moved to a
 * background job (`Background shell started with ID: …`, `Command is taking
 * longer than expected and has been moved to background.`); its exit is unknown
 * (charmbracelet/crush@37f36e93 internal/agent/tools/bash.go).
 */
function unfinished(text: string): boolean {
  const t = text.trimEnd();
  return t.endsWith("Command was aborted before completion") ||
    t.startsWith("Background shell started with ID:") ||
    t.startsWith("Command is taking longer than expected and has been moved to background.");
}

/**
 * The exit of a bash result (see {@link exitCode}): Crush appends `Exit code N`
 * only when N is not 0 (charmbracelet/crush@37f36e93 internal/agent/tools/bash.go
 * `formatOutput`, and the same since e7258e38, internal/llm/tools/bash.go), so a
 * result that ran to the end without one is exit 0. An error result (`missing
 * command`, a denied permission) or an unfinished run ({@link unfinished}) has none.
 */
export function bashExit(text: string, isError: boolean): number | undefined {
  const n = exitCode(text);
  if (n !== undefined) return n;
  return isError || unfinished(text) ? undefined : 0;
}

/**
 * The texts of a result to a call Crush never ran because the person refused it
 * (`User denied permission`, `Permission denied` before 2025-11,
 * charmbracelet/crush@37f36e93 internal/agent/tools/tools.go
 * NewPermissionDeniedResponse, 88c88c65 internal/agent/agent.go); always `is_error`.
 */
const DENIED = new Set(["User denied permission", "Permission denied"]);

/** True when an error result says the person refused the call ({@link DENIED}). */
export function deniedResult(text: string, isError: boolean): boolean {
  return isError && DENIED.has(text.trim());
}

/**
 * The span `lsp_replace_symbol` replaced, from its result metadata
 * `{file_path, old_content, new_content}`: the lines the result text names
 * (`lines N-M`, 1-based, inclusive) of the old content against the lines that
 * took their place; without that, the lines the two contents do not share.
 */
export function symbolEdit(
  meta: Obj,
  text: string,
  project: string | undefined,
): EditSpan | undefined {
  const file = str(meta.file_path);
  if (!file || typeof meta.old_content !== "string" || typeof meta.new_content !== "string") {
    return undefined;
  }
  const path = absolutePath(file, project);
  const a = meta.old_content.split("\n");
  const b = meta.new_content.split("\n");
  const m = /\blines (\d+)-(\d+)\b/.exec(text);
  if (m) {
    const s = Number(m[1]) - 1;
    const e = Number(m[2]);
    const added = b.length - (a.length - (e - s));
    if (s >= 0 && e > s && e <= a.length && added >= 0) {
      return { path, old: a.slice(s, e).join("\n"), new: b.slice(s, s + added).join("\n") };
    }
  }
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  const old = a.slice(p, a.length - q).join("\n");
  const neu = b.slice(p, b.length - q).join("\n");
  return old === "" && neu === "" ? undefined : { path, old, new: neu };
}

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Fills `command`/`paths`/`edits`/`writes` from a call's decoded arguments. */
function describe(tool: ToolCallInfo, a: Obj, project: string | undefined): void {
  const file = str(a.file_path);
  switch (tool.name) {
    case "bash":
      tool.command = str(a.command);
      break;
    case "view":
      if (file) tool.paths = [absolutePath(file, project)];
      break;
    case "edit":
      if (file) {
        tool.edits = [{
          path: absolutePath(file, project),
          old: text(a.old_string),
          new: text(a.new_string),
        }];
      }
      break;
    case "multiedit":
      if (file) {
        const path = absolutePath(file, project);
        tool.edits = arr(a.edits).flatMap((e) => {
          const o = obj(e);
          return o ? [{ path, old: text(o.old_string), new: text(o.new_string) }] : [];
        });
      }
      break;
    case "write":
      if (file) tool.writes = [{ path: absolutePath(file, project), content: text(a.content) }];
      break;
    case "lsp_replace_symbol":
      // replace / add_before / add_after write `replacement`; delete writes nothing.
      if (file && (str(a.action) ?? "replace") !== "delete") {
        tool.writes = [{ path: absolutePath(file, project), content: text(a.replacement) }];
      }
      break;
  }
}

/**
 * What a `finish` part with reason `error` says, as a notice (the harness
 * speaking, not the model, worded like Codex's provider errors):
 * `Error: <message>`, then its `details` on the next line, so pasting either
 * finds the session. `{reason:"error", message:"Bad Request", details:"Your
 * organization must be verified…"}` and `{message:"API Error", details:"POST
 * \"https://openrouter.ai/…\": 400 Bad Request {…}"}` observed (realdata
 * windows-copilot and k3s dbs). Undefined for other reasons or no words.
 */
export function providerError(d: Obj): string | undefined {
  if (str(d.reason) !== "error") return undefined;
  const message = text(d.message).trim();
  const details = text(d.details).trim();
  if (!message && !details) return undefined;
  return `Error: ${message || "(no message)"}${details ? `\n${details}` : ""}`;
}

/** Marker a joined or headless fragment group carries on its `tool_call` data: how many pieces. */
const PIECES = "_fragments";

/** True when `s` is one whole JSON value (a call's arguments are complete). */
function wholeJson(s: string): boolean {
  if (!s.trim()) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * Joins a streamed call Crush stored in pieces (realdata k3s db, gpt-5-mini via
 * openrouter): one `tool_call` part with the name and an empty `input`, then,
 * in the same message and in part order, `tool_call` parts with `name: ""`,
 * each with a new id and the next piece of the arguments (`{"`, then
 * `command":"kubectl …","timeout": 120000}`). Crush ran the named part with no
 * arguments (its result: `invalid parameters`) and each piece as a tool named
 * "" (`Tool not found: `). Only the order relates them: no id or index links a
 * piece to its call.
 *
 * A nameless part joins the nearest earlier call of the same message whose
 * arguments are not yet one whole JSON value; its own id goes to `dropped`
 * (its `Tool not found` result says nothing about the call). Pieces with no
 * such call (none seen; the rule would start a group at a complete call's
 * next piece) become one nameless call for the group, keeping the first
 * piece's id and result. The pieces were never seen split across messages, so
 * groups never cross one. The message's parts are rewritten in place.
 *
 * A named call that took pieces goes to `joined`: Crush refused it (its own
 * arguments were not whole, so `invalid parameters`) and ran nothing, so
 * {@link crushMessageEvents} keeps what it tried (the joined arguments, shown
 * as `$ <command>` for bash) but derives no command, read, edit or write from
 * it, and its result is `notRun`.
 */
export function joinFragments(msg: MessageRow, dropped: Set<string>, joined: Set<string>): void {
  const out: Obj[] = [];
  let open: Obj | undefined;
  for (const p of msg.parts) {
    if (p.type !== "tool_call") {
      out.push(p);
      continue;
    }
    const d = obj(p.data) ?? {};
    if (text(d.name)) {
      open = { ...d, input: text(d.input) };
      out.push({ ...p, data: open });
      continue;
    }
    if (open && !wholeJson(text(open.input))) {
      open.input = text(open.input) + text(d.input);
      open[PIECES] = (num(open[PIECES]) ?? 0) + 1;
      const id = str(d.id);
      if (id) dropped.add(id);
      const callId = str(open.id);
      if (text(open.name) && callId) joined.add(callId);
      continue;
    }
    open = { ...d, name: "", input: text(d.input), [PIECES]: 1 };
    out.push({ ...p, data: open });
  }
  msg.parts = out;
}

/**
 * The events of one message, in part order. `key` is `<message id>#<part
 * index>` so a re-read session replaces its events in place.
 */
export function crushMessageEvents(msg: MessageRow, env: PartsEnv): Event[] {
  const out: Event[] = [];
  // A reply Crush never finished: no `finish` part (the stream stopped; `finished_at` is
  // NULL too), or one that says it was cancelled or failed (observed: real store, a
  // session whose last reply stops mid-list).
  const finish = msg.parts.find((p) => p.type === "finish");
  const reason = str(obj(finish?.data)?.reason);
  const cut = msg.role === "assistant" && !msg.summary &&
    (!finish || reason === "canceled" || reason === "error");
  const base = (i: number) => ({ time: msg.time, key: `${msg.id}#${i}` });
  for (const [i, part] of msg.parts.entries()) {
    const type = part.type as string;
    const d = obj(part.data) ?? {};
    const where = `${msg.id}#${i}`;
    if (type === "finish") {
      const n = providerError(d);
      if (n) out.push({ kind: "notice", text: n, ...base(i) });
      continue;
    }
    if (IGNORED.has(type)) continue;
    if (type === "text") {
      if (d.hidden === true) continue; // a generated continuation, not typed by a person
      const t = text(d.text);
      if (msg.role === "assistant" || (msg.summary && msg.role === "user")) {
        const s = stripThink(t);
        if (s) {
          out.push({
            kind: msg.summary ? "summary" : "assistant",
            text: s,
            ...base(i),
            ...(cut ? { cut: true } : {}),
          });
        }
      } else if (msg.role === "user") {
        if (t.trim()) out.push({ kind: "user", text: t, ...base(i) });
      }
      // system-role text is the harness's own prompt: dropped.
    } else if (type === "tool_call") {
      const name = text(d.name);
      const input = d.input === "" || d.input === undefined ? undefined : decodeArgs(d.input);
      const tool: ToolCallInfo = { name, id: str(d.id), input };
      const pieces = num(d[PIECES]) ?? 0;
      if (!name) {
        // Pieces of a streamed call with no named call before them (joinFragments).
        const args = text(d.input);
        const label = `tool call with no name (${pieces || 1} fragment${pieces > 1 ? "s" : ""})`;
        out.push({ kind: "tool_call", text: args ? `${label}: ${args}` : label, tool, ...base(i) });
        continue;
      }
      const a = obj(input);
      if (pieces > 0) {
        // Joined from pieces (joinFragments): Crush refused it, nothing ran or changed. What
        // it tried stays readable; no command, read, edit or write is derived from it.
        const tried: ToolCallInfo = { name, input };
        if (a) describe(tried, a, env.project);
        const said = tried.command ? `$ ${tried.command}` : `${name} ${text(d.input)}`;
        out.push({ kind: "tool_call", text: said, tool, ...base(i) });
        continue;
      }
      if (a) describe(tool, a, env.project);
      out.push({ kind: "tool_call", text: "", tool, ...base(i) });
    } else if (type === "tool_result") {
      const callId = str(d.tool_call_id);
      if (callId && env.dropped.has(callId)) continue;
      // A PreToolUse hook's context is appended after the `<cwd>` trailer (deja's own
      // frame, charmbracelet/crush internal/agent/hooked_tool.go): strip it first.
      const body = stripCwd(stripFrames(text(d.content)));
      if (callId && env.joined.has(callId)) {
        // Crush's answer to a call it got before its arguments were whole: it never ran.
        const result: ToolResultInfo = { callId, isError: true, notRun: true };
        const said = `Not run: ${body.trim() || "invalid parameters"}`;
        out.push({ kind: "tool_result", text: said, result, ...base(i) });
        continue;
      }
      const result: ToolResultInfo = { callId, isError: d.is_error === true };
      if (deniedResult(body, result.isError!)) {
        // The person refused the call: it never ran (the indexer keeps no command row for it).
        out.push({
          kind: "tool_result",
          text: body,
          result: { ...result, notRun: true },
          ...base(i),
        });
        continue;
      }
      const name = (callId && env.calls.get(callId)) || text(d.name);
      if (name === "bash") {
        const exit = bashExit(body, result.isError!);
        if (exit !== undefined) result.exit = exit;
      } else if (name === "lsp_replace_symbol" && !result.isError) {
        const meta = obj(decodeArgs(d.metadata));
        const span = meta && symbolEdit(meta, body, env.project);
        if (span) result.edits = [span];
      }
      out.push({ kind: "tool_result", text: body, result, ...base(i) });
    } else if (type === "shell_command") {
      // The user's bang-mode shell: a real command with a real exit status.
      const id = `${msg.id}#${i}`;
      const command = text(d.command);
      out.push({
        kind: "tool_call",
        text: "",
        tool: { name: "shell_command", id, input: { command }, command },
        time: msg.time,
        key: `${id}:call`,
      });
      const result: ToolResultInfo = { callId: id };
      const exit = num(d.exit_code);
      if (exit !== undefined) result.exit = exit;
      out.push({
        kind: "tool_result",
        text: text(d.output),
        result,
        time: msg.time,
        key: `${id}:result`,
      });
    } else {
      env.skip("unknown_record", where, `part type ${type}`);
    }
  }
  return out;
}
