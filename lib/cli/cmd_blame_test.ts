import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../tests/_assert.ts";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexSessions } from "../../tests/_memory.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { captureIO } from "../../tests/_cli_io.ts";
import { DejaError } from "../../core/errors.ts";
import { csi } from "./output.ts";
import { blameCmd, blameData, parseBlame } from "./cmd_blame.ts";
import { restoreCmd } from "./cmd_restore.ts";
import type { SessionSpec } from "../../tests/_memory.ts";

const ID = "b1a40000-1111-4222-8333-444455556666";

function fixture() {
  return indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "raise the retry limit" },
      { read: "/w/app/src/retry.ts" },
      { edit: "/w/app/src/retry.ts", old: "const MAX = 3;", new: "const MAX = 5;" },
    ],
  }]);
}

Deno.test("blame parses path:line, defaults its limit, and refuses no path or a bad harness", () => {
  const b = parseBlame({ values: { limit: "4" }, positionals: ["/no/such/file.ts:12"] }, "/");
  assertEquals([b.path, b.line, b.limit, b.json], ["/no/such/file.ts", 12, 4, false]);
  assertEquals(parseBlame({ values: {}, positionals: ["x.ts"] }, "/").limit, 10);
  const zero = assertThrows(
    () => parseBlame({ values: {}, positionals: ["/no/such/file.ts:0"] }, "/"),
    DejaError,
  ) as DejaError;
  assertEquals([zero.message, zero.exitCode], [
    "no line 0 in /no/such/file.ts: lines are counted from 1",
    2,
  ]);
  const e = assertThrows(() => parseBlame({ values: {}, positionals: [] }, "/"), DejaError);
  assertEquals((e as DejaError).exitCode, 2);
  assertThrows(
    () => parseBlame({ values: { harness: ["nope"] }, positionals: ["x.ts"] }, "/"),
    DejaError,
  );
});

Deno.test("blame's run returns the sessions that touched the file with their counts", async () => {
  const ix = await fixture();
  try {
    const io = captureIO(ix.env, false).io;
    const d = blameData(
      ix.store,
      parseBlame({ values: {}, positionals: ["/w/app/src/retry.ts"] }, "/"),
      io,
    );
    assertEquals([d.match, d.total], ["exact", 1]);
    const s = d.sessions[0];
    assertEquals([s.session.native_id, s.reads, s.edits], [ID, 1, 1]);
    assert(ID.startsWith(s.ref));
    assertEquals(s.description, "raise the retry limit");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame prints colour on a terminal, plain text to a pipe, and JSON with --json", async () => {
  const ix = await fixture();
  const args = { values: {}, positionals: ["/w/app/src/retry.ts"] };
  try {
    const tty = captureIO(ix.env, true);
    assertEquals(await blameCmd.run(args, tty.io), 0);
    assertStringIncludes(tty.out(), csi("1m") + "claude");

    const pipe = captureIO(ix.env, false);
    assertEquals(await blameCmd.run(args, pipe.io), 0);
    assert(!pipe.out().includes(csi("0m")), "no colour in a pipe");
    assert(pipe.out().startsWith("/w/app/src/retry.ts  exact match, 1 session\n"), pipe.out());
    assertStringIncludes(pipe.out(), "1 edit, 1 read");
    assertStringIncludes(pipe.out(), "  raise the retry limit\n");
    // An edit no words surround is listed with its time all the same (trial 37: a Crush
    // session said "1 edit" and listed none).
    assertStringIncludes(pipe.out(), "\n    edit  2026-1");

    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ ...args, values: { json: true } }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals([doc.match, doc.line, doc.sessions[0].id], ["exact", null, ID]);
    assertEquals(doc.sessions[0].edits, 1);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame of a file no session touched says so on stderr with exit 1", async () => {
  const ix = await fixture();
  try {
    const none = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals: ["/w/other.ts"] }, none.io), 1);
    assertEquals(none.out(), "");
    assertStringIncludes(none.err(), "deja: no session touched /w/other.ts");
  } finally {
    ix.cleanup();
  }
});

