import { assertEquals } from "../tests/_assert.ts";
import { Store } from "./store.ts";
import { SourceWriter } from "./ingest.ts";
import { prepareChunk } from "./prepare.ts";
import type { Event, Session } from "../core/model.ts";
import { modelsOf } from "./sessions.ts";

/** A reply per model named (`-`: a prompt, no model), keys `<first>-<i>`. */
function chunk(models: string[], first: number): Session {
  const events: Event[] = models.map((m, i) =>
    m === "-"
      ? { kind: "user", text: `prompt ${first + i}`, key: `e${first + i}` }
      : { kind: "assistant", text: `reply ${first + i}`, key: `e${first + i}`, model: m }
  );
  return { harness: "claude", id: "switcher", path: "/s.jsonl", model: "x", events };
}

function write(store: Store, mode: "full" | "append", c: Session): void {
  store.tx(() => {
    const w = new SourceWriter(store, "/s.jsonl", mode);
    w.write(prepareChunk(c));
    w.finish();
  });
}

function changes(store: Store): string[] {
  const rows = store.db.prepare(
    "SELECT key, model FROM events WHERE model IS NOT NULL ORDER BY seq",
  )
    .all() as Array<{ key: string; model: string }>;
  return rows.map((r) => `${r.key}=${r.model}`);
}

function session(store: Store) {
  return store.db.prepare("SELECT model, models FROM sessions").get() as {
    model: string | null;
    models: string | null;
  };
}

Deno.test("the index keeps a reply's model only where it changes, and a session's models in order of first use", () => {
  const store = Store.open(":memory:");
  try {
    write(store, "full", chunk(["-", "opus", "opus", "-", "sonnet", "sonnet", "opus", "haiku"], 0));
    assertEquals(changes(store), ["e1=opus", "e4=sonnet", "e6=opus", "e7=haiku"]);
    assertEquals(session(store).models, '["opus","sonnet","haiku"]');
    assertEquals(modelsOf(session(store)), ["opus", "sonnet", "haiku"]);
  } finally {
    store.close();
  }
});

Deno.test("an appended pass continues from the model the index last recorded", () => {
  const store = Store.open(":memory:");
  try {
    write(store, "full", chunk(["-", "opus"], 0));
    assertEquals(session(store).models, null); // one model: the session's `model` says it
    assertEquals(modelsOf(session(store)), ["x"]);
    // The same model again adds no row; a switch does.
    write(store, "append", chunk(["-", "opus", "-", "sonnet"], 2));
    assertEquals(changes(store), ["e1=opus", "e5=sonnet"]);
    assertEquals(session(store).models, '["opus","sonnet"]');
    // A keyed event written again keeps its row; nothing is added or lost.
    write(store, "append", chunk(["sonnet"], 5));
    assertEquals(changes(store), ["e1=opus", "e5=sonnet"]);
  } finally {
    store.close();
  }
});

Deno.test("a session whose replies name no model stores none", () => {
  const store = Store.open(":memory:");
  try {
    write(store, "full", chunk(["-", "-"], 0));
    assertEquals(changes(store), []);
    assertEquals(session(store).models, null);
  } finally {
    store.close();
  }
});

Deno.test("a session written again whole, or in several chunks of one pass, keeps the models its events hold", () => {
  const store = Store.open(":memory:");
  try {
    store.tx(() => {
      const w = new SourceWriter(store, "/s.jsonl", "full");
      w.write(prepareChunk(chunk(["-", "opus"], 0)));
      w.write(prepareChunk(chunk(["-", "sonnet", "opus"], 2)));
      w.finish();
    });
    assertEquals(session(store).models, '["opus","sonnet"]');
    // Replaced whole: the old events and their models go with them.
    store.tx(() => {
      const w = new SourceWriter(store, "/s.jsonl", "sessions");
      w.write(prepareChunk(chunk(["-", "haiku"], 0)));
      w.finish();
    });
    assertEquals([changes(store), session(store).models], [["e1=haiku"], null]);
  } finally {
    store.close();
  }
});

Deno.test("a session whose row names no model keeps the one model its events name", () => {
  // Trial 103 F8: a Crush session whose one reply was empty named its model only in a notice,
  // and `--model` missed it.
  const store = Store.open(":memory:");
  try {
    const c: Session = {
      harness: "crush",
      id: "empty",
      path: "/s.jsonl",
      events: [
        { kind: "user", text: "hi", key: "u" },
        { kind: "notice", text: "gemma gave no reply", key: "n", model: "gemma" },
      ],
    };
    write(store, "full", c);
    assertEquals(session(store).models, '["gemma"]');
    assertEquals(modelsOf(session(store)), ["gemma"]);
  } finally {
    store.close();
  }
});
