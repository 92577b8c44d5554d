/** `deja mcp`: the MCP server a harness starts (stdio JSON-RPC; docs/mcp.md). */
import type { Command } from "./common.ts";
import { stdinChunks, stdinIsTTY } from "../../core/runtime.ts";
import { dejaHandlers, serve } from "../mcp/mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

export const mcpCmd: Command = {
  name: "mcp",
  summary: "Serve the deja tool to a coding agent over stdio (MCP); harnesses start it.",
  usage: "mcp",
  options: {},
  maxPositionals: 0,
  protocol: true,
  async run(_a, io) {
    if (stdinIsTTY()) {
      io.err(
        "deja mcp: serving MCP on stdin/stdout; a harness starts this (see 'deja install'). " +
          "Ctrl-D ends it.\n",
      );
    }
    const handlers = dejaHandlers(
      { env: io.env, cwd: io.cwd, log: (t) => io.err(t) },
      denoJson.version,
    );
    await serve(stdinChunks(), (line) => io.out(line), handlers);
    return 0;
  },
};
