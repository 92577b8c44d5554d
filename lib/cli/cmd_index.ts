/**
 * `deja index`: read every harness's stores into the index.
 *
 * Parse ({@link parseIndex}) → run ({@link indexData}: the stat pass or a full run, then the
 * optional embeddings pass) → render ({@link indexJson}, {@link indexText}). `--watch` runs
 * until stopped ({@link watchRun}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { intOpt } from "./common.ts";
import { DejaError } from "../../core/errors.ts";
import type { Dropped, IndexOptions, IndexResult } from "../indexer.ts";
import { rereadLine } from "../fresh/revised.ts";
import {
  deletedLine,
  indexPath,
  indexWritable,
  makeDataDir,
  readOnlyIndexError,
  readOnlyWhy,
  Store,
} from "../store.ts";
import { harnessOpt } from "./_memory.ts";
import { pid, relaunchForBatch, untilSignal } from "../../core/runtime.ts";
import { endBackground, runningBackground } from "../fresh/background.ts";
import { upToDate } from "../fresh/noop.ts";
import { goneLine } from "../gone.ts";
import { reforgottenLine } from "../forget/tombstones.ts";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../core/paths.ts";
import { CR, csi } from "./output.ts";
import { plural } from "../../core/text.ts";
import { embedConfig } from "../embeddings/config.ts";
import { trace } from "../../core/trace.ts";
import { indexCode, type IndexData, reportIndex } from "./index_text.ts";
import { buildsAll } from "../batch_run.ts";
import { rebuildPending } from "../rebuild_mark.ts";

export const indexCmd: CommandSpec = {
  usage: "index [--rebuild] [--quiet] [--harness <id>] [--json] | index --watch",
  maxPositionals: 0,
  options: {
    rebuild: { type: "boolean", description: "start a new index from scratch" },
    quiet: { type: "boolean", short: "q", description: "print nothing unless something failed" },
    harness: {
      type: "string",
      value: "<id>",
      description: "only this harness (repeatable)",
      multiple: true,
    },
    wait: {
      type: "string",
      value: "<seconds>",
      description: "wait this long for another running index (default 5)",
    },
    json: { type: "boolean", description: "print the summary as JSON" },
    watch: {
      type: "boolean",
      description: "keep running: follow the stores and index what changes within seconds",
    },
    interval: {
      type: "string",
      value: "<seconds>",
      description: "with --watch: poll this often besides notifications (default 5)",
    },
    background: {
      type: "boolean",
      description: "(internal) the detached run freshen-on-use starts; clears its sentinel",
    },
  },
  async run(a, io) {
    const args = parseIndex(a);
    if (args.watch) return await watchRun(args, io);
    if (!args.background) return await runIndexCmd(args, io);
    try {
      return await runIndexCmd(args, io);
    } finally {
      endBackground(io.env, pid());
    }
  },
};

/** What `deja index` was asked. */
export interface IndexArgs {
  rebuild: boolean;
  quiet: boolean;
  json: boolean;
  /** `--harness`: only these (checked against the parser list). */
  only?: string[];
  /**
   * `--wait` in ms; undefined: wait for a background run deja started, else {@link DEFAULT_WAIT_MS}
   * (a background run: not at all).
   */
  waitMs?: number;
  /** `--watch`: keep running until stopped. */
  watch: boolean;
  /** With `watch`: the polling interval in ms. */
  pollMs: number;
  /** The detached run freshen-on-use starts (it clears its sentinel). */
  background: boolean;
  /** `deja demo`'s run over its sample stores: their damage, there on purpose, in one line. */
  samples?: boolean;
}

/**
 * Reads `deja index`'s arguments. `--harness` is not checked with `--watch`, which follows
 * every harness.
 *
 * @throws {DejaError} on `--interval` without `--watch`, a bad number or an unknown harness.
 */
export function parseIndex(a: Args): IndexArgs {
  const base = {
    rebuild: Boolean(a.values.rebuild),
    quiet: Boolean(a.values.quiet),
    json: Boolean(a.values.json),
    background: Boolean(a.values.background),
    samples: Boolean(a.values.samples),
  };
  if (a.values.watch) {
    const pollMs = a.values.interval === undefined ? 5000 : intOpt(a, "interval", 5) * 1000;
    return { ...base, watch: true, pollMs };
  }
  if (a.values.interval !== undefined) {
    throw new DejaError("--interval applies only to --watch", "deja index --watch --interval 5");
  }
  const only = harnessOpt(a);
  const waitMs = a.values.wait === undefined ? undefined : intOpt(a, "wait", 1) * 1000;
  return { ...base, only, waitMs, watch: false, pollMs: 5000 };
}

