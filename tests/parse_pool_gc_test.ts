import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { ParsePool } from "../lib/parse_pool.ts";
import { GarbagePacer } from "../core/runtime.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { claude } from "../parsers/claude.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";
import { claudeStore } from "./_claude_store.ts";
import { encodeChunk, wireBytes } from "../lib/chunk_wire.ts";

const store = claudeStore;

Deno.test("the writer's garbage collections are paced by the chunk text of the whole run, not per source", async () => {
  using tmp = scopedTempDir("deja-gcpace-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const sizes: number[] = [];
  let collections = 0;
  // Each source is one small chunk: a count kept per source would never reach `every`.
  const every = 2000;
  const pool = new ParsePool(env, 1, new GarbagePacer(every, () => collections++));
  try {
    for (let i = 0; i < 6; i++) {
      const path = store(tmp.path, `s${i}`, 4);
      const run = pool.parse(
        claude,
        { harness: "claude", path, kind: "append" },
        new SourceCtx(env),
        1,
      );
      // The worker sends each chunk as its two strings (lib/chunk_wire.ts).
      for await (const c of run) sizes.push(wireBytes(encodeChunk(c)));
    }
  } finally {
    pool.close();
  }
  assertEquals(sizes.length, 6);
  assert(sizes.every((n) => n < every / 2), `each chunk well under ${every} bytes: ${sizes}`);
  // Collected each time the text taken since the last collection reached `every`.
  let taken = 0;
  let expected = 0;
  for (const n of sizes) if ((taken += n) >= every) [taken, expected] = [0, expected + 1];
  assert(expected >= 1);
  assertEquals(collections, expected);
});

Deno.test("a garbage pacer collects once per `every` bytes counted over all its calls", () => {
  let collections = 0;
  const pacer = new GarbagePacer(1000, () => collections++);
  // Forty small pieces of 100 bytes (a parse worker's chunks of several small sources).
  for (let i = 0; i < 40; i++) pacer.took(100);
  assertEquals(collections, 4);
  pacer.took(5000);
  assertEquals(collections, 5);
});
