/**
 * Install writes config files into folders deja watches for new stores (a
 * harness's config directory is often its store root): the index stays fresh.
 */
import { assertEquals } from "./_assert.ts";
import { copyFileSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { indexStatus } from "../lib/install/doctor.ts";
import { tempDir } from "./_tmp.ts";

const REAL = new URL("/work/shared/realdata/", import.meta.url).pathname;

Deno.test("after install and uninstall into an indexed home, doctor calls the index fresh", async () => {
  const root = tempDir("deja-install-fresh-");
  try {
    const home = join(root, "home");
    const env = testEnv(home, {
      DEJA_HOME: join(root, "deja"),
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local/share"),
      XDG_STATE_HOME: join(home, ".local/state"),
      XDG_CACHE_HOME: join(home, ".cache"),
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      CODEX_HOME: join(home, ".codex"),
      CRUSH_GLOBAL_CONFIG: join(home, ".config/crush"),
      CRUSH_GLOBAL_DATA: join(home, ".local/share/crush"),
      DEJA_NO_REFRESH: "1",
    });
    const day = join(home, ".codex/sessions/2025/01/01");
    mkdirSync(day, { recursive: true });
    copyFileSync(
      join(REAL, "codex/rollout-tui-0.121.0-ollama-error.jsonl"),
      join(day, "rollout-2025-01-01T00-00-00-0199a000-0000-7000-8000-000000000001.jsonl"),
    );
    mkdirSync(join(home, ".claude/projects"), { recursive: true });
    // The watched folders were last touched a while ago: a write into them shows in their mtime.
    const past = new Date(Date.now() - 60_000);
    for (const d of [".codex", ".claude", ".claude/projects"]) {
      utimesSync(join(home, d), past, past);
    }
    assertEquals((await runMain(env, ["index"])).code, 0);
    assertEquals(indexStatus(env).fresh, true, "fresh after the index run");
    const inst = await runMain(env, ["install", "--auto"]);
    assertEquals(inst.code, 0, inst.err);
    const after = indexStatus(env);
    assertEquals([after.fresh, after.changed], [true, 0], "deja's own config files are no store");
    for (const d of [".codex", ".claude"]) utimesSync(join(home, d), past, past);
    assertEquals((await runMain(env, ["index"])).code, 0);
    const un = await runMain(env, ["uninstall", "--all"]);
    assertEquals(un.code, 0, un.err + un.out);
    const gone = indexStatus(env);
    assertEquals([gone.fresh, gone.changed], [true, 0], "nor is removing them a change");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
