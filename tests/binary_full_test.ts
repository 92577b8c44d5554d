/**
 * The compiled binary's own fast path (`--version`, bin.ts) exits 1 and says so when its
 * output could not be written, as every other command does (trial 60: `deja -V > /dev/full`
 * exited 0).
 */
import { assertEquals } from "./_assert.ts";
import { closeSync, existsSync, openSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { binary } from "./_binary.ts";
import { exactly } from "./_env.ts";
import { scopedTempDir } from "./_tmp.ts";

Deno.test({
  name: "the binary's --version to a full disk exits 1 and says so; to a pipe, 0",
  ignore: !existsSync("/dev/full"),
  fn: () => {
    using dir = scopedTempDir("deja-full-e2e-");
    const env = { HOME: join(dir.path, "home"), DEJA_HOME: join(dir.path, "deja") };
    for (const args of [["--version"], ["-V"], ["version"]]) {
      const full = openSync("/dev/full", "w");
      try {
        const r = spawnSync(...exactly([binary(), ...args], env), {
          encoding: "utf8",
          stdio: ["ignore", full, "pipe"],
        });
        assertEquals(
          [r.status, r.stderr],
          [1, "deja: the output could not be written whole (ENOSPC)\n"],
          args.join(" "),
        );
      } finally {
        closeSync(full);
      }
      const ok = spawnSync(...exactly([binary(), ...args], env), { encoding: "utf8" });
      assertEquals([ok.status, ok.stdout.startsWith("deja ")], [0, true], args.join(" "));
    }
  },
});
