/**
 * One harness run, inside the farm's sandbox (a network namespace holding only
 * loopback, and a PID namespace whose end takes every leftover process with
 * it): start the mock model, lay out the fresh project and the harness's
 * configuration, run its commands one after another, stop the mock, and write
 * `play.json` beside the request log. Started by `run.ts`, never by hand:
 * `play.ts <job.json>`.
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import type { FarmCtx, FarmHarness } from "./harness.ts";
import { HARNESSES } from "./harnesses/mod.ts";
import { startMock } from "./mock_model.ts";
import { exactly } from "../_env.ts";
import { prompts, README_TEXT, type Scenario } from "./_mock_script.ts";

/** What run.ts hands to play.ts. */
export interface Job {
  harness: string;
  /** Run directory: home/, project/, requests.jsonl, play.json, <step>.out. */
  dir: string;
  pkgDir: string;
  /** Directories put on PATH before the base PATH (a Node build from npm). */
  pathPrefix: string[];
  basePath: string;
  scenario: Scenario;
}

/** One command of the run. */
export interface StepRun {
  step: "main" | "followup" | "compact";
  argv: string[];
  /** Exit status; null when it was killed (then `signal` says how). */
  exit: number | null;
  signal?: string;
  timedOut: boolean;
  /** Wall time in milliseconds. */
  ms: number;
  /** The last 2,000 characters of its output. */
  tail: string;
}

/** What play.ts writes to `play.json`. */
export interface Played {
  mockUrl: string;
  env: Record<string, string>;
  runs: StepRun[];
  /** Why a planned step did not run. */
  notRun: Record<string, string>;
}

/** The context a harness module sees for run `job`. */
export function ctxOf(job: Job, mockUrl: string): FarmCtx {
  return {
    home: join(job.dir, "home"),
    project: join(job.dir, "project"),
    mockUrl,
    pkgDir: job.pkgDir,
    bin: (name) => join(job.pkgDir, "node_modules", ".bin", name),
  };
}

/** The environment of the harness: nothing from the caller's but PATH and locale. */
export function runEnv(
  job: Job,
  ctx: FarmCtx,
  extra: Record<string, string>,
): Record<string, string> {
  const h = ctx.home;
  return {
    PATH: [join(job.pkgDir, "node_modules", ".bin"), ...job.pathPrefix, job.basePath].join(":"),
    HOME: h,
    USER: "root",
    LOGNAME: "root",
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: join(job.dir, "tmp"),
    XDG_CONFIG_HOME: join(h, ".config"),
    XDG_DATA_HOME: join(h, ".local/share"),
    XDG_STATE_HOME: join(h, ".local/state"),
    XDG_CACHE_HOME: join(h, ".cache"),
    // A client that honours proxy variables asks the mock to CONNECT elsewhere: logged, refused.
    HTTP_PROXY: ctx.mockUrl,
    HTTPS_PROXY: ctx.mockUrl,
    http_proxy: ctx.mockUrl,
    https_proxy: ctx.mockUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    ...extra,
  };
}

/** Lays out the project: a git repository with README.md and app.py, one commit. */
export function makeProject(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "README.md"), README_TEXT);
  writeFileSync(join(dir, "app.py"), "def add(a, b):\n    return a + b\n");
  const git = (...a: string[]) => spawnSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("-c", "user.email=farm@example.invalid", "-c", "user.name=farm", "add", "-A");
  git("-c", "user.email=farm@example.invalid", "-c", "user.name=farm", "commit", "-qm", "init");
}

/** Runs `argv` in `cwd`, killing its whole process group after `timeoutS` seconds; output to `out`. */
export function runOne(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutS: number,
  out: string,
) {
  const t0 = performance.now();
  return new Promise<Omit<StepRun, "step" | "argv">>((resolve) => {
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
      const text = chunks.join("");
      writeFileSync(out, text);
      resolve({
        exit,
        ...(signal ? { signal } : {}),
        timedOut,
        ms: performance.now() - t0,
        tail: text.slice(-2000),
      });
    };
    child.on("error", (e) => {
      chunks.push(`spawn failed: ${e.message}`);
      done(127, null);
    });
    child.on("close", (code, signal) => done(code, signal));
  });
}

/** Plays `job` and returns what happened (also written to `play.json`). */
export async function play(job: Job, h: FarmHarness): Promise<Played> {
  const project = join(job.dir, "project");
  makeProject(project);
  mkdirSync(join(job.dir, "home"), { recursive: true });
  mkdirSync(join(job.dir, "tmp"), { recursive: true });
  const timeoutS = h.timeoutS ?? 180;
  const mock = await startMock({
    scenario: job.scenario,
    project,
    log: join(job.dir, "requests.jsonl"),
    maxMs: (timeoutS * 3 + 60) * 1000,
  });
  const ctx = ctxOf(job, mock.url);
  const setup = h.setup(ctx);
  for (const [path, text] of Object.entries(setup.files ?? {})) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  for (const [to, from] of Object.entries(setup.copies ?? {})) {
    mkdirSync(dirname(to), { recursive: true });
    spawnSync("cp", ["-a", from, to]);
  }
  const env = runEnv(job, ctx, setup.env);
  const p = prompts(job.scenario);
  const plan: Array<[StepRun["step"], string[] | string]> = [["main", h.main(ctx, p.main)]];
  if (typeof h.followup === "function") plan.push(["followup", h.followup(ctx, p.followup)]);
  else if (h.followup) plan.push(["followup", h.followup.none]);
  if (typeof h.compact === "function") plan.push(["compact", h.compact(ctx)]);
  const runs: StepRun[] = [];
  const notRun: Record<string, string> = {};
  for (const [step, argv] of plan) {
    if (typeof argv === "string") {
      notRun[step] = argv;
      continue;
    }
    if (runs.length && runs[0].exit !== 0) {
      notRun[step] = "the first command failed";
      continue;
    }
    const r = await runOne(argv, project, env, timeoutS, join(job.dir, `${step}.out`));
    runs.push({ step, argv, ...r });
  }
  await mock.close();
  const played: Played = { mockUrl: mock.url, env, runs, notRun };
  writeFileSync(join(job.dir, "play.json"), JSON.stringify(played, null, 2));
  return played;
}

if (import.meta.main) {
  const job = JSON.parse(readFileSync(process.argv[2], "utf8")) as Job;
  const h = HARNESSES.find((x) => x.name === job.harness);
  if (!h) throw new Error(`no farm harness ${job.harness}`);
  await play(job, h);
  process.exit(0);
}
