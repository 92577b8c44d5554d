/**
 * The wiring check's mock script and log checks (wiring.ts) on synthetic
 * requests, and its recording (`_wiring_verified.ts`): the search detour, the
 * bridge call, what counts as a tool result, and the registry/page edits.
 */
import { assert, assertEquals } from "../_assert.ts";
import type { View } from "./_mock_script.ts";
import type { Tool } from "./_mock_tools.ts";
import type { LoggedRequest } from "./mock_model.ts";
import { prompt } from "./roundtrip.ts";
import { isDejaTool, marker, offered, split, wiringChecks, wiringPlay } from "./wiring.ts";
import { readWiringBlock, setWiring, updateWiringPage } from "./_wiring_verified.ts";

const tool = (name: string, kind: Tool["kind"] = "function"): Tool => ({ name, kind, schema: {} });
const view = (tools: Tool[], n: number): View => ({
  tools,
  userTexts: [prompt("abc123")],
  resultsAfter: [n],
  system: "",
});

Deno.test("every harness's name for deja's tool is recognised, and nothing else", () => {
  // `deja`: pi's tool (its extension registers it; pi reads no MCP config).
  const names = [
    "mcp__deja__deja",
    "mcp_deja_deja",
    "deja_deja",
    "deja-deja",
    "deja__deja",
    "deja",
  ];
  for (const n of names) assert(isDejaTool(n), n);
  for (const n of ["dejavu", "mcp__other__deja", "tool_search"]) assert(!isDejaTool(n), n);
});

Deno.test("wiring play searches for a deferred deja tool, calls it through a bridge, then answers", () => {
  const play = wiringPlay("abc123");
  const tools = [tool("run_shell_command"), tool("tool_search"), tool("tool_call")];
  const steps = [0, 1, 2].map((n) => play(view(tools, n)));
  assertEquals(steps.map((r) => r?.kind === "tool" ? r.tool.name : r?.kind), [
    "tool_search",
    "tool_call",
    "text",
  ]);
  const call = steps[1];
  assert(call?.kind === "tool");
  assertEquals(call.args.name, "mcp__deja__deja");
});

Deno.test("wiring play calls OpenClaw's tool_call {id, args} with the name its search returned", () => {
  const play = wiringPlay("abc123");
  const bridge: Tool = {
    name: "tool_call",
    kind: "function",
    schema: { type: "object", properties: { id: { type: "string" }, args: { type: "object" } } },
  };
  const searched = '[{"id": "mcp:deja:deja__deja", "name": "deja__deja"}]';
  play(view([tool("exec"), tool("tool_search"), bridge], 0));
  const call = play({
    ...view([tool("exec"), tool("tool_search"), bridge], 1),
    results: [searched],
  });
  assert(call?.kind === "tool");
  assertEquals(call.tool.name, "tool_call");
  assertEquals(call.args.id, "deja__deja");
  assertEquals(Object.keys(call.args), ["id", "args"]);
});

Deno.test("wiring play calls an offered deja tool at once", () => {
  const r = wiringPlay("abc123")(view([tool("tool_search"), tool("deja_deja")], 0));
  assert(r?.kind === "tool");
  assertEquals(r.tool.name, "deja_deja");
});

Deno.test("wiring play looks around once, then writes to omp's route when its MCP server shows up", () => {
  const play = wiringPlay("abc123", "/p");
  const tools = [tool("read"), tool("bash"), tool("write")];
  const first = play(view(tools, 0));
  assert(first?.kind === "tool");
  assertEquals([first.tool.name, first.args.command], ["bash", "sleep 1"]);
  const routed = {
    ...view(tools, 1),
    system: '## MCP Tool Routes\n- "deja" → `xd://mcp__deja_deja`',
  };
  const call = play(routed);
  assert(call?.kind === "tool");
  assertEquals(call.tool.name, "write");
  assertEquals(call.args.path, "xd://mcp__deja_deja");
  assertEquals(JSON.parse(String(call.args.content)).mode, "recall");
  assertEquals(play({ ...routed, resultsAfter: [2] })?.kind, "text");
});

Deno.test("wiring play selects the name Factory's deferred list gives, else searches by keyword", () => {
  const tools = [tool("Bash"), tool("ToolSearch")];
  const listed = {
    ...view(tools, 0),
    userTexts: ["Deferred tools:\nWebSearch\ndeja___deja\n", prompt("abc123")],
  };
  const r = wiringPlay("abc123")(listed);
  assert(r?.kind === "tool");
  assertEquals(r.args.query, "select:deja___deja");
  const claude = "load tool schemas before calling them:\nCronCreate\nmcp__deja__deja\n\nAgents:";
  const c = wiringPlay("abc123")({ ...view(tools, 0), system: claude });
  assert(c?.kind === "tool");
  assertEquals(c.args.query, "select:mcp__deja__deja");
  // Not listed yet (its MCP server connects late): one look around, then a keyword search.
  const play = wiringPlay("abc123");
  const names = [0, 1].map((n) => play(view(tools, n))).map((x) =>
    x?.kind === "tool" && x.tool.name
  );
  assertEquals(names, ["Bash", "ToolSearch"]);
  const search = play(view(tools, 1));
  assert(search?.kind === "tool");
  assertEquals(search.args.query, "deja");
});

