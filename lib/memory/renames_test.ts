/**
 * A file's history under its earlier names (trial 97 F1: Claude `mv k.py m.py` after a Write
 * and an Edit of k.py; blame of m.py showed only the edit after the move, restore one span of
 * three; a chain a.py → b.py → c.py → src/c.py was "no session touched it itself").
 */
import { assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { blame } from "./blame.ts";
import { listSpans } from "./restore.ts";
import { blameAnswer } from "../mcp/answers.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";

const P = "/w/proj";

const renamed = () =>
  indexSessions([{
    id: "aaaaaaaa-0000-4000-8000-000000000097",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "write k, then rename it" },
      { write: `${P}/k.py`, content: "a = 1\nb = 2\n" },
      { edit: `${P}/k.py`, old: "a = 1", new: "a = 5" },
      { bash: "mv k.py m.py", out: "", exit: 0 },
      { edit: `${P}/m.py`, old: "b = 2", new: "b = 7" },
      { bash: "git mv m.py src/n.py", out: "", exit: 0 },
      { say: "Moved it." },
    ],
  }, {
    // Another session's k.py, written before anything was moved there: not this file.
    id: "bbbbbbbb-0000-4000-8000-000000000097",
    cwd: P,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write m" },
      { write: `${P}/m.py`, content: "other\n" },
      { bash: "rm m.py", out: "", exit: 0 },
      { say: "Done." },
    ],
  }]);

