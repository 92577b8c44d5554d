/**
 * End-to-end cases against the compiled binary, run from a directory outside
 * the repository. A case is a folder under tests/e2e/ with a `case.json`:
 *
 * ```json
 * { "stores": "fixtures" | "none",
 *   "steps": [ { "args": ["index"], "exit": 0,
 *                "stdout": "file with the expected output",  (optional)
 *                "stdin": "file in the case folder fed to stdin",  (optional)
 *                "stderr_has": ["text"], "stdout_has": ["text"],
 *                "json": { "dotted.path": value },
 *                "stdout_empty": true } ] }
 * ```
 *
 * Expected output files match line by line; `[..]` inside a line matches any
 * text and a line holding only `...` matches any number of lines. `{{field:N}}`
 * in args is replaced by that field of result N of the last JSON search
 * (`{{id:0}}`, `{{short_id:0}}`).
 * A new scenario is a new folder.
 */
import { assert, assertEquals } from "./_assert.ts";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { materialize, REPO } from "./_fixture.ts";
import { exactly } from "./_env.ts";
import { loadRegistry } from "./_registry.ts";
import { overrideVar } from "../core/paths.ts";
import { binary, runBinary } from "./_binary.ts";
import { tempDir } from "./_tmp.ts";

interface Step {
  args: string[];
  stdin?: string;
  exit: number;
  stdout?: string;
  stdout_has?: string[];
  stderr_has?: string[];
  json?: Record<string, unknown>;
  /** The binary printed nothing at all. */
  stdout_empty?: boolean;
}

/** True when `actual` matches the expected text with `[..]` and `...` wildcards. */
export function matchesExpected(actual: string, expected: string): boolean {
  const a = actual.replace(/\n$/, "").split("\n");
  const e = expected.replace(/\n$/, "").split("\n");
  const lineRe = (l: string) =>
    new RegExp(
      "^" + l.split("[..]").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$",
    );
  const go = (i: number, j: number): boolean => {
    if (j === e.length) return i === a.length;
    if (e[j] === "...") {
      for (let k = i; k <= a.length; k++) if (go(k, j + 1)) return true;
      return false;
    }
    return i < a.length && lineRe(e[j]).test(a[i]) && go(i + 1, j + 1);
  };
  return go(0, 0);
}

function dig(v: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]),
    v,
  );
}

