/**
 * Private helpers of the DeepSeek Harness parser ({@link ../parsers/deepseek.ts}):
 * folding the records of one session log into events.
 *
 * Records are `{type, seq, time (epoch ms), data}`; packed delta runs are
 * `{type: "text-chunks" | "reasoning-chunks" | "tool-call-chunks", seq0,
 * time0, data: {turn, step, index, dt[], texts[] | args[]}}` (deepseek-harness
 * `session-persistence-jsonl/src/format.ts`, `known-event-types.ts`, and
 * tests of the persistence package, read via the search tool). Used here:
 * - `user/message {source: {kind}, content[]}`: only `source.kind == "user"`
 *   is a person; `plugin`, `system`, `skill-catalog` and a missing source
 *   are the harness speaking (docs/registry/deepseek.md; plugin and system seen in
 *   source excerpts).
 * - `assistant/chunk {turn, step, chunk: {type: "text-delta", text}}` and
 *   `text-chunks`: streamed pieces of an answer that `assistant/message
 *   {turn, step, message: {content[]}}` later writes whole. The pieces are
 *   kept as pending text per turn and step and become an assistant event
 *   only when no whole message follows (an interrupted answer); both carry
 *   the key `a:<turn>:<step>`, so the whole message replaces the pieces
 *   wherever they were flushed, in this pass or an earlier one. Format v2
 *   (dsh 0.1.3) stopped writing chunk events and embeds a `stream` in the
 *   message instead; that stream is not read (the content is the same).
 * - `tool/call {callId, name, arguments (JSON string)}`; `tool/result
 *   {message: {source: {kind: "tool", callId}, content: [{type:
 *   "tool-result", toolCallId, content[], isError}]}, error}`.
 * - `session/title {title}`, `compaction/summary`, `model/selection {model}`.
 * Every other type of the harness's known-event list is bookkeeping; a type
 * outside it is counted `unknown_record` unless the record says
 * `ignorable: true` (the harness's own compatibility marker).
 *
 * @module
 */
import type { Event, ParseCtx, ToolCallInfo, ToolResultInfo } from "../core/model.ts";
import { arr, decodeArgs, num, type Obj, obj, str, withModel } from "./_util.ts";
import { describeTool, type ToolKind } from "./_tool_args.ts";

const KINDS: Record<string, ToolKind> = {
  bash: "shell",
  pwsh: "shell",
  powershell: "shell",
  shell: "shell",
  read: "read",
  write: "write",
  edit: "edit",
  multiedit: "edit",
  multi_edit: "edit",
};

/** Types written by the harness that carry nothing deja indexes. */
const BOOKKEEPING = new Set([
  "agent-preset/selected",
  "agent/inbox/spliced",
  "approval/asked",
  "approval/decided",
  "approval/policy",
  "assistant/attempt",
  "command/done",
  "command/run",
  "compaction/end",
  "compaction/prune",
  "compaction/start",
  "deliverables/presented",
  "feedback/message-delete",
  "feedback/message-put",
  "feedback/record",
  "goal/change",
  "hook/invoked",
  "hook/result",
  "image/offload",
  "llm/retry",
  "llm/retry-started",
  "model/auto-selection",
  "model/delegation-auto",
  "model/routing-decision",
  "model/routing-request",
  "model/routing-result",
  "permission/preset",
  "plan/mode",
  "request/header",
  "sandbox/mode",
  "schedule/change",
  "session-log-deepseek/delivery-accepted",
  "session/end-seed",
  "session/title-llm-request",
  "step/start",
  "subagent/catalog",
  "subagent/descriptor",
  "subagent/model-selection",
  "subagent/model-selection-policy",
  "system/message",
  "team/member",
  "team/message/delivered",
  "team/message/queued",
  "team/task",
  "todo/write",
  "tool-workflow/agent-end",
  "tool-workflow/agent-start",
  "tool-workflow/run-end",
  "tool-workflow/run-start",
  "tool/ptc-dispatch",
  "tool/ptc-dispatch-start",
  "turn/start",
  "web/deepseek-search-llm-request",
  "reasoning-chunks",
  "tool-call-chunks",
]);

/** Text of the `text` blocks of a content list (blocks without a type count as text). */
export function textBlocks(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content).map(obj)
    .map((
      b,
    ) => (b && (b.type === "text" || b.type === undefined) && typeof b.text === "string"
      ? b.text
      : "")
    )
    .filter(Boolean).join("\n");
}

/** Folds the records of one session, in order, into events. */
export class DshFolder {
  readonly events: Event[] = [];
  title?: string;
  model?: string;
  /** Newest record time (epoch ms). */
  last?: number;
  private readonly at = new Map<string, number>();
  private readonly pending = new Map<string, { text: string; time?: number; slot: number }>();

  constructor(
    private readonly project: string | undefined,
    private readonly skip: ParseCtx["skip"],
  ) {}

