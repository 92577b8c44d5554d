/**
 * `deno task bench --scale [--mb 1000] [--big-mb 2000] [--line-mb 200]`: the
 * scale run. A Claude Code corpus of about `--mb` megabytes, plus one session
 * file of about `--big-mb` megabytes holding a single line of `--line-mb`
 * megabytes, is generated in a temporary directory, indexed by the compiled
 * binary (dist/deja-bun), and removed at the end whatever happens. Prints index
 * time, MB/s, peak RSS of the binary's process, index size, the records skipped
 * (none: the long line is read in pieces, its text capped, never held whole), and cold query
 * p50/p95 at that size. Not part of the tests or CI: it writes about 3 GB.
 *
 * @module
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync } from "node:fs";
import { readFileSync } from "node:fs";
import { rmSync, statSync, writeSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { COMMON_WORDS, generate, RARE_TOKEN } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";

/** Sizes of the scale run, in megabytes (10^6 bytes). */
export interface ScaleOptions {
  mb: number;
  bigMb: number;
  lineMb: number;
  runs: number;
}

const MB = 1e6;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * Writes one Claude Code session file of about `bigMb` MB: ordinary records
 * (made by the corpus generator, re-stamped with one session id) with one
 * `lineMb` MB tool result line in the middle, written piece by piece so the
 * generator never holds it whole.
 */
export function writeBigSession(
  dir: string,
  scratch: string,
  bigMb: number,
  lineMb: number,
): number {
  const sid = "5ca1eb16-0000-4000-a000-000000000001";
  const file = join(dir, `${sid}.jsonl`);
  mkdirSync(dir, { recursive: true });
  const fd = openSync(file, "w");
  let bytes = 0;
  let longDone = false;
  const put = (s: string | Uint8Array) => {
    bytes += writeSync(fd, typeof s === "string" ? new TextEncoder().encode(s) : s);
  };
  try {
    for (let seed = 1000; bytes < bigMb * MB; seed++) {
      rmSync(scratch, { recursive: true, force: true });
      generate(scratch, 50, seed);
      const root = join(scratch, "projects");
      for (const d of readdirSync(root)) {
        for (const f of readdirSync(join(root, d))) {
          const text = readFileSync(join(root, d, f), "utf8");
          put(text.replaceAll(/"sessionId":"[^"]+"/g, `"sessionId":"${sid}"`));
        }
      }
      if (!longDone && lineMb > 0 && bytes >= (bigMb * MB) / 2) {
        longDone = true;
        put(
          `{"type":"user","sessionId":"${sid}","uuid":"10ng-11ne","timestamp":"2026-06-02T10:00:00Z",` +
            `"cwd":"/home/dev/work/big","message":{"role":"user","content":[{"type":"tool_result",` +
            `"tool_use_id":"toolu_long","content":"`,
        );
        const piece = new TextEncoder().encode("lorem ipsum dolor sit amet ".repeat(40_000));
        for (let n = 0; n < lineMb * MB; n += piece.length) put(piece);
        put(`"}]}}\n`);
      }
    }
  } finally {
    closeSync(fd);
    rmSync(scratch, { recursive: true, force: true });
  }
  return bytes;
}

/**
 * Writes one Claude Code session of `n` tool result lines of 0.9 MB each:
 * under the streaming threshold, so each is parsed whole, many to a chunk.
 */
function writeLongLinesSession(dir: string, n: number): number {
  const sid = "5ca1eb16-0000-4000-a000-000000000002";
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, `${sid}.jsonl`), "w");
  let bytes = 0;
  try {
    for (let i = 0; i < n; i++) {
      const text = `line ${i} lorem ipsum dolor sit amet `.repeat(30_000).slice(0, 900_000);
      const rec = {
        type: "user",
        sessionId: sid,
        uuid: `long-${i}`,
        timestamp: "2026-06-02T10:00:00Z",
        cwd: "/home/dev/work/long",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: `t${i}`, content: text }],
        },
      };
      bytes += writeSync(fd, new TextEncoder().encode(JSON.stringify(rec) + "\n"));
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Peak RSS (kB) and wall time of one child, via /usr/bin/time when present. */
function timed(argv: string[], env: Record<string, string | undefined>) {
  const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
  const t = performance.now();
  const r = timeBin
    ? spawnSync(timeBin, ["-f", "RSSKB=%M CPU=%U+%S", ...argv], {
      env,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    })
    : spawnSync(argv[0], argv.slice(1), { env, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  const rss = /RSSKB=(\d+)/.exec(r.stderr ?? "")?.[1];
  const cpu = /CPU=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? "");
  return {
    ms,
    rssKb: rss ? Number(rss) : undefined,
    cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
    out: r.stdout ?? "",
    err: r.stderr ?? "",
    code: r.status ?? -1,
  };
}

/** The compiled binary, built when missing. */
function binary(): string {
  const bin = join(REPO, "dist/deja-bun");
  if (!existsSync(bin)) {
    const b = spawnSync("deno", ["task", "compile:bun"], { cwd: REPO, stdio: "inherit" });
    if (b.status !== 0) throw new Error("could not build dist/deja-bun");
  }
  return bin;
}

/** The environment of an index run over `corpus` with its index under `work`. */
function runEnv(work: string, corpus: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: join(work, "home"),
    DEJA_HOME: join(work, "deja"),
    DEJA_CLAUDE_ROOT: join(corpus, "projects"),
    DEJA_NO_REFRESH: "1",
    NO_COLOR: "1",
  };
}

/** The skip counts of an `index --json` run's first harness, as text. */
function skippedOf(out: string): string {
  try {
    const h = (JSON.parse(out) as { harnesses: Array<{ skipped: object; sessions: number }> })
      .harnesses[0];
    return `${h.sessions} / ${JSON.stringify(h.skipped)}`;
  } catch {
    return "unreadable";
  }
}

