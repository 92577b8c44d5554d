import { join } from "node:path";
import { kimi } from "./kimi.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { materialize, runParser, testEnv } from "../tests/_fixture.ts";
import { jsonlHostileTests } from "../tests/_hostile.ts";
import type { Parser } from "../core/model.ts";

const FIXTURE = join(import.meta.dirname!, "../fixtures/registry/kimi");
const SID = "session_9a1c0000-0000-4000-8000-00000000c0de";

async function fixture() {
  const fx = materialize(FIXTURE);
  try {
    const run = await runParser(kimi, testEnv(fx.root, { DEJA_KIMI_ROOT: fx.root }));
    return { run, byId: new Map(run.sessions.map((s) => [s.id, s])) };
  } finally {
    fx.cleanup();
  }
}

Deno.test("kimi discovery finds Kimi Code agent wire files under the same root as kimi-cli's", async () => {
  const { run } = await fixture();
  const code = run.discovery.sources.filter((s) => s.hint?.code);
  assertEquals(code.map((s) => s.hint?.agent).sort(), ["agent-1", "main"]);
  assert(code.every((s) => s.kind === "append" && s.hint?.session === SID));
});

Deno.test("a Kimi Code session gets its workDir, title, typed prompts, calls and exit codes", async () => {
  const { byId } = await fixture();
  const s = byId.get(SID)!;
  assertEquals([s.project, s.title, s.parent], [
    "/work/orchard",
    "Fix the pear counter",
    undefined,
  ]);
  assertEquals(s.started, 1780000001000);
  assertEquals(s.updated, 1780000060000);
  const users = s.events.filter((e) => e.kind === "user").map((e) => e.text);
  assertEquals(users, ["fix the pear counter", "thanks, ship it"]); // the injection is not the person's
  assertEquals(s.events.filter((e) => e.kind === "summary").length, 1);
  const bash = s.events.filter((e) => e.tool?.name === "Bash").map((e) => e.tool?.command);
  assertEquals(bash, ["deno test pears_test.ts", "deno test pears_test.ts"]);
  const exits = s.events.filter((e) => e.kind === "tool_result").map((e) => e.result?.exit);
  assertEquals(exits, [1, undefined, undefined, 0]);
  const edit = s.events.find((e) => e.tool?.name === "Edit")!.tool!.edits!;
  assertEquals(edit, [{ path: "/work/orchard/src/pears.ts", old: "count - 1", new: "count" }]);
  assert(!s.events.some((e) => e.text.includes("hidden reasoning")));
});

Deno.test("a Kimi Code sub-agent's wire file is filed under its parent session", async () => {
  const { byId } = await fixture();
  const sub = byId.get(`${SID}/agent-1`)!;
  assertEquals(sub.parent, SID);
  assertEquals(sub.project, "/work/orchard");
  assertEquals(sub.events.find((e) => e.kind === "user")?.text, "Read src/apples.ts");
});

/** The parser as discovery hands it a Kimi Code wire file (the hint names the session). */
const hinted: Parser = {
  ...kimi,
  parse: (s, ctx) =>
    kimi.parse({ ...s, hint: { code: "/nonexistent", session: "s1", agent: "main" } }, ctx),
};
jsonlHostileTests(hinted, {
  file: "s1/agents/main/wire.jsonl",
  id: "s1",
  record: (i) =>
    i % 2 === 0
      ? {
        type: "context.append_message",
        time: 1780000000000 + i,
        message: { role: "user", content: [{ type: "text", text: `prompt ${i}` }] },
      }
      : {
        type: "context.append_loop_event",
        time: 1780000000000 + i,
        event: { type: "content.part", stepUuid: "x", part: { type: "text", text: `answer ${i}` } },
      },
});
