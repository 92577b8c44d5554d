/**
 * `deno task farm [harness...] [--ci] [--report <file>] [--keep]`: the harness
 * farm. For each harness: install its pinned version into the cache, play the
 * scenario against the mock model inside a sandbox that holds only loopback,
 * index the store it wrote with deja and check it. Prints a table (harness,
 * version, result and why, seconds) and writes a JSON report (default
 * `$TMPDIR/deja-farm-report.json`). Exit 0 when nothing failed, 1 when a
 * check failed, 2 on a usage error.
 *
 * The sandbox is `unshare --net --pid --fork --mount-proc` (root, or a user
 * namespace otherwise): no route leaves 127.0.0.1, and every process the
 * harness left behind ends with the namespace. Where no sandbox can be made,
 * every harness is skipped with that reason.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import process from "node:process";
import { parseArgs } from "node:util";
import { CI_SUBSET, HARNESSES } from "./harnesses/mod.ts";
import type { FarmHarness } from "./harness.ts";
import { ensureInstalled, farmCache, nodeSpec } from "./install.ts";
import type { Job, Played } from "./play.ts";
import { readLog } from "./mock_model.ts";
import { logChecks, storeChecks } from "./verify.ts";
import { WIRING, WIRING_CI } from "./wiring.ts";
import { runWiring } from "./wiring_run.ts";
import { binary } from "../_binary.ts";
import { blankResult, type FarmReport, type HarnessResult, printTable } from "./report.ts";
import denoJson from "../../deno.json" with { type: "json" };

const HERE = dirname(new URL(import.meta.url).pathname);

/** The command that runs `argv` inside a loopback-only sandbox, or why there is none. */
export function sandboxPrefix(): { prefix: string[]; kind: string } | { none: string } {
  const inner = ["sh", "-c", 'ip link set lo up && exec "$@"', "sh"];
  for (const flags of [[], ["--user", "--map-root-user"]]) {
    const prefix = [
      "unshare",
      ...flags,
      "--net",
      "--pid",
      "--fork",
      "--mount-proc",
      "--",
      ...inner,
    ];
    const r = spawnSync(prefix[0], [...prefix.slice(1), "true"], {
      stdio: "ignore",
      timeout: 20_000,
    });
    if (r.status === 0) {
      return { prefix, kind: flags.length ? "user+net+pid namespaces" : "net+pid namespaces" };
    }
  }
  return {
    none: "no network namespace could be made (unshare --net): the run could leave 127.0.0.1",
  };
}

/** How this runtime runs a TS file. */
function scriptArgv(file: string, args: string[]): string[] {
  const bun = (process.versions as Record<string, string>).bun;
  return bun
    ? [process.execPath, file, ...args]
    : [process.execPath, "run", "-A", "--quiet", file, ...args];
}

/** Runs one harness end to end. */
async function runHarness(
  h: FarmHarness,
  sandbox: { prefix: string[] } | { none: string },
  cache: string,
  keep: boolean,
): Promise<HarnessResult> {
  const t0 = performance.now();
  const base = blankResult(h, h.notes ?? null);
  const finish = (r: Partial<HarnessResult>) => ({
    ...base,
    ...r,
    seconds: round((performance.now() - t0) / 1000),
  });
  if ("none" in sandbox) return finish({ reason: sandbox.none });
  const pathPrefix: string[] = [];
  if (h.node) {
    const n = nodeSpec(h.node);
    const r = ensureInstalled(cache, [n.spec]);
    if (!r.ok) return finish({ reason: `cannot install ${n.spec}: ${r.error}` });
    pathPrefix.push(n.bin(r.prefix));
  }
  const inst = ensureInstalled(cache, [`${h.pkg}@${h.version}`, ...(h.extras ?? [])], pathPrefix);
  base.install = { cached: inst.cached, seconds: round(inst.ms / 1000) };
  if (!inst.ok) return finish({ reason: `cannot install ${h.pkg}@${h.version}: ${inst.error}` });
  const dir = mkdtempSync(join(tmpdir(), `deja-farm-${h.name}-`));
  const id = Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, "x").padEnd(6, "q");
  const job: Job = {
    harness: h.name,
    dir,
    pkgDir: inst.prefix,
    pathPrefix,
    basePath: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    scenario: { id, ...h.scenario },
  };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job, null, 2));
  const argv = [...sandbox.prefix, ...scriptArgv(join(HERE, "play.ts"), [join(dir, "job.json")])];
  const budget = ((h.timeoutS ?? 180) * 3 + 120) * 1000;
  const p = spawnSync(argv[0], argv.slice(1), {
    encoding: "utf8",
    timeout: budget,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });
  let played: Played;
  try {
    played = JSON.parse(readFileSync(join(dir, "play.json"), "utf8"));
  } catch {
    const text = `${p.stdout ?? ""}${p.stderr ?? ""}`; // NO_COLOR: no escapes to strip
    const why = text.trim().split("\n").slice(-3).join(" | ");
    return finish({
      status: "failed",
      reason: `the sandboxed run did not finish: ${why || p.error?.message}`,
      dir,
    });
  }
  let log = [] as ReturnType<typeof readLog>;
  try {
    log = readLog(readFileSync(join(dir, "requests.jsonl"), "utf8"));
  } catch { /* no request at all */ }
  const lc = logChecks(log);
  const runs = played.runs.map((r) => ({
    step: r.step,
    exit: r.exit,
    seconds: round(r.ms / 1000),
    timed_out: r.timedOut,
  }));
  const mainRun = played.runs[0];
  const exited = {
    name: "exit",
    ok: mainRun?.exit === 0,
    detail: mainRun
      ? `exit ${mainRun.exit ?? mainRun.signal}${mainRun.timedOut ? " (timed out)" : ""}`
      : "did not run",
  };
  const common = { requests: log.length, outbound: lc.outbound, runs, dir };
  if (!lc.checks[0].ok && lc.outbound.length) {
    return finish({
      ...common,
      status: "failed",
      checks: [...lc.checks, exited],
      reason: `never reached the mock; it tried the network instead (${lc.outbound.join(", ")})`,
    });
  }
  if (!h.parser) {
    return finish({
      ...common,
      checks: [...lc.checks, exited],
      reason: `deja has no parser for ${h.display} yet (it wrote ~/${h.store})`,
    });
  }
  const sc = await storeChecks(h, job.scenario, dir, played, log);
  const checks = [...lc.checks, exited, ...sc.checks];
  const bad = checks.find((c) => c.ok === false);
  const out = finish({
    ...common,
    checks,
    skipped_records: sc.facts.skipped,
    status: bad ? "failed" : "passed",
    reason: bad
      ? `${bad.name}: ${bad.detail}${
        bad.name === "exit" && mainRun ? ` — ${lastLine(mainRun.tail)}` : ""
      }`
      : "",
  });
  if (!bad && !keep) {
    rmSync(dir, { recursive: true, force: true });
    delete out.dir;
  }
  return out;
}

