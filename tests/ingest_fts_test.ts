import { assert, assertEquals } from "./_assert.ts";
import { rmSync } from "node:fs";
import { tempDir } from "./_tmp.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Session } from "../core/model.ts";
import { Store } from "../lib/store.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../lib/schema.ts";
import { SourceWriter } from "../lib/ingest.ts";
import { prepareChunk, storedKey } from "../lib/prepare.ts";

const LONG_KEY = "a:msg_0208806c0ae241d4a503ca0deaf7cea9:c:toolu_a755a05771164395a651f7e63dce554c";

function chunk(text: string, key = LONG_KEY): Session {
  return {
    harness: "claude",
    id: "s1",
    path: "/store/s1.jsonl",
    events: [{ kind: "assistant", text, key, time: 1 }],
  };
}

/** Events matching `word`, and whether events_fts agrees with its content table. */
function probe(store: Store, word: string): { hits: number; sound: boolean } {
  const hits = (store.db.prepare("SELECT COUNT(*) AS n FROM events_fts WHERE events_fts MATCH ?")
    .get(word) as { n: number }).n;
  let sound = true;
  try {
    store.db.exec("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)");
  } catch {
    sound = false;
  }
  return { hits, sound };
}

function write(store: Store, mode: "full" | "append", ...chunks: Session[]): void {
  store.tx(() => {
    const w = new SourceWriter(store, "/store/s1.jsonl", mode);
    for (const c of chunks) w.write(prepareChunk(c));
    w.finish();
  });
}

Deno.test("an event replaced within one pass is searchable by its new text only and events_fts stays whole", () => {
  const store = Store.open(":memory:");
  try {
    write(store, "full", chunk("alphaword first"), chunk("bravoword second"));
    assertEquals(probe(store, "alphaword"), { hits: 0, sound: true });
    assertEquals(probe(store, "bravoword"), { hits: 1, sound: true });
    const n = store.db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number };
    assertEquals(n.n, 1);
  } finally {
    store.close();
  }
});

Deno.test("long parser keys are stored as a short digest, short keys as they are", () => {
  const d = storedKey(LONG_KEY);
  assert(d.startsWith("~") && d.length <= 16, d);
  assertEquals(storedKey(LONG_KEY), d);
  assert(storedKey(LONG_KEY + "x") !== d);
  assertEquals(storedKey("u:1234"), "u:1234");
  assert(storedKey("~short") !== "~short", "a short key that looks like a digest is digested");
});

Deno.test("a schema 4 index upgrades, keeps its search results, and its whole parser keys still match", () => {
  const dir = tempDir("deja-mig5-");
  try {
    const path = join(dir, "index.db");
    const old = new DatabaseSync(path);
    for (const m of MIGRATIONS.slice(0, 4)) old.exec(m);
    old.exec("PRAGMA user_version = 4");
    old.prepare(
      "INSERT INTO sessions (harness, native_id, source) VALUES ('claude', 's1', '/store/s1.jsonl')",
    ).run();
    old.prepare(
      "INSERT INTO events (session_id, seq, kind, text, key) VALUES (1, 0, 'assistant', ?, ?)",
    ).run("charlieword from the old index", LONG_KEY);
    old.close();

    const store = Store.open(path, { create: true });
    try {
      const v = store.db.prepare("PRAGMA user_version").get() as { user_version: number };
      assertEquals(v.user_version, SCHEMA_VERSION);
      assertEquals(probe(store, "charlieword"), { hits: 1, sound: true });
      // The same record read again from where the last pass ended replaces the old row.
      write(store, "append", chunk("deltaword replaces it"));
      assertEquals(probe(store, "charlieword"), { hits: 0, sound: true });
      assertEquals(probe(store, "deltaword"), { hits: 1, sound: true });
      // A new record of the session is indexed too.
      write(store, "append", chunk("echoword is new", "u:2"));
      assertEquals(probe(store, "echoword"), { hits: 1, sound: true });
      const n = store.db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number };
      assertEquals(n.n, 2);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("a new index uses 8 KiB pages", () => {
  const dir = tempDir("deja-page-");
  try {
    const store = Store.open(join(dir, "index.db"), { create: true });
    try {
      const p = store.db.prepare("PRAGMA page_size").get() as { page_size: number };
      assertEquals(p.page_size, 8192);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
