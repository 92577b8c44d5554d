/**
 * The hooks as a harness runs them: the compiled binary (bin.ts, bun
 * --splitting) fed events on stdin. Exit 0 and silence on a damaged or
 * missing index, a stdin the harness keeps open, a spent time budget; the
 * Crush hook over a copy of a real Crush store, its fix pair after a failed
 * `Exit code N` command, once.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { binary, runBinary } from "./_binary.ts";
import { exactly } from "./_env.ts";
import { SCHEMA_VERSION } from "../lib/schema.ts";
import { LIVE, REAL, REDIS, reveal, startLive, world } from "./_crush_live.ts";
import { indexSessions } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";

interface Timed {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the binary with `input` written to stdin (after `delayMs`), which is then kept open
 * for `holdMs` (as some harnesses do) unless the process ends first.
 */
function runHeld(
  args: string[],
  env: Record<string, string>,
  input: string,
  holdMs: number,
  delayMs = 0,
) {
  const bin = binary(); // built (once) before the clock starts
  return new Promise<Timed>((resolve) => {
    const t = performance.now();
    const child = spawn(...exactly([bin, ...args], env), {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => stdout += c);
    child.stderr.on("data", (c) => stderr += c);
    const late = setTimeout(() => input && child.stdin.write(input), delayMs);
    const hold = setTimeout(() => child.stdin.end(), holdMs);
    child.on("close", (code) => {
      clearTimeout(hold);
      clearTimeout(late);
      resolve({ code, stdout, stderr, ms: performance.now() - t });
    });
  });
}

const EVENT = JSON.stringify({
  session_id: "held-1",
  cwd: "/w/app",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "npm test" },
});

Deno.test("a hook answers and exits while the harness keeps stdin open", async () => {
  const ix = await indexSessions([{
    id: "e5e50005-0000-4000-8000-000000000005",
    cwd: "/w/held",
    start: "2026-10-01T10:00:00Z",
    turns: [
      { user: "Make the release build reproducible." },
      { bash: "make release", out: "Error: clock skew detected", exit: 2 },
      { say: "The root cause was the build stamping the date; fixed by SOURCE_DATE_EPOCH." },
    ],
  }]);
  try {
    const ev = JSON.stringify({ session_id: "held-1", cwd: "/w/held", source: "startup" });
    const env = { HOME: ix.env.home, DEJA_HOME: ix.env.get("DEJA_HOME")! };
    // The harness holds stdin open for 20 s; the hook must be done long before (its own
    // deadline is a few seconds; the margin absorbs a loaded machine, a hang never fits it).
    const HOLD = 20_000;
    const r = await runHeld(["hook-context"], env, ev, HOLD);
    assertEquals(r.code, 0);
    assertStringIncludes(r.stdout, '"hookEventName":"SessionStart"');
    assert(r.ms < HOLD / 2, `took ${r.ms.toFixed(0)} ms with stdin still open`);
    // Nothing ever arrives: silence after the read budget, not after the harness gives up.
    const q = await runHeld(["hook-tool"], env, "", HOLD);
    assertEquals([q.code, q.stdout], [0, ""]);
    assert(q.ms < HOLD / 2, `took ${q.ms.toFixed(0)} ms waiting for an event that never came`);
    // Half an event, then nothing.
    const h = await runHeld(["hook-tool"], env, EVENT.slice(0, 40), HOLD);
    assertEquals([h.code, h.stdout], [0, ""]);
    // An event written late, as a loaded machine may (trial 38: 0.5 s late went unanswered).
    const ev2 = JSON.stringify({ session_id: "held-2", cwd: "/w/held", source: "startup" });
    const late = await runHeld(["hook-context"], env, ev2, HOLD, 600);
    assertEquals(late.code, 0);
    assertStringIncludes(late.stdout, '"hookEventName":"SessionStart"');
  } finally {
    ix.cleanup();
  }
});

