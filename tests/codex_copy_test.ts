/**
 * A Codex rollout copied under another name (a backup, a synced folder) holds the same thread:
 * its events are the ones the index holds, not a second conversation appended (trial 22).
 */
import { assertEquals } from "./_assert.ts";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { indexPath, Store } from "../lib/store.ts";
import { Q } from "../lib/schema.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";

const DAY = join(REPO, "fixtures", "registry", "codex", "sessions", "2026", "07", "31");

Deno.test("a copied Codex rollout adds no events, and deleting the copy leaves the session whole", async () => {
  using tmp = scopedTempDir("deja-codexcopy-");
  const root = join(tmp.path, "codex");
  const day = join(root, "sessions", "2026", "07", "31");
  mkdirSync(day, { recursive: true });
  const name = readdirSync(DAY).find((f) => f.includes("0000000000a1"))!;
  copyFileSync(join(DAY, name), join(day, name));
  const env = testEnv(join(tmp.path, "home"), {
    DEJA_HOME: join(tmp.path, "deja"),
    DEJA_CODEX_ROOT: root,
  });
  const only = { only: ["codex"] };
  const counts = () => {
    const s = Store.open(indexPath(env));
    try {
      const { sessions, events } = Q.stats.get(s, {})!;
      return [sessions, events];
    } finally {
      s.close();
    }
  };
  await runIndex(env, parsers, only);
  const before = counts();
  assertEquals(before[0], 1);
  const copy = join(root, "sessions", "2026", "08", "01", "rollout-copy.jsonl");
  mkdirSync(join(copy, ".."), { recursive: true });
  copyFileSync(join(day, name), copy);
  await runIndex(env, parsers, only);
  assertEquals(counts(), before);
  rmSync(copy);
  await runIndex(env, parsers, only);
  assertEquals(counts(), before);
  await runIndex(env, parsers, { ...only, rebuild: true });
  assertEquals(counts(), before);
});