// Trial 94 F7: the absolute path of a file no session touched was answered, exit 0, by the
// sessions of other files of its name.
Deno.test("blame of a path only other files of its name match lists them as the nearest, exit 1", async () => {
  const ix = await fixture();
  try {
    const other = captureIO(ix.env, false);
    const args = { values: {}, positionals: ["/elsewhere/lib/retry.ts"] };
    assertEquals(await blameCmd.run(args, other.io), 1);
    assertStringIncludes(other.err(), "deja: no session touched /elsewhere/lib/retry.ts itself");
    assertStringIncludes(other.out(), "basename match");
    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ ...args, values: { json: true } }, json.io), 1);
    // A bare name no file here has is answered so too (trial 113 F3: exit 0, as if found).
    const bare = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals: ["retry.ts"] }, bare.io), 1);
    assertStringIncludes(bare.err(), "itself; listed: files of its name elsewhere");
    assertStringIncludes(bare.out(), "basename match, 1 session\n");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame path:line lists only the edits holding the line and says when the line is out of range", async () => {
  // The recorded path is the file on disk (a line of a file of the same name elsewhere says
  // nothing of who wrote it: lib/memory/blame_test.ts).
  const dir = tempDir("deja-blame-");
  const file = join(dir, "retry.ts");
  const ix = await indexSessions([{
    id: ID,
    cwd: dir,
    start: "2026-11-01T15:44:00Z",
    turns: [
      { user: "tune the retry module" },
      { edit: file, old: "const MAX = 3;", new: "const MAX = 4;" },
      { edit: file, old: "const WAIT = 1;", new: "const WAIT = 2;" },
      { edit: file, old: "const MAX = 4;", new: "const MAX = 5;" },
    ],
  }]);
  try {
    writeFileSync(file, "const MAX = 5;\nconst WAIT = 2;\n// the retry policy, unchanged\n");
    const run = async (arg: string) => {
      const cap = captureIO(ix.env, false);
      // --junk: a temporary directory's project is throwaway.
      const code = await blameCmd.run({ values: { junk: true }, positionals: [arg] }, cap.io);
      return { code, out: cap.out() };
    };
    const one = await run(`${file}:1`);
    assertEquals(one.code, 0);
    assertStringIncludes(one.out, "line 1: const MAX = 5;\n");
    assertStringIncludes(one.out, "3 edits  wrote the line");
    // One edit listed (the third), with its own mark; the other two are counted, not listed.
    assertEquals(one.out.match(/^ {4}edit /gm)?.length, 1, one.out);
    assertStringIncludes(one.out, "2 other changes of the file do not hold it");

    const none = await run(`${file}:3`);
    assertStringIncludes(none.out, "no recorded edit or write is known to have put this line here");
    assertStringIncludes(none.out, "none of its 3 changes wrote or replaced the line");

    const past = await run(`${file}:9999`);
    assertStringIncludes(past.out, "line 9999 is out of range: the file has 3 lines");
    assert(!past.out.includes("cannot tell"), past.out);

    const json = captureIO(ix.env, false);
    await blameCmd.run(
      { values: { json: true, junk: true }, positionals: [`${file}:9999`] },
      json.io,
    );
    assertEquals(JSON.parse(json.out()).line.lines, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ix.cleanup();
  }
});

