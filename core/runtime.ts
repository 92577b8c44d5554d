/**
 * The one adapter between deja and its runtime (Deno in development, `deno
 * compile` or `bun build --compile` for the binary). Everything here uses
 * `node:` built-ins that both runtimes provide; nothing else in deja reads the
 * process environment, arguments or standard streams directly.
 *
 * @module
 */
import process from "node:process";
import { closeSync, existsSync, fstatSync, openSync, read } from "node:fs";
import { dirname, join } from "node:path";
import type { Env } from "./model.ts";
import { isTerminal, readerGone, writeAll, writeLost } from "./stdio.ts";

/**
 * `node:child_process` and `node:os`, loaded on first use: every command
 * imports this module, and loading those two costs a Bun binary several
 * milliseconds of start-up that only a few commands need (issue 18).
 */
function spawn(...a: Parameters<typeof import("node:child_process").spawn>) {
  return process.getBuiltinModule("node:child_process").spawn(...a);
}
const os = { homedir: () => process.getBuiltinModule("node:os").homedir() };

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
    vars: () => ({ ...vars, HOME: h }),
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
  /**
   * Reads at most `maxBytes` of stdin within `timeoutMs` milliseconds; what
   * arrived by then ('' on a TTY). With `done`, stops as soon as `done(piece)` is
   * true, `done` being given each piece of text as it arrives, in order, never the
   * text so far (a harness may keep stdin open after its event); with `idleMs`,
   * also when nothing more has come for that long after the first bytes.
   */
  readStdin(
    maxBytes: number,
    timeoutMs: number,
    done?: (piece: string) => boolean,
    idleMs?: number,
  ): Promise<string>;
  /** How fresh the index was made before the command ran (set by main.ts; added to `--json`). */
  freshness?: object;
  /**
   * True once stdout's reader went away (`deja show … | head`): what is still to be written
   * would be read by no one, so a long command may stop. Absent: never.
   */
  outGone?(): boolean;
}

/**
 * The real process as an {@link IO}. Output is written synchronously through
 * the file descriptors (core/stdio.ts), so nothing is pending at exit and a
 * closed pipe ends output quietly.
 */
export function processIO(): IO {
  return {
    args: process.argv.slice(2),
    env: processEnv(),
    cwd: process.cwd(),
    out: (text: string) => writeAll(1, text),
    err: (text: string) => writeAll(2, text),
    isTTY: isTerminal(1),
    errTTY: isTerminal(2),
    readStdin: readFd0,
    outGone: () => readerGone(1),
  };
}

/** The grace {@link exit} gives once {@link threadLeftRunning} was called, in milliseconds. */
export const STUCK_GRACE_MS = 100;

let stuckThread = false;

/**
 * Says that this process gave up on a thread it could not stop: Bun cannot interrupt a
 * regular expression running in a worker (lib/search/regex_run.ts), and the thread it was
 * told to end runs on and holds the process. {@link exit} then waits {@link STUCK_GRACE_MS}
 * instead of its grace: a `--re` scan stopped at its 10 s budget ended only at 20.1 s (Bun
 * 1.4.5 binary, new-user report 2026-12).
 */
export function threadLeftRunning(): void {
  stuckThread = true;
}

/**
 * Ends the process with `code` once pending output is written. The process
 * exits on its own when nothing is left to do (calling `process.exit` at once
 * would cut a large write to a slow pipe short under Bun); a stray handle
 * cannot keep it alive beyond `graceMs` milliseconds, nor beyond
 * {@link STUCK_GRACE_MS} once a thread was left running ({@link threadLeftRunning}).
 */
export function exit(code: number, graceMs = 10_000): void {
  // Output a write could not finish (a full disk) is no success (trial 59: `deja last --json >
  // /dev/full` exited 0), as `echo` and `cat` see it; a reader gone (`| head`) is no failure.
  const lostOut = writeLost(1);
  if (lostOut) {
    writeAll(2, `deja: the output could not be written whole (${lostOut})\n`);
    if (code === 0) code = 1;
  }
  process.exitCode = code;
  const t = setTimeout(() => process.exit(code), stuckThread ? STUCK_GRACE_MS : graceMs);
  (t as { unref?: () => void }).unref?.();
}

/** {@link readFd} on stdin: {@link IO.readStdin} of the real process. */
function readFd0(
  maxBytes: number,
  timeoutMs: number,
  done?: (piece: string) => boolean,
  idleMs?: number,
): Promise<string> {
  return readFd(0, maxBytes, timeoutMs, done, idleMs);
}

