import { assert, assertEquals } from "../../tests/_assert.ts";
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fnv64, loadState, MAX_FILES, MAX_KEYS, saveState, statePath } from "./state.ts";
import { tempDir } from "../../tests/_tmp.ts";

Deno.test("state round-trips through a 0600 file named after the session id", () => {
  const dir = tempDir("deja-state-");
  try {
    const p = statePath(dir, "abc-123/../x");
    assert(p.startsWith(join(dir, "hooks") + "/"), p);
    assert(!p.slice(dir.length).includes(".."), "no path tricks from the id");
    assertEquals(loadState(p), { v: 1, seen: [] });
    saveState(p, { v: 1, seen: ["a", "b"], crush: { user: "m1" } });
    assertEquals(loadState(p), { v: 1, seen: ["a", "b"], crush: { user: "m1" } });
    assertEquals(statSync(p).mode & 0o777, 0o600);
    assert(statePath(dir, "s1") !== statePath(dir, "s2"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("state keeps only the newest keys when there are too many", () => {
  const dir = tempDir("deja-state-");
  try {
    const p = statePath(dir, "s");
    const seen = Array.from({ length: MAX_KEYS + 50 }, (_, i) => `k${i}`);
    saveState(p, { v: 1, seen });
    const back = loadState(p).seen;
    assertEquals(back.length, MAX_KEYS);
    assertEquals(back[back.length - 1], `k${MAX_KEYS + 49}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("state prunes the least recently used sessions beyond the limit", () => {
  const dir = tempDir("deja-state-");
  try {
    for (let i = 0; i < MAX_FILES + 5; i++) {
      const p = statePath(dir, `old-${i}`);
      saveState(p, { v: 1, seen: [] });
      utimesSync(p, 1000 + i, 1000 + i);
    }
    saveState(statePath(dir, "newest"), { v: 1, seen: ["x"] });
    const names = readdirSync(join(dir, "hooks"));
    assertEquals(names.length, MAX_FILES);
    assert(names.some((n) => n.startsWith("newest-")));
    assert(!names.some((n) => n.startsWith("old-0-")), "the oldest went first");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a damaged state file is read as a fresh state", () => {
  const dir = tempDir("deja-state-");
  try {
    const p = join(dir, "bad.json");
    writeFileSync(p, "{not json");
    assertEquals(loadState(p), { v: 1, seen: [] });
    writeFileSync(p, JSON.stringify({ v: 2, seen: "x" }));
    assertEquals(loadState(p), { v: 1, seen: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("fnv64 gives 16 hex digits that differ for different ids", () => {
  assertEquals(fnv64("a").length, 16);
  assert(fnv64("a") !== fnv64("b"));
  assertEquals(fnv64("same"), fnv64("same"));
});
