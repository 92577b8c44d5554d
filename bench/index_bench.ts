/**
 * `deno task bench [--mb 100] [--runs 20] [--file-kb 1500] [--pairs 3]`: indexing and
 * query figures on a synthetic Claude Code corpus of files of about
 * `--file-kb` KB (40 gives the many short sessions of a typical history). Prints figures; asserts nothing about time.
 *
 * Reports: index throughput (MB/s), peak RSS of the indexing process, index
 * size, no-op re-index time, and query latency p50/p95 for a rare token and
 * two common words, in-process and as a cold process of the compiled binary
 * (dist/deja-bun, built with `deno task compile:bun` when missing). When
 * DEJA_REF_BIN names the reference Go binary, it is timed on the same corpus,
 * then both full index runs again `--pairs` times alternated (the ratio of
 * their minimums is the figure to quote: a shared machine's speed drifts).
 * Cold figures carry the mean CPU time per run (user + system of the
 * children, from /proc): on a shared machine it moves less than the wall time.
 *
 * `--scale` runs the scale run instead (bench/scale_bench.ts: a ~1 GB corpus
 * plus one 2 GB session with a 200 MB line, generated in a temporary directory
 * and removed at the end; `--mb` then sizes the corpus, default 1000; `--big-mb`
 * and `--line-mb` size the big session and its line). `--scale --sweep` prints
 * peak RSS for lines of 1, 10, 30 and 100 MB, many small sessions (`--mb`,
 * default 200) and one huge session, each generated and removed in turn.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { COMMON_WORDS, ensureCorpus, RARE_TOKEN } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    "file-kb": { type: "string", default: "1500" },
    runs: { type: "string", default: "20" },
    fresh: { type: "boolean", default: false },
    scale: { type: "boolean", default: false },
    sweep: { type: "boolean", default: false },
    "big-mb": { type: "string", default: "2000" },
    "line-mb": { type: "string", default: "200" },
    pairs: { type: "string", default: "3" },
  },
});
if (values.scale && values.sweep) {
  const { scaleSweep } = await import("./scale_bench.ts");
  scaleSweep(process.argv.some((a) => a.startsWith("--mb")) ? Number(values.mb) : 200);
  process.exit(0);
}
if (values.scale) {
  const { scaleRun } = await import("./scale_bench.ts");
  scaleRun({
    mb: process.argv.some((a) => a.startsWith("--mb")) ? Number(values.mb) : 1000,
    bigMb: Number(values["big-mb"]),
    lineMb: Number(values["line-mb"]),
    runs: Math.min(Number(values.runs), 15),
  });
  process.exit(0);
}
const mb = Number(values.mb);
const runs = Number(values.runs);
const work = join(REPO, ".bench");
const { dir: corpus, bytes: corpusBytes } = ensureCorpus(
  work,
  mb,
  values.fresh,
  Number(values["file-kb"]),
);
const home = join(work, "home");
const dejaHome = join(work, `deja-${mb}mb`);
rmSync(dejaHome, { recursive: true, force: true });
const env = {
  ...process.env,
  HOME: home,
  DEJA_HOME: dejaHome,
  DEJA_CLAUDE_ROOT: join(corpus, "projects"),
  NO_COLOR: "1",
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Runs deja in a child process; returns wall ms and peak RSS (kB) from /usr/bin/time when present. */
function child(
  argv: string[],
  e: Record<string, string | undefined> = env,
): { ms: number; rssKb?: number; out: string; code: number } {
  const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
  const t = performance.now();
  const r = timeBin
    ? spawnSync(timeBin, ["-f", "RSSKB=%M", ...argv], {
      env: e,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    })
    : spawnSync(argv[0], argv.slice(1), { env: e, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  const m = /RSSKB=(\d+)/.exec(r.stderr ?? "");
  if (r.status !== 0 && r.status !== 1) console.error(r.stderr);
  return {
    ms,
    rssKb: m ? Number(m[1]) : undefined,
    out: r.stdout ?? "",
    code: r.status ?? -1,
  };
}

/**
 * CPU ms (user + system) of the children this process has waited for, from /proc/self/stat
 * (cutime + cstime, in 10 ms ticks; a batch's difference over its runs is a fair mean).
 * Undefined where there is no /proc.
 */
function childCpuMs(): number | undefined {
  try {
    const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(f[13]) + Number(f[14])) * 10; // fields 16 and 17 of proc(5)
  } catch {
    return undefined;
  }
}

/** `, CPU x.xx s` of the children waited for since `c0` (a {@link childCpuMs} reading); "" without /proc. */
function cpuSince(c0: number | undefined): string {
  const c1 = childCpuMs();
  return c0 === undefined || c1 === undefined ? "" : `, CPU ${((c1 - c0) / 1000).toFixed(2)} s`;
}

/** `n` cold runs of `argv`: their wall times and the mean CPU per run (when known). */
function batch(argv: string[], n: number, e = env): { wall: number[]; cpu: string } {
  const c0 = childCpuMs();
  const wall = Array.from({ length: n }, () => child(argv, e).ms);
  const c1 = childCpuMs();
  const cpu = c0 === undefined || c1 === undefined
    ? ""
    : `, CPU ${((c1 - c0) / n).toFixed(0)} ms/run`;
  return { wall, cpu };
}

/** Wall p50/p95 and mean CPU of `n` cold runs of `argv`. */
function coldRuns(argv: string[], n: number, e = env): string {
  const { wall, cpu } = batch(argv, n, e);
  return `${pct(wall, 50).toFixed(0)} / ${pct(wall, 95).toFixed(0)} ms${cpu}`;
}

/** Min wall of `n` cold runs of `argv`, and their mean CPU. */
function minRuns(argv: string[], n = 10, e = env): string {
  const { wall, cpu } = batch(argv, n, e);
  return `${Math.min(...wall).toFixed(0)} ms${cpu}`;
}

const denoRun = [process.execPath, "run", "-A", join(REPO, "main.ts")];
const rows: Array<[string, string]> = [];
const push = (k: string, v: string) => {
  rows.push([k, v]);
  console.log(`${k.padEnd(44)} ${v}`);
};

console.log(`corpus: ${(corpusBytes / 1e6).toFixed(1)} MB of Claude Code JSONL at ${corpus}`);
const full = child([...denoRun, "index", "--harness", "claude", "--quiet"]);
push("index (deno run), wall", `${(full.ms / 1000).toFixed(2)} s`);
push("index throughput", `${(corpusBytes / 1e6 / (full.ms / 1000)).toFixed(1)} MB/s`);
if (full.rssKb) push("index peak RSS", `${(full.rssKb / 1024).toFixed(0)} MB`);
const idx = join(dejaHome, "index.db");
const size = statSync(idx).size + (existsSync(idx + "-wal") ? statSync(idx + "-wal").size : 0);
push(
  "index size",
  `${(size / 1e6).toFixed(1)} MB (${((size / corpusBytes) * 100).toFixed(0)}% of corpus)`,
);
const noop = child([...denoRun, "index", "--harness", "claude", "--quiet"]);
push("no-op re-index (deno run, whole process)", `${(noop.ms / 1000).toFixed(3)} s`);

// In-process query latency.
const { Store } = await import("../lib/store.ts");
const { search } = await import("../lib/search.ts");
const store = Store.open(idx);
const queries: Array<[string, string]> = [["rare token", RARE_TOKEN], [
  "two common words",
  COMMON_WORDS.join(" "),
  // Symbols alone have no FTS5 terms: a scan of every event's text (lib/search/regex.ts).
], ["symbols only, a scan", "👋"]];
for (const [label, q] of queries) {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    hits = search(store, q).results.length;
    times.push(performance.now() - t);
  }
  push(
    `query in-process, ${label} (p50/p95)`,
    `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms (${hits} sessions)`,
  );
}
// In-process no-op index (the indexer alone, without process start-up).
{
  const { runIndex } = await import("../lib/indexer.ts");
  const { makeEnv } = await import("../core/runtime.ts");
  const { parsers } = await import("../parsers/mod.ts");
  const t = performance.now();
  await runIndex(makeEnv(env), parsers, { only: ["claude"] });
  push("no-op re-index (in-process)", `${((performance.now() - t) / 1000).toFixed(3)} s`);
}
store.close();

