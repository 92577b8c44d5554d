/**
 * A parser fix reaches history indexed before it (lib/version.ts REVISIONS):
 * a store read by another revision of its harness's parser is read again
 * whole by the next `deja index`, which neither the stat manifest nor the
 * last run's record may answer with "up to date".
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { tempDir } from "./_tmp.ts";
import { REPO, testEnv } from "./_fixture.ts";
import { runMain } from "./_cli_io.ts";
import { claudeLine } from "./_memory.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { indexPath, Store } from "../lib/store.ts";
import { saveManifest, upToDate } from "../lib/fresh/noop.ts";
import { freshen, freshnessNote } from "../lib/fresh/freshen.ts";
import { manifestPath } from "../lib/fresh/manifest.ts";
import { REDACTION, revisionOf, REVISIONS } from "../lib/version.ts";
import { harnessIds } from "../core/registry.ts";
import { FROM_SOURCE } from "./_env.ts";
import { callDeja } from "../lib/mcp/call.ts";
import { startView } from "../lib/view/server.ts";
import { hookLogPath } from "../lib/hooks/log.ts";
import { existsSync } from "node:fs";

const SID = "41111111-2222-4333-8444-555555555555";

function world() {
  const dir = tempDir("deja-revision-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  writeFileSync(
    join(proj, `${SID}.jsonl`),
    claudeLine(0, "the parser crashes on unicode input", SID) + claudeLine(1, "Fixed it.", SID),
  );
  const vars: Record<string, string> = {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CACHE_HOME: join(dir, "cache"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    DEJA_NO_REFRESH: "1",
  };
  return { env: testEnv(vars.HOME, vars), vars };
}

/** Makes the index look as if an older parser of `harness` had read its stores. */
function readByOlderParser(path: string, harness: string): void {
  const store = Store.open(path);
  try {
    store.db.prepare(
      "UPDATE events SET text = 'what an older parser made of it' WHERE kind = 'user'",
    )
      .run();
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = ?").run(
      revisionOf(harness) - 1,
      harness,
    );
    editLastRun(store, (last) => {
      last.revisions = { ...(last.revisions as object), [harness]: revisionOf(harness) - 1 };
    });
  } finally {
    store.close();
  }
  olderManifest(path);
}

/** Edits the record of the last full run (`meta` last_index) in place. */
function editLastRun(store: Store, edit: (last: Record<string, unknown>) => void): void {
  const row = store.db.prepare("SELECT value FROM meta WHERE key = 'last_index'").get() as {
    value: string;
  };
  const last = JSON.parse(row.value);
  edit(last);
  store.db.prepare("UPDATE meta SET value = ? WHERE key = 'last_index'").run(JSON.stringify(last));
}

/** The stat manifest as an older deja wrote it: it names other readers. */
function olderManifest(path: string): void {
  const m = JSON.parse(readFileSync(manifestPath(path), "utf8"));
  m.readers = "older readers";
  writeFileSync(manifestPath(path), JSON.stringify(m));
}

function userTexts(path: string): string[] {
  const store = Store.open(path, { readOnly: true });
  try {
    return (store.db.prepare("SELECT text FROM events WHERE kind = 'user' ORDER BY id").all() as {
      text: string;
    }[]).map((r) => r.text);
  } finally {
    store.close();
  }
}

const claudeOf = (out: string) =>
  JSON.parse(out).harnesses.find((h: { harness: string }) => h.harness === "claude");