/** `deja index --watch`: until Ctrl-C or a service stop; a pid file tells doctor it runs. */
async function watchRun(args: IndexArgs, io: IO): Promise<number> {
  const pidFile = join(dataDir(io.env), "watch.pid");
  makeDataDir(dataDir(io.env));
  // Said before it says it watches (trial 31: "watching the stores", then a failed write).
  if (!indexWritable(indexPath(io.env))) {
    throw readOnlyIndexError(
      "'deja index --watch'",
      readOnlyWhy(indexPath(io.env)),
      existsSync(indexPath(io.env)),
    );
  }
  const { watchIndex } = await import("../fresh/watch.ts");
  const { parsers } = await import("../../parsers/mod.ts");
  const stop = untilSignal();
  try {
    await watchIndex(io.env, parsers, {
      pollMs: args.pollMs,
      stop,
      // Said once the first run has brought the index up to date (trial 77: a damaged index
      // was said to be watched, then the first run exited 2).
      onReady: () => {
        writeFileSync(pidFile, `${pid()} ${Date.now()}\n`, { mode: 0o600 });
        if (!args.quiet) {
          io.err(`deja: watching the stores (Ctrl-C stops) -> ${indexPath(io.env)}\n`);
        }
      },
      onRun: args.quiet ? undefined : (line) => io.err(`${new Date().toISOString()} ${line}\n`),
    });
  } finally {
    rmSync(pidFile, { force: true });
  }
  return 0;
}

/** How long a plain `deja index` waits for another writer before it says the index is busy. */
export const DEFAULT_WAIT_MS = 5_000;

/**
 * One index run: the stat pass when nothing changed (lib/fresh/noop.ts), else a full run;
 * then the optional embeddings pass.
 *
 * @param hooks `progress` gets one line per store while the full run reads; `indexed` is
 *   called when the stores are read, before the embeddings pass.
 * @throws {DejaError} when the index is busy past the wait, or damaged (without `rebuild`).
 */
export async function indexData(
  env: Env,
  args: IndexArgs,
  hooks: { progress?: (line: string) => void; indexed?: () => void } = {},
): Promise<IndexData> {
  // The run's wall time from here, the time it waited for another writer said apart (trial 123
  // F4: the check of the index before a full run, 1-2 s, and the wait were left out of it).
  const t0 = performance.now();
  let waited = 0;
  const onWaited = (ms: number) => waited += ms;
  const { only } = args;
  // A background run deja started itself is waited for, not reported as "busy"; any other
  // writer (a `deja index --watch` writing what changed) a few seconds (trial 119 F2: 3 of 8
  // runs beside the watch said "busy" at once). A background run itself does not wait.
  const waitMs = args.waitMs ??
    (args.background ? 0 : runningBackground(env) ? 300_000 : DEFAULT_WAIT_MS);
  const busyHint = "wait for it to finish, or run again with --wait <seconds>";
  const tellGone = !args.quiet && !args.background;
  // An interrupted rebuild's mark (lib/rebuild_mark.ts): this run finishes it (trial 123 F2).
  const quick = args.rebuild || rebuildPending(indexPath(env)) ? null : upToDate(env, {
    only,
    waitMs,
    busyHint,
    tellGone,
    checkDamage: !args.background,
    waited: onWaited,
  });
  // A first build or a rebuild reads every store: a process tuned for a long run does it.
  trace(quick ? "index up to date" : "index command");
  if (!quick && buildsAll(env, args.rebuild)) relaunchForBatch("index");
  const ran = quick ??
    await fullRun(env, {
      rebuild: args.rebuild,
      only,
      waitMs,
      busyHint,
      progress: hooks.progress,
      tellGone,
      waited: onWaited,
    });
  const res = {
    ...ran,
    ms: performance.now() - t0,
    ...(waited >= 10 ? { waitedMs: waited } : {}),
  };
  trace("indexed");
  hooks.indexed?.();
  const warnings: string[] = [];
  const embedded = await embedAfterIndex(env, warnings);
  const code = indexCode(res.harnesses);
  const totals = args.json || args.quiet ? undefined : quick?.totals ?? indexTotals(env);
  trace("summary read");
  return { index: indexPath(env), res, embedded, warnings, totals, code };
}

/** Least time between two redraws of the progress line, ms. */
export const PROGRESS_MS = 100;

/**
 * `draw`, called at most once every {@link PROGRESS_MS}, and whenever the harness (the
 * line's first word) changes (trial 26: 4,290 redraws, 128 KB of escapes, for one run).
 */
