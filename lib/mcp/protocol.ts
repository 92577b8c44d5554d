/**
 * The Model Context Protocol as deja speaks it: JSON-RPC 2.0 messages, one
 * per line, answered in order. A server with one tool and nothing else
 * (no resources, prompts or logging), so five methods: `initialize`,
 * `notifications/initialized`, `ping`, `tools/list`, `tools/call`.
 *
 * Errors follow JSON-RPC 2.0 and the MCP schema: a line that is not JSON gets
 * `-32700` (parse error), a message of the wrong shape `-32600` (invalid
 * request), an unknown method `-32601`, bad parameters or an unknown tool
 * `-32602`, a failure inside a handler `-32603`. When the request id cannot be
 * read (a parse error, an invalid request) the error carries `"id": null`, as
 * JSON-RPC 2.0 requires (section 5). Notifications never get a reply.
 * Problems with a tool's arguments are not protocol errors: the tool answers
 * with `isError: true`, so the model can correct its call.
 *
 * @module
 */
import { isObj } from "../../core/values.ts";

/** Protocol revisions this server speaks, newest first. */
export const PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** JSON-RPC error codes used here. */
export const ERR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** A request id: a string or a number (JSON-RPC 2.0; MCP never uses null). */
export type Id = string | number;

/**
 * One message this server writes. An error to a request whose id could not
 * be read has `id: null` (JSON-RPC 2.0, section 5: "If there was an error in
 * detecting the id in the Request object, it MUST be Null").
 */
export type Reply =
  | { jsonrpc: "2.0"; id: Id; result: unknown }
  | { jsonrpc: "2.0"; id: Id | null; error: { code: number; message: string } };

/** The `tools/call` result shape (MCP `CallToolResult`, text content only). */
export interface ToolResult {
  content: Array<{ type: "text"; text: string }>;
  isError?: boolean;
}

/** What the protocol layer needs from the server behind it. */
export interface Handlers {
  /** `serverInfo` of the initialize result. */
  info: { name: string; version: string };
  /** Server instructions: when a model should call the tool. */
  instructions: string;
  /** The `tools/list` entries. */
  tools: readonly { name: string }[];
  /** Runs a tool the list names with its arguments (an object, maybe empty). */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Where an unexpected failure is reported (stderr). */
  log(text: string): void;
}

/** A protocol error raised inside a method handler. */
class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

const isId = (v: unknown): v is Id =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/**
 * The revision to answer with: the client's when this server speaks it,
 * otherwise the newest this server speaks (the client then decides whether to
 * go on).
 */
export function negotiate(requested: unknown): string {
  return typeof requested === "string" && PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : PROTOCOL_VERSIONS[0];
}

/** An error reply; `id` null when the request's id could not be read. */
export function errorReply(code: number, message: string, id?: Id): Reply {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}

/**
 * Answers one line of input: the reply to write, or null (a notification, a
 * response addressed to us, a blank line).
 */
export async function handleLine(line: string, h: Handlers): Promise<Reply | null> {
  if (!line.trim()) return null;
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return errorReply(ERR.parse, "Parse error: the line is not valid JSON");
  }
  return await handleMessage(msg, h);
}

/** Answers one decoded message (see {@link handleLine}). */
export async function handleMessage(msg: unknown, h: Handlers): Promise<Reply | null> {
  if (Array.isArray(msg)) {
    return errorReply(ERR.invalidRequest, "Invalid Request: batches are not supported");
  }
  if (!isObj(msg)) return errorReply(ERR.invalidRequest, "Invalid Request: not an object");
  const id = isId(msg.id) ? msg.id : undefined;
  if (msg.jsonrpc !== "2.0") {
    return errorReply(ERR.invalidRequest, 'Invalid Request: jsonrpc must be "2.0"', id);
  }
  if (typeof msg.method !== "string") {
    // A response to a request of ours (we send none), or nothing at all.
    if ("result" in msg || "error" in msg) return null;
    return errorReply(ERR.invalidRequest, "Invalid Request: no method", id);
  }
  if (!("id" in msg)) return null; // a notification: initialized, cancelled, ...
  if (id === undefined) {
    return errorReply(ERR.invalidRequest, "Invalid Request: id must be a string or a number");
  }
  try {
    const result = await dispatch(msg.method, msg.params, h);
    return { jsonrpc: "2.0", id, result };
  } catch (e) {
    if (e instanceof RpcError) return errorReply(e.code, e.message, id);
    h.log(`deja mcp: ${msg.method} failed: ${(e as Error)?.stack ?? e}\n`);
    return errorReply(ERR.internal, `Internal error: ${(e as Error)?.message ?? e}`, id);
  }
}

async function dispatch(method: string, params: unknown, h: Handlers): Promise<unknown> {
  if (params !== undefined && !isObj(params)) {
    throw new RpcError(ERR.invalidParams, "Invalid params: params must be an object");
  }
  const p = params ?? {};
  switch (method) {
    case "initialize":
      return {
        protocolVersion: negotiate(p.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: h.info,
        instructions: h.instructions,
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: h.tools };
    case "tools/call": {
      const name = p.name;
      if (typeof name !== "string") {
        throw new RpcError(ERR.invalidParams, "Invalid params: tools/call needs a tool name");
      }
      if (!h.tools.some((t) => t.name === name)) {
        throw new RpcError(ERR.invalidParams, `Unknown tool: ${name}`);
      }
      const args = p.arguments;
      if (args !== undefined && !isObj(args)) {
        throw new RpcError(ERR.invalidParams, "Invalid params: arguments must be an object");
      }
      return await h.call(name, args ?? {});
    }
    default:
      throw new RpcError(ERR.methodNotFound, `Method not found: ${method}`);
  }
}
