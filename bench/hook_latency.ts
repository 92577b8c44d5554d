/**
 * `deno task bench:hooks [--mb 160] [--runs 40]`: hook latency from the
 * compiled binary (`deno task compile:bun`), each run a cold
 * process fed one event on stdin, over the index of a synthetic Claude Code
 * corpus (bench/gen_claude.ts; `--mb` megabytes of JSONL, 160 by default,
 * which indexes to about 100 MB). Prints p50/p95 wall time per hook and the
 * bytes it printed; asserts nothing. Aim: p50 ≤ 40 ms per hook.
 *
 * Events are built from what the index holds (a project, a command that
 * failed there, a file changed there, an error text, words of a prompt), and
 * every run uses a fresh agent session id, so no run is silenced by dedupe.
 * The corpus, its index and the binary live under .bench/ (git-ignored).
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { generate } from "./gen_claude.ts";
import { REPO } from "../tests/_fixture.ts";
import { SCHEMA_VERSION } from "../lib/schema.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "160" },
    runs: { type: "string", default: "40" },
  },
});
const mb = Number(values.mb);
const runs = Number(values.runs);
const work = join(REPO, ".bench");
const corpus = join(work, `claude-v2-${mb}mb`);
if (!existsSync(join(corpus, "done"))) {
  rmSync(corpus, { recursive: true, force: true });
  const g = generate(corpus, mb);
  mkdirSync(corpus, { recursive: true });
  writeFileSync(join(corpus, "done"), JSON.stringify(g));
  console.log(`generated ${g.files} files, ${(g.bytes / 1e6).toFixed(1)} MB`);
}
const home = join(work, "home");
const dejaHome = join(work, `hooks-${mb}mb`);
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  DEJA_HOME: dejaHome,
  DEJA_CLAUDE_ROOT: join(corpus, "projects"),
  NO_COLOR: "1",
};
const idx = join(dejaHome, "index.db");
const stale = () => {
  if (!existsSync(idx)) return true;
  const db = new DatabaseSync(
    idx,
    { readOnly: true } as ConstructorParameters<typeof DatabaseSync>[1],
  );
  try {
    return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version !==
      SCHEMA_VERSION;
  } finally {
    db.close();
  }
};
if (stale()) {
  rmSync(dejaHome, { recursive: true, force: true });
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    ["run", "-A", join(REPO, "main.ts"), "index", "--harness", "claude", "--quiet"],
    { env, stdio: "inherit" },
  );
  if (r.status !== 0) throw new Error("indexing failed");
  console.log(`indexed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const size = statSync(idx).size + (existsSync(idx + "-wal") ? statSync(idx + "-wal").size : 0);

const bin = join(work, "deja-hooks-bin");
// The release build of the binary (deno.json compile:bun: its worker entry points too).
const b = spawnSync("deno", ["task", "compile:bun"], { cwd: REPO, encoding: "utf8" });
if (b.status === 0) copyFileSync(join(REPO, "dist", "deja-bun"), bin);
if (b.status !== 0) throw new Error(`bun build failed:\n${b.stderr}`);

// Real material from the index.
const db = new DatabaseSync(
  idx,
  { readOnly: true } as ConstructorParameters<typeof DatabaseSync>[1],
);
const q = <T>(sql: string, ...args: Array<string | number>) => db.prepare(sql).get(...args) as T;
const project = q<{ project: string }>(
  "SELECT project FROM sessions GROUP BY project ORDER BY COUNT(*) DESC LIMIT 1",
).project;
const failed = q<{ command: string }>(
  `SELECT c.command FROM commands c JOIN sessions s ON s.id = c.session_id
   WHERE s.project = ? AND (c.exit <> 0 OR c.is_error = 1) LIMIT 1`,
  project,
)?.command ?? "npm test";
const file = q<{ path: string }>(
  `SELECT f.path FROM files f JOIN sessions s ON s.id = f.session_id
   WHERE s.project = ? AND f.op <> 'read' AND f.failed = 0 LIMIT 1`,
  project,
)?.path ?? join(project, "src/index.ts");
const errorText = q<{ text: string }>(
  `SELECT e.text FROM events e JOIN commands c ON c.event_id <> e.id AND c.session_id = e.session_id
   AND c.call_id = e.call_id WHERE e.kind = 'tool_result' AND (c.exit <> 0 OR c.is_error = 1)
   LIMIT 1`,
)?.text ?? "Error: build failed";
const prompt = q<{ text: string }>(
  "SELECT e.text FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.project = ? AND e.kind = 'user' AND length(e.text) > 40 LIMIT 1",
  project,
)?.text.slice(0, 300) ?? "why does the build fail";
db.close();

// A real Crush store (realdata, when present) for the steady per-call cost of the Crush hook:
// every call reads the live session from crush.db (here a 190-message session).
const realCrush = join(REPO, "..", "shared", "realdata", "crush", "k3s-subagent-summary-0627.db");
const crushProject = join(work, "crush-project");
if (existsSync(realCrush)) {
  mkdirSync(join(crushProject, ".crush"), { recursive: true });
  copyFileSync(realCrush, join(crushProject, ".crush", "crush.db"));
}

// Agent session ids restart at bench-0 each run: what an earlier run was told is forgotten, or
// its dedupe would silence every hook (and time the silence).
rmSync(join(dejaHome, "hooks"), { recursive: true, force: true });
let n = 0;
const events: Array<[string, string[], () => Record<string, unknown>]> = [
  ["hook-context (SessionStart)", ["hook-context"], () => ({
    session_id: `bench-${n++}`,
    cwd: project,
    source: "startup",
    hook_event_name: "SessionStart",
  })],
  ["hook-prompt (UserPromptSubmit)", ["hook-prompt"], () => ({
    session_id: `bench-${n++}`,
    cwd: project,
    prompt,
    hook_event_name: "UserPromptSubmit",
  })],
  ["hook-tool, Bash (PreToolUse)", ["hook-tool"], () => ({
    session_id: `bench-${n++}`,
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: failed },
  })],
  ["hook-tool, Edit (PreToolUse)", ["hook-tool"], () => ({
    session_id: `bench-${n++}`,
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: file, old_string: "a", new_string: "b" },
  })],
  ["hook-tool-after (PostToolUseFailure)", ["hook-tool-after"], () => ({
    session_id: `bench-${n++}`,
    cwd: project,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: failed },
    error: errorText.slice(0, 4000),
  })],
  ["hook-tool --crush, first call (no crush.db)", ["hook-tool", "--crush"], () => ({
    event: "PreToolUse",
    session_id: `bench-${n++}`,
    cwd: project,
    tool_name: "bash",
    tool_input: { command: failed },
  })],
  ...(existsSync(realCrush)
    ? [[
      "hook-tool --crush, later call (real crush.db)",
      ["hook-tool", "--crush"],
      () => ({
        event: "PreToolUse",
        session_id: "093f9963-97b6-4279-9bea-ded429193b34",
        cwd: crushProject,
        tool_name: "bash",
        tool_input: { command: "git status" },
      }),
    ] as [string, string[], () => Record<string, unknown>]]
    : []),
  ["garbage stdin (floor: start, read, exit)", ["hook-tool"], () => ({})],
];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

console.log(
  `index: ${(size / 1e6).toFixed(1)} MB (${
    JSON.parse(readFileSync(join(corpus, "done"), "utf8")).files
  } sessions of ${mb} MB Claude Code JSONL); binary: deno task compile:bun; ${runs} runs each`,
);
console.log(`${"hook".padEnd(46)} ${"p50".padStart(8)} ${"p95".padStart(8)}  bytes out`);
// Rounds outer, hooks inner: a burst of load elsewhere on the machine hits every hook alike.
const times = events.map(() => [] as number[]);
const bytes = events.map(() => 0);
for (let round = 0; round < runs + 2; round++) {
  for (const [k, [label, args, make]] of events.entries()) {
    const input = label.startsWith("garbage") ? "not json at all" : JSON.stringify(make());
    const t = performance.now();
    const r = spawnSync(bin, args, {
      env: label.includes("real crush.db")
        ? { ...env, CRUSH_PROJECT_DIR: crushProject }
        : label.includes("crush")
        ? { ...env, CRUSH_PROJECT_DIR: project }
        : env,
      input,
      encoding: "utf8",
    });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${label} exited ${r.status}: ${r.stderr}`);
    if (round < 2) continue; // warm the page cache
    times[k].push(ms);
    bytes[k] = Math.max(bytes[k], new TextEncoder().encode(r.stdout).length);
  }
}
const results = events.map(([label], k) => ({
  hook: label,
  p50: pct(times[k], 50),
  p95: pct(times[k], 95),
  bytes: bytes[k],
}));
for (const row of results) {
  console.log(
    `${row.hook.padEnd(46)} ${row.p50.toFixed(1).padStart(6)} ms ${
      row.p95.toFixed(1).padStart(6)
    } ms  ${row.bytes}`,
  );
}
const worst = Math.max(...results.filter((r) => !r.hook.startsWith("garbage")).map((r) => r.p50));
console.log(`worst hook p50: ${worst.toFixed(1)} ms (aim ≤ 40 ms)`);
const load = existsSync("/proc/loadavg")
  ? readFileSync("/proc/loadavg", "utf8").split(" ")[0]
  : "?";
console.log(`load average (1 min) at the end: ${load}`);