Deno.test("a store read by another revision of its parser is read again whole by the next index", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  assert(upToDate(env), "a second run with nothing changed is a no-op");
  readByOlderParser(path, "claude");
  assertEquals(userTexts(path), ["what an older parser made of it"]);

  assertEquals(upToDate(env), null, "the stat pass vouches for no store an older parser read");
  const cli = await runMain(env, ["index", "--json"]);
  assertEquals(cli.code, 0, cli.err);
  assertEquals(claudeOf(cli.out).read, 1, cli.out);
  // Trial 129 F5: a run reading every store again said nothing of why.
  assertEquals(JSON.parse(cli.out).reread, { harnesses: ["claude"], stores: 1, redaction: 0 });
  assertStringIncludes(cli.err, "deja: read 1 store again whole: deja reads claude better now");
  assertEquals(userTexts(path), ["the parser crashes on unicode input"]);
  const found = await runMain(env, ["search", "unicode", "--json"]);
  assert(found.out.includes(SID), found.out);

  // Read by this revision now: the next run reads nothing again.
  assert(upToDate(env), "the re-read store is vouched for again");
  const again = await runMain(env, ["index", "--json"]);
  assertEquals(claudeOf(again.out).read, 0, again.out);
});

// Trial 127 F1-F4: new redaction rules masked nothing an index built before held until
// `--rebuild`; a redaction generation (lib/version.ts REDACTION) reads every store again.
Deno.test("an index built before a redaction generation has its stores read again whole", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    // As an older deja left it: its redaction let a secret through, each store's reader the
    // parser's revision alone, and its last run's record with no redaction generation.
    store.db.prepare("UPDATE events SET text = 'docker login -p hunter2secret' WHERE kind = 'user'")
      .run();
    // Its vocabulary took the word too (trial 128 F5: kept after the stores were read again).
    store.db.prepare("INSERT INTO vocab(term) VALUES ('hunter2secret')").run();
    for (const h of ["claude"]) {
      store.db.prepare("UPDATE sources SET reader = ? WHERE harness = ?").run(REVISIONS[h], h);
    }
    editLastRun(store, (last) => delete last.redaction);
  } finally {
    store.close();
  }
  olderManifest(path);
  assertEquals(upToDate(env), null, "the stat pass vouches for nothing an older redaction read");
  const cli = await runMain(env, ["index", "--json"]);
  assertEquals(cli.code, 0, cli.err);
  assertEquals(claudeOf(cli.out).read, 1, cli.out);
  // Trial 129 F5: a run reading every store again said nothing of why.
  assertEquals(JSON.parse(cli.out).reread, { harnesses: ["claude"], stores: 1, redaction: 1 });
  assertStringIncludes(cli.err, "deja: read 1 store again whole: new secret-redaction rules");
  assertEquals(userTexts(path), ["the parser crashes on unicode input"]);
  const after = Store.open(path, { readOnly: true });
  try {
    const held = after.db.prepare("SELECT count(*) AS n FROM vocab WHERE term = 'hunter2secret'")
      .get() as { n: number };
    assertEquals(held.n, 0, "the vocabulary is made again from the events read again");
  } finally {
    after.close();
  }
  assert(REDACTION >= 1);
  assert(upToDate(env), "read by this generation now: vouched for again");
});

// Trial 128 F1: after an older deja built the index, a search by this one said `fresh` and
// started no run, so the secrets the older redaction let through were shown until someone ran
// `deja index` by hand. A reader or redaction revision owes the stores a read: a background run.
Deno.test("a search over stores an older reader read starts the background run that reads them again", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  readByOlderParser(indexPath(env), "claude");
  const bg = testEnv(vars.HOME, {
    ...vars,
    DEJA_NO_REFRESH: "",
    // The background run is `true index …`: it starts and ends at once.
    DEJA_SELF: JSON.stringify(["true"]),
  });
  const f = await freshen(bg, parsers, { budgetMs: 0 });
  assertEquals([f.state, f.background, f.reread], ["catching_up", true, ["claude"]]);
});

// Trial 129 F1: after `deja index --harness claude` wrote the stat manifest, searches answered
// `fresh` from it and kept showing the other harnesses' stores as an older redaction left them.
Deno.test("no stat manifest vouches for an index holding stores an older reader read", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = 'claude'").run(
      REVISIONS.claude,
    );
  } finally {
    store.close();
  }
  // As a run of another harness leaves it: the manifest written after it.
  saveManifest(path);
  const bg = testEnv(vars.HOME, {
    ...vars,
    DEJA_NO_REFRESH: "",
    DEJA_SELF: JSON.stringify(["true"]),
  });
  const f = await freshen(bg, parsers, { budgetMs: 0 });
  assertEquals([f.state, f.reread], ["catching_up", ["claude"]]);
});

