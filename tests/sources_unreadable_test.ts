/**
 * `deja sources` says a folder it cannot open once (a fresh-user trial: a
 * Claude Code project folder made unreadable showed "(1 failed)  (1
 * unreadable)", one problem in two words). A folder replaced by a link to
 * itself stands in for permission denied, which the root user these tests may
 * run as never sees: its stores cannot be stat'ed (ELOOP, not gone) and
 * discovery cannot walk it.
 */
import { mkdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain } from "./_cli_io.ts";
import { claudeStore } from "./_claude_store.ts";
import { sourcesData } from "../lib/cli/cmd_sources.ts";
import { assert, assertEquals } from "./_assert.ts";

Deno.test("sources counts a folder it cannot open once, as the unreadable stores in it", async () => {
  const root = tempDir("deja-sources-unreadable-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "d"), { recursive: true });
    mkdirSync(join(claude, "e"));
    claudeStore(join(claude, "d"), "10000000-1111-4222-8333-444455556666", 2);
    claudeStore(join(claude, "e"), "20000000-1111-4222-8333-444455556666", 2);
    const env = testEnv(root, {
      DEJA_CLAUDE_ROOT: claude,
      DEJA_HOME: join(root, "deja"),
      DEJA_NO_REFRESH: "1",
    });
    assertEquals((await runMain(env, ["index"])).code, 0);
    rmSync(join(claude, "d"), { recursive: true });
    symlinkSync("d", join(claude, "d"));

    const h = (await sourcesData(env)).harnesses.find((x) => x.harness === "claude")!;
    assertEquals([h.unreadable, h.errors, h.not_read.length], [1, 0, 1]);
    const out = (await runMain(env, ["sources"])).out;
    const line = out.split("\n").find((l) => l.startsWith("claude"))!;
    assert(line.includes("(1 unreadable)") && !line.includes("failed"), line);
    assert(out.includes(`last error (1): ${join(claude, "d")}`), out);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Trial 79 F7: before the first index, `sources` said `0 B` of stores holding 1.2 MiB.
Deno.test("sources counts the size of stores found before they were indexed", async () => {
  const root = tempDir("deja-sources-size-");
  try {
    const claude = join(root, "claude");
    mkdirSync(join(claude, "d"), { recursive: true });
    const a = claudeStore(join(claude, "d"), "30000000-1111-4222-8333-444455556666", 3);
    const b = claudeStore(join(claude, "d"), "40000000-1111-4222-8333-444455556666", 5);
    const env = testEnv(root, {
      DEJA_CLAUDE_ROOT: claude,
      DEJA_HOME: join(root, "deja"),
      DEJA_NO_REFRESH: "1",
    });
    const size = statSync(a).size + statSync(b).size;
    const before = (await sourcesData(env)).harnesses.find((x) => x.harness === "claude")!;
    assertEquals([before.stores, before.bytes], [2, size]);
    assertEquals((await runMain(env, ["index"])).code, 0);
    const after = (await sourcesData(env)).harnesses.find((x) => x.harness === "claude")!;
    assertEquals(after.bytes, size, "counted once, read or not");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
