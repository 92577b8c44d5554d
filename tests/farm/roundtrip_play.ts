/**
 * One Claude Code run of the deja round trip (see roundtrip.ts), meant to run
 * inside the farm's loopback-only sandbox (`sandboxPrefix()` in run.ts): start
 * the mock model with the round-trip script, run `claude -p` once in the
 * prepared project with the farm's Claude Code environment, kill its whole
 * process group when it overruns, stop the mock, and write `played.json`
 * beside the request log. The caller lays out `<dir>/home` (deja installed,
 * index built) and `<dir>/project` first: `roundtrip_play.ts <job.json>`.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { claude } from "./harnesses/claude.ts";
import { ctxOf, type Job, runEnv } from "./play.ts";
import { startMock } from "./mock_model.ts";
import { exactly } from "../_env.ts";
import { prompt, roundTrip } from "./roundtrip.ts";

/** What the caller hands over (a farm Job: `dir`, `pkgDir`, `basePath`, `scenario.id`). */
export interface RoundTripJob extends Job {
  /** Seconds claude may run before its process group is killed. */
  timeoutS: number;
}

/** What `played.json` holds. */
export interface RoundTripPlayed {
  mockUrl: string;
  argv: string[];
  /** Exit status; null when killed. */
  exit: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Wall time of the claude run in milliseconds. */
  ms: number;
  /** The last 4,000 characters of its output. */
  tail: string;
}

/** Runs `argv`, killing its process group after `timeoutS` seconds. */
function runBounded(argv: string[], cwd: string, env: Record<string, string>, timeoutS: number) {
  const t0 = performance.now();
  return new Promise<Omit<RoundTripPlayed, "mockUrl" | "argv">>((resolve) => {
    const chunks: string[] = [];
    const child = spawn(...exactly(argv, env), {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (c: Uint8Array) => chunks.push(new TextDecoder().decode(c));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch { /* gone */ }
    }, timeoutS * 1000);
    const done = (exit: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({
        exit,
        signal,
        timedOut,
        ms: performance.now() - t0,
        tail: chunks.join("").slice(-4000),
      });
    };
    child.on("error", (e) => {
      chunks.push(`spawn failed: ${e.message}`);
      done(127, null);
    });
    child.on("close", done);
  });
}

/** Plays `job` and returns what happened (also written to `<dir>/played.json`). */
export async function playRoundTrip(job: RoundTripJob): Promise<RoundTripPlayed> {
  mkdirSync(join(job.dir, "tmp"), { recursive: true });
  const project = join(job.dir, "project");
  const mock = await startMock({
    scenario: { id: job.scenario.id, steps: [] },
    play: roundTrip(job.scenario.id),
    project,
    log: join(job.dir, "requests.jsonl"),
    maxRequests: 200,
    maxMs: (job.timeoutS + 30) * 1000,
  });
  const ctx = ctxOf(job, mock.url);
  const env = runEnv(job, ctx, claude.setup(ctx).env);
  const argv = claude.main(ctx, prompt(job.scenario.id));
  let r: Omit<RoundTripPlayed, "mockUrl" | "argv">;
  try {
    r = await runBounded(argv, project, env, job.timeoutS);
  } finally {
    await mock.close();
  }
  const played: RoundTripPlayed = { mockUrl: mock.url, argv, ...r };
  writeFileSync(join(job.dir, "played.json"), JSON.stringify(played, null, 2));
  return played;
}

if (import.meta.main) {
  await playRoundTrip(JSON.parse(readFileSync(process.argv[2], "utf8")) as RoundTripJob);
  process.exit(0);
}
