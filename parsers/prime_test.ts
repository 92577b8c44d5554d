import { assertEquals } from "../tests/_assert.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { prime } from "./prime.ts";
import { materialize, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";

const FIXTURE = join(REPO, "fixtures/registry/prime");
const PARENT = "0190c000-0000-7000-8000-0000000000d1";

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "prime")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, prime), want);
});

Deno.test("discover reads the session variables in prime's order and the artifacts beside them", async () => {
  const roots = async (vars: Record<string, string>) =>
    (await prime.discover({ env: testEnv("/h", vars), knownProjects: [] })).roots;
  assertEquals(await roots({}), ["/h/.prime/agent/sessions", "/h/.prime/agent/session-artifacts"]);
  assertEquals(await roots({ PRIME_AGENT_CODING_AGENT_DIR: "/a" }), [
    "/a/sessions",
    "/a/session-artifacts",
  ]);
  assertEquals(
    (await roots({
      PRIME_AGENT_CODING_AGENT_SESSION_DIR: "/legacy/s",
      PRIME_AGENT_SESSION_DIR: "/s",
    }))[0],
    "/s",
  );
  assertEquals(
    (await roots({ PRIME_AGENT_CODING_AGENT_SESSION_DIR: "/legacy/s" }))[0],
    "/legacy/s",
  );
});

Deno.test("an rlm child under session-artifacts gets the parent id and semantic-edges is not read", async () => {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv("/nonexistent", { DEJA_PRIME_ROOT: join(fx.root, "agent/sessions") });
    const run = await runParser(prime, env);
    assertEquals(run.discovery.sources.some((s) => s.path.endsWith("semantic-edges.jsonl")), false);
    const child = run.sessions.find((s) => s.id !== PARENT)!;
    assertEquals(child.parent, PARENT);
    const parent = run.sessions.find((s) => s.id === PARENT)!;
    const diff = parent.events.find((e) => e.kind === "tool_result")!.result?.edits;
    assertEquals(diff, [{ path: "/w/prime/app.py", old: "print('hello')", new: "print('hi')" }]);
  } finally {
    fx.cleanup();
  }
});
