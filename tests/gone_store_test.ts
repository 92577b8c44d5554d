/**
 * A store deleted after it was read keeps its sessions in the index, and
 * `deja index` says so once, on stderr, when it first finds the store gone
 * (fresh-user trial: `sources` showed "(20 gone, kept)" with no word from
 * `index` and only docs/json-output.md saying what it meant).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { copyFileSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

const REAL = "/work/shared/realdata/claude-code";

/** deja's `main` in process over `vars`, in their HOME (tests/_cli_io.ts). */
const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args, "", vars.HOME);

Deno.test("index tells once on stderr of a store gone since the last run, and a quiet run does not use that up", async () => {
  const dir = tempDir("deja-gone-");
  try {
    const proj = join(dir, "claude", "projects", "-tmp-p");
    mkdirSync(proj, { recursive: true });
    const a = join(proj, "b3b9c424-4826-4ba8-b3fc-70e32283cf5f.jsonl");
    const b = join(proj, "5fbf3543-d1e4-48f5-9069-ab06656d01a9.jsonl");
    copyFileSync(join(REAL, "win2-2.1.68-session-small.jsonl"), a);
    copyFileSync(join(REAL, "mac-2.1.1-session.jsonl"), b);
    const vars = {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      CLAUDE_CONFIG_DIR: join(dir, "claude"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      XDG_DATA_HOME: join(dir, "xdg"),
      XDG_CONFIG_HOME: join(dir, "xdg"),
      XDG_STATE_HOME: join(dir, "xdg"),
      DEJA_NO_REFRESH: "1",
      TZ: "UTC",
    };
    const first = await run(["index"], vars);
    assertEquals(first.code, 0, first.err);
    assert(!first.err.includes("gone"), first.err);

    rmSync(b);
    const quiet = await run(["index", "--quiet"], vars);
    assertEquals([quiet.code, quiet.err], [0, ""]);
    // Nothing changed since the quiet run, but no run told of the store gone: the next run
    // that tells does (trial 72: a search's refresh met it first and it was never told of).
    const told = await run(["index"], vars);
    assertEquals(told.code, 0, told.err);
    const lines = told.err.split("\n").filter((l) => l.includes("gone"));
    assertEquals(lines.length, 1, told.err);
    assertStringIncludes(
      lines[0],
      `deja: 1 store gone since the last run (deleted or moved; ${b})`,
    );
    assertStringIncludes(lines[0], "'deja index --rebuild' drops them");

    // Told once: a later run (another store changed) says nothing of it, and sources still shows it.
    const t = new Date(Date.now() + 5000);
    utimesSync(a, t, t);
    const again = await run(["index"], vars);
    assertEquals(again.code, 0, again.err);
    assert(!again.err.includes("gone"), again.err);
    assertStringIncludes((await run(["sources"], vars)).out, "(1 gone, 1 session kept)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