// Cold process of the compiled binary.
const bin = join(REPO, "dist/deja-bun");
if (!existsSync(bin)) {
  const b = spawnSync("deno", ["task", "compile:bun"], { cwd: REPO, stdio: "inherit" });
  if (b.status !== 0) console.error("could not build dist/deja-bun; skipping cold-process figures");
}
if (existsSync(bin)) {
  // The release artefact indexing the same corpus into an index of its own.
  const binHome = join(work, `deja-bin-${mb}mb`);
  rmSync(binHome, { recursive: true, force: true });
  const saved = env.DEJA_HOME;
  env.DEJA_HOME = binHome;
  const c0 = childCpuMs();
  const bi = child([bin, "index", "--harness", "claude", "--quiet"]);
  const biCpu = cpuSince(c0);
  env.DEJA_HOME = saved;
  push("index (compiled binary), wall", `${(bi.ms / 1000).toFixed(2)} s${biCpu}`);
  push(
    "index throughput (compiled binary)",
    `${(corpusBytes / 1e6 / (bi.ms / 1000)).toFixed(1)} MB/s`,
  );
  if (bi.rssKb) push("index peak RSS (compiled binary)", `${(bi.rssKb / 1024).toFixed(0)} MB`);
  for (const [label, q] of queries) {
    push(
      `query cold binary, ${label} (p50/p95)`,
      coldRuns([bin, ...q.split(" "), "--json"], Math.min(runs, 15)),
    );
  }
  const noopBin = child([bin, "index", "--harness", "claude", "--quiet"]);
  push("no-op re-index (compiled binary, whole process)", `${(noopBin.ms / 1000).toFixed(3)} s`);
  // Start-up and the no-op run as a user runs them (every harness), min of several cold processes.
  push("no-op 'deja index' (compiled binary, min of 10)", minRuns([bin, "index"]));
  push("'deja --version' (compiled binary, min of 10)", minRuns([bin, "--version"]));
}

