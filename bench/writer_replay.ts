/**
 * `deno task bench:writer [--mb 100] [--runs 3]`: the index writer's cost alone
 * (issue 18). Parses the synthetic Claude Code corpus of `deno task bench`
 * (bench/gen_claude.ts) into prepared chunks first, then replays them through
 * lib/ingest.ts's SourceWriter into a fresh index on one thread, in batches of
 * sources as lib/indexer.ts writes them (lib/write_batch.ts; `--per-source`: a
 * transaction per source), and prints per run the
 * writer's CPU time, the thread's CPU time where /proc has it, and the CPU time
 * of each named query (Q) and of the commits. Under Bun, as the compiled
 * binary runs: `npx -y bun@1.4.5 run bench/writer_replay.ts --mb 100`.
 * `--corpus DIR` replays another Claude Code projects directory instead.
 * `--no-queries` leaves the per-query timing out: its two clock reads a call
 * cost more than most statements (the thread's CPU 1.6-1.7 s timed, 1.0-1.2 s
 * not, under SCHED_FIFO). `--skip a,b` runs the named queries of lib/schema.ts
 * as no-ops, to see what they cost (`--skip ftsFrom` leaves events_fts empty).
 *
 * What it leaves out of the real run: the transfer of chunks from the parse
 * workers (lib/parse_pool.ts: one JSON.parse per chunk on the writer's thread),
 * discovery and planning, and the word associations built at the end.
 *
 * Measured and not kept (issue 18, 100 MB corpus, Bun, load 3-9, variants alternated): the
 * events table with its small columns first and text, data last, without events_rank (the
 * writer maintains one B-tree fewer). insertEvent min 441 ms (today) / 394 (no events_rank) /
 * 389 (reordered, no events_rank); dropping every secondary index of events but events_key
 * gave 266, so their whole upkeep is ~130 ms of a ~1.3 s thread. Queries lose more: reading
 * session, seq, kind, time and flags of a common word's 5000 best matches by id (fresh
 * connection, CPU) took 10-18 ms from events_rank, 26-28 from the rows, 18-27 from the
 * reordered rows (40,000 matches: 80-130 / 200-230 / 145-225), and the cold binary's
 * "error build" 190 ms CPU median against 230 for both. The cost is one 8 KB table page per
 * match (37 MB of rows against 2 MB of index), not the overflow pages a column after the
 * text may sit in, so the column order does not change it. Index 56.4 -> 54.4 MB.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { cpuMs, replayCorpus } from "./_replay.ts";
import { claude } from "../parsers/claude.ts";
import { prepared } from "../lib/parse_pool.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { Store } from "../lib/store.ts";
import { applyWriterSettings, Q } from "../lib/schema.ts";
import { SourceWriter } from "../lib/ingest.ts";
import { WriteBatch } from "../lib/write_batch.ts";
import type { PreparedChunk } from "../lib/prepare.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    runs: { type: "string", default: "3" },
    corpus: { type: "string" },
    "per-source": { type: "boolean", default: false },
    "no-queries": { type: "boolean", default: false },
    skip: { type: "string", default: "" },
  },
});

/** CPU ms of this (the main) thread, from /proc; undefined where there is none. */
function threadMs(): number | undefined {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]
      .split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, fields 14 and 15 of proc(5)
  } catch {
    return undefined;
  }
}

const found = await replayCorpus(Number(values.mb), values.corpus);
const env = found.env;
const sources: { path: string; bytes: number; chunks: PreparedChunk[] }[] = [];
let t = performance.now();
for (const src of found.sources) {
  const chunks: PreparedChunk[] = [];
  for await (const c of prepared(claude.parse(src, new SourceCtx(env)))) chunks.push(c);
  sources.push({ path: src.path, bytes: statSync(src.path).size, chunks });
}
const nChunks = sources.reduce((a, s) => a + s.chunks.length, 0);
const nEvents = sources.reduce((a, s) => a + s.chunks.reduce((b, c) => b + c.events.length, 0), 0);
console.log(
  `${sources.length} sources, ${nChunks} chunks, ${nEvents} events, parsed in ${
    (performance.now() - t).toFixed(0)
  } ms`,
);

// Every named query is timed by CPU (a shared machine moves wall time more).
const spent = new Map<string, { n: number; ms: number }>();
const tally = (name: string, ms: number) => {
  const e = spent.get(name) ?? { n: 0, ms: 0 };
  e.n++;
  e.ms += ms;
  spent.set(name, e);
};
for (const name of values.skip.split(",").filter(Boolean)) {
  const q = (Q as unknown as Record<string, { run: unknown } | undefined>)[name];
  if (!q) throw new Error(`--skip: no query ${name}`);
  q.run = () => ({ changes: 0, lastInsertRowid: 0 });
}
for (const [name, q] of values["no-queries"] ? [] : Object.entries(Q)) {
  const m = q as unknown as Record<"run" | "get" | "all", (...a: unknown[]) => unknown>;
  for (const k of ["run", "get", "all"] as const) {
    const f = m[k];
    m[k] = (...a: unknown[]) => {
      const c0 = process.cpuUsage();
      try {
        return f(...a);
      } finally {
        tally(name, cpuMs(c0));
      }
    };
  }
}

for (let r = 0; r < Number(values.runs); r++) {
  const dir = mkdtempSync(join(tmpdir(), "deja-writer-replay-"));
  try {
    const store = Store.open(join(dir, "index.db"), { create: true });
    applyWriterSettings(store.db);
    spent.clear();
    const th0 = threadMs();
    const c0 = process.cpuUsage();
    t = performance.now();
    const batch = new WriteBatch(store, values["per-source"] ? 0 : undefined);
    const commit = batch.commit.bind(batch);
    batch.commit = () => {
      const k0 = process.cpuUsage();
      commit();
      tally("commit (text, tokens, COMMIT)", cpuMs(k0));
    };
    for (const s of sources) {
      batch.begin();
      const w = new SourceWriter(store, s.path, "full");
      for (const c of s.chunks) w.write(c);
      w.finish(true);
      batch.keep(s.bytes);
    }
    batch.commit();
    const wall = performance.now() - t;
    const cpu = cpuMs(c0);
    const th1 = threadMs();
    store.close();
    const thread = th0 === undefined || th1 === undefined ? "" : `, this thread ${th1 - th0} ms`;
    console.log(
      `run ${r + 1}: wall ${wall.toFixed(0)} ms, CPU ${
        cpu.toFixed(0)
      } ms${thread}; by query (calls, CPU ms):`,
    );
    const top = [...spent].sort((a, b) => b[1].ms - a[1].ms).filter(([, v]) => v.ms >= 1);
    for (const [k, v] of top) {
      console.log(`  ${k.padEnd(32)} ${String(v.n).padStart(6)} ${v.ms.toFixed(0).padStart(6)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
