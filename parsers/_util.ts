/**
 * Small value helpers every parser uses to read loosely-typed JSON records: the
 * value readers of core/values.ts (re-exported here), JSON-in-JSON arguments,
 * the text of content blocks.
 *
 * @module
 */

export { arr, num, type Obj, obj, str } from "../core/values.ts";
import { arr, obj } from "../core/values.ts";
import type { Event } from "../core/model.ts";

/**
 * `v` as a model name, or undefined: a non-empty string that is not a
 * placeholder in angle brackets (Claude Code writes `"model": "<synthetic>"` on
 * the replies it makes up itself, such as an API error; observed on 2.1.x) nor
 * the text `null`.
 */
export function modelName(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  if (!t || t === "null" || (t.startsWith("<") && t.endsWith(">"))) return undefined;
  return t;
}

/** Kinds of event a reply of the model makes (what {@link withModel} marks). */
const REPLY_KINDS: ReadonlySet<string> = new Set(["assistant", "tool_call", "summary"]);

/**
 * Marks the events of one reply with the model that wrote it (`Event.model`):
 * its `assistant`, `tool_call` and `summary` events; results, prompts and
 * notices are nobody's reply. `model` goes through {@link modelName}; nothing
 * is marked when it names no model. Returns `events`.
 */
export function withModel<T extends Event[]>(events: T, model: unknown): T {
  const m = modelName(model);
  if (m) { for (const e of events) if (REPLY_KINDS.has(e.kind)) e.model = m; }
  return events;
}

/**
 * Decodes arguments that a harness stored as a JSON string inside JSON
 * (Codex `function_call.arguments`, Crush `tool_call.input`). An object is
 * returned as is; a string that does not parse is kept raw.
 */
export function decodeArgs(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

/**
 * Joins the text of a content value that is a string or an array of blocks
 * (`{type:"text", text}` and friends); non-text blocks contribute nothing.
 */
export function blockText(content: unknown, types: ReadonlySet<string> = TEXT_TYPES): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const b of arr(content)) {
    const o = obj(b);
    if (!o) continue;
    const t = o.type;
    if (typeof t === "string" && !types.has(t)) continue;
    if (typeof o.text === "string") parts.push(o.text);
  }
  return parts.join("\n");
}

const TEXT_TYPES: ReadonlySet<string> = new Set(["text", "input_text", "output_text"]);
