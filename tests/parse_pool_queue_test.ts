import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { JOB_DEPTH, ParsePool } from "../lib/parse_pool.ts";
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

Deno.test("a parse worker holds its next jobs; one more waits and starts once the worker parsed one, before the writer reads it", async () => {
  using tmp = scopedTempDir("deja-poolq-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const pool = new ParsePool(env, 1);
  try {
    const runs = [];
    for (let i = 0; i <= JOB_DEPTH; i++) {
      runs.push(parse(pool, env, store(tmp.path, `s${i}`, 5 + i)));
    }
    // One worker: the jobs past its depth wait for it (they are not parsed in process instead).
    assertEquals(pool.queued, 1);
    // Nothing read yet: the worker's first parse ended, so the last job was posted.
    await until(
      () => pool.queued === 0,
      "the last job posted while the first's chunks were unread",
    );
    for (const [i, r] of runs.entries()) assertEquals(await read(r), 5 + i);
  } finally {
    pool.close();
  }
});

Deno.test("a job waiting behind one whose source is stopped mid-parse is posted again and read in full", async () => {
  using tmp = scopedTempDir("deja-poolr-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  const pool = new ParsePool(env, 1);
  try {
    // Far more chunk text than the worker may have unacknowledged (IN_FLIGHT_BYTES, ~25 kB a
    // chunk here): it waits for credit mid-parse when `a` stops.
    const a = parse(pool, env, store(tmp.path, "a", CHUNK_EVENTS * 100 + 3));
    const b = parse(pool, env, store(tmp.path, "b", 9));
    assertEquals(pool.queued, 0, "b posted behind a on the same worker");
    for await (const _ of a) break; // the writer stops after a's first chunk: the worker is stopped
    assertEquals(await read(b), 9);
    assertEquals(pool.stats.jobs, 3, "b posted twice: behind a, then to a new worker");
  } finally {
    pool.close();
  }
});

Deno.test("a parsed source cancelled unread gives back its chunks' credit: the worker serves the next in full", async () => {
  using tmp = scopedTempDir("deja-poolc-");
  const env = testEnv(tmp.path, { DEJA_HOME: join(tmp.path, "deja"), DEJA_PARSE_WORKER: "1" });
  // One job at a time: the next is posted only once the worker has parsed the last.
  const pool = new ParsePool(env, 1, undefined, 1);
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
