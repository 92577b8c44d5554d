/**
 * `deno task bench:fresh [--mb 100] [--runs 20]`: freshen-on-use figures on the
 * synthetic Claude Code corpus of `deno task bench` (generated when missing).
 * Prints figures; asserts nothing about time.
 *
 * Reports, as cold processes of the compiled binary (dist/deja-bun):
 * - the stat pass alone (in-process, over every store of the index);
 * - `deja <rare token>` with nothing changed, and right after a session file
 *   gained a turn holding a new marker (p50/p95; the marker must be found);
 * - `hook-prompt` and `hook-tool` against a stale index (p50/p95);
 * - `deja index --watch`: time from an append to searchable, and the
 *   watcher's CPU time over an idle minute (`--idle-s` to shorten).
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { ensureCorpus } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";
import { Store } from "../lib/store.ts";
import { checkStaleness } from "../lib/fresh/check.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    runs: { type: "string", default: "20" },
    "idle-s": { type: "string", default: "60" },
    stores: { type: "string", default: "2500" },
  },
});
const mb = Number(values.mb);
const runs = Number(values.runs);
const work = join(REPO, ".bench");
// The same corpus as `deno task bench` (one generator, one marker shape).
const { dir: corpus } = ensureCorpus(work, mb);
const bin = join(REPO, "dist", "deja-bun");
if (!existsSync(bin)) {
  const r = spawnSync("deno", ["task", "compile:bun"], { cwd: REPO, stdio: "inherit" });
  if (r.status !== 0) throw new Error("compile:bun failed");
}
const dejaHome = join(work, `deja-fresh-${mb}mb`);
rmSync(dejaHome, { recursive: true, force: true });
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: join(work, "home"),
  DEJA_HOME: dejaHome,
  DEJA_CLAUDE_ROOT: join(corpus, "projects"),
  NO_COLOR: "1",
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
function timed(args: string[], stdin = "", extra: Record<string, string> = {}) {
  const t = performance.now();
  const r = spawnSync(bin, args, { env: { ...env, ...extra }, input: stdin, encoding: "utf8" });
  return { ms: performance.now() - t, code: r.status, out: r.stdout };
}
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms`;

let t = performance.now();
spawnSync(bin, ["index", "--quiet"], { env, stdio: "inherit" });
console.log(`first index: ${((performance.now() - t) / 1000).toFixed(1)} s`);

const store = Store.open(join(dejaHome, "index.db"), { readOnly: true });
const stores = (store.db.prepare("SELECT COUNT(*) AS n FROM sources").get() as { n: number }).n;
const statMs: number[] = [];
for (let i = 0; i < runs; i++) statMs.push(checkStaleness(store).ms);
store.close();
console.log(`stat pass over ${stores} stores (in-process): ${fmt(statMs)}`);

const still: number[] = [];
for (let i = 0; i < runs; i++) still.push(timed(["quokkafrost", "--limit", "3"]).ms);
console.log(`search, nothing changed: ${fmt(still)}`);
const noRefresh: number[] = [];
for (let i = 0; i < runs; i++) {
  noRefresh.push(timed(["quokkafrost", "--limit", "3", "--no-refresh"]).ms);
}
console.log(`search --no-refresh:     ${fmt(noRefresh)}`);

const projects = join(corpus, "projects");
const dir = join(projects, readdirSync(projects).sort()[0]);
const file = join(dir, readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()[0]);
const first = JSON.parse(readFileSync(file, "utf8").split("\n")[0]);
const after: number[] = [];
let found = 0;
for (let i = 0; i < runs; i++) {
  const marker = `freshmarker${i}zq`;
  appendFileSync(
    file,
    JSON.stringify({ ...first, uuid: `fresh-${i}`, message: { role: "user", content: marker } }) +
      "\n",
  );
  const r = timed([marker, "--limit", "3"]);
  after.push(r.ms);
  if (r.code === 0) found++;
}
console.log(`search after an append:  ${fmt(after)} (marker found ${found}/${runs})`);

// Hooks against a stale index: the last full run an hour ago.
const stale = () => {
  const db = new DatabaseSync(join(dejaHome, "index.db"));
  db.prepare("UPDATE meta SET value = ? WHERE key = 'last_index'").run(
    JSON.stringify({ at: Date.now() - 3_600_000, harnesses: [] }),
  );
  db.close();
};
const prompt = JSON.stringify({
  hook_event_name: "UserPromptSubmit",
  session_id: "bench",
  cwd: "/w",
  prompt: "why does the build error",
});
const tool = JSON.stringify({
  hook_event_name: "PreToolUse",
  session_id: "bench",
  cwd: "/w",
  tool_name: "Bash",
  tool_input: { command: "npm run build" },
});
for (const [name, input] of [["hook-prompt", prompt], ["hook-tool", tool]] as const) {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    stale();
    xs.push(timed([name], input).ms);
  }
  console.log(`${name} on a stale index: ${fmt(xs)}`);
}
// Let a background run the hooks started finish before the watch figures.
spawnSync(bin, ["index", "--quiet", "--wait", "120"], { env });

const w = spawn(bin, ["index", "--watch", "--quiet", "--interval", "5"], { env, stdio: "ignore" });
const pidFile = join(dejaHome, "watch.pid");
while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 100));
const lat: number[] = [];
for (let i = 0; i < 5; i++) {
  const marker = `watchmarker${i}zq`;
  appendFileSync(
    file,
    JSON.stringify({ ...first, uuid: `watch-${i}`, message: { role: "user", content: marker } }) +
      "\n",
  );
  t = performance.now();
  while (timed([marker, "--no-refresh", "--limit", "1"]).code !== 0) {
    if (performance.now() - t > 30_000) break;
  }
  lat.push(performance.now() - t);
}
console.log(`watch, append to searchable: ${fmt(lat)} (5 appends)`);
const cpu = () => {
  const f = readFileSync(`/proc/${w.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime in clock ticks (100/s) -> ms
};
const idleS = Number(values["idle-s"]);
const c0 = cpu();
await new Promise((r) => setTimeout(r, idleS * 1000));
console.log(
  `watch, idle CPU over ${idleS} s: ${(cpu() - c0).toFixed(0)} ms (${
    ((cpu() - c0) / (idleS * 10)).toFixed(2)
  }% of a core)`,
);
w.kill("SIGTERM");

// Many small stores: the stat pass and a search with nothing changed.
const many = Number(values.stores);
const manyRoot = join(work, `claude-many-${many}`);
if (!existsSync(join(manyRoot, "done"))) {
  rmSync(manyRoot, { recursive: true, force: true });
  for (let i = 0; i < many; i++) {
    const dir = join(manyRoot, "projects", `-w-p${i % 50}`);
    mkdirSync(dir, { recursive: true });
    const sid = `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;
    writeFileSync(
      join(dir, `${sid}.jsonl`),
      JSON.stringify({
        ...first,
        sessionId: sid,
        uuid: `m${i}`,
        message: { role: "user", content: `store ${i} manymarker` },
      }) + "\n",
    );
  }
  writeFileSync(join(manyRoot, "done"), "");
}
const manyHome = join(work, `deja-many-${many}`);
rmSync(manyHome, { recursive: true, force: true });
const manyEnv = { ...env, DEJA_HOME: manyHome, DEJA_CLAUDE_ROOT: join(manyRoot, "projects") };
spawnSync(bin, ["index", "--quiet"], { env: manyEnv });
const ms = Store.open(join(manyHome, "index.db"), { readOnly: true });
const manyStat: number[] = [];
for (let i = 0; i < runs; i++) manyStat.push(checkStaleness(ms).ms);
ms.close();
console.log(`stat pass over ${many} stores (in-process): ${fmt(manyStat)}`);
const manySearch: number[] = [];
const manyNo: number[] = [];
for (let i = 0; i < runs; i++) {
  let t0 = performance.now();
  spawnSync(bin, ["manymarker", "--limit", "1"], { env: manyEnv });
  manySearch.push(performance.now() - t0);
  t0 = performance.now();
  spawnSync(bin, ["manymarker", "--limit", "1", "--no-refresh"], { env: manyEnv });
  manyNo.push(performance.now() - t0);
}
console.log(
  `search over ${many} stores, nothing changed: ${fmt(manySearch)}; --no-refresh: ${fmt(manyNo)}`,
);
