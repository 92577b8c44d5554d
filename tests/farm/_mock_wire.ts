/**
 * The wire protocols the mock model speaks: each one read into a {@link View}
 * and each {@link Reply} written back, streamed (server-sent events) or whole.
 *
 * - Anthropic Messages: `POST /v1/messages` (`stream: true` for SSE);
 * - OpenAI Chat Completions and Responses: in `_mock_wire_openai.ts`;
 * - Gemini: `POST /v1beta/models/<m>:generateContent` and `:streamGenerateContent`;
 * - Augment (auggie's backend): `POST /chat-stream`, newline-delimited JSON.
 *
 * @module
 */
import type { Reply, View } from "./_mock_script.ts";
import type { Schema, Tool } from "./_mock_tools.ts";

/** What the server sends: a JSON body, server-sent events, or JSON lines. */
export type Payload =
  | { json: unknown }
  | { sse: string[] }
  | { ndjson: unknown[] };

export type Obj = Record<string, unknown>;
export const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v as Obj[] : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
let counter = 0;
/** A unique id with a protocol's prefix. */
export const rid = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(++counter).toString(36).padStart(4, "0")}farm`;
export const event = (name: string | null, data: unknown) =>
  `${name ? `event: ${name}\n` : ""}data: ${
    typeof data === "string" ? data : JSON.stringify(data)
  }\n\n`;

/** Builds a view from ordered messages: user texts, a result count after each, result texts where read. */
export function viewOf(
  tools: Tool[],
  system: string,
  items: Array<{ user?: string; result?: boolean; text?: string }>,
  jsonSchema?: Schema,
): View {
  const userTexts: string[] = [];
  const resultsAfter: number[] = [];
  const results: string[] = [];
  for (const it of items) {
    if (it.user !== undefined) {
      userTexts.push(it.user);
      resultsAfter.push(0);
    } else if (it.result) {
      if (resultsAfter.length) resultsAfter[resultsAfter.length - 1]++;
      if (it.text !== undefined) results.push(it.text);
    }
  }
  return { tools, userTexts, resultsAfter, results, system, jsonSchema };
}

export function textOf(content: unknown, types = ["text", "input_text"]): string {
  if (typeof content === "string") return content;
  return arr(content).filter((c) => types.includes(str(c.type))).map((c) => str(c.text)).join("\n");
}

// ---------------------------------------------------------------- Anthropic Messages

/** Reads an Anthropic Messages request. */
export function anthropicView(b: Obj): View {
  const tools: Tool[] = arr(b.tools).filter((t) => t.name && !t.type || t.type === "custom").map((
    t,
  ) => ({ name: str(t.name), kind: "function", schema: (t.input_schema ?? {}) as Schema }));
  const items: Array<{ user?: string; result?: boolean }> = [];
  for (const msg of arr(b.messages)) {
    if (msg.role !== "user") continue;
    for (const c of arr(msg.content)) if (c.type === "tool_result") items.push({ result: true });
    const t = textOf(msg.content);
    if (t) items.push({ user: t });
  }
  return viewOf(tools, textOf(b.system), items);
}

/** Writes a reply as an Anthropic message. */
export function anthropicReply(b: Obj, r: Reply): Payload {
  const model = str(b.model) || "claude-mock";
  const id = rid("msg_");
  const usage = { input_tokens: 100, output_tokens: 20 };
  const blocks: Obj[] = [{ type: "text", text: r.text }];
  if (r.kind === "tool") {
    blocks.push({ type: "tool_use", id: rid("toolu_"), name: r.tool.name, input: r.args });
  }
  const stop = r.kind === "tool" ? "tool_use" : "end_turn";
  const msg = { id, type: "message", role: "assistant", model, stop_sequence: null, usage };
  if (!b.stream) return { json: { ...msg, content: blocks, stop_reason: stop } };
  const out = [event("message_start", {
    type: "message_start",
    message: { ...msg, content: [], stop_reason: null },
  })];
  blocks.forEach((blk, index) => {
    const start = blk.type === "text" ? { type: "text", text: "" } : { ...blk, input: {} };
    const delta = blk.type === "text"
      ? { type: "text_delta", text: blk.text }
      : { type: "input_json_delta", partial_json: JSON.stringify(blk.input) };
    out.push(
      event("content_block_start", { type: "content_block_start", index, content_block: start }),
    );
    out.push(event("content_block_delta", { type: "content_block_delta", index, delta }));
    out.push(event("content_block_stop", { type: "content_block_stop", index }));
  });
  out.push(event("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 20 },
  }));
  out.push(event("message_stop", { type: "message_stop" }));
  return { sse: out };
}

// ---------------------------------------------------------------- Gemini

/** Reads a Gemini generateContent request. */
export function geminiView(b: Obj): View {
  const tools: Tool[] = [];
  for (const t of arr(b.tools)) {
    for (const f of arr(t.functionDeclarations ?? t.function_declarations)) {
      tools.push({
        name: str(f.name),
        kind: "function",
        schema: (f.parametersJsonSchema ?? f.parameters ?? {}) as Schema,
      });
    }
  }
  const items: Array<{ user?: string; result?: boolean }> = [];
  for (const c of arr(b.contents)) {
    if (c.role && c.role !== "user") continue;
    const parts = arr(c.parts);
    for (const p of parts) {
      if (p.functionResponse || p.function_response) items.push({ result: true });
    }
    const t = parts.map((p) => str(p.text)).filter(Boolean).join("\n");
    if (t) items.push({ user: t });
  }
  const si = (b.systemInstruction ?? b.system_instruction) as Obj | undefined;
  const gc = (b.generationConfig ?? {}) as Obj;
  const schema = (gc.responseJsonSchema ?? gc.responseSchema) as Schema | undefined;
  return viewOf(tools, si ? arr(si.parts).map((p) => str(p.text)).join("\n") : "", items, schema);
}

/** Writes a reply as a Gemini response (one SSE chunk when streamed). */
export function geminiReply(r: Reply, stream: boolean): Payload {
  const parts: Obj[] = [{ text: r.text }];
  if (r.kind === "tool") parts.push({ functionCall: { name: r.tool.name, args: r.args } });
  const obj = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: "gemini-mock",
    responseId: rid("r"),
  };
  return stream ? { sse: [event(null, obj)] } : { json: obj };
}

// ---------------------------------------------------------------- Augment (auggie)

/** Reads an Augment chat-stream request. */
export function augmentView(b: Obj): View {
  const tools: Tool[] = arr(b.tool_definitions).map((t) => {
    let schema: Schema = {};
    try {
      schema = JSON.parse(str(t.input_schema_json) || "{}");
    } catch { /* no schema */ }
    return { name: str(t.name), kind: "function" as const, schema };
  });
  const items: Array<{ user?: string; result?: boolean }> = [];
  // The prompt comes as `message` or as a text node (type 0); tool results are type 1 nodes.
  const turn = (message: unknown, nodes: Obj[]) => {
    if (str(message)) items.push({ user: str(message) });
    for (const n of nodes) {
      const text = str((n.text_node as Obj | undefined)?.content);
      if (n.type === 0 && text) items.push({ user: text });
      else if (n.type === 1) items.push({ result: true });
    }
  };
  for (const ex of arr(b.chat_history)) turn(ex.request_message, arr(ex.request_nodes));
  turn(b.message, arr(b.nodes));
  return viewOf(tools, "", items);
}

/** Writes a reply as Augment JSON lines (response node 0: text, 5: tool use). */
export function augmentReply(r: Reply): Payload {
  const base = { unknown_blob_names: [], checkpoint_not_found: false, workspace_file_chunks: [] };
  const lines: Obj[] = [{ ...base, text: r.text, nodes: [{ id: 1, type: 0, content: r.text }] }];
  if (r.kind === "tool") {
    const tool_use = {
      tool_use_id: rid("toolu_"),
      tool_name: r.tool.name,
      input_json: JSON.stringify(r.args),
    };
    lines.push({
      ...base,
      text: "",
      nodes: [{ id: 2, type: 5, content: "", tool_use }],
      stop_reason: 3,
    });
  } else lines.push({ ...base, text: "", nodes: [], stop_reason: 1 });
  return { ndjson: lines };
}
