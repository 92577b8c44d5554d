/**
 * The harnesses after Claude Code's are discovered while the writer waits for a parse
 * worker (lib/idle.ts, lib/indexer.ts `discoverAhead`): the run finds what a run that
 * discovers each in its turn finds, and aider, which looks in the projects the index knows,
 * still finds a history in a project only this run's Claude sessions name.
 */
import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { idleTasksRun } from "../lib/idle.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";

/** Stores under `home`; the project (outside it: aider walks folders of home) under `elsewhere`. */
function stores(home: string, elsewhere: string): void {
  const project = join(elsewhere, "work", "shop");
  mkdirSync(project, { recursive: true });
  const dir = join(home, ".claude", "projects", "-work-shop");
  mkdirSync(dir, { recursive: true });
  for (let s = 0; s < 6; s++) {
    const id = `0000000${s}-aaaa-4bbb-8ccc-00000000000${s}`;
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({
        type: i % 2 ? "assistant" : "user",
        message: i % 2
          ? { role: "assistant", content: [{ type: "text", text: `answer ${i} of ${s}` }] }
          : { role: "user", content: `question ${i} about the cart of ${s}` },
        uuid: `${id}-${i}`,
        sessionId: id,
        cwd: project,
        timestamp: `2026-11-0${1 + s}T10:${String(10 + i).padStart(2, "0")}:00Z`,
      }));
    writeFileSync(join(dir, `${id}.jsonl`), lines.join("\n") + "\n");
  }
  // An aider history in that project only: found through the projects the index knows.
  writeFileSync(
    join(project, ".aider.chat.history.md"),
    "# aider chat started at 2026-11-20 09:15:00\n\n#### fix the cart totals  \n\nDone.\n",
  );
}

function found(r: Awaited<ReturnType<typeof runIndex>>) {
  return r.harnesses.map((h) => [h.harness, h.found, h.sessions, h.errors.length]);
}

Deno.test("harnesses discovered while the writer waits find what each found in its turn", async () => {
  using a = scopedTempDir("deja-ahead-a-");
  using b = scopedTempDir("deja-ahead-b-");
  using projects = scopedTempDir("deja-ahead-p-");
  stores(a.path, join(projects.path, "a"));
  stores(b.path, join(projects.path, "b"));
  const before = idleTasksRun();
  const ahead = await runIndex(
    testEnv(a.path, { DEJA_HOME: join(a.path, "deja"), DEJA_PARSE_WORKER: "1" }),
    parsers,
  );
  // Discoveries ran in the writer's waits (the worker parses every source here).
  assert(idleTasksRun() > before, "no discovery ran while the writer waited");
  const inTurn = await runIndex(
    testEnv(b.path, { DEJA_HOME: join(b.path, "deja"), DEJA_PARSE_WORKER: "0" }),
    parsers,
  );
  assertEquals(found(ahead), found(inTurn));
  const aider = ahead.harnesses.find((h) => h.harness === "aider")!;
  assertEquals([aider.found, aider.sessions], [1, 1]);
});