Deno.test("the binary's hooks exit 0 in silence with no index, a damaged one, or a broken one", () => {
  const root = tempDir("deja-hook-bin-");
  try {
    const homes: Record<string, string> = {};
    homes.none = join(root, "none");
    homes.garbage = join(root, "garbage");
    mkdirSync(homes.garbage);
    writeFileSync(join(homes.garbage, "index.db"), "SQLite format 3\u0000" + "x".repeat(5000));
    homes.directory = join(root, "directory");
    mkdirSync(join(homes.directory, "index.db"), { recursive: true });
    // A SQLite file that claims the current schema but has no tables: every query throws.
    homes.tables = join(root, "tables");
    mkdirSync(homes.tables);
    const db = new DatabaseSync(join(homes.tables, "index.db"));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.close();
    const events: Array<[string[], string]> = [
      [["hook-context"], JSON.stringify({ session_id: "s", cwd: "/w/app" })],
      [
        ["hook-prompt"],
        JSON.stringify({ session_id: "s", cwd: "/w/app", prompt: "redis reconnect" }),
      ],
      [["hook-tool"], EVENT],
      [["hook-tool", "--crush"], EVENT],
      [
        ["hook-tool-after"],
        JSON.stringify({
          session_id: "s",
          cwd: "/w/app",
          hook_event_name: "PostToolUseFailure",
          tool_name: "Bash",
          error: "Exit code 1\nError: connect ECONNREFUSED",
        }),
      ],
    ];
    for (const [what, home] of Object.entries(homes)) {
      for (const [args, input] of events) {
        // DEJA_NO_REFRESH: with no index a hook starts a background `deja index` (tested in
        // tests/fresh_test.ts); here it would still be writing when the test cleans up.
        const r = runBinary(
          args,
          { HOME: root, DEJA_HOME: home, DEJA_NO_REFRESH: "1" },
          root,
          input,
        );
        assertEquals([r.code, r.stdout, r.stderr], [0, "", ""], `${what}: ${args.join(" ")}`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("the binary's hard deadline ends a hook in silence", async () => {
  const root = tempDir("deja-hook-dl-");
  try {
    const env = { HOME: root, DEJA_HOME: join(root, "d"), DEJA_HOOK_DEADLINE_MS: "1" };
    const r = await runHeld(["hook-tool"], env, "", 10_000);
    assertEquals([r.code, r.stdout], [0, ""]);
    assert(r.ms < 3000, `took ${r.ms.toFixed(0)} ms`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the binary's Crush hook gives the fix pair after a failed command, once",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world({ stashFinished: true });
  try {
    startLive(w.db, REDIS);
    reveal(w.db, REDIS, 0, 192); // up to `git pull --rebase` failing with Exit code 128
    const env: Record<string, string> = {
      HOME: w.env.home,
      DEJA_HOME: w.env.get("DEJA_HOME")!,
      DEJA_CRUSH_ROOT: w.env.get("DEJA_CRUSH_ROOT")!,
      CRUSH_SESSION_ID: LIVE,
      CRUSH_PROJECT_DIR: w.project,
      CRUSH_CWD: w.project,
      CRUSH_TOOL_INPUT_COMMAND: "cd /Users/user/Code/k && git stash",
    };
    const ev = JSON.stringify({
      event: "PreToolUse",
      session_id: LIVE,
      cwd: w.project,
      tool_name: "bash",
      tool_input: { command: "cd /Users/user/Code/k && git stash" },
    });
    const r = runBinary(["hook-tool", "--crush"], env, w.project, ev);
    assertEquals(r.code, 0, r.stderr);
    const v = JSON.parse(r.stdout);
    assertEquals(Object.keys(v).sort(), ["context", "version"]);
    assertStringIncludes(v.context, "This error came up before");
    assertStringIncludes(v.context, "git stash");
    const again = runBinary(["hook-tool", "--crush"], env, w.project, ev);
    assertEquals([again.code, again.stdout], [0, ""]);
  } finally {
    w.db.close();
    rmSync(w.root, { recursive: true, force: true });
  }
});
