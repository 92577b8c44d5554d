import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { METRICS, noIndexEnv, runHookCmd, silent, withHookIndex } from "../../tests/_hook_cli.ts";
import { hookAnswer, hookPrecompactCmd, parseHookArgs } from "./cmd_hook_precompact.ts";

const args = (values: Record<string, string | boolean> = {}) => ({ values, positionals: [] });

Deno.test("hook-precompact parses the dialect from --harness", () => {
  assertEquals(parseHookArgs("hook-precompact", args({ harness: "gemini" })).dialect.id, "gemini");
});

Deno.test("hook-precompact's run digests the agent's own session before compaction", () =>
  withHookIndex(async (env) => {
    const o = parseHookArgs("hook-precompact", args());
    const ev = JSON.stringify({ session_id: METRICS.id, cwd: "/w/app" });
    const r = await hookAnswer(o, captureIO(env, false, [], ev).io);
    assertEquals(r.answer?.event, "PreCompact");
    assertStringIncludes(r.answer!.text, "prom-client");
  }));

Deno.test("hook-precompact writes the same plain text at a terminal and in a pipe", () =>
  withHookIndex(async (env) => {
    // Plain text, not a hookSpecificOutput envelope: Claude Code has none for PreCompact and
    // takes the hook's stdout as the compaction's instructions (lib/hooks/dialect.ts).
    const ev = { session_id: METRICS.id, cwd: "/w/app" };
    const tty = await runHookCmd(hookPrecompactCmd, env, ev, true);
    const pipe = await runHookCmd(hookPrecompactCmd, env, ev, false);
    assertEquals([tty.code, pipe.code, tty.err, pipe.err], [0, 0, "", ""]);
    assertEquals(tty.out, pipe.out);
    assert(pipe.out.startsWith("<deja-recall"), pipe.out);
    assertStringIncludes(pipe.out, METRICS.id);
  }));

Deno.test("hook-precompact exits 0 silently on garbage and without an index", () =>
  withHookIndex(async (env) => {
    silent(await runHookCmd(hookPrecompactCmd, env, "{{", true));
    silent(await runHookCmd(hookPrecompactCmd, noIndexEnv(), { session_id: "x" }, false));
    const r = await runMain(env, ["hook-precompact", "--crush"], "");
    assertEquals(r.code, 0);
  }));
