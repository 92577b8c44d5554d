/** `deja forget`: tombstones outside the index keep forgotten sessions out of every later index. */
import { assert, assertEquals, assertThrows } from "./_assert.ts";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { search } from "../lib/search.ts";
import { runIndex } from "../lib/indexer.ts";
import { applyForget, planForget, unforget } from "../lib/forget/forget.ts";
import { readTombstones, tombstoneFile } from "../lib/forget/tombstones.ts";
import { indexPath } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { memIndex, memParser, type MemSession } from "./_search_fixture.ts";

const NOV = Date.parse("2026-11-01T10:00:00Z");
const HISTORY: MemSession[] = [
  {
    id: "aa11-secret",
    project: "/home/dev/clients/acme",
    at: NOV,
    events: [["user", "acme zanzibarite pricing"]],
  },
  {
    id: "aa11-sub",
    parent: "aa11-secret",
    project: "/home/dev/clients/acme",
    at: NOV,
    events: [["assistant", "zanzibarite subagent notes"]],
  },
  {
    id: "aa22-other",
    project: "/home/dev/work/app",
    at: NOV - 40 * 86400e3,
    events: [["user", "old pricing page"]],
  },
  {
    id: "bb33-keep",
    project: "/home/dev/work/app",
    at: NOV,
    events: [["user", "new pricing page"]],
  },
];

Deno.test("forget removes a session and its subagents, and no later index brings them back", async () => {
  const ix = await memIndex(HISTORY);
  try {
    let s = ix.open();
    const plan = planForget(s, { session: "aa11-se" });
    assertEquals(plan.sessions.map((x) => x.native_id).sort(), ["aa11-secret", "aa11-sub"]);
    const out = applyForget(s, plan, "--session aa11-se");
    assertEquals(out.sessions, 2);
    assert(out.wordsPruned >= 1, "the words only they held leave the vocabulary");
    assertEquals(search(s, "zanzibarite").results.length, 0);
    assertEquals(search(s, "zanzibar").tier, "none", "no substring of a forgotten word is left");
    s.close();
    for (const suffix of ["", "-wal"]) {
      const f = indexPath(ix.env) + suffix;
      if (existsSync(f)) {
        assert(
          !readFileSync(f).includes("zanzibarite"),
          `the forgotten word is still in index.db${suffix}`,
        );
      }
    }
    // The tombstones live in the data directory, beside (not inside) the index.
    const file = tombstoneFile(indexPath(ix.env));
    assertEquals(dirname(file), dirname(indexPath(ix.env)));
    assertEquals(readTombstones(file).map((t) => t.key).sort(), [
      "mem:aa11-secret",
      "mem:aa11-sub",
    ]);
    // The store changes and is read again; then a rebuild reads everything again.
    await ix.add([{
      ...HISTORY[0],
      events: [...HISTORY[0].events, ["user", "zanzibarite again"]],
    }]);
    await runIndex(ix.env, [memParser(ix.root)], { rebuild: true });
    s = ix.open();
    assertEquals(search(s, "zanzibarite").results.length, 0);
    assertEquals(search(s, "pricing").results.map((r) => r.id).sort(), ["aa22-other", "bb33-keep"]);
    s.close();
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget --dry-run lists and changes nothing; selectors combine", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const s = ix.open();
    const plan = planForget(s, { project: "work/app", before: NOV - 86400e3 });
    assertEquals(plan.sessions.map((x) => x.native_id), ["aa22-other"]);
    assertEquals(search(s, "pricing").results.length, 3);
    assert(!existsSync(tombstoneFile(indexPath(ix.env))), "a plan writes no tombstone");
    assertThrows(() => planForget(s, {}), DejaError);
    s.close();
  } finally {
    ix.cleanup();
  }
});