// Trial 129 F4: a run of one harness recorded the new redaction generation, so the next plain
// run, which read the others again, left their old words in the vocabulary.
Deno.test("a run that starts with stores an older reader read makes the vocabulary again", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    store.db.prepare("INSERT INTO vocab(term) VALUES ('hunter2secret')").run();
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = 'claude'").run(
      REVISIONS.claude,
    );
  } finally {
    store.close();
  }
  await runIndex(env, parsers);
  const after = Store.open(path, { readOnly: true });
  try {
    const held = after.db.prepare("SELECT count(*) AS n FROM vocab WHERE term = 'hunter2secret'")
      .get() as { n: number };
    assertEquals(held.n, 0);
  } finally {
    after.close();
  }
});

// Trial 129 F2: a store gone since (Claude Code deletes old transcripts) cannot be read again:
// its sessions kept what an older redaction let through, and its row, never read again, kept
// every search starting a background run. Redacted again in place, and marked read.
Deno.test("the sessions of a store gone since are redacted again in place, and no run is owed after", async () => {
  const { env, vars } = world();
  const proj = join(vars.DEJA_CLAUDE_ROOT, "-w-app");
  const other = "61111111-2222-4333-8444-555555555555";
  writeFileSync(join(proj, `${other}.jsonl`), claudeLine(0, "a second session", other));
  await runIndex(env, parsers);
  rmSync(join(proj, `${SID}.jsonl`)); // gone, kept
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    store.db.prepare("UPDATE sources SET reader = ?").run(REVISIONS.claude);
    store.db.prepare(
      "UPDATE events SET text = 'docker login -u me -p plumsecret99' WHERE kind = 'user' AND text LIKE '%unicode%'",
    ).run();
    editLastRun(store, (last) => delete last.redaction);
  } finally {
    store.close();
  }
  olderManifest(path);
  await runIndex(env, parsers);
  const texts = userTexts(path).join("\n");
  assert(!texts.includes("plumsecret99"), texts);
  assertStringIncludes(texts, "docker login -u me -p [redacted:");
  const bg = testEnv(vars.HOME, {
    ...vars,
    DEJA_NO_REFRESH: "",
    DEJA_SELF: JSON.stringify(["true"]),
  });
  assertEquals((await freshen(bg, parsers, { budgetMs: 0 })).state, "fresh");
});

Deno.test("a store of another harness's revision is not read again", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    // Only the revisions of a harness that has no store here differ.
    editLastRun(store, (last) => {
      last.revisions = { ...(last.revisions as object), aider: revisionOf("aider") + 7 };
    });
  } finally {
    store.close();
  }
  const cli = await runMain(env, ["index", "--json"]);
  assertEquals(cli.code, 0, cli.err);
  assertEquals(claudeOf(cli.out).read, 0, cli.out);
});

Deno.test("every harness with a reader revision is one deja knows", () => {
  const known = new Set(harnessIds());
  for (const [id, n] of Object.entries(REVISIONS)) {
    assert(known.has(id), `${id} is not a harness of registry.json`);
    assert(Number.isInteger(n) && n > 0, `${id}: ${n}`);
  }
});

