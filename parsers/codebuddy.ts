/**
 * CodeBuddy Code transcripts: Claude Code's project tree holding OpenAI
 * Responses-style items, adapted record by record to Claude's shape and read
 * by the shared Claude reader.
 *
 * @module
 */
import type { Parser } from "../core/model.ts";
import { rootFrom } from "../core/paths.ts";
import { arr, blockText, decodeArgs, num, type Obj, obj, str } from "./_util.ts";
import { cleanUserText, decodeProjectDir } from "./_message_blocks.ts";
import {
  claudeRecord,
  type FamilyDialect,
  familyParser,
  type FamilyReading,
  type FamilyState,
  type FileFacts,
  type Skip,
} from "./_claude_family.ts";

/** `providerData` flags on user items that are client plumbing, not a prompt. */
const PLUMBING = [
  "skipRun",
  "isMeta",
  "isCompactInternal",
  "isCompacted",
  "isSubAgent",
  "teammateMessage",
  "isTeammateMessage",
];
/** Openings of user text items the client writes itself. */
const PLUMBING_TEXT =
  /^<(command-name|command-message|command-args|system-reminder|local-command-stdout|local-command-caveat|teammate-message|task-notification)\b/;
/** Title records, by rank: the newest of the highest rank wins. */
const TITLES: Record<string, { fields: string[]; rank: number }> = {
  "custom-title": { fields: ["customTitle", "title"], rank: 3 },
  "ai-title": { fields: ["aiTitle", "title"], rank: 2 },
  "topic": { fields: ["topic", "title"], rank: 1 },
};
/** Item types that carry nothing to index. */
const QUIET = new Set(["reasoning", "turn-metrics", "file-history-snapshot", "session-meta"]);
/** The wrapper CodeBuddy puts around a compaction summary. */
const SUMMARY_TAGS = /^\s*<(conversation_history_summary|cb_summary)[^>]*>([\s\S]*?)<\/\1>\s*$/;
/** `Exit Code: N` (or `(none)` for a signal) closing a shell result. */
const EXIT_LINE = /\n?Exit Code: (-?\d+|\(none\))\s*$/;

/** True when a user item is the client's own, not typed. */
function plumbing(pd: Obj): boolean {
  return PLUMBING.some((k) => pd[k] === true) || pd.compactType !== undefined ||
    pd.agent === "compact";
}

/** The text items of a user message as Claude text blocks, the client's own items left out. */
function typedBlocks(content: unknown): Obj[] {
  const items = typeof content === "string"
    ? [{ type: "input_text", text: content }]
    : arr(content);
  return items.map(obj)
    .filter((o): o is Obj => typeof o?.text === "string" && !PLUMBING_TEXT.test(o.text.trim()))
    .map((o) => ({ type: "text", text: cleanUserText(o.text as string) }));
}

/** A `message` item as a Claude record. */
function message(r: Obj, pd: Obj): Obj | undefined {
  const uuid = str(r.id);
  if (r.role === "assistant") {
    const mid = str(pd.messageId) ?? uuid;
    const content = arr(r.content).map(obj).filter((o): o is Obj => !!o)
      .map((o) => ({ type: "text", text: blockText([o]) }));
    return { type: "assistant", uuid, message: { id: mid, model: str(pd.model), content } };
  }
  if (r.role !== "user") return undefined;
  if (pd.isSummary === true) return summary(uuid, blockText(r.content));
  if (plumbing(pd)) return undefined;
  return { type: "user", uuid, message: { content: typedBlocks(r.content) } };
}

/** A compaction summary as a Claude compact-summary record, its wrapper tag removed. */
function summary(uuid: string | undefined, text: string): Obj {
  const content = SUMMARY_TAGS.exec(text)?.[2].trim() ?? text;
  return { type: "user", uuid, isCompactSummary: true, message: { content } };
}

/** A `function_call` item as a Claude assistant record with one `tool_use` block. */
function call(r: Obj, pd: Obj): Obj {
  const block = {
    type: "tool_use",
    id: str(r.callId),
    name: str(r.name),
    input: decodeArgs(r.arguments),
  };
  return {
    type: "assistant",
    uuid: str(r.id),
    message: { id: str(pd.messageId) ?? str(r.id), model: str(pd.model), content: [block] },
  };
}

/** The text of a `function_call_result` output: `{type:"text", text}`, a string, or a JSON envelope. */
function outputText(r: Obj, pd: Obj): { text: string; isError: boolean } {
  const o = obj(r.output);
  let raw: unknown = o ? o.text ?? o.content : r.output;
  let isError = r.status === "incomplete" || pd.isError === true;
  const env = obj(decodeArgs(raw));
  if (env && ("content" in env || "isError" in env)) {
    raw = env.content;
    if (env.isError === true) isError = true;
  }
  let text = typeof raw === "string" ? raw : blockText(raw);
  if (!text) text = blockText(obj(pd.toolResult)?.content) || str(obj(pd.toolResult)?.error) || "";
  return { text, isError };
}