  /**
   * Adds `e` (at `slot` when given, else at the end), replacing an earlier
   * event with the same key in place.
   */
  private push(e: Event, slot?: number): void {
    // The model of the reply: the last `model/selection`, `request/context` or message source.
    withModel([e], this.model);
    const i = e.key === undefined ? undefined : this.at.get(e.key);
    if (i !== undefined) {
      this.events[i] = e;
      return;
    }
    const at = slot ?? this.events.length;
    if (at < this.events.length) {
      for (const [k, j] of this.at) if (j >= at) this.at.set(k, j + 1);
      for (const p of this.pending.values()) if (p.slot >= at) p.slot++;
    }
    if (e.key !== undefined) this.at.set(e.key, at);
    this.events.splice(at, 0, e);
  }

  /**
   * Pending streamed text becomes assistant events (keys `a:<turn>:<step>`),
   * placed where their first piece arrived.
   */
  flush(): void {
    const all = [...this.pending];
    this.pending.clear();
    for (const [key, p] of all) {
      if (p.text.trim()) {
        this.push({ kind: "assistant", text: p.text.trim(), time: p.time, key }, p.slot);
      }
    }
  }

  private stream(data: Obj, text: string, time: number | undefined): void {
    const key = stepKey(data);
    if (!key || !text) return;
    const p = this.pending.get(key) ?? { text: "", slot: this.events.length };
    p.text += text;
    p.time = time ?? p.time;
    this.pending.set(key, p);
  }

  /** Folds one record; `where` names it in skip reports. */
  add(rec: Obj, where: string): void {
    const type = str(rec.type) ?? "";
    const data = obj(rec.data) ?? {};
    const time = num(rec.time) ?? num(rec.time0);
    if (time !== undefined) this.last = Math.max(this.last ?? 0, time);
    const own = num(rec.seq) !== undefined ? `s${rec.seq}` : where;
    switch (type) {
      case "session":
        return; // the header, handled by the caller
      case "session/title":
        this.title = str(data.title) ?? this.title;
        return;
      case "model/selection":
      case "request/context":
        this.model = str(data.model) ?? this.model;
        return;
      case "assistant/chunk": {
        const chunk = obj(data.chunk);
        if (chunk?.type === "text-delta" && typeof chunk.text === "string") {
          this.stream(data, chunk.text, time);
        }
        return;
      }
      case "text-chunks": {
        const dt = arr(data.dt).reduce<number>((s, d) => s + (num(d) ?? 0), 0);
        const texts = arr(data.texts).filter((t): t is string => typeof t === "string");
        this.stream(data, texts.join(""), time === undefined ? undefined : time + dt);
        return;
      }
      case "user/message": {
        const source = obj(data.source) ?? obj(obj(data.message)?.source);
        if (source?.kind !== "user") return; // harness-injected context
        const text = textBlocks(data.content ?? obj(data.message)?.content);
        if (!text.trim()) return;
        this.flush();
        this.push({ kind: "user", text, time, key: own });
        return;
      }
      case "assistant/message": {
        const message = obj(data.message) ?? {};
        this.model = str(obj(message.source)?.model) ?? this.model;
        const key = stepKey(data) ?? own;
        const slot = this.pending.get(key)?.slot;
        this.pending.delete(key);
        const text = textBlocks(message.content).trim();
        if (text) this.push({ kind: "assistant", text, time, key }, slot);
        return;
      }
      case "tool/call": {
        const name = str(data.name);
        if (!name) {
          this.skip("bad_shape", where, "tool/call without a name");
          return;
        }
        const input = decodeArgs(data.arguments);
        const tool: ToolCallInfo = { name, id: str(data.callId), input };
        const a = obj(input);
        if (a && KINDS[name]) describeTool(tool, KINDS[name], a, this.project);
        this.push({ kind: "tool_call", text: "", tool, time, key: tool.id ? `c:${tool.id}` : own });
        return;
      }
      case "tool/result": {
        this.flush();
        const message = obj(data.message) ?? {};
        const block = arr(message.content).map(obj).find((b) => b?.type === "tool-result");
        const callId = str(obj(message.source)?.callId) ?? str(block?.toolCallId) ??
          str(message.toolCallId);
        const error = data.error;
        let text = block ? textBlocks(block.content) : textBlocks(message.content);
        if (!text && error !== undefined) text = str(obj(error)?.message) ?? String(error);
        const result: ToolResultInfo = {
          callId,
          isError: error !== undefined || block?.isError === true || message.isError === true,
        };
        this.push({ kind: "tool_result", text, result, time, key: callId ? `r:${callId}` : own });
        return;
      }
      case "compaction/summary": {
        const text = str(data.summary) ?? (textBlocks(data.content) || str(data.text));
        if (text?.trim()) this.push({ kind: "summary", text: text.trim(), time, key: own });
        return;
      }
      case "step/end":
      case "turn/end":
        this.flush();
        return;
      default:
        if (!BOOKKEEPING.has(type) && rec.ignorable !== true) {
          this.skip("unknown_record", where, `type ${type || "(none)"}`);
        }
    }
  }
}

/** `a:<turn>:<step>` for a record with numeric turn and step, else undefined. */
function stepKey(data: Obj): string | undefined {
  const turn = num(data.turn);
  const step = num(data.step);
  return turn === undefined || step === undefined ? undefined : `a:${turn}:${step}`;
}
