/**
 * A harness store damaged after it was indexed loses nothing the index held
 * (found on a copy of realdata/crush/mcp-tool-0627.db with 40 KB overwritten:
 * session a179a6fe went from 4 events to 0 while the skip said "damaged page,
 * rows unreadable"). A session the damaged read returns shorter, or not at
 * all, keeps its indexed events and `deja sources --verbose` says the store
 * was read partly; a healthy store's shrunk session is still replaced.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { damageSessionC, listProjects, tinyStore, tinyVars } from "./_crush_tiny.ts";
import { claudeLine } from "./_memory.ts";
import { walDamage } from "../lib/wal_check.ts";

/** deja's `main` in process over `vars`, in their HOME (tests/_cli_io.ts). */
const run = (args: string[], vars: Record<string, string>) =>
  runMain(testEnv(vars.HOME, vars), args, "", vars.HOME);

/**
 * A Crush world: sessions a and b (2 short messages each), c (6 long ones, `C<n>Z` markers),
 * all updated at 1000 unless `cUpdated` says when c was.
 */
function world(cUpdated = 1000) {
  const dir = tempDir("deja-store-damage-");
  const proj = join(dir, "proj");
  mkdirSync(join(proj, ".crush"), { recursive: true });
  mkdirSync(join(dir, "crush"), { recursive: true });
  listProjects(dir, [proj]);
  const path = join(proj, ".crush", "crush.db");
  tinyStore(path, ["a", "b", "c"], cUpdated);
  const vars = tinyVars(dir);
  const counts = () => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const rows = idx.prepare("SELECT native_id AS id, events FROM sessions ORDER BY native_id")
        .all() as Array<{ id: string; events: number }>;
      return Object.fromEntries(rows.map((r) => [r.id.slice(0, 1), r.events]));
    } finally {
      idx.close();
    }
  };
  return { path, vars, counts, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

Deno.test("a session a damaged store returns shorter keeps its indexed events, and sources says the store was read partly", async () => {
  const w = world();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
    damageSessionC(w.path);
    const r = await run(["index"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out + r.err, "corrupt");
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
    const s = await run(["sources", "--verbose"], w.vars);
    assertStringIncludes(s.out, "read partly at ");
    assertStringIncludes(s.out, "cccccccc (6 events; read now ");
    assert(!/skipped read partly/.test(s.out), s.out);
    // Read whole (a rebuild) the same: c is not returned whole, so it stays as indexed.
    assertEquals((await run(["index", "--rebuild", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
  } finally {
    w.cleanup();
  }
});

Deno.test("a repaired store gives back whole the sessions its damaged read returned short", async () => {
  // Trial on a copy of realdata/crush/k3s-subagent-summary-0627.db: after the damaged read, the
  // store's watermark moved to its newest session, so the repaired store was read from there and
  // the older sessions the damaged read had written short stayed so (0 events) until --rebuild.
  const w = world(900);
  try {
    const good = readFileSync(w.path);
    damageSessionC(w.path);
    const r = await run(["index"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out + r.err, "corrupt");
    assert(w.counts().c < 6, JSON.stringify(w.counts()));
    writeFileSync(w.path, good);
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
    const s = await run(["sources"], w.vars);
    assert(!s.out.includes("damaged"), s.out);
  } finally {
    w.cleanup();
  }
});

Deno.test("a healthy store whose session lost messages is followed, and index and sources name it", async () => {
  // Trial 111 F6: 10 messages deleted inside a Crush session (its row kept) left the index
  // without a word, while a whole session deleted was named.
  const w = world();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const db = new DatabaseSync(w.path);
    db.exec("DELETE FROM messages WHERE id IN ('c2', 'c3', 'c4', 'c5')");
    db.exec("UPDATE sessions SET updated_at = 2000 WHERE id = 'cccccccc-s'");
    db.close();
    const r = await run(["index", "--json"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertEquals(w.counts(), { a: 2, b: 2, c: 2 });
    const said = `${w.path}: holds less than when last read (messages deleted inside it); ` +
      "the index follows it: 1 session now shorter (cccccccc 6 -> 2 events)";
    type Row = { harness: string; shrunk?: string[]; skipped_at?: string[] };
    const crush = (d: { harnesses: Row[] }) => d.harnesses.find((h) => h.harness === "crush")!;
    assertEquals(crush(JSON.parse(r.out)).shrunk, [said]);
    const s = await run(["sources", "--verbose"], w.vars);
    assert(!s.out.includes("read partly"), s.out);
    assertStringIncludes(s.out, `shrunk at ${said}`);
    assert(!/skipped shrunk/.test(s.out), s.out);
    const j = await run(["sources", "--json"], w.vars);
    assertEquals(crush(JSON.parse(j.out)).skipped_at, [`shrunk at ${said}`]);
  } finally {
    w.cleanup();
  }
});

Deno.test("a session deleted inside a healthy store leaves the index at the next read, and index says so", async () => {
  // Trial 86 F3: Crush deletes a session's rows; read past its watermark, the store gave only
  // the sessions changed since, and the deleted one stayed searchable, nothing said.
  const w = world();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const before = readFileSync(w.path);
    const db = new DatabaseSync(w.path);
    db.exec("DELETE FROM messages WHERE session_id = 'bbbbbbbb-s'");
    db.exec("DELETE FROM sessions WHERE id = 'bbbbbbbb-s'");
    db.close();
    const r = await run(["index", "--json"], w.vars);
    assertEquals(r.code, 0, r.err);
    assertEquals(w.counts(), { a: 2, c: 6 });
    const crush = JSON.parse(r.out).harnesses.find((h: { harness: string }) =>
      h.harness === "crush"
    );
    assertStringIncludes(crush.shrunk.join("\n"), "1 session was deleted inside it");
    assertStringIncludes(crush.shrunk.join("\n"), "bbbbbbbb");
    const s = await run(["sources", "--json"], w.vars);
    const row = JSON.parse(s.out).harnesses.find((h: { harness: string }) => h.harness === "crush");
    assertEquals(row.sessions, 2);
    // An update to another session reads past the watermark again: nothing else goes.
    const db2 = new DatabaseSync(w.path);
    db2.exec("UPDATE sessions SET updated_at = 3000 WHERE id = 'aaaaaaaa-s'");
    db2.close();
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts(), { a: 2, c: 6 });
    // The store put back from the copy taken before: b, older than the watermark, comes back
    // (trial 89 F1: it stayed lost until a rebuild).
    writeFileSync(w.path, before);
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
  } finally {
    w.cleanup();
  }
});

Deno.test("a session made again under its id is the new one: its start and title", async () => {
  // Trial 89 F3: deleted and made again between two runs, it kept the old one's start time.
  const w = world();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const db = new DatabaseSync(w.path);
    db.exec("DELETE FROM messages WHERE session_id = 'bbbbbbbb-s'");
    db.exec("DELETE FROM sessions WHERE id = 'bbbbbbbb-s'");
    db.exec("INSERT INTO sessions VALUES ('bbbbbbbb-s', 'again', 5000, 5000)");
    db.exec(
      `INSERT INTO messages VALUES ('b9', 'bbbbbbbb-s', 'user', '[{"type":"text","data":{"text":"b anew"}}]', 5000)`,
    );
    db.close();
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const idx = new DatabaseSync(join(w.vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      const row = idx.prepare("SELECT title, started FROM sessions WHERE native_id = 'bbbbbbbb-s'")
        .get() as { title: string; started: number };
      assertEquals(row, { title: "again", started: 5_000_000 });
    } finally {
      idx.close();
    }
  } finally {
    w.cleanup();
  }
});

Deno.test("a session stamped in the future hides no later change of the others", async () => {
  // Trial 91 F2: the store's watermark moved past now, and every later turn of the other
  // sessions went unread until the clock passed it.
  const w = world();
  try {
    const future = Math.floor(Date.now() / 1000) + 86_400 * 365;
    const db = new DatabaseSync(w.path);
    db.exec(`UPDATE sessions SET updated_at = ${future} WHERE id = 'cccccccc-s'`);
    db.close();
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const now = Math.floor(Date.now() / 1000);
    const db2 = new DatabaseSync(w.path);
    db2.exec(
      `INSERT INTO messages VALUES ('a9', 'aaaaaaaa-s', 'user', '[{"type":"text","data":{"text":"later turn"}}]', ${now})`,
    );
    db2.exec(`UPDATE sessions SET updated_at = ${now} WHERE id = 'aaaaaaaa-s'`);
    db2.close();
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals(w.counts().a, 3);
  } finally {
    w.cleanup();
  }
});

Deno.test("a database emptied or replaced by another program's keeps its sessions, and says so", async () => {
  // Trial 91 F5: show, sources and doctor said nothing, as they do of a file emptied.
  for (const replace of ["empty", "other"] as const) {
    const w = world();
    try {
      assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
      if (replace === "empty") writeFileSync(w.path, "");
      else {
        rmSync(w.path);
        const db = new DatabaseSync(w.path);
        db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
        db.close();
      }
      assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
      assertEquals(w.counts(), { a: 2, b: 2, c: 6 });
      const show = await run(["show", "bbbbbbbb", "--json"], w.vars);
      const damage = JSON.parse(show.out).source_damage;
      assertEquals(damage?.kept_as_indexed, 3, replace);
      assertEquals(damage?.now_empty ?? false, replace === "empty");
      const s = await run(["sources"], w.vars);
      assertStringIncludes(s.out, "kept 3 sessions as indexed");
    } finally {
      w.cleanup();
    }
  }
});

Deno.test("index names the stores sessions were deleted inside past the first five, as a count", async () => {
  // Trial 91 F8: the sixth database's deletions went unsaid in the text.
  const dir = tempDir("deja-deleted-six-");
  try {
    const projects = Array.from({ length: 6 }, (_, i) => join(dir, `p${i}`));
    for (const p of projects) mkdirSync(join(p, ".crush"), { recursive: true });
    mkdirSync(join(dir, "crush"), { recursive: true });
    listProjects(dir, projects);
    const pairs = [["a", "b"], ["d", "e"], ["f", "g"], ["h", "i"], ["j", "k"], ["l", "m"]];
    projects.forEach((p, i) => tinyStore(join(p, ".crush", "crush.db"), pairs[i]));
    const vars = tinyVars(dir);
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    projects.forEach((p, i) => {
      const id = `${pairs[i][1].repeat(8)}-s`;
      const db = new DatabaseSync(join(p, ".crush", "crush.db"));
      db.exec(`DELETE FROM messages WHERE session_id = '${id}'`);
      db.exec(`DELETE FROM sessions WHERE id = '${id}'`);
      db.close();
    });
    const r = await run(["index"], vars);
    assertEquals(r.code, 0, r.err);
    const text = r.out + r.err;
    assertEquals(text.split("was deleted inside it").length - 1, 5, text);
    assertStringIncludes(text, "1 more stores so ('deja index --json' lists them)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a session opencode deleted leaves the index, read in a parse worker too", async () => {
  const dir = tempDir("deja-oc-deleted-");
  try {
    const root = join(dir, "opencode");
    mkdirSync(root, { recursive: true });
    const path = join(root, "opencode.db");
    const oc = new DatabaseSync(path);
    oc.exec(`
      CREATE TABLE session (id text PRIMARY KEY, directory text NOT NULL, title text NOT NULL,
        version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
      CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL,
        time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
      CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
        time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);`);
    for (const [n, word] of [[1, "lighthouse"], [2, "quarry"]] as const) {
      const t = 1795000000000 + n * 1000;
      oc.exec(`
        INSERT INTO session VALUES ('ses_${n}', '/w/app', 'tidy ${n}', '1.99.0', ${t}, ${t});
        INSERT INTO message VALUES ('msg_${n}', 'ses_${n}', ${t}, ${t},
          '{"role":"user","time":{"created":${t}}}');
        INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES
          ('prt_${n}', 'msg_${n}', 'ses_${n}', ${t}, ${t}, '{"type":"text","text":"tidy the ${word}"}');`);
    }
    oc.close();
    const vars = {
      ...tinyVars(dir),
      DEJA_OPENCODE_ROOT: root,
      DEJA_PARSE_WORKER: "1",
    };
    const only = ["--harness", "opencode"];
    assertEquals((await run(["index", "--quiet", ...only], vars)).code, 0);
    assertEquals((await run(["quarry", "--json"], vars)).code, 0);
    const before = readFileSync(path);
    const db = new DatabaseSync(path);
    db.exec(
      "DELETE FROM part WHERE session_id = 'ses_1'; DELETE FROM message WHERE session_id = 'ses_1'",
    );
    db.exec("DELETE FROM session WHERE id = 'ses_1'");
    db.close();
    const r = await run(["index", ...only], vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out + r.err, "1 session was deleted inside it");
    assertEquals((await run(["lighthouse", "--json"], vars)).code, 1);
    assertEquals((await run(["quarry", "--json"], vars)).code, 0);
    // Put back from the copy taken before (trial 89 F2): the older session comes back.
    writeFileSync(path, before);
    assertEquals((await run(["index", "--quiet", ...only], vars)).code, 0);
    assertEquals((await run(["lighthouse", "--json"], vars)).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * An opencode store at `<dir>/opencode/opencode.db` of session `ses_1`, titled, one prompt
 * (`tidy the lighthouse`) and its answer; the variables that read it alone.
 */
function opencodeWorld(dir: string) {
  const root = join(dir, "opencode");
  mkdirSync(root, { recursive: true });
  const path = join(root, "opencode.db");
  const oc = new DatabaseSync(path);
  const t = 1795000000000;
  oc.exec(`
    CREATE TABLE session (id text PRIMARY KEY, directory text NOT NULL, title text NOT NULL,
      version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    INSERT INTO session VALUES ('ses_1', '/w/app', 'Tidy the lighthouse', '1.18.33', ${t},
      ${t + 9});
    INSERT INTO message VALUES ('msg_1', 'ses_1', ${t + 1}, ${t + 1},
      '{"role":"user","time":{"created":${t + 1}}}');
    INSERT INTO message VALUES ('msg_2', 'ses_1', ${t + 2}, ${t + 2},
      '{"role":"assistant","time":{"created":${t + 2}}}');
    INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_1', ${t + 1}, ${t + 1},
      '{"type":"text","text":"tidy the lighthouse"}');
    INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_1', ${t + 2}, ${t + 2},
      '{"type":"text","text":"The lighthouse is tidy."}');`);
  oc.close();
  const vars: Record<string, string> = { ...tinyVars(dir), DEJA_OPENCODE_ROOT: root };
  const events = () => {
    const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
    try {
      return (idx.prepare("SELECT events FROM sessions WHERE native_id = 'ses_1'").get() as {
        events: number;
      }).events;
    } finally {
      idx.close();
    }
  };
  return { path, vars, t, events };
}

Deno.test("an opencode session read back with no events and its first title keeps what the index held, and says why", async () => {
  // Trial 111 F1: random bytes in opencode.db-wal made SQLite ignore the frames after the
  // first bad checksum, and the database read as an older state: the session's row with its
  // placeholder title, no parts. Its 14 events and title left the index, exit 0, nothing said.
  const dir = tempDir("deja-oc-older-");
  try {
    const w = opencodeWorld(dir);
    const only = ["--harness", "opencode"];
    assertEquals((await run(["index", "--quiet", ...only], w.vars)).code, 0);
    assertEquals(w.events(), 2);
    // The state SQLite returned in the trial (the session as opencode first wrote it).
    const db = new DatabaseSync(w.path);
    db.exec(`DELETE FROM part; DELETE FROM message WHERE id = 'msg_2';
      UPDATE session SET title = 'New session - 2026-11-29T19:03:37.576Z',
        time_updated = ${w.t + 1}`);
    db.close();
    const r = await run(["index", ...only], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(
      r.out,
      `${w.path}: holds less than before, kept 1 session as indexed: ses_1 (2 events; read now 0)`,
    );
    assertEquals(w.events(), 2);
    assertEquals((await run(["lighthouse", "--json", "--no-refresh"], w.vars)).code, 0);
    const s = await run(["sources", "--verbose"], w.vars);
    assertStringIncludes(s.out, `read partly at ${w.path}: it returned a session without the`);
    assertStringIncludes(s.out, "an older state of it");
    assertStringIncludes(s.out, "ses_1 (2 events; read now 0)");
    const show = JSON.parse((await run(["show", "ses_1", "--json"], w.vars)).out);
    assertEquals(show.title, "Tidy the lighthouse");
    assertEquals(show.source_damage?.kept_as_indexed, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("an opencode session whose messages were deleted, its title kept, is followed and named", async () => {
  // opencode's revert deletes the messages after the point reverted to: the index follows,
  // and says so (only a session emptied of events and title at once is kept).
  const dir = tempDir("deja-oc-revert-");
  try {
    const w = opencodeWorld(dir);
    const only = ["--harness", "opencode"];
    assertEquals((await run(["index", "--quiet", ...only], w.vars)).code, 0);
    const db = new DatabaseSync(w.path);
    db.exec(`DELETE FROM part; DELETE FROM message;
      UPDATE session SET time_updated = ${w.t + 20}`);
    db.close();
    const r = await run(["index", ...only], w.vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out, "1 session now shorter (ses_1 2 -> 0 events)");
    assertEquals(w.events(), 0);
    const s = await run(["sources", "--verbose"], w.vars);
    assertStringIncludes(s.out, `shrunk at ${w.path}: holds less than when last read`);
    assert(!s.out.includes("read partly"), s.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("an opencode session a damaged -wal returns shorter keeps what the index held, and the damage is named", async () => {
  // Trial 114 F4: one corrupt frame in opencode.db-wal (or the log cut in half) made SQLite
  // stop applying it there without an error; the read was taken for messages deleted, and the
  // index dropped 5 of 14 events, exit 0, nothing named damage.
  const dir = tempDir("deja-oc-wal-");
  const work = join(dir, "work");
  mkdirSync(work);
  try {
    const w = opencodeWorld(dir);
    const only = ["--harness", "opencode"];
    copyFileSync(w.path, join(work, "opencode.db"));
    const live = new DatabaseSync(join(work, "opencode.db"));
    try {
      // A log of two commits, kept by the open connection (no checkpoint), copied as the store.
      live.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
      for (const n of [3, 4]) {
        live.exec(`BEGIN;
          INSERT INTO message VALUES ('msg_${n}', 'ses_1', ${w.t + 10 * n}, ${w.t + 10 * n},
            '{"role":"user","time":{"created":${w.t + 10 * n}}}');
          INSERT INTO part VALUES ('prt_${n}', 'msg_${n}', 'ses_1', ${w.t + 10 * n},
            ${w.t + 10 * n}, '{"type":"text","text":"polish lamp ${n}"}');
          UPDATE session SET time_updated = ${w.t + 10 * n}; COMMIT;`);
      }
      copyFileSync(join(work, "opencode.db"), w.path);
      copyFileSync(join(work, "opencode.db-wal"), `${w.path}-wal`);
    } finally {
      live.close();
    }
    rmSync(`${w.path}-shm`, { force: true });
    assertEquals(walDamage(`${w.path}-wal`), null);
    assertEquals((await run(["index", "--quiet", ...only], w.vars)).code, 0);
    assertEquals(w.events(), 4);
    // One byte of the last commit's last frame changed: SQLite reads the store as of the first.
    const wal = readFileSync(`${w.path}-wal`);
    const frame = 24 + wal.readUInt32BE(8);
    const frames = (wal.length - 32) / frame;
    wal[32 + (frames - 1) * frame + 24 + 100] ^= 0xff;
    writeFileSync(`${w.path}-wal`, wal);
    rmSync(`${w.path}-shm`, { force: true });
    const r = await run(["index", ...only], w.vars);
    assertEquals(r.code, 0, r.err);
    assert(!r.out.includes("shorter"), r.out);
    assertStringIncludes(r.out, "ses_1 (4 events; read now 3)");
    assertEquals(w.events(), 4);
    const s = await run(["sources", "--verbose"], w.vars);
    assertStringIncludes(s.out, `read partly at ${w.path}: damaged, so the index kept`);
    assertStringIncludes(s.out, `corrupt at ${w.path}-wal: frame ${frames} of ${frames}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a whole JSON document damaged in one message keeps the session's indexed events", async () => {
  const dir = tempDir("deja-doc-damage-");
  try {
    const chats = join(dir, "gemini", "tmp", "proj", "chats");
    mkdirSync(chats, { recursive: true });
    const file = join(chats, "session-2026-11-24T12-00-e5b4a6f8.json");
    const messages = Array.from({ length: 4 }, (_, i) => ({
      id: `m${i}`,
      timestamp: `2026-11-24T12:00:0${i}.000Z`,
      type: i % 2 ? "gemini" : "user",
      content: i % 2
        ? `answer ${i} about the harbour`
        : [{ text: `question ${i} about the harbour` }],
    }));
    writeFileSync(
      file,
      JSON.stringify(
        {
          sessionId: "e5b4a6f8-5555-4e6f-9a7b-4c5d6e7f8091",
          startTime: "2026-11-24T12:00:00.000Z",
          lastUpdated: "2026-11-24T12:00:30.000Z",
          messages,
        },
        null,
        2,
      ),
    );
    const vars = {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_GEMINI_ROOT: join(dir, "gemini"),
      XDG_DATA_HOME: join(dir, "xdg"),
      XDG_CONFIG_HOME: join(dir, "xdg"),
      XDG_STATE_HOME: join(dir, "xdg"),
      DEJA_NO_REFRESH: "1",
      TZ: "UTC",
    };
    const events = () => {
      const idx = new DatabaseSync(join(vars.DEJA_HOME, "index.db"), { readOnly: true });
      try {
        return (idx.prepare("SELECT events FROM sessions").all() as Array<{ events: number }>)
          .map((r) => r.events);
      } finally {
        idx.close();
      }
    };
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    assertEquals(events(), [4]);
    // Bytes of the third message overwritten (a disk or a copy gone wrong).
    const text = readFileSync(file, "utf8");
    const at = text.indexOf('"id": "m2"');
    writeFileSync(file, text.slice(0, at) + "\u0000".repeat(20) + text.slice(at + 20));
    const r = await run(["index"], vars);
    assertEquals(r.code, 0, r.err);
    assertStringIncludes(r.out + r.err, "malformed_json");
    assertEquals(events(), [4]);
    assertStringIncludes((await run(["sources", "--verbose"], vars)).out, "read partly at ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("plain sources marks a store whose last read kept or skipped anything, and --verbose shows only that read's notes", async () => {
  const w = world();
  try {
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    assertEquals((await run(["sources"], w.vars)).out.includes("damaged"), false);
    damageSessionC(w.path);
    assertEquals((await run(["index", "--quiet"], w.vars)).code, 0);
    const plain = await run(["sources"], w.vars);
    assert(
      /\n {14}damaged: kept \d+ sessions? as indexed, skipped 1 corrupt/.test(plain.out),
      plain.out,
    );
    assertStringIncludes(plain.out, "deja sources --verbose");
    const doc = JSON.parse((await run(["sources", "--json"], w.vars)).out);
    const crush = doc.harnesses.find((h: { harness: string }) => h.harness === "crush");
    assert(crush.kept >= 1 && crush.damaged === 1, JSON.stringify(crush));
    // The header destroyed: the read fails whole, and its error replaces the earlier read's notes.
    const b = new Uint8Array(readFileSync(w.path));
    b.fill(0x5a, 0, 100);
    writeFileSync(w.path, b);
    await run(["index", "--quiet"], w.vars);
    const v = await run(["sources", "--verbose"], w.vars);
    assertStringIncludes(v.out, "last error (1)");
    assert(!v.out.includes("read partly"), v.out);
    assert(!v.out.includes("damaged:"), v.out);
    const after = JSON.parse((await run(["sources", "--json"], w.vars)).out).harnesses
      .find((h: { harness: string }) => h.harness === "crush");
    assertEquals([after.kept, after.damaged, after.skipped_at], [0, 0, []]);
    assertEquals(w.counts(), { a: 2, b: 2, c: 6 }, "the index keeps what it held");
  } finally {
    w.cleanup();
  }
});

// Trial 32: after its file was emptied, doctor said "now empty, kept 1 session as indexed" but
// `show` gave no sign of it and its JSON had `source_damage: null`.
Deno.test("show says a session's store is empty now and the session is shown as indexed", async () => {
  const dir = tempDir("deja-emptied-");
  try {
    const projects = join(dir, "claude");
    mkdirSync(join(projects, "-w-e"), { recursive: true });
    const sid = "e7e7e7e7-0000-4000-8000-000000000007";
    const file = join(projects, "-w-e", `${sid}.jsonl`);
    writeFileSync(
      file,
      [0, 1].map((i) => claudeLine(i, `the quorbin index step ${i}`, sid)).join("\n") + "\n",
    );
    const vars = {
      HOME: join(dir, "home"),
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: projects,
      DEJA_NO_REFRESH: "1",
      TZ: "UTC",
    };
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    writeFileSync(file, "");
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    const text = await run(["show", sid.slice(0, 8)], vars);
    assertStringIncludes(text.out, "its store is empty now; shown as it was indexed");
    assertStringIncludes(text.out, "the quorbin index step 1");
    const json = JSON.parse((await run(["show", sid.slice(0, 8), "--json"], vars)).out);
    // Trial 32: the store's name in the short line lost its last character ("…indexe, …").
    const sources = (await run(["sources"], vars)).out;
    assertStringIncludes(sources, `(${file})`);
    assertEquals(json.source_damage, {
      unreadable_records: 0,
      skipped: {},
      store_sessions: 1,
      kept_as_indexed: 1,
      now_empty: true,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
