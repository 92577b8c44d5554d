/**
 * What `deja show` says of a call the store says never ran (trial of
 * 2026-12, Continue IDE session 8c3cc493): `ls -aF` and `git fetch origin`,
 * cancelled in the IDE (`toolCallStates` status `canceled`), were printed as
 * ordinary calls and read as commands that never finished.
 */
import { assertEquals } from "../../tests/_assert.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { showCmd } from "./cmd_show.ts";

const SID = "5e55c000-1111-4222-8333-444455556666";

Deno.test("show marks a cancelled Continue call and its result not run, not failed, text and JSON", async () => {
  const root = tempDir("deja-show-notrun-");
  try {
    const sessions = join(root, "continue");
    mkdirSync(sessions, { recursive: true });
    const call = (id: string, command: string) => ({
      id,
      type: "function",
      function: { name: "run_terminal_command", arguments: JSON.stringify({ command }) },
    });
    const [a, b] = [call("c1", "git fetch origin"), call("c2", "ls")];
    const history = [
      { message: { role: "user", content: "update the branches" }, contextItems: [] },
      {
        message: { role: "assistant", content: "", toolCalls: [a, b] },
        contextItems: [],
        toolCallStates: [
          { toolCallId: "c1", toolCall: a, status: "canceled", parsedArgs: {} },
          {
            toolCallId: "c2",
            toolCall: b,
            status: "errored",
            parsedArgs: {},
            output: [{ content: "ls: boom" }],
          },
        ],
      },
    ];
    const doc = { sessionId: SID, title: "t", workspaceDirectory: "/w/app", history };
    writeFileSync(join(sessions, `${SID}.json`), JSON.stringify(doc));
    const env = testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_CONTINUE_ROOT: sessions,
      TZ: "UTC",
    });
    await runIndex(env, parsers, { only: ["continue"] });

    const pipe = captureIO(env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["5e55c"] }, pipe.io), 0);
    const heads = pipe.out().split("\n").map((l) => l.match(/ (tool_(?:call|result).*)$/)?.[1])
      .filter(Boolean);
    assertEquals(heads, [
      "tool_call run_terminal_command not run",
      "tool_call run_terminal_command failed",
      "tool_result not run",
      "tool_result failed",
    ]);

    const json = captureIO(env, false);
    assertEquals(await showCmd.run({ values: { json: true }, positionals: ["5e55c"] }, json.io), 0);
    const tools = JSON.parse(json.out()).events.filter((e: { kind: string }) =>
      e.kind.startsWith("tool_")
    );
    assertEquals(
      tools.map((e: { is_error?: boolean; not_run?: boolean }) => [e.is_error, e.not_run]),
      [[true, true], [true, undefined], [true, true], [true, undefined]],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