Deno.test("a session kept as indexed from a store cut short stays so when a new revision reads the store again", async () => {
  const { env, vars } = world();
  const file = join(vars.DEJA_CLAUDE_ROOT, "-w-app", `${SID}.jsonl`);
  const lines = Array.from({ length: 6 }, (_, i) => claudeLine(i, `step ${i} of the fix`, SID));
  writeFileSync(file, lines.join(""));
  await runIndex(env, parsers);
  const path = indexPath(env);
  const events = () => {
    const store = Store.open(path, { readOnly: true });
    try {
      return (store.db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
    } finally {
      store.close();
    }
  };
  const held = events();
  writeFileSync(file, lines.slice(0, 3).join(""));
  await runIndex(env, parsers);
  assertEquals(events(), held, "kept as indexed");
  // A deja whose Claude reader is newer reads the store again whole: what the index kept stays
  // (it went without a word).
  readByOlderParser(path, "claude");
  const cli = await runMain(env, ["index", "--json"]);
  assertEquals(claudeOf(cli.out).read, 1, cli.out);
  assertEquals(events(), held);
});

/** Makes the index look as if an older secrets redaction had read the Claude store, a secret let through. */
function readByOlderRules(path: string): void {
  const store = Store.open(path);
  try {
    store.db.prepare(
      "UPDATE events SET text = 'docker login -p kumquatsecret9' WHERE kind = 'user'",
    )
      .run();
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = 'claude'").run(
      REVISIONS.claude ?? 0,
    );
    editLastRun(store, (last) => delete last.redaction);
  } finally {
    store.close();
  }
  olderManifest(path);
}

// Trial 129 F3: the first answers after an upgrade (a search, an MCP call, hook-prompt) gave back
// what the older redaction let through while the background run was still reading it again.
Deno.test("a command waits within its budget for the run that reads again what older rules redacted", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const bg = testEnv(vars.HOME, {
    ...vars,
    DEJA_NO_REFRESH: "",
    DEJA_SELF: JSON.stringify(FROM_SOURCE),
  });
  const f = await freshen(bg, parsers, { budgetMs: 60_000 });
  assertEquals([f.state, f.redaction], ["fresh", undefined], JSON.stringify(f));
  assertEquals(userTexts(indexPath(env)), ["the parser crashes on unicode input"]);
});

Deno.test("while older rules' text is still to be read again, the CLI says so and MCP and hooks give none of it", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  // The background run is `true index …`: it ends at once having read nothing, as a run still
  // at work would leave the index.
  const bgVars = { ...vars, DEJA_NO_REFRESH: "", DEJA_SELF: JSON.stringify(["true"]) };
  const bg = testEnv(vars.HOME, bgVars);
  const f = await freshen(bg, parsers, { budgetMs: 0 });
  assertEquals([f.state, f.reread, f.redaction], ["catching_up", ["claude"], 1]);
  const cli = await runMain(bg, ["kumquatsecret9"]);
  assertStringIncludes(cli.err, "results may show secrets the older rules let through");
  const mcp = await callDeja({ mode: "recall", query: "kumquatsecret9" }, {
    env: bg,
    cwd: "/",
    log() {},
  });
  const text = mcp.content[0].text;
  assert(!text.includes("kumquatsecret9 "), text);
  assert(!/docker login/.test(text), text);
  assertStringIncludes(text, "read again under new secret-redaction rules");
  const hook = await runMain(
    bg,
    ["hook-prompt"],
    JSON.stringify({
      hook_event_name: "UserPromptSubmit",
      session_id: "s9",
      cwd: "/w/app",
      prompt: "docker login kumquatsecret9",
    }),
  );
  assertEquals([hook.code, hook.out], [0, ""]);
  const log = hookLogPath(bg);
  assert(existsSync(log));
  assertStringIncludes(readFileSync(log, "utf8"), "older secret-redaction rules");
});

