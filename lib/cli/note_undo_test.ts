import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";
import { readFileSync } from "node:fs";

/** The undo `deja remember` prints for a note that reads like a question. */
function undoOf(err: string): string[] {
  const m = /to undo: deja (forget [^\n]+)/.exec(err);
  assert(m, `no undo in: ${err}`);
  return m[1].trim().split(/\s+/);
}

Deno.test("the undo remember prints removes only that note; the day's other notes stay searchable", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const p = ["--project", "/w/k3s"];
    assertEquals(
      (await runMain(env, ["remember", "the k3s fix was to restart flannel", ...p])).code,
      0,
    );
    const asked = await runMain(env, ["remember", "how", "did", "I", "restart", "flannel", ...p]);
    assertEquals(asked.code, 0);
    const undo = await runMain(env, undoOf(asked.err));
    assertEquals(undo.code, 0, undo.err);
    const notes = readFileSync(`${ix.root}/notes/notes.jsonl`, "utf8");
    assert(!notes.includes("how did I"), "the accidental note's text stays in notes.jsonl");
    const found = await runMain(env, ["search", "flannel", "--json"]);
    assertEquals(found.code, 0, found.err);
    const doc = JSON.parse(found.out);
    const texts = JSON.stringify(doc);
    assertStringIncludes(texts, "the k3s fix was to restart flannel");
    assert(!texts.includes("how did I"), texts);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a note remembered after its day's notes were forgotten is searchable at once", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const p = ["--project", "/w/k3s"];
    const first = await runMain(env, ["remember", "old secret note", "--json", ...p]);
    const session = JSON.parse(first.out).session;
    const dry = await runMain(env, ["forget", "--session", `deja:${session}`, "--dry-run"]);
    assertEquals(dry.code, 0, dry.err);
    assertStringIncludes(dry.out, "deleted from notes.jsonl for good");
    const dryDoc = await runMain(env, [
      "forget",
      "--session",
      `deja:${session}`,
      "--dry-run",
      "--json",
    ]);
    assertEquals([JSON.parse(dryDoc.out).note_sessions, JSON.parse(dryDoc.out).notes_deleted], [
      1,
      0,
    ]);
    assertStringIncludes(readFileSync(`${ix.root}/notes/notes.jsonl`, "utf8"), "old secret");
    const gone = await runMain(env, ["forget", "--session", `deja:${session}`]);
    assertEquals(gone.code, 0, gone.err);
    assert(
      !readFileSync(`${ix.root}/notes/notes.jsonl`, "utf8").includes("old secret"),
      "forget leaves the note's text in notes.jsonl",
    );
    assertEquals((await runMain(env, ["remember", "flannel again", ...p])).code, 0);
    const found = await runMain(env, ["search", "flannel", "--json"]);
    assertEquals(found.code, 0, found.err);
    assertStringIncludes(found.out, "flannel again");
    assertEquals((await runMain(env, ["search", "secret", "--json"])).code, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget --note says which note went, refuses an unknown id, and a note forget says notes.jsonl lost them", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const p = ["--project", "/w/app"];
    const a = JSON.parse((await runMain(env, ["remember", "keep this", "--json", ...p])).out);
    const b = JSON.parse((await runMain(env, ["remember", "drop this", "--json", ...p])).out);
    assertEquals([a.session === b.session, /^[0-9a-f]{10}$/.test(b.id)], [true, true]);
    const one = await runMain(env, ["forget", "--note", b.id.slice(0, 6)]);
    assertEquals([one.code, one.out], [0, `forgot note ${b.id}: drop this\n`]);
    // Said to be for good, as a day's notes are (trial 61).
    assertStringIncludes(one.err, "for good (no undo)");
    const none = await runMain(env, ["forget", "--note", b.id]);
    assertEquals(none.code, 1);
    assertStringIncludes(none.err, `no note has the id '${b.id}'`);
    const day = await runMain(env, ["forget", "--session", `deja:${a.session}`, "--json"]);
    const doc = JSON.parse(day.out);
    assertEquals([doc.forgotten, doc.notes_deleted], [1, 1]);
    const list = await runMain(env, ["forget", "--list", "--json"]);
    assertEquals(JSON.parse(list.out).tombstones, [], "a deleted note needs no tombstone");
  } finally {
    ix.cleanup();
  }
});
