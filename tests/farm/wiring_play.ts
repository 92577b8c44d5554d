/**
 * One wiring run (see wiring.ts), inside the farm's loopback-only sandbox:
 * start the mock model with the wiring script, lay out the project and the
 * harness's farm configuration, seed a Claude Code history holding the run's
 * marker, then — with the harness's own environment — `deja index` and
 * `deja install <plain> [<auto>]` through the given deja binary, and run the
 * harness once on the round trip's prompt. Writes `played.json` beside the
 * request log. Started by wiring_run.ts: `wiring_play.ts <job.json>`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { HARNESSES } from "./harnesses/mod.ts";
import { startMock } from "./mock_model.ts";
import { ctxOf, type Job, makeProject, runEnv, runOne, type StepRun } from "./play.ts";
import { prompt, seedStore } from "./roundtrip.ts";
import { marker, WIRING, wiringPlay } from "./wiring.ts";
import { exactly } from "../_env.ts";

/** What wiring_run.ts hands over. */
export interface WiringJob extends Job {
  /** The deja binary that indexes and installs (the launcher records it). */
  deja: string;
}

/** What `played.json` holds. */
export interface WiringPlayed {
  mockUrl: string;
  /** Each deja command: argv, exit status, output. */
  deja: Array<{ args: string[]; code: number | null; out: string }>;
  /** The harness run (absent when deja failed first). */
  run?: StepRun;
}

/** Plays `job` and returns what happened (also written to `played.json`). */
export async function playWiring(job: WiringJob): Promise<WiringPlayed> {
  const h = HARNESSES.find((x) => x.name === job.harness);
  const spec = WIRING[job.harness];
  if (!h || !spec) throw new Error(`no wiring for farm harness ${job.harness}`);
  const timeoutS = h.timeoutS ?? 180;
  makeProject(join(job.dir, "project"));
  mkdirSync(join(job.dir, "tmp"), { recursive: true });
  const project = realpathSync(join(job.dir, "project"));
  const mock = await startMock({
    scenario: { id: job.scenario.id, steps: [] },
    play: wiringPlay(job.scenario.id, project),
    project,
    log: join(job.dir, "requests.jsonl"),
    maxRequests: 200,
    maxMs: (timeoutS + 60) * 1000,
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
  const seed = seedStore(project, Date.now(), marker(job.scenario.id));
  for (const [rel, text] of Object.entries(seed)) {
    const file = join(ctx.home, ".claude", "projects", rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const env = runEnv(job, ctx, setup.env);
  const played: WiringPlayed = { mockUrl: mock.url, deja: [] };
  const targets = [spec.plain, ...(spec.auto ? [spec.auto] : [])];
  for (const args of [["index"], ["install", ...targets]]) {
    const r = spawnSync(...exactly([job.deja, ...args], env), {
      cwd: project,
      encoding: "utf8",
      timeout: 120_000,
    });
    played.deja.push({ args, code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` });
    if (r.status !== 0) break;
  }
  if (played.deja.every((d) => d.code === 0)) {
    const argv = h.main(ctx, prompt(job.scenario.id));
    if (spec.extraArgs) argv.splice(spec.argsAt ?? 1, 0, ...spec.extraArgs);
    const r = await runOne(argv, project, env, timeoutS, join(job.dir, "main.out"));
    played.run = { step: "main", argv, ...r };
  }
  await mock.close();
  writeFileSync(join(job.dir, "played.json"), JSON.stringify(played, null, 2));
  return played;
}

if (import.meta.main) {
  await playWiring(JSON.parse(readFileSync(process.argv[2], "utf8")) as WiringJob);
  process.exit(0);
}
