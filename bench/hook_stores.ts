/**
 * `deno run -A bench/hook_stores.ts [--mb 160] [--runs 5]`: the hook's worst
 * cases from the compiled Bun binary (tests/_binary.ts), each run a cold
 * process; prints wall time per case and asserts nothing.
 *
 * - `hook-tool --crush` on a live WAL-mode crush.db whose `-wal` holds `--mb`
 *   megabytes (a writer keeps its connection open, as Crush does);
 * - the same store held by another process in an exclusive transaction;
 * - `hook-tool` on a stdin that stays open without data, from the binary and
 *   from source (`deno run -A main.ts`);
 * - files left in the temp dir by the runs (private store copies).
 *
 * The stores are copies of ../shared/realdata/crush (tests/_crush_live.ts).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import process from "node:process";
import { binary } from "../tests/_binary.ts";
import { LIVE, REDIS, reveal, startLive, world } from "../tests/_crush_live.ts";
import { REPO } from "../tests/_fixture.ts";

const { values } = parseArgs({
  options: { mb: { type: "string", default: "160" }, runs: { type: "string", default: "5" } },
});
const mb = Number(values.mb);
const runs = Number(values.runs);
const bin = binary();
const w = await world();
const tmp = mkdtempSync(join(tmpdir(), "deja-bench-tmp-"));
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: w.env.home,
  TMPDIR: tmp,
  DEJA_HOME: w.env.get("DEJA_HOME")!,
  DEJA_CRUSH_ROOT: w.env.get("DEJA_CRUSH_ROOT")!,
  CRUSH_PROJECT_DIR: w.project,
};
const event = JSON.stringify({
  event: "PreToolUse",
  session_id: LIVE,
  cwd: w.project,
  tool_name: "bash",
  tool_input: { command: "kubectl get pods" },
});

/** Milliseconds of one cold hook run fed `event`. */
function once(args: string[], cmd = bin): number {
  const t = performance.now();
  spawnSync(cmd, args, { env, input: event, cwd: w.project, encoding: "utf8" });
  return performance.now() - t;
}

function report(name: string, ms: number[]): void {
  ms.sort((a, b) => a - b);
  const p50 = ms[Math.floor(ms.length / 2)];
  console.log(
    `${name.padEnd(46)} p50 ${p50.toFixed(0).padStart(6)} ms  max ${
      ms[ms.length - 1].toFixed(0).padStart(6)
    } ms`,
  );
}

// A live WAL store: the writer keeps its connection (and so -wal and -shm) open.
w.db.exec("PRAGMA journal_mode = WAL");
w.db.exec("PRAGMA wal_autocheckpoint = 0");
startLive(w.db, REDIS);
reveal(w.db, REDIS, 0, 1e9);
w.db.exec("CREATE TABLE IF NOT EXISTS bench_pad (b BLOB)");
const pad = w.db.prepare("INSERT INTO bench_pad VALUES (randomblob(1048576))");
for (let i = 0; i < mb; i++) pad.run();
report(
  `hook-tool --crush, WAL store (${mb} MB -wal)`,
  [...Array(runs)].map(() => once(["hook-tool", "--crush"])),
);

// Locked: an exclusive transaction held by another connection of this process.
w.db.exec("PRAGMA locking_mode = EXCLUSIVE");
w.db.exec("BEGIN EXCLUSIVE");
w.db.exec("INSERT INTO bench_pad VALUES (x'00')");
report(
  "hook-tool --crush, store locked",
  [...Array(runs)].map(() => once(["hook-tool", "--crush"])),
);
w.db.exec("ROLLBACK");
w.db.close();

/** Milliseconds until a hook exits when its stdin stays open and silent. */
function silent(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const t = performance.now();
    const c = spawn(cmd, args, { env, cwd: w.project, stdio: ["pipe", "ignore", "ignore"] });
    const kill = setTimeout(() => c.kill("SIGKILL"), 30_000);
    c.on("exit", () => {
      clearTimeout(kill);
      c.stdin?.destroy();
      resolve(performance.now() - t);
    });
  });
}
const s1: number[] = [];
const s2: number[] = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  s1.push(await silent(bin, ["hook-tool"]));
  s2.push(await silent(Deno.execPath(), ["run", "-A", join(REPO, "main.ts"), "hook-tool"]));
}
report("hook-tool, stdin open and silent (binary)", s1);
report("hook-tool, stdin open and silent (deno run)", s2);
const left = readdirSync(tmp);
console.log(`left in the temp dir: ${left.length ? left.join(", ") : "nothing"}`);
rmSync(tmp, { recursive: true, force: true });
rmSync(w.root, { recursive: true, force: true });
