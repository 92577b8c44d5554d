/**
 * An index emptied to 0 bytes (truncated by a crash, a full disk, a cleanup) opens as a new,
 * empty SQLite database. It is named as damaged, like other damage, with what it held (trial
 * 111 F7: the first search answered "nothing matched", the next said "the index was never built
 * in full", and a background run built a new one without the sessions only the old one held).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptiedIndex } from "../lib/store.ts";
import { claudeStore, type SessionSpec } from "./_memory.ts";
import { tempDir } from "./_tmp.ts";
import { runWith } from "./_cli_io.ts";

const run = (args: string[], vars: Record<string, string>) => runWith(args, vars);

const SESSIONS: SessionSpec[] = ["a", "b"].map((k, i) => ({
  id: `${k.repeat(8)}-2222-4333-8444-555555555555`,
  cwd: "/w/app",
  start: `2026-11-0${i + 1}T10:00:00Z`,
  turns: [{ say: `the ${k === "a" ? "alphaquokka" : "betawombat"} answer` }, {
    bash: "cargo test",
    out: "ok",
  }],
}));

const EMPTIED = "is damaged (emptied to 0 bytes; it held 2 sessions, among them those of 1 store " +
  "gone since, which no rebuild can bring back)";

Deno.test("an index emptied to 0 bytes is named damaged, with what it held, until --rebuild", async () => {
  const dir = tempDir("deja-emptied-");
  try {
    const { vars, files } = claudeStore(dir, SESSIONS);
    assertEquals((await run(["index", "--quiet"], vars)).code, 0);
    rmSync(files[0]); // aaaaaaaa lives in the index alone now ("gone, kept")
    assertEquals((await run(["index"], vars)).code, 0);
    const db = join(vars.DEJA_HOME, "index.db");
    const { ino } = statSync(db);
    writeFileSync(db, ""); // emptied in place
    assertEquals(statSync(db).ino, ino);
    for (const args of [["betawombat"], ["betawombat"], ["last"], ["index"]]) {
      const r = await run(args, vars);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
      assertStringIncludes(r.err, `deja: the index ${db} ${EMPTIED}`);
      assertStringIncludes(r.err, "hint: run 'deja index --rebuild'");
      assert(!/nothing matched|never built in full/.test(r.err), r.err);
    }
    const doc = JSON.parse((await run(["doctor", "--json"], vars)).out).index;
    assertStringIncludes(doc.error, EMPTIED);
    // Only this very file, stamped by the manifest, is an index emptied: another empty file (a
    // first run making its index) is not.
    const st = statSync(db);
    assertStringIncludes(emptiedIndex(db, st) ?? "", "emptied to 0 bytes");
    assertEquals(emptiedIndex(db, { ...st, ino: st.ino + 1 }), null);
    const rebuilt = await run(["index", "--rebuild"], vars);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assertStringIncludes(rebuilt.err, "the index was damaged; moved it to");
    assertEquals(readdirSync(vars.DEJA_HOME).filter((f) => f.includes(".corrupt-")).length, 1);
    const found = await run(["betawombat"], vars);
    assertEquals([found.code, found.err.includes("damaged")], [0, false], found.err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
