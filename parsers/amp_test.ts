import { assert, assertEquals } from "../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { amp, REMOTE_NOTE } from "./amp.ts";
import { runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { documentHostileTests, parseDocument } from "../tests/_hostile.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { tempDir } from "../tests/_tmp.ts";

function parseThread(doc: unknown) {
  return parseDocument(amp, "T-1.json", doc);
}

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "amp")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, amp), want);
});

Deno.test("an installed Amp with no thread files gives one marker source that says threads are remote", async () => {
  const dir = tempDir("deja-amp-");
  try {
    const data = join(dir, "share", "amp");
    mkdirSync(join(data, "logs"), { recursive: true });
    mkdirSync(join(data, "threads"));
    const e = testEnv(join(dir, "home"), { XDG_DATA_HOME: join(dir, "share") });
    const run = await runParser(amp, e);
    assertEquals(run.discovery.sources.map((s) => [s.path, s.kind]), [[data, "append"]]);
    assertEquals([run.sessions.length, run.skips[data]], [0, { unsupported: 1 }]);
    const ctx = new SourceCtx(e);
    for await (const _ of amp.parse(run.discovery.sources[0], ctx)) assert(false, "no sessions");
    assertEquals(ctx.examples, [`unsupported at ${data}: ${REMOTE_NOTE}`]);
    assertEquals(ctx.endOffset, 0, "nothing in the directory is read");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("no source at all when Amp is not installed", async () => {
  const d = await amp.discover({ env: testEnv("/nonexistent-home"), knownProjects: [] });
  assertEquals(d.sources, []);
  assert(d.roots.includes("/nonexistent-home/.local/share/amp/threads"));
});

Deno.test("messages take sentAt, usage.timestamp or the previous time, the first the thread's created", async () => {
  const { s } = await parseThread({
    id: "T-1",
    created: 1780401600000,
    messages: [
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
      { role: "user", content: [{ type: "text", text: "hi" }], meta: { sentAt: 1780401601000 } },
      {
        role: "assistant",
        content: [{ type: "text", text: "a" }],
        usage: { timestamp: "2026-06-02T12:00:05Z" },
      },
      { role: "user", content: [{ type: "text", text: "b" }] },
    ],
  });
  assertEquals(s?.events.map((e) => e.time), [
    1780401600000,
    1780401601000,
    1780401605000,
    1780401605000,
  ]);
});

Deno.test("a Bash result with exitCode -1 has no exit, a rejected run is an error", async () => {
  const { s } = await parseThread({
    id: "T-1",
    created: 1780401600000,
    env: { initial: { cwd: "/w/x" } },
    messages: [
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "Bash", input: { cmd: "sleep 9" } }],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseID: "t1",
            run: { status: "done", result: { output: "", exitCode: -1 } },
          },
          { type: "tool_result", toolUseID: "t2", run: { status: "cancelled" } },
        ],
      },
      { role: "ghost", content: [] },
    ],
  });
  const res = s!.events.filter((e) => e.kind === "tool_result").map((e) => e.result);
  assertEquals(res, [{ isError: false, callId: "t1" }, { isError: true, callId: "t2" }]);
  assertEquals(s?.project, "/w/x", "env.initial.cwd when no file tree is named");
});

documentHostileTests(amp, "T-2.json");
