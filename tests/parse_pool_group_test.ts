import { assert, assertEquals, assertRejects } from "./_assert.ts";
import { join } from "node:path";
import { GROUP_BYTES, ParsePool, poolSize, WORKER_MIN_BYTES } from "../lib/parse_pool.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { CHUNK_EVENTS, claude } from "../parsers/claude.ts";
import type { Env } from "../core/model.ts";
import type { PreparedChunk } from "../lib/prepare.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";
import { claudeStore } from "./_claude_store.ts";

/** A size under WORKER_MIN_BYTES such that three of them fill a job of their own. */
const SMALL = Math.floor(WORKER_MIN_BYTES / 2);

function parse(pool: ParsePool, env: Env, path: string, size = SMALL) {
  return pool.parse(claude, { harness: "claude", path, kind: "append" }, new SourceCtx(env), size);
}

async function read(run: AsyncIterable<PreparedChunk>): Promise<number> {
  let events = 0;
  for await (const c of run) events += c.events.length;
  return events;
}

/** The default environment: no DEJA_PARSE_WORKER, so the pool decides. */
function envOf(dir: string): Env {
  return testEnv(dir, { DEJA_HOME: join(dir, "deja") });
}

Deno.test("small sources planned together share one worker job; one that fails reports its own error, the others are read", async () => {
  assert(3 * SMALL <= GROUP_BYTES && 3 * SMALL >= WORKER_MIN_BYTES);
  using tmp = scopedTempDir("deja-poolg-");
  const env = envOf(tmp.path);
  const pool = new ParsePool(env, 1);
  try {
    const release = pool.hold();
    const a = parse(pool, env, claudeStore(tmp.path, "a", 5));
    const b = parse(pool, env, join(tmp.path, "missing.jsonl"));
    const c = parse(pool, env, claudeStore(tmp.path, "c", 7));
    assertEquals(pool.queued, 3, "held until the planning ends");
    release();
    assertEquals(pool.stats, { jobs: 1, sources: 3 });
    assertEquals(await read(a), 5);
    const e = await assertRejects(() => read(b));
    assert(e.message.includes("missing.jsonl"), e.message);
    assertEquals(await read(c), 7);
  } finally {
    pool.close();
  }
});

Deno.test("a source of a shared job stopped mid-way leaves the worker running: the sources after it are read in full", async () => {
  using tmp = scopedTempDir("deja-poolg-");
  const env = envOf(tmp.path);
  const pool = new ParsePool(env, 1);
  try {
    const release = pool.hold();
    // More chunks than the worker may post unacknowledged (MAX_IN_FLIGHT).
    const a = parse(pool, env, claudeStore(tmp.path, "a", CHUNK_EVENTS * 6 + 3));
    const b = parse(pool, env, claudeStore(tmp.path, "b", 3));
    const c = parse(pool, env, claudeStore(tmp.path, "c", 4));
    release();
    for await (const _ of a) break; // the writer stops after a's first chunk
    assertEquals(await read(b), 3);
    assertEquals(await read(c), 4);
    // The same worker takes the next job (a stopped worker would be replaced: still one job each).
    const d = parse(pool, env, claudeStore(tmp.path, "d", 2), WORKER_MIN_BYTES);
    assertEquals(await read(d), 2);
    assertEquals(pool.stats, { jobs: 2, sources: 4 });
  } finally {
    pool.close();
  }
});

Deno.test("small sources too few to pay for a worker job are parsed in process", async () => {
  using tmp = scopedTempDir("deja-poolg-");
  const env = envOf(tmp.path);
  const pool = new ParsePool(env, 1);
  try {
    const release = pool.hold();
    const a = parse(pool, env, claudeStore(tmp.path, "a", 3), 1000);
    const b = parse(pool, env, claudeStore(tmp.path, "b", 2), 1000);
    release();
    assertEquals(await read(a), 3);
    assertEquals(await read(b), 2);
    assertEquals(pool.stats, { jobs: 0, sources: 0 });
  } finally {
    pool.close();
  }
});

Deno.test("small sources at the end of the queue wait for the next ones planned to share a job, and are parsed in process once read", async () => {
  using tmp = scopedTempDir("deja-poolg-");
  const env = envOf(tmp.path);
  const pool = new ParsePool(env, 1);
  try {
    let release = pool.hold();
    const a = parse(pool, env, claudeStore(tmp.path, "a", 3));
    release();
    // Too small for a job alone, and more may be planned: it waits (once it was parsed in process).
    assertEquals(pool.queued, 1);
    release = pool.hold();
    const b = parse(pool, env, claudeStore(tmp.path, "b", 4));
    const c = parse(pool, env, claudeStore(tmp.path, "c", 5));
    release();
    assertEquals(pool.stats, { jobs: 1, sources: 3 }, "a shares the job of the next two");
    release = pool.hold();
    const d = parse(pool, env, claudeStore(tmp.path, "d", 2));
    release();
    assertEquals(pool.queued, 1);
    assertEquals(await read(a), 3);
    assertEquals(await read(b), 4);
    assertEquals(await read(c), 5);
    // The writer reads the last small one: nothing more will join it, it is parsed in process.
    assertEquals(await read(d), 2);
    assertEquals(pool.queued, 0);
    assertEquals(pool.stats, { jobs: 1, sources: 3 });
  } finally {
    pool.close();
  }
});

Deno.test("a run on two cores starts one parse worker, on more two, on one still one", () => {
  assertEquals([1, 2, 3, 4, 64].map(poolSize), [1, 1, 2, 2, 2]);
});