Deno.test("blame names the relative record it matched, not the typed path made absolute", async () => {
  // No work directory recorded: the record keeps `backend/.env` as the harness wrote it.
  const R: SessionSpec = {
    id: "ffff0016-0000-4000-8000-000000000016",
    cwd: "",
    start: "2026-10-02T10:00:00Z",
    turns: [{ user: "Set the key" }, { write: "backend/.env", content: "KEY=1\n" }],
  };
  const ix = await indexSessions([R]);
  try {
    const pipe = captureIO(ix.env, false);
    const io = { ...pipe.io, cwd: "/tmp" };
    assertEquals(await blameCmd.run({ values: {}, positionals: ["backend/.env"] }, io), 0);
    assert(
      pipe.out().startsWith("backend/.env  exact match of a path recorded relative, 1 session\n"),
      pipe.out(),
    );
    assert(!pipe.out().includes("/tmp/backend"), pipe.out());
    const json = captureIO(ix.env, false, ["--json"]);
    const jio = { ...json.io, cwd: "/tmp" };
    assertEquals(
      await blameCmd.run({ values: { json: true }, positionals: ["backend/.env"] }, jio),
      0,
    );
    const doc = JSON.parse(json.out());
    assertEquals([doc.match, doc.recorded, doc.target], [
      "exact",
      "backend/.env",
      "/tmp/backend/.env",
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame's header counts the sessions it lists, not the throwaway ones left out", async () => {
  const s = (n: number, cwd: string) => ({
    id: `b1a00000-1111-4222-8333-00000000000${n}`,
    cwd,
    start: `2026-10-0${n}T10:00:00Z`,
    turns: [{ user: `edit the readme ${n}` }, {
      edit: `${cwd}/README.md`,
      old: "a",
      new: `b${n}`,
    }],
  });
  // Trial 18b: `deja blame README.md` said "10 sessions" and listed 6.
  const ix = await indexSessions([s(1, "/w/app"), s(2, "/w/web"), s(3, "/tmp/scratch")]);
  try {
    const pipe = captureIO(ix.env, false);
    const args = { values: { limit: "1" }, positionals: ["README.md"] };
    assertEquals(await blameCmd.run(args, pipe.io), 1);
    assert(pipe.out().startsWith("README.md  basename match, 2 sessions\n"), pipe.out());
    assertStringIncludes(pipe.err(), "showing 1 of 2: --limit shows more");
    assertStringIncludes(pipe.err(), "1 session of throwaway");
    const json = captureIO(ix.env, false);
    await blameCmd.run({ values: { json: true }, positionals: ["README.md"] }, json.io);
    const doc = JSON.parse(json.out());
    assertEquals([doc.total, doc.listed, doc.hidden], [3, 2, 1]);
    // Only a throwaway session touched it: not "no session touched" (trial 52).
    const only = captureIO(ix.env, false);
    const path = { values: {}, positionals: ["/tmp/scratch/README.md"] };
    assertEquals(await blameCmd.run(path, only.io), 1);
    assert(
      only.err().startsWith("deja: no session listed touched /tmp/scratch/README.md\n"),
      only.err(),
    );
    assertStringIncludes(only.err(), "1 session of throwaway");
    const restored = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run(path, restored.io), 1);
    assert(
      restored.err().startsWith(
        "deja: no agent replaced text in /tmp/scratch/README.md in a session listed\nhint: 1 session",
      ),
      restored.err(),
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame names each change's path when several matched, says who spoke around it, and names its filters when they leave nothing", async () => {
  const ix = await indexSessions([{
    id: "b1a00000-1111-4222-8333-000000000009",
    cwd: "/w/app",
    start: "2026-10-09T10:00:00Z",
    turns: [
      { user: "fix both readmes" },
      { say: "Tidying the top readme." },
      { edit: "/w/app/README.md", old: "a", new: "b" },
      { say: "Now the web one." },
      { edit: "/w/app/web/README.md", old: "c", new: "d" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    // A bare name no file here has: exit 1 (trial 113 F3).
    assertEquals(await blameCmd.run({ values: {}, positionals: ["README.md"] }, pipe.io), 1);
    // Trial 9: "2 edits" of two files told apart only by --json; `before:` read as old text.
    assertStringIncludes(pipe.out(), "  /w/app/web/README.md\n");
    assertStringIncludes(pipe.out(), "  /w/app/README.md\n");
    assertStringIncludes(pipe.out(), "said before: Now the web one.");
    // Trial 9: `--harness claude-code` leaving nothing said "no session touched /tmp/README.md".
    const none = captureIO(ix.env, false);
    const args = { values: { harness: ["codex"] }, positionals: ["README.md"] };
    assertEquals(await blameCmd.run(args, none.io), 1);
    assertStringIncludes(
      none.err(),
      "deja: no session touched README.md in harness codex; without",
    );
    assertStringIncludes(none.err(), "1 session");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame and restore of a directory say they take a file, with --json too", async () => {
  const ix = await fixture();
  const dir = tempDir("deja-blame-dir-");
  try {
    const pipe = captureIO(ix.env, false);
    // Trial 10: "no session touched" a directory whose files sessions had edited.
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: [dir] }, pipe.io),
      DejaError,
    );
    assertStringIncludes((e as DejaError).message, "is a directory: blame takes a file");
    // A usage error, exit 2, not "nothing found" (trial 94 F8).
    assertEquals((e as DejaError).exitCode, 2);
    // Typed as `.`, the hint gives the folder's whole path (trial 64: `--project .` matched none).
    const dot = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: ["."] }, { ...pipe.io, cwd: dir }),
      DejaError,
    );
    assertStringIncludes((dot as DejaError).hint ?? "", `deja last --project ${dir} lists`);
    // Trial 97 F7: with --json the same refusal (main prints its error document), not an empty
    // listing with exit 1; a path ending in a slash is a folder even when not on this machine.
    for (const [values, path] of [[{ json: true }, dir], [{}, "/nowhere/proj/"]] as const) {
      const j = await assertRejects(
        () => blameCmd.run({ values, positionals: [path] }, pipe.io),
        DejaError,
      );
      assertEquals((j as DejaError).exitCode, 2);
    }
    assertEquals(pipe.out(), "");
    // restore says it takes a file, not "no agent replaced text in" it.
    const r = await assertRejects(
      () => restoreCmd.run({ values: {}, positionals: [dir] }, pipe.io),
      DejaError,
    );
    assertEquals([
      (r as DejaError).message.endsWith("is a directory: restore takes a file"),
      (r as DejaError).exitCode,
    ], [true, 2]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ix.cleanup();
  }
});

Deno.test("blame marks a session's time that only its store file's mtime gives", async () => {
  const ix = await fixture();
  try {
    // As a Kimi session without its wire.jsonl is dated (trial 10: unmarked in blame only).
    ix.store.db.prepare("UPDATE sessions SET time_from_file = 1").run();
    ix.store.db.prepare("UPDATE files SET time = NULL").run();
    const pipe = captureIO(ix.env, false);
    assertEquals(
      await blameCmd.run({ values: {}, positionals: ["/w/app/src/retry.ts"] }, pipe.io),
      0,
    );
    assertStringIncludes(pipe.out(), "(file time)");
  } finally {
    ix.cleanup();
  }
});

// Trial 52 (realdata Crush fd7da67c): the closing "Done … 4 passed", said after the third of
// three edits, was printed under the first, 12 minutes and a failing test run before it.
Deno.test("blame prints what was said after several changes under the last of them", async () => {
  const ix = await indexSessions([{
    id: "b1a00000-1111-4222-8333-000000000052",
    cwd: "/w/win",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { user: "fix the tests" },
      { edit: "/w/win/tests/a.Tests.ps1", old: "-BeTrue", new: "Be $true" },
      { bash: "pwsh -c Invoke-Pester", out: "Failed: 1", exit: 3 },
      { edit: "/w/win/tests/a.Tests.ps1", old: "x", new: "y" },
      { edit: "/w/win/tests/a.Tests.ps1", old: "y", new: "z" },
      { say: "Done: the tests pass now, 4 passed." },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(
      await blameCmd.run({ values: {}, positionals: ["/w/win/tests/a.Tests.ps1"] }, pipe.io),
      0,
    );
    const out = pipe.out().split("\n").map((l) => l.trim());
    const edits = out.flatMap((l, k) => l.startsWith("edit") ? [k] : []);
    const said = out.flatMap((l, k) => l.startsWith("said after:") ? [k] : []);
    assertEquals(edits.length, 3, pipe.out());
    assertEquals(said, [edits[2] + 1], pipe.out());
  } finally {
    ix.cleanup();
  }
});

// Trial 57: restore said an edit replaced every occurrence, blame did not.
Deno.test("blame says an edit replaced every occurrence, in text and JSON", async () => {
  const ix = await indexSessions([{
    id: "b1a00000-1111-4222-8333-000000000057",
    cwd: "/w/win",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { user: "fix the comment blocks" },
      { edit: "/w/win/Setup.psm1", old: "<#!", new: "<#", all: true },
      { edit: "/w/win/Setup.psm1", old: "Write-Host", new: "Write-Log" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(
      await blameCmd.run({ values: {}, positionals: ["/w/win/Setup.psm1"] }, pipe.io),
      0,
    );
    const edits = pipe.out().split("\n").filter((l) => l.trim().startsWith("edit"));
    assertEquals(edits.map((l) => l.includes("(every occurrence)")), [true, false]);
    const json = captureIO(ix.env, false);
    await blameCmd.run({ values: { json: true }, positionals: ["/w/win/Setup.psm1"] }, json.io);
    const changes = JSON.parse(json.out()).sessions[0].changes;
    assertEquals(changes.map((c: { replace_all: boolean }) => c.replace_all), [true, false]);
  } finally {
    ix.cleanup();
  }
});

// Trial 110 F4: a file removed and made again by a later session listed the sessions of the
// removed file as this one's, said nowhere.
Deno.test("blame and restore leave out a removed file's sessions and say so, in text and JSON alike", async () => {
  const at = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: "/w/rm",
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    at("a1a10000-1111-4222-8333-000000000110", "08", [
      { user: "write x" },
      { write: "/w/rm/x.py", content: "X = 'old'\n" },
      { edit: "/w/rm/x.py", old: "X = 'old'", new: "X = 'older'" },
      { write: "/w/rm/y.py", content: "Y = 'old'\n" },
      { bash: "rm y.py", out: "", exit: 0 },
    ]),
    at("a2a20000-1111-4222-8333-000000000110", "09", [
      { user: "remove x" },
      { bash: "rm x.py", out: "", exit: 0 },
    ]),
    at("a3a30000-1111-4222-8333-000000000110", "10", [
      { user: "new x" },
      { write: "/w/rm/x.py", content: "X = 'new'\n" },
      { write: "/w/rm/y.py", content: "Y = 'new'\n" },
    ]),
  ]);
  const positionals = ["/w/rm/x.py"];
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals }, pipe.io), 0);
    assert(pipe.out().startsWith("/w/rm/x.py  exact match, 1 session\n"), pipe.out());
    assert(!pipe.out().includes("\na1a10000 "), pipe.out());
    assertStringIncludes(
      pipe.out(),
      "left out: a1a10000 touched an earlier file of this name, which a2a20000 removed before " +
        "this one was made",
    );
    // Removed by the session that touched it.
    const own = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals: ["/w/rm/y.py"] }, own.io), 0);
    assertStringIncludes(
      own.out(),
      "left out: a1a10000 touched an earlier file of this name, which it removed before",
    );
    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: { json: true }, positionals }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(doc.sessions.map((s: { id: string }) => s.id.slice(0, 8)), ["a3a30000"]);
    assertEquals(doc.away, [{
      harness: "claude",
      id: "a1a10000-1111-4222-8333-000000000110",
      removed: true,
      moved_to: null,
      moved_by: { harness: "claude", id: "a2a20000-1111-4222-8333-000000000110" },
    }]);
    const list = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: {}, positionals }, list.io), 0);
    assert(!list.out().includes("'older'") && !list.out().includes("a1a10000"), list.out());
    assertStringIncludes(
      list.err(),
      "spans of an earlier file of this name are left out: it was removed by a2a20000 before " +
        "this one was made",
    );
    const rj = captureIO(ix.env, false);
    assertEquals(await restoreCmd.run({ values: { json: true }, positionals }, rj.io), 0);
    const rdoc = JSON.parse(rj.out());
    assertEquals([rdoc.spans.length, rdoc.moved_away, rdoc.removed_by], [1, [], [{
      harness: "claude",
      id: "a2a20000-1111-4222-8333-000000000110",
    }]]);
  } finally {
    ix.cleanup();
  }
});

