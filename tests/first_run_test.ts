import { assertEquals } from "./_assert.ts";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { removeTemp, tempDir } from "./_tmp.ts";
import { join } from "node:path";
import { rmSync } from "node:fs";

Deno.test("a first command with no index says once that it is being built, exit 2", async () => {
  const root = tempDir("deja-first-");
  try {
    // DEJA_SELF: the background run is `true index ...`, which starts and ends at once.
    const env = testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_SELF: JSON.stringify(["true"]),
    });
    for (const args of [["last"], ["show", "abc"], ["some", "words"]]) {
      rmSync(join(root, "deja"), { recursive: true, force: true });
      const r = await runMain(env, args);
      assertEquals(r.code, 2, args.join(" "));
      assertEquals(r.err.split("\n").filter((l) => l.startsWith("deja:")), [
        "deja: no index yet: building it in the background now (first run)",
      ], args.join(" "));
    }
    // A bad option is still reported as itself, not as the missing index.
    const bad = await runMain(env, ["search", "x", "--since", "soon"]);
    assertEquals(bad.code, 2);
    assertEquals(bad.err.includes("--since") && !bad.err.includes("no index"), true, bad.err);
  } finally {
    removeTemp(root);
  }
});
