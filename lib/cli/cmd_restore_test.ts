import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { parseRestore, pickSpan, restoreCmd, restoreData, spanJson } from "./cmd_restore.ts";

const ID = "7e570000-1111-4222-8333-444455556666";
const FILE = "/w/app/src/conf.ts";

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "tidy the config" },
      { edit: FILE, old: "export const port = 80;\n", new: "export const port = 8080;\n" },
      { write: FILE, content: "export const port = 9090;\n" },
    ],
  }]);
}

Deno.test("restore parses its span and -o, and refuses no path or a bad --span with exit 2", () => {
  const r = parseRestore({ values: { span: "2", out: "x.ts" }, positionals: [FILE] });
  assertEquals([r.path, r.span, r.out, r.force, r.json], [FILE, 2, "x.ts", false, false]);
  assertEquals(parseRestore({ values: {}, positionals: [FILE] }).span, undefined);
  for (
    const a of [{ values: {}, positionals: [] }, { values: { span: "0" }, positionals: [FILE] }]
  ) {
    const e = assertThrows(() => parseRestore(a), DejaError);
    assertEquals((e as DejaError).exitCode, 2);
  }
  // Trial 63: `--span @36` was told "a positive whole number"; the ids it takes are named.
  const e = assertThrows(
    () => parseRestore({ values: { span: "@36" }, positionals: [FILE] }),
    DejaError,
  ) as DejaError;
  assertEquals([e.message, e.exitCode], ["--span takes a span's number or its id, not '@36'", 2]);
  // Trial 97 F10: the hint quoted an id of no session indexed as if it were one.
  assert(!e.hint?.includes("29193b34"), e.hint);
  assertEquals(
    parseRestore({ values: { span: "29193b34@36" }, positionals: [FILE] }).span,
    "29193b34@36",
  );
});

