/**
 * Freshen on use (issue: "always fresh"): a session written after the last
 * index run is found by the next search, the MCP tool and, after the
 * background run, by hooks; work too large for the budget goes to one
 * detached background run; a crashed run does not block the next; concurrent
 * writers leave a consistent index; `index --watch` follows appends.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { appendFileSync, existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { testEnv } from "./_fixture.ts";
import { runMain } from "./_cli_io.ts";
import { exactly, FROM_SOURCE } from "./_env.ts";
import { runningBackground, sentinelPath, startBackground } from "../lib/fresh/background.ts";
import { freshnessNote } from "../lib/fresh/freshen.ts";
import { callDeja } from "../lib/mcp/call.ts";
import { tempDir } from "./_tmp.ts";
import { claudeLine } from "./_memory.ts";
import { manifestPath } from "../lib/fresh/manifest.ts";
import { acquireWriterLock } from "../lib/store.ts";
import { briefHolder } from "./_brief_lock.ts";
import { Store } from "../lib/store.ts";
import { markRebuild } from "../lib/rebuild_mark.ts";

const SELF = JSON.stringify(FROM_SOURCE);
const SID = "21111111-2222-4333-8444-555555555555";

const line = (i: number, text: string, sid = SID) => claudeLine(i, text, sid);

/** A Claude store with one session, indexed; its env vars (all in one temp dir). */
async function world(extra: Record<string, string> = {}) {
  const dir = tempDir("deja-fresh-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const file = join(proj, `${SID}.jsonl`);
  writeFileSync(file, line(0, "the parser crashes on unicode input") + line(1, "Fixed it."));
  const vars: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CACHE_HOME: join(dir, "cache"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    DEJA_SELF: SELF,
    ...extra,
  };
  const r = await run(["index", "--quiet"], vars);
  assertEquals(r.code, 0, r.err);
  return { dir, proj, file, vars };
}

function run(args: string[], vars: Record<string, string>, stdin = "") {
  return runMain(testEnv(vars.HOME, vars), args, stdin);
}

async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return ok();
}

Deno.test("search finds a turn appended after the last index run, without 'deja index'", async () => {
  const w = await world();
  appendFileSync(w.file, line(2, "zanzibarquux marker appended later"));
  const off = await run(["zanzibarquux", "--no-refresh"], w.vars);
  assertEquals(off.code, 1, "--no-refresh answers from the index as it is");
  const offEnv = await run(["zanzibarquux"], { ...w.vars, DEJA_NO_REFRESH: "1" });
  assertEquals(offEnv.code, 1, "DEJA_NO_REFRESH=1 too");
  const r = await run(["zanzibarquux", "--json"], w.vars);
  assertEquals(r.code, 0, r.err);
  assertEquals(JSON.parse(r.out).freshness.state, "refreshed");
  assertEquals(r.err, "", "nothing to say when the refresh kept up");
  const again = await run(["zanzibarquux", "--json"], w.vars);
  assertEquals(JSON.parse(again.out).freshness.state, "fresh");
});

Deno.test("a new session file and a new project directory are found by the next command", async () => {
  const w = await world();
  const sid2 = "31111111-2222-4333-8444-555555555555";
  writeFileSync(join(w.proj, `${sid2}.jsonl`), line(0, "quokkaflux in a new session", sid2));
  const sid3 = "41111111-2222-4333-8444-555555555555";
  const other = join(w.dir, "claude", "-w-other");
  mkdirSync(other);
  writeFileSync(join(other, `${sid3}.jsonl`), line(0, "wombatgrid in a new project", sid3));
  assertEquals((await run(["quokkaflux"], w.vars)).code, 0);
  assertEquals((await run(["wombatgrid"], w.vars)).code, 0);
  const last = await run(["last", "--json"], w.vars);
  assertStringIncludes(last.out, sid3.slice(0, 8));
  // resume and handoff read it too (trial 100 F5: "no session matches" until another command).
  const sid4 = "51111111-2222-4333-8444-555555555555";
  writeFileSync(join(w.proj, `${sid4}.jsonl`), line(0, "emuroute in a newer session", sid4));
  // (Its project /w/app is not on this machine: refused, but found.)
  const resumed = await run(["resume", sid4.slice(0, 8)], w.vars);
  assertEquals(resumed.err.includes("no session matches"), false, resumed.err);
  assertStringIncludes(resumed.err, "the project directory /w/app is not on this machine");
  const sid5 = "61111111-2222-4333-8444-555555555555";
  writeFileSync(join(w.proj, `${sid5}.jsonl`), line(0, "koalagate in the newest session", sid5));
  const handed = await run(["handoff", sid5.slice(0, 8), "--print"], w.vars);
  assertEquals(handed.code, 0, handed.err);
  assertStringIncludes(handed.out, "koalagate");
});

