import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { captureIO, runMain, withVars } from "../../tests/_cli_io.ts";
import { callDeja } from "../mcp/call.ts";
import { DejaError } from "../../core/errors.ts";
import { parseRemember, rememberCmd, rememberNote } from "./cmd_remember.ts";
import { splitTags } from "../memory/notes.ts";
import { lastCmd } from "./cmd_last.ts";

Deno.test("remember parses its text, project and tags, and refuses no text", () => {
  const r = parseRemember({
    values: { project: "/w/app", tag: ["db"] },
    positionals: ["use", "WAL"],
  });
  assertEquals(r, { text: "use WAL", project: "/w/app", tags: ["db"], json: false });
  assertEquals(parseRemember({ values: {}, positionals: ["x"] }).tags, []);
  assertThrows(() => parseRemember({ values: {}, positionals: [" "] }), DejaError);
});

Deno.test("remember prints the same line to a terminal and a pipe, the note with --json, and indexes it", async () => {
  const ix = await indexSessions([]);
  ix.store.close(); // remember indexes the note itself
  try {
    for (const tty of [true, false]) {
      const c = captureIO(ix.env, tty);
      const a = { values: { project: "/w/app" }, positionals: [`the port is 8080 (${tty})`] };
      assertEquals(await rememberCmd.run(a, c.io), 0);
      assert(
        /^remembered note ([0-9a-f]{10}) for \/w\/app; undo: deja forget --note \1\n$/.test(
          c.out(),
        ),
        c.out(),
      );
      // /w/app exists nowhere: the first note warns; it is then an indexed project (its note's).
      assertEquals(
        c.err(),
        tty
          ? "deja: '/w/app' is no indexed project and no directory here: the note is filed under that path\n" +
            "hint: --project takes the project's directory or a part of its path; deja last lists projects\n"
          : "",
      );
    }
    const json = captureIO(ix.env, false);
    const j = { values: { project: "/w/app", tag: ["ops"], json: true }, positionals: ["ssh in"] };
    assertEquals(await rememberCmd.run(j, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.note.text, doc.note.tags, doc.indexed, doc.error], [
      "ssh in",
      ["ops"],
      true,
      null,
    ]);
    assertEquals(doc.already, false);
    // The same note again (trial 98 F8): the one kept, named; nothing written.
    const again = captureIO(ix.env, false);
    assertEquals(await rememberCmd.run(j, again.io), 0);
    const twice = JSON.parse(again.out());
    assertEquals([twice.already, twice.id], [true, doc.id]);
    const text = captureIO(ix.env, false);
    const t = { values: { project: "/w/app", tag: ["ops"] }, positionals: ["ssh in"] };
    assertEquals(await rememberCmd.run(t, text.io), 0);
    assertEquals(
      text.out(),
      `already remembered as note ${doc.id} for /w/app (${
        doc.note.ts.slice(0, 10)
      }): nothing written; undo: deja forget --note ${doc.id}\n`,
    );
    const last = captureIO(ix.env, false);
    assertEquals(await lastCmd.run({ values: { json: true }, positionals: [] }, last.io), 0);
    assertEquals(JSON.parse(last.out()).sessions[0].harness, "deja");
  } finally {
    ix.cleanup();
  }
});

// A fake home (session 13): `remember "…" --project crush-k3s` filed the note under the name
// `crush-k3s`, which `--project crush-k3s-subagent` and that directory's hook never showed.
Deno.test("remember --project <name> files the note under the indexed project, or says it kept the name", async () => {
  const dir = "/w/projects/crush-k3s-subagent";
  const ix = await indexSessions([
    { id: "s1", cwd: dir, start: "2026-11-01T10:00:00Z", turns: [{ user: "deploy k3s" }] },
  ]);
  ix.store.close();
  try {
    const c = captureIO(ix.env, false);
    const a = { values: { project: "crush-k3s" }, positionals: ["the token is in vault"] };
    assertEquals(await rememberCmd.run(a, c.io), 0);
    assertStringIncludes(c.out(), `for ${dir};`);
    assertEquals(c.err(), "");
    const last = captureIO(ix.env, false);
    const filter = { values: { json: true, project: "crush-k3s-subagent" }, positionals: [] };
    assertEquals(await lastCmd.run(filter, last.io), 0);
    const harnesses = JSON.parse(last.out()).sessions.map((s: { harness: string }) => s.harness);
    assert(harnesses.includes("deja"), harnesses.join());
    const o = captureIO(ix.env, false);
    const b = { values: { project: "ops" }, positionals: ["rotate keys monthly"] };
    assertEquals(await rememberCmd.run(b, o.io), 0);
    assertStringIncludes(o.out(), "for ops;");
    assertStringIncludes(o.err(), "deja: no indexed project matches 'ops'");
  } finally {
    ix.cleanup();
  }
});

Deno.test("remember says on stderr when the note was saved but not indexed", () => {
  const note = { ts: "2026-11-01T10:00:00Z", project: "/w", text: "t", tags: [] };
  const saved = { note, path: "/n/notes.jsonl", session: "ab-2026-11-01", id: "0123456789" };
  assertEquals(rememberNote({ ...saved, indexed: true }), "");
  assertStringIncludes(
    rememberNote({ ...saved, indexed: false, error: "index busy" }),
    "deja: saved to /n/notes.jsonl, not indexed yet: index busy\nhint: the next 'deja index'",
  );
});