/**
 * Reads descriptor `fd` through `fs.read` (no stream objects): at most `maxBytes`, within
 * `timeoutMs` milliseconds, stopping early when `done` says so or nothing more has come for
 * `idleMs` after the first bytes; '' when `fd` is a terminal. `done` is given each piece
 * decoded since its last call, never the text so far: appending each read to one string and
 * scanning that made every scan copy the whole (trial 109 F7: at load ~10 on two cores, a
 * 14 MB event had 5-7 MB read when the 1.5 s wait ran out; 0.3-1.4 s of CPU for 14 MB,
 * 60-90 ms given the pieces). Exported for its test.
 */
export function readFd(
  fd: number,
  maxBytes: number,
  timeoutMs: number,
  done?: (piece: string) => boolean,
  idleMs?: number,
): Promise<string> {
  try {
    if (fstatSync(fd).isCharacterDevice()) return Promise.resolve("");
  } catch {
    return Promise.resolve("");
  }
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    const dec = new TextDecoder();
    let size = 0;
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      const out = new Uint8Array(Math.min(size, maxBytes));
      let at = 0;
      for (const c of chunks) {
        const n = Math.min(c.length, out.length - at);
        out.set(c.subarray(0, n), at);
        at += n;
      }
      resolve(new TextDecoder().decode(out));
    };
    const timer = setTimeout(finish, timeoutMs);
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const waitIdle = () => {
      if (idleMs === undefined) return;
      clearTimeout(quiet);
      quiet = setTimeout(finish, idleMs);
    };
    const next = () => {
      const buf = new Uint8Array(64 * 1024);
      read(fd, buf, 0, buf.length, null, (err, n) => {
        if (over) return;
        if (err || !n) return finish();
        const c = buf.subarray(0, n);
        waitIdle();
        chunks.push(c);
        size += n;
        if (size >= maxBytes) return finish();
        if (done?.(dec.decode(c, { stream: true }))) return finish();
        next();
      });
    };
    next();
  });
}

/** How long a hook waits on a full stdout pipe, in milliseconds, before dropping the output. */
const HOOK_WAIT_MS = 200;

/**
 * A light {@link IO} for a hook process, which runs before every tool call of
 * an agent: standard streams through file descriptors (`fs.read` on 0,
 * `fs.writeSync` on 1 and 2) instead of the `process.std*` stream objects,
 * which cost a Bun binary tens of milliseconds to set up. Output is written
 * synchronously, so {@link exitNow} may follow at once.
 */
export function hookIO(): IO {
  return {
    args: process.argv.slice(2),
    env: processEnv(),
    cwd: process.cwd(),
    // A harness that stops reading is waited on briefly: the hook's deadline cannot fire meanwhile.
    out: (text: string) => writeAll(1, text, HOOK_WAIT_MS),
    err: (text: string) => writeAll(2, text, HOOK_WAIT_MS),
    isTTY: false,
    errTTY: false,
    readStdin: readFd0,
  };
}

/** Ends the process with `code` now (after {@link hookIO}'s synchronous writes). */
export function exitNow(code: number): never {
  process.exit(code);
}

/**
 * A hard deadline: after `ms` milliseconds the process exits with `code`,
 * whatever it was doing between two turns of the event loop (a synchronous
 * call in progress runs to its end first). Returns a function that cancels it.
 */
export function deadline(ms: number, code: number): () => void {
  const t = setTimeout(() => process.exit(code), ms);
  (t as { unref?: () => void }).unref?.();
  return () => clearTimeout(t);
}

/**
 * Standard input as byte chunks until it ends (`deja mcp` reads its requests
 * from it); empty at once when stdin is closed.
 */
export async function* stdinChunks(): AsyncGenerator<Uint8Array> {
  for await (const c of process.stdin as AsyncIterable<Uint8Array | string>) {
    yield typeof c === "string" ? new TextEncoder().encode(c) : c;
  }
}

/** True when standard input is a terminal. */
export function stdinIsTTY(): boolean {
  return Boolean(process.stdin.isTTY);
}

