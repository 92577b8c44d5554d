/** `deja mcp`: the MCP server a harness starts (stdio JSON-RPC; docs/mcp.md). */
import type { CommandSpec } from "./common.ts";
import { stdinChunks, stdinIsTTY } from "../../core/runtime.ts";
import { dejaHandlers, serve } from "../mcp/mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

export const mcpCmd: CommandSpec = {
  usage: "mcp",
  options: {},
  maxPositionals: 0,
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