Deno.test("work over the budget goes to one background run and the answer says it is catching up", async () => {
  const w = await world({ DEJA_REFRESH_BUDGET_MS: "0" });
  appendFileSync(w.file, line(2, "okapimesh appended later"));
  const r = await run(["okapimesh", "--json"], w.vars);
  assertEquals(r.code, 1, "not read inline");
  const f = JSON.parse(r.out).freshness;
  assertEquals([f.state, f.pending, f.background], ["catching_up", 1, true]);
  assertStringIncludes(r.err, "catching up");
  // One background run at a time: a second start finds the first.
  const env = testEnv(w.vars.HOME, w.vars);
  const first = runningBackground(env)?.pid;
  assert(first, "a background run is recorded");
  assertEquals(startBackground(env), first);
  assert(
    await until(async () => (await run(["okapimesh", "--no-refresh"], w.vars)).code === 0, 30_000),
    "the background run indexed the change",
  );
  assert(await until(() => !existsSync(sentinelPath(env)), 10_000), "its sentinel is removed");
});

Deno.test("a crashed background run (sentinel left behind) does not block the next one", async () => {
  const w = await world({ DEJA_REFRESH_BUDGET_MS: "0" });
  const env = testEnv(w.vars.HOME, w.vars);
  const dead = spawnSync("true").pid!; // exited already: its pid names no process now
  writeFileSync(sentinelPath(env), `${dead} ${Date.now()}\n`);
  assertEquals(runningBackground(env), null, "a dead pid is no running run");
  appendFileSync(w.file, line(2, "capybaradrift appended later"));
  const r = await run(["capybaradrift", "--json"], w.vars);
  assertEquals(JSON.parse(r.out).freshness.background, true);
  assert(
    await until(
      async () => (await run(["capybaradrift", "--no-refresh"], w.vars)).code === 0,
      30_000,
    ),
    "a new background run took over",
  );
});

Deno.test("the MCP tool finds a turn appended after the last index run within one call", async () => {
  const w = await world();
  appendFileSync(w.file, line(2, "pangolinrift appended later"));
  const env = testEnv(w.vars.HOME, w.vars);
  const r = await callDeja({ mode: "recall", query: "pangolinrift" }, { env, cwd: "/", log() {} });
  assertStringIncludes(r.content[0].text, "pangolinrift");
});

Deno.test("a hook answers at once from a stale index and starts the background run", async () => {
  const w = await world();
  const env = testEnv(w.vars.HOME, w.vars);
  // The last full run was long ago.
  const db = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"));
  db.prepare("UPDATE meta SET value = ? WHERE key = 'last_index'").run(
    JSON.stringify({ at: Date.now() - 3_600_000, harnesses: [] }),
  );
  db.close();
  // ... and so was the last run that found the stores up to date (the stat manifest's mtime).
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(manifestPath(join(w.vars.DEJA_HOME, "index.db")), hourAgo, hourAgo);
  appendFileSync(w.file, line(2, "axolotlbeam appended later"));
  const t0 = performance.now();
  const event = JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    session_id: "s1",
    cwd: "/w/app",
    prompt: "what about the parser",
  });
  const h = await run(["hook-prompt"], w.vars, event);
  assertEquals(h.code, 0);
  assert(performance.now() - t0 < 5000, "the hook did not wait on indexing");
  assert(runningBackground(env), "the hook started a background run");
  assert(
    await until(
      async () => (await run(["axolotlbeam", "--no-refresh"], w.vars)).code === 0,
      30_000,
    ),
    "the background run the hook started indexed the change",
  );
});

