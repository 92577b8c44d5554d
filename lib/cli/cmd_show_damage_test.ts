/**
 * `deja show` of a session whose store was damaged (new-user trial on a copied home,
 * 2026-12): `index`, `sources` and `doctor` counted the unreadable records, but the session
 * itself read as a seamless conversation. Show says what its store's last read lost.
 */
import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "../../tests/_fixture.ts";
import { captureIO, runMain } from "../../tests/_cli_io.ts";
import { damageSessionC, listProjects, tinyStore, tinyVars } from "../../tests/_crush_tiny.ts";
import { claudeLines } from "../../tests/_memory.ts";
import { removeTemp, tempDir } from "../../tests/_tmp.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";
import { sessionDamage, sessionDamageText } from "../store_damage.ts";
import { showCmd } from "./cmd_show.ts";

const DAMAGED = "dada0000-1111-4222-8333-444455556666";
const CLEAN = "c1ea0000-1111-4222-8333-444455556666";

Deno.test("show says the store had unreadable records (text and --json) when lines of it were not JSON, and nothing of a clean one", async () => {
  const dir = tempDir("deja-showdmg-");
  try {
    const proj = join(dir, "claude", "-w-app");
    mkdirSync(proj, { recursive: true });
    const turns = [{ user: "make the tests pass" }, { say: "on it" }, { user: "and lint" }];
    const bad = claudeLines({ id: DAMAGED, cwd: "/w/app", start: "2026-11-01T10:00:00Z", turns });
    // Two lines torn in the middle of the conversation, as a bad copy leaves them.
    bad.splice(1, 0, '{"type":"assistant","message":{"con', "\u0000\u0000garbage");
    writeFileSync(join(proj, `${DAMAGED}.jsonl`), bad.join("\n") + "\n");
    const good = claudeLines({ id: CLEAN, cwd: "/w/app", start: "2026-11-02T10:00:00Z", turns });
    writeFileSync(join(proj, `${CLEAN}.jsonl`), good.join("\n") + "\n");
    const env = testEnv(join(dir, "home"), {
      DEJA_HOME: join(dir, "deja"),
      DEJA_CLAUDE_ROOT: join(dir, "claude"),
      DEJA_NO_REFRESH: "1",
      TZ: "UTC",
    });
    await runIndex(env, parsers, { only: ["claude"] });
    const show = async (ref: string, json: boolean) => {
      const c = captureIO(env, false);
      assertEquals(await showCmd.run({ values: { json }, positionals: [ref] }, c.io), 0);
      return c.out();
    };
    const text = await show("dada", false);
    assertStringIncludes(
      text,
      "its store had 2 unreadable records (malformed_json); some messages may be missing",
    );
    assertStringIncludes(text, "make the tests pass"); // the rest is still shown
    assertEquals(JSON.parse(await show("dada", true)).source_damage, {
      unreadable_records: 2,
      skipped: { malformed_json: 2 },
      store_sessions: 1,
    });
    assert(!(await show("c1ea", false)).includes("unreadable"));
    assertEquals(JSON.parse(await show("c1ea", true)).source_damage, null);
  } finally {
    removeTemp(dir);
  }
});

Deno.test("sessionDamage counts damage only, and names a store of several sessions as theirs together", () => {
  const skipped = (counts: Record<string, number>) => JSON.stringify({ counts, examples: [] });
  // Records deja reads by design differently (bad_shape) or repaired (invalid_utf8): no damage.
  assertEquals(
    sessionDamage({ skipped: skipped({ bad_shape: 3, invalid_utf8: 1 }), mtime: 0, sessions: 1 }),
    null,
  );
  assertEquals(sessionDamage(null), null);
  const d = sessionDamage({
    skipped: skipped({ corrupt: 1, bad_shape: 2 }),
    mtime: 0,
    sessions: 7,
  });
  assertEquals(d, { unreadable_records: 1, skipped: { corrupt: 1 }, store_sessions: 7 });
  assertEquals(
    sessionDamageText(d!),
    "its store (7 sessions) had 1 damaged stretch of rows (corrupt); some messages may be missing (deja sources --verbose says where)",
  );
});

Deno.test("show of any session of a damaged Crush database says its store, of several sessions, had unreadable records", async () => {
  const dir = tempDir("deja-showdmg-crush-");
  try {
    const proj = join(dir, "proj");
    mkdirSync(join(proj, ".crush"), { recursive: true });
    mkdirSync(join(dir, "crush"), { recursive: true });
    listProjects(dir, [proj]);
    const db = join(proj, ".crush", "crush.db");
    tinyStore(db, ["a", "b", "c"]);
    const env = testEnv(join(dir, "home"), tinyVars(dir));
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    const clean = JSON.parse((await runMain(env, ["show", "aaaaaaaa", "--json"])).out);
    assertEquals(clean.source_damage, null);
    damageSessionC(db);
    assertEquals((await runMain(env, ["index", "--quiet"])).code, 0);
    for (const ref of ["aaaaaaaa", "cccccccc"]) {
      const text = (await runMain(env, ["show", ref])).out;
      assert(
        /its store \(3 sessions\) had \d+ damaged stretch(?:es)? of rows \(corrupt\)/.test(text),
        text,
      );
      const doc = JSON.parse((await runMain(env, ["show", ref, "--json"])).out);
      assertEquals([doc.source_damage.store_sessions, doc.source_damage.skipped.corrupt > 0], [
        3,
        true,
      ]);
    }
  } finally {
    removeTemp(dir);
  }
});
