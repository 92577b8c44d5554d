/**
 * A Claude Code session appended while `deja index` reads it (trial 122 F1): the next run
 * reads only what was written after the read, and a run after that reads nothing.
 */
import { assertEquals } from "./_assert.ts";
import { appendFileSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ParseCtx, Parser, SourceRef } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { claude } from "../parsers/claude.ts";
import { claudeLines } from "./_memory.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

/** Claude's parser, noting the offset each read starts at, and running `during` before a read. */
function watched(offsets: number[], during: () => void = () => {}): Parser {
  return {
    ...claude,
    parse(src: SourceRef, ctx: ParseCtx) {
      offsets.push(ctx.offset);
      // After the run stamped the file, before its bytes are read: what the harness appends
      // while `deja index` reads the session.
      during();
      return claude.parse(src, ctx);
    },
  };
}

Deno.test("a session appended while it is read is read from where that read ended, then not at all", async () => {
  const root = tempDir("deja-append-read-");
  try {
    const projects = join(root, "claude");
    const file = join(projects, "-w-app", "s1.jsonl");
    mkdirSync(join(file, ".."), { recursive: true });
    const lines = claudeLines({
      id: "s1",
      cwd: "/w/app",
      start: "2026-01-02T10:00:00Z",
      turns: [
        { user: "first question about gizmos" },
        { say: "first answer" },
        { user: "second question about widgets" },
        { say: "second answer" },
        { user: "third question about sprockets" },
        { say: "third answer" },
      ],
    }).map((l) => l + "\n");
    writeFileSync(file, lines.slice(0, 2).join(""));
    const env = testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_CLAUDE_ROOT: projects,
      TZ: "UTC",
    });
    const events = () => {
      const store = Store.open(indexPath(env));
      try {
        return store.db.prepare("SELECT count(*) AS n FROM events").get() as { n: number };
      } finally {
        store.close();
      }
    };
    const offsets: number[] = [];
    await runIndex(env, [watched(offsets)], { only: ["claude"] });
    assertEquals(offsets, [0]);
    assertEquals(events().n, 2);
    // The harness writes a line, and another while the next run reads the file.
    const before = lines.slice(0, 2).join("").length;
    appendFileSync(file, lines[2]);
    let appended = false;
    const r2 = await runIndex(
      env,
      [watched(offsets, () => {
        if (appended) return;
        appended = true;
        appendFileSync(file, lines[3]);
        // Written later than the stamp the run took (not within its millisecond).
        const later = new Date(statSync(file).mtimeMs + 2000);
        utimesSync(file, later, later);
      })],
      { only: ["claude"] },
    );
    assertEquals(offsets, [0, before], "the second run resumed after the first read");
    assertEquals(r2.harnesses[0].events, 2, "the lines appended during the read");
    assertEquals(events().n, 4);
    // Nothing written since: nothing read (the file ends where the last read ended).
    const r3 = await runIndex(env, [watched(offsets)], { only: ["claude"] });
    assertEquals(offsets, [0, before], "an unchanged file is not read again");
    assertEquals([r3.harnesses[0].read, r3.harnesses[0].events], [0, 0]);
    // Written to again: only the new lines are read.
    const after = lines.slice(0, 4).join("").length;
    appendFileSync(file, lines.slice(4).join(""));
    const r4 = await runIndex(env, [watched(offsets)], { only: ["claude"] });
    assertEquals(offsets, [0, before, after], "read from the end of the read that met the append");
    assertEquals(r4.harnesses[0].events, 2);
    assertEquals(events().n, 6, "every event once");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
