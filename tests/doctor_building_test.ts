/**
 * `deja doctor` while a first `deja index` runs: the index is being built, not "stale, last
 * full run -, 256 stores, 0 changed since last read" (trial 31: the count of stores read so far
 * read as the whole, and "0 changed" as nothing left to read).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { acquireWriterLock } from "../lib/store.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain } from "./_cli_io.ts";
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";

Deno.test("doctor during a first index build says it is being built and how far it got", async () => {
  const root = tempDir("deja-doctor-building-");
  try {
    const projects = join(root, "claude");
    mkdirSync(join(projects, "p"), { recursive: true });
    writeFileSync(
      join(projects, "p", "s1.jsonl"),
      JSON.stringify({
        type: "user",
        uuid: "u1",
        sessionId: "s1",
        timestamp: "2026-01-01T00:00:00Z",
        cwd: "/p",
        message: { role: "user", content: "hello there" },
      }) + "\n",
    );
    const env = testEnv(root, {
      DEJA_CLAUDE_ROOT: projects,
      DEJA_HOME: join(root, "deja"),
      DEJA_NO_REFRESH: "1",
    });
    await runIndex(env, parsers, { only: ["claude"] });
    // As a first run leaves the index while it writes: no record of a full run yet.
    const db = new DatabaseSync(join(root, "deja", "index.db"));
    db.exec("DELETE FROM meta WHERE key = 'last_index'");
    db.close();
    const lock = acquireWriterLock(join(root, "deja"), 0, {});
    try {
      const r = await runMain(env, ["doctor"]);
      const line = r.out.split("\n").find((l) => l.startsWith("index")) ?? "";
      assertStringIncludes(line, "being built");
      assertStringIncludes(line, "1 store read so far");
      assertStringIncludes(line, `pid ${process.pid}`);
      assert(!line.includes("changed since last read"), line);
      assert(!line.includes("last full run"), line);
      const json = JSON.parse((await runMain(env, ["doctor", "--json"])).out);
      assertEquals(json.index.building, process.pid);
    } finally {
      lock.release();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
