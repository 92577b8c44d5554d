/**
 * The one adapter between deja and its runtime (Deno in development, `deno
 * compile` or `bun build --compile` for the binary). Everything here uses
 * `node:` built-ins that both runtimes provide; nothing else in deja reads the
 * process environment, arguments or standard streams directly.
 *
 * @module
 */
import process from "node:process";
import os from "node:os";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Env } from "./model.ts";

/** Builds an {@link Env} from a plain map (tests) or from the process. */
export function makeEnv(vars: Record<string, string | undefined>, home?: string): Env {
  const h = home ?? vars.HOME ?? vars.USERPROFILE ?? os.homedir();
  return {
    home: h,
    platform: process.platform,
    get(name: string) {
      const v = vars[name];
      return v === undefined || v === "" ? undefined : v;
    },
  };
}

/** The process environment as an {@link Env}. */
export function processEnv(): Env {
  return makeEnv(process.env as Record<string, string | undefined>);
}

/** Standard streams and process facts a command may use. */
export interface IO {
  args: string[];
  env: Env;
  cwd: string;
  /** Writes to stdout; a closed pipe is swallowed (EPIPE is not an error). */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  /** True when stdout is a terminal. */
  isTTY: boolean;
  /** True when stderr is a terminal (progress goes there). */
  errTTY: boolean;
  /** Reads at most `maxBytes` of stdin within `timeoutMs` milliseconds; '' on timeout or TTY. */
  readStdin(maxBytes: number, timeoutMs: number): Promise<string>;
}

/** The real process as an {@link IO}. */
export function processIO(): IO {
  let broken = false;
  process.stdout.on?.("error", (e: { code?: string }) => {
    if (e?.code === "EPIPE") broken = true;
  });
  return {
    args: process.argv.slice(2),
    env: processEnv(),
    cwd: process.cwd(),
    out(text: string) {
      if (broken) return;
      try {
        process.stdout.write(text);
      } catch {
        broken = true;
      }
    },
    err(text: string) {
      try {
        process.stderr.write(text);
      } catch { /* nothing to do */ }
    },
    isTTY: Boolean(process.stdout.isTTY),
    errTTY: Boolean(process.stderr.isTTY),
    readStdin(maxBytes: number, timeoutMs: number): Promise<string> {
      if (process.stdin.isTTY) return Promise.resolve("");
      return new Promise((resolve) => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          process.stdin.pause();
          process.stdin.removeAllListeners("data");
          const buf = new Uint8Array(Math.min(size, maxBytes));
          let at = 0;
          for (const c of chunks) {
            const n = Math.min(c.length, buf.length - at);
            buf.set(c.subarray(0, n), at);
            at += n;
          }
          resolve(new TextDecoder().decode(buf));
        };
        const timer = setTimeout(finish, timeoutMs);
        process.stdin.on("data", (c: Uint8Array) => {
          chunks.push(c);
          size += c.length;
          if (size >= maxBytes) finish();
        });
        process.stdin.on("end", finish);
        process.stdin.on("error", finish);
      });
    },
  };
}

/**
 * Ends the process with `code` once pending output is written. The process
 * exits on its own when nothing is left to do (calling `process.exit` at once
 * would cut a large write to a slow pipe short under Bun); a stray handle
 * cannot keep it alive beyond `graceMs` milliseconds.
 */
export function exit(code: number, graceMs = 10_000): void {
  process.exitCode = code;
  const t = setTimeout(() => process.exit(code), graceMs);
  (t as { unref?: () => void }).unref?.();
}

/** Resident set size of this process in bytes. */
export function rss(): number {
  return process.memoryUsage().rss;
}

/** The current user's numeric id, or -1 where the platform has none. */
export function uid(): number {
  return typeof process.getuid === "function" ? process.getuid() : -1;
}

/**
 * The argv that starts this deja again: the compiled binary itself, or the
 * interpreter plus the entry script when run from source (`deno run -A
 * main.ts`, `bun main.ts`). `deja install` records it in the launcher.
 */
export function selfCommand(): string[] {
  const exe = process.execPath;
  const base = exe.split(/[\\/]/).pop() ?? "";
  const script = process.argv[1] ?? "";
  if (
    /^(deno|bun|node)(\.exe)?$/i.test(base) && script.startsWith("/") &&
    !script.startsWith("/$bunfs")
  ) {
    if (!/^deno/i.test(base)) return [exe, script];
    // The project's own deno.json, not one in whatever directory a hook runs in.
    const config = join(dirname(script), "deno.json");
    return [exe, "run", "-A", ...(existsSync(config) ? ["--config", config] : []), script];
  }
  return [exe];
}
