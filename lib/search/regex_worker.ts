/**
 * The `--re` worker's entry point (lib/search/regex_run.ts starts it): tests a pattern on
 * batches of texts off the main thread, so that a pattern backtracking without end can be
 * stopped by terminating this thread.
 *
 * `workerData`: `{port, flag}`, a MessagePort and an Int32Array over shared memory. On start
 * it sets `flag[0]` to 2 (ready); for each message `{source, flags, texts}` on `port` it posts
 * the indexes of the texts the pattern matches, then sets `flag[0]` to 1 and wakes the
 * caller waiting on it (`Atomics.wait`).
 *
 * @module
 */
import { workerData } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
let cached: RegExp | undefined;
port.on("message", (m: { source: string; flags: string; texts: string[] }) => {
  if (!cached || cached.source !== m.source || cached.flags !== m.flags) {
    cached = new RegExp(m.source, m.flags);
  }
  const re = cached;
  const hits: number[] = [];
  for (let i = 0; i < m.texts.length; i++) if (re.test(m.texts[i])) hits.push(i);
  port.postMessage(hits);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
Atomics.store(flag, 0, 2);
Atomics.notify(flag, 0);
