/** Which directories the freshness check stats. */
import { assertEquals } from "../../tests/_assert.ts";
import { harnessDirs } from "./map.ts";

Deno.test("harnessDirs walks from a store up to its root, and never above a store outside every root", () => {
  const dirs = harnessDirs(["/h/.claude/projects"], [
    { harness: "claude", path: "/h/.claude/projects/-w-a/s1.jsonl", kind: "append" },
    { harness: "claude", path: "/h/.claude/projects/-w-a/s1/subagents/x.jsonl", kind: "append" },
    // Outside the root (history beside it; a project's own store): its directory only.
    { harness: "claude", path: "/h/.claude/history.jsonl", kind: "append" },
    { harness: "claude", path: "/tmp/w/proj/.crush/crush.db", kind: "sqlite" },
  ]).sort();
  assertEquals(dirs, [
    "/h/.claude",
    "/h/.claude/projects",
    "/h/.claude/projects/-w-a",
    "/h/.claude/projects/-w-a/s1",
    "/h/.claude/projects/-w-a/s1/subagents",
    "/tmp/w/proj/.crush",
  ]);
});

Deno.test("harnessDirs stamps a store that is itself a root, not its busy directory", () => {
  const notes = "/h/.local/share/deja/notes.jsonl";
  assertEquals(harnessDirs([notes], [{ harness: "deja", path: notes, kind: "append" }]), [notes]);
});
