/**
 * The OpenAI wire protocols of the mock model (see `_mock_wire.ts` for the others):
 * - Chat Completions: `POST /v1/chat/completions` (`stream: true` for SSE chunks);
 * - Responses: `POST /v1/responses` (function, custom and local_shell calls; SSE events).
 *
 * @module
 */
import type { Reply, View } from "./_mock_script.ts";
import type { Schema, Tool } from "./_mock_tools.ts";
import { arr, event, type Obj, type Payload, rid, str, textOf, viewOf } from "./_mock_wire.ts";

/** Reads a Chat Completions request. */
export function chatView(b: Obj): View {
  const tools: Tool[] = arr(b.tools).map((t) => {
    const f = (t.function ?? t) as Obj;
    return { name: str(f.name), kind: "function" as const, schema: (f.parameters ?? {}) as Schema };
  }).filter((t) => t.name);
  const items: Array<{ user?: string; result?: boolean; text?: string }> = [];
  let system = "";
  for (const msg of arr(b.messages)) {
    if (msg.role === "system" || msg.role === "developer") system += textOf(msg.content) + "\n";
    else if (msg.role === "tool" || msg.role === "function") {
      items.push({ result: true, text: textOf(msg.content) });
    } else if (msg.role === "user") {
      for (const c of arr(msg.content)) {
        if (/tool.?result/.test(str(c.type))) items.push({ result: true });
      }
      const t = textOf(msg.content);
      if (t) items.push({ user: t });
    }
  }
  const rf = (b.response_format ?? {}) as Obj;
  const schema = rf.type === "json_schema"
    ? ((rf.json_schema as Obj)?.schema as Schema)
    : undefined;
  return viewOf(tools, system, items, schema);
}

/** Writes a reply as a chat completion. */
export function chatReply(b: Obj, r: Reply): Payload {
  const model = str(b.model) || "gpt-mock";
  const id = rid("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const call = r.kind === "tool"
    ? {
      id: rid("call_"),
      type: "function",
      function: { name: r.tool.name, arguments: JSON.stringify(r.args) },
    }
    : undefined;
  const finish = call ? "tool_calls" : "stop";
  if (!b.stream) {
    const message = { role: "assistant", content: r.text, ...(call ? { tool_calls: [call] } : {}) };
    return {
      json: {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      },
    };
  }
  const chunk = (delta: Obj, fr: string | null = null) =>
    event(null, {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: fr }],
    });
  const out = [chunk({ role: "assistant", content: "" }), chunk({ content: r.text })];
  if (call) {
    out.push(
      chunk({
        tool_calls: [{
          index: 0,
          id: call.id,
          type: "function",
          function: { name: call.function.name, arguments: "" },
        }],
      }),
    );
    out.push(
      chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }),
    );
  }
  out.push(chunk({}, finish));
  out.push(
    event(null, { id, object: "chat.completion.chunk", created, model, choices: [], usage }),
  );
  out.push(event(null, "[DONE]"));
  return { sse: out };
}

// ---------------------------------------------------------------- OpenAI Responses

/** Reads a Responses request. */
export function responsesView(b: Obj): View {
  const tools: Tool[] = [];
  const input = typeof b.input === "string"
    ? [{ type: "message", role: "user", content: b.input }]
    : arr(b.input);
  // Deferred tools a client-side tool search loaded come back in its output item (Codex).
  const loaded = input.filter((it) => it.type === "tool_search_output").flatMap((it) =>
    arr(it.tools)
  );
  for (const t of [...arr(b.tools), ...loaded]) {
    if (t.type === "function") {
      tools.push({ name: str(t.name), kind: "function", schema: (t.parameters ?? {}) as Schema });
    } else if (t.type === "custom") tools.push({ name: str(t.name), kind: "custom", schema: {} });
    else if (t.type === "local_shell") {
      tools.push({ name: "local_shell", kind: "local_shell", schema: {} });
    } else if (t.type === "tool_search") {
      tools.push({
        name: "tool_search",
        kind: "tool_search",
        schema: (t.parameters ?? {}) as Schema,
      });
    } else if (t.type === "namespace") {
      for (const f of arr(t.tools)) {
        tools.push({
          name: `${str(t.name)}__${str(f.name)}`,
          kind: "function",
          schema: (f.parameters ?? {}) as Schema,
          namespace: { namespace: str(t.name), inner: str(f.name) },
        });
      }
    }
  }
  const items: Array<{ user?: string; result?: boolean }> = [];
  for (const it of input) {
    if (/(_call_output|^tool_search_output)$/.test(str(it.type))) items.push({ result: true });
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
      items.push({
        type: "custom_tool_call",
        id: rid("ctc_"),
        status: "completed",
        call_id,
        name: r.tool.name,
        input,
      });
    } else if (r.tool.kind === "local_shell") {
      const action = { type: "exec", command: ["bash", "-lc", shellCmd], env: {} };
      items.push({
        type: "local_shell_call",
        id: rid("lsh_"),
        status: "completed",
        call_id,
        action,
      });
    } else if (r.tool.kind === "tool_search") {
      items.push({
        type: "tool_search_call",
        id: rid("tsc_"),
        status: "completed",
        call_id,
        execution: "client",
        arguments: r.args,
      });
    } else {
      const ns = r.tool.namespace;
      items.push({
        type: "function_call",
        id: rid("fc_"),
        status: "completed",
        call_id,
        name: ns?.inner ?? r.tool.name,
        ...(ns ? { namespace: ns.namespace } : {}),
        arguments: JSON.stringify(r.args),
      });
    }
  }
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  const base = {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: str(b.model) || "gpt-mock",
    output: [],
    tools: [],
  };
  const done = { ...base, status: "completed", output: items, usage };
  if (!b.stream) return { json: done };
  let seq = 0;
  const ev = (type: string, o: Obj) => event(type, { type, sequence_number: seq++, ...o });
  const out = [ev("response.created", { response: { ...base, status: "in_progress" } })];
  items.forEach((it, output_index) => {
    out.push(
      ev("response.output_item.added", { output_index, item: { ...it, status: "in_progress" } }),
    );
    if (it.type === "message") {
      const text = r.text;
      const part = { type: "output_text", text: "", annotations: [] };
      out.push(
        ev("response.content_part.added", { item_id: it.id, output_index, content_index: 0, part }),
      );
      out.push(
        ev("response.output_text.delta", {
          item_id: it.id,
          output_index,
          content_index: 0,
          delta: text,
        }),
      );
      out.push(
        ev("response.output_text.done", { item_id: it.id, output_index, content_index: 0, text }),
      );
    } else if (it.type === "function_call") {
      out.push(
        ev("response.function_call_arguments.delta", {
          item_id: it.id,
          output_index,
          delta: it.arguments,
        }),
      );
      out.push(
        ev("response.function_call_arguments.done", {
          item_id: it.id,
          output_index,
          arguments: it.arguments,
        }),
      );
    } else if (it.type === "custom_tool_call") {
      out.push(
        ev("response.custom_tool_call_input.delta", {
          item_id: it.id,
          output_index,
          delta: it.input,
        }),
      );
      out.push(
        ev("response.custom_tool_call_input.done", {
          item_id: it.id,
          output_index,
          input: it.input,
        }),
      );
    }
    out.push(ev("response.output_item.done", { output_index, item: it }));
  });
  out.push(ev("response.completed", { response: done }));
  return { sse: out };
}