// The reference implementation, side by side, when its binary is named.
const ref = process.env.DEJA_REF_BIN;
if (ref && existsSync(ref)) {
  const refHome = join(work, `ref-${mb}mb`);
  rmSync(refHome, { recursive: true, force: true });
  mkdirSync(refHome, { recursive: true });
  const refEnv = {
    ...env,
    HOME: refHome,
    CLAUDE_CONFIG_DIR: corpus,
    XDG_DATA_HOME: join(refHome, "data"),
    // Its index stays out of the corpus (it would otherwise live beside CLAUDE_CONFIG_DIR).
    DEJA_INDEX_DIR: join(refHome, "idx"),
  };
  const time = (argv: string[]) => {
    const t = performance.now();
    const r = spawnSync("/usr/bin/time", ["-f", "RSSKB=%M", ...argv], {
      env: refEnv,
      encoding: "utf8",
    });
    return {
      ms: performance.now() - t,
      rss: /RSSKB=(\d+)/.exec(r.stderr ?? "")?.[1],
      out: r.stdout,
    };
  };
  const c0 = childCpuMs();
  const ri = time([ref, "index"]);
  const riCpu = cpuSince(c0);
  push(
    "reference: index wall",
    `${(ri.ms / 1000).toFixed(2)} s${riCpu} (${
      (corpusBytes / 1e6 / (ri.ms / 1000)).toFixed(1)
    } MB/s), peak RSS ${ri.rss ? (Number(ri.rss) / 1024).toFixed(0) : "?"} MB`,
  );
  for (const [label, q] of queries) {
    push(`reference: query cold, ${label} (p50/p95)`, coldRuns([ref, ...q.split(" ")], 10, refEnv));
  }
  push("reference: no-op 'index' (min of 10)", minRuns([ref, "index"], 10, refEnv));
  push("reference: '--version' (min of 10)", minRuns([ref, "--version"], 10, refEnv));

  // The measure: full index runs of both alternated, each from an empty index, so a
  // machine whose speed drifts (a shared host) slows both alike; the ratio of the minimums.
  const pairs = Number(values.pairs);
  if (existsSync(bin) && pairs > 0) {
    const ours: number[] = [];
    const theirs: number[] = [];
    const pairHome = join(work, `deja-pairs-${mb}mb`);
    for (let i = 0; i < pairs; i++) {
      rmSync(pairHome, { recursive: true, force: true });
      ours.push(
        child([bin, "index", "--harness", "claude", "--quiet"], {
          ...env,
          DEJA_HOME: pairHome,
        }).ms,
      );
      rmSync(refEnv.DEJA_INDEX_DIR, { recursive: true, force: true });
      theirs.push(time([ref, "index"]).ms);
    }
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const each = ours.map((o, i) => `${s(o)}/${s(theirs[i])}`).join(", ");
    push(
      `side by side: full index, ${pairs} alternated pairs`,
      `deja ${s(Math.min(...ours))} s, reference ${s(Math.min(...theirs))} s (minimums): ${
        (Math.min(...theirs) / Math.min(...ours)).toFixed(1)
      }x faster; pairs ${each}`,
    );
  }
}