// Trial 110 F3: "as b.py; moved here later by" the session that moved b.py to c.py, where
// another moved c.py here.
Deno.test("blame names each session's own names and the session that moved the file here, in text and JSON", async () => {
  const at = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: "/w/mv",
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    at("c1c10000-1111-4222-8333-000000000110", "08", [
      { user: "write b" },
      { write: "/w/mv/b.py", content: "B = 1\n" },
    ]),
    at("c2c20000-1111-4222-8333-000000000110", "09", [
      { user: "rename b" },
      { bash: "mv b.py c.py", out: "", exit: 0 },
    ]),
    at("c3c30000-1111-4222-8333-000000000110", "10", [
      { user: "rename c" },
      { bash: "mv c.py d.py", out: "", exit: 0 },
    ]),
  ]);
  const positionals = ["/w/mv/d.py"];
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals }, pipe.io), 0);
    assertStringIncludes(
      pipe.out(),
      "\n  as b.py; moved to c.py by c2c20000, then moved here by c3c30000\n",
    );
    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: { json: true }, positionals }, json.io), 0);
    const s = JSON.parse(json.out()).sessions[0];
    assertEquals([s.earlier_names, s.moved_through, s.moved_by.id], [
      ["/w/mv/b.py"],
      [{
        path: "/w/mv/c.py",
        by: { harness: "claude", id: "c2c20000-1111-4222-8333-000000000110" },
        copied: false,
      }],
      "c3c30000-1111-4222-8333-000000000110",
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 113 F3: `deja blame d.py` where no d.py is listed the sessions of lib/d.py and of
// tests/d.py as one "basename match" list, no session saying which file it touched, exit 0.
Deno.test("blame of a bare name several files elsewhere have names each session's file, exit 1", async () => {
  const s = (n: number, file: string) => ({
    id: `b1130000-1111-4222-8333-00000000000${n}`,
    cwd: "/w/app",
    start: `2026-10-0${n}T10:00:00Z`,
    turns: [{ user: `change d ${n}` }, { edit: file, old: "a", new: `b${n}` }],
  });
  const ix = await indexSessions([s(1, "/w/app/lib/d.py"), s(2, "/w/app/tests/d.py")]);
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals: ["d.py"] }, pipe.io), 1);
    assertStringIncludes(pipe.err(), "deja: no session touched /d.py itself");
    const out = pipe.out();
    assert(out.startsWith("d.py  basename match, 2 sessions of 2 files\n"), out);
    const blocks = out.split("\n\n").slice(1);
    assertEquals(blocks.length, 2, out);
    assertStringIncludes(
      blocks.find((b) => b.includes("change d 1"))!,
      "  file: /w/app/lib/d.py\n",
    );
    assertStringIncludes(
      blocks.find((b) => b.includes("change d 2"))!,
      "  file: /w/app/tests/d.py\n",
    );
    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: { json: true }, positionals: ["d.py"] }, json.io), 1);
    // One file's sessions (a suffix match here) are named by the header, as before.
    const one = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: {}, positionals: ["lib/d.py"] }, one.io), 0);
    assert(!one.out().includes("file:"), one.out());
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F2: a read through the shell is a read, labelled as one in text and --json.
Deno.test("blame says which reads were a shell command's, in text and --json", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "what is the retry limit" },
      { bash: "sed -n 1,40p src/retry.ts", out: "const MAX = 3;\n", exit: 0 },
      { read: "/w/app/src/retry.ts" },
    ],
  }, {
    id: "b1a40000-1111-4222-8333-444455556667",
    cwd: "/w/app",
    start: "2026-11-02T10:00:00Z",
    turns: [{ user: "show it" }, { bash: "cat src/retry.ts", out: "x\n", exit: 0 }],
  }]);
  const args = { values: {}, positionals: ["/w/app/src/retry.ts"] };
  try {
    const pipe = captureIO(ix.env, false);
    assertEquals(await blameCmd.run(args, pipe.io), 0);
    assertStringIncludes(pipe.out(), "  1 read (shell)\n");
    assertStringIncludes(pipe.out(), "  2 reads (1 by shell)\n");
    const json = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ ...args, values: { json: true } }, json.io), 0);
    const doc = JSON.parse(json.out());
    assertEquals(
      doc.sessions.map((s: { reads: number; shell_reads: number }) => [s.reads, s.shell_reads]),
      [
        [1, 1],
        [2, 1],
      ],
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F5: a folder not on this machine, three of whose files a session edited, was "no
// session touched" it, exit 1.
Deno.test("blame of a folder whose files sessions touched says it takes a file and names them", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/w/app",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "restyle" },
      { edit: "/w/app/src/App.jsx", old: "a", new: "b" },
      { edit: "/w/app/src/App.css", old: "a", new: "b" },
      { write: "/w/app/src/ui/index.css", content: "body {}\n" },
      { edit: "/w/app/srcx/other.ts", old: "a", new: "b" },
      { edit: "/w/other/src/App.jsx", old: "a", new: "b" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: ["/w/app/src"] }, pipe.io),
      DejaError,
    ) as DejaError;
    assertEquals(
      e.message,
      "/w/app/src is a folder: blame takes a file; sessions touched 3 files under it: " +
        "App.css (1 session), App.jsx (1 session), ui/index.css (1 session)",
    );
    assertEquals([e.exitCode, e.hint], [2, "deja blame /w/app/src/App.css for one of them"]);
    assertEquals(e.json?.files_under_total, 3);
    assertEquals(pipe.out(), "");
  } finally {
    ix.cleanup();
  }
});