Deno.test("two concurrent index runs and a refreshing search leave a consistent index", async () => {
  const w = await world();
  for (let i = 2; i < 40; i++) appendFileSync(w.file, line(i, `concurrent turn ${i} ibexwave`));
  const spawnIndex = () =>
    new Promise<number>((resolve) => {
      // Through `env -i`: under Deno a child's `env` is added to this process's environment.
      const p = spawn(
        ...exactly([...FROM_SOURCE, "index", "--wait", "60"], w.vars),
        {
          stdio: "ignore",
        },
      );
      p.on("exit", (c) => resolve(c ?? 2));
    });
  const [a, b, s] = await Promise.all([spawnIndex(), spawnIndex(), run(["ibexwave"], w.vars)]);
  assertEquals([a, b], [0, 0], "the second writer waited for the first");
  assert(s.code === 0 || s.code === 1, s.err);
  const db = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"), { readOnly: true });
  assertEquals(db.prepare("PRAGMA integrity_check").get(), { integrity_check: "ok" });
  const n = db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number };
  db.close();
  assertEquals(n.n, 40, "every turn once");
});

Deno.test("index --watch makes an appended turn searchable within seconds and stops on SIGTERM", async () => {
  const w = await world();
  const p = spawn(
    ...exactly(
      [...FROM_SOURCE, "index", "--watch", "--interval", "1", "--quiet"],
      w.vars,
    ),
    { stdio: "ignore" },
  );
  const exited = new Promise<string>((r) => p.on("exit", (c, sig) => r(`${c} ${sig}`)));
  try {
    const pidFile = join(w.vars.DEJA_HOME, "watch.pid");
    assert(await until(() => existsSync(pidFile), 20_000), "the watcher started");
    appendFileSync(w.file, line(2, "narwhalpulse appended while watched"));
    const t0 = Date.now();
    assert(
      await until(
        async () => (await run(["narwhalpulse", "--no-refresh"], w.vars)).code === 0,
        15_000,
      ),
      "the watcher indexed the append",
    );
    assert(Date.now() - t0 < 15_000);
  } finally {
    p.kill("SIGTERM");
  }
  // (Deno's child_process reports a signal even when the child handled it and exited 0,
  // so the clean stop is proven by what only a clean stop does: its pid file is removed.)
  await exited;
  assert(!existsSync(join(w.vars.DEJA_HOME, "watch.pid")), "it stopped cleanly");
});

Deno.test("a new store a refresh on use leaves unread is read by the next full run (trial 18)", async () => {
  // Trial 18: a new 8.7 MB session, over the inline bound, was left to a full run, but the
  // refresh had stamped its directory: `deja index` then said "up to date" and never read it.
  for (const leave of [{ inlineMaxBytes: 10 }, { deadline: 0 }]) {
    const w = await world();
    const env = testEnv(w.vars.HOME, w.vars);
    const sid = "51111111-2222-4333-8444-555555555555";
    const dir = join(w.dir, "claude", "-w-big");
    mkdirSync(dir);
    writeFileSync(join(dir, `${sid}.jsonl`), line(0, "sphinxmoth in a large new session", sid));
    const { runIndex } = await import("../lib/indexer.ts");
    const { parsers } = await import("../parsers/mod.ts");
    const inline = await runIndex(env, parsers, {
      only: ["claude"],
      deadline: performance.now() + 60_000,
      inlineMaxBytes: 8 << 20,
      ...leave,
    });
    assertEquals(inline.pending, 1, JSON.stringify(leave));
    const idx = await run(["index"], w.vars);
    assertEquals(idx.code, 0, idx.err);
    assert(!idx.err.includes("up to date") && !idx.out.includes("up to date"), idx.out + idx.err);
    assertEquals((await run(["sphinxmoth", "--no-refresh"], w.vars)).code, 0);
  }
});

