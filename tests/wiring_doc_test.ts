/** docs/wiring.md is the wiring matrix generated from registry.json, never typed by hand. */
import { assert, assertEquals } from "./_assert.ts";
import { readFileSync } from "node:fs";
import { wiringMarkdown, wiringMatrix } from "../lib/install/matrix.ts";
import { wiringText } from "../lib/cli/cmd_sources.ts";

Deno.test("docs/wiring.md names the other config file names a harness reads", () => {
  assert(wiringMarkdown().includes("(or `${KIMI_SHARE_DIR:-~/.kimi}/mcp.json`)"));
  assert(
    wiringText().includes(
      "${KIMI_CODE_HOME:-~/.kimi-code}/mcp.json or ${KIMI_SHARE_DIR:-~/.kimi}/mcp.json (mcpServers.deja)",
    ),
  );
});

Deno.test("docs/wiring.md equals the matrix generated from registry.json", () => {
  const doc = readFileSync(new URL("../docs/wiring.md", import.meta.url), "utf8");
  assertEquals(doc, wiringMarkdown(), "run 'deno task wiring' to regenerate docs/wiring.md");
});

Deno.test("the matrix has a row per install target, hooks and envelopes for -auto ones", () => {
  const rows = wiringMatrix();
  const codex = rows.find((r) => r.harness === "codex")!;
  assertEquals([codex.auto_target, codex.envelope, codex.mcp?.key], [
    "codex-auto",
    "nested",
    "mcp_servers.deja",
  ]);
  const crush = rows.find((r) => r.harness === "crush")!;
  assertEquals(crush.envelope, "flat");
  const kimi = rows.find((r) => r.harness === "kimi")!;
  assertEquals(kimi.mcp?.also, ["${KIMI_SHARE_DIR:-~/.kimi}/mcp.json"]);
  assertEquals(codex.mcp?.also, []);
  const zed = rows.find((r) => r.harness === "zed")!;
  assertEquals([zed.auto_target, zed.hooks, zed.envelope], [null, [], null]);
});

Deno.test("the matrix lists an event wired twice (Kimi, Hermes: context and prompt) once", () => {
  for (const r of wiringMatrix()) {
    assertEquals(r.hooks.length, new Set(r.hooks).size, `${r.target}: ${r.hooks.join(", ")}`);
  }
  assertEquals(wiringMatrix().find((r) => r.target === "kimi")?.hooks, ["UserPromptSubmit"]);
});

// Trials 82 and 84: aider's row said it gets nothing, pi's left out its tool extension.
Deno.test("the matrix names every file a plain target writes", () => {
  const rows = wiringMatrix();
  const pi = rows.find((r) => r.harness === "pi")!;
  assert(String(pi.skill).includes("/extensions/deja.js"), String(pi.skill));
  const aider = rows.find((r) => r.harness === "aider")!;
  assertEquals(
    aider.skill,
    "${XDG_CONFIG_HOME:-~/.config}/deja/aider.md (in ~/.aider.conf.yml read)",
  );
});