Deno.test("restore's run lists the spans newest first and picks one by number", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const args = parseRestore({ values: {}, positionals: [FILE] });
    const d = restoreData(ix.store, args, io);
    assertEquals(d.spans.map((s) => [s.n, s.op, s.restorable]), [[1, "write", false], [
      2,
      "edit",
      true,
    ]]);
    assert(ID.startsWith(d.spans[0].ref));
    assertEquals(pickSpan(d, { ...args, span: 2 }).text, "export const port = 80;\n");
    const several = assertThrows(() => pickSpan(d, { ...args, out: "x.ts" }), DejaError);
    assertStringIncludes(several.message, "2 spans: say which one to write");
    assertStringIncludes(
      assertThrows(() => pickSpan(d, { ...args, span: 3 })).message,
      "no span 3",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 94 F4: ids of the last 8 characters of the session's id grew to the whole id when a
// session whose id ended alike was indexed, and the id listed before no longer named the span.
Deno.test("a span's id is its session's whole id, the same before and after a session whose id ends alike is indexed", async () => {
  const dir = tempDir("deja-restore-ids-");
  const file = join(dir, "a.txt");
  const spec = (id: string, day: number, old: string): SessionSpec => ({
    id,
    cwd: dir,
    start: `2026-11-0${day}T10:00:00Z`,
    turns: [
      { user: `Change ${old} in a.txt to stress it` },
      { edit: file, old, new: `${old}!` },
      { say: "Done: it is stressed now." },
    ],
  });
  const A = spec("aaaaaaaa-1111-4111-8111-111111111111", 1, "alpha");
  const E = spec("eeeeeeee-5555-4555-8555-111111111111", 2, "echo");
  const ids = async (sessions: SessionSpec[]) => {
    const ix = await indexSessions(sessions);
    try {
      const c = captureIO(ix.env, false);
      await restoreCmd.run({ values: { json: true, junk: true }, positionals: [file] }, c.io);
      const spans = JSON.parse(c.out()).spans as Array<{ id: string }>;
      const short = captureIO(ix.env, false);
      let refused: string | null = null;
      try {
        await restoreCmd.run(
          { values: { span: "11111111@1", junk: true }, positionals: [file] },
          short.io,
        );
      } catch (e) {
        refused = (e as DejaError).message;
      }
      return { ids: spans.map((s) => s.id), refused };
    } finally {
      ix.cleanup();
    }
  };
  try {
    const before = await ids([A]);
    const after = await ids([A, E]);
    assertEquals(before.ids, ["aaaaaaaa111141118111111111111111@1"]);
    assertEquals(after.ids, ["eeeeeeee555545558555111111111111@1", ...before.ids]);
    // The last 8, as listed before, names the span alone, and is refused once it names two.
    assertEquals(before.refused, null);
    assertEquals(after.refused, "span id 11111111@1 names 2 sessions' spans");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("restore prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await restoreCmd.run({ values: {}, positionals: [FILE] }, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + FILE);

    const pipe = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals: [FILE] }, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assert(pipe.out().startsWith(`${FILE}  exact match, 2 spans, newest first\n`), pipe.out());
    assertStringIncludes(pipe.out(), "(previous content unknown, not restorable)");
    // The session as `deja show` takes it beside the span's id, whose tail is no short id
    // (trial 60: `deja show 861a8eb7` of a span `861a8eb7@70` found nothing).
    assertStringIncludes(pipe.out(), `${ID.replaceAll("-", "")}@`);
    assertStringIncludes(pipe.out(), ` claude ${ID.slice(0, 8)}`);

    const one = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { span: "2" }, positionals: [FILE] }, one.io), 0);
    assertEquals(one.out(), "export const port = 80;\n");

    const json = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { json: true }, positionals: [FILE] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.match, doc.spans.length, doc.spans[1].op], ["exact", 2, "edit"]);
    assert(!("text" in doc.spans[0]));

    const out = join(ix.root, "conf.before.ts");
    const w = captureIO(ix.env, false);
    const vals = { span: "2", out, json: true };
    assertEquals(await restoreCmd.run({ values: vals, positionals: [FILE] }, w.io), 0);
    assertEquals(JSON.parse(w.out()).written, out);
    assertEquals(readFileSync(out, "utf8"), "export const port = 80;\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore of a file without spans says so with exit 1; a span past the list is an error", async () => {
  const ix = await fixture();
  try {
    const none = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals: ["/w/none.ts"] }, none.io), 1);
    assertStringIncludes(none.err(), "deja: no agent replaced text in /w/none.ts");
    const e = await assertRejects(
      () =>
        restoreCmd.run({ values: { span: "9" }, positionals: [FILE] }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertStringIncludes(e.message, "no span 9");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore counts edits by call when one call recorded several spans, and marks its parts", async () => {
  // Broke on a real Cursor store: style.css listed 8 spans where 6 edit_file calls made them,
  // and nothing said which spans were parts of one call.
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "tidy the config" },
      {
        multi: FILE,
        edits: [{ old: "const a = 1;", new: "const a = 2;" }, {
          old: "const b = 1;",
          new: "const b = 2;",
        }],
      },
      { edit: FILE, old: "const c = 1;", new: "const c = 2;" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals: [FILE] }, pipe.io), 0);
    assert(
      pipe.out().startsWith(`${FILE}  exact match, 3 spans of 2 edits, newest first\n`),
      pipe.out(),
    );
    assertStringIncludes(pipe.out(), "(part 2 of 2 of one edit)");
    assertStringIncludes(pipe.out(), "(part 1 of 2 of one edit)");
    const json = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { json: true }, positionals: [FILE] }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.spans.map((s: { part: number; parts: number }) => [s.part, s.parts]), [
      [1, 1],
      [2, 2],
      [1, 2],
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore never writes a span into a file of another project that only shares its name", async () => {
  const ix = await fixture();
  try {
    // Trial 9: in /tmp/otherproj, `restore conf.ts --span 2 -o conf.ts --force` put the other
    // project's old line into this file, called "the file span 2 came from". Span 2 is the
    // edit (span 1, the newest, is a write and never restorable).
    const other = join(ix.root, "otherproj");
    const file = join(other, "conf.ts");
    Deno.mkdirSync(other, { recursive: true });
    const body = "export const port = 8080;\nexport const host = 'b';\n";
    Deno.writeTextFileSync(file, body);
    for (const typed of ["conf.ts", "src/conf.ts"]) {
      if (typed.includes("/")) Deno.mkdirSync(join(other, "src"), { recursive: true });
      const target = join(other, typed);
      if (typed.includes("/")) Deno.writeTextFileSync(target, body);
      for (const force of [false, true]) {
        const pipe = captureIO(ix.env, false);
        const io = { ...pipe.io, cwd: other };
        const values = { span: "2", out: typed, ...(force ? { force: true } : {}) };
        const e = await assertRejects(
          () => restoreCmd.run({ values, positionals: [typed] }, io),
          DejaError,
        );
        assertStringIncludes(
          (e as DejaError).message,
          `is not the file span 2 came from (${FILE})`,
        );
        // Trial 97 F9: "run restore from its project" was said in that very project; the
        // file to name is the one the span came from.
        assertStringIncludes((e as DejaError).hint ?? "", `-o ${FILE} with --force`);
        assertEquals(readFileSync(target, "utf8"), body, `${typed} force=${force}`);
      }
    }
    // Where no such file exists, the span alone is written: nothing is lost.
    const fresh = join(ix.root, "freshproj");
    Deno.mkdirSync(fresh, { recursive: true });
    const pipe = captureIO(ix.env, false);
    const io = { ...pipe.io, cwd: fresh };
    const values = { span: "2", out: "conf.ts" };
    assertEquals(await restoreCmd.run({ values, positionals: ["conf.ts"] }, io), 0);
    assertEquals(readFileSync(join(fresh, "conf.ts"), "utf8"), "export const port = 80;\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore -o into a directory that does not exist says so in words", async () => {
  const ix = await fixture();
  try {
    const pipe = captureIO(ix.env, false);
    const out = join(ix.root, "no", "such", "dir", "x.ts");
    const e = await assertRejects(
      () => restoreCmd.run({ values: { span: "2", out }, positionals: [FILE] }, pipe.io),
      DejaError,
    );
    // Trial 9: "cannot write …: ENOENT".
    assertStringIncludes((e as DejaError).message, "its directory does not exist");
    assertStringIncludes(
      (e as DejaError).hint ?? "",
      `create ${join(ix.root, "no", "such", "dir")} first`,
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("a span's id stays when a newer session shifts the numbers, and --span takes it", async () => {
  // Numbers count from the newest span: an edit indexed between the listing and `--span 2`
  // (an agent still at work, a background refresh) made `--span 2` another span.
  const A = {
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "tidy the config" },
      { edit: FILE, old: "export const port = 80;\n", new: "export const port = 8080;\n" },
    ],
  };
  const B = {
    // Its id starts as A's does (trial 13: the ids of Codex sessions begun within a minute).
    id: "7e570000-1111-4222-8333-0b0b0b0b0b0b",
    cwd: "/w/app",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { user: "move the port again" },
      { edit: FILE, old: "export const port = 8080;\n", new: "export const port = 9000;\n" },
    ],
  };
  const before = await indexSessions([A]);
  const after = await indexSessions([A, B]);
  try {
    const list = (ix: typeof before) => {
      const io = captureIO(ix.env, false).io;
      return restoreData(ix.store, parseRestore({ values: {}, positionals: [FILE] }), io);
    };
    const then = list(before).spans[0];
    const now = list(after);
    assertEquals(now.spans.map((s) => s.session), [B.id, ID]);
    const id = spanJson(then, false).id as string;
    assertEquals(id, `${ID.replaceAll("-", "")}@${then.seq}`);
    assertEquals(now.spans.map((s) => spanJson(s, false).id).includes(id), true);
    const args = parseRestore({ values: { span: id }, positionals: [FILE] });
    assertEquals(args.span, id);
    const picked = pickSpan(now, args);
    assertEquals([picked.n, picked.session, picked.text], [2, ID, "export const port = 80;\n"]);
    // More of the end of the session id is the same span; an id of no span says so.
    const tail = ID.replaceAll("-", "");
    assertEquals(pickSpan(now, { ...args, span: `${tail.slice(-12)}@${then.seq}` }).n, 2);
    assertStringIncludes(
      assertThrows(() => pickSpan(now, { ...args, span: `${tail.slice(-8)}@999` })).message,
      "no span",
    );
    // The listing shows each id.
    const pipe = captureIO(after.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals: [FILE] }, pipe.io), 0);
    assertStringIncludes(pipe.out(), id);
  } finally {
    before.cleanup();
    after.cleanup();
  }
});

Deno.test("a span's id still names it when a newer session replaced the same text", async () => {
  // Trial 16: the older span folded into the newer one (one text to give back) and its id, as
  // listed before, named no span.
  const edit = (id: string, day: string) => ({
    id,
    cwd: "/w/app",
    start: `2026-11-0${day}T10:00:00Z`,
    turns: [
      { user: "rename the entry point" },
      { edit: FILE, old: "def main():\n", new: `def run_${day}():\n` },
    ],
  });
  const before = await indexSessions([edit(ID, "1")]);
  const after = await indexSessions([
    edit(ID, "1"),
    edit("7e570000-1111-4222-8333-0c0c0c0c0c0c", "2"),
  ]);
  try {
    const list = (ix: typeof before) =>
      restoreData(
        ix.store,
        parseRestore({ values: {}, positionals: [FILE] }),
        captureIO(ix.env, false).io,
      );
    const id = spanJson(list(before).spans[0], false).id as string;
    const now = list(after);
    assertEquals(now.spans.length, 1);
    const picked = pickSpan(now, parseRestore({ values: { span: id }, positionals: [FILE] }));
    assertEquals(picked.text, "def main():\n");
  } finally {
    before.cleanup();
    after.cleanup();
  }
});

Deno.test("a span printed on a terminal ends its line; to a pipe it goes as it is", async () => {
  // Trial 13: `restore --span N` ran into the shell's prompt.
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [{ user: "port" }, { edit: FILE, old: "port = 80", new: "port = 8080" }],
  }]);
  try {
    const args = { values: { span: "1" }, positionals: [FILE] };
    const tty = captureIO(ix.env, true);
    assertEquals(await restoreCmd.run(args, tty.io), 0);
    assertEquals(tty.out(), "port = 80\n");
    const pipe = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run(args, pipe.io), 0);
    assertEquals(pipe.out(), "port = 80");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a write over a file whose store kept the file before it is restorable, in place too", async () => {
  // Trial 16: "previous content unknown" of a Claude Code Write that recorded `originalFile`.
  // A real file to put the span back into, in a temp dir of the test's own (removed at exit).
  const file = join(tempDir("deja-restore-"), "app", "settings.py");
  const before = "DEBUG = False\nPORT = 80\n";
  const after = "DEBUG = True\n";
  const ix = await indexSessions([{
    id: "7e570000-1111-4222-8333-0d0d0d0d0d0d",
    cwd: join(file, ".."),
    start: "2026-11-03T10:00:00Z",
    turns: [
      { user: "turn debug on" },
      { write: file, content: after, original: before },
      { write: `${file}.new`, content: "x = 1\n" },
    ],
  }]);
  try {
    Deno.mkdirSync(join(file, ".."), { recursive: true });
    Deno.writeTextFileSync(file, after);
    // Its project is under the temp dir, a throwaway one: --junk lists it.
    const junk = { junk: true };
    const pipe = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: junk, positionals: [file] }, pipe.io), 0);
    assert(!pipe.out().includes("not restorable"), pipe.out());
    const d = restoreData(ix.store, parseRestore({ values: junk, positionals: [file] }), pipe.io);
    assertEquals([d.spans[0].op, d.spans[0].restorable, d.spans[0].text], ["write", true, before]);
    // Put back in place while the file holds what the write put there: the write undone.
    const io0 = captureIO(ix.env, false).io;
    const unforced = await assertRejects(
      () =>
        restoreCmd.run({ values: { span: "1", out: file, junk: true }, positionals: [file] }, io0),
      DejaError,
    ) as DejaError;
    assertStringIncludes(unforced.hint ?? "", "in place of the text its write put there");
    const put = captureIO(ix.env, false);
    const io = put.io;
    const values = { span: "1", out: file, force: true, junk: true };
    assertEquals(await restoreCmd.run({ values, positionals: [file] }, io), 0);
    assertEquals(readFileSync(file, "utf8"), before);
    // Said as the write it was (trial 113 F9: "in place of the text its edit put there").
    assertStringIncludes(put.out(), "in place of the text its write put there");
    // A write that created a file has nothing before it.
    const fresh = restoreData(
      ix.store,
      parseRestore({ values: junk, positionals: [`${file}.new`] }),
      io,
    );
    assertEquals(fresh.spans[0].unrestorable, "write");
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore path:line lists the spans of the edits that put the line there (trial 16)", async () => {
  const dir = tempDir("deja-restore-line-");
  const file = join(dir, "app.py");
  writeFileSync(file, "def salute(name):\n    return 2\n");
  const ix = await indexSessions([
    {
      id: "aaaa0000-1111-4222-8333-444455556666",
      cwd: dir,
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "rename" }, {
        edit: file,
        old: "def greet(name):",
        new: "def salute(name):",
      }],
    },
    {
      id: "bbbb0000-1111-4222-8333-444455556666",
      cwd: dir,
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "bump" }, { edit: file, old: "    return 1", new: "    return 2" }],
    },
  ]);
  try {
    const run = async (arg: string) => {
      const c = captureIO(ix.env, false);
      c.io.cwd = dir;
      const code = await restoreCmd.run({ values: {}, positionals: [arg] }, c.io);
      return { code, out: c.out(), err: c.err() };
    };
    const one = await run("app.py:1");
    assertEquals(one.code, 0, one.err);
    assertStringIncludes(one.err, "deja: line 1 (def salute(name):): the span whose edit put it");
    assertStringIncludes(one.out, "1 span,");
    assertStringIncludes(one.out, "def greet(name):");
    assert(!one.out.includes("return 1"), one.out);
    const two = await run("app.py:2");
    assertStringIncludes(two.out, "return 1");
    assert(!two.out.includes("greet"), two.out);
    // Trial 94 F5: a line's spans keep their numbers in the whole list, so the `--span N` its
    // listing names picks the same span with or without the line.
    assertStringIncludes(one.out, "  2  ");
    const two2 = captureIO(ix.env, false);
    two2.io.cwd = dir;
    await restoreCmd.run({ values: { span: "2" }, positionals: ["app.py"] }, two2.io);
    assertEquals(two2.out(), "def greet(name):");
    const viaLine = captureIO(ix.env, false);
    viaLine.io.cwd = dir;
    await restoreCmd.run({ values: { span: "2" }, positionals: ["app.py:1"] }, viaLine.io);
    assertEquals(viaLine.out(), "def greet(name):");
    // A place that is no line number is said to be (trial 18: read as a file name).
    const bad = captureIO(ix.env, false);
    bad.io.cwd = dir;
    const e = await assertRejects(() =>
      restoreCmd.run({ values: {}, positionals: ["app.py:abc"] }, bad.io)
    );
    assertEquals([(e as DejaError).message, (e as DejaError).exitCode], [
      "'abc' is no line number",
      2,
    ]);
    const past = await run("app.py:9");
    assertStringIncludes(past.err, "line 9 is past the end of the file (2 lines)");
    assertStringIncludes(past.out, "2 spans,");
  } finally {
    ix.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("restore path:line numbers its spans as the whole list does and says so; --span of another names them (trial 97 F4)", async () => {
  const dir = tempDir("deja-restore-linenum-");
  const file = join(dir, "app.py");
  writeFileSync(file, "def salute(name):\n    return 2\n");
  const ix = await indexSessions([{
    id: "cccc0000-1111-4222-8333-444455556666",
    cwd: dir,
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "rename, bump" },
      { edit: file, old: "def greet(name):", new: "def salute(name):" },
      { edit: file, old: "    return 1", new: "    return 2" },
    ],
  }]);
  try {
    const c = captureIO(ix.env, false);
    c.io.cwd = dir;
    assertEquals(await restoreCmd.run({ values: {}, positionals: ["app.py:1"] }, c.io), 0);
    assertStringIncludes(c.out(), "1 span, numbered among the file's 2, newest first");
    const one = captureIO(ix.env, false);
    one.io.cwd = dir;
    const e = await assertRejects(
      () => restoreCmd.run({ values: { span: "1" }, positionals: ["app.py:1"] }, one.io),
      DejaError,
    ) as DejaError;
    assertStringIncludes(e.message, "span 1 did not put line 1 of");
    assertStringIncludes(e.message, "the span that did is --span 2");
    assertEquals(e.hint, "deja restore app.py --span 1 picks among all its spans");
  } finally {
    ix.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("restore path:line says it cannot tell, as blame does, for a short line or a file not here (trial 97 F5)", async () => {
  const dir = tempDir("deja-restore-cannot-");
  const file = join(dir, "m.py");
  writeFileSync(file, "a = 2\nc = 9\n");
  const ix = await indexSessions([{
    id: "dddd0000-1111-4222-8333-444455556666",
    cwd: dir,
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "set c" },
      { edit: file, old: "c = 1", new: "c = 9" },
      { edit: join(dir, "gone.py"), old: "old line here", new: "new line here" },
    ],
  }]);
  try {
    const run = async (arg: string, json = false) => {
      const c = captureIO(ix.env, false);
      c.io.cwd = dir;
      await restoreCmd.run({ values: json ? { json: true } : {}, positionals: [arg] }, c.io);
      return c;
    };
    const short = await run("m.py:2");
    assertStringIncludes(
      short.err(),
      "line 2: cannot tell which edit put it there (the line is too short to identify)",
    );
    assert(!short.err().includes("no listed edit"), short.err());
    const gone = await run("gone.py:1");
    assertStringIncludes(
      gone.err(),
      "cannot tell which edit put it there (the file is not readable here)",
    );
    const doc = JSON.parse((await run("m.py:2", true)).out());
    assertEquals([doc.line.kept, doc.line.cannot_tell], [
      false,
      "the line is too short to identify",
    ]);
  } finally {
    ix.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Trial 110 F6: a Write that created the file was "previous content unknown": there was none.
Deno.test("restore says a write created the file, in text and JSON, and refuses to write it back", async () => {
  const ix = await indexSessions([{
    id: "7e570000-1111-4222-8333-000000000110",
    cwd: "/w/made",
    start: "2026-11-03T10:00:00Z",
    turns: [
      { user: "write a new module" },
      { write: "/w/made/new.py", content: "N = 1\n", created: true },
      { write: "/w/made/other.py", content: "O = 1\n" },
    ],
  }]);
  const positionals = ["/w/made/new.py"];
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals }, pipe.io), 0);
    assertStringIncludes(pipe.out(), "(created the file, nothing before it to restore)");
    assert(!pipe.out().includes("previous content unknown"), pipe.out());
    const json = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { json: true }, positionals }, json.io), 0);
    const span = JSON.parse(json.out()).spans[0];
    assertEquals([span.op, span.restorable, span.unrestorable], ["write", false, "created"]);
    const one = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { span: "1" }, positionals }, one.io), 0);
    assertEquals(one.out(), "N = 1\n");
    assertStringIncludes(one.err(), "the file did not exist before");
    const out = join(tempDir("deja-created-"), "copy.py");
    const e = await assertRejects(
      () =>
        restoreCmd.run({ values: { span: "1", out }, positionals }, captureIO(ix.env, false).io),
      DejaError,
    );
    assertStringIncludes(
      e.message,
      "the write that created the file; the file did not exist before it",
    );
    // A write whose store says nothing of what was there before stays unknown.
    const d = restoreData(
      ix.store,
      parseRestore({ values: {}, positionals: ["/w/made/other.py"] }),
      {
        env: ix.env,
        cwd: "/",
      },
    );
    assertEquals(d.spans[0].unrestorable, "write");
  } finally {
    ix.cleanup();
  }
});
