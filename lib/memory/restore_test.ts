import { assert, assertEquals, assertThrows } from "../../tests/_assert.ts";
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { listSpans, spanCalls, writeSpan } from "./restore.ts";
import { DejaError } from "../../core/errors.ts";

const OLD: SessionSpec = {
  id: "eeee0001-0000-4000-8000-000000000001",
  cwd: "/w/lib",
  start: "2026-09-01T10:00:00Z",
  turns: [
    { user: "write the parser" },
    { write: "/w/lib/parse.ts", content: "export function parse() {\n  return 1;\n}\n" },
    { edit: "/w/lib/parse.ts", old: "  return 1;\n", new: "  return 2;\n" },
  ],
};
const NEW: SessionSpec = {
  id: "ffff0002-0000-4000-8000-000000000002",
  cwd: "/w/lib",
  start: "2026-09-03T10:00:00Z",
  turns: [
    { user: "refactor the parser" },
    { edit: "/w/lib/parse.ts", old: "  return 2;\n", new: "  return three();\n" },
    { edit: "/w/lib/parse.ts", old: "does not exist", new: "x", fail: true },
    { edit: "/w/lib/parse.ts", old: "", new: "// header\n" },
    {
      multi: "/w/lib/parse.ts",
      edits: [{ old: "export function parse()", new: "export function parseAll()" }, {
        old: "  return 2;\n",
        new: "  return 4;\n",
      }],
    },
    { write: "/w/lib/other.ts", content: "unrelated" },
  ],
};

Deno.test("listSpans gives replaced and written spans newest first, without failed, empty or repeated ones", async () => {
  const ix = await indexSessions([OLD, NEW]);
  try {
    const r = listSpans(ix.store, "/w/lib/parse.ts", { cwd: "/" });
    assertEquals(r.match, "exact");
    assertEquals(r.spans.map((s) => [s.n, s.op, s.text]), [
      // Within one MultiEdit call the later edit is the newer one.
      [1, "edit", "  return 2;\n"],
      [2, "edit", "export function parse()"],
      [3, "edit", "  return 1;\n"],
      [4, "write", "export function parse() {\n  return 1;\n}\n"],
    ]);
    assertEquals(r.spans[0].session, NEW.id);
    // The MultiEdit's two spans are parts of one call (its first pair is part 1).
    assertEquals(r.spans.map((s) => [s.part, s.parts]), [[2, 2], [1, 2], [1, 1], [1, 1]]);
    assertEquals(spanCalls(r.spans), { edits: 2, writes: 1 });
    assertEquals(r.spans[3].lines, 3);
    assertEquals(r.spans[3].bytes, 40);
    assertEquals(r.spans.some((s) => s.redacted || s.cut), false);
    assertEquals(listSpans(ix.store, "parse.ts", { cwd: "/else" }).match, "basename");
    assertEquals(listSpans(ix.store, "nothing.ts", { cwd: "/" }).spans, []);
  } finally {
    ix.cleanup();
  }
});

