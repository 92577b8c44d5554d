/**
 * A damaged registry is an error of its harness, never a silent loss (issue
 * 14, item 8): one bad byte in Crush's `projects.json` made every Crush store
 * invisible, and `deja index --rebuild` then deleted every Crush session.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { indexStatus } from "../lib/install/doctor.ts";
import { crush } from "../parsers/crush.ts";
import { materialize, REPO, testEnv } from "./_fixture.ts";
import { main } from "../main.ts";
import { assert, assertEquals } from "./_assert.ts";

function crushSessions(env: ReturnType<typeof testEnv>): number {
  const store = Store.open(indexPath(env));
  try {
    const r = store.db.prepare("SELECT count(*) AS n FROM sessions WHERE harness = 'crush'").get();
    return Number((r as { n: number }).n);
  } finally {
    store.close();
  }
}

Deno.test("a damaged projects.json is a Crush error and a rebuild keeps the Crush sessions indexed before", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/crush"));
  try {
    const registry = join(fx.root, "data", "projects.json");
    const env = testEnv(fx.root, {
      DEJA_CRUSH_ROOT: join(fx.root, "data"),
      DEJA_HOME: join(fx.root, "deja"),
    });
    const first = await runIndex(env, [crush]);
    const before = crushSessions(env);
    assert(before > 0 && first.harnesses[0].errors.length === 0);

    // The first entry's closing brace flipped: the whole document no longer parses.
    const text = readFileSync(registry, "utf8");
    writeFileSync(registry, text.replace("},", "}x"));
    const again = await runIndex(env, [crush], { rebuild: true });
    const errors = again.harnesses[0].errors;
    assert(errors.some((e) => e.startsWith(registry)), errors.join("; "));
    assertEquals(crushSessions(env), before);
    assert(indexStatus(env).harnessErrors.some((e) => e.startsWith("crush: ")));
    // doctor counts what the last run could not read as something broken: exit 1.
    const err: string[] = [];
    const code = await main({
      args: ["doctor"],
      env: testEnv(fx.root, {
        DEJA_CRUSH_ROOT: join(fx.root, "data"),
        DEJA_HOME: join(fx.root, "deja"),
        DEJA_NO_REFRESH: "1",
      }),
      cwd: "/",
      out: () => {},
      err: (t) => err.push(t),
      isTTY: false,
      errTTY: false,
      readStdin: () => Promise.resolve(""),
    });
    assertEquals(code, 1, err.join(""));
    // Said as the harness's failure, counted once with its stores (lib/store_damage.ts).
    assert(err.join("").includes("crush 1 failed store"), err.join(""));
  } finally {
    fx.cleanup();
  }
});

Deno.test("a damaged projects.json still yields the stores of its intact entries", async () => {
  const fx = materialize(join(REPO, "fixtures/registry/crush"));
  try {
    const registry = join(fx.root, "data", "projects.json");
    const env = testEnv(fx.root, { DEJA_CRUSH_ROOT: join(fx.root, "data") });
    const intact = (await crush.discover({ env, knownProjects: [] })).sources.length;
    const text = readFileSync(registry, "utf8");
    const at = text.lastIndexOf('"path"'); // the last entry (a duplicate of the first) is damaged
    writeFileSync(registry, text.slice(0, at) + "\u0000" + text.slice(at + 1));
    const problems: string[] = [];
    const d = await crush.discover({
      env,
      knownProjects: [],
      problem: (p, e) => problems.push(`${p}: ${e.message}`),
    });
    assertEquals([d.sources.length, problems.length], [intact, 1]);
  } finally {
    fx.cleanup();
  }
});
