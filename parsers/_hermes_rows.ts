/**
 * Private helpers of the Hermes parser ({@link ../parsers/hermes.ts}): turning
 * `messages` rows of a Hermes `state.db` into events, and the text rules
 * Hermes needs (harness preambles on user rows, compaction summaries, the
 * JSON envelope of tool results).
 *
 * Facts and where they were checked:
 * - Rows `(id, session_id, role, content, tool_call_id, tool_calls, tool_name,
 *   timestamp REAL seconds, reasoning, ...)`; roles `user`, `assistant`,
 *   `tool`, `session_meta` (content NULL) — realdata/hermes, schema_version 17.
 * - `tool_calls` is a JSON array of `{id, call_id, type:"function", function
 *   {name, arguments (JSON string)}, extra_content}` — realdata/hermes.
 * - A `terminal` result is `{"output", "exit_code", "error"}` as JSON text;
 *   `write_file` takes `{path, content}` — realdata/hermes.
 * - Cron runs open the user row with `[IMPORTANT: You are running as a
 *   scheduled cron job. ...]` before the job's prompt (realdata/hermes; the
 *   bracket holds `"[SILENT]"`, so brackets are matched by depth); older
 *   builds wrote `[SYSTEM: ...]` (public cron outputs, search tool).
 * - Compaction summaries open with `[CONTEXT COMPACTION` (Hermes agent
 *   sources and downstream filters, search tool).
 * - `read_file {path}` and `patch {mode, path, old_string, new_string, patch}`
 *   argument names are taken from third-party readers' fixtures (docs/registry/hermes.md), not
 *   seen in a real store.
 *
 * @module
 */
import type { Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, decodeArgs, num, type Obj, obj, str } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";
import { parsePatch } from "./_patch.ts";
import { resolveIn } from "./_responses_items.ts";

/** One `messages` row as read. */
export interface HermesRow {
  id: number;
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  timestamp: unknown;
}

const KINDS: Record<string, ToolKind> = {
  terminal: "shell",
  read_file: "read",
  write_file: "write",
  patch: "edit",
};

/** Openings of harness-written brackets that precede a user row's real text. */
const PREAMBLES = ["[IMPORTANT:", "[SYSTEM:"];

/**
 * Removes leading harness brackets (`[IMPORTANT: ...]`, `[SYSTEM: ...]`,
 * nested brackets allowed) from a user row; what follows is the text a person
 * (or the job they scheduled) wrote. An unclosed bracket drops everything.
 */
export function stripPreamble(text: string): string {
  let t = text.trimStart();
  while (PREAMBLES.some((p) => t.startsWith(p))) {
    let depth = 0;
    let end = -1;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === "[") depth++;
      else if (t[i] === "]" && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return "";
    t = t.slice(end + 1).trimStart();
  }
  return t;
}

/** True for a compaction summary row (any role). */
export function isCompaction(text: string): boolean {
  return text.trimStart().startsWith("[CONTEXT COMPACTION");
}

/**
 * The output text, exit status and error flag of a tool row's content. Hermes
 * appends its own bracketed notes after the JSON (`{"output":…,"exit_code":1,…}`
 * then `\n\n[Tool loop warning: … This looks like a loop. …]`, realdata/hermes
 * messages.id 24), so the content is then no JSON as a whole: the leading object
 * is read and the note kept after the output.
 */
export function toolResult(
  content: string | null,
): { text: string; exit?: number; error: boolean } {
  const raw = content ?? "";
  let o = raw.trimStart().startsWith("{") ? obj(decodeArgs(raw)) : undefined;
  let note = "";
  if (!o) {
    const lead = leadingObject(raw);
    if (lead) [o, note] = [lead.o, `\n\n${lead.rest}`];
  }
  if (!o) return { text: raw, error: false };
  const error = o.error !== undefined && o.error !== null && o.error !== false && o.error !== "";
  if (typeof o.output === "string" && "exit_code" in o) {
    const err = typeof o.error === "string" && o.error ? `\n${o.error}` : "";
    return { text: o.output + err + note, exit: num(o.exit_code), error };
  }
  return { text: raw, error: error || o.success === false };
}