// Trial 132 F1 (High): after an upgrade, a store changed since was read in by the first search,
// which then said `refreshed` and answered from the other harnesses' stores as the older rules
// left them.
Deno.test("a search reading a changed store in still holds back the stores older rules read", async () => {
  const { vars } = world();
  const codex = join(vars.DEJA_HOME, "..", "codex");
  const day = join(codex, "sessions", "2026", "07", "31");
  mkdirSync(day, { recursive: true });
  const DAY = join(REPO, "fixtures", "registry", "codex", "sessions", "2026", "07", "31");
  for (const f of readdirSync(DAY)) copyFileSync(join(DAY, f), join(day, f));
  const withCodex = { ...vars, DEJA_CODEX_ROOT: codex };
  const env = testEnv(vars.HOME, withCodex);
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const store = Store.open(indexPath(env));
  try {
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = 'codex'").run(
      REVISIONS.codex ?? 0,
    );
  } finally {
    store.close();
  }
  appendFileSync(
    join(vars.DEJA_CLAUDE_ROOT, "-w-app", `${SID}.jsonl`),
    claudeLine(2, "More.", SID),
  );
  const bg = testEnv(vars.HOME, {
    ...withCodex,
    DEJA_NO_REFRESH: "",
    DEJA_SELF: JSON.stringify(["true"]),
  });
  const f = await freshen(bg, parsers, { budgetMs: 30_000 });
  assertEquals(f.state, "catching_up", JSON.stringify(f));
  assert((f.redaction ?? 0) >= 1, JSON.stringify(f));
  assertEquals(f.reread, ["codex"]);
});

// Trial 132 F3: a search that read every store an older redaction read again left the old
// values in the vocabulary, and no later run made it again.
Deno.test("a refresh on use over stores older rules read leaves the vocabulary to the next full run", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  readByOlderRules(path);
  const store = Store.open(path);
  try {
    store.db.prepare("INSERT INTO vocab(term) VALUES ('kumquatsecret9')").run();
  } finally {
    store.close();
  }
  appendFileSync(
    join(vars.DEJA_CLAUDE_ROOT, "-w-app", `${SID}.jsonl`),
    claudeLine(2, "More.", SID),
  );
  const bg = testEnv(vars.HOME, {
    ...vars,
    DEJA_NO_REFRESH: "",
    DEJA_SELF: JSON.stringify(["true"]),
  });
  const f = await freshen(bg, parsers, { budgetMs: 30_000 });
  assertEquals(f.read, 1, JSON.stringify(f));
  assertEquals(upToDate(env), null, "no stat manifest vouches while the vocabulary is owed");
  await runIndex(env, parsers);
  const after = Store.open(path, { readOnly: true });
  try {
    const held = after.db.prepare("SELECT count(*) AS n FROM vocab WHERE term = 'kumquatsecret9'")
      .get() as { n: number };
    assertEquals(held.n, 0, "the full run made the vocabulary again");
    const owed = after.db.prepare("SELECT count(*) AS n FROM meta WHERE key = 'vocab_owed'")
      .get() as { n: number };
    assertEquals(owed.n, 0);
  } finally {
    after.close();
  }
});

// Trial 132 F2: with the refresh off, a search showed such a secret and said nothing.
Deno.test("with the refresh off, a command says the index holds what older rules let through", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const r = await runMain(env, ["kumquatsecret9"]);
  assertStringIncludes(r.err, "read under older secret-redaction rules");
  // `--json`, read by programs and agents, gives none of it (trial 135 F2).
  const j = await runMain(env, ["kumquatsecret9", "--json"]);
  assertEquals(j.code, 2, j.out);
  assert(!j.out.includes("docker login"), j.out);
  assertStringIncludes(JSON.parse(j.out).error, "--json gives nothing from the index until then");
});

// Trial 133 F1, F5: two commands at once, or a read-only index folder, answered with what older
// redaction rules let through and said nothing: whatever the state, such stores are said.
Deno.test("every freshness with stores older rules read says so", async () => {
  const { env, vars } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const bg = testEnv(vars.HOME, { ...vars, DEJA_NO_REFRESH: "" });
  // No background run may start here: the step answers `fresh`, and says the stores.
  const f = await freshen(bg, parsers, { budgetMs: 0, background: false });
  assertEquals([f.state, f.redaction], ["fresh", 1], JSON.stringify(f));
  assertStringIncludes(freshnessNote(f), "read under older secret-redaction rules");
  const ro = freshnessNote({ ...f, state: "read_only" });
  assertStringIncludes(ro, "read-only");
  assertStringIncludes(ro, "results may show secrets those rules let through");
});

