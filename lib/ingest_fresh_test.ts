import { assertEquals } from "../tests/_assert.ts";
import { Store } from "./store.ts";
import { SourceWriter } from "./ingest.ts";
import { prepareChunk } from "./prepare.ts";
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
