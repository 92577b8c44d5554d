import { assertEquals } from "../tests/_assert.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gjc } from "./gjc.ts";
import { materialize, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";

const FIXTURE = join(REPO, "fixtures/registry/gjc");

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "gjc")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, gjc), want);
});

Deno.test("discover reads GJC_CODING_AGENT_DIR, GJC_CONFIG_DIR and the XDG sessions", async () => {
  const roots = async (vars: Record<string, string>) =>
    (await gjc.discover({ env: testEnv("/h", vars), knownProjects: [] })).roots;
  assertEquals(await roots({}), ["/h/.gjc/agent/sessions", "/h/.local/share/gjc/sessions"]);
  assertEquals((await roots({ GJC_CODING_AGENT_DIR: "/a" }))[0], "/a/sessions");
  assertEquals((await roots({ GJC_CONFIG_DIR: ".g2" }))[0], "/h/.g2/agent/sessions");
  assertEquals(await roots({ DEJA_GJC_ROOT: "/d" }), ["/d"]);
});

Deno.test("a sub-agent pass one level down is its own session filed under its parent", async () => {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv("/nonexistent", { DEJA_GJC_ROOT: join(fx.root, "sessions") });
    const run = await runParser(gjc, env);
    const child = run.sessions.find((s) => s.path.endsWith("1-explore.jsonl"))!;
    const parent = run.sessions.find((s) => s.path.endsWith("abc.jsonl"))!;
    assertEquals(child.parent, parent.id);
    assertEquals(child.id === parent.id, false);
    assertEquals(parent.parent, undefined);
  } finally {
    fx.cleanup();
  }
});
