/**
 * Copilot CLI `session.error` / `session.warning` records are what the harness
 * said in the session: indexed as `notice` events (not the assistant), so a user
 * pasting the error finds the session
 * (realdata/copilot-cli session 9a493a94: four `session.error`, MCP and model).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertEquals } from "../tests/_assert.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";
import { copilot } from "./copilot.ts";

const SID = "9a493a94-0000-4000-8000-000000000001";

Deno.test("copilot indexes session.error and session.warning as notices when the harness reports them", async () => {
  const root = tempDir("deja-copilot-err-");
  try {
    const dir = join(root, "session-state", SID);
    mkdirSync(dir, { recursive: true });
    let n = 0;
    const rec = (type: string, data: Record<string, unknown>) =>
      JSON.stringify({
        type,
        data,
        id: `ev-${++n}`,
        timestamp: new Date(Date.UTC(2026, 5, 8, 1, 48, n)).toISOString(),
        parentId: null,
      });
    const mcp = "Failed to start MCP Servers: Error: Failed to read configuration from " +
      "/home/u/.copilot/mcp-config.json: Error: Invalid MCP server configuration: mcpServers: Required";
    const lines = [
      rec("session.start", {
        sessionId: SID,
        startTime: "2026-06-08T01:48:00.000Z",
        context: { cwd: "/p" },
      }),
      rec("session.error", { errorType: "mcp", message: mcp }),
      rec("session.info", { infoType: "authentication", message: "Signed in successfully" }),
      rec("session.warning", { warningType: "policy", message: "Third-party MCP servers are off" }),
      rec("session.error", { message: "  " }),
      rec("user.message", { content: "hi" }),
      rec("assistant.message", { messageId: "m1", content: "Hello!" }),
    ];
    const path = join(dir, "events.jsonl");
    writeFileSync(path, lines.join("\n") + "\n");
    const got = await parseOne(
      copilot,
      { harness: "copilot", path, kind: "append" },
      testEnv(root),
    );
    assertEquals(got.sessions.length, 1);
    assertEquals(got.sessions[0].events.map((e) => [e.kind, e.text]), [
      ["notice", `Error (mcp): ${mcp}`],
      ["notice", "Warning (policy): Third-party MCP servers are off"],
      ["user", "hi"],
      ["assistant", "Hello!"],
    ]);
    assertEquals(got.ctx.skipped, 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
