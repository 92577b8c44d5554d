/**
 * A SQLite store's skips stay with it across an incremental read (fresh-user
 * trial: crush's `2 bad_shape` vanished from `deja sources --verbose` once the
 * store was read again). A read past the watermark returns only the sessions
 * updated since; what the earlier read skipped in the others is still so.
 */
import { assert, assertEquals } from "./_assert.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_cli_io.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { sourcesData } from "../lib/cli/cmd_sources.ts";
import { tinyVars } from "./_crush_tiny.ts";

const text = (t: string) => JSON.stringify([{ type: "text", data: { text: t } }]);
/** A part with no type: skipped as bad_shape. */
const untyped = JSON.stringify([{ data: { text: "untyped" } }]);

Deno.test("an incremental read of a SQLite store keeps the skips of the sessions it did not re-read", async () => {
  const dir = tempDir("deja-sqlite-carry-");
  try {
    const proj = join(dir, "proj");
    mkdirSync(join(proj, ".crush"), { recursive: true });
    mkdirSync(join(dir, "crush"), { recursive: true });
    writeFileSync(
      join(dir, "crush", "projects.json"),
      JSON.stringify({ projects: [{ path: proj, data_dir: join(proj, ".crush") }] }),
    );
    const path = join(proj, ".crush", "crush.db");
    const db = new DatabaseSync(path);
    db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT, created_at INTEGER,
      updated_at INTEGER);
      CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT,
      created_at INTEGER)`);
    const ses = db.prepare("INSERT INTO sessions VALUES (?, ?, 1000, ?)");
    const msg = db.prepare("INSERT INTO messages VALUES (?, ?, ?, ?, ?)");
    ses.run("aaaaaaaa-s", "a", 1000);
    msg.run("a0", "aaaaaaaa-s", "user", text("hello"), 1000);
    msg.run("a1", "aaaaaaaa-s", "assistant", untyped, 1001);
    msg.run("a2", "aaaaaaaa-s", "assistant", untyped, 1002);
    // A later session moves the watermark past a: the next read leaves a out.
    ses.run("zzzzzzzz-s", "z", 1500);
    msg.run("z0", "zzzzzzzz-s", "user", text("later"), 1500);
    const vars = tinyVars(dir);
    const env = testEnv(vars.HOME, vars);
    const crush = async () =>
      (await sourcesData(env)).harnesses.find((h) => h.harness === "crush")!;
    assertEquals((await runMain(env, ["index", "--quiet"], "", vars.HOME)).code, 0);
    assertEquals((await crush()).skipped, { bad_shape: 2 });
    // A second session, updated later: the next read returns it alone.
    ses.run("bbbbbbbb-s", "b", 2000);
    msg.run("b0", "bbbbbbbb-s", "user", text("again"), 2000);
    db.close();
    assertEquals((await runMain(env, ["index", "--quiet"], "", vars.HOME)).code, 0);
    const h = await crush();
    assertEquals(h.sessions, 3);
    assertEquals(h.skipped, { bad_shape: 2 });
    assert(h.skipped_at.some((x) => x.startsWith("bad_shape at a1#")), h.skipped_at.join());
    // The same session read again with the same skips does not count them twice.
    const db2 = new DatabaseSync(path);
    db2.prepare("UPDATE sessions SET updated_at = 3000 WHERE id = 'aaaaaaaa-s'").run();
    db2.close();
    assertEquals((await runMain(env, ["index", "--quiet"], "", vars.HOME)).code, 0);
    assertEquals((await crush()).skipped, { bad_shape: 2 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