const caseRoot = join(REPO, "tests/e2e");
for (const name of readdirSync(caseRoot).sort()) {
  const spec = JSON.parse(readFileSync(join(caseRoot, name, "case.json"), "utf8")) as {
    stores: "fixtures" | "none";
    steps: Step[];
    /** Variables of the case's own (`DEJA_SELF`: what a background run starts). */
    env?: Record<string, string>;
  };
  Deno.test(`e2e ${name}`, () => {
    const work = tempDir(`deja-e2e-${name}-`);
    const cwd = join(work, "cwd");
    mkdirSync(cwd);
    const env: Record<string, string> = {
      HOME: join(work, "home"),
      DEJA_HOME: join(work, "deja"),
      NO_COLOR: "1",
      TZ: "UTC",
      ...spec.env,
    };
    const cleanups: Array<() => void> = [];
    const cleanup = () => cleanups.forEach((c) => c());
    if (spec.stores === "fixtures") {
      // Every harness root points at its own materialised fixture.
      for (const e of loadRegistry()) {
        const fx = materialize(e.fixtureDir);
        cleanups.push(fx.cleanup);
        const rel = e.fixture_root.replace(`fixtures/registry/${e.id}`, "").replace(/^\//, "");
        env[overrideVar(e.id)] = join(fx.root, rel);
      }
    }
    let lastJson: unknown;
    try {
      for (const [i, step] of spec.steps.entries()) {
        const args = step.args.map((x) =>
          x.replace(/\{\{(\w+):(\d+)\}\}/, (_m, f, n) => String(dig(lastJson, `results.${n}.${f}`)))
        );
        const input = step.stdin
          ? readFileSync(join(caseRoot, name, step.stdin), "utf8")
          : undefined;
        const r = runBinary(args, env, cwd, input);
        const where = `${name} step ${i} (deja ${
          args.join(" ")
        })\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
        assertEquals(r.code, step.exit, `exit code of ${where}`);
        if (step.stdout) {
          const want = readFileSync(join(caseRoot, name, step.stdout), "utf8");
          assert(matchesExpected(r.stdout, want), `stdout differs from ${step.stdout} in ${where}`);
        }
        if (step.stdout_empty) assertEquals(r.stdout, "", `stdout of ${where}`);
        for (const t of step.stdout_has ?? []) {
          assert(r.stdout.includes(t), `stdout lacks '${t}' in ${where}`);
        }
        for (const t of step.stderr_has ?? []) {
          assert(r.stderr.includes(t), `stderr lacks '${t}' in ${where}`);
        }
        if (step.json) {
          lastJson = JSON.parse(r.stdout);
          for (const [k, v] of Object.entries(step.json)) {
            assertEquals(dig(lastJson, k), v, `${k} in ${where}`);
          }
        } else if (args.includes("--json")) {
          lastJson = JSON.parse(r.stdout);
        }
      }
    } finally {
      cleanup();
    }
  });
}

Deno.test("matchesExpected honours [..] and ... wildcards", () => {
  assert(matchesExpected("a 12 b\nx\ny\nend\n", "a [..] b\n...\nend\n"));
  assert(!matchesExpected("a 12 c\n", "a [..] b\n"));
  assert(matchesExpected("end\n", "...\nend\n"));
});

Deno.test("the binary writes all of a large output into a slow pipe", () => {
  const work = tempDir("deja-e2e-pipe-");
  const proj = join(work, "projects", "-w-big");
  mkdirSync(proj, { recursive: true });
  const sid = "99999999-0000-4000-8000-000000000009";
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    lines.push(JSON.stringify({
      type: "user",
      sessionId: sid,
      uuid: `u${i}`,
      cwd: "/w/big",
      timestamp: "2026-11-01T10:00:00Z",
      message: { role: "user", content: `line ${i} ` + "lorem ipsum dolor ".repeat(60) },
    }));
  }
  writeFileSync(join(proj, `${sid}.jsonl`), lines.join("\n") + "\n");
  const env = {
    HOME: join(work, "home"),
    DEJA_HOME: join(work, "deja"),
    DEJA_CLAUDE_ROOT: join(work, "projects"),
  };
  assertEquals(runBinary(["index", "--quiet"], env, work).code, 0);
  const direct = runBinary(["show", sid, "--json"], env, work);
  assertEquals(direct.code, 0);
  assert(direct.stdout.length > 200_000, `show printed only ${direct.stdout.length} bytes`);
  const slow = spawnSync(
    ...exactly(["sh", "-c", `"${binary()}" show ${sid} --json | (sleep 1; wc -c)`], env),
    {
      encoding: "utf8",
    },
  );
  assertEquals(Number(slow.stdout.trim()), new TextEncoder().encode(direct.stdout).length);
});

/** Where the binary indexes the fixture Claude Code store, JSC's own option dump on stderr. */
function relaunchEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir("deja-relaunch-");
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_NO_REFRESH: "1",
    DEJA_CLAUDE_ROOT: join(REPO, "fixtures/registry/claude/projects"),
    BUN_JSC_dumpOptions: "1",
    ...extra,
  };
}

// core/runtime.ts relaunchForBatch (issue 18): FTL's compiles cost a seventh of a full index's CPU.
Deno.test("index relaunches without the FTL tier for a first build and a rebuild, not for a no-op run", () => {
  const env = relaunchEnv();
  const cwd = env.HOME.replace(/\/home$/, "");
  const run = (...more: string[]) => runBinary(["index", "--harness", "claude", ...more], env, cwd);
  const first = run("--json");
  assertEquals(first.code, 0, first.stderr);
  assert(first.stderr.includes("useFTLJIT=false"), first.stderr);
  assert((JSON.parse(first.stdout).harnesses[0].sessions as number) > 0, first.stdout);
  const noop = run("--quiet");
  assertEquals(noop.code, 0, noop.stderr);
  assert(!noop.stderr.includes("useFTLJIT=false"), noop.stderr);
  const rebuild = run("--rebuild", "--quiet");
  assertEquals(rebuild.code, 0, rebuild.stderr);
  assert(rebuild.stderr.includes("useFTLJIT=false"), rebuild.stderr);
  // bin.ts decides before the commands load (lib/batch_run.ts): a help asks for no batch run.
  const help = run("--rebuild", "--help");
  assertEquals(help.code, 0, help.stderr);
  assert(!help.stderr.includes("useFTLJIT=false"), help.stderr);
});

Deno.test("install builds its first index without the FTL tier, and relaunches for nothing else", () => {
  const env = relaunchEnv();
  const cwd = env.HOME.replace(/\/home$/, "");
  const first = runBinary(["install", "claude-auto"], env, cwd);
  assertEquals(first.code, 0, first.stderr);
  assert(first.stderr.includes("useFTLJIT=false"), first.stderr);
  assert(/indexed [1-9]\d* sessions? of 1 harness/.test(first.stderr), first.stderr);
  assert(first.stdout.includes("claude-auto"), first.stdout);
  // The index exists now: a second install wires (nothing to change) in the process as started.
  const again = runBinary(["install", "claude-auto"], env, cwd);
  assertEquals(again.code, 0, again.stderr);
  assert(!again.stderr.includes("useFTLJIT=false"), again.stderr);
  assert(!again.stderr.includes("building the first index"), again.stderr);
});

Deno.test("index keeps the JSC tier setting its caller chose", () => {
  const env = relaunchEnv({ BUN_JSC_useFTLJIT: "1" });
  const r = runBinary(
    ["index", "--harness", "claude", "--quiet"],
    env,
    env.HOME.replace(/\/home$/, ""),
  );
  assertEquals(r.code, 0, r.stderr);
  assert(!r.stderr.includes("useFTLJIT=false"), r.stderr);
});
