/**
 * `deja forget` of many sessions (or of every one indexed) asks for `--yes` first, and
 * `deja forget --undo` brings a whole forget back in one command.
 */
import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";
import type { Env } from "../../core/model.ts";

/** `n` sessions in `/w/big/<i>`, then `extra` in `/w/other`. */
const sessions = (n: number, extra = 1) =>
  Array.from({ length: n + extra }, (_, i) => ({
    id: `${String(i).padStart(4, "0")}-aaaa-bbbb`,
    cwd: i < n ? `/w/big/p${i}` : `/w/other`,
    start: `2026-11-01T1${i % 10}:00:00Z`,
    turns: [{ user: `prompt ${i}` }, { say: `reply ${i}` }],
  }));

async function withIndex(
  list: ReturnType<typeof sessions>,
  run: (env: Env) => Promise<void>,
): Promise<void> {
  const ix = await indexSessions(list);
  ix.store.close();
  try {
    await run(withVars(ix.env, { DEJA_NO_REFRESH: "1" }));
  } finally {
    ix.cleanup();
  }
}

/** The sessions `deja last` lists: id -> events. */
async function indexed(env: Env): Promise<Record<string, number>> {
  const r = await runMain(env, ["last", "100", "--json"]);
  assert(r.code === 0 || r.code === 1, r.err);
  const out: Record<string, number> = {};
  for (const s of JSON.parse(r.out).sessions) out[s.id] = s.events;
  return out;
}

// Regression (2026-12, user trial): `forget --project /` and `--before 3000-01-01` forgot the
// whole index with exit 0 and no question, and --unforget lifted one session at a time.
Deno.test("a forget of more than 10 sessions shows them and exits 2 without --yes", async () => {
  await withIndex(sessions(12), async (env) => {
    const before = await indexed(env);
    assertEquals(Object.keys(before).length, 13);
    const r = await runMain(env, ["forget", "--project", "/w/big"]);
    assertEquals(r.code, 2, r.out + r.err);
    assertStringIncludes(r.out, "would forget 12 sessions");
    assertStringIncludes(r.err, "forget would remove 12 sessions: add --yes");
    assertStringIncludes(r.err, "deja forget --undo");
    assertEquals(await indexed(env), before, "nothing was forgotten");
    const j = await runMain(env, ["forget", "--project", "/w/big", "--json"]);
    assertEquals([j.code, JSON.parse(j.out).exit], [2, 2]);
    assertStringIncludes(JSON.parse(j.out).error, "add --yes");
    assertEquals(await indexed(env), before, "nothing was forgotten");

    const y = await runMain(env, ["forget", "--project", "/w/big", "--yes"]);
    assertEquals(y.code, 0, y.err);
    assertStringIncludes(y.out, "forgot 12 sessions");
    assertStringIncludes(y.out, "deja forget --undo brings them back");
    assertEquals(Object.keys(await indexed(env)).length, 1);

    const u = await runMain(env, ["forget", "--undo"]);
    assertEquals(u.code, 0, u.err);
    assertStringIncludes(u.out, "12 sessions back in the index");
    assertEquals(await indexed(env), before, "every session is back whole");
    const l = await runMain(env, ["forget", "--list"]);
    assertEquals(l.out, "no forgotten sessions\n");
    const again = await runMain(env, ["forget", "--undo"]);
    assertEquals(again.code, 1, again.err);
  });
});

Deno.test("a forget of every session indexed needs --yes; a few of them do not", async () => {
  await withIndex(sessions(2, 1), async (env) => {
    const all = await runMain(env, ["forget", "--before", "3000-01-01"]);
    assertEquals(all.code, 2, all.out + all.err);
    assertStringIncludes(all.err, "3 sessions, every session indexed: add --yes");
    assertEquals(Object.keys(await indexed(env)).length, 3);
    const dry = await runMain(env, ["forget", "--before", "3000-01-01", "--dry-run"]);
    assertEquals(dry.code, 0, dry.err);
    const two = await runMain(env, ["forget", "--project", "/w/big"]);
    assertEquals(two.code, 0, two.err);
    assertEquals(Object.keys(await indexed(env)).length, 1);
    // --undo lifts the last forget only: an earlier one stays forgotten.
    const one = await runMain(env, ["forget", "--project", "/w/other"]);
    assertEquals(one.code, 0, one.err);
    assertEquals(Object.keys(await indexed(env)).length, 0);
    assertEquals((await runMain(env, ["forget", "--undo"])).code, 0);
    const back = Object.keys(await indexed(env));
    assertEquals(back, ["0002-aaaa-bbbb"]);
    assertEquals((await runMain(env, ["forget", "--undo"])).code, 0);
    assertEquals(Object.keys(await indexed(env)).length, 3);
    assert((await runMain(env, ["forget", "--undo", "--dry-run"])).code === 2);
  });
});
