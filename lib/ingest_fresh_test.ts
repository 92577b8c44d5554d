import { assertEquals } from "../tests/_assert.ts";
import { Store } from "./store.ts";
import { SourceWriter } from "./ingest.ts";
import { prepareChunk } from "./prepare.ts";
import { fnv1a32 } from "../core/text.ts";
import type { Event, Session } from "../core/model.ts";

function chunk(keys: string[], word: string): Session {
  const events: Event[] = keys.map((key, i) => ({
    kind: "user",
    text: `${word} ${key}`,
    time: 1_760_000_000_000 + i,
    key,
  }));
  return { harness: "claude", id: "big-session", path: "/s.jsonl", events };
}

Deno.test("a session with more event keys than a pass remembers still updates, never duplicates", () => {
  // Issue 18's 2 GB session: remembering every key of a pass grew without bound; past the cap
  // the writer looks keys up in the index instead, with the same result.
  const store = Store.open(":memory:");
  try {
    store.tx(() => {
      const w = new SourceWriter(store, "/s.jsonl", "full");
      w.maxFreshKeys = 3;
      w.write(prepareChunk(chunk(["k0", "k1", "k2", "k3", "k4", "k5"], "first")));
      w.write(prepareChunk(chunk(["k1", "k5", "k6"], "again")));
      w.finish();
    });
    const rows = store.db.prepare("SELECT key, text FROM events ORDER BY key").all() as Array<
      { key: string; text: string }
    >;
    assertEquals(rows.map((r) => r.key), ["k0", "k1", "k2", "k3", "k4", "k5", "k6"]);
    assertEquals(rows.find((r) => r.key === "k1")!.text, "again k1");
    assertEquals(rows.find((r) => r.key === "k5")!.text, "again k5");
  } finally {
    store.close();
  }
});

Deno.test("two event keys of one hash are both written, and a repeated one still updates", () => {
  // The writer remembers the keys of a pass as 32-bit hashes (memory: issue 18); a shared hash
  // must only cost a lookup, never a lost or a doubled event.
  assertEquals(fnv1a32("k32728"), fnv1a32("k261234"));
  const store = Store.open(":memory:");
  try {
    store.tx(() => {
      const w = new SourceWriter(store, "/s.jsonl", "full");
      w.write(prepareChunk(chunk(["k32728", "k261234"], "first")));
      w.write(prepareChunk(chunk(["k261234"], "again")));
      w.finish();
    });
    const rows = store.db.prepare("SELECT key, text FROM events ORDER BY key").all() as Array<
      { key: string; text: string }
    >;
    assertEquals(rows.map((r) => `${r.key}=${r.text}`), [
      "k261234=again k261234",
      "k32728=first k32728",
    ]);
  } finally {
    store.close();
  }
});

Deno.test("a pass remembers its event keys as numbers, not as the key strings", () => {
  // Issue 18: 100,000 remembered key strings held ~35 MB of a 1 GB session's index run.
  const store = Store.open(":memory:");
  try {
    store.tx(() => {
      const w = new SourceWriter(store, "/s.jsonl", "full");
      w.write(prepareChunk(chunk(["a-long-event-key-0", "a-long-event-key-1"], "x")));
      const slots = (w as unknown as { slots: Map<string, { fresh?: Set<unknown> }> }).slots;
      const kept = [...slots.values()].flatMap((s) => [...(s.fresh ?? [])]);
      assertEquals(kept.length, 2);
      assertEquals(kept.every((k) => typeof k === "number"), true);
      w.finish();
    });
  } finally {
    store.close();
  }
});