/** A `function_call_result` item as a Claude user record with one `tool_result` block. */
function result(r: Obj, pd: Obj): { rec: Obj; exit?: number } {
  const { text, isError } = outputText(r, pd);
  const m = EXIT_LINE.exec(text);
  const exit = m ? num(m[1]) : undefined;
  const block = {
    type: "tool_result",
    tool_use_id: str(r.callId),
    is_error: isError || (exit !== undefined && exit !== 0),
    content: m ? text.slice(0, m.index) : text,
  };
  return { rec: { type: "user", uuid: str(r.id), message: { content: [block] } }, exit };
}

function read(
  r: Obj,
  time: number | undefined,
  st: FamilyState,
  f: FileFacts,
  skip: Skip,
): FamilyReading {
  const type = str(r.type) ?? "";
  const pd = obj(r.providerData) ?? {};
  const title = TITLES[type];
  if (title) {
    const text = title.fields.map((k) => str(r[k])).find((t) => t);
    return { title: text?.trim(), rank: title.rank };
  }
  if (QUIET.has(type)) return null;
  if (type === "summary") {
    const rec = summary(str(r.id), str(r.summary) ?? blockText(r.content));
    return claudeRecord(rec, time, st, f, skip);
  }
  if (type === "message") {
    const rec = message(r, pd);
    return rec ? claudeRecord(rec, time, st, f, skip) : null;
  }
  if (type === "function_call") return claudeRecord(call(r, pd), time, st, f, skip);
  if (type === "function_call_result" || type === "function_call_output") {
    const { rec, exit } = result(r, pd);
    const reading = claudeRecord(rec, time, st, f, skip);
    if (exit !== undefined && reading && "events" in reading) {
      for (const e of reading.events) if (e.result) e.result.exit = exit;
    }
    return reading;
  }
  return undefined;
}

/** The cwd a directory name encodes: `home-x-app` -> `/home/x/app` (lossy, like Claude's). */
function fallbackProject(f: FileFacts): string | undefined {
  return decodeProjectDir(f.encoded) ??
    (/^[A-Za-z0-9]/.test(f.encoded) ? `/${f.encoded.replaceAll("-", "/")}` : undefined);
}

/** CodeBuddy's differences from Claude Code's records. */
const CODEBUDDY_DIALECT: FamilyDialect = {
  harness: "codebuddy",
  read,
  // A subagent's records may carry its own id; its parent is the directory it sits in.
  ids: (r, f) => ({ sid: f.dirParent ?? str(r.sessionId), cwd: str(r.cwd) }),
  fallbackProject,
};

/**
 * CodeBuddy Code (Tencent, `codebuddy`) — JSONL of Responses-style items, kind "append".
 *
 * Store: `${DEJA_CODEBUDDY_ROOT:-${CODEBUDDY_CONFIG_DIR:-~/.codebuddy}/projects}/
 * <encoded-cwd>/<sessionId>.jsonl`, subagents in `<sessionId>/subagents/agent-<id>.jsonl`
 * (docs/registry/codebuddy.md; `CODEBUDDY_CONFIG_DIR`, `projects/` and `subagents/` confirmed in public
 * readers' tests via the search tool). The directory name is the cwd with `/`, `\` and `:` as
 * `-` and no leading dash.
 *
 * Records (one item per line, `timestamp` in epoch **ms**, `cwd` and `sessionId` on items;
 * field names confirmed in public CodeBuddy readers and their tests via the search tool):
 * - `message` `{id, role, content[{type:"input_text"|"output_text", text}] | string,
 *   status, providerData{messageId, model, skipRun, isMeta, isCompactInternal, isSummary,
 *   isCompacted, compactType, agent}}`;
 * - `function_call` `{id, callId, name, arguments: JSON string}`; tools keep Claude Code's
 *   names and keys (`Bash{command}`, `Read`, `Edit{file_path, old_string, new_string}`,
 *   `MultiEdit`, `Write`, `PowerShell`);
 * - `function_call_result` `{id, callId, name, status, output{type:"text", text} | string,
 *   providerData.toolResult}`; a shell result ends `Exit Code: N` (read as `exit`, then cut);
 *   `status:"incomplete"` marks an error;
 * - `summary` (compaction digest) -> summary; `custom-title` > `ai-title` > `topic` -> title;
 *   `reasoning`, `turn-metrics`, `file-history-snapshot`, `session-meta` ignored.
 * User items flagged in `providerData` as plumbing, and text items opening with the client's
 * tags (`<command-name>`, `<system-reminder>`, ...), are not prompts; a user item with
 * `providerData.isSummary` is the compaction summary.
 */
export const codebuddy: Parser = familyParser(
  CODEBUDDY_DIALECT,
  (env) =>
    rootFrom(env, "codebuddy", [["CODEBUDDY_CONFIG_DIR", "projects"]], "~/.codebuddy/projects"),
);
