import { assert, assertEquals } from "../tests/_assert.ts";
import type { Session } from "../core/model.ts";
import { Store } from "./store.ts";
import { SourceWriter, TEXT_PIECE_BYTES } from "./ingest.ts";
import { prepareChunk } from "./prepare.ts";
import { WriteBatch } from "./write_batch.ts";
import { VocabCollector } from "./search/tokenize.ts";
import { FLUSH_TOKENS, flushVocab, KEPT_FLUSHED } from "./search/vocab.ts";
import { applyWriterSettings, FTS_HASH_BYTES } from "./schema.ts";

function session(source: string, id: string, text: string): Session {
  return { harness: "claude", id, path: source, events: [{ kind: "user", text, time: 1 }] };
}

function write(store: Store, s: Session, deferred: boolean): void {
  const w = new SourceWriter(store, s.path, "full");
  w.write(prepareChunk(s));
  w.finish(deferred);
}

const hits = (store: Store, word: string) =>
  (store.db.prepare("SELECT count(*) AS n FROM events_fts WHERE events_fts MATCH ?").get(word) as {
    n: number;
  }).n;

Deno.test("a store rolled back in a batch leaves the text of the stores before it to be indexed", () => {
  const store = Store.open(":memory:");
  try {
    // The index already holds /b's session: writing /b again removes it first, which
    // indexes the batch's pending text inside /b's savepoint.
    store.tx(() => write(store, session("/b.jsonl", "sb", "oldbravo"), false));
    const batch = new WriteBatch(store);
    batch.begin();
    write(store, session("/a.jsonl", "sa", "alphaword"), true);
    batch.keep(10);
    batch.begin();
    write(store, session("/b.jsonl", "sb", "bravoword"), true);
    batch.undo();
    batch.begin();
    write(store, session("/c.jsonl", "sc", "charlieword"), true);
    batch.keep(10);
    batch.commit();
    assertEquals(
      ["alphaword", "bravoword", "charlieword", "oldbravo"].map((w) => hits(store, w)),
      [1, 0, 1, 1],
    );
    store.db.exec("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)");
    const terms = store.db.prepare("SELECT term FROM vocab WHERE term LIKE '%word'").all()
      .map((r) => (r as { term: string }).term).sort();
    // vocab may hold more than events_fts (a rolled-back store's words), never less.
    assertEquals(terms.filter((t) => t !== "bravoword"), ["alphaword", "charlieword"]);
  } finally {
    store.close();
  }
});

Deno.test("a session's later chunks list only new tokens, and a rolled-back batch's tokens are written again", () => {
  const store = Store.open(":memory:");
  try {
    const vocab = new VocabCollector();
    const first = prepareChunk(session("/a.jsonl", "sa", "zebraword common"), vocab);
    const later = prepareChunk(session("/a.jsonl", "sa", "zebraword yakword"), vocab);
    const other = prepareChunk(session("/b.jsonl", "sb", "zebraword"), vocab);
    assertEquals([first.tokens.sort(), later.tokens, other.tokens], [
      ["common", "zebraword"],
      ["yakword"],
      ["zebraword"],
    ]);
    const batch = new WriteBatch(store);
    batch.begin();
    const w = new SourceWriter(store, "/a.jsonl", "full");
    w.write(first);
    w.finish(true);
    batch.keep(10);
    flushVocab(store); // as commit does, before a COMMIT that fails
    batch.abort();
    batch.begin();
    const again = new SourceWriter(store, "/a.jsonl", "full");
    again.write(later); // the worker does not list zebraword again
    again.finish(true);
    batch.keep(10);
    batch.commit();
    const terms = store.db.prepare("SELECT term FROM vocab ORDER BY term").all()
      .map((r) => (r as { term: string }).term);
    // Every token events_fts holds is in vocab (a rolled-back one may stay too).
    for (const t of ["yakword", "zebraword"]) assertEquals([t, hits(store, t)], [t, 1]);
    assertEquals(terms.filter((t) => t !== "common"), ["yakword", "zebraword"]);
  } finally {
    store.close();
  }
});

