import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { runMain, withVars } from "../../tests/_cli_io.ts";

/** Two notes of one day, remembered through the CLI: their ids and the day's id. */
async function twoNotes(env: Parameters<typeof runMain>[0]) {
  const p = ["--project", "/w/k3s", "--json"];
  const a = JSON.parse((await runMain(env, ["remember", "flannel needs a restart", ...p])).out);
  const b = JSON.parse((await runMain(env, ["remember", "coredns cache is 30s", ...p])).out);
  assertEquals(a.session, b.session);
  return { a: a.id as string, b: b.id as string, day: a.session as string };
}

Deno.test("show of a notes day gives each note its id, in text and JSON", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const { a, b, day } = await twoNotes(env);
    const text = await runMain(env, ["show", `deja:${day}`]);
    assertEquals(text.code, 0, text.err);
    assertStringIncludes(text.out, `note ${a}`);
    assertStringIncludes(text.out, `note ${b}`);
    assertStringIncludes(text.out, `deja forget --session deja:${day}`);
    const doc = JSON.parse((await runMain(env, ["show", `deja:${day}`, "--json"])).out);
    assertEquals(doc.events.map((e: { note_id?: string }) => e.note_id), [a, b]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a search hit inside a notes day names its note's id", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const { b } = await twoNotes(env);
    const text = await runMain(env, ["search", "coredns"]);
    assertEquals(text.code, 0, text.err);
    assertStringIncludes(text.out, `(note ${b})`);
    const doc = JSON.parse((await runMain(env, ["search", "coredns", "--json"])).out);
    assertEquals(doc.results[0].snippets[0].note_id, b);
  } finally {
    ix.cleanup();
  }
});

Deno.test("forget --note given the start of a day's id lists the day's notes; an unknown id points to show", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  const env = withVars(ix.env, { TZ: "UTC", DEJA_NO_REFRESH: "1" });
  try {
    const { a, b, day } = await twoNotes(env);
    const r = await runMain(env, ["forget", "--note", day.slice(0, 8)]);
    assertEquals(r.code, 2, r.err);
    assertStringIncludes(r.err, "is a day of 2 notes");
    assertStringIncludes(r.err, `deja forget --note ${a}`);
    assertStringIncludes(r.err, `deja forget --note ${b}`);
    assertStringIncludes(r.err, `deja forget --session deja:${day}`);
    const none = await runMain(env, ["forget", "--note", "zzzz"]);
    assertEquals(none.code, 1);
    // The form show takes, with a day that has notes (trial 120 M2).
    assertStringIncludes(none.err, "deja show deja:<day> lists each note");
    const latest = /the latest: deja show (deja:\S+?)\)/.exec(none.err)?.[1];
    assertEquals(latest?.slice(5), day.slice(-10), none.err);
    const shown = await runMain(env, ["show", latest!]);
    assertEquals(shown.code, 0, shown.err);
    assertStringIncludes(shown.out, `note ${a}`);
    // The day alone names no session: the hint names the form that shows its notes.
    const bare = await runMain(env, ["show", latest!.slice(5)]);
    assertEquals(bare.code, 1, bare.err);
    assertStringIncludes(bare.err, `hint: a day: deja show ${latest} shows its notes`);
    assert(!none.err.includes("is a day"), none.err);
  } finally {
    ix.cleanup();
  }
});
