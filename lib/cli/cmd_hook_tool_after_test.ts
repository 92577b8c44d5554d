import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { nested, noIndexEnv, runHookCmd, silent, withHookIndex } from "../../tests/_hook_cli.ts";
import { hookAnswer, hookToolAfterCmd, parseHookArgs } from "./cmd_hook_tool_after.ts";

const args = (values: Record<string, string | boolean> = {}) => ({ values, positionals: [] });
const failure = (id: string) => ({
  session_id: id,
  cwd: "/w/app",
  hook_event_name: "PostToolUseFailure",
  tool_name: "Bash",
  tool_input: { command: "npm test" },
  error: "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:6379",
});

Deno.test("hook-tool-after parses the dialect from --harness", () => {
  assertEquals(parseHookArgs("hook-tool-after", args({ harness: "codex" })).dialect.id, "codex");
});

Deno.test("hook-tool-after's run gives what fixed the error before, echoing the event name", () =>
  withHookIndex(async (env) => {
    const o = parseHookArgs("hook-tool-after", args());
    const ev = JSON.stringify(failure("f1"));
    const r = await hookAnswer(o, captureIO(env, false, [], ev).io);
    assertEquals(r.answer?.event, "PostToolUseFailure");
    assertStringIncludes(r.answer!.text, "`docker compose up -d redis`");
    assertEquals((await hookAnswer(o, captureIO(env, false, [], ev).io)).answer, null, "once");
  }));

Deno.test("hook-tool-after writes the same envelope at a terminal and in a pipe", () =>
  withHookIndex(async (env) => {
    const text = nested(
      await runHookCmd(hookToolAfterCmd, env, failure("t1"), true),
      await runHookCmd(hookToolAfterCmd, env, failure("t2"), false),
      "PostToolUseFailure",
    );
    assertStringIncludes(text, "docker compose up -d redis");
  }));

Deno.test("hook-tool-after exits 0 silently after a success, on garbage and without an index", () =>
  withHookIndex(async (env) => {
    const ok = {
      ...failure("s1"),
      hook_event_name: "PostToolUse",
      error: undefined,
      tool_response: { stdout: "42 passing", exit_code: 0 },
    };
    silent(await runHookCmd(hookToolAfterCmd, env, ok, true));
    silent(await runHookCmd(hookToolAfterCmd, env, "null", false));
    silent(await runHookCmd(hookToolAfterCmd, noIndexEnv(), failure("s2"), false));
    const r = await runMain(env, ["hook-tool-after", "-x"], JSON.stringify(failure("s3")));
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, "PostToolUseFailure");
  }));

Deno.test("hook-tool-after reads a PostToolUse response given as its text alone", () =>
  withHookIndex(async (env) => {
    // Trial 24: a string `tool_response` gave nothing, though its text was the error.
    const asText = (id: string, text: string) => ({
      ...failure(id),
      hook_event_name: "PostToolUse",
      error: undefined,
      tool_response: text,
    });
    const said = await runHookCmd(
      hookToolAfterCmd,
      env,
      asText("r1", "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:6379"),
      false,
    );
    assertStringIncludes(said.out, "docker compose up -d redis");
    silent(await runHookCmd(hookToolAfterCmd, env, asText("r2", "42 passing"), false));
  }));

Deno.test("hook-tool-after's help names the event fields it reads", async () => {
  const r = await runMain(noIndexEnv(), ["hook-tool-after", "--help"]);
  assertEquals(r.code, 0);
  for (const field of ["tool_input.command", "error", "tool_response", "exit_code", "is_error"]) {
    assertStringIncludes(r.out, field);
  }
});

Deno.test("hook-tool-after reads PowerShell's exit 0 beside an error it printed as a failure", () =>
  withHookIndex(async (env) => {
    // Trial 27: `{stdout: "ParserError: …", exit_code: 0}` of a pwsh command gave nothing.
    const ev = (id: string, command: string) => ({
      ...failure(id),
      hook_event_name: "PostToolUse",
      error: undefined,
      tool_input: { command },
      tool_response: { stdout: "Error: connect ECONNREFUSED 127.0.0.1:6379", exit_code: 0 },
    });
    const said = await runHookCmd(hookToolAfterCmd, env, ev("p1", "pwsh -Command npm test"), false);
    assertStringIncludes(said.out, "docker compose up -d redis");
    // Another program's 0 is its own.
    silent(await runHookCmd(hookToolAfterCmd, env, ev("p2", "cat redis.log"), false));
  }));
