/**
 * Hook dialects as data (registry.json `hook_dialects`, lib/hooks/dialect.ts):
 * each harness's envelope, where the project and session come from, the
 * session-start hook speaking with empty stdin (pi's extension runs it so),
 * hook-precompact, edit and shell tools by other harnesses' names, and an unknown
 * `hook-*` name being an error rather than a search.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { COMMANDS, main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";
import {
  checkDialects,
  checkWiredEvents,
  dialectFor,
  dialects,
  envelope,
  placeOf,
} from "../lib/hooks/dialect.ts";
import { HOOKS } from "../lib/hooks/table.ts";
import { failureText, patchFile } from "../lib/hooks/run.ts";
import registry from "../registry.json" with { type: "json" };
import { testEnv } from "./_fixture.ts";
import { readFileSync } from "node:fs";
import { hookLogPath } from "../lib/hooks/log.ts";

const DONE: SessionSpec = {
  id: "d4d40004-0000-4000-8000-000000000004",
  cwd: "/w/shop",
  start: "2026-10-07T10:00:00Z",
  turns: [
    { user: "Make the checkout total include the marigold discount code." },
    { bash: "npm test", out: "checkout: 12 passing", exit: 0 },
    { edit: "/w/shop/src/checkout.ts", old: "total(0)", new: "total(discount)" },
    { say: "The marigold discount now applies in checkout; tests pass." },
  ],
};

async function run(env: Env, args: string[], stdin: string, cwd = "/") {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env,
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(stdin),
  };
  const code = await main(io);
  return { code, out: out.join(""), err: err.join("") };
}

async function withIndex(fn: (env: Env) => Promise<void>) {
  const ix = await indexSessions([DONE]);
  try {
    await fn(ix.env);
  } finally {
    ix.cleanup();
  }
}

Deno.test("the dialect table is well formed and names only registry harnesses", () => {
  const ids = new Set(registry.harnesses.map((h) => h.id));
  assertEquals(checkDialects(registry.hook_dialects, ids), []);
  assert(dialects().size >= 5);
  assertEquals(dialectFor([]).envelope, "nested");
  assertEquals(dialectFor(["--crush"]).envelope, "flat");
  assertEquals(dialectFor(["--harness", "pi"]).envelope, "text");
  assertEquals(dialectFor(["--harness=cursor"]).envelope, "cursor");
  assertEquals(dialectFor(["--harness", "nosuch"]).envelope, "nested");
});

// Trial 131 F4: `--harness crushh` was answered in Claude Code's envelope with no trace.
Deno.test("a hook with an unknown --harness answers as Claude Code's and says so in hooks.log", () =>
  withIndex(async (env) => {
    const ev = JSON.stringify({ session_id: "z1", cwd: "/w/shop" });
    const quiet = await run(env, ["hook-context", "--harness", "crushh"], ev);
    assertEquals(quiet.code, 0);
    assertStringIncludes(quiet.out, '"hookSpecificOutput"');
    assertEquals(quiet.err, "");
    const log = readFileSync(hookLogPath(env), "utf8");
    assertStringIncludes(
      log,
      "hook-context --harness 'crushh' is no harness deja knows (nearest: crush);",
    );
    const debug = { ...env, get: (k: string) => k === "DEJA_DEBUG" ? "1" : env.get(k) };
    const loud = await run(debug as Env, ["hook-context", "--harness", "crushh"], ev);
    assertStringIncludes(loud.err, "--harness 'crushh' is no harness deja knows (nearest: crush);");
    // Trial 135 F6: one edit from a name a harness takes (`claude-code`) is that harness,
    // not the ids nearest by their own spelling (`claude, codex, opencode`).
    assertEquals(dialectFor(["--harness", "claude-cod"]).nearest, ["claude"]);
    assertEquals(dialectFor(["--harness", "gemini_clii"]).nearest, ["gemini"]);
    // A harness deja knows, spelt as a person would, is no mistake.
    const known = await run(env, ["hook-context", "--harness", "Claude-Code"], ev);
    assertEquals(known.code, 0);
    assertEquals(readFileSync(hookLogPath(env), "utf8").split("\n").length, 3);
    assertEquals(dialectFor(["--harness", "claude"]).nearest, undefined);
  }));

// Trial 132 F7: doctor counted each unknown-harness run as an "answer given up"; an empty or
// missing --harness was not logged; `deja` was offered as a nearest harness id.
Deno.test("doctor reports unknown-harness hook runs as wiring to fix, not as give-ups", () =>
  withIndex(async (env) => {
    const wirings = [["--harness", "crushh"], ["--harness", "crushh"], ["--harness", ""], [
      "--harness",
    ]];
    for (const [i, args] of wirings.entries()) {
      const ev = JSON.stringify({ session_id: `z2-${i}`, cwd: "/w/shop" });
      const r = await run(env, ["hook-context", ...args], ev);
      assertEquals(r.code, 0);
      assertStringIncludes(r.out, '"hookSpecificOutput"');
    }
    await run(env, ["hook-tool"], "garbage"); // one real give-up
    const d = await run(env, ["doctor"], "");
    assertStringIncludes(d.out, "hooks        1 answer given up in the last 7 days");
    assertStringIncludes(
      d.out,
      "2 hook runs with an unknown --harness 'crushh' (nearest: crush)",
    );
    assertStringIncludes(d.out, "answered in Claude Code's envelope; fix the wiring");
    assertStringIncludes(d.out, "2 hook runs with --harness and no id in the last 7 days");
    const j = JSON.parse((await run(env, ["doctor", "--json"], "")).out).hooks;
    assertEquals(j.gave_up, 1);
    assertEquals(j.last.map((g: { hook: string }) => g.hook), ["hook-tool"]);
    assertEquals(
      j.unknown_harness.map((u: { harness: string; runs: number }) => [u.harness, u.runs]),
      [["crushh", 2], ["", 2]],
    );
    assertEquals(j.unknown_harness[0].nearest[0], "crush");
    assert(!dialectFor(["--harness", "codexx"]).nearest!.includes("deja"));
    assert(!dialectFor(["--harness", "dejaa"]).nearest!.includes("deja"));
  }));

Deno.test("checkDialects names an unknown envelope and an unknown harness", () => {
  const bad = { zz: { envelope: "xml", project_env: [], session_env: [], cwd_env: "x" } };
  const p = checkDialects(bad, new Set(["claude"]));
  assertEquals(p.length, 3, p.join("\n"));
});

Deno.test("checkDialects names an event_names key that is no hook and an empty event name", () => {
  const row = { envelope: "nested", project_env: [], session_env: [], cwd_env: [] };
  const bad = { claude: { ...row, event_names: { "hook-nope": "X", "hook-tool": "" } } };
  const p = checkDialects(bad, new Set(["claude"]));
  assertEquals(p.length, 2, p.join("\n"));
  assertStringIncludes(p[0], "hook-nope");
  assertStringIncludes(p[1], "hook-tool");
});

Deno.test("every -auto wiring runs each hook on the event its dialect's event_names names", () => {
  const all = dialects();
  const problems = registry.harnesses.flatMap((h) => {
    const hooks = (h as { install?: { auto?: { hooks?: { event?: unknown; args?: unknown }[] } } })
      .install?.auto?.hooks ?? [];
    return checkWiredEvents(h.id, hooks, all.get(h.id));
  });
  assertEquals(problems, []);
  const wrong = checkWiredEvents(
    "gemini",
    [{ event: "UserPromptSubmit", args: ["hook-prompt"] }],
    all.get("gemini"),
  );
  assertEquals(wrong.length, 1);
  assertStringIncludes(wrong[0], "BeforeAgent");
});

Deno.test("Gemini CLI's hooks echo its own event names (google-gemini/gemini-cli HookEventName)", async () => {
  // Other sessions make the prompt's words rare enough for hook-prompt to search them.
  const filler = (n: number): SessionSpec => ({
    id: `f${n}f00000-0000-4000-8000-00000000000${n}`,
    cwd: "/w/shop",
    start: `2026-10-0${n}T10:00:00Z`,
    turns: [{ user: `Rename the logger module, step ${n}.` }, { say: "Renamed." }],
  });
  const ix = await indexSessions([DONE, ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(filler)]);
  try {
    const env = ix.env;
    const ev = (extra: Record<string, unknown>) =>
      JSON.stringify({ session_id: "g9", cwd: "/w/shop", ...extra });
    const name = async (args: string[], stdin: string) => {
      const r = await run(env, [...args, "--harness", "gemini"], stdin);
      return r.out ? JSON.parse(r.out).hookSpecificOutput.hookEventName : "(silent)";
    };
    const prompt = ev({ hook_event_name: "BeforeAgent", prompt: "marigold discount checkout" });
    assertEquals(await name(["hook-prompt"], prompt), "BeforeAgent");
    const tool = ev({
      hook_event_name: "BeforeTool",
      tool_name: "write_file",
      tool_input: { file_path: "/w/shop/src/checkout.ts", content: "x" },
    });
    assertEquals(await name(["hook-tool"], tool), "BeforeTool");
    assertEquals(await name(["hook-precompact"], ev({ session_id: DONE.id })), "PreCompress");
    // Claude Code's dialect keeps Claude Code's names.
    const again = prompt.replace('"g9"', '"c9"'); // another session: nothing seen yet
    const c = await run(env, ["hook-prompt"], again);
    assertEquals(JSON.parse(c.out).hookSpecificOutput.hookEventName, "UserPromptSubmit");
  } finally {
    ix.cleanup();
  }
});

Deno.test("each envelope kind wraps the text the way its harness reads it", () => {
  const t = "<deja>hi</deja>";
  const all = dialects();
  assertEquals(JSON.parse(envelope(all.get("claude")!, t, "SessionStart")), {
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: t },
  });
  assertEquals(JSON.parse(envelope(all.get("crush")!, t, "PreToolUse")), {
    version: 1,
    context: t,
  });
  assertEquals(JSON.parse(envelope(all.get("cursor")!, t, "SessionStart")), {
    additional_context: t,
  });
  assertEquals(envelope(all.get("pi")!, t, "SessionStart"), t + "\n");
});

Deno.test("hook-context speaks plain text with empty stdin for pi, placed by the process cwd", () =>
  withIndex(async (env) => {
    const r = await run(env, ["hook-context", "--harness", "pi"], "", "/w/shop");
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, DONE.id);
    assertStringIncludes(r.out, "marigold");
    assert(!r.out.trimStart().startsWith("{"), "plain text, no JSON envelope");
  }));

Deno.test("hook-context takes the project from the dialect's variable (Gemini CLI)", () =>
  withIndex(async (env) => {
    const e = { ...env, get: (k: string) => k === "GEMINI_PROJECT_DIR" ? "/w/shop" : env.get(k) };
    const ev = JSON.stringify({ session_id: "g1", cwd: "/elsewhere" });
    const r = await run(e as Env, ["hook-context", "--harness", "gemini"], ev);
    const v = JSON.parse(r.out);
    assertEquals(v.hookSpecificOutput.hookEventName, "SessionStart");
    assertStringIncludes(v.hookSpecificOutput.additionalContext, DONE.id);
  }));

Deno.test("hook-precompact tells the agent's own session before compaction", () =>
  withIndex(async (env) => {
    const ev = JSON.stringify({ session_id: DONE.id, cwd: "/w/shop", trigger: "auto" });
    // Plain text: neither Claude Code nor Codex has a hookSpecificOutput for PreCompact (Claude
    // Code 2.1.332 rejects one; it takes stdout as the compaction's instructions).
    for (const harness of ["codex", "claude"]) {
      const r = await run(env, ["hook-precompact", "--harness", harness], ev);
      assertEquals(r.code, 0);
      assert(!r.out.trimStart().startsWith("{"), r.out);
      assertStringIncludes(r.out, "This session before it was compacted");
      assertStringIncludes(r.out, "marigold");
    }
    // A second compaction says it again (the session grew), a session not indexed nothing
    // (never the project's last session: trial 16).
    const again = await run(env, ["hook-precompact", "--harness", "claude"], ev);
    assertStringIncludes(again.out, "marigold");
    const unknown = JSON.stringify({ session_id: "not-indexed-yet", cwd: "/w/shop" });
    assertEquals((await run(env, ["hook-precompact"], unknown)).out, "");
  }));

Deno.test("hook-tool knows Codex apply_patch and Gemini CLI write_file as edits of a file", () =>
  withIndex(async (env) => {
    const body =
      "*** Begin Patch\n*** Update File: /w/shop/src/checkout.ts\n@@\n-a\n+b\n*** End Patch";
    assertEquals(patchFile(body), "/w/shop/src/checkout.ts");
    const codex = {
      session_id: "c1",
      cwd: "/w/shop",
      tool_name: "apply_patch",
      tool_input: { command: body },
    };
    const r = await run(env, ["hook-tool", "--harness", "codex"], JSON.stringify(codex));
    assertStringIncludes(JSON.parse(r.out).hookSpecificOutput.additionalContext, "checkout.ts");
    const gem = {
      session_id: "g2",
      cwd: "/w/shop",
      tool_name: "write_file",
      tool_input: { file_path: "/w/shop/src/checkout.ts", content: "x" },
    };
    const g = await run(env, ["hook-tool", "--harness", "gemini"], JSON.stringify(gem));
    assertStringIncludes(JSON.parse(g.out).hookSpecificOutput.additionalContext, "checkout.ts");
  }));

const FLAKY: SessionSpec = {
  id: "f5f50005-0000-4000-8000-000000000005",
  cwd: "/w/shop",
  start: "2026-10-08T10:00:00Z",
  turns: [
    { user: "The cart tests fail on a cold cache." },
    { bash: "npm test", out: "cart: Error: cache miss", exit: 1 },
    { say: "Warming the cache before the cart tests fixed the failure." },
  ],
};

Deno.test("hook-tool knows the shell tools of Factory, Command Code and PowerShell by their names", async () => {
  const ix = await indexSessions([FLAKY]);
  try {
    const env = ix.env;
    for (
      const [harness, tool] of [
        ["claude", "Bash"],
        ["factory", "Execute"],
        ["commandcode", "shell_command"],
        ["claude", "PowerShell"],
      ]
    ) {
      const event = {
        session_id: `s-${tool}`,
        cwd: "/w/shop",
        tool_name: tool,
        tool_input: { command: "npm test" },
      };
      const r = await run(env, ["hook-tool", "--harness", harness], JSON.stringify(event));
      assertEquals(r.code, 0);
      assertStringIncludes(r.out, "npm test", `${harness} ${tool}`);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("an unknown hook-* name is an error (exit 2), not a search", () =>
  withIndex(async (env) => {
    const r = await run(env, ["hook-sessionstart"], "{}");
    assertEquals(r.code, 2);
    assertEquals(r.out, "");
    assertStringIncludes(r.err, "unknown hook 'hook-sessionstart'");
    assertStringIncludes(r.err, "hook-precompact");
  }));

Deno.test("every hook of the table is a command of the command table", () => {
  const names = new Set(COMMANDS.map((c) => c.name));
  for (const h of HOOKS) assert(names.has(h.name), h.name);
});

Deno.test("a Cursor event without cwd: its first workspace root and its conversation id", () => {
  const env = testEnv("/home/u");
  const ev = { conversation_id: "c-1", workspace_roots: ["/w/shop", "/w/other"], prompt: "hi" };
  const p = placeOf(dialectFor(["--harness", "cursor"]), ev, env, "/somewhere/else");
  assertEquals([p.cwd, p.dir, p.id], ["/w/shop", "/w/shop", "c-1"]);
  // CURSOR_PROJECT_DIR, when set, still names the project.
  const q = placeOf(
    dialectFor(["--harness", "cursor"]),
    ev,
    testEnv("/home/u", { CURSOR_PROJECT_DIR: "/w/proj" }),
    "/x",
  );
  assertEquals(q.dir, "/w/proj");
});

Deno.test("a cwd with a trailing separator is the same directory", () => {
  // Trial 16: `cwd: ".../proj1/"` matched no project and every hook was silent.
  const env = testEnv("/home/u");
  const place = (cwd: string) => placeOf(dialectFor([]), { cwd }, env, "/x");
  assertEquals([place("/w/shop/").cwd, place("/w/shop//").dir], ["/w/shop", "/w/shop"]);
  assertEquals(place("C:\\Users\\u\\app\\").cwd, "C:\\Users\\u\\app");
  // A root stays a root.
  assertEquals([place("/").cwd, place("C:\\").cwd], ["/", "C:\\"]);
});

Deno.test("hook-tool-after reads Gemini CLI's AfterTool result object (llmContent, error)", async () => {
  // Trial 39: Gemini's hooks reference gives `tool_response` as `{llmContent, returnDisplay,
  // error?}`; deja answered a failed `run_shell_command` so given with nothing.
  const ix = await indexSessions([{
    id: "9e390000-0000-4000-8000-000000000039",
    cwd: "/w/shop",
    start: "2026-10-01T10:00:00Z",
    turns: [
      { bash: "npm test", out: "Error: Cannot find module 'lodash'", exit: 1 },
      { bash: "npm install lodash", out: "added 1 package", exit: 0 },
      { bash: "npm test", out: "1 passing", exit: 0 },
    ],
  }]);
  try {
    const llm =
      "Command: npm test\nDirectory: (root)\nOutput: Error: Cannot find module 'lodash'\n" +
      "Error: (none)\nExit Code: 1";
    for (
      const response of [
        { llmContent: llm, returnDisplay: "Error: Cannot find module 'lodash'" },
        { llmContent: [{ text: llm }], error: { message: "exit 1", type: "SHELL" } },
      ]
    ) {
      const ev = JSON.stringify({
        session_id: `g${JSON.stringify(response).length}`,
        cwd: "/w/shop",
        hook_event_name: "AfterTool",
        tool_name: "run_shell_command",
        tool_input: { command: "npm test" },
        tool_response: response,
      });
      const r = await run(ix.env, ["hook-tool-after", "--harness", "gemini"], ev);
      assertEquals(r.code, 0);
      assertStringIncludes(r.out, "npm install lodash");
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 55: `Output: ParserError: …` in llmContent (a display text that says less) matched
// no error seen before: the label was read as part of the error.
Deno.test("hook-tool-after reads Gemini's llmContent without its part labels", async () => {
  const err = "ParserError: Variable reference is not valid. ':' was not followed by a valid " +
    "variable name character.";
  const ix = await indexSessions([{
    id: "9e390000-0000-4000-8000-000000000055",
    cwd: "/w/win",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { bash: "pwsh -c Import-Module ./Setup.psm1", out: err, exit: 1 },
      { edit: "/w/win/Setup.psm1", old: "$x:", new: "${x}:" },
      { bash: "pwsh -c Import-Module ./Setup.psm1", out: "", exit: 0 },
    ],
  }]);
  try {
    const ev = JSON.stringify({
      session_id: "g55",
      cwd: "/w/win",
      hook_event_name: "AfterTool",
      tool_name: "run_shell_command",
      tool_input: { command: "pwsh -c Import-Module ./Setup.psm1" },
      tool_response: { llmContent: `Output: ${err}\nExit Code: 1`, returnDisplay: "x" },
    });
    const r = await run(ix.env, ["hook-tool-after", "--harness", "gemini"], ev);
    assertEquals(r.code, 0);
    assertStringIncludes(r.out, "edit Setup.psm1");
    // The error as read: its label gone.
    assertEquals(failureText(JSON.parse(ev)), `${err}\nExit Code: 1`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a PostToolUse whose harness says the call succeeded is no failure, whatever its output holds (trial 109 F5)", async () => {
  const err = "RuntimeException: '-BeTrue' is not a valid Should operator.";
  const ix = await indexSessions([{
    id: "9e390000-0000-4000-8000-000000000109",
    cwd: "/w/pester",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { bash: "npm test", out: err, exit: 1 },
      { edit: "/w/pester/Setup.Tests.ps1", old: "-BeTrue", new: "-Be $true" },
      { bash: "npm test", out: "Tests Passed: 3", exit: 0 },
    ],
  }]);
  let calls = 0;
  const event = (response: Record<string, unknown>, harness: string[]) =>
    run(
      ix.env,
      ["hook-tool-after", ...harness],
      JSON.stringify({
        session_id: `f5-${calls++}`, // a new session each: nothing is held back as said
        cwd: "/w/pester",
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_response: response,
      }),
    );
  try {
    for (const harness of [["--harness", "codex"], []]) {
      // No word of success: the error line is read as the failure, and its fix said.
      const unsaid = await event({ stdout: err, stderr: "" }, harness);
      assertEquals(unsaid.code, 0);
      assertStringIncludes(unsaid.out, "edit Setup.Tests.ps1");
      for (const ok of [{ is_error: false }, { isError: false }]) {
        const r = await event({ stdout: err, stderr: "", ...ok }, harness);
        assertEquals([r.code, r.out], [0, ""], JSON.stringify(ok));
      }
    }
    const said = { stdout: err, stderr: "" };
    assertEquals(failureText({ tool_response: { ...said, is_error: false } }), undefined);
    assertEquals(failureText({ tool_response: { ...said, is_error: true } }), err);
    // A stated non-zero exit outweighs the flag (a store's `is_error` may mean only that the
    // tool ran).
    const exit1 = { stdout: `${err}\nExit code 1`, stderr: "", is_error: false };
    assertEquals(failureText({ tool_response: exit1 }), `${err}\nExit code 1`);
  } finally {
    ix.cleanup();
  }
});
