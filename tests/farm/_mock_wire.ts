/**
 * The wire protocols the mock model speaks: each one read into a {@link View}
 * and each {@link Reply} written back, streamed (server-sent events) or whole.
 *
 * - Anthropic Messages: `POST /v1/messages` (`stream: true` for SSE);
 * - OpenAI Chat Completions: `POST /v1/chat/completions` (`stream: true`);
 * - OpenAI Responses: `POST /v1/responses` (function, custom and local_shell calls);
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

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v as Obj[] : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
let counter = 0;
/** A unique id with a protocol's prefix. */
export const rid = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(++counter).toString(36).padStart(4, "0")}farm`;
const event = (name: string | null, data: unknown) =>
  `${name ? `event: ${name}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** Builds a view from ordered messages: user texts and a result count after each. */
function viewOf(
  tools: Tool[],
  system: string,
  items: Array<{ user?: string; result?: boolean }>,
  jsonSchema?: Schema,
): View {
  const userTexts: string[] = [];
  const resultsAfter: number[] = [];
  for (const it of items) {
    if (it.user !== undefined) {
      userTexts.push(it.user);
      resultsAfter.push(0);
    } else if (it.result && resultsAfter.length) resultsAfter[resultsAfter.length - 1]++;
  }
  return { tools, userTexts, resultsAfter, system, jsonSchema };
}

function textOf(content: unknown, types = ["text", "input_text"]): string {
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
    out.push(event("content_block_start", { type: "content_block_start", index, content_block: start }));
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

// ---------------------------------------------------------------- OpenAI Chat Completions

/** Reads a Chat Completions request. */
export function chatView(b: Obj): View {
  const tools: Tool[] = arr(b.tools).map((t) => {
    const f = (t.function ?? t) as Obj;
    return { name: str(f.name), kind: "function" as const, schema: (f.parameters ?? {}) as Schema };
  }).filter((t) => t.name);
  const items: Array<{ user?: string; result?: boolean }> = [];
  let system = "";
  for (const msg of arr(b.messages)) {
    if (msg.role === "system" || msg.role === "developer") system += textOf(msg.content) + "\n";
    else if (msg.role === "tool" || msg.role === "function") items.push({ result: true });
    else if (msg.role === "user") {
      for (const c of arr(msg.content)) if (/tool.?result/.test(str(c.type))) items.push({ result: true });
      const t = textOf(msg.content);
      if (t) items.push({ user: t });
    }
  }
  const rf = (b.response_format ?? {}) as Obj;
  const schema = rf.type === "json_schema" ? ((rf.json_schema as Obj)?.schema as Schema) : undefined;
  return viewOf(tools, system, items, schema);
}

/** Writes a reply as a chat completion. */
export function chatReply(b: Obj, r: Reply): Payload {
  const model = str(b.model) || "gpt-mock";
  const id = rid("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const call = r.kind === "tool"
    ? { id: rid("call_"), type: "function", function: { name: r.tool.name, arguments: JSON.stringify(r.args) } }
    : undefined;
  const finish = call ? "tool_calls" : "stop";
  if (!b.stream) {
    const message = { role: "assistant", content: r.text, ...(call ? { tool_calls: [call] } : {}) };
    return { json: { id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finish }], usage } };
  }
  const chunk = (delta: Obj, fr: string | null = null) =>
    event(null, { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: fr }] });
  const out = [chunk({ role: "assistant", content: "" }), chunk({ content: r.text })];
  if (call) {
    out.push(chunk({ tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }));
  }
  out.push(chunk({}, finish));
  out.push(event(null, { id, object: "chat.completion.chunk", created, model, choices: [], usage }));
  out.push(event(null, "[DONE]"));
  return { sse: out };
}

// ---------------------------------------------------------------- OpenAI Responses

/** Reads a Responses request. */
export function responsesView(b: Obj): View {
  const tools: Tool[] = [];
  for (const t of arr(b.tools)) {
    if (t.type === "function") tools.push({ name: str(t.name), kind: "function", schema: (t.parameters ?? {}) as Schema });
    else if (t.type === "custom") tools.push({ name: str(t.name), kind: "custom", schema: {} });
    else if (t.type === "local_shell") tools.push({ name: "local_shell", kind: "local_shell", schema: {} });
  }
  const items: Array<{ user?: string; result?: boolean }> = [];
  const input = typeof b.input === "string" ? [{ type: "message", role: "user", content: b.input }] : arr(b.input);
  for (const it of input) {
    if (/_call_output$/.test(str(it.type))) items.push({ result: true });
    else if ((it.type === "message" || !it.type) && it.role === "user") {
      const t = textOf(it.content);
      if (t) items.push({ user: t });
    }
  }
  const fmt = ((b.text as Obj)?.format ?? {}) as Obj;
  const schema = fmt.type === "json_schema" ? fmt.schema as Schema : undefined;
  return viewOf(tools, str(b.instructions), items, schema);
}

/** Writes a reply as a Responses object. */
export function responsesReply(b: Obj, r: Reply, shellCmd: string): Payload {
  const id = rid("resp_");
  const items: Obj[] = [{
    type: "message",
    id: rid("msg_"),
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text: r.text, annotations: [] }],
  }];
  if (r.kind === "tool") {
    const call_id = rid("call_");
    if (r.tool.kind === "custom") {
      const input = str(Object.values(r.args)[0]);
      items.push({ type: "custom_tool_call", id: rid("ctc_"), status: "completed", call_id, name: r.tool.name, input });
    } else if (r.tool.kind === "local_shell") {
      const action = { type: "exec", command: ["bash", "-lc", shellCmd], env: {} };
      items.push({ type: "local_shell_call", id: rid("lsh_"), status: "completed", call_id, action });
    } else {
      items.push({ type: "function_call", id: rid("fc_"), status: "completed", call_id, name: r.tool.name, arguments: JSON.stringify(r.args) });
    }
  }
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: str(b.model) || "gpt-mock", output: [], tools: [] };
  const done = { ...base, status: "completed", output: items, usage };
  if (!b.stream) return { json: done };
  let seq = 0;
  const ev = (type: string, o: Obj) => event(type, { type, sequence_number: seq++, ...o });
  const out = [ev("response.created", { response: { ...base, status: "in_progress" } })];
  items.forEach((it, output_index) => {
    out.push(ev("response.output_item.added", { output_index, item: { ...it, status: "in_progress" } }));
    if (it.type === "message") {
      const text = r.text;
      const part = { type: "output_text", text: "", annotations: [] };
      out.push(ev("response.content_part.added", { item_id: it.id, output_index, content_index: 0, part }));
      out.push(ev("response.output_text.delta", { item_id: it.id, output_index, content_index: 0, delta: text }));
      out.push(ev("response.output_text.done", { item_id: it.id, output_index, content_index: 0, text }));
    } else if (it.type === "function_call") {
      out.push(ev("response.function_call_arguments.delta", { item_id: it.id, output_index, delta: it.arguments }));
      out.push(ev("response.function_call_arguments.done", { item_id: it.id, output_index, arguments: it.arguments }));
    } else if (it.type === "custom_tool_call") {
      out.push(ev("response.custom_tool_call_input.delta", { item_id: it.id, output_index, delta: it.input }));
      out.push(ev("response.custom_tool_call_input.done", { item_id: it.id, output_index, input: it.input }));
    }
    out.push(ev("response.output_item.done", { output_index, item: it }));
  });
  out.push(ev("response.completed", { response: done }));
  return { sse: out };
}

// ---------------------------------------------------------------- Gemini

/** Reads a Gemini generateContent request. */
export function geminiView(b: Obj): View {
  const tools: Tool[] = [];
  for (const t of arr(b.tools)) {
    for (const f of arr(t.functionDeclarations ?? t.function_declarations)) {
      tools.push({ name: str(f.name), kind: "function", schema: (f.parametersJsonSchema ?? f.parameters ?? {}) as Schema });
    }
  }
  const items: Array<{ user?: string; result?: boolean }> = [];
  for (const c of arr(b.contents)) {
    if (c.role && c.role !== "user") continue;
    const parts = arr(c.parts);
    for (const p of parts) if (p.functionResponse || p.function_response) items.push({ result: true });
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

/** Reads an Augment chat-stream request (node type 1 is a tool result). */
export function augmentView(b: Obj): View {
  const tools: Tool[] = arr(b.tool_definitions).map((t) => {
    let schema: Schema = {};
    try {
      schema = JSON.parse(str(t.input_schema_json) || "{}");
    } catch { /* no schema */ }
    return { name: str(t.name), kind: "function" as const, schema };
  });
  const items: Array<{ user?: string; result?: boolean }> = [];
  const turn = (message: unknown, nodes: Obj[]) => {
    if (str(message)) items.push({ user: str(message) });
    for (const n of nodes) if (n.type === 1) items.push({ result: true });
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
    const tool_use = { tool_use_id: rid("toolu_"), tool_name: r.tool.name, input_json: JSON.stringify(r.args) };
    lines.push({ ...base, text: "", nodes: [{ id: 2, type: 5, content: "", tool_use }], stop_reason: 3 });
  } else lines.push({ ...base, text: "", nodes: [], stop_reason: 1 });
  return { ndjson: lines };
}
