/**
 * `deja mcp`: the MCP server a harness starts (stdio JSON-RPC; docs/mcp.md).
 *
 * Parse ({@link parseMcp}) → run ({@link serveMcp}: one JSON-RPC reply per request
 * line, written raw: the protocol is the rendering) → the one human text, the
 * notice on stderr when stdin is a terminal ({@link mcpNotice}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import { stdinChunks, stdinIsTTY } from "../../core/runtime.ts";
import { dejaHandlers, serve } from "../mcp/mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

export const mcpCmd: CommandSpec = {
  usage: "mcp",
  options: {},
  maxPositionals: 0,
  run: (a, io) => serveMcp(parseMcp(a), io, { chunks: stdinChunks(), interactive: stdinIsTTY() }),
};

/** What `deja mcp` was asked (nothing: a harness starts it bare). */
export type McpArgs = Record<string, never>;

/** Where the requests come from. */
export interface McpInput {
  /** The request stream: JSON-RPC messages, one per line. */
  chunks: AsyncIterable<Uint8Array>;
  /** A person typed `deja mcp` at a terminal: say what this is. */
  interactive: boolean;
}

/** Reads `deja mcp`'s arguments (parse() has already refused any). */
export function parseMcp(_a: Args): McpArgs {
  return {};
}

/** The notice for a person who started the server at a terminal (stderr). */
export function mcpNotice(): string {
  return "deja mcp: serving MCP on stdin/stdout; a harness starts this (see 'deja install'). " +
    "Ctrl-D ends it.\n";
}

/** Serves the `deja` tool over `input` until it ends; replies go to `io.out`, logs to `io.err`. */
export async function serveMcp(_args: McpArgs, io: IO, input: McpInput): Promise<number> {
  if (input.interactive) io.err(mcpNotice());
  const handlers = dejaHandlers(
    { env: io.env, cwd: io.cwd, log: (t) => io.err(t), since: Date.now() },
    denoJson.version,
  );
  await serve(input.chunks, (line) => io.out(line), handlers);
  return 0;
}
