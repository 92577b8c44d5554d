/**
 * pi-family session entries -> deja events. One reader for every pi-lineage
 * store, whatever carries the entries (JSONL lines for pi, omp, prime, senpi,
 * gjc, kimchi and old OpenClaw builds; `transcript_events` rows for newer
 * OpenClaw builds).
 *
 * Entry shapes (badlogic/pi-mono `core/session-manager.ts` and `core/messages.ts`,
 * can1357/oh-my-pi `session/session-entries.ts`, read via the search tool; confirmed
 * on realdata/farm pi 0.73.1, omp 18.2.3 and openclaw 2026.9.6):
 * - header `{type:"session", version, id, timestamp (ISO), cwd}`; omp may add `title`,
 *   prime `parentSession` + `rlmDepth` (docs/registry/prime.md, notes only).
 * - `{type:"message", id, parentId, timestamp (ISO), message:{role, content, timestamp
 *   (epoch ms)}}`; roles `user`, `assistant`, `toolResult`, `bashExecution` (a `!`
 *   command typed by the person: `command`, `output`, `exitCode`), `custom`
 *   (extension-injected context), omp `developer`.
 * - `compaction` / `branch_summary` `{summary}`; `model_change` `{provider, modelId}`
 *   (pi, openclaw) or `{model:"provider/id"}` (omp); `session_info {name}`; omp's
 *   fixed-width first-line `title` slot and `title_change {title}`.
 *
 * @module
 */
import type { Event, SkipReason } from "../core/model.ts";
import { toMillis } from "./_time.ts";
import { arr, blockText, num, type Obj, obj, str, withModel } from "./_util.ts";
import { piToolCall, piToolResult } from "./_pi_tools.ts";

/** What a session knows about itself beyond its events (JSON: it is saved between passes). */
export interface PiMeta {
  id?: string;
  cwd?: string;
  title?: string;
  model?: string;
  /** Epoch ms of the header. */
  started?: number;
  /** Parent session id, for a spawned child. */
  parent?: string;
}

/** Entry types the family writes that carry nothing to index (counted nowhere). */
const QUIET = new Set([
  "thinking_level_change",
  "service_tier_change",
  "custom",
  "custom_message",
  "label",
  "archive",
  "model_usage",
  "ttsr_injection",
  "session_init",
  "mode_change",
  "credential_pin",
  "reset_boundary",
]);

/** Message roles that are harness-authored context, never a person's words. */
const QUIET_ROLES = new Set(["custom", "hookMessage", "developer", "system"]);

/** Folds a `session` header (and omp's header `title`) into `meta`; the first header wins. */
export function applyHeader(meta: PiMeta, rec: Obj): void {
  if (!meta.id) {
    const id = str(rec.id);
    if (id) meta.id = id;
  }
  meta.cwd ??= str(rec.cwd);
  meta.started ??= toMillis(rec.timestamp);
  meta.title ??= str(rec.title);
  const depth = num(rec.rlmDepth);
  const parent = str(rec.parentSession);
  if (parent && depth !== undefined && depth > 0) meta.parent ??= parent;
}

/** Reads entries in order into events; skips are counted through `skip`. */
export class PiReader {
  readonly events: Event[] = [];
  /** Epoch ms of the newest event. */
  updated?: number;

  constructor(
    readonly meta: PiMeta,
    private readonly skip: (reason: SkipReason, where: string, detail?: string) => void,
  ) {}

  /** Reads one entry. */
  record(value: unknown, where: string): void {
    const rec = obj(value);
    if (!rec) return this.skip("bad_shape", where, "entry is not an object");
    const type = str(rec.type) ?? "";
    switch (type) {
      case "session":
        return applyHeader(this.meta, rec);
      case "message":
        return this.message(rec, where);
      case "compaction":
      case "branch_summary": {
        const text = str(rec.summary) ?? str(rec.shortSummary);
        if (text) this.push({ kind: "summary", text }, rec, "");
        return;
      }
      case "model_change":
        this.meta.model = str(rec.modelId) ?? str(rec.model) ?? this.meta.model;
        return;
      case "session_info":
      case "title":
      case "title_change": {
        const t = str(rec.name) ?? str(rec.title);
        if (t?.trim()) this.meta.title = t.trim();
        return;
      }
      default:
        if (!QUIET.has(type)) this.skip("unknown_record", where, `type ${type || "(none)"}`);
    }
  }

  private push(ev: Event, rec: Obj, part: string, msg?: Obj): void {
    const time = toMillis(rec.timestamp) ?? toMillis(msg?.timestamp);
    if (time !== undefined) {
      ev.time = time;
      if (this.updated === undefined || time > this.updated) this.updated = time;
    }
    const id = str(rec.id);
    if (id) ev.key = part ? `${id}#${part}` : id;
    // A reply's model: its message's `model`, else the last `model_change`.
    if (msg?.role === "assistant") withModel([ev], this.meta.model);
    this.events.push(ev);
  }

  private message(rec: Obj, where: string): void {
    const msg = obj(rec.message);
    const role = str(msg?.role);
    if (!msg || !role) return this.skip("bad_shape", where, "message without a role");
    const cwd = this.meta.cwd;
    switch (role) {
      case "user": {
        const text = blockText(msg.content).trim();
        if (text) this.push({ kind: "user", text }, rec, "", msg);
        return;
      }
      case "assistant": {
        this.meta.model = str(msg.model) ?? this.meta.model;
        const text = blockText(msg.content).trim();
        if (text) this.push({ kind: "assistant", text }, rec, "text", msg);
        arr(msg.content).forEach((b, i) => {
          const o = obj(b);
          if (o?.type !== "toolCall") return;
          const name = str(o.name);
          if (!name) return this.skip("bad_shape", where, "toolCall without a name");
          const tool = piToolCall(name, str(o.id), o.arguments ?? o.args, cwd);
          this.push({ kind: "tool_call", text: "", tool }, rec, `call${i}`, msg);
        });
        return;
      }
      case "toolResult": {
        const r = piToolResult(msg, cwd);
        r.inner.forEach((c, i) => {
          const id = r.result.callId ? `${r.result.callId}#${i}` : undefined;
          const tool = piToolCall(c.name, id, c.args, cwd);
          this.push({ kind: "tool_call", text: "", tool }, rec, `inner${i}`, msg);
        });
        this.push({ kind: "tool_result", text: r.text, result: r.result }, rec, "", msg);
        return;
      }
      case "bashExecution": {
        const command = str(msg.command);
        if (!command) return;
        const id = str(rec.id) ?? `bash@${where}`;
        const tool = piToolCall("bash", id, { command }, cwd);
        this.push({ kind: "tool_call", text: "", tool }, rec, "call", msg);
        const exit = num(msg.exitCode);
        const isError = msg.cancelled === true || (exit !== undefined && exit !== 0);
        const result = { callId: id, ...(exit !== undefined ? { exit } : {}), isError };
        const text = (str(msg.output) ?? "").trimEnd();
        this.push({ kind: "tool_result", text, result }, rec, "result", msg);
        return;
      }
      case "compactionSummary":
      case "branchSummary": {
        const text = str(msg.summary);
        if (text) this.push({ kind: "summary", text }, rec, "", msg);
        return;
      }
      default:
        if (!QUIET_ROLES.has(role)) this.skip("unknown_record", where, `message role ${role}`);
    }
  }
}
