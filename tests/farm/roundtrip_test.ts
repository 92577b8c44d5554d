/**
 * The round-trip script (roundtrip.ts) on its own, and through the mock
 * model's `play` option: which call comes at which step, the deferred-tool
 * detour, and what it leaves to the farm scenario.
 */
import { assert, assertEquals } from "../_assert.ts";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { View } from "./_mock_script.ts";
import type { Tool } from "./_mock_tools.ts";
import { readLog, startMock } from "./mock_model.ts";
import {
  CHECK_CMD,
  DECISION,
  DEJA_TOOL,
  prompt,
  RECALL_ARGS,
  roundTrip,
  SEED_ID,
  seedStore,
  slug,
  tags,
  TOOL_SEARCH,
} from "./roundtrip.ts";
import { tempDir } from "../_tmp.ts";

const tool = (name: string): Tool => ({ name, kind: "function", schema: {} });
const view = (tools: string[], userTexts: string[], resultsAfter: number[]): View => ({
  tools: tools.map(tool),
  userTexts,
  resultsAfter,
  system: "",
});

Deno.test("round trip runs Bash, loads the deferred deja tool, recalls, then answers when deja is deferred", () => {
  const play = roundTrip("abc123");
  const p = prompt("abc123");
  const tools = ["Bash", "Read", TOOL_SEARCH];
  const steps = [0, 1, 2, 3].map((n) => play(view(tools, ["ctx", p], [0, n])));
  assertEquals(steps.map((r) => r?.kind === "tool" ? r.tool.name : r?.text), [
    "Bash",
    TOOL_SEARCH,
    DEJA_TOOL,
    `Recalled; marker ${tags("abc123").answer}.`,
  ]);
  const [bash, search, recall] = steps;
  assert(bash?.kind === "tool" && search?.kind === "tool" && recall?.kind === "tool");
  assertEquals(bash.args.command, CHECK_CMD);
  assertEquals(search.args, { query: `select:${DEJA_TOOL}` });
  assertEquals(recall.args, { ...RECALL_ARGS });
});

Deno.test("round trip calls deja directly when the tool list already holds it", () => {
  const play = roundTrip("abc123");
  const tools = [DEJA_TOOL, TOOL_SEARCH];
  const first = play(view(tools, [prompt("abc123")], [0]));
  assert(first?.kind === "tool");
  assertEquals(first.tool.name, DEJA_TOOL);
});

Deno.test("round trip leaves untagged and tool-less requests to the scenario", () => {
  const play = roundTrip("abc123");
  assertEquals(play(view(["Bash"], ["Write a title for this chat"], [0])), undefined);
  assertEquals(play(view([], [prompt("abc123")], [0])), undefined);
  assertEquals(play(view(["Bash"], [prompt("zzz999")], [0])), undefined);
});

Deno.test("seed store files the decision session under the project's slug with the project as cwd", () => {
  const files = seedStore("/home/u/src/app", Date.UTC(2026, 10, 29));
  const lines = files[`${slug("/home/u/src/app")}/${SEED_ID}.jsonl`].trim().split("\n")
    .map((l) => JSON.parse(l));
  assertEquals(new Set(lines.map((l) => l.cwd)), new Set(["/home/u/src/app"]));
  assert(lines.at(-1).message.content[0].text.startsWith(DECISION));
  assert(Object.keys(files).length > 4, "filler sessions make the prompt's words rare");
});

Deno.test("mock model answers with the play script when one is given and logs the reply", async () => {
  const dir = tempDir("deja-rt-mock-");
  const log = join(dir, "r.jsonl");
  const mock = await startMock({
    scenario: { id: "abc123", steps: [] },
    play: roundTrip("abc123"),
    project: dir,
    log,
  });
  try {
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        tools: [{ name: DEJA_TOOL, input_schema: { type: "object" } }],
        messages: [{ role: "user", content: prompt("abc123") }],
      }),
    });
    const msg = await res.json();
    assertEquals(msg.stop_reason, "tool_use");
    assertEquals(msg.content[1].name, DEJA_TOOL);
  } finally {
    await mock.close();
  }
  const entry = readLog(readFileSync(log, "utf8"))[0];
  assertEquals(entry.reply, { turn: "main", tool: DEJA_TOOL, args: { ...RECALL_ARGS } });
  rmSync(dir, { recursive: true, force: true });
});
