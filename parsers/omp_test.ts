import { assert, assertEquals } from "../tests/_assert.ts";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { omp } from "./omp.ts";
import { REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/omp");

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-omp-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "omp")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, omp), want);
});

Deno.test("discover walks the default root, every named profile and the XDG layout", async () => {
  const t = temp();
  try {
    mkdirSync(join(t.dir, ".omp/profiles/work/agent/sessions"), { recursive: true });
    mkdirSync(join(t.dir, "xdg/omp/profiles/alt/sessions"), { recursive: true });
    const env = testEnv(t.dir, { XDG_DATA_HOME: join(t.dir, "xdg") });
    const d = await omp.discover({ env, knownProjects: [] });
    assertEquals(d.roots, [
      join(t.dir, ".omp/agent/sessions"),
      join(t.dir, ".omp/profiles/work/agent/sessions"),
      join(t.dir, "xdg/omp/sessions"),
      join(t.dir, "xdg/omp/profiles/alt/sessions"),
    ]);
    const only = await omp.discover({
      env: testEnv(t.dir, { DEJA_OMP_ROOT: "/d" }),
      knownProjects: [],
    });
    assertEquals(only.roots, ["/d"]);
    const cfg = await omp.discover({
      env: testEnv("/h", { PI_CONFIG_DIR: ".omp2" }),
      knownProjects: [],
    });
    assertEquals(cfg.roots[0], "/h/.omp2/agent/sessions");
  } finally {
    t.cleanup();
  }
});

const FARM = join(REPO, "../shared/realdata/farm/omp/home/.omp/agent/sessions");

Deno.test({
  name:
    "farm store (omp 18.2.3) yields the marker, the failed cat with exit 1 and the README write",
  ignore: !existsSync(FARM),
  async fn() {
    const run = await runParser(omp, testEnv("/nonexistent-home", { DEJA_OMP_ROOT: FARM }));
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project], ["01a228b1-6667-73d2-bfe7-87e7a0477e0f", "/tmp/farm/omp/proj"]);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-omp")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) => e.result?.callId === cat.tool!.id)!;
    assertEquals([res.result?.exit, res.result?.isError], [1, true]);
    assertEquals(res.text, "cat: missing.txt: No such file or directory");
    // omp's edit tool speaks a hash-anchored patch language, so the mock changed README.md
    // with a whole-file write: the new span is the written content.
    const write = s.events.flatMap((e) => e.tool?.writes ?? [])[0];
    assertEquals(write, {
      path: "/tmp/farm/omp/proj/README.md",
      content: "# Farm project\n\nhello zebrafinch\n",
    });
    const read = s.events.find((e) => e.tool?.name === "read")!;
    const before = s.events.find((e) => e.result?.callId === read.tool!.id)!;
    assert(before.text.includes("hello world"));
  },
});
