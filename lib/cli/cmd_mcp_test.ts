import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO, runMain, withVars } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { mcpNotice, parseMcp, serveMcp } from "./cmd_mcp.ts";

const ID = "3c900000-1111-4222-8333-444455556666";

async function* lines(...msgs: unknown[]): AsyncGenerator<Uint8Array> {
  for (const m of msgs) {
    yield new TextEncoder().encode((typeof m === "string" ? m : JSON.stringify(m)) + "\n");
  }
}

const req = (id: number, method: string, params: unknown = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

Deno.test("mcp takes no arguments", () => {
  assertEquals(parseMcp({ values: {}, positionals: [] }), {});
});

Deno.test("mcp answers initialize, tools/list and a recall; the terminal notice only on a terminal", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "wire the zephyrine cache" }, { say: "zephyrine cache wired" }],
  }]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const session = () =>
      lines(
        req(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {} }),
        { jsonrpc: "2.0", method: "notifications/initialized" },
        req(2, "tools/list"),
        req(3, "tools/call", { name: "deja", arguments: { mode: "recall", query: "zephyrine" } }),
      );
    for (const tty of [true, false]) {
      const c = captureIO(env, tty);
      assertEquals(await serveMcp({}, c.io, { chunks: session(), interactive: tty }), 0);
      const replies = c.out().trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(replies.map((r) => r.id), [1, 2, 3]);
      assertEquals(replies[0].result.serverInfo.name, "deja");
      assertEquals(replies[1].result.tools.map((t: { name: string }) => t.name), ["deja"]);
      assertStringIncludes(replies[2].result.content[0].text, ID.slice(0, 8));
      assertEquals(c.err().includes(mcpNotice()), tty);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("mcp answers a line that is not JSON with a parse error and goes on; an argument is refused", async () => {
  const c = captureIO(ix0(), false);
  await serveMcp({}, c.io, { chunks: lines("{nope", req(7, "ping")), interactive: false });
  const [bad, ok] = c.out().trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(bad.error.code, -32700);
  assertEquals(ok.id, 7);
  assert("result" in ok);
  const r = await runMain(ix0(), ["mcp", "serve"]);
  assertEquals([r.code, r.out], [2, ""]);
  assertEquals(
    r.err,
    "deja: unexpected argument 'serve'\nhint: to search these words: deja search mcp serve; 'deja mcp --help' shows the command\n",
  );
});

/** An env whose every location is a path that does not exist (nothing is written). */
const ix0 = () =>
  testEnv("/nonexistent-home", { DEJA_HOME: "/nonexistent-deja", DEJA_NO_REFRESH: "1" });
