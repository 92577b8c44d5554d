/**
 * Tests leave nothing in `$TMPDIR`: temporary directories come from
 * tests/_tmp.ts, which removes them when the test module ends (a full run
 * used to leave thousands: `deja-install-*`, `deja-idx-*`, `deja-jsonl-*`…).
 */
import { assert, assertEquals } from "./_assert.ts";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { exactly } from "./_env.ts";
import { REPO } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** Files that may make temporary directories another way, and why. */
const OWN_WAY: Record<string, string> = {
  "tests/_tmp.ts": "the helper itself",
  "tests/farm/run.ts": "`deno task farm`: the runs are kept for inspection",
  "tests/farm/wiring_run.ts": "`deno task farm`: the runs are kept for inspection",
  "tests/claude_roundtrip_test.ts": "under the farm cache, not $TMPDIR; removed unless kept",
  "tests/tmp_hygiene_test.ts": "plants a leaking test file to show what the helper prevents",
};

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "fixtures" || e.name.startsWith(".")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith(".ts") && (p.includes("/tests/") || e.name.endsWith("_test.ts"))) {
      out.push(p);
    }
  }
  return out;
}

/** Runs `deno test` on `files` with `TMPDIR` set to a new empty directory; returns what is left in it. */
function leftAfter(files: string[]): { left: string[]; status: number | null; tail: string } {
  const tmp = tempDir("deja-hygiene-");
  const home = tempDir("deja-hygiene-home-");
  const r = spawnSync(
    ...exactly(["deno", "test", "-A", "--no-check", ...files], {
      HOME: home,
      TMPDIR: tmp,
      DENO_DIR: denoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
    }),
    { cwd: REPO, encoding: "utf8", maxBuffer: 1 << 26, timeout: 300_000 },
  );
  return {
    left: readdirSync(tmp),
    status: r.status,
    tail: `${r.stdout}\n${r.stderr}`.slice(-3000),
  };
}

function denoDir(): string {
  const r = spawnSync("deno", ["info", "--json"], { encoding: "utf8" });
  return (JSON.parse(r.stdout) as { denoDir: string }).denoDir;
}

Deno.test("tests make temporary directories only through tests/_tmp.ts", () => {
  const direct = /\b(?:mkdtemp(?:Sync)?|makeTempDir(?:Sync)?|makeTempFile(?:Sync)?)\s*\(/;
  const got = testFiles(REPO)
    .map((p) => relative(REPO, p))
    .filter((rel) => !OWN_WAY[rel] && direct.test(readFileSync(join(REPO, rel), "utf8")));
  assertEquals(got, [], "use tempDir() or scopedTempDir() from tests/_tmp.ts");
});

Deno.test("representative test files leave their TMPDIR empty (those that left most: jsonl, index, install, schema, layout)", () => {
  const r = leftAfter([
    "parsers/_jsonl_test.ts",
    "tests/indexer_test.ts",
    "tests/install_test.ts",
    "tests/schema_test.ts",
    "tests/layout_test.ts",
    "core/sqlite_read_test.ts",
  ]);
  assertEquals(r.status, 0, r.tail);
  assertEquals(r.left, []);
});

Deno.test("tempDir removes its directories when the module ends, after a failed test and a directory without permissions", () => {
  const dir = tempDir("deja-hygiene-plant-");
  const file = join(dir, "plant_test.ts");
  const helper = new URL("./_tmp.ts", import.meta.url).href;
  writeFileSync(
    file,
    `import { scopedTempDir, tempDir } from ${JSON.stringify(helper)};
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
Deno.test("fails after making temp dirs", () => {
  const d = tempDir("deja-plant-");
  mkdirSync(join(d, "locked", "deep"), { recursive: true });
  chmodSync(join(d, "locked"), 0o000);
  { using s = scopedTempDir("deja-plant-scoped-"); void s; }
  throw new Error("planted failure");
});
`,
  );
  const r = leftAfter([file]);
  assert(r.status !== 0 && r.tail.includes("planted failure"), r.tail);
  assertEquals(r.left, []);
  // Without the helper the same test leaves its directory behind (what the suite did before).
  writeFileSync(
    file,
    `import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
Deno.test("leaks", () => void mkdtempSync(join(tmpdir(), "deja-plant-")));
`,
  );
  const leak = leftAfter([file]);
  assertEquals(leak.left.length, 1, leak.tail);
});
