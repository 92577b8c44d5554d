/**
 * The wiring check for one harness, outside the sandbox (run.ts `--wiring`,
 * and the wiring part of `--ci`): install its pinned CLI, make the run
 * directory (under the farm cache: deja's recall leaves out sessions of
 * projects in temp directories), play wiring_play.ts in the sandbox, and turn
 * the mock's request log into a report row (`mode: "wiring"`).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import type { FarmHarness } from "./harness.ts";
import { ensureInstalled, nodeSpec } from "./install.ts";
import { readLog } from "./mock_model.ts";
import { blankResult, type HarnessResult } from "./report.ts";
import { WIRING, wiringChecks } from "./wiring.ts";
import type { WiringJob, WiringPlayed } from "./wiring_play.ts";
import { isThrowaway } from "../../lib/search/junk.ts";
import { REPO } from "../_fixture.ts";

const HERE = dirname(new URL(import.meta.url).pathname);

/** Where wiring runs go: not under a temp directory, or undefined when there is no such place. */
export function runsBase(cache: string): string | undefined {
  return [join(cache, "runs"), join(REPO, ".farm-runs")].find((d) => !isThrowaway(d));
}

/** Runs the wiring check of `h` with the deja binary `deja`. */
export function runWiring(
  h: FarmHarness,
  sandbox: { prefix: string[] } | { none: string },
  cache: string,
  keep: boolean,
  deja: string,
): HarnessResult {
  const t0 = performance.now();
  const spec = WIRING[h.name];
  const base: HarnessResult = {
    ...blankResult(
      h,
      spec ? `deja install ${[spec.plain, spec.auto].filter(Boolean).join(" ")}` : null,
    ),
    mode: "wiring",
  };
  const finish = (r: Partial<HarnessResult>) => ({
    ...base,
    ...r,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  });
  if (!spec) return finish({ reason: "the wiring check does not know this harness" });
  if ("none" in sandbox) return finish({ reason: sandbox.none });
  const where = runsBase(cache);
  if (!where) {
    return finish({ reason: "the farm cache and the checkout are under a temp directory" });
  }
  const pathPrefix: string[] = [];
  if (h.node) {
    const n = nodeSpec(h.node);
    const r = ensureInstalled(cache, [n.spec]);
    if (!r.ok) return finish({ reason: `cannot install ${n.spec}: ${r.error}` });
    pathPrefix.push(n.bin(r.prefix));
  }
  const inst = ensureInstalled(cache, [`${h.pkg}@${h.version}`, ...(h.extras ?? [])], pathPrefix);
  base.install = { cached: inst.cached, seconds: Math.round(inst.ms / 100) / 10 };
  if (!inst.ok) return finish({ reason: `cannot install ${h.pkg}@${h.version}: ${inst.error}` });
  mkdirSync(where, { recursive: true });
  const dir = mkdtempSync(join(where, `wiring-${h.name}-`));
  const id = Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, "x").padEnd(6, "q");
  const job: WiringJob = {
    harness: h.name,
    dir,
    pkgDir: inst.prefix,
    pathPrefix,
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    scenario: { id, steps: [] },
    deja,
  };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job, null, 2));
  const bun = (process.versions as Record<string, string>).bun;
  const script = join(HERE, "wiring_play.ts");
  const argv = [
    ...sandbox.prefix,
    ...(bun ? [process.execPath, script] : [process.execPath, "run", "-A", "--quiet", script]),
    join(dir, "job.json"),
  ];
  const p = spawnSync(argv[0], argv.slice(1), {
    encoding: "utf8",
    timeout: ((h.timeoutS ?? 180) + 240) * 1000,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });
  let played: WiringPlayed;
  try {
    played = JSON.parse(readFileSync(join(dir, "played.json"), "utf8"));
  } catch {
    const why = `${p.stdout ?? ""}${p.stderr ?? ""}`.trim().split("\n").slice(-3).join(" | ");
    return finish({ status: "failed", reason: `the sandboxed run did not finish: ${why}`, dir });
  }
  const bad = played.deja.find((d) => d.code !== 0);
  if (bad) {
    const last = bad.out.trim().split("\n").slice(-2).join(" | ");
    return finish({ status: "failed", reason: `deja ${bad.args.join(" ")}: ${last}`, dir });
  }
  let log = [] as ReturnType<typeof readLog>;
  try {
    log = readLog(readFileSync(join(dir, "requests.jsonl"), "utf8"));
  } catch { /* no request at all */ }
  const run = played.run!;
  const checks = [
    {
      name: "exit",
      ok: run.exit === 0,
      detail: `exit ${run.exit ?? run.signal}${run.timedOut ? " (timed out)" : ""}`,
    },
    ...wiringChecks(log, id, Boolean(spec.auto)),
  ];
  const failed = checks.find((c) => c.ok === false);
  const out = finish({
    status: failed ? "failed" : "passed",
    reason: failed ? `${failed.name}: ${failed.detail}` : "",
    requests: log.length,
    outbound: [...new Set(log.filter((r) => r.route === "outbound").map((r) => r.path))],
    checks,
    runs: [{
      step: "main",
      exit: run.exit,
      seconds: Math.round(run.ms / 100) / 10,
      timed_out: run.timedOut,
    }],
    dir,
  });
  if (!failed && !keep) {
    rmSync(dir, { recursive: true, force: true });
    delete out.dir;
  }
  return out;
}