export function throttled(
  draw: (line: string) => void,
  now: () => number = () => performance.now(),
): (line: string) => void {
  let last = -Infinity;
  let harness = "";
  return (line) => {
    const h = line.slice(0, line.indexOf(" ") >>> 0);
    const t = now();
    if (t - last < PROGRESS_MS && h === harness) return;
    last = t;
    harness = h;
    draw(line);
  };
}

/** How often a run whose stderr is no terminal says how far it is, ms (the first after as long). */
export const PLAIN_PROGRESS_MS = 10_000;

/** {@link nowAndThen}'s progress function, and its clock's `tick`. */
export interface NowAndThen {
  /** Takes the run's progress line (said when a line is due). */
  (line: string): void;
  /** Says the last line again when a line is due (the run's timer calls it). */
  tick(): void;
}

/**
 * For stderr that is no terminal (a pipe, a log): a plain line every {@link PLAIN_PROGRESS_MS}
 * of a long run, none for a short one (trial 122 F2: 44 s of silence on a pipe). The line is
 * due by the clock, not only when the run's line changes ({@link NowAndThen.tick}): one big
 * store, or the steps after the stores, went 13-22 s without a line (trial 123 F3).
 */
export function nowAndThen(
  say: (line: string) => void,
  now: () => number = () => performance.now(),
): NowAndThen {
  const start = now();
  let next = start + PLAIN_PROGRESS_MS;
  let last: string | undefined;
  const tick = () => {
    const t = now();
    if (last === undefined || t < next) return;
    next = t + PLAIN_PROGRESS_MS;
    say(`deja: indexing ${last} (${Math.round((t - start) / 1000)} s)\n`);
  };
  return Object.assign((line: string) => {
    last = line;
    tick();
  }, { tick });
}

/** How often the run's timer looks whether a plain line is due, ms. */
const PLAIN_TICK_MS = 1_000;