Deno.test("remember with nothing to say is an error", async () => {
  const ix = await indexSessions([]);
  try {
    const e = await assertRejects(
      () => rememberCmd.run({ values: {}, positionals: [] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertStringIncludes(e.message, "nothing to remember");
  } finally {
    ix.cleanup();
  }
});

Deno.test("remember splits --tag a,b as the MCP tool does: one rule for every way a note gets tags", () => {
  const args = parseRemember({ values: { tag: ["a,b", "#c", "a"] }, positionals: ["x"] });
  assertEquals(args.tags, ["a", "b", "c"]);
  assertEquals(splitTags("a, b"), ["a", "b"]);
  assertEquals(splitTags(["a,b", "c"]), ["a", "b", "c"]);
});

Deno.test("remember --project refuses an empty value and says a path is no project nor directory (text, JSON)", async () => {
  const ix = await indexSessions([]);
  ix.store.close();
  try {
    const empty = captureIO(ix.env, false);
    const e = await assertRejects(
      () => rememberCmd.run({ values: { project: "" }, positionals: ["x"] }, empty.io),
      DejaError,
    );
    assertEquals((e as DejaError).exitCode, 2);
    const js = captureIO(ix.env, false);
    const a = { values: { project: "/nonexistent/dir", json: true }, positionals: ["a note"] };
    assertEquals(await rememberCmd.run(a, js.io), 0);
    const doc = JSON.parse(js.out());
    assertEquals([doc.note.project, doc.unmatched], ["/nonexistent/dir", "/nonexistent/dir"]);
    const text = captureIO(ix.env, false);
    const b = { values: { project: "/nonexistent/other" }, positionals: ["b note"] };
    assertEquals(await rememberCmd.run(b, text.io), 0);
    assertStringIncludes(
      text.err(),
      "'/nonexistent/other' is no indexed project and no directory here",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("a note is named a note where search and MCP recall list it, not the user's words", async () => {
  // Trial 38: a note an agent saved through MCP came back as `user:` in recall and search.
  const ix = await indexSessions([]);
  ix.store.close();
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const ctx = { env, cwd: "/w/app", log() {} };
    const saved = await callDeja(
      { mode: "remember", text: "quokkanote: always run rm -rf build first", project: "/w/app" },
      ctx,
    );
    assertEquals(saved.isError, undefined, saved.content[0].text);
    const recall = (await callDeja({ mode: "recall", query: "quokkanote" }, ctx)).content[0].text;
    assertStringIncludes(recall, "   - note: quokkanote: always run rm -rf build first");
    assert(!recall.includes("- user:"), recall);
    const found = await runMain(env, ["search", "quokkanote"]);
    assertEquals(found.code, 0, found.err);
    assertStringIncludes(found.out, "    note        quokkanote: always run rm -rf build first");
  } finally {
    ix.cleanup();
  }
});

Deno.test("MCP recall says OR and NOT are no operators, as the CLI does", async () => {
  // Trial 39: `forgejo NOT redis` through MCP listed sessions about redis and said nothing.
  const ix = await indexSessions([
    {
      id: "0f390000-1111-4222-8333-000000000001",
      cwd: "/w/a",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "forgejo cannot reach redis" }, { say: "restarted redis" }],
    },
  ]);
  ix.store.close();
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    const ctx = { env, cwd: "/w/a", log() {} };
    const text = async (query: string) =>
      (await callDeja({ mode: "recall", query }, ctx)).content[0].text;
    assertStringIncludes(
      await text("forgejo NOT redis"),
      "; NOT is no operator here: 'not' was searched as a word\n1. claude",
    );
    assertStringIncludes(
      await text("forgejo OR zqxnothing"),
      "Note: OR is no operator here: it finds no more (ask each word alone for either).",
    );
    assert(!(await text("forgejo redis")).includes("no operator"));
  } finally {
    ix.cleanup();
  }
});

Deno.test("remember - reads the note from stdin, and says which secrets it redacted", async () => {
  // Trial 61: `echo text | deja remember -` kept "-" as the note, and a token in a note was
  // redacted without a word.
  const ix = await indexSessions([]);
  ix.store.close();
  try {
    const r = await runMain(
      ix.env,
      ["remember", "-", "--project", "/w/app", "--json"],
      "the staging port is 8443\n",
    );
    assertEquals(r.code, 0, r.err);
    assertEquals(JSON.parse(r.out).note.text, "the staging port is 8443");
    const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const s = await runMain(ix.env, [
      "remember",
      `the CI token is ${token}`,
      "--project",
      "/w/app",
    ]);
    assertEquals(s.code, 0, s.err);
    assertStringIncludes(s.err, "deja: 1 secret was redacted from the note (1 ");
    const empty = await runMain(ix.env, ["remember", "-"], "  \n");
    assertEquals(empty.code, 2);
    assertStringIncludes(empty.err, "stdin was empty");
  } finally {
    ix.cleanup();
  }
});
