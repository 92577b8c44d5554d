/**
 * What deja says of a Crush session where the provider and Crush refused
 * things (realdata k3s db, session 0d21b928, Crush of 2025-06 with
 * gpt-5-mini via openrouter): a bash call streamed in nameless pieces that
 * Crush refused (`invalid parameters`) was shown as `failed` and counted by
 * `deja how` as a kubectl run that failed, and the provider's `finish` error
 * (`API Error` + details) was not shown or searchable at all.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { captureIO } from "./_cli_io.ts";
import { tempDir } from "./_tmp.ts";
import { rmSync } from "node:fs";
import { showCmd } from "../lib/cli/cmd_show.ts";
import { howData, parseHow } from "../lib/cli/cmd_how.ts";
import { search } from "../lib/search.ts";
import { Store } from "../lib/store.ts";
import { indexPath } from "../core/paths.ts";
import { indexedCrushSession } from "./_crush_tiny.ts";

const SID = "0d21b928-0000-4000-8000-000000000001";

/** A Crush store of one session: the refused, pieced call, a real run, a provider error. */
function sessionRows(): Array<[string, unknown[]]> {
  const call = (id: string, name: string, input: string) => ({
    type: "tool_call",
    data: { id, name, input, type: "function", finished: true },
  });
  const res = (id: string, content: string, is_error: boolean) => ({
    type: "tool_result",
    data: { tool_call_id: id, name: "", content, metadata: "", is_error },
  });
  return [
    ["user", [{ type: "text", data: { text: "debug the forgejo pods" } }]],
    ["assistant", [
      call("c0", "bash", ""),
      call("f1", "", '{"'),
      call("f2", "", 'command":"kubectl version --short","timeout": 120000}'),
      { type: "finish", data: { reason: "tool_use", time: 1002 } },
    ]],
    ["tool", [
      res("c0", "invalid parameters", true),
      res("f1", "Tool not found: ", true),
      res("f2", "Tool not found: ", true),
    ]],
    ["assistant", [{
      type: "finish",
      data: {
        reason: "error",
        time: 1004,
        message: "API Error",
        details: "400 Bad Request: Invalid 'input[3].name': empty string",
      },
    }]],
    ["assistant", [
      call("c1", "bash", JSON.stringify({ command: "kubectl get nodes" })),
      { type: "finish", data: { reason: "tool_use", time: 1006 } },
    ]],
    ["tool", [res("c1", "k1 Ready", false)]],
  ];
}

Deno.test("a Crush call refused for invalid parameters is not run, counts as no command, and a provider error is a notice", async () => {
  const root = tempDir("deja-crush-refused-");
  try {
    const env = await indexedCrushSession(root, SID, "debug pods", sessionRows());

    const pipe = captureIO(env, false);
    assertEquals(await showCmd.run({ values: {}, positionals: ["0d21b928"] }, pipe.io), 0);
    const out = pipe.out();
    const heads = out.split("\n").map((l) => l.match(/ ((?:tool_(?:call|result)|notice).*)$/)?.[1])
      .filter(Boolean);
    assertEquals(heads, [
      "tool_call bash not run",
      "tool_result not run",
      "notice",
      // Its result has no `Exit code` line: Crush writes one only when the exit is not 0.
      "tool_call bash exit 0",
      "tool_result",
    ]);
    assertStringIncludes(out, "  $ kubectl version --short\n");
    assertStringIncludes(out, "  Error: API Error\n  400 Bad Request: Invalid 'input[3].name'");

    const store = Store.open(indexPath(env));
    try {
      const io = captureIO(env, false).io;
      const how = howData(
        store,
        parseHow({ values: { junk: true }, positionals: ["kubectl"] }),
        io,
      );
      assertEquals(how.commands.map((c) => [c.command, c.runs, c.failed]), [
        ["kubectl get nodes", 1, 0],
      ]);
      const hits = search(store, "input[3].name empty string");
      assert(hits.results.length === 1, `provider error searchable: ${hits.tier}`);
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
