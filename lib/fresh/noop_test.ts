import { assert, assertEquals } from "../../tests/_assert.ts";
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";
import { REPO, testEnv } from "../../tests/_fixture.ts";
import { runMain } from "../../tests/_cli_io.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { indexPath, Store } from "../store.ts";
import { upToDate } from "./noop.ts";
import { checkStaleness } from "./check.ts";
import { claudeLine } from "../../tests/_memory.ts";
import { lastIndexAt, manifestPath, readManifest } from "./manifest.ts";
import { SCHEMA_VERSION } from "../schema.ts";
import { acquireWriterLock } from "../store.ts";
import { dataDir } from "../../core/paths.ts";
import { existsSync, rmSync } from "node:fs";

const SID = "31111111-2222-4333-8444-555555555555";

const line = (i: number, text: string, sid = SID) => claudeLine(i, text, sid);

/** One Claude session in a temp dir, indexed by a full run; `done` removes it all. */
async function world(
  t: (w: { dir: string; file: string; vars: Record<string, string> }) => unknown,
) {
  const dir = tempDir("deja-noop-");
  try {
    const proj = join(dir, "claude", "-w-app");
    mkdirSync(proj, { recursive: true });
    const file = join(proj, `${SID}.jsonl`);
    writeFileSync(file, line(0, "the parser crashes on unicode input") + line(1, "Fixed it."));
    const vars: Record<string, string> = {
      HOME: join(dir, "home"),
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_DATA_HOME: join(dir, "data"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      DEJA_NO_REFRESH: "1",
    };
    await runIndex(testEnv(vars.HOME, vars), parsers);
    await t({ dir, file, vars });
  } finally {
    // tempDir removes it when the module ends
  }
}

function lastAt(vars: Record<string, string>): number {
  const store = Store.open(indexPath(testEnv(vars.HOME, vars)), { readOnly: true });
  try {
    return lastIndexAt(store);
  } finally {
    store.close();
  }
}

Deno.test("a re-index with nothing changed is answered by the stat pass, and stamps the run", async () => {
  await world(async ({ vars }) => {
    const env = testEnv(vars.HOME, vars);
    const before = lastAt(vars);
    await new Promise((r) => setTimeout(r, 5));
    const r = upToDate(env);
    assert(r, "nothing changed: no full run needed");
    const claude = r.harnesses.find((h) => h.harness === "claude")!;
    assertEquals([claude.found, claude.read, claude.sessions], [1, 0, 0]);
    assertEquals(r.harnesses.length, parsers.length);
    assert(lastAt(vars) > before, "the index records the time of this run");
    // The command says what a full no-op run says.
    const cli = await runMain(env, ["index"]);
    assertEquals(cli.code, 0, cli.err);
    assert(cli.out.includes("up to date (1 session,"), cli.out);
  });
});

Deno.test("a re-index goes the full way when a store grew or a new one appeared", async () => {
  await world(async ({ file, vars }) => {
    const env = testEnv(vars.HOME, vars);
    appendFileSync(file, line(2, "and the tests pass"));
    assertEquals(upToDate(env), null);
    const cli = await runMain(env, ["index", "--json"]);
    const claude = JSON.parse(cli.out).harnesses.find((h: { harness: string }) =>
      h.harness === "claude"
    );
    assertEquals(claude.read, 1);
    assert(upToDate(env), "read in: up to date again");
    const other = "41111111-2222-4333-8444-555555555555";
    writeFileSync(join(file, "..", `${other}.jsonl`), line(0, "a new session", other));
    assertEquals(upToDate(env), null);
  });
});

Deno.test("a re-index goes the full way under another store root, an exclusion, or a new harness list", async () => {
  await world(({ dir, vars }) => {
    const moved = { ...vars, DEJA_CLAUDE_ROOT: join(dir, "elsewhere") };
    assertEquals(upToDate(testEnv(vars.HOME, moved)), null);
    const excluding = { ...vars, DEJA_EXCLUDE_PROJECTS: "/w/app" };
    assertEquals(upToDate(testEnv(vars.HOME, excluding)), null);
    assert(upToDate(testEnv(vars.HOME, vars), { only: ["claude"] }));
    assertEquals(upToDate(testEnv(vars.HOME, vars), { only: ["no_such_harness"] }), null);
  });
});

Deno.test("the stat pass lists a harness whose store root moved since its discovery", async () => {
  // Before issue 18 the check compared directory stamps only: with DEJA_CLAUDE_ROOT pointing
  // elsewhere it said "fresh", and a search never read the stores of the new root.
  await world(({ dir, vars }) => {
    const store = Store.open(indexPath(testEnv(vars.HOME, vars)), { readOnly: true });
    try {
      const same = checkStaleness(store, { env: testEnv(vars.HOME, vars) });
      assertEquals(same.discover, []);
      const moved = { ...vars, DEJA_CLAUDE_ROOT: join(dir, "elsewhere") };
      const other = checkStaleness(store, { env: testEnv(vars.HOME, moved) });
      assert(other.discover.includes("claude"), JSON.stringify(other.discover));
    } finally {
      store.close();
    }
  });
});

Deno.test("a no-op re-index after a full run answers from the stat manifest, without the index", async () => {
  await world(async ({ vars }) => {
    const env = testEnv(vars.HOME, vars);
    const path = indexPath(env);
    assert(existsSync(manifestPath(path)), "the full run wrote the manifest");
    // Another writer holds the lock: a run that opened the index would wait for it (or fail).
    const lock = acquireWriterLock(dataDir(env), 0);
    try {
      const before = lastAt(vars);
      await new Promise((r) => setTimeout(r, 5));
      const r = upToDate(env);
      assert(r, "the manifest vouches for the index");
      assertEquals(r.totals, { sessions: 1, events: 2 });
      assert(lastAt(vars) > before, "the manifest's mtime records this run");
    } finally {
      lock.release();
    }
  });
});

Deno.test("the stat manifest is not believed once the index changed since it was written", async () => {
  await world(({ file, vars }) => {
    const env = testEnv(vars.HOME, vars);
    const path = indexPath(env);
    // Another writer records a stamp the store does not have (as a run that read it would):
    // the manifest still says the store is unchanged, the index says otherwise.
    const store = Store.open(path);
    try {
      store.db.prepare("UPDATE sources SET size = size + 1 WHERE path = ?").run(file);
    } finally {
      store.close();
    }
    assertEquals(upToDate(env), null, "the index, not the stale manifest, answers");
  });
});

Deno.test("a run that wrote while a reader had the index open leaves the manifest true after the reader", async () => {
  await world(async ({ file, vars }) => {
    const env = testEnv(vars.HOME, vars);
    const path = indexPath(env);
    // A reader (an MCP server, a search) holds a connection across the run: the run's close
    // is not the last, and its log is left to whoever closes last.
    const reader = Store.open(path, { readOnly: true });
    try {
      assertEquals(reader.stats().sessions, 1);
      appendFileSync(file, line(2, "and the second fix"));
      await runIndex(env, parsers);
    } finally {
      reader.close();
    }
    // A search opens the index read-write; closing last, it checkpoints what is in the log.
    Store.open(path).close();
    assert(readManifest(path, SCHEMA_VERSION), "the manifest still describes the index");
    const store = Store.open(path, { readOnly: true });
    try {
      assertEquals(checkStaleness(store, { env }).changed, [], "the run read the grown store");
    } finally {
      store.close();
    }
  });
});

Deno.test("deja's data folder inside the home is not watched: a search's open and close changes nothing", async () => {
  await world(async ({ vars }) => {
    // The index kept in a plain folder of the home, three levels of which aider's search reads.
    const inHome: Record<string, string> = { ...vars, DEJA_HOME: join(vars.HOME, "deja") };
    mkdirSync(inHome.HOME, { recursive: true });
    const env = testEnv(inHome.HOME, inHome);
    await runIndex(env, parsers);
    await new Promise((r) => setTimeout(r, 5));
    // A search opens the index read-write: its -wal and -shm come and go in the folder.
    Store.open(indexPath(env)).close();
    assert(upToDate(env), "nothing changed: answered by the stat pass");
  });
});

Deno.test("a no-op re-index that opened the index writes the stat manifest again", async () => {
  await world(async ({ vars }) => {
    const env = testEnv(vars.HOME, vars);
    const path = indexPath(env);
    rmSync(manifestPath(path));
    assert(upToDate(env), "nothing changed");
    assert(existsSync(manifestPath(path)), "written by the run that held the lock");
    const cli = await runMain(env, ["index"]);
    assert(cli.out.includes("up to date (1 session, 2 events)"), cli.out);
  });
});

Deno.test("an index last run by readers of another generation is read in full, manifest or not", async () => {
  await world(async ({ vars }) => {
    const env = testEnv(vars.HOME, vars);
    assert(upToDate(env), "same generation: nothing to do");
    // An index written by an earlier deja: its record names no generation.
    const store = Store.open(indexPath(env));
    try {
      const row = store.db.prepare("SELECT value FROM meta WHERE key = 'last_index'").get() as {
        value: string;
      };
      const v = JSON.parse(row.value);
      delete v.readers;
      store.db.prepare("UPDATE meta SET value = ? WHERE key = 'last_index'").run(JSON.stringify(v));
    } finally {
      store.close();
    }
    assertEquals(upToDate(env), null, "another generation vouches for nothing");
    const cli = await runMain(env, ["index", "--json"]);
    assertEquals(cli.code, 0, cli.err);
    assert(upToDate(env), "the full run recorded this generation");
  });
});

Deno.test("a session written into a project folder that was empty at the last index is found", async () => {
  // Trial 14: the folder was made, `deja index` ran, then a session was written into it; the
  // stat pass said "up to date" until something changed in another folder.
  await world(async ({ dir, vars }) => {
    const env = testEnv(vars.HOME, vars);
    const empty = join(dir, "claude", "-w-later");
    mkdirSync(empty);
    assertEquals(upToDate(env), null); // the root changed: a full run
    await runMain(env, ["index"]);
    assert(upToDate(env), "indexed: up to date");
    await new Promise((r) => setTimeout(r, 20)); // a later mtime than the run's stamp
    const other = "51111111-2222-4333-8444-555555555555";
    writeFileSync(join(empty, `${other}.jsonl`), line(0, "lycheemarker session", other));
    assertEquals(upToDate(env), null);
  });
});

Deno.test("a Codex rollout written into a day folder that was empty at the last index is found", async () => {
  const dir = tempDir("deja-noop-codex-");
  const fx = join(REPO, "fixtures/registry/codex/sessions/2026/07/31");
  const name = "rollout-2026-07-31T12-00-00-019fb79d-cd00-7a11-8a11-0000000000a1.jsonl";
  const day = (d: string) => join(dir, "codex", "sessions", "2026", "07", d);
  mkdirSync(day("31"), { recursive: true });
  copyFileSync(join(fx, name), join(day("31"), name));
  mkdirSync(day("30")); // made, and indexed, before its first rollout is written
  const vars: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CODEX_ROOT: join(dir, "codex"),
    DEJA_NO_REFRESH: "1",
  };
  const env = testEnv(vars.HOME, vars);
  await runIndex(env, parsers, { only: ["codex"] });
  assert(upToDate(env, { only: ["codex"] }), "indexed: up to date");
  await new Promise((r) => setTimeout(r, 20));
  copyFileSync(join(fx, name), join(day("30"), name.replace("07-31", "07-30")));
  assertEquals(upToDate(env, { only: ["codex"] }), null);
});
