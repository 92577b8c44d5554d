/**
 * A damaged index.db (bytes flipped in its pages, as a disk or a copy gone wrong leaves it):
 * commands name it in one line with the rebuild hint and exit 2, hooks stay silent, the MCP tool
 * answers with an error text, and `deja index --rebuild` moves it aside and starts a new one that
 * keeps notes and forgotten sessions. Also the modes deja sets on an index it opens for writing,
 * and the exit status of an index run where every store failed.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import process from "node:process";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { checkIndex } from "../lib/store.ts";
import { freshen, freshnessNote } from "../lib/fresh/freshen.ts";
import { callDeja } from "../lib/mcp/call.ts";
import { claudeLines, type SessionSpec } from "./_memory.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";

function run(args: string[], vars: Record<string, string>, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    args,
    env: testEnv(vars.HOME, vars),
    cwd: "/w/app",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(stdin),
  };
  return main(io).then((code) => ({ code, out: out.join(""), err: err.join("") }));
}

const SESSIONS: SessionSpec[] = ["a", "b", "c"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: Array.from({ length: 40 }, (_, n) => (
    n % 2
      ? { say: `parser answer ${k} ${n} ` + "tokenizer unicode handling ".repeat(20) }
      : { bash: `cargo test parser_${k}_${n}`, out: "test result: ok ".repeat(30) }
  )),
}));

/** A temporary world with three Claude sessions indexed, a note remembered, one session forgotten. */
async function world() {
  const dir = tempDir("deja-damage-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  for (const s of SESSIONS) {
    writeFileSync(join(proj, `${s.id}.jsonl`), claudeLines(s).join("\n") + "\n");
  }
  const vars = {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
    TZ: "UTC",
  };
  assertEquals((await run(["index", "--quiet"], vars)).code, 0);
  assertEquals((await run(["remember", "the zanzibar flag fixed the build"], vars)).code, 0);
  const forgot = await run(["forget", "--session", "cccccccc"], vars);
  assertEquals(forgot.code, 0, forgot.err);
  const db = join(vars.DEJA_HOME, "index.db");
  return { dir, vars, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Flips bytes in every page of `db` outside the schema table (or only in the pages of the tables
 * whose names match `only`): the page-type byte and 24 more (seeded, so always the same).
 */
function flipDataPages(db: string, only?: RegExp): void {
  const c = new DatabaseSync(db);
  c.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const size = (c.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
  const pages = c.prepare("SELECT name, pageno FROM dbstat").all() as Array<
    { name: string; pageno: number }
  >;
  const schema = new Set(pages.filter((r) => r.name === "sqlite_schema").map((r) => r.pageno));
  // With `only`: the pages of the tables and indexes whose names match, no others.
  const kept = only && new Set(pages.filter((r) => !only.test(r.name)).map((r) => r.pageno));
  c.close();
  const bytes = readFileSync(db);
  let seed = 7;
  for (let page = 1; page * size < bytes.length; page++) {
    if (schema.has(page + 1) || kept?.has(page + 1)) continue;
    bytes[page * size] ^= 0xff; // the b-tree page type: any read of the page sees it
    for (let k = 0; k < 24; k++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytes[page * size + (seed % size)] ^= 0xff;
    }
  }
  writeFileSync(db, bytes);
}

function assertOneLine(r: { code: number; out: string; err: string }, db: string, what: string) {
  assertEquals(r.code, 2, `${what}: ${r.err}`);
  const lines = r.err.trimEnd().split("\n");
  assertEquals(lines.length, 2, `${what}: one line and a hint, got:\n${r.err}`);
  assertStringIncludes(lines[0], `deja: the index ${db} is damaged`);
  assertStringIncludes(lines[1], "deja index --rebuild");
  assert(!/\n\s+at /.test(r.err), `${what}: no stack trace`);
}

Deno.test("a damaged index is named in one line with the rebuild hint by search, last, stats, ctx, show and index", async () => {
  const w = await world();
  try {
    flipDataPages(w.db);
    assert(checkIndex(w.db) !== null, "quick_check sees the damage");
    for (
      const args of [
        ["search", "parser"],
        ["parser", "tokenizer"],
        ["last"],
        ["stats"],
        ["ctx", "parser"],
        ["show", "aaaaaaaa"],
        ["index"],
        // Trial 77: the watch said it was watching, then exited 2.
        ["index", "--watch"],
      ]
    ) {
      assertOneLine(await run(args, w.vars), w.db, args.join(" "));
    }
  } finally {
    w.cleanup();
  }
});

Deno.test("deja index with nothing changed names damage in pages its stat pass does not read", async () => {
  const w = await world();
  try {
    // The events' pages only: the `sources` rows the stat pass compares stay readable.
    flipDataPages(w.db, /^events$/);
    assert(checkIndex(w.db) !== null, "quick_check sees the damage");
    // Trial 86 F1: `--quiet` first said nothing, exit 0, wrote into the file, and saved the
    // manifest after which `deja index` said "up to date".
    const before = readFileSync(w.db);
    const quiet = await run(["index", "--quiet"], w.vars);
    assertEquals(quiet.code, 2, quiet.err);
    assertStringIncludes(quiet.err, "is damaged");
    assertEquals(readFileSync(w.db), before, "nothing written");
    assertOneLine(await run(["index"], w.vars), w.db, "index, nothing changed");
    assertOneLine(await run(["index", "--json"], w.vars), w.db, "index --json, nothing changed");
    // Trial 74: a command whose reads miss the damaged pages said nothing of the damage found,
    // and its refresh wrote into the file. Said now, nothing written.
    const last = await run(["last", "--json"], w.vars);
    assertEquals(last.code, 0, last.err);
    assertStringIncludes(last.err, "deja: the index was found damaged (");
    assertStringIncludes(last.err, "'deja index --rebuild' builds a new one");
    assertEquals(JSON.parse(last.out).freshness.state, "damaged");
    const rebuilt = await run(["index", "--rebuild"], w.vars);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    const after = await run(["last"], w.vars);
    assert(!after.err.includes("damaged"), after.err);
  } finally {
    w.cleanup();
  }
});

Deno.test("a damaged schema or a file that is no database is named the same way", async () => {
  const w = await world();
  try {
    const good = readFileSync(w.db);
    const bytes = Uint8Array.from(good);
    for (let i = 200; i < 4096; i += 7) bytes[i] ^= 0x5a; // page 1: the schema table
    writeFileSync(w.db, bytes);
    assertOneLine(await run(["search", "parser"], w.vars), w.db, "damaged schema");
    writeFileSync(w.db, new TextEncoder().encode("not sqlite at all ".repeat(300)));
    assertOneLine(await run(["last"], w.vars), w.db, "not a database");
    assertOneLine(await run(["index"], w.vars), w.db, "index on not a database");
  } finally {
    w.cleanup();
  }
});

Deno.test("hooks stay silent and the MCP tool answers an error text on a damaged index", async () => {
  const w = await world();
  try {
    flipDataPages(w.db);
    const event = JSON.stringify({ session_id: "s1", cwd: "/w/app", prompt: "parser tokenizer" });
    for (const hook of ["hook-context", "hook-prompt", "hook-tool", "hook-tool-after"]) {
      const r = await run([hook], w.vars, event);
      assertEquals([r.code, r.out, r.err], [0, "", ""], hook);
    }
    const logged: string[] = [];
    const res = await callDeja({ mode: "recall", query: "parser tokenizer" }, {
      env: testEnv(w.vars.HOME, w.vars),
      cwd: "/w/app",
      log: (t) => logged.push(t),
    });
    assertEquals(res.isError, true);
    assertStringIncludes(res.content[0].text, `the index ${w.db} is damaged`);
    assertStringIncludes(res.content[0].text, "deja index --rebuild");
    assertEquals(logged, [], "no stack trace logged");
  } finally {
    w.cleanup();
  }
});

Deno.test("index --rebuild moves a damaged index aside and starts a new one keeping notes and forgotten sessions", async () => {
  const w = await world();
  try {
    flipDataPages(w.db);
    const damaged = readFileSync(w.db);
    const r = await run(["index", "--rebuild"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "moved it to");
    const aside = readdirSync(w.vars.DEJA_HOME).filter((f) =>
      /^index\.db\.corrupt-\d{8}T\d{6}$/.test(f)
    );
    assertEquals(aside.length, 1, readdirSync(w.vars.DEJA_HOME).join(" "));
    assertEquals(readFileSync(join(w.vars.DEJA_HOME, aside[0])), damaged, "kept byte for byte");
    assertEquals(checkIndex(w.db), null, "the new index is sound");
    const found = await run(["search", "--json", "parser", "tokenizer"], w.vars);
    assertEquals(found.code, 0, found.err);
    const ids = (JSON.parse(found.out).results as Array<{ id: string }>).map((x) => x.id);
    assert(ids.some((id) => id.startsWith("aaaaaaaa")), ids.join(" "));
    assert(!ids.some((id) => id.startsWith("cccccccc")), "the forgotten session stays forgotten");
    const note = await run(["search", "zanzibar"], w.vars);
    assertEquals(note.code, 0, note.err);
    assertStringIncludes(note.out, "zanzibar");
    // Trial 77: the set-aside copy holds all the old index held; doctor names it, with its rm.
    const doc = await run(["doctor"], { ...w.vars, DEJA_NO_REFRESH: "1" });
    assertStringIncludes(
      doc.out,
      `1 damaged index set aside by a rebuild still holds the old text: rm ${
        join(w.vars.DEJA_HOME, aside[0])
      }`,
    );
    const dj = JSON.parse((await run(["doctor", "--json"], w.vars)).out);
    assert((dj.index.set_aside as string[]).includes(join(w.vars.DEJA_HOME, aside[0])));
  } finally {
    w.cleanup();
  }
});

Deno.test("the index directory and file get 0700 and 0600 each time the index is written, whatever they were, a shared directory left shared", async () => {
  const w = await world();
  try {
    chmodSync(w.vars.DEJA_HOME, 0o777);
    chmodSync(w.db, 0o644);
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(statSync(w.vars.DEJA_HOME).mode & 0o777, 0o700);
    assertEquals(statSync(w.db).mode & 0o777, 0o600);
    // A copied-in index (0644) in a fresh directory made by someone else (0777).
    const other = join(w.dir, "other");
    mkdirSync(other, { mode: 0o777 });
    chmodSync(other, 0o777);
    copyFileSync(w.db, join(other, "index.db"));
    chmodSync(join(other, "index.db"), 0o644);
    assertEquals((await run(["index", "--quiet"], { ...w.vars, DEJA_HOME: other })).code, 0);
    assertEquals(statSync(other).mode & 0o777, 0o700);
    assertEquals(statSync(join(other, "index.db")).mode & 0o777, 0o600);
    // A shared directory (sticky, as /tmp is) keeps its mode: only the index is made private.
    const shared = join(w.dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    assertEquals((await run(["index", "--quiet"], { ...w.vars, DEJA_HOME: shared })).code, 0);
    assertEquals(statSync(shared).mode & 0o7777, 0o1777);
    assertEquals(statSync(join(shared, "index.db")).mode & 0o777, 0o600);
    // Run as root, another user's directory keeps its mode (trial 28: a 2775 one became 700).
    if (process.getuid?.() === 0) {
      const theirs = join(w.dir, "theirs");
      mkdirSync(theirs);
      chmodSync(theirs, 0o2775);
      chownSync(theirs, 65534, 65534);
      assertEquals((await run(["index", "--quiet"], { ...w.vars, DEJA_HOME: theirs })).code, 0);
      assertEquals(statSync(theirs).mode & 0o7777, 0o2775);
    }
  } finally {
    w.cleanup();
  }
});

Deno.test("index exits 2 and says so when every store failed, and 3 with the errors when some did", async () => {
  const w = await world();
  try {
    // A harness store that is no database: its own error, never the index's.
    const oc = join(w.dir, "opencode");
    mkdirSync(oc);
    writeFileSync(join(oc, "opencode.db"), "hello, not sqlite\n".repeat(100));
    const vars = { ...w.vars, DEJA_OPENCODE_ROOT: oc, DEJA_HOME: join(w.dir, "fresh") };
    const some = await run(["index", "--harness", "claude", "--harness", "opencode"], vars);
    assertEquals(some.code, 3, some.err);
    assertStringIncludes(some.out, `error: ${join(oc, "opencode.db")}: file is not a database`);
    assertEquals(some.err.includes("damaged"), false, some.err);
    const none = await run(["index", "--harness", "opencode"], vars);
    assertEquals(none.code, 2, none.out);
    assertStringIncludes(none.err, "every store deja found failed to index");
    assertEquals(none.err.includes("damaged"), false, none.err);
    assertEquals((await run(["index", "--harness", "opencode", "--json"], vars)).code, 2);
  } finally {
    w.cleanup();
  }
});

Deno.test("doctor finds damage no query has read yet, names it and exits 1", async () => {
  const w = await world();
  try {
    // The last page of a table or index in the file: the kind of damage a plain run never
    // reads. (Not the file's last page: after a forget that may be a free page, which no
    // check reads either — the test failed on some runs.)
    const c = new DatabaseSync(w.db);
    c.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const size = (c.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
    const page = (c.prepare("SELECT max(pageno) AS p FROM dbstat").get() as { p: number }).p;
    c.close();
    const bytes = readFileSync(w.db);
    const last = (page - 1) * size;
    for (let k = 0; k < size; k += 7) bytes[last + k] ^= 0x5a;
    writeFileSync(w.db, bytes);
    assert(checkIndex(w.db) !== null, "quick_check sees the damage");
    const r = await run(["doctor", "--json"], { ...w.vars, DEJA_NO_REFRESH: "1" });
    assertEquals(r.code, 1, r.err);
    assertStringIncludes(JSON.parse(r.out).index.error, "damaged");
    assertStringIncludes(JSON.parse(r.out).index.error, "deja index --rebuild");
    // Trial 76: "fresh" beside the damage, and the searches after it said nothing of it.
    assertEquals(JSON.parse(r.out).index.fresh, false);
    const listed = await run(["last", "--json"], { ...w.vars, DEJA_NO_REFRESH: "" });
    assertEquals(JSON.parse(listed.out).freshness.state, "damaged");
    assertStringIncludes(listed.err, "deja: the index was found damaged (");
    // Trial 77: a hook answered from an index found damaged; it stays silent, and logs why.
    const ev = JSON.stringify({
      session_id: "s9",
      cwd: "/w/app",
      tool_name: "Bash",
      tool_input: { command: "cargo test parser_a_0" },
    });
    const hooked = await run(["hook-tool"], { ...w.vars, DEJA_NO_REFRESH: "1" }, ev);
    assertEquals([hooked.code, hooked.out], [0, ""]);
    assertStringIncludes(
      readFileSync(join(w.vars.DEJA_HOME, "hooks.log"), "utf8"),
      "the index is damaged",
    );
  } finally {
    w.cleanup();
  }
});

// Regression (new user, 2026-12, compiled binary): a search on a damaged index whose stores had
// changed first said "the index is catching up … being read in the background", then that the
// index is damaged: the freshen step took the damage for a busy writer and sent it to a
// background run. Only the damage message (with its hint) may be said.
Deno.test("freshen on use neither announces nor starts a background run when the index is damaged", async () => {
  const w = await world();
  try {
    flipDataPages(w.db, /fts|^events$/); // what a search reads; the stamps of the stores read fine
    const store = join(w.vars.DEJA_CLAUDE_ROOT, "-w-app", `${SESSIONS[0].id}.jsonl`);
    appendFileSync(store, claudeLines(SESSIONS[0]).slice(-1).join("\n") + "\n");
    const f = await freshen(testEnv(w.vars.HOME, w.vars), undefined, { background: false });
    assertEquals([f.state === "catching_up", f.background, freshnessNote(f)], [false, false, ""]);
    assertOneLine(await run(["search", "parser"], w.vars), w.db, "search after a change");
  } finally {
    w.cleanup();
  }
});

// Trial 67: a rebuild of a damaged index dropped, without a word, two sessions only the old
// index held (their files emptied or deleted); the file moved aside still listed them.
Deno.test("index --rebuild of a damaged index names the sessions only the damaged one held", async () => {
  const w = await world();
  try {
    rmSync(join(w.dir, "claude", "-w-app", `${SESSIONS[0].id}.jsonl`));
    assertEquals(
      (await run(["index", "--quiet"], w.vars)).code,
      0,
      "the gone store's session is kept",
    );
    flipDataPages(w.db, /^events_fts/);
    // Forgotten while the damaged index still held it (its tombstone written, the removal
    // stopped by the damage): left out by the tombstone, never named as dropped (trial 69).
    const b = SESSIONS[1].id;
    appendFileSync(
      join(w.vars.DEJA_HOME, "tombstones.jsonl"),
      JSON.stringify({ key: `claude:${b}`, harness: "claude", id: b, at: 1, reason: "test" }) +
        "\n",
    );
    const r = await run(["index", "--rebuild"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "moved it to");
    assertStringIncludes(
      r.err,
      "the rebuild dropped 1 session no store returns now (aaaaaaaa claude",
    );
    assertStringIncludes(r.err, "still holds them");
    assert(!r.err.includes("bbbbbbbb"), r.err);
    const json = await run(["index", "--rebuild", "--json"], w.vars);
    assertEquals(
      JSON.parse(json.out).dropped ?? null,
      null,
      "nothing more to drop the second time",
    );
  } finally {
    w.cleanup();
  }
});

// Trial 67: forget on a damaged index exited 2 with the damage line alone, yet recorded the
// tombstones `forget --list` then showed.
Deno.test("forget on a damaged index says the sessions are recorded as forgotten, and the rebuild leaves them out", async () => {
  const w = await world();
  try {
    flipDataPages(w.db, /^events_fts/);
    const r = await run(["forget", "--session", "bbbbbbbb"], w.vars);
    assertEquals(r.code, 2, r.err);
    assertStringIncludes(r.err, "is damaged");
    assertStringIncludes(
      r.err,
      "the 1 session is recorded as forgotten, but the index still holds it",
    );
    assertStringIncludes(r.err, "deja index --rebuild builds a new index without them");
    const rebuilt = await run(["index", "--rebuild"], w.vars);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    // Forgotten, not dropped: not named as a session no store returns (trial 69).
    assert(!rebuilt.err.includes("bbbbbbbb"), rebuilt.err);
    const found = await run(["search", "--json", "parser", "tokenizer"], w.vars);
    const ids = (JSON.parse(found.out).results as Array<{ id: string }>).map((x) => x.id);
    assert(!ids.some((id) => id.startsWith("bbbbbbbb")), ids.join(" "));
    assert(ids.some((id) => id.startsWith("aaaaaaaa")), ids.join(" "));
  } finally {
    w.cleanup();
  }
});

// Trial 67: index.db deleted 0.8 s into a run: "400 sessions written; the index holds 0", exit 0.
Deno.test("a run whose index file is deleted while it writes says so and fails", async () => {
  const w = await world();
  try {
    const { runIndex } = await import("../lib/indexer.ts");
    const { parsers } = await import("../parsers/mod.ts");
    let removed = false;
    const env = testEnv(w.vars.HOME, w.vars);
    const err = await runIndex(env, parsers, {
      rebuild: true,
      progress: () => {
        if (!removed) rmSync(w.db);
        removed = true;
      },
    }).then(() => undefined, (e) => e as Error);
    assert(removed, "the run reported progress");
    assert(err, "the run failed");
    assertStringIncludes(err!.message, "was deleted or replaced while this run wrote it");
  } finally {
    w.cleanup();
  }
});

// Trial 86 F2: `stats` and `sources` said nothing of an index a command before had found
// damaged, exit 0.
Deno.test("stats and sources say the index was found damaged", async () => {
  const w = await world();
  try {
    const { noteDamage } = await import("../lib/store.ts");
    noteDamage(w.db, "database disk image is malformed");
    for (const args of [["stats"], ["sources"], ["sources", "--json"]]) {
      const r = await run(args, w.vars);
      assertStringIncludes(
        r.err,
        "deja: the index was found damaged (database disk image",
        args.join(" "),
      );
    }
  } finally {
    w.cleanup();
  }
});

// Trial 111 F8: remember said "the next 'deja index' picks it up", which refused the index.
Deno.test("remember on a damaged index names the rebuild that indexes the note", async () => {
  const w = await world();
  try {
    const bytes = readFileSync(w.db);
    for (let i = 0; i < 100; i++) bytes[i] ^= 0xa5; // the header: no database at all
    writeFileSync(w.db, bytes);
    const r = await run(["remember", "the okapiplinth flag fixed it"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.err, "not indexed yet: the index");
    assertStringIncludes(r.err, "hint: 'deja index --rebuild' builds a new index with it");
    assert(!r.err.includes("the next 'deja index' picks it up"), r.err);
    const mcp = await callDeja({ mode: "remember", text: "the okapiplinth flag again" }, {
      env: testEnv(w.vars.HOME, w.vars),
      cwd: "/w/app",
      log: () => {},
    });
    assertStringIncludes(mcp.content[0].text, "'deja index --rebuild' builds a new index with it");
    // What the hint says works; a plain run does not.
    assertEquals((await run(["index"], w.vars)).code, 2);
    assertEquals((await run(["index", "--rebuild"], w.vars)).code, 0);
    const found = await run(["okapiplinth"], w.vars);
    assertEquals(found.code, 0, found.err);
  } finally {
    w.cleanup();
  }
});
