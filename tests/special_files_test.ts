/**
 * Special files where a harness keeps a small companion file or a store: a
 * FIFO (no writer) and a symlink to /dev/zero (stat size 0, endless bytes).
 * Before core/fsread.ts, a FIFO made `deja index` block forever holding the
 * writer lock, and /dev/zero was read whole (2–4 GB RSS) — issue 14, item 1.
 *
 * Each case runs `deja index --harness <id> --json` from source in a
 * subprocess under a time limit, so a hang fails the case instead of the
 * suite. It must end within the time limit and a bounded RSS, without a stack
 * trace, and keep the harness's other sessions. (Discovery takes regular files
 * only, so a special file in a store's place is passed over; one a parser opens
 * is refused and reported: lib/fsread_test.ts.)
 */
import { assert, assertEquals } from "./_assert.ts";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { materialize, REPO } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** Longest one index run may take (deno start-up included) before it counts as a hang. */
const LIMIT_MS = 60_000;
/** Resident set size a run may reach, in kilobytes (the /dev/zero read took GBs). */
const RSS_KB = 600 * 1024;

interface Case {
  harness: string;
  /** The file replaced (or created), relative to the fixture root. */
  file: string;
  /** The only way to the harness's stores (Crush's registry): nothing else to keep. */
  alone?: boolean;
}

const KIMI = "sessions/32f964acafc4c2dd77eae0fd80952408";
const CASES: Case[] = [
  { harness: "copilot", file: "session-state/c0ffee00-0000-4000-8000-000000000001/workspace.yaml" },
  { harness: "cline", file: "sessions/1795000200000_abcde/1795000200000_abcde.json" },
  { harness: "cursor", file: "workspaceStorage/ws01api/workspace.json" },
  { harness: "gemini", file: "tmp/orphan/.project_root" },
  { harness: "kimi", file: `${KIMI}/7f1c2a10-0000-4000-8000-000000000001/state.json` },
  { harness: "kimi", file: "kimi.json" },
  { harness: "crush", file: "data/projects.json", alone: true },
  { harness: "crush", file: "projects/app/.crush/crush.db" },
  { harness: "copilot", file: "session-store.db" },
  { harness: "cursor", file: "globalStorage/state.vscdb" },
  { harness: "cline", file: "tasks/1795000000000/api_conversation_history.json" },
];

interface Outcome {
  /** Exit code; null when killed at the time limit. */
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  maxRssKb: number;
}

/** Runs `deja index` from source with `env`, killed at {@link LIMIT_MS}. */
function indexRun(env: Record<string, string>, harness: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const t = performance.now();
    // /usr/bin/time -f reports the child's peak RSS on stderr's last line.
    const c = spawn("/usr/bin/time", [
      "-f",
      "maxrss=%M",
      Deno.execPath(),
      "run",
      "-A",
      join(REPO, "main.ts"),
      "index",
      "--harness",
      harness,
      "--json",
    ], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => stdout += d);
    c.stderr.on("data", (d) => stderr += d);
    const kill = setTimeout(() => process.kill(-c.pid!, "SIGKILL"), LIMIT_MS);
    c.on("close", (code) => {
      clearTimeout(kill);
      const m = /maxrss=(\d+)/.exec(stderr);
      resolve({ code, ms: performance.now() - t, stdout, stderr, maxRssKb: Number(m?.[1] ?? 0) });
    });
  });
}

function hasTime(): boolean {
  try {
    execFileSync("/usr/bin/time", ["-f", "%M", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function runCase(c: Case, kind: "fifo" | "zero"): Promise<void> {
  const fx = materialize(join(REPO, "fixtures", "registry", c.harness));
  const home = tempDir("deja-special-");
  try {
    const target = join(fx.root, c.file);
    rmSync(target, { force: true });
    mkdirSync(dirname(target), { recursive: true });
    if (kind === "fifo") execFileSync("mkfifo", [target]);
    else symlinkSync("/dev/zero", target);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      TMPDIR: home,
      XDG_DATA_HOME: join(home, "xdg"),
      XDG_CONFIG_HOME: join(home, "xdg-config"),
      DEJA_HOME: join(home, "deja"),
      [`DEJA_${c.harness.toUpperCase()}_ROOT`]: c.harness === "crush"
        ? join(fx.root, "data")
        : fx.root,
      NO_COLOR: "1",
    };
    const r = await indexRun(env, c.harness);
    const label = `${c.harness} ${c.file} as ${kind}`;
    assert(r.code !== null, `${label}: deja index still running after ${LIMIT_MS} ms`);
    assert(!/\n\s+at /.test(r.stderr), `${label}: a stack trace\n${r.stderr}`);
    assert(r.maxRssKb < RSS_KB, `${label}: peak RSS ${r.maxRssKb} KB`);
    const db = new DatabaseSync(join(home, "deja", "index.db"), { readOnly: true });
    try {
      const n = (db.prepare("SELECT count(*) AS n FROM sessions WHERE harness = ?").get(
        c.harness,
      ) as { n: number }).n;
      if (!c.alone) assert(n > 0, `${label}: the harness's other sessions are indexed (got ${n})`);
    } finally {
      db.close();
    }
  } finally {
    fx.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
}

for (const kind of ["fifo", "zero"] as const) {
  Deno.test({
    name: `deja index ends, in bounded memory, when a ${
      kind === "fifo" ? "FIFO" : "link to /dev/zero"
    } stands where a companion file or a store should be`,
    ignore: Deno.build.os === "windows" || !hasTime(),
    async fn() {
      // Two at a time: each is a whole deno process (the suite runs beside them).
      const queue = [...CASES];
      const failures: string[] = [];
      await Promise.all([0, 1].map(async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          try {
            await runCase(c, kind);
          } catch (e) {
            failures.push((e as Error).message);
          }
        }
      }));
      assertEquals(failures, []);
    },
  });
}
