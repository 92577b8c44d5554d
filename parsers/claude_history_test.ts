import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claude } from "./claude.ts";
import { assert, assertEquals } from "../tests/_assert.ts";
import { runParser, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

const REAL = "/work/shared/realdata/claude-code/win-history.jsonl";
const line = (o: unknown) => JSON.stringify(o) + "\n";

Deno.test("Claude history.jsonl prompts of sessions with no transcript become a session; indexed ones are not repeated", async () => {
  const home = tempDir("deja-claude-hist-");
  try {
    const projects = join(home, ".claude", "projects");
    mkdirSync(join(projects, "-w-app"), { recursive: true });
    writeFileSync(
      join(projects, "-w-app", "kept.jsonl"),
      line({
        type: "user",
        sessionId: "kept",
        cwd: "/w/app",
        uuid: "u1",
        timestamp: "2026-03-01T00:00:00Z",
        message: { role: "user", content: "hello from the transcript" },
      }),
    );
    writeFileSync(
      join(home, ".claude", "history.jsonl"),
      line({
        display: "hello from the transcript",
        pastedContents: {},
        timestamp: 1772323200000,
        project: "/w/app",
        sessionId: "kept",
      }) +
        line({
          display: "review this [Pasted text #1 +2 lines]",
          pastedContents: {
            "1": { id: 1, type: "text", content: "zebrafinch one\nzebrafinch two" },
          },
          timestamp: 1772323300000,
          project: "/w/gone",
          sessionId: "gone",
        }) +
        line({
          display: "[Pasted text #2 +9 lines]",
          pastedContents: { "2": { id: 2, contentHash: "ab" } },
          timestamp: 1772323400000,
          project: "/w/gone",
          sessionId: "gone",
        }),
    );
    const run = await runParser(
      claude,
      testEnv(home, { CLAUDE_CONFIG_DIR: join(home, ".claude") }),
    );
    const gone = run.sessions.find((s) => s.id === "gone")!;
    assertEquals(gone.project, "/w/gone");
    assertEquals(gone.events.map((e) => e.text), [
      "review this zebrafinch one\nzebrafinch two",
      "[Pasted text #2 +9 lines]",
    ]);
    assertEquals([gone.started, gone.updated], [1772323300000, 1772323400000]);
    const kept = run.sessions.filter((s) => s.id === "kept");
    assertEquals(kept.length, 1);
    assertEquals(kept[0].events.filter((e) => e.kind === "user").length, 1);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the real Windows history.jsonl reads with nothing skipped",
  ignore: (() => {
    try {
      return !Deno.statSync(REAL).isFile;
    } catch {
      return true;
    }
  })(),
  async fn() {
    const home = tempDir("deja-claude-hist-");
    try {
      mkdirSync(join(home, ".claude", "projects"), { recursive: true });
      copyFileSync(REAL, join(home, ".claude", "history.jsonl"));
      const run = await runParser(claude, testEnv(home));
      assertEquals(run.skips, {});
      assert(run.sessions.length >= 1);
      assert(run.sessions.every((s) => s.events.every((e) => e.kind === "user" && e.time)));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
});
