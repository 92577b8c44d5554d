/**
 * A first build and a rebuild run in a process without JavaScriptCore's FTL
 * tier (core/runtime.ts relaunchForBatch; issue 18: its compiles cost a
 * seventh of a full index's CPU). JSC's own `dumpOptions` shows which options
 * the process that did the work ran with.
 */
import { assert, assertEquals } from "./_assert.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./_fixture.ts";
import { runBinary } from "./_binary.ts";
import { tempDir } from "./_tmp.ts";

const NO_FTL = "useFTLJIT=false";

Deno.test("index relaunches without the FTL tier for a first build and a rebuild, not for a no-op run", () => {
  const dir = tempDir("deja-relaunch-");
  const env: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg-config"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_NO_REFRESH: "1",
    DEJA_CLAUDE_ROOT: join(REPO, "fixtures/registry/claude/projects"),
    BUN_JSC_dumpOptions: "1",
  };
  const first = runBinary(["index", "--harness", "claude", "--quiet"], env, dir);
  assertEquals(first.code, 0, first.stderr);
  assert(first.stderr.includes(NO_FTL), first.stderr);
  assert(existsSync(join(dir, "deja", "index.db")));

  const noop = runBinary(["index", "--harness", "claude", "--quiet"], env, dir);
  assertEquals(noop.code, 0, noop.stderr);
  assert(!noop.stderr.includes(NO_FTL), noop.stderr);

  const rebuild = runBinary(["index", "--harness", "claude", "--rebuild", "--quiet"], env, dir);
  assertEquals(rebuild.code, 0, rebuild.stderr);
  assert(rebuild.stderr.includes(NO_FTL), rebuild.stderr);
});

Deno.test("index keeps a JSC tier setting the caller chose", () => {
  const dir = tempDir("deja-relaunch-");
  const env: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_DATA_HOME: join(dir, "xdg"),
    XDG_CONFIG_HOME: join(dir, "xdg-config"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_NO_REFRESH: "1",
    DEJA_CLAUDE_ROOT: join(REPO, "fixtures/registry/claude/projects"),
    BUN_JSC_dumpOptions: "1",
    BUN_JSC_useFTLJIT: "1",
  };
  const r = runBinary(["index", "--harness", "claude", "--quiet"], env, dir);
  assertEquals(r.code, 0, r.stderr);
  assert(!r.stderr.includes(NO_FTL), r.stderr);
});
