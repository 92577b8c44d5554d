import { assertEquals } from "../tests/_assert.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { senpi } from "./senpi.ts";
import { materialize, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";

const FIXTURE = join(REPO, "fixtures/registry/senpi");

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "senpi")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, senpi), want);
});

Deno.test("discover reads SENPI_CODING_AGENT_SESSION_DIR, SENPI_CODING_AGENT_DIR and project stores", async () => {
  const roots = async (vars: Record<string, string>, known: string[] = []) =>
    (await senpi.discover({ env: testEnv("/h", vars), knownProjects: known })).roots;
  assertEquals(await roots({}), ["/h/.senpi/agent/sessions"]);
  assertEquals(await roots({ SENPI_CODING_AGENT_DIR: "/a" }), ["/a/sessions"]);
  assertEquals(
    await roots({ SENPI_CODING_AGENT_DIR: "/a", SENPI_CODING_AGENT_SESSION_DIR: "/s" }),
    [
      "/s",
    ],
  );
  assertEquals(await roots({}, ["/p"]), ["/h/.senpi/agent/sessions", "/p/.senpi/agent/sessions"]);
});

Deno.test("codemode eval results yield the inner calls and the cell's text", async () => {
  const fx = materialize(FIXTURE);
  try {
    const env = testEnv("/nonexistent", { DEJA_SENPI_ROOT: join(fx.root, "agent/sessions") });
    const s = (await runParser(senpi, env)).sessions[0];
    const inner = s.events.filter((e) => e.tool?.id?.startsWith("call_ev1#"));
    assertEquals(inner.map((e) => [e.tool?.name, e.tool?.command, e.tool?.paths]), [
      ["bash", "ls", undefined],
      ["read", undefined, ["/w/app/README.md"]],
    ]);
    assertEquals(s.events.find((e) => e.kind === "tool_result")?.text, "README.md\nsrc");
  } finally {
    fx.cleanup();
  }
});
