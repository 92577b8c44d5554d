/** An in-process {@link IO} for command tests: a terminal or a pipe, output captured. */
import type { IO } from "../core/runtime.ts";
import type { Env } from "../core/model.ts";

/** A captured IO: what the command wrote to stdout and stderr. */
export interface CapturedIO {
  io: IO;
  /** Everything written to stdout. */
  out(): string;
  /** Everything written to stderr. */
  err(): string;
}

/**
 * An IO over `env` that is a terminal (`tty`) or a pipe, capturing what is
 * written; `stdin` is what the command reads (a hook's event).
 */
export function captureIO(env: Env, tty: boolean, args: string[] = [], stdin = ""): CapturedIO {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env,
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: tty,
    errTTY: tty,
    // As the process's reader does: at most `max` bytes (ASCII here: characters).
    readStdin: (max: number) => Promise.resolve(stdin.slice(0, max)),
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

/** Runs deja's `main` in-process with `args` over `env` (in `cwd`): exit code and what it wrote. */
export async function runMain(
  env: Env,
  args: string[],
  stdin = "",
  cwd = "/",
): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import("../main.ts");
  const c = captureIO(env, false, args, stdin);
  const code = await main({ ...c.io, cwd });
  return { code, out: c.out(), err: c.err() };
}

/** `env` with `vars` set on top (hooks and MCP get `DEJA_NO_REFRESH=1` this way). */
export function withVars(env: Env, vars: Record<string, string>): Env {
  return {
    ...env,
    get: (name) => vars[name] || env.get(name),
    vars: () => ({ ...(env.vars?.() ?? {}), ...vars }),
  };
}

/**
 * `deja <args>` in process, in `cwd`, with the test environment of `vars` (their HOME, every
 * location under it: tests/_fixture.ts `testEnv`).
 */
export async function runWith(
  args: string[],
  vars: Record<string, string>,
  cwd = "/w/app",
): Promise<{ code: number; out: string; err: string }> {
  const { testEnv } = await import("./_fixture.ts");
  return runMain(testEnv(vars.HOME, vars), args, "", cwd);
}
