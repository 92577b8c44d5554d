import { assertEquals } from "../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zcode } from "./zcode.ts";
import { parseOne, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { jsonlHostileTests } from "../tests/_hostile.ts";
import { tempDir } from "../tests/_tmp.ts";

const env = testEnv("/nonexistent-home");
const SID = "zc-t";
const line = (role: string, content: unknown, s = 1) => ({
  role,
  content,
  timestamp: `2026-06-03T09:00:0${s}.000Z`,
  sessionId: SID,
});

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "zcode")!;
  const want = JSON.parse(readFileSync(join(entry.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, zcode), want);
});

Deno.test("discover takes transcripts as append sources and the CLI database as a sqlite source", async () => {
  const root = tempDir("deja-zcode-");
  try {
    mkdirSync(join(root, "projects", "-w-z"), { recursive: true });
    mkdirSync(join(root, "cli", "db"), { recursive: true });
    writeFileSync(join(root, "projects", "-w-z", "s.jsonl"), "");
    writeFileSync(join(root, "cli", "db", "db.sqlite"), "");
    const d = await zcode.discover({
      env: testEnv("/h", { DEJA_ZCODE_ROOT: root }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => [s.path.slice(root.length), s.kind, s.companions]), [
      ["/projects/-w-z/s.jsonl", "append", undefined],
      ["/cli/db/db.sqlite", "sqlite", [join(root, "cli", "db", "db.sqlite-wal")]],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("flat lines map to events with the folder's decoded project, usage ignored", async () => {
  const root = tempDir("deja-zcode-");
  try {
    const path = join(root, "-home-u-app", "s.jsonl");
    mkdirSync(join(path, ".."));
    const lines = [
      line("user", "fix it"),
      { ...line("assistant", "on it", 2), usage: { input_tokens: 3 } },
      line("assistant", [{
        type: "tool_use",
        id: "t1",
        name: "Read",
        input: { file_path: "a.ts" },
      }], 3),
      line("user", [{ type: "tool_result", tool_use_id: "t1", content: "x" }], 4),
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l) + "\n").join(""));
    const { sessions } = await parseOne(zcode, { harness: "zcode", path, kind: "append" }, env);
    const s = sessions[0];
    assertEquals([s.id, s.project], [SID, "/home/u/app"]);
    assertEquals(s.events.map((e) => e.kind), ["user", "assistant", "tool_call", "tool_result"]);
    assertEquals(s.events[2].tool?.paths, ["/home/u/app/a.ts"]);
    assertEquals(s.events[1].time, Date.UTC(2026, 5, 3, 9, 0, 2));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

jsonlHostileTests(zcode, {
  file: "-w-z/s.jsonl",
  id: SID,
  record: (i) =>
    [
      line("user", "first prompt", 1),
      line("assistant", "first answer", 2),
      line("user", "second prompt", 3),
      line("assistant", "second answer", 4),
    ][i],
});