// Trial 133 F10: with nothing reading the index again, MCP said "ask again", a loop.
Deno.test("MCP with the refresh off says nothing reads the index again, not to ask again", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const r = await callDeja({ mode: "recall", query: "kumquatsecret9" }, {
    env,
    cwd: "/",
    log() {},
  });
  const text = r.content[0].text;
  assertStringIncludes(text, "nothing is reading it again now");
  assert(!text.includes("kumquatsecret9 "), text);
});

// Trial 133 F2 (High): right after an upgrade `deja view` showed on its pages secrets the new
// rules mask, and said nothing.
Deno.test("deja view shows nothing of text older redaction rules wrote, and says why", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const srv = await startView({ env, token: "k".repeat(32) });
  try {
    for (const page of ["/", "/search?q=kumquatsecret9"]) {
      const r = await fetch(`http://127.0.0.1:${srv.port}/${srv.token}${page}`);
      const body = await r.text();
      assertEquals(r.status, 503, page);
      assert(!body.includes("kumquatsecret9 "), body);
      assertStringIncludes(body, "older secret-redaction rules");
    }
  } finally {
    await srv.close();
  }
});

// Trial 135 F1 (High): during the re-read after an upgrade `deja handoff --to codex` started
// the agent with secrets the new rules mask in its first prompt.
Deno.test("handoff starts no agent with text older redaction rules wrote; --print still prints", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  readByOlderRules(indexPath(env));
  const r = await runMain(env, ["handoff", "--to", "codex", SID.slice(0, 8)]);
  assertEquals(r.code, 2, r.err);
  assertStringIncludes(r.err, "no session is handed to an agent until then");
  const p = await runMain(env, ["handoff", "--print", SID.slice(0, 8)]);
  assertEquals(p.code, 0, p.err);
  assertStringIncludes(p.err, "older secret-redaction rules");
});

// Trial 135 F5: after the re-read, values an older deja had let through were still bytes in
// index.db's free pages (freed by the older deja, which did not zero them); the re-read's own
// secure delete zeroes only what it frees. A run reading stores again for new redaction rules
// rewrites the file, as `deja forget` does.
Deno.test("after a redaction re-read, index.db holds no byte of what older rules let through", async () => {
  const { env } = world();
  await runIndex(env, parsers);
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    store.db.exec("PRAGMA secure_delete = OFF");
    store.db.prepare(
      "UPDATE events SET text = 'docker login -p Zq7hunter2Secret' WHERE kind = 'user'",
    )
      .run();
    // As an older deja's own runs left it: pages holding the value, freed and not zeroed.
    store.db.exec("CREATE TABLE scratch(t TEXT)");
    store.db.prepare("INSERT INTO scratch VALUES (?)").run(
      "Zq7hunter2Secret ".repeat(2000),
    );
    store.db.exec("DROP TABLE scratch");
    // And in the free space of a page that stays in use: a row written and deleted since.
    // (trial 135: a `commands` page.)
    store.db.prepare(
      `INSERT INTO commands(event_id, session_id, command)
       SELECT max(id), (SELECT max(id) FROM sessions), 'zip -P Zq7hunter2Secret a.zip'
       FROM events`,
    ).run();
    store.db.prepare("DELETE FROM commands WHERE command LIKE 'zip -P %'").run();
    store.db.prepare("UPDATE sources SET reader = ? WHERE harness = 'claude'").run(
      REVISIONS.claude,
    );
    editLastRun(store, (last) => delete last.redaction);
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    store.close();
  }
  olderManifest(path);
  const held = () =>
    [path, `${path}-wal`].filter((f) =>
      existsSync(f) && readFileSync(f).includes("Zq7hunter2Secret")
    );
  assertEquals(held(), [path], "the setup leaves the value in the file");
  const cli = await runMain(env, ["index", "--json"]);
  assertEquals(cli.code, 0, cli.err);
  assertEquals(JSON.parse(cli.out).reread.redaction, 1, cli.out);
  assertEquals(userTexts(path), ["the parser crashes on unicode input"]);
  assertEquals(held(), [], "no byte of the old value is left in the index's files");
});
