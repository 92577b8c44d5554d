/**
 * Bad input through the whole index run: each case is skipped, counted and
 * reported, the rest is indexed, and nothing good is lost.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { testEnv } from "./_fixture.ts";
import { exactly } from "./_env.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { search } from "../lib/search.ts";
import { parsers } from "../parsers/mod.ts";
import { uid } from "../core/runtime.ts";
import { cap } from "../core/text.ts";
import { MAX_TEXT } from "../lib/prepare.ts";
import { binary, runBinary } from "./_binary.ts";
import { tempDir } from "./_tmp.ts";
import { claudeLine } from "./_memory.ts";

const claude = parsers.filter((p) => p.id === "claude");
const crush = parsers.filter((p) => p.id === "crush");

/** A user line (even numbers are user lines in claudeLine). */
const rec = (sid: string, i: number, text: string) => claudeLine(2 * i, text, sid);

function claudeTree() {
  const dir = tempDir("deja-bad-");
  const proj = join(dir, "projects", "-w-app");
  mkdirSync(proj, { recursive: true });
  const env = testEnv(join(dir, "home"), {
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "projects"),
  });
  return { dir, proj, env };
}

function texts(env: ReturnType<typeof testEnv>, sid: string): string[] {
  const s = Store.open(indexPath(env));
  try {
    return (s.db.prepare(
      "SELECT e.text FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.native_id = ? ORDER BY e.seq",
    ).all(sid) as Array<{ text: string }>).map((r) => r.text);
  } finally {
    s.close();
  }
}

Deno.test("bad lines in JSONL stores are counted per source and every good record is kept", async () => {
  const { proj, env } = claudeTree();
  const sid = "aaaaaaaa-0000-4000-8000-000000000001";
  // Bad bytes before a word in a message's text: the message is kept, the bytes replaced.
  const [head, tail] = rec(sid, 5, "broken MARK record").split("MARK");
  const enc = new TextEncoder();
  const invalid = new Uint8Array([
    ...enc.encode(head),
    0xff,
    0xfe,
    0xc3,
    ...enc.encode(`zebra${tail}`),
  ]);
  const f = join(proj, `${sid}.jsonl`);
  const fd = openSync(f, "w");
  writeSync(fd, rec(sid, 1, "alpha record"));
  writeSync(fd, "{this is not json\n");
  writeSync(fd, invalid);
  writeSync(fd, rec(sid, 2, "beta record"));
  writeSync(fd, '{"type":"user","sessionId":"' + sid + '","message":{"role":"user","content":"gam');
  closeSync(fd);
  writeFileSync(join(proj, "bbbbbbbb-0000-4000-8000-000000000002.jsonl"), "");
  const r = await runIndex(env, claude);
  const h = r.harnesses[0];
  assertEquals(h.errors, []);
  assertEquals(h.skipped.malformed_json, 1); // the bad line; the unterminated tail is pending, not bad
  assertEquals(h.skipped.invalid_utf8, 1); // repaired and kept, counted once
  assertEquals(texts(env, sid), [
    "alpha record",
    "broken \ufffd\ufffd\ufffdzebra record",
    "beta record",
  ]);
  const s = Store.open(indexPath(env));
  try {
    assertEquals(search(s, "zebra").results.length, 1);
  } finally {
    s.close();
  }
  // The harness finishes its line: the next run picks it up.
  writeFileSync(f, 'ma record"},"uuid":"u3","timestamp":"2026-11-01T10:00:09Z"}\n', { flag: "a" });
  await runIndex(env, claude);
  assertEquals(texts(env, sid), [
    "alpha record",
    "broken \ufffd\ufffd\ufffdzebra record",
    "beta record",
    "gamma record",
  ]);
});

Deno.test("a 50 MB single line is indexed with its text capped, never held whole", async () => {
  // Before: lines over 32 MiB were skipped as oversized (and a 30 MB line was held several times).
  const { proj, env } = claudeTree();
  const sid = "cccccccc-0000-4000-8000-000000000003";
  const f = join(proj, `${sid}.jsonl`);
  const fd = openSync(f, "w");
  writeSync(fd, rec(sid, 1, "before the huge line"));
  const chunk = "x".repeat(1 << 20);
  writeSync(fd, `{"type":"user","sessionId":"${sid}","message":{"role":"user","content":"`);
  for (let i = 0; i < 50; i++) writeSync(fd, chunk);
  writeSync(fd, `"}}\n`);
  writeSync(fd, rec(sid, 2, "after the huge line"));
  closeSync(fd);
  const r = await runIndex(env, claude);
  // Nothing skipped; the line kept shortened is counted as such.
  assertEquals(r.harnesses[0].skipped, { cut_long: 1 });
  const huge = "x".repeat(50 << 20);
  assertEquals(texts(env, sid), [
    "before the huge line",
    cap(huge, MAX_TEXT, 0.1),
    "after the huge line",
  ]);
});

