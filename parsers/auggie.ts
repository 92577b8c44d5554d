/**
 * Auggie, Augment Code's CLI (`@augmentcode/auggie`).
 *
 * Store: `${DEJA_AUGGIE_ROOT:-~/.augment/sessions}/<sessionId>.json`, one JSON
 * document per session rewritten whole (a `document` source). Beside it,
 * `~/.augment/task-storage/` and `.auggie.json` hold no transcript and are not
 * read. Observed in realdata/farm/auggie (auggie 0.36.0); docs/registry/auggie.md
 *
 * Document: `{sessionId, created, modified (ISO 8601), title?, chatHistory[],
 * agentState{modelId, …}, rootTaskUuid, …}`. Each `chatHistory[]` item is
 * `{exchange, completed, sequenceId, finishedAt (ISO), changedFiles, …}` with
 * `exchange = {request_message, response_text, request_id, request_nodes[],
 * response_nodes[]}` (farm):
 * - request node `type:0` `text_node{content}` (what the person typed, also in
 *   `request_message`), `type:1` `tool_result_node{tool_use_id, content,
 *   is_error, start_time_ms, duration_ms}` (the previous exchange's results),
 *   `type:4` `ide_state_node{workspace_folders[{folder_root, repository_root}],
 *   current_terminal{current_working_directory}}`;
 * - response node `type:0` text, `type:5` `tool_use{tool_use_id, tool_name,
 *   input_json (a JSON string), started_at_ms}`; every node has `timestamp_ms`.
 *
 * Mapping: user = `request_message` (else the text nodes), assistant =
 * `response_text`, tool_call per `type:5` node, tool_result per `type:1` node.
 * Other node types are counted `unknown_record` (drift shows). project = the
 * first workspace folder's `folder_root` (else `repository_root`, else the
 * terminal's cwd). Times: node `timestamp_ms` (ms); the user turn takes its
 * exchange's first node time, else `finishedAt`; a result takes `start_time_ms
 * + duration_ms`. `created` / `modified` bound the session.
 *
 * Tools (farm; Augment's hook docs for the others, read via the search tool):
 * `launch-process {command, cwd}` -> command, its result framed as `Here are the
 * results from executing the command.\n<return-code>\nN\n</return-code>\n<output>
 * \n…\n</output>`: N becomes `exit`, the output the text; `apply_patch {input}`
 * (`*** Begin Patch`) -> edits; `str-replace-editor {path, old_str_1, new_str_1,
 * old_str_2, …}` -> one span per numbered pair; `save-file {path, file_content}`
 * -> writes; `view {path}` -> paths; `remove-files {file_paths}` -> paths.
 *
 * @module
 */
import { basename } from "node:path";
import type {
  DiscoverCtx,
  Discovery,
  EditSpan,
  Event,
  ParseCtx,
  Parser,
  Session,
  SourceRef,
  ToolCallInfo,
} from "../core/model.ts";
import { listFiles } from "../core/fs.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { rootFrom } from "../core/paths.ts";
import { toMillis } from "./_time.ts";
import { arr, num, type Obj, obj, str } from "./_util.ts";
import { newSession, spanTimes } from "./_session_meta.ts";
import { callInfo, type CallKind } from "./_call_info.ts";
import { resolveIn } from "./_responses_items.ts";

const ID = "auggie";

/** Augment's tools by what they do. */
const KINDS: Readonly<Record<string, CallKind>> = {
  "launch-process": "shell",
  "apply_patch": "patch",
  "save-file": "write",
  "view": "read",
};

/** `launch-process` result framing. */
const FRAMED =
  /^(?:Here are the results from executing the command\.\s*)?<return-code>\s*(-?\d+)\s*<\/return-code>\s*(?:<output>\n?([\s\S]*?)\n?<\/output>)?\s*$/;

async function discover({ env, problem }: DiscoverCtx): Promise<Discovery> {
  const root = rootFrom(env, ID, [], "~/.augment/sessions");
  const match = (_p: string, name: string) => name.endsWith(".json");
  const files = await listFiles(root, { match, maxDepth: 0, onError: problem });
  return {
    roots: [root],
    sources: files.map((path) => ({ harness: ID, path, kind: "document" as const })),
  };
}

/** `file_content` of save-file, the numbered spans of str-replace-editor, remove-files' paths. */
function augmentExtras(tool: ToolCallInfo, base: string | undefined): void {
  const a = obj(tool.input);
  if (!a) return;
  if (tool.name === "remove-files") {
    const list = arr(a.file_paths).map(str).filter((x): x is string => !!x);
    if (list.length) tool.paths = list.map((x) => resolveIn(base, x));
    return;
  }
  const p = str(a.path);
  if (!p) return;
  const path = resolveIn(base, p);
  if (tool.name === "save-file" && typeof a.file_content === "string") {
    tool.writes = [{ path, content: a.file_content }];
  } else if (tool.name === "str-replace-editor") {
    const edits: EditSpan[] = [];
    for (let n = 1; n < 1000; n++) {
      const old = a[`old_str_${n}`];
      const neu = a[`new_str_${n}`];
      if (old === undefined && neu === undefined) break;
      edits.push({
        path,
        old: typeof old === "string" ? old : "",
        new: typeof neu === "string" ? neu : "",
      });
    }
    if (edits.length) tool.edits = edits;
    else tool.paths = [path];
  }
}

