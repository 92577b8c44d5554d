import { assert, assertEquals } from "../tests/_assert.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { auggie } from "./auggie.ts";
import { REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { documentHostileTests, parseDocument } from "../tests/_hostile.ts";
import type { Event, Session } from "../core/model.ts";

const FARM = join(REPO, "../shared/realdata/farm/auggie/home/.augment/sessions");

const ide = (root: string) => ({
  id: 2,
  type: 4,
  ide_state_node: { workspace_folders: [{ repository_root: root, folder_root: root }] },
});
const use = (id: string, name: string, input: unknown) => ({
  id: 2,
  type: 5,
  content: "",
  tool_use: { tool_use_id: id, tool_name: name, input_json: JSON.stringify(input) },
  timestamp_ms: 1780100000000,
});
const result = (id: string, content: string, is_error = false) => ({
  id: 1,
  type: 1,
  tool_result_node: {
    tool_use_id: id,
    content,
    is_error,
    start_time_ms: 1780100001000,
    duration_ms: 5,
  },
});
const exchange = (msg: string, reqNodes: unknown[], respNodes: unknown[], text = "") => ({
  exchange: {
    request_message: msg,
    response_text: text,
    request_nodes: reqNodes,
    response_nodes: respNodes,
  },
  completed: true,
});

function parseHistory(chatHistory: unknown[]) {
  const doc = { sessionId: "aug-t", created: "2026-05-30T00:00:00Z", chatHistory };
  return parseDocument(auggie, "s.json", doc);
}

const of = (s: Session | undefined, kind: Event["kind"]) =>
  s?.events.filter((e) => e.kind === kind) ?? [];

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "auggie")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, auggie), want);
});

Deno.test("launch-process results give exit and bare output when Augment frames them", async () => {
  const framed =
    "Here are the results from executing the command.\n<return-code>\n127\n</return-code>\n" +
    "<output>\nsh: nope: not found\n\n</output>";
  const { s } = await parseHistory([
    exchange("run nope", [ide("/w/a")], [
      use("t1", "launch-process", { command: "nope", cwd: "/w/a" }),
    ]),
    exchange("", [result("t1", framed, true)], [], "It failed."),
  ]);
  assertEquals(of(s, "tool_call")[0].tool?.command, "nope");
  const [res] = of(s, "tool_result");
  assertEquals([res.text, res.result], ["sh: nope: not found", {
    isError: true,
    callId: "t1",
    exit: 127,
  }]);
  assertEquals(res.time, 1780100001005, "a result's time is its start plus its duration");
});

Deno.test("edits, writes and paths come from apply_patch, str-replace-editor, save-file and remove-files", async () => {
  const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n";
  const { s } = await parseHistory([
    exchange("edit", [ide("/w/a")], [
      use("t1", "apply_patch", { input: patch }),
      use("t2", "str-replace-editor", {
        command: "str_replace",
        path: "b.py",
        old_str_1: "1",
        new_str_1: "2",
      }),
      use("t3", "save-file", { path: "c.md", file_content: "hi\n" }),
      use("t4", "remove-files", { file_paths: ["d.txt"] }),
    ]),
  ]);
  const tools = of(s, "tool_call").map((e) => e.tool!);
  assertEquals(tools[0].edits, [{ path: "/w/a/a.txt", old: "old", new: "new" }]);
  assertEquals(tools[1].edits, [{ path: "/w/a/b.py", old: "1", new: "2" }]);
  assertEquals(tools[2].writes, [{ path: "/w/a/c.md", content: "hi\n" }]);
  assertEquals(tools[3].paths, ["/w/a/d.txt"]);
  assertEquals(s?.project, "/w/a");
});

Deno.test("node types deja does not know are counted when an exchange holds them", async () => {
  const { s, counts } = await parseHistory([
    exchange("hi", [{ id: 3, type: 7, other: {} }], [{ id: 4, type: 8, thinking: {} }], "hello"),
  ]);
  assertEquals(counts.unknown_record, 2);
  assertEquals(s?.events.map((e) => e.kind), ["user", "assistant"]);
});

Deno.test("a chatHistory item without an exchange is counted bad_shape", async () => {
  const { counts } = await parseHistory([{ completed: true }, exchange("hi", [], [], "yo")]);
  assertEquals(counts.bad_shape, 1);
});

documentHostileTests(auggie);

Deno.test({
  name:
    "the farm store gives the marker, cat missing.txt with exit 1 and the README edit (auggie 0.36.0)",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(auggie, testEnv("/h", { DEJA_AUGGIE_ROOT: FARM }));
    assertEquals([run.errors, run.skips, run.sessions.length], [{}, {}, 1]);
    const s = run.sessions[0];
    assertEquals(s.project, "/tmp/farm/auggie/proj");
    assert(of(s, "assistant").some((e) => e.text.includes("zebrafinch-auggie")), "marker");
    const cat = of(s, "tool_call").find((e) => e.tool?.command === "cat missing.txt");
    assert(cat, "cat missing.txt is a command");
    const res = of(s, "tool_result").find((e) => e.result?.callId === cat.tool?.id);
    assertEquals([res?.result?.exit, res?.result?.isError], [1, true]);
    assertEquals(res?.text, "cat: missing.txt: No such file or directory");
    const edits = of(s, "tool_call").flatMap((e) => e.tool?.edits ?? []);
    assertEquals(edits, [{
      path: "/tmp/farm/auggie/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
  },
});
