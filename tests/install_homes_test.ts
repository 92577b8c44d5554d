/**
 * Install writes where the harness itself reads: a variable that moves a
 * harness's home for deja's reading (registry `store_paths`) moves its install
 * paths too (reported on Gemini CLI, Hermes and Kimi Code, 2027-01: sessions
 * were read under `GEMINI_CLI_HOME` while the MCP server was written to
 * `~/.gemini`; Kimi's hooks went under `KIMI_CODE_HOME`, its MCP server not).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import registry from "../registry.json" with { type: "json" };
import { templateVars } from "../lib/install/template.ts";
import { installTargets } from "../lib/install/run.ts";
import { read, t, world } from "./_install_world.ts";
import { testEnv } from "./_fixture.ts";

/**
 * Variables of `store_paths` that name where sessions or data live, not the
 * harness's config home; install has no business with them.
 */
const DATA_ONLY = new Set([
  "XDG_DATA_HOME",
  "FLATPAK_XDG_DATA_HOME",
  "OPENCODE_DB",
  "KILO_DB",
  "QWEN_RUNTIME_DIR",
  "PI_CODING_AGENT_SESSION_DIR",
  "CLINE_DATA_DIR",
  "CLINE_SESSION_DATA_DIR",
  "AIDER_CHAT_HISTORY_FILE",
  "AIDER_INPUT_HISTORY_FILE",
  "XDG_STATE_HOME", // opencode's prompt-history.jsonl
]);

/** Per harness, a config-home variable install does not follow, and why. */
const NOT_FOLLOWED: Record<string, Record<string, string>> = {
  kiro: {
    KIRO_HOME:
      "other readers honour it; Kiro itself reading it is not confirmed (docs/registry/kiro.md)",
    XDG_CONFIG_HOME: "names the Kiro IDE's User directory; the CLI's config is ~/.kiro",
  },
  goose: {
    GOOSE_PATH_ROOT: "config moves to <root>/config only when it is set; a template cannot say so",
  },
};

Deno.test("every variable a harness reads its home from moves its install paths too", () => {
  const problems: string[] = [];
  for (const h of registry.harnesses as Array<Record<string, unknown>>) {
    if (!h.install) continue;
    const read = new Set((h.store_paths as string[]).flatMap(templateVars));
    const install = new Set(templateVars(JSON.stringify(h.install)));
    for (const v of read) {
      if (v.startsWith("DEJA_") || DATA_ONLY.has(v) || NOT_FOLLOWED[String(h.id)]?.[v]) continue;
      if (!install.has(v)) problems.push(`${h.id}: ${v}`);
    }
  }
  assertEquals(
    problems,
    [],
    "use the variable in the harness's install paths (registry.json), as its store_paths do",
  );
});

for (
  const [target, variable, sub, file] of [
    ["gemini", "GEMINI_CLI_HOME", "", ".gemini/settings.json"],
    ["hermes", "HERMES_HOME", "", "config.yaml"],
    ["qwen", "QWEN_HOME", "", "settings.json"],
    ["kimi", "KIMI_CODE_HOME", "", "mcp.json"],
    ["kimi-auto", "KIMI_CODE_HOME", "", "config.toml"],
  ]
) {
  Deno.test(`${target}: installs under ${variable} when it is set`, () => {
    const w = world();
    try {
      const home = join(w.root, "elsewhere", sub);
      mkdirSync(home, { recursive: true });
      const env = testEnv(w.home, { DEJA_HOME: join(w.root, "deja"), [variable]: home });
      const r = installTargets(env, w.self, [t(target)]);
      assert(!r.aborted, JSON.stringify(r.outcomes));
      assertStringIncludes(read(join(home, file)), "deja");
      assert(!existsSync(join(w.home, ".gemini")) && !existsSync(join(w.home, ".kimi-code")));
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
}
