/**
 * The mock model over real HTTP: each wire protocol streamed and whole, the
 * scenario's turns, the request log, the proxy refusal and the bounds.
 */
import { readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { type Mock, readLog, startMock } from "./mock_model.ts";
import { FAIL_CMD, markers, prompts, type Scenario, SHELL_CMD } from "./_mock_script.ts";
import { pick, type Schema, type Tool } from "./_mock_tools.ts";
import { tempDir } from "../_tmp.ts";

const S: Scenario = {
  id: "t3st01",
  steps: ["shell", "fail", "edit", "write", "subagent"],
  agentType: "general-purpose",
};
const M = markers(S.id);
const P = prompts(S);
const PROJECT = "/work/farmproj";

async function withMock(
  fn: (m: Mock, log: string) => Promise<void>,
  opts: { maxRequests?: number; maxMs?: number } = {},
) {
  const dir = tempDir("deja-mock-");
  const log = join(dir, "requests.jsonl");
  const m = await startMock({ scenario: S, project: PROJECT, log, ...opts });
  try {
    await fn(m, log);
  } finally {
    await m.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const post = async (m: Mock, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(m.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, type: r.headers.get("content-type") ?? "", text: await r.text() };
};

/** The JSON payloads of an SSE body. */
const events = (sse: string) =>
  sse.split("\n\n").map((b) => b.split("\n").find((l) => l.startsWith("data: "))?.slice(6)).filter((
    d,
  ): d is string => !!d && d !== "[DONE]").map((d) => JSON.parse(d));

const CLAUDE_TOOLS = [
  {
    name: "Bash",
    input_schema: {
      type: "object",
      properties: { command: { type: "string" }, description: { type: "string" } },
      required: ["command"],
    },
  },
  {
    name: "Read",
    input_schema: {
      type: "object",
      properties: { file_path: { type: "string" } },
      required: ["file_path"],
    },
  },
  {
    name: "Edit",
    input_schema: { type: "object", properties: { file_path: {}, old_string: {}, new_string: {} } },
  },
  { name: "Write", input_schema: { type: "object", properties: { file_path: {}, content: {} } } },
  {
    name: "Agent",
    input_schema: {
      type: "object",
      properties: { prompt: {}, description: {}, subagent_type: { type: "string" } },
    },
  },
];
const results = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "ok" }],
    }),
  );

Deno.test("the mock plays the main turn step by step over Anthropic Messages when the request is not streamed", async () => {
  await withMock(async (m) => {
    const ask = async (n: number) =>
      JSON.parse(
        (await post(m, "/v1/messages", {
          model: "x",
          tools: CLAUDE_TOOLS,
          messages: [{ role: "user", content: P.main }, ...results(n)],
        })).text,
      );
    const steps = [];
    for (let n = 0; n < 7; n++) {
      const r = await ask(n);
      const use = r.content.find((c: { type: string }) => c.type === "tool_use");
      steps.push(
        use
          ? `${use.name}:${
            use.input.command ?? use.input.old_string ?? use.input.content ?? use.input.prompt
          }`
          : `text:${r.content[0].text}`,
      );
      assertEquals(r.stop_reason, use ? "tool_use" : "end_turn");
    }
    assertEquals(steps.slice(0, 6), [
      `Bash:${SHELL_CMD}`,
      `Bash:${FAIL_CMD}`,
      `Read:undefined`,
      "Edit:hello world",
      `Write:${M.write} first line\nsecond line\n`,
      `Agent:${P.subagent}`,
    ]);
    assertStringIncludes(steps[6], M.answer);
  });
});

Deno.test("the mock streams a tool call as SSE content blocks when an Anthropic request asks for a stream", async () => {
  await withMock(async (m) => {
    const r = await post(m, "/v1/messages", {
      stream: true,
      tools: CLAUDE_TOOLS,
      messages: [{ role: "user", content: P.main }],
    });
    assertStringIncludes(r.type, "text/event-stream");
    const ev = events(r.text);
    assertEquals(ev[0].type, "message_start");
    const json = ev.filter((e) => e.delta?.type === "input_json_delta").map((e) =>
      e.delta.partial_json
    ).join("");
    assertEquals(JSON.parse(json).command, SHELL_CMD);
    assertEquals(ev.at(-2).delta.stop_reason, "tool_use");
  });
});

