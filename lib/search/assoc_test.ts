import { assert, assertEquals } from "../../tests/_assert.ts";
import { learnAssociations, learnFrom, MIN_SESSIONS } from "./assoc.ts";
import { buildAssociations, learnedFor } from "./assoc.ts";
import { memIndex, type MemSession } from "../../tests/_search_fixture.ts";
import { Q } from "../schema.ts";
import type { Store } from "../store.ts";
import { removeSessions } from "../forget/forget.ts";

const ids = (s: Store, native: string[]) =>
  native.map((n) =>
    (s.db.prepare("SELECT id FROM sessions WHERE native_id = ?").get(n) as { id: number }).id
  );

/** 60 sessions: `ledger` with `invoice` in 4, a junk pair in 2, chatter everywhere. */
function corpus(): Map<number, string[]> {
  const filler = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
  const m = new Map<number, string[]>();
  for (let i = 0; i < 60; i++) {
    const words = [filler[i % 8], filler[(i * 3) % 8], `topic${i % 12}`, "deploy"];
    if (i < 4) words.push("ledger", "invoice");
    else if (i === 4) words.push("invoice"); // each alone too: the pair is not everything
    else if (i === 5) words.push("ledger");
    if (i === 20 || i === 40) words.push("zebra", "quokka"); // a rare pair: chance
    m.set(i, [`the ${words.join(" ")} work`]);
  }
  return m;
}

Deno.test("learnAssociations finds words sessions use together, not a rare chance pair", () => {
  const got = learnAssociations(corpus());
  const of = (t: string) => got.filter((a) => a.term === t).map((a) => a.other);
  assert(of("ledger").includes("invoice"), JSON.stringify(got.slice(0, 10)));
  assert(of("invoice").includes("ledger"));
  // Two sessions are chance, and a word in every session links nothing.
  assertEquals(of("zebra"), []);
  assertEquals(of("deploy"), []);
  for (const a of got) assert(a.weight > 0 && a.weight <= 1, JSON.stringify(a));
});

Deno.test("learnFrom learns the same from a session's rows apart as from them together", () => {
  // The index's rows come titles first, then turns: a session's words are counted once.
  const together = new Map([...corpus()].map(([i, [t]]) => [i, [t, `${t} again`]]));
  const apart = [...together].map(([session_id, [t]]) => ({ session_id, text: t }))
    .concat([...together].map(([session_id, [, u]]) => ({ session_id, text: u })));
  const want = learnAssociations(together);
  assert(want.length > 0);
  const key = (a: { term: string; other: string; weight: number }) =>
    `${a.term} ${a.other} ${a.weight.toFixed(9)}`;
  assertEquals(learnFrom(apart).map(key).sort(), want.map(key).sort());
});

Deno.test("learnAssociations learns nothing from a history too small to tell", () => {
  const small = new Map([...corpus()].slice(0, MIN_SESSIONS - 1));
  assertEquals(learnAssociations(small), []);
});

Deno.test("index builds the association table after a full run and skips an unchanged history", async () => {
  const sessions: MemSession[] = [...corpus()].map(([i, texts]) => ({
    id: `s${i}`,
    events: [["user", texts[0]], ["assistant", "The root cause was found and fixed."]],
  }));
  const ix = await memIndex(sessions);
  const s = ix.open();
  try {
    assert(learnedFor(s, "ledger").some(([w]) => w === "invoice"));
    assertEquals(buildAssociations(s).built, false, "nothing changed: no rebuild");
    assertEquals(buildAssociations(s, true).built, true);
    // Forgetting the sessions that taught a pair takes the pair with them.
    const taught = Q.sessionsByIds.all(s, {
      ids: JSON.stringify(ids(s, ["s0", "s1", "s2", "s3"])),
    });
    removeSessions(s, taught);
    assertEquals(learnedFor(s, "ledger"), []);
  } finally {
    s.close();
    ix.cleanup();
  }
});

Deno.test("the association pass reads the fields of the newest sessions only, as many as asked", async () => {
  const day = 86400e3;
  const ix = await memIndex([0, 1, 2, 3].map((i) => ({
    id: `n${i}`,
    at: Date.parse("2026-10-01T10:00:00Z") + i * day,
    events: [["user", `field of session ${i}`]] as Array<["user", string]>,
  })));
  const s = ix.open();
  try {
    const texts = (n: number) =>
      Q.assocFields.all(s, { sessions: n }).map((r) => r.text).filter((t) => t.startsWith("field"))
        .sort();
    assertEquals(texts(2), ["field of session 2", "field of session 3"]);
    assertEquals(texts(10).length, 4);
  } finally {
    s.close();
    ix.cleanup();
  }
});