// Blame of a folder whose files only hidden sessions touched (a throwaway project under /tmp)
// said "no session touched" it, as of a folder no session knew.
Deno.test("blame of a folder only hidden sessions touched says so, with --junk", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/tmp/scratch",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "try it" },
      { edit: "/tmp/scratch/src/a.ts", old: "a", new: "b" },
      { edit: "/tmp/scratch/src/b.ts", old: "a", new: "b" },
    ],
  }]);
  try {
    const pipe = captureIO(ix.env, false);
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: ["/tmp/scratch/src/"] }, pipe.io),
      DejaError,
    ) as DejaError;
    assertEquals(
      e.message,
      "/tmp/scratch/src is a folder: blame takes a file; only sessions of throwaway or " +
        "excluded projects touched 2 files under it",
    );
    assertEquals([e.exitCode, e.hint], [
      2,
      "deja blame /tmp/scratch/src/<file> --junk shows the throwaway ones",
    ]);
    // With --junk they are listed as any folder's files.
    const junk = captureIO(ix.env, false);
    const j = await assertRejects(
      () => blameCmd.run({ values: { junk: true }, positionals: ["/tmp/scratch/src"] }, junk.io),
      DejaError,
    ) as DejaError;
    assertEquals(j.json?.files_under_total, 2);
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F6: `blame notes.txt:3` (the line a replace-all edit wrote) said `edit 10:00 wrote
// the line` without the mark --json gives, the time of both edits to the minute alike, and
// "said before: Editing alpha." of the edit before it.
Deno.test("blame with a line says a replace-all edit's mark, seconds within a minute, and its own words", async () => {
  const dir = tempDir("deja-blame-f6-");
  const file = join(dir, "notes.txt");
  const ix = await indexSessions([{
    id: "b1a00000-1111-4222-8333-000000000130",
    cwd: dir,
    start: "2026-12-01T10:00:00Z",
    step: 1000,
    turns: [
      { user: "change alpha and gamma" },
      { say: "Editing alpha." },
      { edit: file, old: "alpha line", new: "ALPHA line" },
      { edit: file, old: "gamma", new: "GAMMA", all: true },
      { say: "Done." },
    ],
  }]);
  try {
    writeFileSync(file, "header\nALPHA line\nGAMMA x GAMMA\n");
    const pipe = captureIO(ix.env, false);
    const rc = await blameCmd.run({ values: { junk: true }, positionals: [`${file}:3`] }, pipe.io);
    assertEquals(rc, 0, pipe.out() + pipe.err());
    const out = pipe.out();
    assertStringIncludes(out, "    edit  2026-12-01 10:00:04 (every occurrence)  wrote the line\n");
    assert(!out.includes("Editing alpha."), out);
    assertStringIncludes(out, "      said after:  Done.\n");
    // Without a line: each edit with its own time and words.
    const all = captureIO(ix.env, false);
    assertEquals(await blameCmd.run({ values: { junk: true }, positionals: [file] }, all.io), 0);
    assertStringIncludes(
      all.out(),
      "    edit  2026-12-01 10:00:03\n      said before: Editing alpha.\n" +
        "    edit  2026-12-01 10:00:04 (every occurrence)\n      said after:  Done.\n",
    );
    const json = captureIO(ix.env, false);
    await blameCmd.run({ values: { json: true, junk: true }, positionals: [`${file}:3`] }, json.io);
    const changes = JSON.parse(json.out()).sessions[0].changes;
    assertEquals(
      changes.map((c: { before: string | null; after: string | null }) => [c.before, c.after]),
      [["Editing alpha.", null], [null, "Done."]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ix.cleanup();
  }
});

// Trial 132 F5: `deja blame lib` named none of the five files under it sessions read through
// the shell, `deja blame app` only the file edited, a Windows folder was "no session touched".
Deno.test("blame of a folder names the files under it shell commands read too, Windows ones too", async () => {
  const ix = await indexSessions([
    {
      id: ID,
      cwd: "/w/q",
      start: "2026-11-01T10:00:00Z",
      turns: [
        { user: "look around" },
        { edit: "/w/q/app/settings.py", old: "a", new: "b" },
        { bash: "cat app/views.py", out: "x\n", exit: 0 },
        { bash: "cd lib && sed -n 1,5p db.py", out: "x\n", exit: 0 },
        { bash: "git add lib/staged.py && cat /w/other/lib/else.py", out: "", exit: 0 },
        // A failed read of the folder itself is no file of that name (trial 135 F3).
        { bash: "cat lib", out: "cat: lib: Is a directory\n", exit: 1 },
      ],
    },
    {
      id: "b1a40000-1111-4222-8333-000000000132",
      cwd: "/w/q/lib",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "read" }, { bash: "head -n 5 cache.py", out: "x\n", exit: 0 }],
    },
    {
      id: "b1a40000-1111-4222-8333-000000000232",
      cwd: "C:\\Users\\u\\Vault",
      start: "2026-11-03T10:00:00Z",
      turns: [{ user: "read" }, { bash: "Get-Content .crewai\\TRAINING.md", out: "x", exit: 0 }],
    },
  ]);
  const folder = async (path: string) => {
    const pipe = captureIO(ix.env, false);
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: [path] }, pipe.io),
      DejaError,
    ) as DejaError;
    assertEquals(e.exitCode, 2);
    return e.message;
  };
  try {
    assertEquals(
      await folder("/w/q/lib"),
      "/w/q/lib is a folder: blame takes a file; sessions touched 2 files under it: " +
        "cache.py (1 session), db.py (1 session)",
    );
    assertEquals(
      await folder("/w/q/app"),
      "/w/q/app is a folder: blame takes a file; sessions touched 2 files under it: " +
        "settings.py (1 session), views.py (1 session)",
    );
    assertEquals(
      await folder("C:\\Users\\u\\Vault\\.crewai"),
      "C:\\Users\\u\\Vault\\.crewai is a folder: blame takes a file; sessions touched 1 file " +
        "under it: TRAINING.md (1 session)",
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 133 F8: `powershell.exe -Command "Get-Content -Path 'C:\Users\me\wrap\a04.txt'"` in a
// POSIX project was a file `C:Usersmewrapa04.txt` under the project, offered as the first file to
// blame; blame of the real path said no session touched it.
Deno.test("blame of a folder names the C:\\ file a PowerShell or cmd wrapper read from a POSIX project", async () => {
  const ix = await indexSessions([{
    id: ID,
    cwd: "/srv/acme/wrap",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "read them" },
      {
        bash:
          "powershell.exe -NoProfile -Command \"Get-Content -Path 'C:\\Users\\me\\wrap\\a04.txt'\"",
        out: "x\n",
        exit: 0,
      },
      { bash: "cmd /c type C:\\Users\\me\\wrap\\a05.txt", out: "x\n", exit: 0 },
      { bash: "cat a01.txt", out: "x\n", exit: 0 },
    ],
  }]);
  const folder = async (path: string) => {
    const pipe = captureIO(ix.env, false);
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: [path] }, pipe.io),
      DejaError,
    ) as DejaError;
    return [e.message, e.hint];
  };
  try {
    assertEquals(await folder("/srv/acme/wrap"), [
      "/srv/acme/wrap is a folder: blame takes a file; sessions touched 1 file under it: " +
      "a01.txt (1 session)",
      "deja blame /srv/acme/wrap/a01.txt for one of them",
    ]);
    assertEquals(await folder("C:\\Users\\me\\wrap"), [
      "C:\\Users\\me\\wrap is a folder: blame takes a file; sessions touched 2 files under it: " +
      "a04.txt (1 session), a05.txt (1 session)",
      "deja blame 'C:\\Users\\me\\wrap\\a04.txt' for one of them",
    ]);
    const pipe = captureIO(ix.env, false);
    const rc = await blameCmd.run(
      { values: {}, positionals: ["C:\\Users\\me\\wrap\\a04.txt"] },
      pipe.io,
    );
    assertEquals(rc, 0, pipe.err());
    assertStringIncludes(pipe.out(), "1 read (shell)");
  } finally {
    ix.cleanup();
  }
});