Deno.test("tool results are told apart from the rest in every protocol", () => {
  const body = {
    messages: [
      { role: "user", content: "hello" },
      { role: "tool", content: "chat result" },
      { role: "user", content: [{ type: "tool_result", content: "anthropic result" }] },
    ],
    input: [{ type: "function_call_output", output: "responses result" }],
    contents: [{ parts: [{ functionResponse: { response: { output: "gemini result" } } }] }],
    nodes: [{ type: 1, tool_result_node: { content: "augment result" } }],
  };
  const s = split(body);
  for (const r of ["chat", "anthropic", "responses", "gemini", "augment"]) {
    assert(s.results.includes(`${r} result`), r);
    assert(!s.rest.includes(`${r} result`), r);
  }
  assert(s.rest.includes("hello"));
});

Deno.test("offered names Responses namespaces and tools a tool search loaded", () => {
  const body = {
    tools: [{ type: "function", name: "exec_command" }, { functionDeclarations: [{ name: "g" }] }],
    tool_definitions: [{ name: "deja_deja", input_schema_json: "{}" }],
    input: [{
      type: "tool_search_output",
      tools: [{
        type: "namespace",
        name: "mcp__deja",
        tools: [{ type: "function", name: "deja" }],
      }],
    }],
  };
  assertEquals(offered(body), ["exec_command", "g", "deja_deja", "mcp__deja__deja"]);
});

function req(body: unknown, reply: LoggedRequest["reply"]): LoggedRequest {
  return { t: "", method: "POST", path: "/", route: "chat", headers: {}, body, reply };
}

Deno.test("wiring checks: offered, answered with the marker, hook text before any tool call", () => {
  const m = marker("abc123");
  const tools = [{ function: { name: "deja_deja" } }];
  const log = [
    req({ tools, messages: [{ role: "system", content: `recall ${m}` }] }, {
      turn: "main",
      tool: "deja_deja",
      args: {},
    }),
    req({ tools, messages: [{ role: "tool", content: `found ${m}` }] }, {
      turn: "main",
      text: "ok",
    }),
  ];
  assertEquals(wiringChecks(log, "abc123", true).map((c) => c.ok), [true, true, true]);
  // The marker only in the system prompt (a hook), not in the tool's result: not answered.
  const noAnswer = [log[0], req({ tools, messages: [] }, { turn: "main", text: "ok" })];
  assertEquals(wiringChecks(noAnswer, "abc123", false).map((c) => c.ok), [true, false, null]);
});

Deno.test("wiring checks: omp's route counts as offered and a write to it as the call", () => {
  const m = marker("abc123");
  const tools = [{ function: { name: "write" } }];
  const system = { role: "system", content: '- "deja" → `xd://mcp__deja_deja`' };
  const log = [
    req({ tools, messages: [] }, { turn: "main", tool: "read", args: {} }),
    req({ tools, messages: [system] }, {
      turn: "main",
      tool: "write",
      args: { path: "xd://mcp__deja_deja", content: "{}" },
    }),
    req({ tools, messages: [system, { role: "tool", content: `found ${m}` }] }, {
      turn: "main",
      text: "ok",
    }),
  ];
  const checks = wiringChecks(log, "abc123", false);
  assertEquals(checks.map((c) => c.ok), [true, true, null]);
  assert(checks[0].detail.includes("xd://mcp__deja_deja"), checks[0].detail);
});

Deno.test("wiring_verified goes after verified_by and is replaced in place; the page part is read back", () => {
  const reg = '{\n  "harnesses": [\n    {\n      "id": "x",\n      "verified_by": "farm",\n' +
    '      "last": 1\n    }\n  ]\n}\n';
  const v = { version: "1.2.3", date: "2026-12-01", mcp: true, hooks: null };
  const once = setWiring(reg, "x", v);
  assertEquals(JSON.parse(once).harnesses[0].wiring_verified, v);
  const twice = setWiring(once, "x", { ...v, hooks: true });
  assertEquals(JSON.parse(twice).harnesses[0].wiring_verified.hooks, true);
  assertEquals(twice.split("wiring_verified").length, 2);
  // A long version breaks the value over lines as deno fmt would; a later run replaces it whole.
  const long = setWiring(twice, "x", { ...v, version: "2026.9.6-beta.1234567890" });
  assert(long.split("\n").every((l) => l.length <= 100), long);
  assertEquals(JSON.parse(setWiring(long, "x", v)).harnesses[0].wiring_verified, v);
  assertEquals(setWiring(long, "x", v).split("wiring_verified").length, 2);
  const g = {
    ...v,
    id: "x",
    display: "X",
    package: "x-cli",
    farmName: "x",
    installed: "deja install x",
    offered: "deja_deja in the first tool list",
  };
  const page = updateWiringPage("# X\n\n## Verified\n\n- notes\n", g);
  assertEquals(readWiringBlock(page), { version: "1.2.3", date: "2026-12-01" });
  assertEquals(updateWiringPage(page, g), page);
});