function lastLine(s: string): string {
  return s.trim().split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 200) ?? "";
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      ci: { type: "boolean" },
      report: { type: "string" },
      keep: { type: "boolean" },
      list: { type: "boolean" },
      wiring: { type: "boolean" },
    },
  });
  if (values.list) {
    for (const h of HARNESSES) {
      console.log(`${h.name.padEnd(10)} ${h.pkg}@${h.version}${h.parser ? "" : "  (no parser)"}`);
    }
    process.exit(0);
  }
  // --wiring: only the wiring check; --ci: the store check of CI_SUBSET, then the wiring of WIRING_CI.
  const names = values.wiring
    ? []
    : positionals.length
    ? positionals
    : values.ci
    ? CI_SUBSET
    : HARNESSES.map((h) => h.name);
  const wiring = values.wiring
    ? (positionals.length ? positionals : values.ci ? WIRING_CI : Object.keys(WIRING))
    : values.ci && !positionals.length
    ? WIRING_CI
    : [];
  const unknown = [...names, ...wiring].filter((n) => !HARNESSES.some((h) => h.name === n));
  if (unknown.length) {
    console.error(
      `farm: unknown harness ${unknown.join(", ")}; known: ${
        HARNESSES.map((h) => h.name).join(" ")
      }`,
    );
    process.exit(2);
  }
  const started = new Date();
  const sandbox = sandboxPrefix();
  const cache = farmCache(process.env);
  mkdirSync(cache, { recursive: true });
  console.error(
    `farm: ${names.length} harnesses, ${wiring.length} wiring checks; cache ${cache}; sandbox: ${
      "none" in sandbox ? sandbox.none : sandbox.kind
    }`,
  );
  const results: HarnessResult[] = [];
  for (const n of names) {
    const h = HARNESSES.find((x) => x.name === n)!;
    console.error(`farm: ${h.name} (${h.pkg}@${h.version}) ...`);
    const r = await runHarness(h, sandbox, cache, !!values.keep);
    // In CI only a package that cannot be installed may be skipped; anything else fails.
    if (values.ci && r.status === "skipped" && !r.reason.startsWith("cannot install")) {
      r.status = "failed";
    }
    console.error(
      `farm: ${h.name} ${r.status} in ${r.seconds} s${r.reason ? `: ${r.reason}` : ""}`,
    );
    results.push(r);
  }
  let deja: string | undefined;
  for (const n of wiring) {
    const h = HARNESSES.find((x) => x.name === n)!;
    console.error(`farm: ${h.name} wiring (${h.pkg}@${h.version}) ...`);
    deja ??= binary();
    const r = runWiring(h, sandbox, cache, !!values.keep, deja);
    if (values.ci && r.status === "skipped" && !r.reason.startsWith("cannot install")) {
      r.status = "failed";
    }
    console.error(
      `farm: ${h.name} wiring ${r.status} in ${r.seconds} s${r.reason ? `: ${r.reason}` : ""}`,
    );
    results.push(r);
  }
  const report: FarmReport = {
    version: 1,
    deja: denoJson.version,
    started: started.toISOString(),
    finished: new Date().toISOString(),
    seconds: round((Date.now() - started.getTime()) / 1000),
    sandbox: "none" in sandbox ? null : sandbox.kind,
    platform: `${process.platform}-${process.arch}`,
    harnesses: results,
  };
  const file = values.report ?? join(tmpdir(), "deja-farm-report.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  console.log(printTable(report));
  console.log(`report: ${file}`);
  process.exit(results.some((r) => r.status === "failed") ? 1 : 0);
}
