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
 * thread runs on, so the CLI says the same at the budget and ends at its exit grace
 * (core/runtime.ts `exit`, 10 s more: 20.2 s). Without the worker either hung for hours.
 *
 * @module
 */
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

/** Milliseconds a worker may take to start before the texts are tested in process. */
export const READY_MS = 3000;

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

function start(): Thread | undefined {
  if (thread || noWorker) return thread;
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
    // A module that cannot load never says ready: the wait ends at READY_MS.
    Atomics.wait(flag, 0, 0, READY_MS);
    if (Atomics.load(flag, 0) !== 2) {
      void worker.terminate();
      noWorker = true;
      return undefined;
    }
    thread = { worker, port: port1, flag };
    return thread;
  } catch {
    noWorker = true;
    return undefined;
  }
}

/** Ends the worker (it is unreferenced: a process also ends without this). */
export function stopRegexWorker(): void {
  if (thread) void thread.worker.terminate();
  thread = undefined;
}

/**
 * The indexes of `texts` that `re` matches, or "timeout" when testing them took longer than
 * `ms` (the worker is then terminated; the next call starts another).
 *
 * @param ms milliseconds the test may take (0 or less: "timeout" without a test).
 */
export function testTexts(re: RegExp, texts: string[], ms: number): number[] | "timeout" {
  if (ms <= 0) return "timeout";
  const t = start();
  if (!t) {
    const until = Date.now() + ms;
    const hits: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (re.test(texts[i])) hits.push(i);
      if (Date.now() >= until) return "timeout";
    }
    return hits;
  }
  Atomics.store(t.flag, 0, 0);
  t.port.postMessage({ source: re.source, flags: re.flags, texts });
  if (Atomics.wait(t.flag, 0, 0, ms) === "timed-out") {
    stopRegexWorker();
    return "timeout";
  }
  // The answer is posted before the flag is set; a runtime may deliver it a moment later.
  for (let i = 0; i < 100; i++) {
    const m = receiveMessageOnPort(t.port);
    if (m) return m.message as number[];
    Atomics.wait(t.flag, 0, 1, 1);
  }
  stopRegexWorker();
  return "timeout";
}
