/**
 * Test support for the `hook-*` command tests beside lib/cli/cmd_hook_*.ts:
 * an index of two hand-written Claude Code sessions in /w/app (a failing
 * `npm test` fixed by starting redis; a metrics endpoint), its env with
 * `DEJA_NO_REFRESH=1` (no background index), and a hook command run
 * in-process at a terminal or into a pipe.
 *
 * @module
 */
import { assert, assertEquals } from "./_assert.ts";
import { indexSessions, type MemoryIndex, type SessionSpec } from "./_memory.ts";
import { captureIO, withVars } from "./_cli_io.ts";
import type { Env } from "../core/model.ts";
import type { CommandSpec } from "../lib/cli/common.ts";

/** The session whose failing `npm test` was fixed by starting redis. */
export const REDIS: SessionSpec = {
  id: "a1a10001-0000-4000-8000-0000000000c1",
  cwd: "/w/app",
  start: "2026-10-01T10:00:00Z",
  turns: [
    { user: "Fix the flaky websocket reconnect test in ws_client, it says ECONNREFUSED." },
    { bash: "npm test", out: "Error: connect ECONNREFUSED 127.0.0.1:6379 (redis)", exit: 1 },
    { bash: "docker compose up -d redis", out: "Container redis Started", exit: 0 },
    { bash: "npm test", out: "42 passing", exit: 0 },
    { say: "The root cause was redis not running; fixed by starting it with docker compose." },
    { edit: "/w/app/src/ws_client.ts", old: "retry(0)", new: "retry(backoff)" },
  ],
};

/** The newer session of the project: the metrics endpoint. */
export const METRICS: SessionSpec = {
  id: "b2b20002-0000-4000-8000-0000000000c2",
  cwd: "/w/app",
  start: "2026-10-05T10:00:00Z",
  turns: [
    { user: "Add the metrics endpoint for prometheus scraping to the server." },
    { say: "Decided to expose /metrics through prom-client; the build passes." },
  ],
};

/**
 * Runs `fn` over the index of {@link REDIS} and {@link METRICS}, env without refresh and with
 * a time budget no loaded test machine spends (the budget's own tests set theirs: a hook that
 * overran 4 s under a load of 20 answered nothing, and an answer test failed).
 */
export async function withHookIndex(fn: (env: Env, ix: MemoryIndex) => Promise<void>) {
  const ix = await indexSessions([REDIS, METRICS]);
  try {
    await fn(withVars(ix.env, { DEJA_NO_REFRESH: "1", DEJA_HOOK_DEADLINE_MS: "120000" }), ix);
  } finally {
    ix.cleanup();
  }
}

/** What a hook command wrote, and its exit code. */
export interface HookRan {
  code: number;
  out: string;
  err: string;
}

/** Runs hook command `cmd` in-process at a terminal (`tty`) or into a pipe, `event` on stdin. */
export async function runHookCmd(
  cmd: CommandSpec,
  env: Env,
  event: unknown,
  tty: boolean,
  values: Record<string, string | boolean> = {},
): Promise<HookRan> {
  const stdin = typeof event === "string" ? event : JSON.stringify(event);
  const c = captureIO(env, tty, [], stdin);
  const code = await cmd.run({ values, positionals: [] }, c.io);
  return { code, out: c.out(), err: c.err() };
}

/**
 * The text a nested (Claude Code) envelope carries, checking its shape and
 * that it is the same at a terminal and in a pipe (a hook writes no colour).
 */
export function nested(tty: HookRan, pipe: HookRan, event: string): string {
  assertEquals([tty.code, pipe.code], [0, 0]);
  assertEquals(tty.out, pipe.out, "the same envelope at a terminal and in a pipe");
  assertEquals([tty.err, pipe.err], ["", ""]);
  const v = JSON.parse(pipe.out);
  assertEquals(v.hookSpecificOutput.hookEventName, event);
  const text = v.hookSpecificOutput.additionalContext as string;
  assert(text.startsWith("<deja-recall"), text);
  return text;
}

/** Asserts a hook run said nothing and exited 0. */
export function silent(r: HookRan): void {
  assertEquals([r.code, r.out, r.err], [0, "", ""]);
}

/** An env with no index at all (every location a path that does not exist; nothing is written). */
export function noIndexEnv(): Env {
  return withVars(
    { home: "/nonexistent-home", platform: "linux", get: () => undefined },
    { HOME: "/nonexistent-home", DEJA_HOME: "/nonexistent-deja", DEJA_NO_REFRESH: "1" },
  );
}
