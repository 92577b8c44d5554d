/**
 * VS Code chat session files: replaying the `.jsonl` mutation log into the
 * session state, and mapping that state (also the legacy whole-file `.json`)
 * to deja events. Private to `parsers/copilot_chat.ts`.
 *
 * Mutation log, confirmed in microsoft/vscode
 * `src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts` and
 * `chatSessionOperationLog.ts` (search tool): one JSON entry per line,
 * `{kind: 0, v}` the initial state (always first), `{kind: 1, k: path, v}`
 * set, `{kind: 2, k: path, v?: items, i?}` push (truncate the array at `i`
 * first, when given), `{kind: 3, k: path}` delete; path segments are keys or
 * array indices. After 1024 entries VS Code rewrites the file as a single
 * `kind: 0` line, so the file is a document, never resumed from an offset.
 *
 * State (`storageSchema` v3 there): `{version, sessionId, creationDate (ms),
 * customTitle, requests: [{requestId, timestamp (ms), message {text, parts},
 * modelId, response: parts[], result {metadata {toolCallRounds,
 * toolCallResults}}, modelState}], inputState, pendingRequests}`. Response
 * parts: markdown is serialised as a bare `{value}` (no `kind`); others carry
 * `kind`. `toolInvocationSerialized {toolId, toolCallId, isComplete,
 * resultDetails ({input, output[], isError} or a list of URIs),
 * toolSpecificData, subAgentInvocationId?}`; terminal calls have
 * `toolSpecificData {kind: "terminal", commandLine {original, userEdited?,
 * toolEdited?}, terminalCommandOutput {text}, terminalCommandState
 * {exitCode}}` (older: `{kind: "terminal", command}`); a subagent call has
 * `toolSpecificData {kind: "subagent", agentName, prompt, result}`
 * (vscode `chatService.ts`). `result.metadata.toolCallRounds[{response,
 * toolCalls[{id, name, arguments (JSON string)}]}]` and `toolCallResults{id:
 * {content[{value}]}}` are written by the Copilot Chat extension
 * (microsoft/vscode-copilot-chat `toolCallRound.ts`; shape of the serialised
 * form from docs/registry/copilot_chat.md). Tool ids in response parts are the extension's
 * contributed names (`copilot_readFile`), in tool-call rounds the model-facing
 * ones (`read_file`): vscode-copilot-chat `tools/common/toolNames.ts`.
 *
 * @module
 */
import type { EditSpan, Event, ParseCtx, ToolCallInfo, WriteSpan } from "../core/model.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";

import { toMillis } from "./_time.ts";
import { parsePatch } from "./_patch.ts";
import { absolutePath } from "../core/paths.ts";

/** Applies one mutation-log entry to `state`; returns the new state. Bad entries are counted. */
export function applyEntry(state: unknown, entry: unknown, where: string, ctx: ParseCtx): unknown {
  const e = obj(entry);
  const kind = e?.kind;
  if (!e || typeof kind !== "number") {
    ctx.skip("bad_shape", where, "entry without a numeric kind");
    return state;
  }
  if (kind === 0) return e.v;
  if (kind < 0 || kind > 3) {
    ctx.skip("unknown_record", where, `kind ${kind}`);
    return state;
  }
  if (state === undefined) {
    ctx.skip("unknown_record", where, "entry before the initial state");
    return state;
  }
  const path = arr(e.k).filter((s): s is string | number =>
    typeof s === "string" || typeof s === "number"
  );
  if (path.length === 0) return kind === 1 ? e.v : state;
  let cur: unknown = state;
  for (const seg of path.slice(0, -1)) {
    cur = (cur as Record<string | number, unknown> | undefined)?.[seg];
    if (cur === null || typeof cur !== "object") {
      ctx.skip("bad_shape", where, `path ${path.join(".")} does not exist`);
      return state;
    }
  }
  const target = cur as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (kind === 1) target[last] = e.v;
  else if (kind === 3) delete target[last];
  else {
    const list = Array.isArray(target[last]) ? target[last] as unknown[] : [];
    const i = num(e.i);
    if (i !== undefined) list.length = Math.max(0, Math.min(list.length, i));
    if (Array.isArray(e.v)) list.push(...e.v);
    target[last] = list;
  }
  return state;
}

/** Contributed tool ids -> the model-facing names used below. */
const CONTRIBUTED: Readonly<Record<string, string>> = {
  copilot_applyPatch: "apply_patch",
  copilot_readFile: "read_file",
  copilot_listDirectory: "list_dir",
  copilot_insertEdit: "insert_edit_into_file",
  copilot_createFile: "create_file",
  copilot_replaceString: "replace_string_in_file",
  copilot_multiReplaceString: "multi_replace_string_in_file",
  copilot_findFiles: "file_search",
  copilot_findTextInFiles: "grep_search",
};

