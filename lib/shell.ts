/**
 * Commands as argv, never as shell text: quoting for display and for the one
 * place a harness insists on a shell string (hook commands), command
 * templates from registry.json split into argv, and running a command with
 * the terminal handed over.
 *
 * @module
 */
import process from "node:process";
import { DejaError } from "../core/errors.ts";

/**
 * `node:child_process`, loaded on first use: every command imports this module (for
 * {@link shQuote}), and loading it costs a cold search of the Bun binary ~2 ms (issue 15).
 */
const childProcess = () => process.getBuiltinModule("node:child_process");

/** `s` quoted for a POSIX shell (bare when it needs no quoting). */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Characters a terminal acts on or hides (controls, C1, bidi, invisible). */
// deno-lint-ignore no-control-regex
const UNSEEN = /[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/**
 * `s` quoted for a person to read and paste (bash, zsh): {@link shQuote},
 * except that a value holding characters the terminal writer would strip is
 * ANSI-C quoted (`$'…'`, each such character spelled `\xHH` or `\uHHHH`), so
 * the printed command names exactly the real path.
 */
export function shQuoteShown(s: string): string {
  if (!UNSEEN.test(s)) return shQuote(s);
  return `$'${
    s.replace(/[\\']/g, (c) => `\\${c}`).replace(new RegExp(UNSEEN.source, "g"), (c) => {
      const n = c.charCodeAt(0);
      return n < 0x80
        ? `\\x${n.toString(16).padStart(2, "0")}`
        : `\\u${n.toString(16).padStart(4, "0")}`;
    })
  }'`;
}

/**
 * A registry command template (`crush --session {id}`) as argv: split on
 * white space, then each `{name}` replaced by its value inside its own word,
 * so a value never becomes more than one argument.
 */
export function templateArgv(tpl: string, values: Record<string, string>): string[] {
  return tpl.trim().split(/\s+/).map((w) =>
    w.replace(/\{([a-z_]+)\}/g, (m, k: string) => (k in values ? values[k] : m))
  );
}

/** An argv as one line a person can paste into a POSIX shell, with `cd` first when `cwd` is given. */
export function displayCommand(
  argv: string[],
  cwd?: string | null,
  vars?: Record<string, string>,
): string {
  const set = Object.entries(vars ?? {}).map(([k, v]) => `${k}=${shQuoteShown(v)} `).join("");
  const cmd = set + argv.map(shQuoteShown).join(" ");
  return cwd ? `cd ${shQuoteShown(cwd)} && ${cmd}` : cmd;
}

/**
 * Runs `argv` in `cwd` with this process's terminal (stdin, stdout, stderr
 * inherited), without a shell; returns its exit code (1 when a signal ended it).
 *
 * @throws {DejaError} (exit 2) when the program is not installed or not on PATH.
 */
export function runInherit(argv: string[], cwd: string, vars?: Record<string, string>): number {
  const env = vars ? { ...process.env, ...vars } : undefined;
  const r = childProcess().spawnSync(argv[0], argv.slice(1), {
    cwd,
    stdio: "inherit",
    ...(env ? { env } : {}),
  });
  if (r.error) {
    const code = (r.error as { code?: string }).code;
    if (code === "ENOENT") {
      throw new DejaError(
        `'${argv[0]}' is not installed or not on PATH`,
        `the command was: ${displayCommand(argv, cwd, vars)}`,
        2,
      );
    }
    throw new DejaError(`could not run ${argv[0]}: ${r.error.message}`, undefined, 2);
  }
  return r.status ?? 1;
}

/** What {@link runCapture} returns. */
export interface Captured {
  /** Exit code; null when a signal or the timeout ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started (`ENOENT`: not installed). */
  error?: string;
}

/**
 * Runs `argv` without a shell, its output captured (stdin closed unless `input`).
 * Never throws: a program that cannot start comes back with `error` set.
 *
 * @param opts.timeoutMs kills it after this many milliseconds (default: none).
 * @param opts.env the child's environment (default: this process's).
 */
export function runCapture(
  argv: string[],
  opts: { env?: Record<string, string | undefined>; timeoutMs?: number; input?: string } = {},
): Captured {
  const r = childProcess().spawnSync(argv[0], argv.slice(1), {
    encoding: "utf8",
    maxBuffer: 256 << 20,
    ...(opts.env ? { env: opts.env as Record<string, string> } : {}),
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
    input: opts.input ?? "",
  });
  const error = r.error ? ((r.error as { code?: string }).code ?? r.error.message) : undefined;
  return {
    code: r.status,
    stdout: r.stdout ?? "",
    stderr: r.stderr ?? "",
    ...(error ? { error } : {}),
  };
}
