/**
 * `deja mcp` end to end: the compiled binary served to the official MCP
 * SDK's client over stdio (the client a harness would use), on an index of
 * every registry fixture; and raw lines the SDK would never send.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type ChildProcess, spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export points types at "<path>.js.d.ts"; name the declarations directly.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { materialize } from "./_fixture.ts";
import { exactly } from "./_env.ts";
import { loadRegistry } from "./_registry.ts";
import { overrideVar } from "../core/paths.ts";
import { binary, runBinary } from "./_binary.ts";
import { PROTOCOL_VERSIONS } from "../lib/mcp/protocol.ts";
import { FRAME_OPEN, FRAME_PREAMBLE } from "../core/frame.ts";
import { tempDir } from "./_tmp.ts";

interface World {
  env: Record<string, string>;
  cwd: string;
  cleanup(): void;
}

/** Every harness root at its materialised fixture, and an index of them built by the binary. */
function world(indexed = true): World {
  const work = tempDir("deja-mcp-e2e-");
  const cwd = join(work, "cwd");
  mkdirSync(cwd);
  const env: Record<string, string> = {
    HOME: join(work, "home"),
    DEJA_HOME: join(work, "deja"),
    NO_COLOR: "1",
    TZ: "UTC",
  };
  const cleanups = [() => {
    // A call without an index starts a background `deja index` here: let it finish (it removes
    // its sentinel when done) before the directories go.
    const sentinel = join(work, "deja", "index.bg");
    for (let i = 0; i < 300 && existsSync(sentinel); i++) spawnSync("sleep", ["0.1"]);
    rmSync(work, { recursive: true, force: true });
  }];
  for (const e of loadRegistry()) {
    const fx = materialize(e.fixtureDir);
    cleanups.push(fx.cleanup);
    const rel = e.fixture_root.replace(`fixtures/registry/${e.id}`, "").replace(/^\//, "");
    env[overrideVar(e.id)] = join(fx.root, rel);
  }
  if (indexed) {
    const r = runBinary(["index", "--quiet"], env, cwd);
    assertEquals(r.code, 0, r.stderr);
  }
  return { env, cwd, cleanup: () => cleanups.forEach((c) => c()) };
}

async function connect(w: World) {
  // Through `env -i`: the transport's `env` would be added to this process's environment.
  const [command, args] = exactly([binary(), "mcp"], w.env);
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: w.cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "deja-e2e", version: "1.0.0" });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  const child = (transport as unknown as { _process: ChildProcess })._process;
  return { client, transport, child, errors };
}

const textOf = (r: unknown) =>
  (r as { content: Array<{ type: string; text: string }> }).content[0].text;

Deno.test("deja mcp serves the SDK client: initialize, tools/list, recall, errors, EOF", async () => {
  const w = world();
  const { client, child, errors } = await connect(w);
  try {
    // initialize: the client's newest revision is spoken, and the server says when to call it.
    assert(PROTOCOL_VERSIONS.includes(LATEST_PROTOCOL_VERSION), "the SDK's newest revision");
    assertEquals(client.getServerVersion()?.name, "deja");
    assertStringIncludes(client.getInstructions() ?? "", "mode recall");
    assertEquals(client.getServerCapabilities()?.resources, undefined, "no resources");

    const { tools } = await client.listTools();
    assertEquals(tools.map((t) => t.name), ["deja"]);
    const mode = tools[0].inputSchema.properties?.mode as { enum: string[] };
    assertEquals(mode.enum, [
      "recall",
      "context",
      "blame",
      "fix",
      "how",
      "remember",
    ]);

    const recall = await client.callTool({
      name: "deja",
      arguments: { mode: "recall", query: "failing demo tests" },
    });
    assert(!recall.isError, textOf(recall));
    const text = textOf(recall);
    assert(text.startsWith(`${FRAME_OPEN}\n${FRAME_PREAMBLE}\n`), text);
    assertStringIncludes(text, "claude · /work/demo · ");
    assert(new TextEncoder().encode(text).length <= 4096, "recall within 4 KiB");

    const bad = await client.callTool({ name: "deja", arguments: { mode: "summon" } });
    assertEquals(bad.isError, true);
    assertStringIncludes(textOf(bad), "unknown mode 'summon'");
    const missing = await client.callTool({ name: "deja", arguments: { mode: "fix" } });
    assertEquals(missing.isError, true);
    assertStringIncludes(textOf(missing), "mode fix needs error");

    // A line that is not JSON: a parse error with `id: null` comes back (JSON-RPC 2.0). The
    // SDK client's schema wants a string or number id, so it reports the reply through
    // onerror, pairs it with no request, and the server keeps serving.
    const before = errors.length;
    child.stdin!.write("{this is not json\n");
    const after = await client.callTool({
      name: "deja",
      arguments: { mode: "blame", path: "/work/demo/README.md" },
    });
    assert(!after.isError, textOf(after));
    assertStringIncludes(textOf(after), "blame /work/demo/README.md: exact match");
    assert(
      errors.slice(before).some((e) => /null/.test(e.message)),
      `the null-id reply reported: ${errors.map((e) => e.message)}`,
    );

    // Unknown tool: a protocol error, not a crash.
    let threw = "";
    try {
      await client.callTool({ name: "nope", arguments: {} });
    } catch (e) {
      threw = (e as Error).message;
    }
    assertStringIncludes(threw, "Unknown tool: nope");
    await client.ping();
  } finally {
    await client.close(); // closes the server's stdin
    w.cleanup();
  }
  assertEquals(child.exitCode, 0, "EOF ends the server with exit 0");
});

Deno.test("deja mcp answers raw lines in order and exits 0 at the end of its input", () => {
  const w = world(false);
  try {
    const lines = [
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2024-11-05",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }),
      "not json at all",
      "[]",
      JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify({ jsonrpc: "2.0", id: "a", method: "resources/list" }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "deja", arguments: { mode: "recall", query: "anything" } },
      }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "deja", arguments: [] },
      }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "initialize",
        params: { protocolVersion: "1999-01-01" },
      }),
    ];
    const r = runBinary(["mcp"], w.env, w.cwd, lines.join("\n")); // the last line unterminated
    assertEquals(r.code, 0, r.stderr);
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(out.length, 8, r.stdout);
    assertEquals(out[0].result.protocolVersion, "2024-11-05", "a revision the client speaks");
    assertEquals([out[1].error.code, out[1].id], [-32700, null]);
    assertEquals([out[2].error.code, out[2].id], [-32600, null]);
    assertEquals([out[3].error.code, out[3].id], [-32600, null]);
    assertEquals([out[4].id, out[4].error.code], ["a", -32601]);
    assertEquals(out[5].result.isError, undefined);
    // No index yet: the server starts building one in the background and says so.
    assertStringIncludes(out[5].result.content[0].text, "building its index");
    assertEquals([out[6].id, out[6].error.code], [3, -32602]);
    assertEquals(out[7].result.protocolVersion, PROTOCOL_VERSIONS[0], "unknown revision: newest");
  } finally {
    w.cleanup();
  }
});