Deno.test("the writer's settings hold 8 MB of FTS5 terms before a segment, written once", () => {
  const store = Store.open(":memory:");
  try {
    const hashsize = () =>
      (store.db.prepare("SELECT v FROM events_fts_config WHERE k = 'hashsize'").get() as
        | { v: number }
        | undefined)?.v;
    assertEquals(hashsize(), undefined);
    applyWriterSettings(store.db);
    assertEquals(hashsize(), FTS_HASH_BYTES);
    const changes = () =>
      (store.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
    const before = changes();
    applyWriterSettings(store.db); // a later run: nothing written
    assertEquals(changes(), before);
  } finally {
    store.close();
  }
});

Deno.test("a source as large as a batch commits the batch before it and is written alone, with no savepoint", () => {
  const store = Store.open(":memory:");
  try {
    const batch = new WriteBatch(store, 1000);
    batch.begin(10);
    write(store, session("/a.jsonl", "sa", "alphaword"), true);
    batch.keep(10);
    batch.begin(5000);
    // The batch before it committed: its text is indexed, and no savepoint is open to keep
    // copies of the pages the large source changes.
    assertEquals(hits(store, "alphaword"), 1);
    let savepoint = true;
    try {
      store.db.exec("RELEASE source");
    } catch {
      savepoint = false;
    }
    assertEquals(savepoint, false);
    write(store, session("/b.jsonl", "sb", "bravoword"), true);
    batch.undo();
    // Undone alone: the transaction went; the next source opens its own.
    batch.begin(10);
    write(store, session("/c.jsonl", "sc", "charlieword"), true);
    batch.keep(10);
    batch.begin(5000);
    write(store, session("/d.jsonl", "sd", "deltaword"), true);
    batch.keep(5000);
    batch.commit();
    assertEquals(
      ["alphaword", "bravoword", "charlieword", "deltaword"].map((w) => hits(store, w)),
      [1, 0, 1, 1],
    );
    store.db.exec("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    store.close();
  }
});

Deno.test("text caught up in pieces of TEXT_PIECE_BYTES indexes every event once, at the pieces' edges too", () => {
  const store = Store.open(":memory:");
  try {
    // 160 events of 64 KB: 10 MB of text, more than one piece.
    const filler = "lorem ".repeat(64 * 1024 / 6);
    const n = 160;
    assert(n * filler.length > TEXT_PIECE_BYTES);
    const s: Session = {
      harness: "claude",
      id: "big",
      path: "/big.jsonl",
      events: Array.from({ length: n }, (_, i) => ({
        kind: "user" as const,
        text: `mark${i}word ${filler}`,
        time: i + 1,
      })),
    };
    const batch = new WriteBatch(store);
    batch.begin(n * filler.length);
    write(store, s, true);
    batch.keep(n * filler.length);
    batch.commit();
    const found = Array.from({ length: n }, (_, i) => hits(store, `mark${i}word`));
    assertEquals(found.filter((h) => h !== 1), []);
    store.db.exec("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    store.close();
  }
});

Deno.test("a source written alone commits when kept, whatever it read", () => {
  const store = Store.open(":memory:");
  try {
    const batch = new WriteBatch(store, 1000);
    // It may change more than it reads (it replaces what an earlier read wrote).
    batch.begin(5000);
    write(store, session("/a.jsonl", "sa", "alphaword"), true);
    batch.keep(10);
    assertEquals(hits(store, "alphaword"), 1);
    batch.begin(10);
    write(store, session("/b.jsonl", "sb", "bravoword"), true);
    batch.undo();
    batch.commit();
    assertEquals(["alphaword", "bravoword"].map((w) => hits(store, w)), [1, 0]);
  } finally {
    store.close();
  }
});

/** A session of `n` events, each with a word of its own (`<prefix><i>x`). */
function manyWords(source: string, id: string, prefix: string, n: number): Session {
  const events = Array.from({ length: n }, (_, i) => ({
    kind: "user" as const,
    text: `${prefix}${i.toString(36)}x`,
    time: 1,
  }));
  return { harness: "claude", id, path: source, events };
}

const vocabHas = (store: Store, term: string) =>
  store.db.prepare("SELECT 1 FROM vocab WHERE term = ?").get(term) !== undefined;

Deno.test("a source of many new words inserts them as it goes, not all at its commit (issue 18)", () => {
  const store = Store.open(":memory:");
  try {
    const batch = new WriteBatch(store);
    batch.begin();
    const w = new SourceWriter(store, "/a.jsonl", "full");
    w.write(prepareChunk(manyWords("/a.jsonl", "sa", "qz", FLUSH_TOKENS + 10)));
    // Before the source ends or the batch commits, most of its words are in `vocab` already.
    const n = (store.db.prepare("SELECT count(*) AS n FROM vocab").get() as { n: number }).n;
    assert(n >= FLUSH_TOKENS, `${n} words inserted before the commit`);
    w.finish(true);
    batch.keep(10);
    batch.commit();
    assert(vocabHas(store, `qz${(FLUSH_TOKENS + 9).toString(36)}x`));
  } finally {
    store.close();
  }
});

Deno.test("a source rolled back after more new words than are kept: vocab is repaired from the text at the next commit", () => {
  const store = Store.open(":memory:");
  try {
    const batch = new WriteBatch(store);
    const vocab = new VocabCollector();
    // A source the batch keeps, then one read in two passes: its first pass fails after more
    // new words than a rollback can insert again, and the second pass, whose chunks the
    // worker sends without the words it sent before, succeeds.
    batch.begin();
    const kept = new SourceWriter(store, "/k.jsonl", "full");
    kept.write(prepareChunk(session("/k.jsonl", "sk", "keptword"), vocab));
    kept.finish(true);
    batch.keep(10);
    const big = manyWords("/b.jsonl", "sb", "rb", KEPT_FLUSHED + 100);
    batch.begin();
    const first = new SourceWriter(store, "/b.jsonl", "full");
    first.write(prepareChunk(big, vocab));
    batch.undo();
    batch.begin();
    const again = new SourceWriter(store, "/b.jsonl", "full");
    const chunk = prepareChunk(big, vocab);
    assertEquals(chunk.tokens, []); // sent once per run
    again.write(chunk);
    again.finish(true);
    batch.keep(10);
    batch.commit();
    const missing = store.db.prepare(
      "SELECT count(*) AS n FROM events_vocab WHERE term NOT IN (SELECT term FROM vocab)",
    ).get() as { n: number };
    assertEquals(missing.n, 0);
    assert(vocabHas(store, "keptword"));
    assert(vocabHas(store, `rb${(KEPT_FLUSHED + 99).toString(36)}x`));
  } finally {
    store.close();
  }
});
