/**
 * The guard for hermetic tests: a slice of the suite (install, index, hooks, the compiled
 * binary's end-to-end cases) runs in a child `deno test` whose every location variable
 * (HOME under /tmp, the XDG directories, CRUSH_GLOBAL_CONFIG, CLAUDE_CONFIG_DIR, CODEX_HOME,
 * DEJA_HOME, each DEJA_<ID>_ROOT, ...: tests/_env.ts LOCATION_VARS) points into a sentinel
 * directory seeded with configs like a developer's. The slice must pass, and nothing in the
 * sentinel may be added, changed or removed.
 */
import { assert, assertEquals } from "./_assert.ts";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { REPO } from "./_fixture.ts";
import { binary } from "./_binary.ts";
import { exactly, LOCATION_VARS } from "./_env.ts";
import { tempDir } from "./_tmp.ts";

/** The test files run under the hostile environment. */
const SLICE = [
  "tests/install_test.ts",
  "tests/install_e2e_test.ts",
  "tests/e2e_test.ts",
  "tests/hooks_test.ts",
  "tests/indexer_test.ts",
];

/** Every file and directory under `dir` with its size, mode and content hash. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const st = statSync(p);
      if (e.isDirectory()) {
        out[p] = `dir ${st.mode & 0o777}`;
        walk(p);
      } else {
        const hash = createHash("sha256").update(readFileSync(p)).digest("hex");
        out[p] = `file ${st.size} ${st.mode & 0o777} ${hash}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** Where this Deno keeps its cache (the child shares it rather than filling the sentinel). */
function denoDir(): string {
  const r = spawnSync("deno", ["info", "--json"], { encoding: "utf8" });
  return (JSON.parse(r.stdout) as { denoDir: string }).denoDir;
}

Deno.test("install, index, hooks and e2e tests touch nothing of the caller's when every location variable points at the caller's own files", () => {
  const bin = binary(); // built here, shared with the child
  const sentinel = tempDir("deja-sentinel-"); // HOME under /tmp as well
  try {
    const env: Record<string, string> = {
      DENO_DIR: denoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      DEJA_TEST_BINARY: bin,
    };
    for (const v of LOCATION_VARS) {
      const p = join(sentinel, v.toLowerCase());
      mkdirSync(p, { recursive: true });
      env[v] = p;
    }
    env.DEJA_EXCLUDE_PROJECTS = join(sentinel, "nothing-matches-this");
    // What a developer has: configs deja would wire, an index, notes, stores.
    const seed: Array<[string, string]> = [
      [join(env.HOME, ".claude.json"), '{"mcpServers":{}}\n'],
      [join(env.HOME, ".config", "crush", "crush.json"), '{"mcp":{}}\n'],
      [join(env.XDG_CONFIG_HOME, "crush", "crush.json"), '{"mcp":{}}\n'],
      [join(env.CRUSH_GLOBAL_CONFIG, "crush.json"), '{"mcp":{}}\n'],
      [join(env.CLAUDE_CONFIG_DIR, ".claude.json"), '{"mcpServers":{}}\n'],
      [join(env.CLAUDE_CONFIG_DIR, "settings.json"), '{"hooks":{}}\n'],
      [join(env.CODEX_HOME, "config.toml"), "model = 'x'\n"],
      [join(env.GEMINI_CLI_HOME, ".gemini", "settings.json"), "{}\n"],
      [join(env.DEJA_HOME, "notes.jsonl"), ""],
      [join(env.DEJA_CLAUDE_ROOT, "-w-app", "s.jsonl"), '{"type":"user"}\n'],
    ];
    for (const [p, text] of seed) {
      mkdirSync(join(p, ".."), { recursive: true });
      writeFileSync(p, text);
    }
    const before = snapshot(sentinel);
    const r = spawnSync(
      ...exactly(["deno", "test", "-A", "--no-check", "--parallel", ...SLICE], env),
      { cwd: REPO, encoding: "utf8", maxBuffer: 1 << 26, timeout: 300_000 },
    );
    const tail = `${r.stdout}\n${r.stderr}`.slice(-6000);
    assertEquals(r.status, 0, `the slice fails under hostile locations:\n${tail}`);
    const after = snapshot(sentinel);
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((p) => before[p] !== after[p])
      .map((p) => `${before[p] ? (after[p] ? "changed" : "removed") : "added"} ${p}`);
    assertEquals(changed, [], "the sentinel directories are untouched");
    assert(Object.keys(before).length > LOCATION_VARS.length, "the sentinel was seeded");
  } finally {
    rmSync(sentinel, { recursive: true, force: true });
  }
});
