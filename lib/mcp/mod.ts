/**
 * `deja mcp`: the Model Context Protocol server. One tool, `deja`, with a
 * `mode` (recall, context, blame, fix, how, remember), served over stdio as
 * newline-delimited JSON-RPC. docs/mcp.md describes the tool for people.
 *
 * | module         | what it does                                                      |
 * | -------------- | ----------------------------------------------------------------- |
 * | `protocol.ts`  | JSON-RPC messages: initialize, ping, tools/list, tools/call, errors |
 * | `server.ts`    | the stdio transport: lines in, replies out, until the input ends   |
 * | `tool.ts`      | the tool's schema and the server instructions                     |
 * | `call.ts`      | one tool call: arguments checked, the mode run on the index        |
 * | `recall.ts`    | the recall answer                                                 |
 * | `answers.ts`   | the context, blame, fix and how answers                           |
 *
 * @module
 */
import type { Handlers } from "./protocol.ts";
import { type CallContext, callDeja } from "./call.ts";
import { INSTRUCTIONS, TOOL } from "./tool.ts";

export { serve } from "./server.ts";
export { type CallContext, callDeja } from "./call.ts";
export { INSTRUCTIONS, TOOL } from "./tool.ts";
export { PROTOCOL_VERSIONS } from "./protocol.ts";

/** The handlers of deja's server: its info, instructions, tool list and calls. */
export function dejaHandlers(ctx: CallContext, version: string): Handlers {
  return {
    info: { name: "deja", version },
    instructions: INSTRUCTIONS,
    tools: [TOOL],
    call: (_name, args) => callDeja(args, ctx),
    log: ctx.log,
  };
}
