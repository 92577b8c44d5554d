import { assertEquals } from "../tests/_assert.ts";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claude } from "./claude.ts";
import { runParser, testEnv } from "../tests/_fixture.ts";
import { tempDir } from "../tests/_tmp.ts";

const line = (v: unknown) => JSON.stringify(v) + "\n";

function session(id: string, text: string): string {
  return line({
    type: "user",
    sessionId: id,
    uuid: `${id}-u`,
    cwd: "/work/linked",
    timestamp: "2026-07-03T10:00:00.000Z",
    message: { role: "user", content: text },
  });
}

Deno.test("a project folder that is a link inside projects/ is followed, and a link loop is entered once", async () => {
  const root = tempDir("deja-claude-links-");
  try {
    const projects = join(root, "claude", "projects");
    const elsewhere = join(root, "other-disk", "-work-linked");
    mkdirSync(projects, { recursive: true });
    mkdirSync(join(projects, "-work-plain"), { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(projects, "-work-plain", "a1.jsonl"), session("a1", "plain numbat"));
    writeFileSync(join(elsewhere, "b2.jsonl"), session("b2", "linked numbat"));
    symlinkSync(elsewhere, join(projects, "-work-linked"));
    // A link back up the tree and a second link to the same folder: no loop, no double.
    symlinkSync(projects, join(elsewhere, "loop"));
    symlinkSync(elsewhere, join(projects, "-work-linked-again"));
    const run = await runParser(
      claude,
      testEnv(join(root, "home"), { DEJA_CLAUDE_ROOT: projects }),
    );
    assertEquals(run.discovery.sources.map((s) => s.path).sort(), [
      join(projects, "-work-linked", "b2.jsonl"),
      join(projects, "-work-plain", "a1.jsonl"),
    ]);
    assertEquals(run.sessions.map((s) => s.id).sort(), ["a1", "b2"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("session files that are links to the real files are indexed (dotfiles layout)", async () => {
  const root = tempDir("deja-claude-filelinks-");
  try {
    const projects = join(root, "claude", "projects");
    const dotfiles = join(root, "dotfiles");
    mkdirSync(join(projects, "-work-linked"), { recursive: true });
    mkdirSync(dotfiles, { recursive: true });
    writeFileSync(join(dotfiles, "c3.jsonl"), session("c3", "linked file numbat"));
    symlinkSync(join(dotfiles, "c3.jsonl"), join(projects, "-work-linked", "c3.jsonl"));
    const run = await runParser(
      claude,
      testEnv(join(root, "home"), { DEJA_CLAUDE_ROOT: projects }),
    );
    assertEquals(run.discovery.sources.map((s) => s.path), [
      join(projects, "-work-linked", "c3.jsonl"),
    ]);
    assertEquals(run.sessions.map((s) => s.id), ["c3"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
