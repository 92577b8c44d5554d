import { assert, assertEquals, assertStringIncludes } from "../tests/_assert.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pi } from "./pi.ts";
import { REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session } from "../core/model.ts";

const FIXTURE = join(REPO, "fixtures/registry/pi");
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "pi")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, pi), want);
});

Deno.test("discover uses PI_CODING_AGENT_SESSION_DIR, then PI_CODING_AGENT_DIR, then ~/.pi", async () => {
  const roots = async (vars: Record<string, string>) =>
    (await pi.discover({ env: testEnv("/h", vars), knownProjects: [] })).roots;
  assertEquals(await roots({}), ["/h/.pi/agent/sessions"]);
  assertEquals(await roots({ PI_CODING_AGENT_DIR: "/a" }), ["/a/sessions"]);
  assertEquals(
    await roots({ PI_CODING_AGENT_DIR: "/a", PI_CODING_AGENT_SESSION_DIR: "/s" }),
    ["/s"],
  );
  assertEquals(await roots({ DEJA_PI_ROOT: "/d", PI_CODING_AGENT_DIR: "/a" }), ["/d"]);
});

const FARM = join(REPO, "../shared/realdata/farm/pi/home/.pi/agent/sessions");

Deno.test({
  name: "farm store (pi 0.73.1) yields the marker, the failed cat with exit 1 and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(pi, testEnv("/nonexistent-home", { DEJA_PI_ROOT: FARM }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project, s.model], [
      "01a228b1-5616-77d0-a8f8-b7900fb13204",
      "/tmp/farm/pi/proj",
      "mock-model",
    ]);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-pi")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) => e.result?.callId === cat.tool!.id)!;
    assertEquals([res.result?.exit, res.result?.isError], [1, true]);
    assertEquals(res.text, "cat: missing.txt: No such file or directory");
    const edit = s.events.flatMap((e) => e.tool?.edits ?? [])[0];
    assertEquals(edit, {
      path: "/tmp/farm/pi/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    });
    assertStringIncludes(texts(s, "user")[0], "(farm task pi)");
  },
});