/** One case of the memory sweep: a corpus of `mb` MB plus one session of `bigMb` MB with a `lineMb` MB line. */
interface SweepCase {
  label: string;
  mb: number;
  bigMb: number;
  lineMb: number;
  /** Lines of 0.9 MB in a session of their own. */
  longLines?: number;
}

/**
 * `--sweep`: peak RSS of a full index for inputs that stress memory in
 * different ways — one long line of 1, 10, 30 and 100 MB, many small sessions
 * (`--mb`, default 200), one huge session without long lines, one session of
 * many lines just under the streaming threshold. Each case is
 * generated, indexed by the compiled binary and removed before the next.
 */
export function scaleSweep(mb: number): void {
  const bin = binary();
  const cases: SweepCase[] = [
    ...[1, 10, 30, 100].map((l) => ({
      label: `one ${l} MB line`,
      mb: 5,
      bigMb: l + 10,
      lineMb: l,
    })),
    { label: `many small sessions (${mb} MB)`, mb, bigMb: 0, lineMb: 0 },
    { label: "one huge session (300 MB)", mb: 5, bigMb: 300, lineMb: 0 },
    { label: "one session of 300 lines of 0.9 MB", mb: 5, bigMb: 0, lineMb: 0, longLines: 300 },
  ];
  for (const c of cases) {
    const work = mkdtempSync(join(tmpdir(), "deja-sweep-"));
    try {
      const corpus = join(work, "corpus");
      const g = generate(corpus, c.mb);
      const big = c.bigMb > 0
        ? writeBigSession(
          join(corpus, "projects", "-home-dev-work-big"),
          join(work, "s"),
          c.bigMb,
          c.lineMb,
        )
        : 0;
      const long = c.longLines
        ? writeLongLinesSession(join(corpus, "projects", "-home-dev-work-long"), c.longLines)
        : 0;
      const ix = timed([bin, "index", "--harness", "claude", "--json"], runEnv(work, corpus));
      if (ix.code !== 0) console.error(ix.err);
      console.log(
        `${c.label.padEnd(34)} ${
          ((g.bytes + big + long) / MB).toFixed(0).padStart(5)
        } MB  peak RSS ${ix.rssKb ? (ix.rssKb / 1024).toFixed(0) : "?"} MB  wall ${
          (ix.ms / 1000).toFixed(1)
        } s  CPU ${ix.cpuS?.toFixed(1) ?? "?"} s  sessions / skipped ${skippedOf(ix.out)}`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

/** Runs the scale run (see the module doc); the corpus and the index are removed at the end. */
export function scaleRun(o: ScaleOptions): void {
  const bin = binary();
  const work = mkdtempSync(join(tmpdir(), "deja-scale-"));
  const push = (k: string, v: string) => console.log(`${k.padEnd(44)} ${v}`);
  try {
    const corpus = join(work, "corpus");
    let t = performance.now();
    const g = generate(corpus, o.mb);
    const bigDir = join(corpus, "projects", "-home-dev-work-big");
    const bigBytes = writeBigSession(bigDir, join(work, "scratch"), o.bigMb, o.lineMb);
    const total = g.bytes + bigBytes;
    push(
      "scale corpus",
      `${(total / MB).toFixed(0)} MB: ${g.files} files of ~1.5 MB + one of ${
        (bigBytes / MB).toFixed(0)
      } MB with a ${o.lineMb} MB line (generated in ${
        ((performance.now() - t) / 1000).toFixed(0)
      } s)`,
    );
    const env = runEnv(work, corpus);
    t = performance.now();
    const ix = timed([bin, "index", "--harness", "claude", "--json"], env);
    if (ix.code !== 0) console.error(ix.err);
    push("index (compiled binary), wall", `${(ix.ms / 1000).toFixed(1)} s`);
    if (ix.cpuS !== undefined) push("index CPU (user+sys)", `${ix.cpuS.toFixed(1)} s`);
    push("index throughput", `${(total / MB / (ix.ms / 1000)).toFixed(1)} MB/s`);
    if (ix.rssKb) push("index peak RSS", `${(ix.rssKb / 1024).toFixed(0)} MB`);
    push("sessions written / skipped", skippedOf(ix.out));
    const idx = join(env.DEJA_HOME!, "index.db");
    if (existsSync(idx)) {
      const size = statSync(idx).size +
        (existsSync(idx + "-wal") ? statSync(idx + "-wal").size : 0);
      push(
        "index size",
        `${(size / MB).toFixed(0)} MB (${((size / total) * 100).toFixed(0)}% of corpus)`,
      );
    }
    const noop = timed([bin, "index", "--harness", "claude", "--quiet"], env);
    push("no-op re-index (whole process)", `${(noop.ms / 1000).toFixed(3)} s`);
    push(
      "load average while it ran",
      (existsSync("/proc/loadavg") ? readFileSync("/proc/loadavg", "utf8") : "?").split(" ").slice(
        0,
        3,
      ).join(" "),
    );
    for (
      const [label, q] of [["rare token", RARE_TOKEN], ["two common words", COMMON_WORDS.join(" ")]]
    ) {
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < o.runs; i++) {
        const r = timed([bin, ...q.split(" "), "--json"], env);
        times.push(r.ms);
        if (r.cpuS !== undefined) cpu.push(r.cpuS * 1000);
      }
      push(
        `query cold binary, ${label} (p50/p95)`,
        `${pct(times, 50).toFixed(0)} / ${pct(times, 95).toFixed(0)} ms${
          cpu.length ? ` (CPU p50 ${pct(cpu, 50).toFixed(0)} ms)` : ""
        }`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
