import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { ParsePool, SOURCE_GC_BYTES } from "../lib/parse_pool.ts";
import { GarbagePacer } from "../core/runtime.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { claude } from "../parsers/claude.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";
import { claudeStore } from "./_claude_store.ts";
import { encodeChunk, wireBytes } from "../lib/chunk_wire.ts";

const store = claudeStore;

Deno.test("the writer's garbage collections are paced by the whole run's chunk text and sources, not per source", async () => {
  using tmp = scopedTempDir("deja-gcpace-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const sizes: number[][] = [];
  let collections = 0;
  // Each source is one small chunk: a count kept per source would never reach `every`, and
  // the chunks of all six alone would not either; each source's own share does, now and then.
  const every = Math.floor(2.5 * SOURCE_GC_BYTES);
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
      const mine: number[] = [];
      // The worker sends each chunk as its two strings (lib/chunk_wire.ts).
      for await (const c of run) mine.push(wireBytes(encodeChunk(c)));
      sizes.push(mine);
    }
  } finally {
    pool.close();
  }
  assertEquals(sizes.length, 6);
  const text = sizes.flat();
  assert(text.length >= 6 && text.reduce((a, b) => a + b, 0) < every, `chunks: ${text}`);
  // Collected each time what was counted since the last collection reached `every`: each
  // source's share as it starts, then its chunks' text.
  let taken = 0;
  let expected = 0;
  const count = (n: number) => {
    if ((taken += n) >= every) [taken, expected] = [0, expected + 1];
  };
  for (const chunks of sizes) [SOURCE_GC_BYTES, ...chunks].forEach(count);
  assertEquals(expected, 2);
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