Deno.test("an index whose first full run never finished says so and finishes it in the background", async () => {
  // Trial 26: a first `deja index` killed at a third of the stores; every search then
  // answered from that third, said nothing, and no background run read the rest.
  const w = await world();
  const other = join(w.dir, "claude", "-w-lib");
  mkdirSync(other, { recursive: true });
  const late = "31111111-2222-4333-8444-555555555555";
  writeFileSync(join(other, `${late}.jsonl`), line(0, "the quolldrum never indexed", late));
  // As a killed first run leaves it: no record of a full run, no stat manifest.
  const db = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"));
  db.exec("DELETE FROM meta WHERE key = 'last_index'");
  db.close();
  rmSync(manifestPath(join(w.vars.DEJA_HOME, "index.db")), { force: true });
  // While a `deja index` holds the writer lock, the index is being built, not stopped (trial
  // 28: a search during a first index said the first run "stopped early").
  const lock = acquireWriterLock(w.vars.DEJA_HOME, 0, {});
  try {
    const busy = await run(["parser", "--json"], w.vars);
    const b = JSON.parse(busy.out).freshness;
    assertEquals([b.state, b.unfinished, b.background, b.building], [
      "catching_up",
      true,
      false,
      process.pid,
    ]);
    // How far the build is: the stores it wrote so far (trial 122 F8: no figure at all).
    const held = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"), { readOnly: true });
    const n = (held.prepare("SELECT count(*) AS n FROM sources").get() as { n: number }).n;
    held.close();
    assert(n > 0);
    assertEquals(b.built, n);
    const said = await run(["parser"], w.vars);
    assertStringIncludes(
      said.err,
      `the index is still being built ('deja index', pid ${process.pid}; ${
        n === 1 ? "1 store" : `${n} stores`
      } done so far)`,
    );
    assertEquals(said.err.includes("stopped early"), false, said.err);
  } finally {
    lock.release();
  }
  const r = await run(["parser", "--json"], w.vars);
  const f = JSON.parse(r.out).freshness;
  assertEquals([f.state, f.unfinished, f.background], ["catching_up", true, true]);
  const text = await run(["parser"], w.vars);
  assertStringIncludes(text.err, "the index was never built in full");
  assert(
    await until(async () => (await run(["quolldrum", "--no-refresh"], w.vars)).code === 0, 30_000),
    "the background run read the rest",
  );
});

Deno.test("stores read again for a newer reader are said as such, not as changed stores (trial 33)", async () => {
  const w = await world();
  // Over the refresh's inline limit (lib/fresh/freshen.ts INLINE_MAX_BYTES): left to a
  // background run.
  const long = "a long step of the migration ".repeat(3000);
  appendFileSync(
    w.file,
    Array.from({ length: 110 }, (_, i) => line(2 + i, `${long} ${i}`)).join(""),
  );
  assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
  // As an older deja's reader of Claude Code left it.
  const index = join(w.vars.DEJA_HOME, "index.db");
  const db = new DatabaseSync(index);
  db.prepare("UPDATE sources SET reader = reader - 1 WHERE harness = 'claude'").run();
  db.close();
  rmSync(manifestPath(index));
  // Something to look at: a new session in a new project.
  const sid2 = "31111111-2222-4333-8444-555555555555";
  const other = join(w.dir, "claude", "-w-other");
  mkdirSync(other);
  writeFileSync(join(other, `${sid2}.jsonl`), line(0, "numbatquill in a new project", sid2));
  const r = await run(["numbatquill", "--json"], w.vars);
  assertEquals(r.code, 0, r.err);
  const f = JSON.parse(r.out).freshness;
  assertEquals([f.state, f.pending, f.reread], ["catching_up", 1, ["claude"]], r.out);
  assertStringIncludes(r.err, "deja reads claude better now, so 1 store is read again");
  assert(!r.err.includes("changed store"), r.err);
  const env = testEnv(w.vars.HOME, w.vars);
  assert(await until(() => !existsSync(sentinelPath(env)), 30_000), "the background run ends");
});

Deno.test("a search waits for another command's refresh on use, then answers from what it read", async () => {
  // Trial 45: two searches started together after an agent wrote; the one that lost the lock
  // answered from the index as it was: "nothing matched", exit 1, for text on disk.
  const w = await world();
  appendFileSync(w.file, line(2, "zanzibarquux marker appended later"));
  const { done } = await briefHolder(w.vars.DEJA_HOME, 500);
  const r = await run(["zanzibarquux", "--json"], w.vars);
  await done;
  assertEquals(r.code, 0, r.err);
  assertEquals(JSON.parse(r.out).freshness.state, "refreshed");
  assertEquals(r.err, "", "nothing said of a background run");
  // A holder that has not said who it is yet (or let go between the two reads) is waited
  // for too (trial 47: 4 of 35 rounds of two searches still lost).
  appendFileSync(w.file, line(3, "quagmirequux marker appended later"));
  const bare = await briefHolder(w.vars.DEJA_HOME, 500, true);
  const again = await run(["quagmirequux", "--json"], w.vars);
  await bare.done;
  assertEquals(again.code, 0, again.err);
  assertEquals(JSON.parse(again.out).freshness.state, "refreshed");
});

