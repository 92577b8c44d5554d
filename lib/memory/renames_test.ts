/**
 * A file's history under its earlier names (trial 97 F1: Claude `mv k.py m.py` after a Write
 * and an Edit of k.py; blame of m.py showed only the edit after the move, restore one span of
 * three; a chain a.py → b.py → c.py → src/c.py was "no session touched it itself").
 */
import { assertEquals } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { blame } from "./blame.ts";
import { listSpans } from "./restore.ts";

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
    // The swap: b.py is the file written as a.py, its write listed. (The write of the b.py
    // moved away to a.py is still listed too: the file's own name's touches stay.)
    const b = listSpans(ix.store, "b.py", { cwd: P });
    assertEquals(
      b.spans.filter((s) => s.path === `${P}/a.py`).map((s) => s.text),
      ["a = 1\n"],
    );
  } finally {
    ix.cleanup();
  }
});
