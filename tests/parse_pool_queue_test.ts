import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { ParsePool } from "../lib/parse_pool.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { CHUNK_EVENTS, claude } from "../parsers/claude.ts";
import type { Env } from "../core/model.ts";
import type { PreparedChunk } from "../lib/prepare.ts";
import { testEnv } from "./_fixture.ts";
import { scopedTempDir } from "./_tmp.ts";
import { claudeStore } from "./_claude_store.ts";

const store = claudeStore;

function parse(pool: ParsePool, env: Env, path: string) {
  return pool.parse(claude, { harness: "claude", path, kind: "append" }, new SourceCtx(env), 1);
}

async function read(run: AsyncIterable<PreparedChunk>): Promise<number> {
  let events = 0;
  for await (const c of run) events += c.events.length;
  return events;
}

/** Waits (up to 20 s) until `ok()`. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  assert(ok(), what);
}

Deno.test("a parse worker starts the next source once it has parsed one, before the writer reads that one", async () => {
  using tmp = scopedTempDir("deja-poolq-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const pool = new ParsePool(env, 1);
  try {
    const a = parse(pool, env, store(tmp.path, "a", 5));
    const b = parse(pool, env, store(tmp.path, "b", 7));
    // One worker: the second job waits for it (it is not parsed in process instead).
    assertEquals(pool.queued, 1);
    // Nothing of `a` read yet: its parse ended, so the worker took `b`.
    await until(() => pool.queued === 0, "b started while a's chunks were unread");
    assertEquals(await read(a), 5);
    assertEquals(await read(b), 7);
  } finally {
    pool.close();
  }
});

Deno.test("a parsed source cancelled unread gives back its chunks' credit: the worker serves the next in full", async () => {
  using tmp = scopedTempDir("deja-poolc-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const pool = new ParsePool(env, 1);
  try {
    // More chunks than the worker may have unacknowledged.
    const big = store(tmp.path, "big", CHUNK_EVENTS * 6 + 3);
    const a = parse(pool, env, big);
    const queuedThenCancelled = parse(pool, env, store(tmp.path, "q", 3));
    queuedThenCancelled.cancel();
    assertEquals(pool.queued, 0, "a job cancelled before it started leaves the queue");
    // `a`'s first chunks wait unread; cancelling it stops the worker mid-parse.
    a.cancel();
    const b = parse(pool, env, big);
    const c = parse(pool, env, store(tmp.path, "c", 2));
    assertEquals(await read(b), CHUNK_EVENTS * 6 + 3);
    assertEquals(await read(c), 2);
    // A source parsed to the end (as many chunks as the worker may have unacknowledged) and
    // cancelled unread: were its chunks not acknowledged, the worker could post no more.
    const d = parse(pool, env, store(tmp.path, "d", CHUNK_EVENTS * 3 + 1));
    const e = parse(pool, env, big);
    await until(() => pool.queued === 0, "e started once d was parsed");
    d.cancel();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<number>((r) => timer = setTimeout(() => r(-1), 20_000));
    try {
      assertEquals(await Promise.race([read(e), late]), CHUNK_EVENTS * 6 + 3);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    pool.close();
  }
});