Deno.test("the mock answers the subagent, the follow-up and a compaction with their markers when those turns come", async () => {
  await withMock(async (m) => {
    const text = async (messages: unknown[], tools = CLAUDE_TOOLS) => {
      const r = JSON.parse((await post(m, "/v1/messages", { tools, messages })).text);
      return r.content.map((c: { text?: string; input?: { command?: string } }) =>
        c.text ?? c.input?.command
      ).join(" ");
    };
    assertStringIncludes(await text([{ role: "user", content: P.subagent }]), `echo ${M.subagent}`);
    assertStringIncludes(
      await text([{ role: "user", content: P.subagent }, ...results(1)]),
      M.subagent,
    );
    const history = [{ role: "user", content: P.main }, ...results(6), {
      role: "assistant",
      content: "done",
    }];
    assertStringIncludes(
      await text([...history, { role: "user", content: P.followup }]),
      M.followup,
    );
    const compact = "Your task is to create a detailed summary of the conversation so far.";
    assertStringIncludes(
      await text([...history, { role: "user", content: compact }], []),
      M.summary,
    );
    assertEquals(await text([{ role: "user", content: "Generate a title" }], []), "Farm reply.");
  });
});

Deno.test("the mock streams a function call in chunks over Chat Completions when stream is true", async () => {
  await withMock(async (m) => {
    const tools = [{
      type: "function",
      function: { name: "bash", parameters: { properties: { command: { type: "string" } } } },
    }];
    const r = await post(m, "/v1/chat/completions", {
      stream: true,
      tools,
      messages: [{ role: "user", content: P.main }],
    });
    const ev = events(r.text);
    const args = ev.flatMap((e) =>
      e.choices.flatMap((
        c: { delta: { tool_calls?: Array<{ function: { arguments?: string } }> } },
      ) => c.delta.tool_calls ?? [])
    )
      .map((t: { function: { arguments?: string } }) => t.function.arguments ?? "").join("");
    assertEquals(JSON.parse(args), { command: SHELL_CMD });
    assertEquals(
      ev.find((e) => e.choices[0]?.finish_reason)?.choices[0].finish_reason,
      "tool_calls",
    );
    assertStringIncludes(r.text, "data: [DONE]");
    const whole = JSON.parse(
      (await post(m, "/v1/chat/completions", {
        tools,
        messages: [{ role: "user", content: P.main }, { role: "tool", content: "x" }],
      })).text,
    );
    assertEquals(
      JSON.parse(whole.choices[0].message.tool_calls[0].function.arguments).command,
      FAIL_CMD,
    );
  });
});

Deno.test("the mock sends a freeform patch as a custom tool call over Responses when apply_patch is custom", async () => {
  await withMock(async (m) => {
    const tools = [
      {
        type: "function",
        name: "exec_command",
        parameters: { properties: { cmd: { type: "string" } } },
      },
      { type: "custom", name: "apply_patch", format: { type: "grammar" } },
    ];
    const input = [
      { type: "message", role: "user", content: [{ type: "input_text", text: P.main }] },
      { type: "function_call_output", call_id: "a" },
      {
        type: "function_call_output",
        call_id: "b",
      },
    ];
    const r = await post(m, "/v1/responses", { stream: true, tools, input });
    const done = events(r.text).find((e) => e.type === "response.completed").response;
    const call = done.output.find((o: { type: string }) => o.type === "custom_tool_call");
    assertEquals(call.name, "apply_patch");
    assertStringIncludes(
      call.input,
      `*** Update File: README.md\n@@\n-hello world\n+hello ${M.edit}`,
    );
    const w = JSON.parse(
      (await post(m, "/v1/responses", {
        tools,
        input: [...input, { type: "custom_tool_call_output", call_id: "c" }],
      })).text,
    );
    assertStringIncludes(w.output[1].input, `*** Add File: notes.txt\n+${M.write} first line`);
  });
});

Deno.test("the mock answers Gemini generateContent whole and streamGenerateContent as SSE", async () => {
  await withMock(async (m) => {
    const body = {
      contents: [{ role: "user", parts: [{ text: P.main }] }],
      tools: [{
        functionDeclarations: [{
          name: "run_shell_command",
          parametersJsonSchema: { properties: { command: {} } },
        }],
      }],
    };
    const whole = JSON.parse(
      (await post(m, "/v1beta/models/gemini-2.5-flash:generateContent", body)).text,
    );
    assertEquals(whole.candidates[0].content.parts[1].functionCall, {
      name: "run_shell_command",
      args: { command: SHELL_CMD },
    });
    const r = await post(m, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body);
    assertStringIncludes(r.type, "text/event-stream");
    assertEquals(
      events(r.text)[0].candidates[0].content.parts[1].functionCall.name,
      "run_shell_command",
    );
    const schema = {
      type: "object",
      properties: { next_speaker: { type: "string", enum: ["model", "user"] } },
    };
    const j = JSON.parse(
      (await post(m, "/v1beta/models/x:generateContent", {
        ...body,
        generationConfig: { responseJsonSchema: schema },
      })).text,
    );
    assertEquals(JSON.parse(j.candidates[0].content.parts[0].text), { next_speaker: "user" });
  });
});