/**
 * Asks the runtime to collect garbage now, where it lets a program ask (Bun);
 * elsewhere nothing. Readers of large stores call it after reading many
 * megabytes: a runtime keeps the text of dropped strings outside its heap
 * figures and collects them late, so peak memory follows the garbage.
 *
 * Measured and not kept (issue 18): JavaScriptCore's full collection alone
 * (`fullGC` of `bun:jsc`, reachable as `import.meta.require("bun:jsc")` in the
 * compiled binary), without what `Bun.gc(true)` adds: a synchronous sweep and
 * mimalloc's `mi_collect`, which hands every free page of the thread back at
 * once, to be faulted back in zeroed. One thread parsing and preparing the 100
 * MB bench corpus as a parse worker does, collecting every 2 MB of chunk text,
 * at load 15-20 on 2 cores: user+system for three passes 7.9-9.3 + 3.1-3.3 s
 * with `Bun.gc(true)`, 7.0-7.8 + 1.25-1.4 s with `fullGC` (as with no
 * collection: 7.8 + 1.4-1.5), 4.9-6.1 + 1.6-1.8 s with `gcAndSweep` (the
 * sweep without `mi_collect`); peak RSS 94-100 MB each. Compiled binary,
 * full index at load 17-20: 100 MB corpus 50-57k -> 48-52k minor faults, 7,206
 * -> 5,777 `madvise` calls, peak RSS 111-112 -> 113-117 MB; 2,522 stores of 40
 * KB 125-127k -> 97-104k faults, CPU 12.8-14.6 -> 10.5-12.5 s, RSS 115-117 MB
 * both. But the scale run (`deno task bench --scale`'s corpus, 3 GB with a
 * 200 MB line) passed 150 MB: 153 MB with `fullGC` and 150.6 MB (stopped early)
 * with `fullGC` only while the process held under 120 MB and `Bun.gc(true)`
 * over it, against 141 MB at the same point of a run of `Bun.gc(true)` alone.
 */
