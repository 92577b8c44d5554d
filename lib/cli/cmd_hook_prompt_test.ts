import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import {
  nested,
  noIndexEnv,
  REDIS,
  runHookCmd,
  silent,
  withHookIndex,
} from "../../tests/_hook_cli.ts";
import { hookAnswer, hookPromptCmd, parseHookArgs } from "./cmd_hook_prompt.ts";

const args = (values: Record<string, string | boolean> = {}) => ({ values, positionals: [] });
const PROMPT = "the ws_client reconnect test is flaky again with ECONNREFUSED";

Deno.test("hook-prompt parses the dialect from --harness", () => {
  assertEquals(
    parseHookArgs("hook-prompt", args({ harness: "hermes" })).dialect.envelope,
    "context",
  );
  assertEquals(parseHookArgs("hook-prompt", args()).name, "hook-prompt");
});

Deno.test("hook-prompt's run recalls the session on the prompt's topic, once per agent session", () =>
  withHookIndex(async (env) => {
    const o = parseHookArgs("hook-prompt", args());
    const ev = JSON.stringify({ session_id: "p1", cwd: "/w/app", prompt: PROMPT });
    const r = await hookAnswer(o, captureIO(env, false, [], ev).io);
    assertEquals(r.answer?.event, "UserPromptSubmit");
    assertStringIncludes(r.answer!.text, REDIS.id.slice(0, 8));
    assertEquals((await hookAnswer(o, captureIO(env, false, [], ev).io)).answer, null);
  }));

Deno.test("hook-prompt writes the same envelope at a terminal and in a pipe; Hermes gets {context}", () =>
  withHookIndex(async (env) => {
    const ev = (id: string) => ({ session_id: id, cwd: "/w/app", prompt: PROMPT });
    const text = nested(
      await runHookCmd(hookPromptCmd, env, ev("t1"), true),
      await runHookCmd(hookPromptCmd, env, ev("t2"), false),
      "UserPromptSubmit",
    );
    assertStringIncludes(text, REDIS.id.slice(0, 8));
    const hermes = { session_id: "t3", cwd: "/w/app", extra: { user_message: PROMPT } };
    const v = JSON.parse(
      (await runHookCmd(hookPromptCmd, env, hermes, false, { harness: "hermes" })).out,
    );
    assertEquals(Object.keys(v), ["context"]);
  }));

Deno.test("hook-prompt exits 0 silently for chit-chat, garbage and without an index", () =>
  withHookIndex(async (env) => {
    silent(
      await runHookCmd(
        hookPromptCmd,
        env,
        { session_id: "q", cwd: "/w/app", prompt: "thanks!" },
        true,
      ),
    );
    silent(await runHookCmd(hookPromptCmd, env, "\x00\xff not json", false));
    silent(await runHookCmd(hookPromptCmd, noIndexEnv(), { prompt: PROMPT }, false));
    const r = await runMain(
      env,
      ["hook-prompt", "--harness"],
      JSON.stringify({ prompt: PROMPT, cwd: "/w/app" }),
    );
    assertEquals(r.code, 0, "a missing option value is no failure for a hook");
    assert(r.out === "" || r.out.includes("hookSpecificOutput"), r.out);
  }));