/** Response part kinds that carry nothing to index. */
const QUIET_KINDS: ReadonlySet<string> = new Set([
  "thinking",
  "progressMessage",
  "progressTask",
  "progressTaskSerialized",
  "warning",
  "info",
  "undoStop",
  "mcpServersStarting",
  "codeblockUri",
  "textEditGroup",
  "notebookEditGroup",
  "workspaceEdit",
  "multiDiffData",
  "externalEdits",
  "externalEdit",
  "confirmation",
  "elicitationSerialized",
  "questionCarousel",
  "hook",
  "disabledClaudeHooks",
  "treeData",
  "command",
  "extensions",
  "pullRequest",
  "clearToPreviousToolInvocation",
  "reference",
  "codeCitation",
  "usage",
  "autoModeResolution",
  "systemNotification",
  "voiceProgress",
]);

/** Events of one chat session, split by owner: `""` for the session itself, else a subagent invocation id. */
export interface ChatEvents {
  byOwner: Map<string, Event[]>;
  /** Subagent invocation id -> its title (agent name or description). */
  subTitles: Map<string, string>;
  model?: string;
  /** Epoch ms of the last request. */
  last?: number;
}

/** Maps a session state's requests to events. */
export function chatEvents(
  state: Obj,
  project: string | undefined,
  where: string,
  ctx: ParseCtx,
): ChatEvents {
  const out: ChatEvents = { byOwner: new Map([["", []]]), subTitles: new Map() };
  const own = (owner: string) => {
    let list = out.byOwner.get(owner);
    if (!list) out.byOwner.set(owner, list = []);
    return list;
  };
  arr(state.requests).forEach((raw, n) => {
    const req = obj(raw);
    if (!req) return;
    const time = toMillis(req.timestamp);
    if (time !== undefined) out.last = Math.max(out.last ?? 0, time);
    out.model ??= str(req.modelId);
    const msg = obj(req.message);
    const text = str(msg?.text) ??
      arr(msg?.parts).map((p) => str(obj(p)?.text) ?? "").join("");
    if (text.trim()) own("").push(at({ kind: "user", text: text.trim() }, time));
    const meta = obj(obj(req.result)?.metadata);
    const calls = roundCalls(meta);
    const results = obj(meta?.toolCallResults);
    let prose = "";
    // The reply's model: the request's `modelId` (a subagent's own events are left unmarked).
    const mark = (evs: Event[]) => withModel(evs, req.modelId);
    const flush = () => {
      if (prose.trim()) {
        own("").push(...mark([at({ kind: "assistant", text: prose.trim() }, time)]));
      }
      prose = "";
    };
    for (const p of arr(req.response)) {
      const part = obj(p);
      if (!part) continue;
      const kind = str(part.kind);
      if (kind === undefined || kind === "markdownContent" || kind === "markdownVuln") {
        const v = str(part.value) ?? str(obj(part.content)?.value);
        if (v !== undefined) prose += v;
        continue;
      }
      if (kind === "inlineReference") {
        // A file or symbol link inside the prose: keep its name in the text.
        const ref = obj(part.inlineReference);
        const name = str(part.name) ?? str(ref?.name) ??
          str(ref?.path)?.split("/").pop() ?? str(obj(ref?.uri)?.path)?.split("/").pop();
        if (name) prose += name;
        continue;
      }
      if (kind === "toolInvocationSerialized") {
        flush();
        const sub = str(part.subAgentInvocationId) ??
          (part.fromSubAgent === true ? "subagent" : undefined);
        const events = toolEvents(part, calls, results, project, time);
        own(sub ?? "").push(...(sub ? events : mark(events)));
        const tsd = obj(part.toolSpecificData);
        const callId = str(part.toolCallId);
        if (tsd?.kind === "subagent" && callId) {
          const title = str(tsd.description) ?? str(tsd.agentDisplayName) ?? str(tsd.agentName);
          if (title) out.subTitles.set(callId, title);
        }
      } else if (!QUIET_KINDS.has(kind)) {
        ctx.skip("unknown_record", `${where} request ${n}`, `response part ${kind}`);
      }
    }
    flush();
  });
  return out;
}

/** Tool calls of the extension's tool-call rounds, by call id. */
function roundCalls(meta: Obj | undefined): Map<string, { name?: string; args: unknown }> {
  const out = new Map<string, { name?: string; args: unknown }>();
  for (const round of arr(meta?.toolCallRounds)) {
    for (const c of arr(obj(round)?.toolCalls)) {
      const o = obj(c);
      const id = str(o?.id);
      if (o && id) out.set(id, { name: str(o.name), args: decodeArgs(o.arguments) });
    }
  }
  return out;
}

