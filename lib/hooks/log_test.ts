import { assert, assertEquals } from "../../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeEnv } from "../../core/runtime.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { hookLogPath, LOG_MAX, noteGiveUp, readGiveUps } from "./log.ts";

Deno.test("the hooks' log keeps one line per give-up, newest last, and stays small", () => {
  const root = tempDir("deja-hooklog-");
  try {
    const env = makeEnv({ HOME: root, DEJA_HOME: join(root, "deja") }, root);
    // No folder yet: nothing written, nothing thrown, nothing read back.
    noteGiveUp(env, "hook-tool", "x");
    assertEquals(readGiveUps(env), []);
    mkdirSync(join(root, "deja"));
    noteGiveUp(env, "hook-prompt", "stopped on an error:\n  database is locked", 1_000);
    assertEquals(readGiveUps(env), [
      { at: 1_000, hook: "hook-prompt", why: "stopped on an error: database is locked" },
    ]);
    assertEquals(statSync(hookLogPath(env)).mode & 0o777, 0o600);
    for (let i = 0; i < 2_000; i++) noteGiveUp(env, "hook-tool", `give-up number ${i}`, 2_000 + i);
    assert(statSync(hookLogPath(env)).size <= LOG_MAX);
    const left = readGiveUps(env);
    assertEquals(left.at(-1)?.why, "give-up number 1999");
    // Cut at a line's start: every line left reads back whole.
    assertEquals(
      readFileSync(hookLogPath(env), "utf8").split("\n").filter(Boolean).length,
      left.length,
    );
    assert(left.length > 100 && left[0].hook === "hook-tool");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
