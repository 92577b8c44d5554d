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

/** An IO over `env` that is a terminal (`tty`) or a pipe, capturing what is written. */
export function captureIO(env: Env, tty: boolean, args: string[] = []): CapturedIO {
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
    readStdin: () => Promise.resolve(""),
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}