/**
 * A content that is a JSON object followed by a bracketed note (`[…]`): the
 * object and the note; otherwise undefined (any other trailing text is not a
 * shape Hermes was seen writing, and the content stays plain text).
 */
function leadingObject(raw: string): { o: Obj; rest: string } | undefined {
  const start = raw.indexOf("{");
  if (start < 0 || raw.slice(0, start).trim()) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < raw.length; i++) {
    const ch = raw[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) {
      const rest = raw.slice(i + 1).trim();
      if (!rest.startsWith("[")) return undefined;
      const o = obj(decodeArgs(raw.slice(start, i + 1)));
      return o ? { o, rest } : undefined;
    }
  }
  return undefined;
}

function callInfo(call: Obj, base: string | undefined): ToolCallInfo | undefined {
  const fn = obj(call.function) ?? call;
  const name = str(fn.name);
  if (!name) return undefined;
  const input = decodeArgs(fn.arguments);
  const tool: ToolCallInfo = { name, id: str(call.call_id) ?? str(call.id), input };
  const a = obj(input);
  const kind = KINDS[name];
  if (!a || !kind) return tool;
  if (name === "patch" && typeof a.patch === "string" && a.mode !== "replace") {
    const fx = parsePatch(a.patch);
    if (fx.edits.length) {
      tool.edits = fx.edits.map((e) => ({ ...e, path: resolveIn(base, e.path) }));
    }
    if (fx.writes.length) {
      tool.writes = fx.writes.map((w) => ({ ...w, path: resolveIn(base, w.path) }));
    }
  } else describeTool(tool, kind, a, base);
  return tool;
}

/**
 * The events of one session's rows, in row order. Keys are `m<row id>` (and
 * `m<row id>#<call index>` for tool calls) so a re-read session replaces its
 * events in place.
 */
export function hermesEvents(
  rows: HermesRow[],
  project: string | undefined,
  skip: ParseCtx["skip"],
): Event[] {
  const out: Event[] = [];
  for (const r of rows) {
    const key = `m${r.id}`;
    const time = toMillis(r.timestamp);
    const text = r.content ?? "";
    switch (r.role) {
      case "user": {
        if (isCompaction(text)) out.push({ kind: "summary", text: text.trim(), time, key });
        else {
          const typed = stripPreamble(text);
          if (typed.trim()) out.push({ kind: "user", text: typed, time, key });
        }
        break;
      }
      case "assistant": {
        if (text.trim()) {
          out.push({
            kind: isCompaction(text) ? "summary" : "assistant",
            text: text.trim(),
            time,
            key,
          });
        }
        if (!r.tool_calls) break;
        let calls: unknown;
        try {
          calls = JSON.parse(r.tool_calls);
        } catch (e) {
          skip("malformed_json", `${key}.tool_calls`, (e as Error).message);
          break;
        }
        for (const [i, c] of arr(calls).entries()) {
          const o = obj(c);
          const tool = o ? callInfo(o, project) : undefined;
          if (!tool) {
            skip("bad_shape", `${key}.tool_calls[${i}]`, "tool call without a name");
            continue;
          }
          out.push({ kind: "tool_call", text: "", tool, time, key: `${key}#${i}` });
        }
        break;
      }
      case "tool": {
        const res = toolResult(r.content);
        const result: ToolResultInfo = { callId: str(r.tool_call_id), isError: res.error };
        if (res.exit !== undefined) result.exit = res.exit;
        out.push({ kind: "tool_result", text: res.text, result, time, key });
        break;
      }
      case "session_meta":
      case "system":
        break; // bookkeeping and the harness's own prompt
      default:
        skip("unknown_record", key, `role ${r.role}`);
    }
  }
  return out;
}
