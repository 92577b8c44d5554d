/**
 * One parse of a mutated store, in its own process (the fuzz suite's time
 * limit can kill it): prints the fuzz markers found in the events and the
 * peak RSS in KiB (`VmHWM`, Linux; -1 elsewhere), and the error when the
 * parser gave the store up whole.
 * Usage: `_fuzz_worker.ts (<parser id> <path> <kind>)...`; one JSON line per store.
 */
import { readFileSync } from "node:fs";
import { parsers } from "../parsers/mod.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import type { SourceRef } from "../core/model.ts";
import { testEnv } from "./_fixture.ts";

for (let i = 0; i + 2 < Deno.args.length; i += 3) {
  const [id, path, kind] = Deno.args.slice(i, i + 3);
  const parser = parsers.find((p) => p.id === id)!;
  const ctx = new SourceCtx(testEnv("/nonexistent-home"));
  const found = new Set<string>();
  let error: string | undefined;
  try {
    for await (const s of parser.parse({ harness: id, path, kind } as SourceRef, ctx)) {
      for (const e of s.events) for (const m of e.text.matchAll(/FZ\d+Q/g)) found.add(m[0]);
    }
  } catch (e) {
    error = (e as Error).message; // a store unreadable as a whole: the indexer reports it
  }
  let hwm = -1;
  try {
    hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? -1);
  } catch { /* not Linux */ }
  console.log(JSON.stringify({ found: [...found], hwm, skipped: ctx.skipped, error }));
}
