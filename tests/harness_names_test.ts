/**
 * `--harness` takes the product names people type (new-user report, 2026-12:
 * `--harness copilot-cli` was refused as an unknown harness, and so was `Claude Code` typed with
 * its space); one reader (core/registry.ts `harnessId`) serves search, last, ctx and the rest.
 * An unknown name still fails with the list of ids.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { indexSessions } from "./_memory.ts";
import { harnessId, harnessNames } from "../core/registry.ts";

const ID = "c1a0de00-1111-4222-8333-444455556666";
const SESSION = {
  id: ID,
  cwd: "/w/app",
  start: "2026-11-01T10:00:00Z",
  turns: [{ user: "the websocket reconnect loop spins" }, { say: "Fixed the websocket backoff." }],
};

Deno.test("search, last and ctx take a harness's product names for its id", async () => {
  const ix = await indexSessions([SESSION]);
  try {
    for (const name of ["claude", "claude-code", "Claude Code", "claude-cli", "CLAUDE_CODE"]) {
      const search = await runMain(ix.env, ["search", "websocket", "--harness", name, "--json"]);
      assertEquals(search.code, 0, `search --harness '${name}': ${search.err}`);
      assertEquals(JSON.parse(search.out).results[0].id, ID);
      const last = await runMain(ix.env, ["last", "--harness", name, "--json"]);
      assertEquals(last.code, 0, `last --harness '${name}': ${last.err}`);
      assertEquals(JSON.parse(last.out).sessions[0].id, ID);
      const ctx = await runMain(ix.env, ["ctx", "websocket", "--harness", name, "--json"]);
      assertEquals(ctx.code, 0, `ctx --harness '${name}': ${ctx.err}`);
      assertEquals(JSON.parse(ctx.out).session.id, ID);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("--harness copilot-cli, gemini-cli and codex-cli name their harness; an unknown name fails with the ids", async () => {
  const ix = await indexSessions([SESSION]);
  try {
    for (const [name, id] of [["copilot-cli", "copilot"], ["gemini-cli", "gemini"]]) {
      // Accepted: the filter leaves nothing (exit 1), said of the harness it names.
      const r = await runMain(ix.env, ["last", "--harness", name]);
      assertEquals(r.code, 1, `${name}: ${r.err}`);
      assertStringIncludes(r.err, `in harness ${id}`);
    }
    const bad = await runMain(ix.env, ["search", "websocket", "--harness", "copilot-clii"]);
    assertEquals(bad.code, 2);
    assertStringIncludes(
      bad.err,
      "deja: unknown harness 'copilot-clii'; did you mean 'copilot'?\nhint: one of: claude, ",
    );
    // A near miss of an id or a name is named (trial 16); a far one is not guessed at.
    for (const [typed, id] of [["claud", "claude"], ["cladue-code", "claude"], ["codx", "codex"]]) {
      const r = await runMain(ix.env, ["last", "--harness", typed]);
      assertStringIncludes(r.err, `unknown harness '${typed}'; did you mean '${id}'?`);
    }
    // A word of the name that names one (trial 16: `Kimi Code` was offered `kilocode`).
    for (const [typed, id] of [["Kimi Code", "kimi"], ["OpenAI Codex", "codex"]]) {
      const r = await runMain(ix.env, ["last", "--harness", typed]);
      assertStringIncludes(r.err, `unknown harness '${typed}'; did you mean '${id}'?`);
    }
    const far = await runMain(ix.env, ["last", "--harness", "zzzz"]);
    assertStringIncludes(far.err, "deja: unknown harness 'zzzz'\nhint: one of:");
  } finally {
    ix.cleanup();
  }
  const typed = ["codex-cli", "github-copilot", "GitHub Copilot CLI", "copilot-chat", "kimi-cli"];
  assertEquals(typed.map(harnessId), ["codex", "copilot", "copilot", "copilot_chat", "kimi"]);
  // The command that runs a harness names it too (trial 16: `cursor-agent` was unknown).
  const commands = ["cursor-agent", "droid", "agy", "kiro-cli", "cn", "traex", "prime-agent"];
  assertEquals(commands.map(harnessId), [
    "cursor",
    "factory",
    "antigravity",
    "kiro",
    "continue",
    "trae",
    "prime",
  ]);
  assertEquals([harnessId("cli"), harnessId("-cli"), harnessId("")], [
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("no name --harness takes names two harnesses", () => {
  const owner = new Map<string, string>();
  for (const { name, id } of harnessNames()) {
    const before = owner.get(name) ?? id;
    assertEquals(before, id, `'${name}' names both ${before} and ${id}: drop it from one`);
    owner.set(name, id);
  }
});
