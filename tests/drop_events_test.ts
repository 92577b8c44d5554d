import { assert, assertEquals } from "./_assert.ts";
import { join } from "node:path";
import { Store } from "../lib/store.ts";
import { Q } from "../lib/schema.ts";
import { dropEvents, dropPlan, dropSession, type DropStep } from "../lib/drop_events.ts";
import { tempDir } from "./_tmp.ts";

/** An index holding sessions 1..n.length, session i with n[i-1] events of `size` characters each. */
function indexWith(n: number[], size: (session: number, seq: number) => number): Store {
  const s = Store.open(join(tempDir("deja-drop-"), "index.db"), { create: true });
  const ins = s.db.prepare(
    `INSERT INTO events (session_id, seq, kind, text, time, key, tool, call_id, data, flags)
     VALUES (?, ?, 'user', ?, NULL, NULL, NULL, NULL, NULL, 0)`,
  );
  s.tx(() => {
    n.forEach((count, i) => {
      const id = i + 1;
      s.db.prepare(
        `INSERT INTO sessions (id, harness, native_id, source) VALUES (?, 'claude', ?, ?)`,
      )
        .run(id, `s${id}`, `/s${id}`);
      for (let seq = 0; seq < count; seq++) {
        const word = `w${id}x${seq}`;
        ins.run(id, seq, `${word} `.repeat(Math.ceil(size(id, seq) / (word.length + 1))));
      }
    });
    Q.ftsFrom.run(s, { from: 0 });
  });
  return s;
}

function events(s: Store, session: number): number {
  return Q.eventCountOf.get(s, { session })!.n;
}

function ftsHits(s: Store, word: string): number {
  return (s.db.prepare(`SELECT COUNT(*) AS n FROM events_fts WHERE events_fts MATCH ?`).get(
    `"${word}"`,
  ) as { n: number }).n;
}

Deno.test("a long session's events are deleted in stretches of bounded text, small sessions together", () => {
  // Session 1: 40 events of 1,000 characters; sessions 2-4 small; session 5: 3 events.
  const s = indexWith([40, 3, 2, 4, 3], (id) => (id === 1 ? 1000 : 100));
  try {
    const steps = dropPlan(s, [2, 3, 1, 4, 5], 10_000, 6);
    // Small sessions go together up to 6 events; the long one alone, in stretches.
    const groups = steps.filter((x): x is { sessions: number[] } => "sessions" in x);
    const stretches = steps.filter((x): x is Extract<DropStep, { session: number }> =>
      "session" in x
    );
    assertEquals(groups.map((g) => g.sessions), [[2, 3], [4], [5]]);
    assert(stretches.every((x) => x.session === 1));
    // Each stretch starts within 10,000 bytes of text of the previous one's start.
    const ids = s.db.prepare(
      `SELECT id, octet_length(text) AS n FROM events WHERE session_id = 1 ORDER BY id`,
    )
      .all() as { id: number; n: number }[];
    let from = 0;
    for (const { through } of stretches) {
      const part = ids.filter((r) => r.id > from && r.id <= through);
      const bytes = part.reduce((a, r) => a + r.n, 0);
      assert(
        part.length > 0 && bytes - part.at(-1)!.n < 10_000,
        `stretch to ${through}: ${bytes} bytes`,
      );
      from = through;
    }
    assertEquals(from, ids.at(-1)!.id, "the last stretch ends at the session's last event");
    assert(stretches.length >= 4, `40,000 bytes in stretches of 10,000: ${stretches.length}`);
  } finally {
    s.close();
  }
});

Deno.test("dropped events leave the table and the text index; other sessions keep theirs", () => {
  const s = indexWith([300, 2, 5], (id, seq) => (id === 1 ? 200 + (seq % 7) * 900 : 50));
  try {
    assert(ftsHits(s, "w1x7") > 0 && ftsHits(s, "w3x1") > 0);
    s.tx(() => dropEvents(s, [1, 2]));
    assertEquals([events(s, 1), events(s, 2), events(s, 3)], [0, 0, 5]);
    assertEquals(ftsHits(s, "w1x7"), 0);
    assertEquals(ftsHits(s, "w1x299"), 0);
    assertEquals(ftsHits(s, "w2x0"), 0);
    assertEquals(ftsHits(s, "w3x1"), 1);
    s.tx(() => dropSession(s, 3));
    assertEquals(ftsHits(s, "w3x1"), 0);
    assertEquals(Q.sessionById.get(s, { id: 3 }), undefined);
    s.db.exec(`INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)`);
  } finally {
    s.close();
  }
});
