/**
 * The one-writer lock says who holds it, and a short hold (a refresh on use)
 * is waited for. Reported by a user trial (2026-12): a `deja index` started
 * while `deja last` refreshed the index failed with "another 'deja index' is
 * writing it", which no `deja index` was.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { acquireWriterLock, lockHolder } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { briefHolder } from "./_brief_lock.ts";
import { tempDir } from "./_tmp.ts";

Deno.test("a writer the lock turns away is told which process holds it and what it does", () => {
  const dir = tempDir("deja-lock-");
  try {
    const held = acquireWriterLock(dir, 0, { doing: "syncing it" });
    try {
      assertEquals(lockHolder(dir)?.pid, process.pid);
      const err = assertThrows(() => acquireWriterLock(dir, 50), DejaError);
      assertStringIncludes(err.message, "the index is busy: 'deja");
      assertStringIncludes(err.message, `(pid ${process.pid}) is syncing it`);
      assert(!err.message.includes("another 'deja index'"), err.message);
    } finally {
      held.release();
    }
    assert(!existsSync(join(dir, "index.lock.who")), "the record goes with the lock");
    acquireWriterLock(dir, 0).release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a writer waits for a refresh on use (a brief hold) instead of failing at once", async () => {
  const dir = tempDir("deja-lock-");
  try {
    // Another process holds the lock briefly, as freshen-on-use does, then lets go.
    const { done } = await briefHolder(dir, 800);
    assertEquals(lockHolder(dir)?.doing, "refreshing it on use");
    // A refresh on use of its own (a hook's, within its time budget) does not wait: it is busy.
    assertThrows(() => acquireWriterLock(dir, 0, { brief: true }), DejaError);
    assertEquals(lockHolder(dir)?.doing, "refreshing it on use", "still the other's");
    const lock = acquireWriterLock(dir, 0); // waitMs 0: without the wait this throws "busy"
    lock.release();
    await done;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 67: `forget` turned away by a running index was told to run again with --wait, which
// it does not take; `deja index` does.
Deno.test("the busy hint names --wait only to the command that takes it", async () => {
  const dir = tempDir("deja-lock-");
  try {
    const { runMain } = await import("./_cli_io.ts");
    const { testEnv } = await import("./_fixture.ts");
    const env = testEnv(join(dir, "home"), { DEJA_HOME: join(dir, "deja") });
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    const held = acquireWriterLock(join(dir, "deja"), 0);
    try {
      const f = await runMain(env, ["forget", "--session", "abcdef12"]);
      assertEquals(f.code, 2, f.err);
      assertStringIncludes(f.err, "hint: wait for it to finish, then run the command again");
      const i = await runMain(env, ["index", "--rebuild"]);
      assertEquals(i.code, 2, i.err);
      assertStringIncludes(i.err, "run again with --wait <seconds>");
    } finally {
      held.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 119 F2: `deja index` beside `deja index --watch` said "the index is busy" (exit 2) in 3
// of 8 runs, each of the watch's writes lasting 0.1-0.3 s.
Deno.test("a plain 'deja index' waits a few seconds for another writer's short write", async () => {
  const dir = tempDir("deja-lock-");
  try {
    const { runMain, env, data } = await indexedWithChange(
      dir,
      "21111111-2222-4333-8444-555555555556",
    );
    // Held as a full run holds it (not brief), for a moment.
    const { done } = await briefHolder(data, 800, false, "writing it");
    assertEquals(lockHolder(data)?.brief, false);
    const r = await runMain(env, ["index", "--quiet"]);
    await done;
    assertEquals(r.code, 0, r.err);
    assertEquals(r.err, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 123: a plain `deja index` turned away while `deja index --watch` wrote was told to wait
// for the watcher "to finish", which it never does.
Deno.test("a writer turned away by a watcher is told it is one, and lets go after each write", () => {
  const dir = tempDir("deja-lock-");
  try {
    const held = acquireWriterLock(dir, 0, { watch: true });
    try {
      const hint = "wait for it to finish, or run again with --wait <seconds>";
      const err = assertThrows(() => acquireWriterLock(dir, 50, {}, hint), DejaError);
      assertStringIncludes(
        err.message,
        `a watcher ('deja index --watch', pid ${process.pid}) is writing a change it saw; ` +
          "it lets go after each write",
      );
      assertEquals((err as DejaError).hint, "run again in a moment, or with --wait <seconds>");
      // A command without --wait is not told of it.
      const f = assertThrows(() => acquireWriterLock(dir, 50), DejaError);
      assertEquals((f as DejaError).hint, "run again in a moment");
    } finally {
      held.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 123 F4: `deja index` said "indexed in 0.05 s" (`ms: 57`) of a run of 1.2-2 s: the check
// of the index before the full run, and the wait for another writer, were left out.
Deno.test("deja index reports its wall time, the wait for another writer in it said apart", async () => {
  const dir = tempDir("deja-lock-");
  try {
    const { runMain, env, data, append } = await indexedWithChange(
      dir,
      "21111111-2222-4333-8444-555555555557",
    );
    const { done } = await briefHolder(data, 1500, false, "writing it");
    const r = await runMain(env, ["index", "--json", "--wait", "30"]);
    await done;
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert(j.waited_ms > 0, r.out);
    assert(j.ms >= j.waited_ms, `the wait is part of the wall time: ${r.out}`);
    // The text says it apart.
    append(2, "Thanks.");
    const again = await briefHolder(data, 1500, false, "writing it");
    const t = await runMain(env, ["index", "--wait", "30"]);
    await again.done;
    assertEquals(t.code, 0, t.err);
    const m = /indexed in (\d+\.\d\d) s \((\d+\.\d\d) s waiting for another writer\)/.exec(t.out);
    assert(m && Number(m[1]) >= Number(m[2]), t.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * An index of one Claude Code session under `dir`, built, then the session appended to: the
 * next `deja index` has a change to read (no no-op run), so it takes the writer lock.
 */
async function indexedWithChange(dir: string, sid: string) {
  const { runMain } = await import("./_cli_io.ts");
  const { testEnv } = await import("./_fixture.ts");
  const { claudeLine } = await import("./_memory.ts");
  const data = join(dir, "deja");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const file = join(proj, `${sid}.jsonl`);
  writeFileSync(file, claudeLine(0, "the parser crashes", sid));
  const env = testEnv(join(dir, "home"), {
    DEJA_HOME: data,
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
  });
  assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
  const append = (n: number, text: string) => appendFileSync(file, claudeLine(n, text, sid));
  append(1, "Fixed it.");
  return { runMain, env, data, append };
}