export function collectGarbage(): void {
  (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun?.gc(true);
}

/** How many threads the process may run at once (parse workers beside the writer: lib/parse_pool.ts). */
export function cores(): number {
  return process.getBuiltinModule("node:os").availableParallelism();
}

/**
 * Asks Bun to collect garbage without waiting for it (nothing elsewhere): `deja show` of a
 * session of many short events paced so held less at no cost in time (420k events: 306 -> 251
 * MB, 4.6 -> 4.4 s), where {@link collectGarbage} cost ~1.8 s.
 */
export function collectGarbageSoon(): void {
  (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun?.gc(false);
}

/**
 * Calls {@link collectGarbage} (or `collect`) once every `every` bytes of text
 * a thread made garbage, counted across all the calls to {@link took}: a count
 * kept per source never fires when the sources are small (issue 18).
 */
export class GarbagePacer {
  private since = 0;

  constructor(readonly every: number, private collect: () => void = collectGarbage) {}

  /** Counts `bytes` more; collects when {@link every} bytes were counted since the last time. */
  took(bytes: number): void {
    this.since += bytes;
    if (this.since < this.every) return;
    this.since = 0;
    this.collect();
  }
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

/**
 * Starts `argv` detached from this process (its own session, stdin closed,
 * stdout and stderr appended to `logPath`), with exactly the variables of
 * `env`, and returns its pid (undefined when it could not start). The child
 * outlives this process; this process does not wait for it.
 */
export function spawnDetached(argv: string[], env: Env, logPath: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(logPath, "a", 0o600);
    const child = spawn(argv[0], argv.slice(1), {
      detached: true,
      stdio: ["ignore", fd, fd],
      env: Object.fromEntries(
        Object.entries(env.vars?.() ?? process.env).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
    });
    child.on("error", () => {});
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** True when a process with id `pid` exists (signal 0 probes without sending anything). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

/**
 * Under Bun, when this process was started as `deja <command>`, replaces it
 * (execve: the same pid, arguments, variables and standard streams) with one
 * whose JavaScriptCore runs without its top optimising tier, FTL
 * (`BUN_JSC_useFTLJIT=0`), for a long batch run such as a first full
 * `deja index` or the first index `deja install` builds. FTL compiles in background threads for each of the run's
 * JavaScript heaps (the writer and two parse workers): on the 100 MB bench
 * corpus its compiles cost about 0.6 s of the run's 4.8 s of CPU and bought
 * nothing back (issue 18; the tiers below it stay on).
 *
 * The relaunched process also runs without JSC's warm-up thread
 * (`BUN_JSC_useWarmUpMarkedBlocks=0`), which keeps a supply of GC blocks whose
 * pages it has touched ahead of the threads that will use them, so the page
 * faults land on it: on two busy cores that moves the faults, it does not save
 * them, and the thread (`JSCWarmUp`) took ~5% of a full index's CPU samples
 * (`perf record`, 100 MB bench corpus). Full index of that corpus, alternated
 * under SCHED_FIFO at load 12-16 (a noisy machine: the gain is near its noise):
 * 14 pairs of compiled binaries, wall median 2.40 -> 2.38 s (6 pairs) and 2.48 ->
 * 2.39 (8 pairs, the order reversed), CPU median 4.22 -> 4.15 and 4.41 -> 4.23
 * s, and 10 more pairs with the variable set by hand alike; peak RSS 117-126
 * MB both. 2,522 stores of 40 KB (3 pairs): wall 4.26-4.87 -> 4.01-4.38 s, CPU
 * 7.50-8.51 -> 6.76-7.60 s, minor faults ~60k -> 47-55k, RSS 119-124 MB both.
 * The scale run (3 GB, under SCHED_FIFO at load 16-19): CPU 137.3 -> 135.8 s,
 * minor faults 762k -> 634k, peak RSS 149 -> 148 MB.
 *
 * Where a full index's CPU went before that (`perf record -g`, compiled
 * binary, 100 MB bench corpus, ~5.7 s of samples): the two parse workers 43%,
 * the writer's thread 34%, the JIT thread 9%, mimalloc's scavenger 6%, the
 * warm-up thread 5%, GC helpers 4%. 29% of all samples were in the kernel, over
 * half of that in a hypervisor's interrupt-enable path: TLB shootdowns of
 * `madvise(MADV_DONTNEED)` (~9%) and page faults (~5%).
 *
 * Measured and not kept: JSC handing the empty pages of swept GC blocks back
 * (`BUN_JSC_decommitUnusedMarkedBlockPages=0`, an option of Bun's JSC that
 * returns a swept block's OS pages with no live cell). Beside the warm-up
 * setting: `madvise` calls 8.6k -> 4.3k, 5 pairs at load ~19 wall 2.25-2.38 -> 2.13-2.26 s, CPU
 * median 4.12 -> 3.85 s, RSS +1-2 MB; small stores 3.21-3.69 -> 3.04-3.29 s. But
 * the scale run peaked at 146-153 MB (3 runs) against 144-148, and its CPU was
 * no lower.
 *
 * Measured and not kept here: the same relaunch with mimalloc, Bun's
 * allocator, keeping freed memory (`MIMALLOC_PURGE_DELAY=-1`, read when a
 * process starts). By default it returns freed pages within milliseconds
 * (`madvise`, ~9,400 calls a run, most from its own thread) and takes them
 * back, zeroed, one page fault at a time. Any other delay (100, 1000, 3000,
 * 30000 ms) behaved as the default. Compiled binary, alternated on 2 cores at
 * load 1.4-2.1 (a Firecracker VM where a page fault is dear), 100 MB bench
 * corpus: wall 2.59-2.84 -> 1.90-2.04 s (with the first build's fsync-free
 * writer, lib/schema.ts), CPU 4.2-4.6 -> 3.3-3.5 s, minor faults ~46k -> ~28k,
 * peak RSS 122-125 -> 133-141 MB. But freed memory is kept, not all reused, so
 * RSS climbs all run: the same 100 MB as 2,522 stores of 40 KB peaked at
 * 143-160 MB (123-126 purging), and the scale run (`deno task bench --scale`,
 * 3 GB with a 2 GB session) at 240 MB, over issue 18's 150. Nor did
 * `MIMALLOC_PURGE_DECOMMITS=0`, `PAGE_FULL_RETAIN=0`, `MINIMAL_PURGE_SIZE`,
 * `ALLOW_THP` (faults 28k -> 5.5k, same CPU, RSS 198 MB), more page reclaim,
 * fewer GC markers or earlier collections bound it.
 *
 * Measured and not kept either: mimalloc's hole purging off
 * (`MIMALLOC_PURGE_HOLES=0`, an option of Bun's own mimalloc, which the delays
 * above do not govern: most of the run's `madvise` calls are its). Each time a
 * thread waits its heaps are swept and the free blocks inside pages still in
 * use are handed back one OS page at a time (the 4-16 KB calls), each a TLB
 * shootdown across both cores on this VM, then faulted back. Off, pages wholly
 * free are still purged. `strace -f` of a full index of the 100 MB bench
 * corpus: 8,623 -> 3,288 `madvise(MADV_DONTNEED)`, 358 -> 277 MB handed back.
 * Compiled binary, 4 runs alternated under SCHED_FIFO at load 10-13: wall
 * 2.58-3.11 -> 2.36-3.11 s, CPU 4.54-5.50 -> 4.10-5.30 s (sys 1.18-1.44 ->
 * 0.95-1.22), minor faults 41-44k -> 36-38k, peak RSS 115-120 -> 120-126 MB;
 * 2,522 stores of 40 KB 117-120 -> 125-127 MB. But the scale run's pages stay
 * pinned by what lives in them: 169 MB under `deno task bench --scale`, and
 * sampled under SCHED_FIFO (kernel's VmHWM, tracing on) 189 MB against 156
 * purging (174 with `MIMALLOC_PURGE_DELAY=0` too). Sweeping less often
 * (`MIMALLOC_PURGE_HOLES_MIN_INTERVAL` 1000, 3000, 10000 ms) left ~7,000 of the
 * calls; at 1000 ms, beside the warm-up setting above, 6 pairs at load ~18 ran
 * 2.17-2.34 s against 2.26-2.43 (CPU median 3.99 against 4.12 s) but the scale
 * run peaked at 169 MB against 144; `MIMALLOC_PURGE_HOLES_FULL_EVERY=0`, JSC's DFG tier off
 * (`BUN_JSC_useDFGJIT=0`, CPU +1 s) or later (`thresholdForOptimizeAfterWarmUp`
 * 10000), compiling on the JS threads (`useConcurrentJIT=0`) or one GC marker
 * (`numberOfGCMarkers=1`) were no better than the default beyond noise.
 *
 * Nothing happens under Deno or Node, when the process runs another command
 * (`deja demo` runs the index command inside itself), when the variables are
 * set already (this relaunch, or a user's choice, which is kept), or when the
 * runtime cannot execve. `before` runs just before the process is replaced (a
 * trace line).
 */
export function relaunchForBatch(command: string, before?: () => void): void {
  const bun = (globalThis as { Bun?: unknown }).Bun !== undefined;
  const execve = (process as { execve?: (f: string, a: string[], e: object) => void }).execve;
  if (!bun || typeof execve !== "function") return;
  // The user's arguments start at argv[2] both compiled ([bun, /$bunfs/root/deja, ...]) and from source.
  if (process.argv[2] !== command) return;
  const vars = batchVars(process.env);
  if (!vars) return;
  before?.();
  try {
    execve.call(process, process.execPath, [...selfCommand(), ...process.argv.slice(2)], vars);
  } catch { /* not replaced: this process runs as it is */ }
}

/** The variables a batch run sets ({@link relaunchForBatch}): JSC without FTL nor its warm-up thread. */
export const BATCH_VARS: Readonly<Record<string, string>> = {
  BUN_JSC_useFTLJIT: "0",
  BUN_JSC_useWarmUpMarkedBlocks: "0",
};

/**
 * `env` with each of {@link BATCH_VARS} it does not set already, or undefined
 * when it sets them all (nothing to relaunch for).
 */
export function batchVars(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> | undefined {
  const missing = Object.entries(BATCH_VARS).filter(([k]) => env[k] === undefined);
  if (!missing.length) return undefined;
  const vars = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  return { ...vars, ...Object.fromEntries(missing) };
}

/** This process's id. */
export function pid(): number {
  return process.pid;
}

/** What this process was started as, for a person: `deja <command>` (`deja` alone without one). */
export function commandName(): string {
  const word = process.argv.slice(2).find((a) => !a.startsWith("-"));
  return word && /^[a-z][a-z0-9-]{0,30}$/.test(word) ? `deja ${word}` : "deja";
}

/** A promise that resolves on the first SIGINT or SIGTERM (Ctrl-C, a service stop). */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
}

/**
 * Opens `url` in the person's browser without waiting for it: `$BROWSER`
 * when set, else the platform's opener (`open` on macOS, `start` on
 * Windows, `xdg-open` elsewhere). Returns false when none could be started.
 */
export function openBrowser(url: string, env: Env): Promise<boolean> {
  const browser = env.get("BROWSER");
  const argv = browser
    ? [browser, url]
    : process.platform === "darwin"
    ? ["open", url]
    : process.platform === "win32"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  return new Promise((resolve) => {
    try {
      const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: "ignore" });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** The runtime running deja and its version (`deno 2.1.0`, `bun 1.2.3`, `node 22.0.0`). */
export function runtimeName(): string {
  const v = process.versions as Record<string, string | undefined>;
  if (v.bun) return `bun ${v.bun}`;
  if (v.deno) return `deno ${v.deno}`;
  return `node ${v.node ?? "?"}`;
}

/** One variable of the process environment as it is (an empty value kept, unlike {@link Env.get}). */
export function envVar(name: string): string | undefined {
  return process.env[name];
}

/** Whether deja runs on Windows. */
export function isWindows(): boolean {
  return process.platform === "win32";
}

/** The platform and CPU architecture (`linux-x64`, `darwin-arm64`, `win32-x64`). */
export function platformName(): string {
  return `${process.platform}-${process.arch}`;
}
