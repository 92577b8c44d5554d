/** `deja sources --verbose` says what discovery passed over (new user, 2026-12: a silent skip). */
import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { sourcesData, sourcesText } from "./cmd_sources.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { tempDir } from "../../tests/_tmp.ts";

Deno.test("sources lists a link to nothing in the store as not read, per harness", async () => {
  const root = tempDir("deja-sources-links-");
  try {
    const projects = join(root, "projects");
    mkdirSync(join(projects, "-w-app"), { recursive: true });
    const dead = join(projects, "-w-app", "gone.jsonl");
    symlinkSync(join(root, "moved-away.jsonl"), dead);
    const env = testEnv(join(root, "home"), {
      DEJA_CLAUDE_ROOT: projects,
      DEJA_HOME: join(root, "deja"),
    });
    const d = await sourcesData(env);
    const claude = d.harnesses.find((h) => h.harness === "claude")!;
    assertEquals(claude.not_read.length, 1);
    assertStringIncludes(claude.not_read[0], `${dead} is a link to nothing`);
    assertStringIncludes(sourcesText(d, { isTTY: false, env }, true), `not read: ${dead}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