function toolCall(node: Obj, base: string | undefined): Event | undefined {
  const use = obj(node.tool_use);
  const name = str(use?.tool_name);
  if (!use || !name) return undefined;
  const cwd = str(obj(decodeSafe(use.input_json))?.cwd) ?? base;
  const tool = callInfo(name, str(use.tool_use_id), use.input_json, KINDS, cwd);
  augmentExtras(tool, cwd);
  const time = num(node.timestamp_ms) ?? num(use.started_at_ms);
  return { kind: "tool_call", text: "", tool, ...(time ? { time } : {}) };
}

function decodeSafe(v: unknown): unknown {
  try {
    return typeof v === "string" ? JSON.parse(v) : v;
  } catch {
    return undefined;
  }
}

function toolResult(node: Obj): Event | undefined {
  const r = obj(node.tool_result_node);
  if (!r) return undefined;
  const content = str(r.content) ?? "";
  const framed = FRAMED.exec(content);
  const result: Event["result"] = { isError: r.is_error === true };
  const callId = str(r.tool_use_id);
  if (callId) result.callId = callId;
  if (framed) result.exit = Number(framed[1]);
  const start = num(r.start_time_ms);
  const time = start !== undefined ? start + (num(r.duration_ms) ?? 0) : undefined;
  const text = (framed ? framed[2] ?? "" : content).trimEnd();
  return { kind: "tool_result", text, result, ...(time ? { time } : {}) };
}

/** The project folder an `ide_state_node` names. */
function workspaceOf(node: Obj): string | undefined {
  const ide = obj(node.ide_state_node);
  const first = obj(arr(ide?.workspace_folders)[0]);
  return str(first?.folder_root) ?? str(first?.repository_root) ??
    str(obj(ide?.current_terminal)?.current_working_directory);
}

async function* parse(source: SourceRef, ctx: ParseCtx): AsyncGenerator<Session> {
  const doc = obj(await readJsonDocument(source.path, source.path, ctx));
  if (!doc) return;
  if (!Array.isArray(doc.chatHistory)) {
    ctx.skip("unknown_record", source.path, "not an Auggie session (no chatHistory list)");
    return;
  }
  let project: string | undefined;
  for (const it of doc.chatHistory) {
    for (const n of arr(obj(obj(it)?.exchange)?.request_nodes).map(obj)) {
      if (n?.type === 4) project ??= workspaceOf(n);
    }
  }
  const events: Event[] = [];
  doc.chatHistory.forEach((it, i) => {
    const where = `${source.path}#chatHistory[${i}]`;
    const ex = obj(obj(it)?.exchange);
    if (!ex) {
      ctx.skip("bad_shape", where, "item without exchange");
      return;
    }
    const responses = arr(ex.response_nodes).map(obj).filter((n): n is Obj => !!n);
    const firstTime = responses.map((n) => num(n.timestamp_ms)).find((t) => t !== undefined) ??
      toMillis(obj(it)?.finishedAt);
    const typed: string[] = [];
    for (const n of arr(ex.request_nodes).map(obj)) {
      if (n?.type === 1) {
        const e = toolResult(n);
        if (e) events.push(e);
      } else if (n?.type === 0) {
        const t = str(obj(n.text_node)?.content);
        if (t) typed.push(t);
      } else if (n?.type !== 4) {
        ctx.skip("unknown_record", where, `request node type ${String(n?.type)}`);
      }
    }
    const user = (str(ex.request_message) ?? typed.join("\n")).trim();
    if (user) events.push({ kind: "user", text: user, ...(firstTime ? { time: firstTime } : {}) });
    const said = str(ex.response_text)?.trim();
    if (said) {
      events.push({ kind: "assistant", text: said, ...(firstTime ? { time: firstTime } : {}) });
    }
    for (const n of responses) {
      if (n.type === 5) {
        const e = toolCall(n, project);
        if (e) events.push(e);
        else ctx.skip("bad_shape", where, "tool_use node without tool_use");
      } else if (n.type !== 0) {
        ctx.skip("unknown_record", where, `response node type ${String(n.type)}`);
      }
    }
  });
  if (!events.length) return;
  const id = str(doc.sessionId) ?? basename(source.path, ".json");
  const s = newSession(ID, id, source.path, events, {
    project,
    title: str(doc.title),
    model: str(obj(doc.agentState)?.modelId),
  });
  yield spanTimes(s, toMillis(doc.created), toMillis(doc.modified));
}

/** The Auggie parser. */
export const auggie: Parser = { id: ID, discover, parse };
