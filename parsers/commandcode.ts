/**
 * Command Code (commandcode.ai, binary `cmd` / `cmdc`).
 *
 * Store: `${DEJA_COMMANDCODE_ROOT:-~/.commandcode/projects}/<encoded cwd>/<session>.jsonl`,
 * append-only. Beside each transcript sit `<session>.checkpoints.jsonl` (a
 * snapshot stream), `<session>.prompts.jsonl`, `<session>.meta.json` and
 * `<session>.v2.bak` (the pre-migration copy); only the transcript is read
 * (docs/registry/commandcode.md; vshulcz/deja-vu `internal/sources/commandcode.go`, which
 * cites the client's own `isSessionTranscriptFileName` in 1.73.4, read via the
 * search tool). No relocation variable of Command Code's own is known.
 *
 * Two generations, told apart per line by shape:
 * - v3 (1.73+): a header `{type: "session", version: 3, id, timestamp, cwd}`,
 *   then `{type: "message", id, parentId, timestamp, model?, message: {role,
 *   content, meta?}}` envelopes whose content is Anthropic blocks (`text`,
 *   `thinking`, `tool_use {id, name, input}`, `tool_result {tool_use_id,
 *   content}`), and `{type: "compaction", summary, firstKeptEntryId}` (the
 *   turns it summarised stay in the file). Lines as command-code 1.73.4 wrote
 *   them appear in deja-vu's `commandcode_test.go`; no real store seen here.
 * - v2: one flat `{role, content, timestamp, sessionId}` line per message. The
 *   client rewrites such a file to v3 in place when the session is next opened.
 * Timestamps are ISO strings (epoch numbers are read too).
 *
 * Mapping: session id = the header `id` (v2: `sessionId`; else the file
 * stem), project = the header `cwd` (the folder name is a lossy slug and is
 * not decoded); a resumed pass re-reads the first record, so its id and cwd
 * never change. User text -> user; a user message holding `tool_result` blocks
 * -> tool_result events (text beside them dropped); assistant text ->
 * assistant, `tool_use` -> tool_call, thinking dropped; `system` rows dropped;
 * any other role -> tool_result. Tools (deja-vu's reading of the 1.73-1.77
 * bundle): `shell_command` and `monitor_command {command, args[]}` and
 * `powershell {command}` -> command (args appended); `read_file {file_path |
 * paths[]}` and `read_multiple_files {paths}` -> paths (entries with `* ? [ {`
 * are globs and left out); `edit_file {file_path, old_string, new_string}` ->
 * edits; `write_file {file_path, content}` -> writes. A failed command's
 * result opens with `Exit code: N` (maybe ` (meaning)` after it) and has no
 * `is_error`: N becomes `exit`.
 *
 * @module
 */
import { basename } from "node:path";
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
import { headRecords, readJsonl } from "./_jsonl.ts";
import { walk } from "../core/fs.ts";
import { absolutePath, rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, type Obj, obj, str, withModel } from "./_util.ts";
import {
  assistantEvents,
  hasToolResult,
  toolCallInfo,
  toolResultEvent,
  type ToolVocabulary,
} from "./_message_blocks.ts";
import { commandOf } from "./_responses_items.ts";
import { newSession, spanTimes } from "./_session_meta.ts";

