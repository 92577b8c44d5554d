/**
 * Small value helpers every parser uses to read loosely-typed JSON records.
 *
 * @module
 */

/** A plain JSON object. */
export type Obj = Record<string, unknown>;

/** `v` as an object, or undefined. */
export function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** `v` as a non-empty string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** `v` as a finite number (numeric strings accepted), or undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** `v` as an array (empty when it is not one). */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
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
