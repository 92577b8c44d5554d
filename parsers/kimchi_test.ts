import { assertEquals } from "../tests/_assert.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { kimchi } from "./kimchi.ts";
import { materialize, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";

const FIXTURE = join(REPO, "fixtures/registry/kimchi");

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "kimchi")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, kimchi), want);
});

Deno.test("discover reads KIMCHI_CODING_AGENT_DIR, else ~/.config/kimchi/harness and XDG_CONFIG_HOME", async () => {
  const roots = async (vars: Record<string, string>) =>
    (await kimchi.discover({ env: testEnv("/h", vars), knownProjects: [] })).roots;
  assertEquals(await roots({}), ["/h/.config/kimchi/harness/sessions"]);
  assertEquals(await roots({ KIMCHI_CODING_AGENT_DIR: "/k" }), ["/k/sessions"]);
  assertEquals(await roots({ XDG_CONFIG_HOME: "/x" }), [
    "/h/.config/kimchi/harness/sessions",
    "/x/kimchi/harness/sessions",
  ]);
});

Deno.test("a flat session file takes its project from the header cwd", async () => {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv("/nonexistent", { DEJA_KIMCHI_ROOT: join(fx.root, "harness/sessions") });
    const [s] = (await runParser(kimchi, env)).sessions;
    assertEquals(s.project, "/w/kim");
    assertEquals(s.id, "0190f000-0000-7000-8000-000000000101");
  } finally {
    fx.cleanup();
  }
});