const ID = "commandcode";
const EXIT_RE = /^Exit code: (-?\d+)(?: \([^)]*\))?\s*(?:\n|$)/;
const GLOB_RE = /[*?[{]/;

/** True for a transcript, false for the streams and backups that share its folder. */
export function isTranscript(name: string): boolean {
  return name.endsWith(".jsonl") && !name.includes(".checkpoints.") &&
    !name.includes(".prompts.") &&
    !name.includes(".v2.bak");
}

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = rootFrom(env, ID, [], "~/.commandcode/projects");
  const sources: SourceRef[] = [];
  const match = (_p: string, name: string) => isTranscript(name);
  for await (const path of walk(root, { match, maxDepth: 1, onError: problem })) {
    sources.push({ harness: ID, path, kind: "append" });
  }
  return { roots: [root], sources };
}

/** Identity of a transcript, from its first record. */
interface Head {
  id?: string;
  cwd?: string;
  started?: number;
}

function headOf(r: Obj | undefined): Head {
  if (!r) return {};
  if (r.type === "session") {
    return { id: str(r.id), cwd: str(r.cwd), started: toMillis(r.timestamp) };
  }
  if (r.type === undefined && typeof r.role === "string") {
    return { id: str(r.sessionId), cwd: str(r.cwd) };
  }
  return {};
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const stem = basename(source.path).replace(/\.jsonl$/, "");
  let head: Head = { ...(obj(ctx.state) as Head | undefined) };
  if (ctx.offset > 0 && !head.id) head = headOf(obj((await headRecords(source.path, 1))[0]));
  const events: Event[] = [];
  let model: string | undefined;
  let first = ctx.offset === 0;
  for await (const line of readJsonl(source.path, ctx)) {
    const where = `${source.path}@${line.start}`;
    const r = obj(line.value);
    if (first) {
      head = headOf(r);
      first = false;
    }
    const type = r?.type;
    const time = toMillis(r?.timestamp);
    if (type === "session") continue;
    if (type === "compaction") {
      const text = str(r!.summary);
      if (text) events.push(stamp({ kind: "summary", text, key: `s:${line.start}` }, time));
      continue;
    }
    let msg: Obj | undefined;
    let base: string;
    if (type === "message") {
      msg = obj(r!.message);
      base = str(r!.id) ?? String(line.start);
      model = str(r!.model) ?? model;
    } else if (r && type === undefined && typeof r.role === "string") {
      msg = r;
      base = String(line.start);
    } else {
      ctx.skip(
        "unknown_record",
        where,
        typeof type === "string" ? `type ${type}` : "no type or role",
      );
      continue;
    }
    if (!msg || typeof msg.role !== "string") {
      ctx.skip("bad_shape", where, "message without role");
      continue;
    }
    // The reply's model: the record's `model` (a message record's).
    const evs = withModel(
      messageEvents(msg, base, head.cwd),
      type === "message" ? r!.model : undefined,
    );
    for (const e of evs) events.push(stamp(e, time));
  }
  ctx.endState = head;
  if (!events.length) return;
  const s = newSession(ID, head.id ?? stem, source.path, events, { project: head.cwd, model });
  yield spanTimes(s, ctx.offset === 0 ? head.started : undefined);
}

function stamp(e: Event, time: number | undefined): Event {
  if (time !== undefined && e.time === undefined) e.time = time;
  return e;
}

/** Command Code's tools: Claude's input keys under its own names (deja-vu, bundle 1.73-1.77). */
const TOOLS: ToolVocabulary = {
  shell: new Set(["shell_command", "monitor_command", "powershell"]),
  read: new Set(["read_file", "read_multiple_files"]),
  edit: new Set(["edit_file"]),
  multiEdit: new Set(),
  write: new Set(["write_file"]),
  old: ["old_string"],
  new: ["new_string"],
};

/** One message (v3 `message` or a v2 line) -> events. */
function messageEvents(msg: Obj, base: string, cwd: string | undefined): Event[] {
  const role = msg.role as string;
  const content = msg.content;
  if (role === "system" || role === "developer") return [];
  if (role === "user") {
    if (hasToolResult(content)) {
      return arr(content).map(obj).filter((b): b is Obj => b?.type === "tool_result").map(
        resultEvent,
      );
    }
    const text = blockText(content).trim();
    return text ? [{ kind: "user", text, key: `m:${base}` }] : [];
  }
  if (role === "assistant") {
    const out = assistantEvents(base, content, undefined, cwd, TOOLS);
    for (const e of out) {
      delete e.time;
      if (e.tool) addExtras(e.tool, cwd);
    }
    return out;
  }
  // Any other role is tool output (deja-vu reads the same).
  const callId = str(msg.tool_call_id) ?? str(msg.tool_use_id);
  const e = resultEvent({
    type: "tool_result",
    content,
    ...(callId ? { tool_use_id: callId } : {}),
  });
  if (!callId) e.key = `m:${base}`;
  return [e];
}

/** A `tool_result` block -> a tool_result event, `Exit code: N` read into `exit`. */
function resultEvent(block: Obj): Event {
  const e = toolResultEvent(block, undefined);
  delete e.time;
  const m = EXIT_RE.exec(e.text);
  if (m) e.result = { ...e.result, exit: Number(m[1]) };
  return e;
}

/** What Claude's shapes do not cover: a shell call's `args`, and `paths` lists (globs left out). */
function addExtras(tool: ToolCallInfo, cwd: string | undefined): void {
  const i = obj(tool.input) ?? {};
  const args = arr(i.args).filter((a): a is string => typeof a === "string");
  if (tool.command && args.length) tool.command = `${tool.command} ${commandOf(args)}`;
  const listed = arr(i.paths).filter((p): p is string => typeof p === "string" && !GLOB_RE.test(p));
  if (TOOLS.read.has(tool.name) && listed.length) {
    tool.paths = [...(tool.paths ?? []), ...listed.map((p) => absolutePath(p, cwd))];
  }
}

/** A `tool_use` block -> what the call means. */
export function toolCall(b: Obj, cwd: string | undefined): ToolCallInfo {
  const tool = toolCallInfo(b, cwd, TOOLS);
  addExtras(tool, cwd);
  return tool;
}

/** The Command Code parser. */
export const commandcode: Parser = { id: ID, discover, parse };