Deno.test("writeSpan refuses an existing file and the span's own file without force", async () => {
  const ix = await indexSessions([OLD]);
  try {
    const span = listSpans(ix.store, "/w/lib/parse.ts", { cwd: "/" }).spans[0];
    const out = join(ix.root, "restored.ts");
    assertEquals(writeSpan(span, "restored.ts", { cwd: ix.root }).path, out);
    assertEquals(readFileSync(out, "utf8"), "  return 1;\n");
    writeFileSync(out, "mine");
    const exists = assertThrows(() => writeSpan(span, out, { cwd: "/" }), DejaError) as DejaError;
    assert(exists.message.endsWith("exists") && exists.hint?.includes("--force"));
    assertEquals(readFileSync(out, "utf8"), "mine");
    // The file the span came from (and the path typed) are refused even when absent.
    const own = assertThrows(() => writeSpan(span, "/w/lib/parse.ts", { cwd: "/" }), DejaError);
    assert(own.message.includes("is the file span 1 came from"));
    const typed = join(ix.root, "typed.ts");
    assertThrows(() => writeSpan(span, typed, { cwd: "/", guard: [typed] }), DejaError);
    writeSpan(span, out, { cwd: "/", force: true });
    assertEquals(readFileSync(out, "utf8"), "  return 1;\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("a write's span is listed as not restorable and writeSpan refuses it, force or not", async () => {
  const ix = await indexSessions([OLD]);
  try {
    const spans = listSpans(ix.store, "/w/lib/parse.ts", { cwd: "/" }).spans;
    assertEquals(spans.map((s) => [s.op, s.restorable]), [["edit", true], ["write", false]]);
    const out = join(ix.root, "old.ts");
    for (const force of [false, true]) {
      const e = assertThrows(() => writeSpan(spans[1], out, { cwd: "/", force }), DejaError);
      assert(e.message.includes("span 2 is not restorable"), e.message);
    }
    assertThrows(() => readFileSync(out, "utf8"));
  } finally {
    ix.cleanup();
  }
});

Deno.test("a span redacted at index time is not restorable and writeSpan refuses it, force or not", async () => {
  const key = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
  const ix = await indexSessions([{
    id: "abcd0003-0000-4000-8000-000000000003",
    cwd: "/w/cfg",
    start: "2026-11-29T10:00:00Z",
    turns: [{ edit: "/w/cfg/README.md", old: `key: ${key}\n`, new: "key: $KEY\n" }],
  }]);
  try {
    const [span] = listSpans(ix.store, "/w/cfg/README.md", { cwd: "/" }).spans;
    assertEquals([span.op, span.redacted, span.restorable, span.unrestorable], [
      "edit",
      true,
      false,
      "redacted",
    ]);
    assert(!span.text.includes(key) && span.text.includes("[redacted:openai_key]"), span.text);
    const out = join(ix.root, "README.md");
    writeFileSync(out, `key: ${key}\n`);
    for (const force of [false, true]) {
      const e = assertThrows(
        () => writeSpan(span, out, { cwd: "/", force }),
        DejaError,
      ) as DejaError;
      assert(e.message.includes("span 1 is not restorable: a secret in it"), e.message);
      assert(e.hint?.includes("by hand"), e.hint);
    }
    assertEquals(readFileSync(out, "utf8"), `key: ${key}\n`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("writeSpan onto the file the span came from undoes its edit in place, keeping the rest", async () => {
  const ix = await indexSessions([{
    id: "abcd0004-0000-4000-8000-000000000004",
    cwd: "/w/app",
    start: "2026-11-29T10:00:00Z",
    turns: [
      { edit: "/w/app/main.py", old: "port = 80\n", new: "port = 8080\n" },
      { edit: "/w/app/main.py", old: "x = 1\n", new: "" },
    ],
  }]);
  try {
    const spans = listSpans(ix.store, "/w/app/main.py", { cwd: "/" }).spans;
    assertEquals(spans.map((s) => [s.text, s.after]), [["x = 1\n", ""], [
      "port = 80\n",
      "port = 8080\n",
    ]]);
    const file = join(ix.root, "main.py");
    const guard = [file]; // the target the person typed
    writeFileSync(file, "import os\nport = 8080\nhost = 'a'\n");
    // Without --force the file the span came from is never written.
    assertThrows(() => writeSpan(spans[1], file, { cwd: "/", guard }), DejaError);
    const w = writeSpan(spans[1], file, { cwd: "/", guard, force: true });
    assertEquals(w, { path: file, spliced: { line: 2 } });
    assertEquals(readFileSync(file, "utf8"), "import os\nport = 80\nhost = 'a'\n");
    // The file moved on: the edit's new text is gone, or there twice, or only inside a longer
    // value (trial 10: `port = 80800` became `port = 800`). Refused, --force or not.
    for (
      const body of ["import os\nport = 9\n", "port = 8080\nport = 8080\n", "port = 80800\n"]
    ) {
      writeFileSync(file, body);
      const e = assertThrows(
        () => writeSpan(spans[1], file, { cwd: "/", guard, force: true }),
        DejaError,
      ) as DejaError;
      assert(e.message.startsWith("cannot put span 2 back"), e.message);
      assert(e.hint?.includes("--span 2 prints the old text"), e.hint);
      assertEquals(readFileSync(file, "utf8"), body);
    }
    // An edit that deleted its text left nothing to find.
    const gone = assertThrows(
      () => writeSpan(spans[0], file, { cwd: "/", guard, force: true }),
      DejaError,
    );
    assert(gone.message.includes("left no text to find"), gone.message);
    // Another file gets the span alone (a copy to compare), --force over an existing one.
    const other = join(ix.root, "old.py");
    writeFileSync(other, "anything\n");
    assertEquals(writeSpan(spans[1], other, { cwd: "/", guard, force: true }).spliced, null);
    assertEquals(readFileSync(other, "utf8"), "port = 80\n");
    // A hard link is the file itself (trial 10: `-o` onto one truncated the file to the span):
    // its edit is undone in place, the rest kept.
    writeFileSync(file, "import os\nport = 8080\nhost = 'a'\n");
    const hard = join(ix.root, "hard.py");
    linkSync(file, hard);
    assertThrows(() => writeSpan(spans[1], hard, { cwd: "/", guard }), DejaError);
    assertEquals(writeSpan(spans[1], hard, { cwd: "/", guard, force: true }).spliced, { line: 2 });
    assertEquals(readFileSync(file, "utf8"), "import os\nport = 80\nhost = 'a'\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("listSpans calls a path typed as the relative path a harness recorded exact", async () => {
  const R: SessionSpec = {
    id: "abcd0007-0000-4000-8000-000000000007",
    cwd: "",
    start: "2026-09-05T10:00:00Z",
    turns: [{ user: "set the key" }, { edit: "backend/.env", old: "KEY=1\n", new: "KEY=2\n" }],
  };
  const ix = await indexSessions([R]);
  try {
    const r = listSpans(ix.store, "backend/.env", { cwd: "/home/me/shop" });
    assertEquals(r.match, "exact");
    assertEquals(r.spans.map((s) => s.text), ["KEY=1\n"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("writeSpan refuses a relative span from a session with no work dir onto what may be its file, force or not", async () => {
  const R: SessionSpec = {
    id: "abcd0008-0000-4000-8000-000000000008",
    cwd: "",
    start: "2026-09-05T10:00:00Z",
    turns: [{ user: "set the key" }, { edit: "backend/.env", old: "KEY=1\n", new: "KEY=2\n" }],
  };
  const ix = await indexSessions([R]);
  try {
    const [span] = listSpans(ix.store, "backend/.env", { cwd: ix.root }).spans;
    assertEquals([span.path, span.workDir], ["backend/.env", null]);
    mkdirSync(join(ix.root, "backend"));
    const file = join(ix.root, "backend", ".env");
    writeFileSync(file, "KEY=2\n");
    for (const force of [false, true]) {
      const e = assertThrows(
        () => writeSpan(span, "backend/.env", { cwd: ix.root, force, guard: [file] }),
        DejaError,
      ) as DejaError;
      assert(
        e.message.includes("is relative and its session (claude) recorded no work dir"),
        e.message,
      );
      assert(e.hint?.includes("-o <another file>"), e.hint);
      assertEquals(e.json, { work_dir_unknown: true });
    }
    assertEquals(readFileSync(file, "utf8"), "KEY=2\n");
    // Another file is a copy to compare: written, the work dir does not matter.
    assertEquals(writeSpan(span, "old.env", { cwd: ix.root, guard: [file] }).spliced, null);
    assertEquals(readFileSync(join(ix.root, "old.env"), "utf8"), "KEY=1\n");
    // With a work dir known, the relative path resolves against it: put back in place.
    const known = { ...span, workDir: ix.root };
    const w = writeSpan(known, file, { cwd: "/", force: true });
    assertEquals([w.spliced, readFileSync(file, "utf8")], [{ line: 1 }, "KEY=1\n"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 52 (realdata Crush fd7da67c): a `<#!` replaced on nine lines at once was listed as a
// plain one-line span, nothing saying it belongs in nine places.
Deno.test("listSpans marks an edit that replaced every occurrence, and only that one", async () => {
  const s: SessionSpec = {
    id: "eeee0052-0000-4000-8000-000000000052",
    cwd: "/w/win",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { user: "fix the comment blocks" },
      { edit: "/w/win/Setup.psm1", old: "<#!", new: "<#", all: true },
      { edit: "/w/win/Setup.psm1", old: "Write-Host", new: "Write-Log" },
      {
        multi: "/w/win/Setup.psm1",
        edits: [{ old: "a", new: "b" }, { old: "c", new: "d", all: true }],
      },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const spans = listSpans(ix.store, "/w/win/Setup.psm1", { cwd: "/w" }).spans;
    const every = Object.fromEntries(spans.map((x) => [x.text, x.replaceAll ?? false]));
    assertEquals(every, { "<#!": true, "Write-Host": false, a: false, c: true });
  } finally {
    ix.cleanup();
  }
});

Deno.test("writeSpan refuses a one-line span whose text stands whole only inside a longer line beside a grown copy", async () => {
  // Trial 64: the edit wrote `timeout = 60`; the file later held `timeout = 600` and a comment
  // `# timeout = 60 was too short`, and --force made the comment `# timeout = 30 was too short`.
  const ix = await indexSessions([{
    id: "abcd0005-0000-4000-8000-000000000005",
    cwd: "/w/app",
    start: "2026-11-29T10:00:00Z",
    turns: [{ edit: "/w/app/config.ini", old: "timeout = 30", new: "timeout = 60" }],
  }]);
  try {
    const [span] = listSpans(ix.store, "/w/app/config.ini", { cwd: "/" }).spans;
    const file = join(ix.root, "config.ini");
    const put = () => writeSpan(span, file, { cwd: "/", guard: [file], force: true });
    const doubtful = "[server]\ntimeout = 600\n# timeout = 60 was too short\n";
    writeFileSync(file, doubtful);
    const e = assertThrows(put, DejaError) as DejaError;
    assert(e.message.includes("only inside the longer line 3, and line 2 holds it"), e.message);
    assert(e.hint?.includes("put it back by hand"), e.hint);
    assertEquals(readFileSync(file, "utf8"), doubtful);
    // A line of its own is put back; so is a text inside a longer line with no grown copy.
    writeFileSync(file, "[server]\ntimeout = 60\n");
    assertEquals(put().spliced, { line: 2 });
    assertEquals(readFileSync(file, "utf8"), "[server]\ntimeout = 30\n");
    writeFileSync(file, "opts = {timeout = 60}\n");
    assertEquals(put().spliced, { line: 1 });
    assertEquals(readFileSync(file, "utf8"), "opts = {timeout = 30}\n");
    // Held on a line of its own and quoted in a comment: the line of its own is the edit's
    // (blame credits it too); two lines of its own stay unclear.
    writeFileSync(file, "# timeout = 60 was too short\n[server]\n  timeout = 60\n");
    assertEquals(put().spliced, { line: 3 });
    assertEquals(
      readFileSync(file, "utf8"),
      "# timeout = 60 was too short\n[server]\n  timeout = 30\n",
    );
    const twice = "[a]\ntimeout = 60\n[b]\ntimeout = 60\n";
    writeFileSync(file, twice);
    const e2 = assertThrows(put, DejaError) as DejaError;
    assert(e2.message.includes("more than once"), e2.message);
    assertEquals(readFileSync(file, "utf8"), twice);
  } finally {
    ix.cleanup();
  }
});