Deno.test("blame of a file's name now takes in its changes under the names it had before, with the move named", async () => {
  const ix = await renamed();
  try {
    const b = blame(ix.store, "src/n.py", { cwd: P });
    assertEquals(b.match, "exact");
    assertEquals(
      b.sessions.map((s) => [s.session.native_id.slice(0, 8), s.writes, s.edits, s.moved_to]),
      [["aaaaaaaa", 1, 2, undefined]],
    );
    assertEquals(b.sessions[0].moved_from, [`${P}/k.py`, `${P}/m.py`]);
    // The middle name: its own edit and the history before it, not the other session's m.py,
    // which was removed before this one came there.
    const m = blame(ix.store, "m.py", { cwd: P });
    const mine = m.sessions.find((s) => s.session.native_id.startsWith("aaaaaaaa"))!;
    assertEquals([mine.writes, mine.edits, mine.moved_to], [1, 2, "src/n.py"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("restore of a file's name now lists the spans of its earlier names", async () => {
  const ix = await renamed();
  try {
    const list = listSpans(ix.store, "src/n.py", { cwd: P });
    assertEquals(list.match, "exact");
    assertEquals(
      list.spans.map((s) => [s.path, s.op, s.text]),
      [[`${P}/m.py`, "edit", "b = 2"], [`${P}/k.py`, "edit", "a = 1"], [
        `${P}/k.py`,
        "write",
        "a = 1\nb = 2\n",
      ]],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame says a file only tried under its names was moved there and moved on (trial 94 F12)", async () => {
  const ix = await indexSessions([{
    id: "cccccccc-0000-4000-8000-000000000094",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "rename the manifests" },
      { bash: "mv deployment.yaml frontend-deployment.yaml", out: "", exit: 0 },
      { edit: `${P}/frontend-deployment.yaml`, old: "x: 1", new: "x: 2", fail: true },
      { edit: `${P}/image.yaml`, old: "y: 1", new: "y: 2", fail: true },
      { bash: "mv image.yaml frontend-image.yaml", out: "", exit: 0 },
      { say: "Renamed." },
    ],
  }]);
  try {
    const here = blame(ix.store, "frontend-deployment.yaml", { cwd: P });
    assertEquals(here.sessions.map((s) => [s.failed, s.moved_from]), [[1, [
      `${P}/deployment.yaml`,
    ]]]);
    const gone = blame(ix.store, "image.yaml", { cwd: P });
    assertEquals(gone.sessions.map((s) => [s.failed, s.moved_to]), [[1, "frontend-image.yaml"]]);
  } finally {
    ix.cleanup();
  }
});

// Trial 100 F2: a chain of renames in one command (`mv p q && mv q r`, a swap through `tmp`)
// was followed only for its last move: blame of r.py said no session touched it.
Deno.test("blame follows a chain of renames made in one command back to the first name", async () => {
  const ix = await indexSessions([{
    id: "cccccccc-0000-4000-8000-000000000100",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "write p, a and b, then rename" },
      { write: `${P}/p.py`, content: "p = 1\n" },
      { write: `${P}/a.py`, content: "a = 1\n" },
      { write: `${P}/b.py`, content: "b = 1\n" },
      { bash: "mv p.py q.py && mv q.py r.py", out: "", exit: 0 },
      { bash: "mv a.py tmp.py && mv b.py a.py && mv tmp.py b.py", out: "", exit: 0 },
      { say: "Renamed." },
    ],
  }]);
  try {
    const r = blame(ix.store, "r.py", { cwd: P });
    assertEquals([r.match, r.sessions[0]?.writes, r.sessions[0]?.moved_from], [
      "exact",
      1,
      [`${P}/p.py`],
    ]);
    // The swap: b.py is the file written as a.py, its write listed; the write of the b.py
    // that moved away to a.py is that file's, not this one's (a user trial listed both).
    const b = listSpans(ix.store, "b.py", { cwd: P });
    assertEquals(b.spans.map((s) => [s.path, s.text]), [[`${P}/a.py`, "a = 1\n"]]);
    const a = blame(ix.store, "a.py", { cwd: P });
    assertEquals(a.sessions.map((s) => [s.writes, s.moved_from, s.paths]), [
      [1, [`${P}/b.py`], [`${P}/b.py`]],
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 100 F1: one session wrote app.py, a later one moved it (`mv app.py lib/`, or a
// patch's `*** Move to:`); blame of lib/app.py:1 said no recorded write put the line there and
// restore left out the first session's spans. A third session that wrote a new app.py after
// the move touched another file.
Deno.test("blame and restore follow a file back to the sessions before the one that moved it", async () => {
  const dir = tempDir("deja-renames-");
  mkdirSync(join(dir, "lib"));
  writeFileSync(join(dir, "lib", "app.py"), "def a():\n    return 2\n");
  const ix = await indexSessions([{
    id: "11111111-0000-4000-8000-000000000100",
    cwd: dir,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write app" },
      { write: `${dir}/app.py`, content: "def a():\n    return 1\n" },
      { edit: `${dir}/app.py`, old: "return 1", new: "return 2" },
      { say: "Written." },
    ],
  }, {
    id: "22222222-0000-4000-8000-000000000100",
    cwd: dir,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "move app into lib" },
      { bash: "mkdir -p lib && mv app.py lib/", out: "", exit: 0 },
      { say: "Moved." },
    ],
  }, {
    id: "33333333-0000-4000-8000-000000000100",
    cwd: dir,
    start: "2026-08-01T10:00:00Z",
    turns: [
      { user: "a new app" },
      { write: `${dir}/app.py`, content: "print('new')\n" },
      { say: "Written." },
    ],
  }]);
  try {
    const b = blame(ix.store, "lib/app.py", { cwd: dir, line: 1 });
    const rows = b.sessions.map((s) => [
      s.session.native_id.slice(0, 8),
      s.line,
      s.writes,
      s.edits,
      s.earlier_names,
      s.moved_by?.slice(0, 8),
    ]);
    // The session that moved it touched nothing of it: it is named by the one listed.
    assertEquals(rows, [["11111111", "wrote", 1, 1, [`${dir}/app.py`], "22222222"]]);
    const list = listSpans(ix.store, "lib/app.py", { cwd: dir });
    assertEquals(
      list.spans.map((s) => [s.op, s.text]),
      [["edit", "return 1"], ["write", "def a():\n    return 1\n"]],
    );
    // The agent's answer says it too.
    const text = blameAnswer(ix.store, "lib/app.py:1", {}, dir, "/nowhere");
    assertEquals(/as app\.py; moved here later by 22222222/.test(text), true, text);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a name removed before the file was made there again counts from the removal on", async () => {
  const ix = await indexSessions([{
    id: "dddddddd-0000-4000-8000-000000000100",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "write a twice, then rename" },
      { write: `${P}/a.py`, content: "old = 1\n" },
      { bash: "rm a.py", out: "", exit: 0 },
      { write: `${P}/a.py`, content: "new = 1\n" },
      { bash: "mv a.py b.py", out: "", exit: 0 },
      { say: "Done." },
    ],
  }]);
  try {
    const list = listSpans(ix.store, "b.py", { cwd: P });
    assertEquals(list.spans.map((s) => s.text), ["new = 1\n"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 105 F2: S1 wrote app.py, S2 ran `mv app.py lib/`, S3 `git mv lib/app.py src/core.py`,
// S4 wrote a new app.py. blame and restore of app.py mixed S1's old file into S4's; blame of
// lib/app.py never said the file went on to src/core.py.
Deno.test("a file a later session moved away is not the file made under its name after", async () => {
  const dir = tempDir("deja-away-");
  writeFileSync(join(dir, "app.py"), "print('new')\n");
  const ix = await indexSessions([{
    id: "a1a1a1a1-0000-4000-8000-000000000105",
    cwd: dir,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write app" },
      { write: `${dir}/app.py`, content: "def a():\n    return 'v1'\n" },
      { edit: `${dir}/app.py`, old: "'v1'", new: "'v2'" },
      { say: "Written." },
    ],
  }, {
    id: "a2a2a2a2-0000-4000-8000-000000000105",
    cwd: dir,
    start: "2026-08-01T09:00:00Z",
    turns: [{ user: "move it" }, { bash: "mkdir -p lib && mv app.py lib/", out: "", exit: 0 }],
  }, {
    id: "a3a3a3a3-0000-4000-8000-000000000105",
    cwd: dir,
    start: "2026-08-01T10:00:00Z",
    turns: [{ user: "move it on" }, {
      bash: "mkdir -p src && git mv lib/app.py src/core.py",
      out: "",
      exit: 0,
    }],
  }, {
    id: "a4a4a4a4-0000-4000-8000-000000000105",
    cwd: dir,
    start: "2026-08-01T11:00:00Z",
    turns: [{ user: "a new entry point" }, { write: `${dir}/app.py`, content: "print('new')\n" }],
  }]);
  try {
    const b = blame(ix.store, "app.py", { cwd: dir });
    assertEquals(b.sessions.map((s) => s.session.native_id.slice(0, 8)), ["a4a4a4a4"]);
    assertEquals(
      b.away?.map((a) => [a.session.slice(0, 8), a.move.to, a.move.by.slice(0, 8)]),
      [["a1a1a1a1", `${dir}/lib/app.py`, "a2a2a2a2"]],
    );
    const r = listSpans(ix.store, "app.py", { cwd: dir });
    assertEquals(r.spans.map((s) => [s.session.slice(0, 8), s.text]), [
      ["a4a4a4a4", "print('new')\n"],
    ]);
    assertEquals(r.away?.map((a) => a.to), [`${dir}/lib/app.py`]);
    // From the middle name, the file went on: said, with the session that moved it.
    const mid = blame(ix.store, "lib/app.py", { cwd: dir });
    const s1 = mid.sessions.find((s) => s.session.native_id.startsWith("a1a1a1a1"))!;
    assertEquals([s1.moved_to, s1.moved_on_by?.slice(0, 8)], [`${dir}/src/core.py`, "a3a3a3a3"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 106 F2: a move the person made in `!` bash mode (`! mv app.py lib/`) was no move:
// restore of app.py offered the old file's spans for the one written after.
Deno.test("a move the person made in ! bash mode is followed as an agent's is, a failed one not", async () => {
  const dir = tempDir("deja-bang-");
  writeFileSync(join(dir, "app.py"), "print('new')\n");
  const spec = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: dir,
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    spec("b1b1b1b1-0000-4000-8000-000000000106", "08", [
      { user: "write app and other" },
      { write: `${dir}/app.py`, content: "old = 1\n" },
      { write: `${dir}/other.py`, content: "other = 1\n" },
    ]),
    spec("b2b2b2b2-0000-4000-8000-000000000106", "09", [
      { user: "<bash-input>mkdir -p lib && mv app.py lib/</bash-input>" },
      { user: "<bash-stdout></bash-stdout><bash-stderr></bash-stderr>" },
      { user: "<bash-input>mv other.py gone/</bash-input>" },
      {
        user: "<bash-stdout></bash-stdout><bash-stderr>mv: cannot move 'other.py' to 'gone/': " +
          "Not a directory</bash-stderr>",
      },
    ]),
    spec("b3b3b3b3-0000-4000-8000-000000000106", "10", [
      { user: "a new app" },
      { write: `${dir}/app.py`, content: "print('new')\n" },
      { write: `${dir}/other.py`, content: "other = 2\n" },
    ]),
  ]);
  try {
    const r = listSpans(ix.store, "app.py", { cwd: dir });
    assertEquals(r.spans.map((s) => s.session.slice(0, 8)), ["b3b3b3b3"]);
    assertEquals(r.away?.map((a) => a.to), [`${dir}/lib/app.py`]);
    const lib = blame(ix.store, "lib/app.py", { cwd: dir });
    assertEquals(lib.sessions.map((s) => [s.session.native_id.slice(0, 8), s.earlier_names]), [
      ["b1b1b1b1", [`${dir}/app.py`]],
    ]);
    // The move that failed moved nothing: other.py's writes are both its own.
    const other = listSpans(ix.store, "other.py", { cwd: dir });
    assertEquals(other.spans.map((s) => s.session.slice(0, 8)).sort(), ["b1b1b1b1", "b3b3b3b3"]);
  } finally {
    ix.cleanup();
  }
});

// A user trial: S2 swapped two files S1 wrote (`mv a tmp && mv b a && mv tmp b`); restore of a
// listed S1's write of the a that went to b beside its write of the b that came here.
Deno.test("a swap in a later session: the name's file is the one that came there", async () => {
  const ix = await indexSessions([{
    id: "c1c1c1c1-0000-4000-8000-000000000107",
    cwd: P,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write a and b" },
      { write: `${P}/a.py`, content: "a = 1\n" },
      { write: `${P}/b.py`, content: "b = 1\n" },
    ],
  }, {
    id: "c2c2c2c2-0000-4000-8000-000000000107",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "swap them" },
      { bash: "mv a.py tmp.py && mv b.py a.py && mv tmp.py b.py", out: "", exit: 0 },
    ],
  }]);
  try {
    const a = listSpans(ix.store, "a.py", { cwd: P });
    assertEquals(a.spans.map((s) => [s.path, s.text]), [[`${P}/b.py`, "b = 1\n"]]);
    const b = blame(ix.store, "b.py", { cwd: P });
    assertEquals(
      b.sessions.map((s) => [s.session.native_id.slice(0, 8), s.writes, s.earlier_names]),
      [["c1c1c1c1", 1, [`${P}/a.py`]]],
    );
  } finally {
    ix.cleanup();
  }
});

// A user trial: a file made by `cp src dst` in a session's command was "no session touched"
// for `deja blame dst:1`, though deja held the history of src it came from.
Deno.test("blame and restore follow a copy back to its source's history up to the copy, not after", async () => {
  const dir = tempDir("deja-copy-");
  mkdirSync(join(dir, "lib"));
  writeFileSync(join(dir, "dst.py"), "alpha = 1\nbeta = 2\n");
  writeFileSync(join(dir, "lib", "src.py"), "alpha = 1\nbeta = 2\n");
  writeFileSync(join(dir, "own2.py"), "x = 1\n");
  const ix = await indexSessions([{
    id: "d1d1d1d1-0000-4000-8000-000000000107",
    cwd: dir,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write src" },
      { write: `${dir}/src.py`, content: "alpha = 1\nbeta = 0\n" },
      { edit: `${dir}/src.py`, old: "beta = 0", new: "beta = 2" },
    ],
  }, {
    id: "d2d2d2d2-0000-4000-8000-000000000107",
    cwd: dir,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "copy it" },
      { bash: "cp -p src.py dst.py", out: "", exit: 0 },
      // The person's own `!` copy into a folder, as moves are followed.
      { user: "<bash-input>cp src.py lib/</bash-input>" },
      { user: "<bash-stdout></bash-stdout><bash-stderr></bash-stderr>" },
      // src's history after the copies is not the copies'.
      { edit: `${dir}/src.py`, old: "beta = 2", new: "beta = 3" },
      // A copy in the session that wrote its source.
      { write: `${dir}/own.py`, content: "x = 1\n" },
      { bash: "cp own.py own2.py", out: "", exit: 0 },
      { edit: `${dir}/own.py`, old: "x = 1", new: "x = 9" },
    ],
  }]);
  try {
    const b = blame(ix.store, "dst.py", { cwd: dir, line: 2 });
    assertEquals(
      b.sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.line,
        s.writes,
        s.edits,
        s.earlier_names,
        s.moved_by?.slice(0, 8),
        s.copied,
      ]),
      [["d1d1d1d1", "wrote", 1, 1, [`${dir}/src.py`], "d2d2d2d2", true]],
    );
    const r = listSpans(ix.store, "dst.py", { cwd: dir });
    assertEquals(r.spans.map((s) => [s.session.slice(0, 8), s.op, s.text]), [
      ["d1d1d1d1", "edit", "beta = 0"],
      ["d1d1d1d1", "write", "alpha = 1\nbeta = 0\n"],
    ]);
    const lib = listSpans(ix.store, "lib/src.py", { cwd: dir });
    assertEquals(lib.spans.map((s) => s.text), ["beta = 0", "alpha = 1\nbeta = 0\n"]);
    // The agent's answer says it was copied.
    const text = blameAnswer(ix.store, "dst.py:2", {}, dir, "/nowhere");
    assertEquals(/as src\.py; copied here later by d2d2d2d2/.test(text), true, text);
    // A copy in its own session: its source's spans up to the copy, said as copied.
    const own = blame(ix.store, "own2.py", { cwd: dir });
    assertEquals(own.sessions.map((s) => [s.writes, s.edits, s.moved_from, s.copied]), [
      [1, 0, [`${dir}/own.py`], true],
    ]);
    // The source keeps its whole history: a copy took nothing away.
    const src = blame(ix.store, "src.py", { cwd: dir });
    assertEquals(
      src.sessions.map((s) => [s.session.native_id.slice(0, 8), s.edits, s.moved_to]).sort(),
      [["d1d1d1d1", 1, undefined], ["d2d2d2d2", 1, undefined]],
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 108 F1: S1 wrote r.py, S2 ran `mv r.py s.py`, S3 `mv s.py t.py`: blame and restore of
// t.py said no session touched it. A swap across sessions (`mv p.py tmp2.py`, then `mv q.py
// p.py && mv tmp2.py q.py`) gave q.py the history of the q.py that went to p.py.
Deno.test("a file moved by sessions that only moved it is followed back through all of them", async () => {
  const spec = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: P,
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    spec("e1e1e1e1-0000-4000-8000-000000000108", "08", [
      { user: "write r, p and q" },
      { write: `${P}/r.py`, content: "R = 'romeo'\n" },
      { write: `${P}/p.py`, content: "P = 'papa'\n" },
      { write: `${P}/q.py`, content: "Q = 'quebec'\n" },
    ]),
    spec("e2e2e2e2-0000-4000-8000-000000000108", "09", [
      { user: "move r, put p aside" },
      { bash: "mv r.py s.py", out: "", exit: 0 },
      { bash: "mv p.py tmp2.py", out: "", exit: 0 },
    ]),
    spec("e3e3e3e3-0000-4000-8000-000000000108", "10", [
      { user: "move s, finish the swap" },
      { bash: "mv s.py t.py", out: "", exit: 0 },
      { bash: "mv q.py p.py && mv tmp2.py q.py", out: "", exit: 0 },
    ]),
  ]);
  try {
    const t = blame(ix.store, "t.py", { cwd: P });
    // Its own name for the file, and s.py as the name another session gave it (trial 110 F3).
    assertEquals(
      t.sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.writes,
        s.earlier_names,
        s.moved_through?.map((h) => [h.path, h.by.slice(0, 8)]),
        s.moved_by?.slice(0, 8),
      ]),
      [["e1e1e1e1", 1, [`${P}/r.py`], [[`${P}/s.py`, "e2e2e2e2"]], "e3e3e3e3"]],
    );
    assertEquals(listSpans(ix.store, "t.py", { cwd: P }).spans.map((s) => s.text), [
      "R = 'romeo'\n",
    ]);
    // q.py holds what S1 wrote as p.py; S1's q.py went to p.py.
    const q = listSpans(ix.store, "q.py", { cwd: P });
    assertEquals(q.spans.map((s) => [s.path, s.text]), [[`${P}/p.py`, "P = 'papa'\n"]]);
    const qb = blame(ix.store, "q.py", { cwd: P });
    assertEquals(qb.sessions.map((s) => [s.paths, s.earlier_names, s.moved_through?.[0].path]), [
      [[`${P}/p.py`], [`${P}/p.py`], `${P}/tmp2.py`],
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 108 F4: S1 wrote x.py and y.py and swapped them in one command, S2 ran `git mv y.py
// yy.py`: S1's write of the y.py that went to x.py, then its swap, ended the chain, and blame
// of yy.py said no session touched it.
Deno.test("a later move of a file a session swapped in follows it back to the write it came from", async () => {
  const ix = await indexSessions([{
    id: "f1f1f1f1-0000-4000-8000-000000000108",
    cwd: P,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write x and y, swap them" },
      { write: `${P}/x.py`, content: "X = 'xray'\n" },
      { write: `${P}/y.py`, content: "Y = 'yankee'\n" },
      { bash: "mv x.py tmp.py && mv y.py x.py && mv tmp.py y.py", out: "", exit: 0 },
    ],
  }, {
    id: "f2f2f2f2-0000-4000-8000-000000000108",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [{ user: "rename y" }, { bash: "git mv y.py yy.py", out: "", exit: 0 }],
  }]);
  try {
    const b = blame(ix.store, "yy.py", { cwd: P });
    assertEquals(
      b.sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.paths,
        s.earlier_names,
        s.moved_by?.slice(0, 8),
      ]),
      [["f1f1f1f1", [`${P}/x.py`], [`${P}/x.py`, `${P}/y.py`], "f2f2f2f2"]],
    );
    assertEquals(listSpans(ix.store, "yy.py", { cwd: P }).spans.map((s) => s.text), [
      "X = 'xray'\n",
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 108 F4: `cp -r lib lib2` (and `mv` of a folder) made files blame and restore never
// followed: "no session touched lib2/a.py itself".
Deno.test("a file in a folder a later session copied or moved whole is followed back to the folder's file", async () => {
  const dir = tempDir("deja-folders-");
  for (const d of ["lib", "lib2", "pkg2"]) mkdirSync(join(dir, d));
  writeFileSync(join(dir, "lib", "a.py"), "ALPHA_VALUE = 1\n");
  writeFileSync(join(dir, "lib2", "a.py"), "ALPHA_VALUE = 1\n");
  writeFileSync(join(dir, "pkg2", "b.py"), "BRAVO_VALUE = 1\n");
  const ix = await indexSessions([{
    id: "a8a8a8a8-0000-4000-8000-000000000108",
    cwd: dir,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write lib/a and pkg/b" },
      { write: `${dir}/lib/a.py`, content: "ALPHA_VALUE = 1\n" },
      { write: `${dir}/pkg/b.py`, content: "BRAVO_VALUE = 1\n" },
    ],
  }, {
    id: "b8b8b8b8-0000-4000-8000-000000000108",
    cwd: dir,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { user: "copy lib, rename pkg" },
      { bash: "cp -r lib lib2", out: "", exit: 0 },
      { bash: "mv pkg pkg2", out: "", exit: 0 },
    ],
  }]);
  try {
    const row = (typed: string) =>
      blame(ix.store, typed, { cwd: dir, line: 1 }).sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.line,
        s.earlier_names,
        s.moved_by?.slice(0, 8),
        s.copied,
      ]);
    assertEquals(row("lib2/a.py"), [["a8a8a8a8", "wrote", [`${dir}/lib/a.py`], "b8b8b8b8", true]]);
    assertEquals(row("pkg2/b.py"), [[
      "a8a8a8a8",
      "wrote",
      [`${dir}/pkg/b.py`],
      "b8b8b8b8",
      undefined,
    ]]);
    assertEquals(listSpans(ix.store, "pkg2/b.py", { cwd: dir }).spans.map((s) => s.text), [
      "BRAVO_VALUE = 1\n",
    ]);
    // The source folder's file keeps its own history; the moved one says where it went.
    assertEquals(row("lib/a.py"), [["a8a8a8a8", "wrote", undefined, undefined, undefined]]);
    const pkg = blame(ix.store, "pkg/b.py", { cwd: dir });
    assertEquals(pkg.sessions.map((s) => [s.moved_to, s.moved_on_by?.slice(0, 8)]), [
      [`${dir}/pkg2/b.py`, "b8b8b8b8"],
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 108 F5: blame of a name a session moved the file to and then on from, in the same
// session (`mv x.py tmp.py && … && mv tmp.py y.py`, `mv m1.py m2.py` then `mv m2.py m3.py`),
// said "moved here from …" and not where the file went; nor did y.py say a later session
// moved it on (`git mv y.py yy.py`).
Deno.test("blame of a name a file passed through says where it went on to", async () => {
  const ix = await indexSessions([{
    id: "c8c8c8c8-0000-4000-8000-000000000108",
    cwd: P,
    start: "2026-08-01T08:00:00Z",
    turns: [
      { user: "write x, y and m1, swap x and y, move m1 twice" },
      { write: `${P}/x.py`, content: "X = 'xray'\n" },
      { write: `${P}/y.py`, content: "Y = 'yankee'\n" },
      { write: `${P}/m1.py`, content: "M = 'mike'\n" },
      { bash: "mv x.py tmp.py && mv y.py x.py && mv tmp.py y.py", out: "", exit: 0 },
      { bash: "mv m1.py m2.py", out: "", exit: 0 },
      { bash: "mv m2.py m3.py", out: "", exit: 0 },
    ],
  }, {
    id: "d8d8d8d8-0000-4000-8000-000000000108",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [{ user: "rename y" }, { bash: "git mv y.py yy.py", out: "", exit: 0 }],
  }]);
  try {
    const row = (typed: string) =>
      blame(ix.store, typed, { cwd: P }).sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.moved_from,
        s.moved_to,
        s.moved_on_by?.slice(0, 8),
      ]);
    assertEquals(row("tmp.py"), [["c8c8c8c8", [`${P}/x.py`], "y.py", undefined]]);
    assertEquals(row("m2.py"), [["c8c8c8c8", [`${P}/m1.py`], "m3.py", undefined]]);
    // Where it stayed, no move on is said.
    assertEquals(row("m3.py"), [["c8c8c8c8", [`${P}/m1.py`, `${P}/m2.py`], undefined, undefined]]);
    assertEquals(row("y.py"), [["c8c8c8c8", [`${P}/x.py`], `${P}/yy.py`, "d8d8d8d8"]]);
    // Moved on by a later session to the name asked: no move on from it.
    const yy = blame(ix.store, "yy.py", { cwd: P }).sessions;
    assertEquals(yy.map((s) => [s.earlier_names, s.moved_to]), [[
      [`${P}/x.py`, `${P}/y.py`],
      undefined,
    ]]);
    const text = blameAnswer(ix.store, "tmp.py", {}, P, "/nowhere");
    assertEquals(/moved later to y\.py/.test(text), true, text);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a move or copy its output says was refused moved nothing, though the line exited 0 (trial 110 F2)", async () => {
  const ix = await indexSessions([{
    id: "aaaaaaaa-0000-4000-8000-000000000110",
    cwd: P,
    start: "2026-08-01T09:00:00Z",
    turns: [
      { write: `${P}/k3.py`, content: "K = 3\n" },
      { write: `${P}/k9.py`, content: "K = 9\n" },
      {
        bash: "mv k3.py lib3/k3.py; echo done",
        out: "mv: cannot move 'k3.py' to 'lib3/k3.py': No such file or directory\ndone",
        clean: true,
      },
      {
        bash: "cp k9.py sub9/k9.py; echo copied",
        out: "cp: cannot create regular file 'sub9/k9.py': No such file or directory\ncopied",
        clean: true,
      },
    ],
  }]);
  try {
    const k3 = blame(ix.store, "k3.py", { cwd: P });
    assertEquals(k3.sessions.map((s) => [s.writes, s.moved_to]), [[1, undefined]]);
    for (const path of ["lib3/k3.py", "sub9/k9.py"]) {
      const b = blame(ix.store, path, { cwd: P });
      assertEquals(
        [b.match, b.sessions.filter((s) => s.moved_from?.length).length],
        ["basename", 0],
        path,
      );
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 110 F4: S1 wrote x.py, S2 ran `rm x.py`, S3 wrote a new x.py. Blame of x.py listed S1
// as a session that touched it, restore listed S1's spans; they were another file's.
Deno.test("a file removed before the file of its name was made again is another file", async () => {
  const spec = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: P,
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    spec("a1a1a1a1-0000-4000-8000-000000000110", "08", [
      { user: "write x and y" },
      { write: `${P}/x.py`, content: "X = 'old'\n" },
      { edit: `${P}/x.py`, old: "X = 'old'", new: "X = 'older'" },
      // Its own removal: y.py made after it is another file too.
      { write: `${P}/y.py`, content: "Y = 'old'\n" },
      { bash: "rm -f y.py", out: "", exit: 0 },
      { write: `${P}/z.py`, content: "Z = 'only'\n" },
      { write: `${P}/w.py`, content: "W = 'old'\n" },
    ]),
    spec("a2a2a2a2-0000-4000-8000-000000000110", "09", [
      { user: "remove x and z" },
      { bash: "rm x.py w.py && git rm -q z.py", out: "", exit: 0 },
    ]),
    spec("a3a3a3a3-0000-4000-8000-000000000110", "10", [
      { user: "new x and y" },
      { write: `${P}/x.py`, content: "X = 'new'\n" },
      { write: `${P}/y.py`, content: "Y = 'new'\n" },
      // Edited, not written: it came back some way no session recorded, maybe the old file.
      { edit: `${P}/w.py`, old: "W = 'old'", new: "W = 'back'" },
    ]),
  ]);
  try {
    const row = (typed: string) => {
      const b = blame(ix.store, typed, { cwd: P });
      return [
        b.sessions.map((s) => s.session.native_id.slice(0, 8)),
        b.away?.map((a) => [a.session.slice(0, 8), a.move.removed, a.move.by.slice(0, 8)]),
      ];
    };
    assertEquals(row("x.py"), [["a3a3a3a3"], [["a1a1a1a1", true, "a2a2a2a2"]]]);
    assertEquals(row("y.py"), [["a3a3a3a3"], [["a1a1a1a1", true, "a1a1a1a1"]]]);
    const r = listSpans(ix.store, "x.py", { cwd: P });
    assertEquals(r.spans.map((s) => [s.session.slice(0, 8), s.text]), [[
      "a3a3a3a3",
      "X = 'new'\n",
    ]]);
    assertEquals(r.away?.map((a) => [a.removed, a.by.slice(0, 8)]), [[true, "a2a2a2a2"]]);
    // Nothing made after the removal: the session is the file's, and who removed it is said.
    const z = blame(ix.store, "z.py", { cwd: P });
    assertEquals(z.sessions.map((s) => [s.removed, s.moved_on_by?.slice(0, 8)]), [
      [true, "a2a2a2a2"],
    ]);
    const w = blame(ix.store, "w.py", { cwd: P });
    assertEquals(
      w.sessions.map((s) => [s.session.native_id.slice(0, 8), s.removed]),
      [["a3a3a3a3", undefined], ["a1a1a1a1", true]],
    );
    assertEquals(w.away, undefined);
  } finally {
    ix.cleanup();
  }
});

// Trial 110 F3: A wrote b.py, B moved it to c.py and edited it, C moved c.py to d.py. Blame of
// d.py said A's file was "moved here later by" B, which moved it to c.py; with sessions that
// only moved it, one session's line named the names the others gave it.
Deno.test("each session's line names its own names for the file and the session that moved it here", async () => {
  const spec = (id: string, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: P,
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    spec("b1b1b1b1-0000-4000-8000-000000000110", "08", [
      { user: "write b" },
      { write: `${P}/b.py`, content: "B = 'bravo'\n" },
    ]),
    spec("b2b2b2b2-0000-4000-8000-000000000110", "09", [
      { user: "rename b, change it" },
      { bash: "mv b.py c.py", out: "", exit: 0 },
      { edit: `${P}/c.py`, old: "B = 'bravo'", new: "B = 'charlie'" },
    ]),
    spec("b3b3b3b3-0000-4000-8000-000000000110", "10", [
      { user: "rename c" },
      { bash: "mv c.py e.py", out: "", exit: 0 },
      { bash: "mv e.py d.py", out: "", exit: 0 },
    ]),
  ]);
  try {
    const b = blame(ix.store, "d.py", { cwd: P });
    assertEquals(
      b.sessions.map((s) => [
        s.session.native_id.slice(0, 8),
        s.earlier_names,
        s.moved_through?.map((h) => [h.path, h.by.slice(0, 8)]),
        s.moved_by?.slice(0, 8),
      ]),
      [
        ["b2b2b2b2", [`${P}/b.py`, `${P}/c.py`], [[`${P}/e.py`, "b3b3b3b3"]], "b3b3b3b3"],
        [
          "b1b1b1b1",
          [`${P}/b.py`],
          [[`${P}/c.py`, "b2b2b2b2"], [`${P}/e.py`, "b3b3b3b3"]],
          "b3b3b3b3",
        ],
      ],
    );
    const text = blameAnswer(ix.store, "d.py", {}, P, "/nowhere");
    assertStringIncludes(text, "as b.py → c.py; moved here later by b3b3b3b3\n");
    assertStringIncludes(text, "as b.py; moved to c.py by b2b2b2b2, then moved here by b3b3b3b3\n");
  } finally {
    ix.cleanup();
  }
});

// Trial 113 F1, F2: a later session moved the file aside and straight back (`mv lib/copy.py
// /tmp/copy.bak`, then `mv /tmp/copy.bak lib/copy.py`). Blame of lib/copy.py left out the
// session that made it by `cp` and edited it ("moved to /tmp/copy.bak … before this one was
// made"), restore lost its span; of a file edited in place, blame said "moved later to
// /tmp/app.bak". The file back where it was is the same file.
const aside = (back: SessionSpec["turns"][], copied: boolean) => {
  const at = (n: number, hour: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id: `f1130000-0000-4000-8000-00000000000${n}`,
    cwd: P,
    start: `2026-02-0${n}T${hour}:00:00Z`,
    turns,
  });
  const file = copied ? "lib/copy.py" : "lib/app.py";
  return indexSessions([
    at(1, "10", [
      { user: "write it" },
      { write: `${P}/${copied ? "lib/orig.py" : file}`, content: "x = 1\ny = 2\n" },
      { say: "Made it." },
    ]),
    at(2, "10", [
      { user: "change y" },
      ...(copied ? [{ bash: `cp lib/orig.py ${file}`, out: "", exit: 0 }] : []),
      { edit: `${P}/${file}`, old: "y = 2", new: "y = 3" },
      { say: "Changed." },
    ]),
    ...back.map((turns, i) => at(3 + i, "10", [{ user: "move it aside and back" }, ...turns])),
  ]);
};

Deno.test("a file a later session moved aside and back is the same file: its copier's edit stays", async () => {
  const mv = (a: string, b: string) => ({ bash: `mv ${a} ${b}`, out: "", exit: 0 });
  const cases: Array<[string, SessionSpec["turns"][]]> = [
    ["two commands", [[mv("lib/copy.py", "/tmp/copy.bak"), mv("/tmp/copy.bak", "lib/copy.py")]]],
    ["one line", [[{
      bash: "mv lib/copy.py lib/copy2.py && mv lib/copy2.py lib/copy.py",
      out: "",
      exit: 0,
    }]]],
    ["two sessions", [[mv("lib/copy.py", "/tmp/copy.bak")], [mv("/tmp/copy.bak", "lib/copy.py")]]],
  ];
  for (const [name, back] of cases) {
    const ix = await aside(back, true);
    try {
      const b = blame(ix.store, "lib/copy.py", { cwd: P });
      const s2 = b.sessions.find((s) => s.session.native_id.endsWith("02"));
      assertEquals([s2?.edits, s2?.moved_to, s2?.removed], [1, undefined, undefined], name);
      assertEquals(b.away, undefined, name);
      const r = listSpans(ix.store, "lib/copy.py", { cwd: P });
      assertEquals(r.away, undefined, name);
      assertEquals(
        r.spans.filter((s) => s.session.endsWith("02")).map((s) => s.text),
        ["y = 2"],
        name,
      );
    } finally {
      ix.cleanup();
    }
  }
});

Deno.test("a file a later session moved aside and back is not said moved later", async () => {
  const mv = (a: string, b: string) => ({ bash: `mv ${a} ${b}`, out: "", exit: 0 });
  const cases: Array<[string, SessionSpec["turns"][]]> = [
    ["aside", [[mv("lib/app.py", "/tmp/app.bak"), mv("/tmp/app.bak", "lib/app.py")]]],
    ["same folder", [[mv("lib/app.py", "lib/app2.py"), mv("lib/app2.py", "lib/app.py")]]],
    ["two sessions", [[mv("lib/app.py", "/tmp/app.bak")], [mv("/tmp/app.bak", "lib/app.py")]]],
  ];
  for (const [name, back] of cases) {
    const ix = await aside(back, false);
    try {
      const b = blame(ix.store, "lib/app.py", { cwd: P });
      const said = b.sessions.filter((s) => s.writes || s.edits)
        .map((s) => [s.session.native_id.slice(-2), s.moved_to, s.moved_on_by]);
      assertEquals(said, [["02", undefined, undefined], ["01", undefined, undefined]], name);
      assertEquals(b.away, undefined, name);
    } finally {
      ix.cleanup();
    }
  }
  // The session that moved it round and edited it on both sides: no earlier names of its own.
  const round = await aside([[
    { edit: `${P}/lib/app.py`, old: "x = 1", new: "x = 4" },
    mv("lib/app.py", "/tmp/app.bak"),
    mv("/tmp/app.bak", "lib/app.py"),
    { edit: `${P}/lib/app.py`, old: "y = 3", new: "y = 5" },
  ]], false);
  try {
    const s3 = blame(round.store, "lib/app.py", { cwd: P }).sessions[0];
    assertEquals(
      [s3.session.native_id.slice(-2), s3.edits, s3.moved_from, s3.moved_to],
      ["03", 2, undefined, undefined],
    );
  } finally {
    round.cleanup();
  }
  // A file moved aside and never back went on: still said (the other side of the rule).
  const ix = await aside([[mv("lib/app.py", "/tmp/app.bak")]], false);
  try {
    const b = blame(ix.store, "lib/app.py", { cwd: P });
    assertEquals(b.sessions.map((s) => s.moved_to), ["/tmp/app.bak", "/tmp/app.bak"]);
  } finally {
    ix.cleanup();
  }
});