// Trial 72: a store that failed to be read during a search (locked, unreadable) was never read
// by the searches after it, which said "fresh" and "nothing matched" for text it held.
Deno.test("a store that failed a while ago is read again by a background run, one failed just now is not", async () => {
  const w = await world();
  appendFileSync(w.file, line(2, "molejotaquux written while the store could not be read"));
  const db = join(w.vars.DEJA_HOME, "index.db");
  // A damaged file: retried a minute after it failed (a lock is retried sooner: below).
  const mark = (ago: number, error = "file is not a database") => {
    const c = new DatabaseSync(db);
    try {
      c.prepare("UPDATE sources SET error = ?, indexed_at = ? WHERE path = ?")
        .run(error, Date.now() - ago, w.file);
    } finally {
      c.close();
    }
  };
  mark(10_000);
  const now = await run(["molejotaquux", "--json"], w.vars);
  assertEquals(now.code, 1, "a failure of a moment ago is not retried on every search");
  const held = JSON.parse(now.out).freshness;
  // Trial 74: "fresh" with nothing to say the store's changes may be missing.
  assertEquals([held.state, held.failed], ["fresh", 1]);
  assertEquals(now.err, "", "said in JSON and by 'deja sources', not on every search");
  mark(10 * 60_000);
  const r = await run(["molejotaquux", "--json"], w.vars);
  const f = JSON.parse(r.out).freshness;
  assertEquals([f.state, f.retrying, f.background], ["catching_up", 1, true]);
  assertStringIncludes(r.err, "1 store that could not be read before is being read again");
  assert(
    await until(
      async () => (await run(["molejotaquux", "--no-refresh"], w.vars)).code === 0,
      30_000,
    ),
    "the background run read the store again",
  );
  const env = testEnv(w.vars.HOME, w.vars);
  assert(await until(() => !existsSync(sentinelPath(env)), 10_000), "its sentinel is removed");
  const after = await run(["molejotaquux", "--json"], w.vars);
  const done = JSON.parse(after.out).freshness;
  assertEquals([done.state, done.failed], ["fresh", undefined], "the error is gone with the read");
});

Deno.test("the freshness note says changed stores a refresh could not read", () => {
  const base = { read: 1, pending: 0, behind_ms: 0, background: false, ms: 1 };
  assertEquals(freshnessNote({ ...base, state: "refreshed" }), "");
  // Stores an earlier run could not read: in JSON, not on every search.
  assertEquals(freshnessNote({ ...base, state: "fresh", failed: 1 }), "");
  assertEquals(
    freshnessNote({ ...base, state: "catching_up", pending: 2, failed: 2, background: true }),
    "deja: 2 changed stores could not be read now ('deja sources' says why)\n" +
      "deja: the index is catching up: 2 changed stores (0 s behind) being read in the " +
      "background; results may miss the newest work",
  );
});

// Trial 119 F1: a Crush store locked past the wait by its harness failed the background run;
// for a minute every search said only "nothing matched" (exit 1), `--json` said "fresh", and
// MCP recall gave no hint; the watch read it again only at the minute retry.
Deno.test("a store met locked is said by every answer, and read again seconds after, longer each time", async () => {
  const w = await world();
  appendFileSync(w.file, line(2, "grackleplume written while the store was locked"));
  const db = join(w.vars.DEJA_HOME, "index.db");
  const mark = (ago: number, error: string) => {
    const c = new DatabaseSync(db);
    try {
      c.prepare("UPDATE sources SET error = ?, indexed_at = ? WHERE path = ?")
        .run(error, Date.now() - ago, w.file);
    } finally {
      c.close();
    }
  };
  // Locked six times in a row: its next try waits the minute, so it is said, not tried.
  mark(10_000, "database is locked (6 tries in a row)");
  const held = await run(["grackleplume", "--json"], w.vars);
  assertEquals(held.code, 1, held.err);
  const f = JSON.parse(held.out).freshness;
  assertEquals([f.state, f.failed, f.background, f.retrying], ["catching_up", 1, false, undefined]);
  assertEquals(f.locked, { stores: 1, harnesses: ["claude"], error: "database is locked" });
  assertEquals(
    held.err,
    "deja: 1 claude store could not be read just now (database is locked): results may miss " +
      "its newest sessions; it is tried again shortly\n",
  );
  const text = await run(["grackleplume"], w.vars);
  assertEquals(text.code, 1);
  assertStringIncludes(text.err, "could not be read just now (database is locked)");
  // The MCP server's recall says it as well.
  const env = testEnv(w.vars.HOME, w.vars);
  const recall = await callDeja({ mode: "recall", query: "grackleplume" }, {
    env,
    cwd: w.dir,
    log: () => {},
  });
  assertStringIncludes(
    recall.content[0].text,
    "1 claude store could not be read just now (database is locked)",
  );
  // Locked once, ten seconds ago: read again now, not a minute after.
  mark(10_000, "database is locked");
  const r = await run(["grackleplume", "--json"], w.vars);
  assertEquals(JSON.parse(r.out).freshness.retrying, 1, r.out);
  assert(
    await until(
      async () => (await run(["grackleplume", "--no-refresh"], w.vars)).code === 0,
      30_000,
    ),
    "the background run read the store again",
  );
  assert(await until(() => !existsSync(sentinelPath(env)), 10_000), "its sentinel is removed");
});