function toolEvents(
  part: Obj,
  calls: Map<string, { name?: string; args: unknown }>,
  results: Obj | undefined,
  project: string | undefined,
  time: number | undefined,
): Event[] {
  const toolId = str(part.toolId) ?? "unknown";
  const callId = str(part.toolCallId);
  const round = callId ? calls.get(callId) : undefined;
  const tsd = obj(part.toolSpecificData);
  const details = obj(part.resultDetails);
  const input = round?.args ??
    (tsd?.kind === "input" ? tsd.rawInput : undefined) ??
    (details ? decodeArgs(details.input) : undefined) ??
    (tsd?.kind === "subagent" ? { prompt: tsd.prompt, agentName: tsd.agentName } : undefined);
  const info: ToolCallInfo = { name: toolId };
  if (callId) info.id = callId;
  if (input !== undefined) info.input = input;
  describe(info, CONTRIBUTED[toolId] ?? round?.name ?? toolId, obj(input) ?? {}, tsd, project);
  const out: Event[] = [at({ kind: "tool_call", text: "", tool: info }, time)];
  if (part.isComplete === false) return out;
  const failed = part.resultError !== undefined && part.resultError !== null;
  const res: Event["result"] = { isError: details?.isError === true || failed };
  if (callId) res.callId = callId;
  const exit = num(obj(tsd?.terminalCommandState)?.exitCode);
  if (exit !== undefined) res.exit = Math.trunc(exit);
  const text = resultText(part, tsd, details, callId ? obj(results?.[callId]) : undefined);
  out.push(at({ kind: "tool_result", text, result: res }, time));
  return out;
}

/**
 * Sets `command`, `paths`, `edits`, `writes` for Copilot's built-in tools.
 * `list_dir` names a directory listed, not a file read: it keeps its input only.
 */
function describe(
  info: ToolCallInfo,
  name: string,
  i: Obj,
  tsd: Obj | undefined,
  project: string | undefined,
): void {
  const abs = (p: string) => absolutePath(p, project);
  const file = str(i.filePath) ?? str(i.path);
  switch (name) {
    case "run_in_terminal":
    case "copilot_runInTerminal": {
      const line = obj(tsd?.commandLine);
      const cmd = str(line?.userEdited) ?? str(line?.toolEdited) ?? str(line?.original) ??
        str(tsd?.command) ?? str(i.command);
      if (cmd) info.command = cmd;
      break;
    }
    case "read_file":
    case "insert_edit_into_file":
      if (file) info.paths = [abs(file)];
      break;
    case "replace_string_in_file": {
      const span = editSpan(i, file, abs);
      if (span) info.edits = [span];
      break;
    }
    case "multi_replace_string_in_file": {
      const edits = arr(i.replacements).map((r) => {
        const o = obj(r) ?? {};
        return editSpan(o, str(o.filePath) ?? file, abs);
      }).filter((e): e is EditSpan => e !== undefined);
      if (edits.length) info.edits = edits;
      break;
    }
    case "create_file":
      if (file && typeof i.content === "string") {
        info.writes = [{ path: abs(file), content: i.content }];
      }
      break;
    case "apply_patch": {
      const text = str(i.input) ?? str(i.patch);
      if (!text) break;
      const fx = parsePatch(text, project);
      if (fx.edits.length) info.edits = fx.edits;
      if (fx.writes.length) info.writes = fx.writes as WriteSpan[];
      break;
    }
  }
}

function editSpan(
  o: Obj,
  file: string | undefined,
  abs: (p: string) => string,
): EditSpan | undefined {
  if (!file || typeof o.oldString !== "string" || typeof o.newString !== "string") return undefined;
  return { path: abs(file), old: o.oldString, new: o.newString };
}

/** Terminal output, else the extension's recorded result, else the part's own output, else its past-tense message. */
function resultText(
  part: Obj,
  tsd: Obj | undefined,
  details: Obj | undefined,
  rec: Obj | undefined,
): string {
  const term = str(obj(tsd?.terminalCommandOutput)?.text);
  if (term !== undefined) return term;
  if (tsd?.kind === "subagent" && str(tsd.result)) return str(tsd.result)!;
  const fromRec = arr(rec?.content).map((c) => str(obj(c)?.value) ?? "").filter((s) => s).join(
    "\n",
  );
  if (fromRec) return fromRec;
  const fromDetails = arr(details?.output).map((o) => str(obj(o)?.value) ?? "").filter((s) => s)
    .join("\n");
  if (fromDetails) return fromDetails;
  const past = part.pastTenseMessage ?? part.invocationMessage;
  return str(past) ?? str(obj(past)?.value) ?? "";
}

function at(e: Event, time: number | undefined): Event {
  if (time !== undefined) e.time = time;
  return e;
}
