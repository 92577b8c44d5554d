import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import {
  METRICS,
  nested,
  noIndexEnv,
  runHookCmd,
  silent,
  withHookIndex,
} from "../../tests/_hook_cli.ts";
import { hookAnswer, hookContextCmd, parseHookArgs } from "./cmd_hook_context.ts";

const args = (values: Record<string, string | boolean> = {}) => ({ values, positionals: [] });

Deno.test("hook-context parses its dialect: Claude Code's by default, --harness <id> and --crush", () => {
  const d = (v: Record<string, string | boolean>) => parseHookArgs("hook-context", args(v)).dialect;
  assertEquals([d({}).id, d({}).envelope], ["claude", "nested"]);
  assertEquals(d({ harness: "crush" }).envelope, "flat");
  assertEquals(d({ crush: true }).envelope, "flat");
  assertEquals(d({ harness: "cursor" }).envelope, "cursor");
  // An id without a row speaks Claude Code's dialect under its own id.
  assertEquals([d({ harness: "nope" }).id, d({ harness: "nope" }).envelope], ["nope", "nested"]);
});

Deno.test("hook-context's run says where the project's last session ended, once per agent session", () =>
  withHookIndex(async (env) => {
    const o = parseHookArgs("hook-context", args());
    const ev = JSON.stringify({ session_id: "agent-c1", cwd: "/w/app" });
    const r = await hookAnswer(o, captureIO(env, false, [], ev).io);
    assertEquals(r.answer?.event, "SessionStart");
    assertStringIncludes(r.answer!.text, METRICS.id);
    assertEquals(r.kick?.lastIndex !== undefined, true, "the index opened");
    assertEquals((await hookAnswer(o, captureIO(env, false, [], ev).io)).answer, null);
  }));

Deno.test("hook-context writes the same envelope at a terminal and in a pipe; Crush's is flat", () =>
  withHookIndex(async (env) => {
    const ev = (id: string) => ({ session_id: id, cwd: "/w/app", source: "startup" });
    const text = nested(
      await runHookCmd(hookContextCmd, env, ev("t1"), true),
      await runHookCmd(hookContextCmd, env, ev("t2"), false),
      "SessionStart",
    );
    assertStringIncludes(text, "prom-client");
    const crush = await runHookCmd(hookContextCmd, env, ev("t3"), false, { harness: "crush" });
    const v = JSON.parse(crush.out);
    assertEquals(Object.keys(v), ["version", "context"]);
    assertStringIncludes(v.context, METRICS.id);
  }));

Deno.test("hook-context exits 0 silently on garbage, elsewhere, and without an index; ignores unknown options", () =>
  withHookIndex(async (env) => {
    silent(await runHookCmd(hookContextCmd, env, "{not json", false));
    silent(await runHookCmd(hookContextCmd, env, { session_id: "x", cwd: "/w/none" }, true));
    silent(await runHookCmd(hookContextCmd, noIndexEnv(), { cwd: "/w/app" }, false));
    const r = await runMain(
      env,
      ["hook-context", "--bogus", "x"],
      JSON.stringify({ cwd: "/w/app" }),
    );
    assertEquals(r.code, 0);
    assert(r.out.includes(METRICS.id), r.out);
  }));
