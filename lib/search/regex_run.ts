/**
 * Where `--re` tests its pattern: in a worker thread (lib/search/regex_worker.ts) the caller
 * waits on synchronously, each batch with the time the scan has left, so a pattern that
 * backtracks without end is stopped for sure: the worker is terminated and the scan ends
 * with an error. Where no worker starts (a runtime or build without one: the worker's
 * module is missing from the binary), the texts are tested in process, and the budget is
 * checked between them.
 *
 * A worker costs ~0.1 s to start (Deno 2.9, measured on a loaded 2-core machine); one is
 * started per process, on the first `--re` scan, and kept for the next.
 *
 * Measured on a fake home with `\s*\s*\s*\s*\s*x$` (a text of spaces never finished): Deno
 * stops the worker mid-match and the CLI exits at the budget (10.5 s, exit 2). Bun 1.4.5
 * cannot interrupt a regular expression running in a worker (a plain loop it can): the
 * thread runs on and held the process until its exit grace (core/runtime.ts `exit`, 10 s
 * more: 20.1 s, though the message said 10 s). A worker stopped at the budget is now said
 * to be left running (`threadLeftRunning`), so the process ends at once after the message
 * in either runtime. Without the worker either hung for hours.
 *
 * A worker slow to start is waited for within the scan's budget, never replaced by a test in
 * process: on a loaded machine (the test suite in parallel on 2 cores) a start took over
 * the 3 s once allowed, the texts were then tested in process, and a pattern that never
 * finishes hung the process (lib/search/regex_test.ts, twice in one session). Only a
 * runtime that cannot construct a worker at all tests in process. A build whose worker
 * module is missing never says ready, so each scan ends at its budget as "took too long".
 *
 * @module
 */
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { threadLeftRunning } from "../../core/runtime.ts";

/**
 * Where the worker's module is: beside this one from source, and under the bundle's root as
 * `lib/search/regex_worker.js` in a `bun build --compile` binary (the compile:bun task
 * names it as an entry point), as lib/parse_pool.ts finds its worker.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  const m = /^(.*(?:\$bunfs|~BUN)\/root\/)/.exec(here);
  return m ? new URL("lib/search/regex_worker.js", m[1]) : new URL("./regex_worker.ts", here);
}

interface Thread {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
}

let thread: Thread | undefined;
/** No worker could start in this process: test in process from now on. */
let noWorker = false;

let starting: Thread | undefined;

/**
 * The worker, started if need be and waited for until `until` (a `Date.now()` time):
 * undefined when none can be constructed here, "slow" when it did not say ready by then.
 * The wait is measured after the construction, which can block: `deno test` checks the
 * worker's module as it starts (160–240 ms on 2 loaded cores), and a wait of the whole
 * budget after it ran the scan past its budget (802 ms of 800, CI, 2026-12).
 */
function start(until: number): Thread | undefined | "slow" {
  if (thread || noWorker) return thread;
  if (!starting) starting = construct();
  if (!starting) return undefined;
  Atomics.wait(starting.flag, 0, 0, Math.max(0, until - Date.now()));
  if (Atomics.load(starting.flag, 0) !== 2) return "slow";
  thread = starting;
  starting = undefined;
  return thread;
}

function construct(): Thread | undefined {
  try {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(
      workerUrl(),
      {
        workerData: { port: port2, flag },
        transferList: [port2],
      } as ConstructorParameters<typeof Worker>[1],
    );
    worker.unref();
    port1.unref();
    return { worker, port: port1, flag };
  } catch {
    noWorker = true;
    return undefined;
  }
}

/** Ends the worker (it is unreferenced: a process also ends without this). */
export function stopRegexWorker(): void {
  for (const t of [thread, starting]) if (t) void t.worker.terminate();
  thread = starting = undefined;
}

/** Ends a worker stopped mid-test, which a runtime may leave running (Bun, in a match). */
function abandonWorker(): "timeout" {
  stopRegexWorker();
  threadLeftRunning();
  return "timeout";
}

/**
 * The indexes of `texts` that `re` matches, or "timeout" when testing them took longer than
 * `ms` (the worker is then terminated; the next call starts another).
 *
 * @param ms milliseconds the test may take (0 or less: "timeout" without a test).
 */
export function testTexts(re: RegExp, texts: string[], ms: number): number[] | "timeout" {
  if (ms <= 0) return "timeout";
  const until = Date.now() + ms;
  const t = start(until);
  if (t === "slow") return abandonWorker();
  if (!t) {
    const hits: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (re.test(texts[i])) hits.push(i);
      if (Date.now() >= until) return "timeout";
    }
    return hits;
  }
  Atomics.store(t.flag, 0, 0);
  t.port.postMessage({ source: re.source, flags: re.flags, texts });
  if (Atomics.wait(t.flag, 0, 0, Math.max(0, until - Date.now())) === "timed-out") {
    return abandonWorker();
  }
  // The answer is posted before the flag is set; a runtime may deliver it a moment later.
  for (let i = 0; i < 100; i++) {
    const m = receiveMessageOnPort(t.port);
    if (m) return m.message as number[];
    Atomics.wait(t.flag, 0, 1, 1);
  }
  return abandonWorker();
}