Deno.test("a date bound never picks an undated session, and the plan counts those left out", async () => {
  const ix = await memIndex([
    ...HISTORY,
    { id: "cc44-undated", at: null, events: [["user", "pricing without a date"]] },
  ]);
  try {
    const s = ix.open();
    const plan = planForget(s, { before: NOV + 86400e3 });
    assertEquals(
      plan.sessions.map((x) => x.native_id).sort(),
      ["aa11-secret", "aa11-sub", "aa22-other", "bb33-keep"],
    );
    assertEquals(plan.undated, 1);
    // Without a date bound the undated session is picked like any other, and nothing is "left out".
    const all = planForget(s, { project: "work/app" });
    assert(all.sessions.some((x) => x.native_id === "cc44-undated"));
    assertEquals(all.undated, 0);
    // search --since leaves it out too.
    assertEquals(search(s, "pricing", { since: NOV - 90 * 86400e3 }).results.length, 3);
    s.close();
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget refuses an id prefix that matches several sessions unless told to take them all", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const s = ix.open();
    const e = assertThrows(() => planForget(s, { session: "aa" }), DejaError) as DejaError;
    assert(e.hint?.includes("--all-matches"));
    assertEquals(planForget(s, { session: "aa", allMatches: true }).sessions.length, 3);
    s.close();
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, user trial): `forget --session 019d` listed 5 of 13 matching ids and said
// nothing of the other 8.
Deno.test("forget's ambiguous prefix lists the newest sessions and counts the rest", async () => {
  const many: MemSession[] = Array.from({ length: 11 }, (_, i) => ({
    id: `dd${String(i).padStart(2, "0")}-many`,
    at: NOV + i * 3600e3,
    events: [["user", `prompt ${i}`]],
  }));
  const ix = await memIndex(many);
  try {
    const s = ix.open();
    const e = assertThrows(() => planForget(s, { session: "dd" }), DejaError) as DejaError;
    const lines = e.message.split("\n");
    assertEquals(lines[0], "'dd' matches 11 sessions:");
    assert(lines[1].includes("dd10"), `newest first: ${lines[1]}`);
    assertEquals(lines.at(-1), "  … 3 more");
    assert(e.hint?.includes("--all-matches"));
    s.close();
  } finally {
    ix.cleanup();
  }
});

Deno.test("unforget lifts the tombstone and a restoring index reads the session again", async () => {
  const ix = await memIndex(HISTORY);
  try {
    let s = ix.open();
    applyForget(s, planForget(s, { session: "aa11-secret" }), "--session aa11-secret");
    const t = unforget(indexPath(ix.env), "mem:aa11-secret");
    assertEquals(t.id, "aa11-secret");
    s.close();
    assertEquals(readTombstones(tombstoneFile(indexPath(ix.env))), []);
    await runIndex(ix.env, ix.parsers, { restore: true });
    s = ix.open();
    assertEquals(search(s, "zanzibarite").results[0]?.id, "aa11-secret");
    s.close();
    assertThrows(() => unforget(indexPath(ix.env), "nothing-like-it"), DejaError);
  } finally {
    ix.cleanup();
  }
});

Deno.test("excluded projects are never indexed, from the exclude file or DEJA_EXCLUDE_PROJECTS", async () => {
  const ix = await memIndex(HISTORY, { DEJA_EXCLUDE_PROJECTS: "clients/acme" });
  try {
    const s = ix.open();
    const n = s.db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE project LIKE '%acme%'")
      .get() as {
        n: number;
      };
    assertEquals(n.n, 0);
    assertEquals(search(s, "pricing").results.length, 2);
    s.close();
  } finally {
    ix.cleanup();
  }
  const ix2 = await memIndex([]);
  try {
    const file = join(ix2.env.home, ".config", "deja", "exclude");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "# client work stays out\n*/clients/*\n");
    await ix2.add(HISTORY);
    const s = ix2.open();
    assertEquals(search(s, "zanzibarite").results.length, 0);
    assertEquals(search(s, "pricing").results.length, 2);
    s.close();
  } finally {
    ix2.cleanup();
  }
});

// Regression (2026-12): a project added to the exclude list after it was indexed
// stayed in `last`, `show` and `how` until `deja index --rebuild`.
Deno.test("an incremental index drops the sessions of a project excluded after they were indexed", async () => {
  const ix = await memIndex(HISTORY);
  try {
    let s = ix.open();
    assertEquals(search(s, "zanzibarite").results.length, 1);
    s.close();
    const file = join(ix.env.home, ".config", "deja", "exclude");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "clients/acme\n");
    await ix.reindex();
    s = ix.open();
    const left = s.db.prepare("SELECT native_id FROM sessions ORDER BY native_id").all() as Array<
      { native_id: string }
    >;
    assertEquals(left.map((r) => r.native_id), ["aa22-other", "bb33-keep"]);
    assertEquals(search(s, "zanzibarite", { exclude: [] }).results.length, 0);
    s.close();
    for (const suffix of ["", "-wal"]) {
      const f = indexPath(ix.env) + suffix;
      if (existsSync(f)) {
        assert(!readFileSync(f).includes("zanzibarite"), `left in index.db${suffix}`);
      }
    }
    // Excluding is not forgetting: no tombstone is written.
    assertEquals(readTombstones(tombstoneFile(indexPath(ix.env))).length, 0);
  } finally {
    ix.cleanup();
  }
});

// Regression (2027-01, real Crush store): `deja forget --unforget crush:556ff46e` said "no forgotten
// session matches" although the help documents the `harness:id` form; a bare prefix worked.
Deno.test("unforget takes a harness:id-prefix key as well as a bare prefix", async () => {
  const ix = await memIndex(HISTORY);
  try {
    const s = ix.open();
    applyForget(s, planForget(s, { session: "aa11-secret" }), "--session aa11-secret");
    applyForget(s, planForget(s, { session: "bb33" }), "--session bb33");
    assertEquals(unforget(indexPath(ix.env), "mem:aa11").id, "aa11-secret");
    assertEquals(unforget(indexPath(ix.env), "bb3").id, "bb33-keep");
    assertThrows(() => unforget(indexPath(ix.env), "other:aa11"), DejaError);
    s.close();
  } finally {
    ix.cleanup();
  }
});

// Trial 67: `strings index.db` still read a forgotten session's edits and commands: stale
// copies an earlier write left in the free space of live pages, which secure delete (it zeroes
// only what it deletes) never touched.
Deno.test("forget leaves no stale copy of a forgotten session's text anywhere in the file", async () => {
  const ix = await memIndex(HISTORY);
  try {
    let s = ix.open();
    // A stale copy in a page's free space, as a row written and deleted leaves one.
    s.db.exec("PRAGMA secure_delete = OFF");
    s.db.exec("INSERT INTO meta(key, value) VALUES ('x', 'a zanzibarite quarry ledger line')");
    s.db.exec("DELETE FROM meta WHERE key = 'x'");
    s.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    s.close();
    assert(
      readFileSync(indexPath(ix.env)).includes("zanzibarite quarry"),
      "the stale copy is there",
    );
    s = ix.open();
    applyForget(s, planForget(s, { session: "aa11-secret" }), "--session aa11-secret");
    s.close();
    for (const suffix of ["", "-wal"]) {
      const f = indexPath(ix.env) + suffix;
      if (existsSync(f)) {
        assert(!readFileSync(f).includes("zanzibarite"), `left in index.db${suffix}`);
      }
    }
  } finally {
    ix.cleanup();
  }
});