// Trial 133 F12: a folder with 12 files touched said "… 7 more (--json lists 20)".
Deno.test("blame of a folder says how many of its files --json lists", async () => {
  const turns = (n: number) => [
    { user: "edit" },
    ...Array.from({ length: n }, (_, i) => ({
      edit: `/w/f${n}/f${String(i).padStart(2, "0")}.py`,
      old: "a",
      new: "b",
    })),
  ];
  const ix = await indexSessions([
    { id: ID, cwd: "/w/f12", start: "2026-11-01T10:00:00Z", turns: turns(12) },
    {
      id: "b1a40000-1111-4222-8333-000000000133",
      cwd: "/w/f23",
      start: "2026-11-02T10:00:00Z",
      turns: turns(23),
    },
  ]);
  const folder = async (path: string) => {
    const pipe = captureIO(ix.env, false);
    const e = await assertRejects(
      () => blameCmd.run({ values: {}, positionals: [path] }, pipe.io),
      DejaError,
    ) as DejaError;
    return [e.message.replace(/^.*…/, "…"), (e.json?.files_under as unknown[]).length];
  };
  try {
    assertEquals(await folder("/w/f12"), ["… 7 more (--json lists all 12)", 12]);
    assertEquals(await folder("/w/f23"), ["… 18 more (--json lists the first 20)", 20]);
  } finally {
    ix.cleanup();
  }
});
