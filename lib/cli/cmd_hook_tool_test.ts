import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import {
  nested,
  noIndexEnv,
  REDIS,
  runHookCmd,
  silent,
  withHookIndex,
} from "../../tests/_hook_cli.ts";
import { hookAnswer, hookToolCmd, parseHookArgs } from "./cmd_hook_tool.ts";
import { indexSessions } from "../../tests/_memory.ts";

const args = (values: Record<string, string | boolean> = {}) => ({ values, positionals: [] });
const bash = (id: string, command: string) => ({
  session_id: id,
  cwd: "/w/app",
  tool_name: "Bash",
  tool_input: { command },
});

Deno.test("hook-tool parses --crush as Crush's all-in-one dialect", () => {
  const d = parseHookArgs("hook-tool", args({ crush: true })).dialect;
  assertEquals([d.id, d.envelope, d.allInTool], ["crush", "flat", true]);
  assertEquals(parseHookArgs("hook-tool", args()).dialect.allInTool, false);
});

Deno.test("hook-tool's run notes a command and a file earlier sessions had", () =>
  withHookIndex(async (env) => {
    const o = parseHookArgs("hook-tool", args());
    const run = async (ev: unknown) =>
      (await hookAnswer(o, captureIO(env, false, [], JSON.stringify(ev)).io)).answer;
    const cmd = await run(bash("a1", "npm test"));
    assertEquals(cmd?.event, "PreToolUse");
    assertStringIncludes(cmd!.text, "`npm test` ran in 1 earlier session here");
    const edit = await run({
      session_id: "a2",
      cwd: "/w/app",
      tool_name: "Edit",
      tool_input: { file_path: "/w/app/src/ws_client.ts", old_string: "a", new_string: "b" },
    });
    assertStringIncludes(edit!.text, REDIS.id.slice(0, 8));
  }));

Deno.test("hook-tool writes the same envelope at a terminal and in a pipe", () =>
  withHookIndex(async (env) => {
    const text = nested(
      await runHookCmd(hookToolCmd, env, bash("t1", "npm test"), true),
      await runHookCmd(hookToolCmd, env, bash("t2", "npm test"), false),
      "PreToolUse",
    );
    assertStringIncludes(text, "1 of 2 runs failed");
  }));

Deno.test("hook-tool exits 0 silently for looking around, garbage, no index and odd arguments", () =>
  withHookIndex(async (env) => {
    silent(await runHookCmd(hookToolCmd, env, bash("s1", "ls -la"), true));
    silent(await runHookCmd(hookToolCmd, env, { tool_name: "Bash", tool_input: "x" }, false));
    silent(await runHookCmd(hookToolCmd, env, "[1,2", false));
    silent(await runHookCmd(hookToolCmd, noIndexEnv(), bash("s2", "npm test"), false));
    const r = await runMain(
      env,
      ["hook-tool", "--nope", "extra"],
      JSON.stringify(bash("s3", "npm test")),
    );
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, "hookSpecificOutput");
  }));

// Trial 55 (realdata Crush 0d21b928): before `kubectl get pods -n forgejo`, the hook passed on
// "the pod was restarted recently, which explains why it's going down" — a guess the reply
// then set out to check, which the record disproved.
Deno.test("hook-tool does not pass on a guess the earlier reply set out to check", async () => {
  const ix = await indexSessions([{
    id: "70070055-0000-4000-8000-000000000055",
    cwd: "/w/k",
    start: "2025-09-06T01:00:00Z",
    turns: [
      { user: "forgejo keeps going down" },
      { bash: "kubectl get pods -n forgejo", out: "forgejo-1 1/1 Running 0 4m13s", exit: 0 },
      {
        say: "I see the main Forgejo pod was restarted recently which explains why it's going " +
          "down. Let me check the logs to see what's causing the restarts:",
      },
      { bash: "kubectl rollout restart deploy/web -n shop", out: "restarted", exit: 0 },
      { say: "The rollout works now because the image tag was fixed." },
    ],
  }]);
  try {
    const o = parseHookArgs("hook-tool", args());
    const run = async (command: string, id: string) =>
      (await hookAnswer(
        o,
        captureIO(ix.env, false, [], JSON.stringify({ ...bash(id, command), cwd: "/w/k" })).io,
      )).answer;
    assertEquals(await run("kubectl get pods -n forgejo", "h1"), null);
    const other = await run("kubectl rollout restart deploy/web -n shop", "h2");
    assertStringIncludes(
      other!.text,
      "After it: The rollout works now because the image tag was fixed.",
    );
  } finally {
    ix.cleanup();
  }
});