Deno.test("every request is logged with its route and reply, and credentials are redacted", async () => {
  await withMock(async (m, log) => {
    await post(m, "/v1/messages", {
      tools: CLAUDE_TOOLS,
      messages: [{ role: "user", content: P.main }],
    }, { "x-api-key": "sk-ant-secret" });
    await fetch(m.url + "/v1/models").then((r) => r.text());
    const entries = readLog(readFileSync(log, "utf8"));
    assertEquals(entries.map((e) => e.route), ["anthropic", "models"]);
    assertEquals(entries[0].headers["x-api-key"], "<redacted>");
    assertEquals(entries[0].reply?.tool, "Bash");
    assert(!readFileSync(log, "utf8").includes("sk-ant-secret"));
  });
});

Deno.test("a CONNECT to another host is refused and logged as outbound when a harness uses the mock as a proxy", async () => {
  await withMock(async (m, log) => {
    await new Promise<void>((resolve) => {
      const s = connect(
        m.port,
        "127.0.0.1",
        () =>
          s.write(
            "CONNECT telemetry.example.com:443 HTTP/1.1\r\nHost: telemetry.example.com:443\r\n\r\n",
          ),
      );
      s.on("data", () => {});
      s.on("close", () => resolve());
      s.on("error", () => resolve());
    });
    const out = readLog(readFileSync(log, "utf8")).filter((e) => e.route === "outbound");
    assertEquals(out.map((e) => e.path), ["telemetry.example.com:443"]);
  });
});

Deno.test("the mock listens on 127.0.0.1 and closes by itself when its request or time bound is reached", async () => {
  await withMock(async (m) => {
    assert(m.url.startsWith("http://127.0.0.1:"));
    assertEquals((await post(m, "/v1/messages", {})).status, 200);
    assertEquals((await post(m, "/v1/messages", {})).status, 200);
    assertEquals((await post(m, "/v1/messages", {})).status, 429);
    await m.closed;
  }, { maxRequests: 2 });
  await withMock(async (m) => {
    const t0 = Date.now();
    await m.closed;
    assert(Date.now() - t0 < 2000);
  }, { maxMs: 100 });
});

Deno.test("tools are picked by name first and by schema after when harnesses name them differently", () => {
  const fn = (name: string, properties: Record<string, Schema> = {}): Tool => ({
    name,
    kind: "function",
    schema: { properties },
  });
  // Copilot CLI: write_agent is not a file writer, create is.
  const copilot = [
    fn("bash", { command: {} }),
    fn("write_agent", { agent_id: {} }),
    fn("create", { path: {}, file_text: {} }),
    fn("task", { prompt: {}, agent_type: {} }),
  ];
  assertEquals(pick(copilot, "write")?.name, "create");
  assertEquals(pick(copilot, "agent")?.name, "task");
  // Auggie: write-process writes to a terminal; save-file writes files.
  const auggie = [
    fn("launch-process", { command: {} }),
    fn("write-process", { input_text: {} }),
    fn("save-file", { path: {}, file_content: {} }),
  ];
  assertEquals(pick(auggie, "shell")?.name, "launch-process");
  assertEquals(pick(auggie, "write")?.name, "save-file");
  // Continue: MultiEdit with edits[] is the only edit tool.
  assertEquals(
    pick([fn("Write", { filepath: {} }), fn("MultiEdit", { file_path: {}, edits: {} })], "edit")
      ?.name,
    "MultiEdit",
  );
  // An edit tool whose arguments the mock cannot write is not picked (omp's hashline edit).
  assertEquals(pick([fn("edit", { path: {}, patch_lines: {} })], "edit"), undefined);
  // Codex: apply_patch is a custom tool and never a shell.
  assertEquals(pick([{ name: "apply_patch", kind: "custom", schema: {} }], "shell"), undefined);
});