// Trial 123 F1: a store met locked, then moved away once the lock was released, was said
// "locked" by every answer (`--json` catching_up, behind_ms growing) until it came back, even
// after a `deja index` that told of it as gone.
Deno.test("a store met locked and then gone is no longer said locked, before and after 'deja index'", async () => {
  const w = await world();
  const c = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"));
  try {
    c.prepare("UPDATE sources SET error = ?, indexed_at = ? WHERE path = ?")
      .run("database is locked (6 tries in a row)", Date.now() - 1_000, w.file);
  } finally {
    c.close();
  }
  const held = await run(["unicode", "--json"], w.vars);
  assertEquals(JSON.parse(held.out).freshness.locked?.stores, 1, held.out);
  assertStringIncludes(held.err, "database is locked");
  rmSync(w.file);
  for (const when of ["gone", "after 'deja index'"]) {
    if (when !== "gone") {
      const ix = await run(["index"], w.vars);
      assertEquals(ix.code, 0, ix.err);
      assertStringIncludes(ix.err + ix.out, "1 store gone");
    }
    const r = await run(["unicode", "--json"], w.vars);
    assertEquals(r.code, 0, r.err);
    const f = JSON.parse(r.out).freshness;
    assertEquals([f.locked, f.failed, f.retrying], [undefined, undefined, undefined], when);
    assert(f.state !== "catching_up", `${when}: ${r.out}`);
    assert(!r.err.includes("locked"), `${when}: ${r.err}`);
  }
});

Deno.test("a lock met again waits longer before the next try, up to the minute of other failures", async () => {
  const { lockedAgain, retryAfterMs, RETRY_FAILED_MS } = await import("../lib/fresh/stamps.ts");
  assertEquals(lockedAgain("database is locked", null), "database is locked");
  assertEquals(lockedAgain("database is locked", "file is not a database"), "database is locked");
  const twice = lockedAgain("database is locked", "database is locked");
  assertEquals(twice, "database is locked (2 tries in a row)");
  assertEquals(lockedAgain("database is locked", twice), "database is locked (3 tries in a row)");
  assertEquals(lockedAgain("file is not a database", twice), "file is not a database");
  assertEquals(
    ["database is locked", twice, "database is locked (3 tries in a row)"].map(retryAfterMs),
    [2_000, 4_000, 8_000],
  );
  assertEquals(retryAfterMs("database is locked (40 tries in a row)"), RETRY_FAILED_MS);
  assertEquals(retryAfterMs("file is not a database"), RETRY_FAILED_MS);
});

// Trial 76: the watch never read again a store that was locked when it changed, and wrote on
// into an index `deja index` had found damaged.
Deno.test("the watch's check reads a store met locked seconds ago, and leaves a damaged index be", async () => {
  const { checkOnce } = await import("../lib/fresh/watch.ts");
  const { parsers } = await import("../parsers/mod.ts");
  const { noteDamage } = await import("../lib/store.ts");
  const w = await world();
  const env = testEnv(w.vars.HOME, w.vars);
  appendFileSync(w.file, line(2, "wombatlockzz written while the store was locked"));
  const db = join(w.vars.DEJA_HOME, "index.db");
  const c = new DatabaseSync(db);
  // Trial 119 F1: a lock met ten seconds ago is read again at the next tick, not at the minute.
  c.prepare("UPDATE sources SET error = 'database is locked', indexed_at = ? WHERE path = ?")
    .run(Date.now() - 10_000, w.file);
  c.close();
  const said = await checkOnce(env, parsers);
  assertStringIncludes(said, "claude: 1 read");
  assertEquals((await run(["wombatlockzz", "--no-refresh"], w.vars)).code, 0);
  noteDamage(db, "database disk image is malformed");
  appendFileSync(w.file, line(3, "okapidamaged written after the damage was found"));
  assertStringIncludes(await checkOnce(env, parsers), "the index is damaged");
  assertEquals((await run(["okapidamaged", "--no-refresh"], w.vars)).code, 1, "nothing written");
});

