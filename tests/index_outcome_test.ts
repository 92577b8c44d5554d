/**
 * What `deja index` says it did (a fresh-user trial on real stores):
 * - it exited 0 when some stores could not be read, so a script could not tell;
 * - three copies of one Claude Code session read "3 sessions written" while the
 *   index gained one.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { runMain } from "./_cli_io.ts";
import { claudeStore } from "./_claude_store.ts";
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";

/** A world with a Claude root and a Hermes root under a temp home. */
function world() {
  const root = tempDir("deja-index-outcome-");
  const claude = join(root, "claude");
  const hermes = join(root, "hermes");
  mkdirSync(claude, { recursive: true });
  mkdirSync(hermes, { recursive: true });
  const env = testEnv(root, {
    DEJA_CLAUDE_ROOT: claude,
    DEJA_HERMES_ROOT: hermes,
    DEJA_HOME: join(root, "deja"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    DEJA_NO_REFRESH: "1",
  });
  return {
    root,
    claude,
    hermes,
    env,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

Deno.test("index exits 3 when some stores failed beside ones it indexed, and --json says complete: false", async () => {
  const w = world();
  try {
    mkdirSync(join(w.claude, "p"));
    claudeStore(join(w.claude, "p"), "5e550000-1111-4222-8333-444455556666", 2);
    const run = await runMain(w.env, ["index"]);
    assertEquals(run.code, 0, run.err);
    const ok = JSON.parse((await runMain(w.env, ["index", "--json"])).out);
    assertEquals(ok.complete, true);

    const db = join(w.hermes, "state.db");
    writeFileSync(db, "X".repeat(8192)); // not a database
    const partial = await runMain(w.env, ["index"]);
    assertEquals(partial.code, 3, partial.err);
    assertStringIncludes(partial.out, `error: ${db}`);
    assertStringIncludes(partial.err, "deja: indexed with 1 error (above)");
    const doc = await runMain(w.env, ["index", "--json"]);
    assertEquals(doc.code, 3);
    assertEquals(JSON.parse(doc.out).complete, false);
    const quiet = await runMain(w.env, ["index", "--quiet"]);
    assertEquals(quiet.code, 3, "--quiet still tells a script");
  } finally {
    w.cleanup();
  }
});

Deno.test("index exits 2 when every store it found failed", async () => {
  const w = world();
  try {
    writeFileSync(join(w.hermes, "state.db"), "X".repeat(8192));
    const run = await runMain(w.env, ["index"]);
    assertEquals(run.code, 2, run.err);
    assertStringIncludes(run.err, "every store deja found failed");
  } finally {
    w.cleanup();
  }
});

Deno.test("index counts a session three stores hold once, and says how many copies it read", async () => {
  const w = world();
  try {
    const id = "c0b1e500-1111-4222-8333-444455556666";
    for (const dir of ["a", "b", "c"]) {
      mkdirSync(join(w.claude, dir));
      claudeStore(join(w.claude, dir), id, 2);
    }
    const run = await runMain(w.env, ["index"]);
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.out, "1 session written (2 copies); the index holds 1 session");
    const line = run.out.split("\n").find((l) => l.startsWith("claude"))!;
    assert(/ 1 session,/.test(line) && line.endsWith(", 2 copies"), line);
    const h = JSON.parse((await runMain(w.env, ["index", "--json", "--rebuild"])).out)
      .harnesses.find((x: { harness: string }) => x.harness === "claude");
    assertEquals([h.sessions, h.copies], [3, 2]);
  } finally {
    w.cleanup();
  }
});

Deno.test("a rebuild leaves the text index no larger than a first build made it", async () => {
  // Trial 26: each --rebuild grew the index (174 -> 192 -> 233 MB), the text index keeping
  // the old events' deletions beside the new segments.
  const w = world();
  try {
    const proj = join(w.claude, "-tmp-p");
    mkdirSync(proj, { recursive: true });
    for (let s = 0; s < 12; s++) claudeStore(proj, `sess${s}`, 40);
    const textBytes = () => {
      const db = new DatabaseSync(join(w.root, "deja", "index.db"), { readOnly: true });
      try {
        return (db.prepare("SELECT sum(length(block)) AS n FROM events_fts_data").get() as {
          n: number;
        }).n;
      } finally {
        db.close();
      }
    };
    assertEquals((await runMain(w.env, ["index", "--quiet"])).code, 0);
    const first = textBytes();
    for (let i = 0; i < 2; i++) {
      assertEquals((await runMain(w.env, ["index", "--rebuild", "--quiet"])).code, 0);
    }
    assert(textBytes() <= first * 1.05, `${textBytes()} bytes after two rebuilds, ${first} first`);
    const r = await runMain(w.env, ["search", "--junk", "build", "sess3"]);
    assertEquals(r.code, 0, r.err);
  } finally {
    w.cleanup();
  }
});