function crushTree() {
  const dir = tempDir("deja-badsql-");
  const data = join(dir, "data");
  mkdirSync(data);
  const projects: Array<Record<string, string>> = [];
  const mk = (name: string) => {
    const p = join(dir, name);
    mkdirSync(join(p, ".crush"), { recursive: true });
    projects.push({ path: p, data_dir: join(p, ".crush"), last_accessed: "2026-11-01T00:00:00Z" });
    return join(p, ".crush", "crush.db");
  };
  const good = mk("good");
  const locked = mk("locked");
  const corrupt = mk("corrupt");
  writeFileSync(join(data, "projects.json"), JSON.stringify({ projects }));
  for (const [path, word] of [[good, "goodword"], [locked, "lockedword"]]) {
    const db = new DatabaseSync(path);
    db.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER,
        prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, created_at INTEGER, updated_at INTEGER,
        summary_message_id TEXT);
      CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT,
        created_at INTEGER, updated_at INTEGER, finished_at INTEGER, provider TEXT);
      INSERT INTO sessions VALUES ('s-${word}', NULL, 'title', 1, 0, 0, 0, 1754000000, 1754000000, NULL);
      INSERT INTO messages VALUES ('m-${word}', 's-${word}', 'user',
        '[{"type":"text","data":{"text":"please find the ${word}"}}]', '', 1754000000, 1754000000, NULL, NULL);
    `);
    db.close();
  }
  writeFileSync(corrupt, "SQLite format 3\0" + "garbage".repeat(2000));
  const env = testEnv(join(dir, "home"), {
    DEJA_HOME: join(dir, "deja"),
    DEJA_CRUSH_ROOT: data,
    DEJA_SQLITE_TIMEOUT_MS: "200",
  });
  return { env, locked, corrupt };
}

Deno.test("a SQLite store held in a write transaction by another process is reported, then read next run", async () => {
  const { env, locked } = crushTree();
  // Another process takes an EXCLUSIVE lock and holds it.
  const holder = spawn(process.execPath, [
    "eval",
    `import { DatabaseSync } from "node:sqlite";
     const db = new DatabaseSync(${JSON.stringify(locked)});
     db.exec("BEGIN EXCLUSIVE; UPDATE sessions SET title = 'x'");
     console.log("held");
     setTimeout(() => { db.exec("ROLLBACK"); db.close(); }, 4000);`,
  ], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
  const r = await runIndex(env, crush);
  const h = r.harnesses[0];
  assert(
    h.errors.some((e) => e.includes(locked) && /locked|busy/i.test(e)),
    JSON.stringify(h.errors),
  );
  assert(h.errors.some((e) => e.includes("corrupt")), "the corrupt store is reported too");
  const s1 = Store.open(indexPath(env));
  assertEquals(search(s1, "goodword").results.length, 1);
  assertEquals(search(s1, "lockedword").results.length, 0);
  const errorOf = (s: Store) =>
    (s.db.prepare("SELECT error FROM sources WHERE path = ?").get(locked) as { error: string })
      .error;
  assertEquals(errorOf(s1), "database is locked");
  s1.close();
  // Met locked again: counted, so the next retry waits longer (trial 119 F1).
  await runIndex(env, crush);
  const again = Store.open(indexPath(env));
  assertEquals(errorOf(again), "database is locked (2 tries in a row)");
  again.close();
  await new Promise((resolve) => holder.on("exit", resolve));
  const r2 = await runIndex(env, crush);
  assert(!r2.harnesses[0].errors.some((e) => e.includes(locked)), "read once the lock is gone");
  const s2 = Store.open(indexPath(env));
  assertEquals(search(s2, "lockedword").results.length, 1);
  s2.close();
});

Deno.test("a corrupt SQLite store is reported per source and the run goes on", async () => {
  const { env, corrupt } = crushTree();
  const r = await runIndex(env, crush);
  const err = r.harnesses[0].errors.find((e) => e.includes(corrupt));
  assert(err, "corrupt store not reported");
  assertStringIncludes(err!.toLowerCase(), "not a database");
  const s = Store.open(indexPath(env));
  assertEquals(search(s, "goodword").results.length, 1);
  s.close();
});

// Root reads every directory whatever its mode, so as root the unreadable case runs the
// compiled binary as an unprivileged user through setpriv.
const canDropPrivileges = uid() !== 0 ||
  spawnSync("setpriv", ["--version"], { encoding: "utf8" }).status === 0;

Deno.test({
  name: "a store directory without read permission is reported and the readable ones are indexed",
  ignore: !canDropPrivileges,
  fn: () => {
    const base = tempDir("deja-perm-");
    chmodSync(base, 0o755);
    const projects = join(base, "projects");
    const open = join(projects, "-w-open");
    const closed = join(projects, "-w-closed");
    mkdirSync(open, { recursive: true });
    mkdirSync(closed, { recursive: true });
    writeFileSync(
      join(open, "dddddddd-0000-4000-8000-000000000004.jsonl"),
      rec("dddddddd-0000-4000-8000-000000000004", 1, "readable words"),
    );
    writeFileSync(
      join(closed, "eeeeeeee-0000-4000-8000-000000000005.jsonl"),
      rec("eeeeeeee-0000-4000-8000-000000000005", 1, "hidden words"),
    );
    chmodSync(closed, 0o000);
    for (const d of [projects, open]) chmodSync(d, 0o755);
    const bin = binary();
    chmodSync(join(bin, ".."), 0o755);
    const env = {
      HOME: join(base, "home"),
      DEJA_HOME: join(base, "deja"),
      DEJA_CLAUDE_ROOT: projects,
      NO_COLOR: "1",
    };
    mkdirSync(join(base, "deja"), { mode: 0o777 });
    chmodSync(join(base, "deja"), 0o777);
    const run = (args: string[]) =>
      uid() === 0
        ? spawnSync(
          ...exactly(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin, ...args],
            env,
          ),
          { encoding: "utf8", cwd: base },
        )
        : spawnSync(...exactly([bin, ...args], env), {
          encoding: "utf8",
          cwd: base,
        });
    const idx = run(["index", "--json"]);
    assertEquals(idx.status, 3, "indexed with a failure: " + idx.stderr);
    const j = JSON.parse(idx.stdout);
    assertEquals(j.complete, false);
    const h = j.harnesses.find((x: { harness: string }) => x.harness === "claude");
    assert(h.errors.some((e: string) => e.includes("-w-closed")), JSON.stringify(h.errors));
    assertEquals(run(["readable"]).status, 0);
    assertEquals(run(["hidden"]).status, 1);
    chmodSync(closed, 0o755);
    void runBinary;
  },
});

Deno.test("a store rewritten in place with the same size and a new mtime is read again whole", async () => {
  // Trial 29: a secret scrubbed with `sed -i` (same length) in the middle of a session stayed
  // searchable: only the file's first and last few KB were compared.
  const { proj, env } = claudeTree();
  const sid = "dddddddd-0000-4000-8000-000000000004";
  const f = join(proj, `${sid}.jsonl`);
  const lines = Array.from(
    { length: 40 },
    (_, i) =>
      rec(
        sid,
        i,
        i === 20 ? "the word to scrub is scrubword1zz ok" : `line ${i} ${"x".repeat(300)}`,
      ),
  );
  writeFileSync(f, lines.join(""));
  await runIndex(env, claude);
  assert(texts(env, sid).some((t) => t.includes("scrubword1zz")));
  const before = statSync(f);
  writeFileSync(f, lines.join("").replace("scrubword1zz", "XXXXXXXXXXXX"));
  assertEquals(statSync(f).size, before.size);
  utimesSync(f, new Date(before.mtimeMs + 5_000), new Date(before.mtimeMs + 5_000));
  await runIndex(env, claude);
  const now = texts(env, sid);
  assertEquals(now.some((t) => t.includes("scrubword1zz")), false);
  assert(now.some((t) => t.includes("XXXXXXXXXXXX")));
  assertEquals(now.length, 40);
  // Only touched again (the same bytes, the mtime moved back): read again, nothing doubled.
  utimesSync(f, before.atime, before.mtime);
  await runIndex(env, claude);
  assertEquals(texts(env, sid).length, 40);
});

// Trial 72: the last record scrubbed and records appended before deja looked: the old record
// was kept as "cut off the end" beside the edited one, its words still found.
Deno.test("the last record edited in place and more appended: the edit is followed, not kept twice", async () => {
  const { dir, proj, env } = claudeTree();
  try {
    const sid = "eeeeeeee-0000-4000-8000-000000000005";
    const f = join(proj, `${sid}.jsonl`);
    const lines = Array.from({ length: 8 }, (_, i) => rec(sid, i, `line ${i} ${"y".repeat(80)}`));
    // An assistant's text: keyed by its message and its words, so an edit is a new key.
    lines.push(claudeLine(17, "the last answer said breathwordzz room here", sid));
    writeFileSync(f, lines.join(""));
    await runIndex(env, claude);
    assertEquals(texts(env, sid).length, 9);
    const scrubbed = lines.join("").replace("breathwordzz", "signout kno") +
      rec(sid, 9, "appended after the scrub");
    writeFileSync(f, scrubbed);
    await runIndex(env, claude);
    const now = texts(env, sid);
    assertEquals(now.some((t) => t.includes("breathwordzz")), false, now.join("\n"));
    assert(now.some((t) => t.includes("signout kno room")));
    assertEquals(now.at(-1), "appended after the scrub");
    assertEquals(now.length, 10);
    // A file cut short, then written to: what was cut off stays kept (trials 31-32).
    const cut = lines.slice(0, 6).join("") + rec(sid, 20, "written after the cut");
    writeFileSync(f, cut);
    await runIndex(env, claude);
    const kept = texts(env, sid);
    assert(kept.some((t) => t.includes("signout kno room")), "the cut-off end is kept");
    assertEquals(kept.at(-1), "written after the cut");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 74: the records appended after the edit were dated a second before the edited one (its
// script's fixed times): the edited record, at its own time to the millisecond, is still told.
Deno.test("a last record edited in place is told by its time, whatever the times of what follows", async () => {
  const { dir, proj, env } = claudeTree();
  try {
    const sid = "ffffffff-0000-4000-8000-000000000006";
    const f = join(proj, `${sid}.jsonl`);
    const lines = Array.from({ length: 6 }, (_, i) => rec(sid, i, `line ${i}`));
    lines.push(claudeLine(13, "staging runs on host quillbrookzz in the lab", sid));
    writeFileSync(f, lines.join(""));
    await runIndex(env, claude);
    writeFileSync(
      f,
      lines.join("").replace("quillbrookzz", "[removed]") + claudeLine(12, "thanks", sid),
    );
    await runIndex(env, claude);
    const now = texts(env, sid);
    assertEquals(now.some((t) => t.includes("quillbrookzz")), false, now.join("\n"));
    assertEquals(now.slice(-2), ["staging runs on host [removed] in the lab", "thanks"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 76: a word scrubbed from a store left the events but stayed in the vocabulary, readable
// in index.db through `forget` and `--rebuild`.
Deno.test("a word scrubbed from a store leaves the vocabulary at the next rebuild or forget", async () => {
  const { dir, proj, env } = claudeTree();
  const vocabHas = (word: string) => {
    const s = Store.open(indexPath(env));
    try {
      return s.db.prepare("SELECT 1 FROM vocab WHERE term = ?").get(word) !== undefined;
    } finally {
      s.close();
    }
  };
  try {
    const sid = "abababab-0000-4000-8000-000000000007";
    const other = "cdcdcdcd-0000-4000-8000-000000000008";
    const f = join(proj, `${sid}.jsonl`);
    const lines = Array.from(
      { length: 6 },
      (_, i) => rec(sid, i, i === 2 ? "my maiden name is quetzalsecretzz ok" : `line ${i}`),
    );
    writeFileSync(f, lines.join(""));
    writeFileSync(join(proj, `${other}.jsonl`), rec(other, 0, "another session wordzz"));
    await runIndex(env, claude);
    assert(vocabHas("quetzalsecretzz"));
    const before = statSync(f);
    writeFileSync(f, lines.join("").replace("quetzalsecretzz", "[scrubbed]    "));
    utimesSync(f, new Date(before.mtimeMs + 5_000), new Date(before.mtimeMs + 5_000));
    await runIndex(env, claude);
    assertEquals(texts(env, sid).some((t) => t.includes("quetzalsecretzz")), false);
    // A forget (of another session) makes it again too.
    const { runMain } = await import("./_cli_io.ts");
    const forgot = await runMain(env, ["forget", "--session", "cdcdcdcd", "--yes"]);
    assertEquals(forgot.code, 0, forgot.err);
    assertEquals(vocabHas("quetzalsecretzz"), false, "a forget makes the vocabulary again");
    assertEquals(vocabHas("wordzz"), false, "the forgotten session's words go");
    assert(vocabHas("maiden"), "the words events hold stay");
    writeFileSync(f, lines.join(""));
    utimesSync(f, new Date(before.mtimeMs + 9_000), new Date(before.mtimeMs + 9_000));
    await runIndex(env, claude);
    assert(vocabHas("quetzalsecretzz"));
    writeFileSync(f, lines.join("").replace("quetzalsecretzz", "[scrubbed]    "));
    utimesSync(f, new Date(before.mtimeMs + 15_000), new Date(before.mtimeMs + 15_000));
    await runIndex(env, claude);
    await runIndex(env, claude, { rebuild: true });
    assertEquals(vocabHas("quetzalsecretzz"), false, "a rebuild starts the vocabulary over");
    assert(vocabHas("maiden"), "the words events hold stay");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