/** The signals that end a run, and the exit codes a shell gives a process they ended. */
const INTERRUPTS = [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const;

/**
 * While the stores are read: a signal ends the progress line and says what was kept, then
 * exits as the signal would have (trial 122 F4: the run died with its line unfinished). Only
 * printing is added: every source is written in a savepoint of its own, so what was committed
 * stays and what was not never reached the index, and the next run goes on from there (with
 * `rebuild`, as a rebuild: lib/rebuild_mark.ts). Returns the function that takes the handlers
 * off again.
 */
export function onInterrupt(
  io: IO,
  tty: boolean,
  exit: (code: number) => void = (code) => process.exit(code),
  rebuild = false,
): () => void {
  const off: (() => void)[] = [];
  for (const [sig, code] of INTERRUPTS) {
    const handler = () => {
      io.err(
        `${tty ? `${CR}${csi("2K")}` : ""}deja: interrupted; the stores indexed before it are ` +
          `kept, and 'deja index' goes on from there${
            rebuild ? " (it finishes the rebuild)" : ""
          }\n`,
      );
      exit(code);
    };
    try {
      process.on(sig, handler);
      off.push(() => process.off(sig, handler));
    } catch { /* a signal this platform has not (Windows: SIGHUP) */ }
  }
  return () => off.forEach((f) => f());
}

async function runIndexCmd(args: IndexArgs, io: IO): Promise<number> {
  const tty = io.errTTY && !args.quiet && !args.json;
  const plain = !io.errTTY && !args.quiet && !args.json && !args.background;
  const plainDraw = plain ? nowAndThen(io.err) : undefined;
  const draw = tty ? throttled((line) => io.err(`${CR}${csi("2K")}indexing ${line}`)) : plainDraw;
  // Fires whenever the writer's thread lets it (between chunks, while it waits for a worker).
  const ticker = plainDraw && setInterval(plainDraw.tick, PLAIN_TICK_MS);
  // Taken on at the first store read (after the wait for the lock, which a signal must still
  // end at once), off once the stores are read.
  let interruptsOff: (() => void) | undefined;
  let d: IndexData;
  try {
    d = await indexData(io.env, args, {
      progress: (line) => {
        interruptsOff ??= onInterrupt(io, tty, undefined, args.rebuild);
        draw?.(line);
      },
      indexed: () => {
        if (ticker !== undefined) clearInterval(ticker); // the stores are read
        interruptsOff?.();
        interruptsOff = () => {};
        if (tty) io.err(`${CR}${csi("2K")}`);
      },
    });
  } finally {
    interruptsOff?.();
    if (ticker !== undefined) clearInterval(ticker);
  }
  for (const w of d.warnings) io.err(w);
  if (d.res.movedAside) {
    const was = d.res.notDeja ? "not a deja index" : "damaged";
    io.err(`deja: the index was ${was}; moved it to ${d.res.movedAside} and started a new one\n`);
  }
  // Said even with --quiet, as a damaged index moved aside is: what it held went with it.
  if (d.res.deleted) io.err(`deja: ${deletedLine(d.index, d.res.deleted)}\n`);
  // Said even with --quiet, as a damaged index moved aside is: the index was wrong.
  if (d.res.reforgotten) io.err(reforgottenLine(d.res.reforgotten) + "\n");
  if (d.res.gone?.length && !args.quiet) io.err(goneLine(d.res.gone));
  if (d.res.resumedRebuild && !args.quiet) io.err(RESUMED_LINE);
  if (d.res.dropped && !args.quiet) io.err(droppedLine(d.res.dropped, d.res.movedAside));
  if (d.res.reread && !args.quiet) io.err(`deja: ${rereadLine(d.res.reread)}\n`);
  return reportIndex(d, args, io);
}

/** Said by a plain run that finished a rebuild a signal had interrupted (trial 123 F2). */
export const RESUMED_LINE =
  "deja: the last 'deja index --rebuild' was interrupted; this run was a rebuild to finish it\n";

/**
 * What a rebuild dropped (trials 33, 34: sessions and events went without a word): `deja: the
 * rebuild dropped 1 session no store returns now (058a90bd claude, from …/rw.jsonl)`, and the
 * events stores hold no more.
 */
export function droppedLine(d: Dropped, aside?: string): string {
  const lines: string[] = [];
  // After a damaged index was moved aside, what it held is still in that file.
  const still = aside ? `; the damaged index moved to ${aside} still holds them` : "";
  if (d.count) {
    const list = d.first.slice(0, 3).map((x) =>
      `${x.id.slice(0, 8)} ${x.harness}, from ${x.source}`
    );
    if (d.count > list.length) list.push(`${d.count - list.length} more`);
    lines.push(
      `deja: the rebuild dropped ${plural(d.count, "session")} no store returns now (${
        list.join("; ")
      })${still}\n`,
    );
  }
  const s = d.shortened;
  if (s.count) {
    const list = s.first.slice(0, 3).map((x) =>
      `${x.id.slice(0, 8)} ${x.harness}, ${x.before} -> ${x.after} events`
    );
    if (s.count > list.length) list.push(`${s.count - list.length} more`);
    lines.push(
      `deja: the rebuild dropped ${plural(s.events, "event")} of ${plural(s.count, "session")} ${
        s.count === 1 ? "its store holds" : "their stores hold"
      } no more (${list.join("; ")}): what the index had kept of ${
        s.count === 1 ? "a store" : "stores"
      } cut short or damaged\n`,
    );
  }
  return lines.join("");
}

/** A full index run; the indexer and the parsers are loaded only for it. */
async function fullRun(env: IO["env"], opts: IndexOptions): Promise<IndexResult> {
  const { runIndex } = await import("../indexer.ts");
  const { parsers } = await import("../../parsers/mod.ts");
  return await runIndex(env, parsers, opts);
}

/** Sessions and events the index holds after a run. */
function indexTotals(env: Parameters<typeof indexPath>[0]): { sessions: number; events: number } {
  const store = Store.open(indexPath(env));
  try {
    const { sessions, events } = store.stats();
    return { sessions, events };
  } finally {
    store.close();
  }
}

/**
 * The optional embeddings pass (lib/embeddings/pass.ts) after indexing: nothing without an
 * endpoint; a failure is one warning on stderr and never changes the exit code.
 */
async function embedAfterIndex(
  env: Env,
  warnings: string[],
): Promise<{ embedded: number; pending: number; error?: string } | null> {
  try {
    // The pass (and the redaction it applies) is loaded only when an endpoint is configured.
    if (!embedConfig(env).config) return null;
    const r = await (await import("../embeddings/pass.ts")).embedPass(env);
    if (!r) return null;
    if (r.error) warnings.push(`deja: ${r.error.message}\nhint: ${r.error.hint}\n`);
    return {
      embedded: r.embedded,
      pending: r.pending,
      ...(r.error ? { error: r.error.message } : {}),
    };
  } catch (e) {
    warnings.push(`deja: embeddings skipped: ${(e as Error).message}\n`);
    return { embedded: 0, pending: 0, error: (e as Error).message };
  }
}