// Trial 77 F5: a WAL store's lag was counted from its main file, which changes only at a
// checkpoint: "8 min behind" for a change under a second old.
Deno.test("a WAL store's change is dated by its -wal, not by its main file", async () => {
  const { tinyStore, tinyVars, listProjects } = await import("./_crush_tiny.ts");
  const { runIndex } = await import("../lib/indexer.ts");
  const { parsers } = await import("../parsers/mod.ts");
  const { checkStaleness } = await import("../lib/fresh/check.ts");
  const { indexPath, Store } = await import("../lib/store.ts");
  const dir = tempDir("deja-walage-");
  const project = join(dir, "proj");
  mkdirSync(join(project, ".crush"), { recursive: true });
  mkdirSync(join(dir, "crush"), { recursive: true });
  listProjects(dir, [project]);
  const path = join(project, ".crush", "crush.db");
  tinyStore(path, ["a"]);
  const live = new DatabaseSync(path);
  try {
    live.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
    live.exec("INSERT INTO messages VALUES ('a9', 'aaaaaaaa-s', 'user', '[]', 1009)");
    const env = testEnv(join(dir, "home"), tinyVars(dir));
    await runIndex(env, parsers, {});
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(path, hourAgo, hourAgo);
    live.exec("INSERT INTO messages VALUES ('a10', 'aaaaaaaa-s', 'user', '[]', 1010)");
    const store = Store.open(indexPath(env), { readOnly: true });
    try {
      const changed = checkStaleness(store, { env }).changed;
      assertEquals(changed.map((c) => c.path), [path]);
      assert(
        Date.now() - changed[0].mtime < 60_000,
        `dated ${Date.now() - changed[0].mtime} ms ago`,
      );
    } finally {
      store.close();
    }
  } finally {
    live.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 86 F4: a new store file not yet read was "0 s behind" though written 8 s before.
Deno.test("a new store is dated by the change of the folder it appeared in", async () => {
  const { checkStaleness } = await import("../lib/fresh/check.ts");
  const { indexPath, Store } = await import("../lib/store.ts");
  const w = await world();
  const other = "5a5a5a5a-1111-4222-8333-444455556666";
  writeFileSync(join(w.proj, `${other}.jsonl`), line(0, "a new session"));
  const before = (Date.now() - 8000) / 1000;
  utimesSync(w.proj, before, before);
  const env = testEnv(w.vars.HOME, w.vars);
  const store = Store.open(indexPath(env), { readOnly: true });
  try {
    const s = checkStaleness(store, { env });
    assertEquals(s.discover, ["claude"]);
    const lag = Date.now() - (s.dirsChangedAt ?? Date.now());
    assert(lag >= 7000 && lag < 60_000, `dated ${lag} ms ago`);
  } finally {
    store.close();
  }
});

// Trial 124 F1: after a `deja index --rebuild` cut short, searches said `fresh` and started no
// run, so what the rebuild was to drop (a deleted store's session) stayed until some other run.
Deno.test("a rebuild cut short is said by the next search, which starts the run that finishes it", async () => {
  const w = await world();
  try {
    const store = Store.open(join(w.vars.DEJA_HOME, "index.db"));
    try {
      markRebuild(store, ["claude"]);
    } finally {
      store.close();
    }
    rmSync(w.file);
    const r = await run(["parser", "--json"], w.vars);
    const f = JSON.parse(r.out).freshness;
    assertEquals([f.state, f.rebuild_pending, f.background], ["catching_up", ["claude"], true]);
    assertStringIncludes(r.err, "the last 'deja index --rebuild' was cut short");
    // The background run rebuilds: the deleted store's session goes, and the mark with it.
    assert(
      await until(async () => (await run(["parser", "--json"], w.vars)).code === 1, 20_000),
      "the rebuild dropped the session of the deleted store",
    );
    const after = await run(["parser", "--json"], w.vars);
    assertEquals(JSON.parse(after.out).freshness.rebuild_pending, undefined);
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
  }
});
