import { assert, assertEquals } from "../../tests/_assert.ts";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { blame } from "./blame.ts";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";

const A: SessionSpec = {
  id: "aaaa0001-0000-4000-8000-000000000001",
  cwd: "/w/app",
  start: "2026-10-01T10:00:00Z",
  turns: [
    { user: "Start the answer module" },
    { say: "Decided to start with a constant because the config is not loaded yet." },
    { write: "/w/app/src/a.ts", content: "// answer module\nconst answer = 42;\n" },
  ],
};
const B: SessionSpec = {
  id: "bbbb0002-0000-4000-8000-000000000002",
  cwd: "/w/app",
  start: "2026-10-05T10:00:00Z",
  turns: [
    { user: "The answer is wrong in production" },
    { read: "/w/app/src/a.ts" },
    { say: "The fix is to compute the answer instead of hardcoding it." },
    { edit: "/w/app/src/a.ts", old: "const answer = 42;", new: "const answer = compute();" },
    { edit: "/w/app/src/a.ts", old: "nothing here", new: "x", fail: true },
    { say: "Fixed by computing the value at start-up." },
  ],
};
const C: SessionSpec = {
  id: "cccc0003-0000-4000-8000-000000000003",
  cwd: "/w/app",
  start: "2026-10-09T10:00:00Z",
  turns: [{ user: "What does a.ts export?" }, { read: "/w/app/src/a.ts" }],
};
const D: SessionSpec = {
  id: "dddd0004-0000-4000-8000-000000000004",
  cwd: "/x/other",
  start: "2026-10-03T10:00:00Z",
  turns: [
    { user: "Tidy the other a.ts" },
    { edit: "/x/other/src/a.ts", old: "let b = 1;", new: "const b = 1;" },
  ],
};

const current = "// answer module\nconst answer = compute();\n}\n";

Deno.test("blame lists the sessions that touched a file, newest first, with the reasoning around edits", async () => {
  const ix = await indexSessions([A, B, C, D]);
  try {
    const r = blame(ix.store, "/w/app/src/a.ts", { cwd: "/" });
    assertEquals(r.match, "exact");
    assertEquals(r.total, 3);
    assertEquals(r.sessions.map((s) => s.session.native_id), [C.id, B.id, A.id]);
    const b = r.sessions[1];
    assertEquals([b.reads, b.edits, b.writes, b.failed], [1, 1, 0, 1]);
    assertEquals(b.changes.length, 1);
    assertEquals(b.changes[0].before, "The fix is to compute the answer instead of hardcoding it.");
    assertEquals(b.changes[0].after, "Fixed by computing the value at start-up.");
    assertEquals(r.sessions[2].changes[0].op, "write");
    assertEquals(r.sessions[2].changes[0].before?.startsWith("Decided to start"), true);
    assertEquals(r.sessions[0].changes, []);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line ranks the session whose span holds the line's current text first", async () => {
  const ix = await indexSessions([A, B, C, D]);
  try {
    const read = (p: string) => (p === "/w/app/src/a.ts" ? current : undefined);
    const l2 = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 2, readFile: read });
    assertEquals(l2.line, { number: 2, text: "const answer = compute();", lines: 3 });
    assertEquals(l2.sessions[0].session.native_id, B.id);
    assertEquals(l2.sessions[0].line, "wrote");
    // Line 1 was written by the oldest session: it now comes first.
    const l1 = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 1, readFile: read });
    assertEquals(l1.sessions[0].session.native_id, A.id);
    assertEquals(l1.sessions[0].line, "wrote");
    assertEquals(l1.sessions.slice(1).map((s) => s.line), [null, null]);
    // A brace identifies nothing; a missing file gives no preference either.
    const l3 = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 3, readFile: read });
    assertEquals(l3.line?.text, null);
    assertEquals(l3.sessions[0].session.native_id, C.id);
    const gone = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 2, readFile: () => undefined });
    assertEquals(gone.line?.note, "the file is not readable here");
    // Lines are counted as wc -l does: a final newline ends the last line.
    const three = () => "one line\ntwo line\nthree line\n";
    const past = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 4, readFile: three });
    assertEquals(past.line, { number: 4, text: null, note: "the file has 3 lines", lines: 3 });
    const last = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 3, readFile: three });
    assertEquals(last.line?.text, "three line");
    const bare = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 2, readFile: () => "x y z w" });
    assertEquals(bare.line?.note, "the file has 1 line");
    const zero = blame(ix.store, "src/a.ts", { cwd: "/w/app", line: 0, readFile: three });
    assertEquals(zero.line?.note, "lines are counted from 1");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame matches a path suffix from another checkout, then a bare file name", async () => {
  const ix = await indexSessions([A, B, C, D]);
  try {
    const suffix = blame(ix.store, "src/a.ts", { cwd: "/elsewhere" });
    assertEquals(suffix.match, "suffix");
    assertEquals(suffix.total, 4);
    const other = blame(ix.store, "/x/other/src/a.ts", { cwd: "/" });
    assertEquals(other.match, "exact");
    assertEquals(other.sessions.map((s) => s.session.native_id), [D.id]);
    const base = blame(ix.store, "a.ts", { cwd: "/nowhere" });
    assertEquals(base.match, "basename");
    const none = blame(ix.store, "b.ts", { cwd: "/" });
    assertEquals([none.match, none.sessions.length], [null, 0]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame filters by project and harness and honours the limit", async () => {
  const ix = await indexSessions([A, B, C, D]);
  try {
    const r = blame(ix.store, "src/a.ts", { cwd: "/elsewhere", project: "/x/", limit: 5 });
    assertEquals(r.sessions.map((s) => s.session.native_id), [D.id]);
    assertEquals(blame(ix.store, "src/a.ts", { cwd: "/q", limit: 2 }).sessions.length, 2);
    assertEquals(blame(ix.store, "src/a.ts", { cwd: "/q", harness: ["codex"] }).sessions, []);
    assert(blame(ix.store, "src/a.ts", { cwd: "/q", harness: ["claude"] }).sessions.length > 0);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame counts a read whose result failed as failed, not as a read of the file", async () => {
  const ix = await indexSessions([{
    id: "eeee0005-0000-4000-8000-000000000005",
    cwd: "/w/app",
    start: "2026-10-10T10:00:00Z",
    turns: [
      { user: "Look at b.ts" },
      { read: "/w/app/src/b.ts", fail: true },
      { read: "/w/app/src/b.ts" },
    ],
  }]);
  try {
    const r = blame(ix.store, "/w/app/src/b.ts", { cwd: "/" });
    const s = r.sessions[0];
    assertEquals([s.reads, s.edits, s.writes, s.failed], [1, 0, 0, 1]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line marks only the changes whose text holds it when a session edited the file several times", async () => {
  const E: SessionSpec = {
    id: "eeee0005-0000-4000-8000-000000000005",
    cwd: "/w/app",
    start: "2026-10-10T15:44:00Z",
    turns: [
      { user: "Tune the retry module" },
      { edit: "/w/app/src/r.ts", old: "const tries = 1;", new: "const tries = 2;" },
      { edit: "/w/app/src/r.ts", old: "const wait = 10;", new: "const wait = 20;" },
      { edit: "/w/app/src/r.ts", old: "const tries = 2;", new: "const tries = 3;" },
    ],
  };
  const ix = await indexSessions([E]);
  try {
    const now = "const tries = 3;\nconst wait = 20;\n";
    const read = (p: string) => (p === "/w/app/src/r.ts" ? now : undefined);
    const one = blame(ix.store, "/w/app/src/r.ts", { cwd: "/", line: 1, readFile: read });
    const s = one.sessions[0];
    assertEquals([s.edits, s.line], [3, "wrote"]);
    // The first edit replaced what the third replaced again: only the third put line 1 there.
    assertEquals(s.changes.map((c) => c.line), [null, null, "wrote"]);
    const two = blame(ix.store, "/w/app/src/r.ts", { cwd: "/", line: 2, readFile: read });
    assertEquals(two.sessions[0].changes.map((c) => c.line), [null, "wrote", null]);
    // Without a line no change is marked.
    const all = blame(ix.store, "/w/app/src/r.ts", { cwd: "/" });
    assertEquals(all.sessions[0].changes.map((c) => c.line), [null, null, null]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line credits no edit that kept the line as context, only the ones that introduced it", async () => {
  // Broke on a real Claude session: two Edits of index.css whose old and new strings both held
  // "margin: 0;" were each said to have written line 6.
  const W: SessionSpec = {
    id: "ffff0006-0000-4000-8000-000000000006",
    cwd: "/w/site",
    start: "2026-10-01T09:00:00Z",
    turns: [
      { user: "Add a stylesheet" },
      { write: "/w/site/index.css", content: "body {\n  margin: 0;\n}\n" },
    ],
  };
  const E: SessionSpec = {
    id: "ffff0007-0000-4000-8000-000000000007",
    cwd: "/w/site",
    start: "2026-10-02T09:00:00Z",
    turns: [
      { user: "Tidy the body rule" },
      {
        edit: "/w/site/index.css",
        old: "body {\n  margin: 0;\n}",
        new: "body {\n  margin: 0;\n  padding: 0;\n}",
      },
      {
        edit: "/w/site/index.css",
        old: "  margin: 0;\n  padding: 0;",
        new: "  margin: 0;\n  padding: 4px;",
      },
      { edit: "/w/site/index.css", old: "}\n", new: "}\np {\n  margin: 0;\n}\n" },
    ],
  };
  const ix = await indexSessions([W, E]);
  try {
    const now = "body {\n  margin: 0;\n  padding: 4px;\n}\np {\n  margin: 0;\n}\n";
    const read = (p: string) => (p === "/w/site/index.css" ? now : undefined);
    const r = blame(ix.store, "/w/site/index.css", { cwd: "/", line: 2, readFile: read });
    const by = new Map(r.sessions.map((s) => [s.session.native_id, s]));
    assertEquals(r.line?.text, "margin: 0;");
    // The third edit added a second "margin: 0;", at line 6, not this one (read by where its
    // new text is in the file); the first two left it alone.
    assertEquals(by.get(E.id)?.changes.map((c) => c.line), [null, null, null]);
    assertEquals(by.get(W.id)?.line, "wrote");
    const six = blame(ix.store, "/w/site/index.css", { cwd: "/", line: 6, readFile: read });
    assertEquals(six.sessions[0].changes.map((c) => c.line), [null, null, "wrote"]);
    // A line only the second edit introduced is credited to that edit alone.
    const pad = blame(ix.store, "/w/site/index.css", { cwd: "/", line: 3, readFile: read });
    assertEquals(pad.sessions[0].session.native_id, E.id);
    assertEquals(pad.sessions[0].changes.map((c) => c.line), [null, "wrote", null]);
    assertEquals(pad.sessions[1].line, null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line marks an edit that removed the line's text as replaced, context edits as neither", async () => {
  const S: SessionSpec = {
    id: "ffff0008-0000-4000-8000-000000000008",
    cwd: "/w/site",
    start: "2026-10-03T09:00:00Z",
    turns: [
      { user: "Swap the colour" },
      {
        edit: "/w/site/a.css",
        old: "color: red;\nfont: serif;",
        new: "color: blue;\nfont: serif;",
      },
    ],
  };
  const ix = await indexSessions([S]);
  try {
    const now = "color: red;\nfont: serif;\n";
    const read = () => now;
    const red = blame(ix.store, "/w/site/a.css", { cwd: "/", line: 1, readFile: read });
    assertEquals(red.sessions[0].line, "replaced");
    const font = blame(ix.store, "/w/site/a.css", { cwd: "/", line: 2, readFile: read });
    assertEquals(font.sessions[0].line, null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line credits an edit with lines it holds whole, not the start of a longer one", async () => {
  // Trial 63: `port: 808` and `- name: chex` were "wrote the line" of the edit below, and the
  // line it removed, put back by hand, was credited to it too.
  const S: SessionSpec = {
    id: "ffff0009-0000-4000-8000-000000000009",
    cwd: "/w/k8s",
    start: "2026-10-03T09:00:00Z",
    turns: [
      { user: "Split the backend out" },
      {
        edit: "/w/k8s/ingress.yaml",
        old: "        - name: chex-mix-timer\n          port: 80",
        new: "        - name: chex-mix-timer-backend\n          port: 8080",
      },
    ],
  };
  const ix = await indexSessions([S]);
  try {
    const now = "rules:\n- name: chex\nport: 808\n        - name: chex-mix-timer\nport: 8080\n";
    const mark = (line: number) =>
      blame(ix.store, "/w/k8s/ingress.yaml", { cwd: "/", line, readFile: () => now }).sessions[0]
        .line;
    assertEquals(mark(2), null, "- name: chex");
    assertEquals(mark(3), null, "port: 808");
    assertEquals(mark(4), "replaced", "the line the edit took out");
    assertEquals(mark(5), "wrote", "port: 8080, a line it wrote");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line credits a one-line edit where its text stands whole, not inside a longer word", async () => {
  // Trial 64: `timeout = 600` and `BETAMAX` were "wrote the line" of edits that wrote
  // `timeout = 60` and `BETA`.
  const S: SessionSpec = {
    id: "ffff0010-0000-4000-8000-000000000010",
    cwd: "/w/cfg",
    start: "2026-10-03T09:00:00Z",
    turns: [
      { user: "Raise the timeout" },
      { edit: "/w/cfg/config.ini", old: "timeout = 30", new: "timeout = 60" },
      { edit: "/w/cfg/words.txt", old: "beta", new: "BETA" },
    ],
  };
  const ix = await indexSessions([S]);
  try {
    const mark = (file: string, body: string, line: number) =>
      blame(ix.store, `/w/cfg/${file}`, { cwd: "/", line, readFile: () => body }).sessions[0]
        .line;
    assertEquals(mark("config.ini", "[server]\ntimeout = 600\nretries = 3\n", 2), null);
    assertEquals(mark("config.ini", "[server]\ntimeout = 60\n", 2), "wrote");
    assertEquals(mark("words.txt", "alpha BETA gamma\n", 1), "wrote", "alpha BETA gamma");
    // Inside a longer line while another holds the text grown longer, the edit's place is in
    // doubt: neither is credited (trial 64: a comment `# timeout = 60 was too short` beside
    // `timeout = 600`).
    const words = "BETAMAX\nalpha BETA gamma\n";
    assertEquals(mark("words.txt", words, 1), null, "BETAMAX");
    assertEquals(mark("words.txt", words, 2), null, "alpha BETA gamma beside BETAMAX");
    const commented = "[server]\ntimeout = 600\nretries = 3\n# timeout = 60 was too short\n";
    assertEquals(mark("config.ini", commented, 2), null);
    assertEquals(mark("config.ini", commented, 4), null);
    // The line of its own is the edit's, a comment that repeats it is not.
    const both = "[server]\ntimeout = 60\n# timeout = 60 was too short\n";
    assertEquals(mark("config.ini", both, 3), null);
    assertEquals(mark("config.ini", both, 2), "wrote");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame counts a call that recorded several spans as one edit (Cursor edit_file chunks, MultiEdit)", async () => {
  // Broke on a real Cursor store: 6 edit_file calls on style.css, two of them with two diff
  // chunks each, were "8 edits".
  const M: SessionSpec = {
    id: "ffff0009-0000-4000-8000-000000000009",
    cwd: "/w/bar",
    start: "2026-10-04T09:00:00Z",
    turns: [
      { user: "Restyle the bar" },
      {
        multi: "/w/bar/style.css",
        edits: [{ old: "color: red;", new: "color: blue;" }, {
          old: "gap: 1px;",
          new: "gap: 2px;",
        }],
      },
      { edit: "/w/bar/style.css", old: "margin: 1px;", new: "margin: 2px;" },
    ],
  };
  const ix = await indexSessions([M]);
  try {
    const read = () => "color: blue;\ngap: 2px;\nmargin: 2px;\n";
    const r = blame(ix.store, "/w/bar/style.css", { cwd: "/", line: 2, readFile: read });
    const s = r.sessions[0];
    assertEquals([s.edits, s.writes, s.failed], [2, 0, 0]);
    assertEquals(s.changes.map((c) => [c.spans, c.line]), [[2, "wrote"], [1, null]]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame calls a recorded Windows path exact whatever the case of its drive letter and folders", async () => {
  const W: SessionSpec = {
    id: "eeee0005-0000-4000-8000-000000000005",
    cwd: "c:\\Apps\\Shop",
    start: "2026-10-02T10:00:00Z",
    turns: [
      { user: "Fix storage" },
      { edit: "c:\\Apps\\Shop\\src\\lib\\gcs.ts", old: "let a = 1;", new: "const a = 1;" },
    ],
  };
  const ix = await indexSessions([A, W]);
  try {
    for (const typed of ["C:\\Apps\\Shop\\src\\lib\\gcs.ts", "c:\\APPS\\shop\\src\\lib\\GCS.ts"]) {
      const r = blame(ix.store, typed, { cwd: "/" });
      assertEquals(r.match, "exact", typed);
      assertEquals(r.sessions.map((s) => s.session.native_id), [W.id]);
    }
    // A POSIX path stays case-sensitive: another case of a folder is only a suffix.
    assertEquals(blame(ix.store, "/W/app/src/a.ts", { cwd: "/" }).match, "suffix");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame calls a path typed as the relative path a harness recorded exact, an absolute one a suffix", async () => {
  // No work directory recorded: the harness's relative path stays as written.
  const R: SessionSpec = {
    id: "ffff0006-0000-4000-8000-000000000006",
    cwd: "",
    start: "2026-10-02T10:00:00Z",
    turns: [{ user: "Set the key" }, { write: "backend/.env", content: "KEY=1\n" }],
  };
  const ix = await indexSessions([R]);
  try {
    const rel = blame(ix.store, "backend/.env", { cwd: "/home/me/shop" });
    assertEquals(rel.match, "exact");
    // What matched is the record, not the typed path made absolute (/home/me/shop/backend/.env).
    assertEquals(rel.recorded, "backend/.env");
    assertEquals(rel.sessions.map((s) => s.session.native_id), [R.id]);
    const abs = blame(ix.store, "/home/me/shop/backend/.env", { cwd: "/" });
    assertEquals([abs.match, abs.recorded], ["suffix", undefined]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line reads an edit by where it is: part of a line, and lines it only carried", async () => {
  const E: SessionSpec = {
    id: "ffff0008-0000-4000-8000-000000000008",
    cwd: "/w/app",
    start: "2026-10-03T09:00:00Z",
    turns: [
      { user: "say howdy, and add the tls block" },
      // Trial 9: an Edit of part of a line was "no recorded edit changed this text".
      { edit: "/w/app/app.py", old: "'hello'", new: "'howdy'" },
      // Trial 9: lines the edit only carried (kind, port) were said to be written by it.
      {
        edit: "/w/app/ingress.yaml",
        old: "routes:\n  - kind: Rule\n    port: 80\n",
        new: "tls:\n  secret: web\nroutes:\n  - kind: Rule\n    port: 80\n    name: web\n",
      },
    ],
  };
  const ix = await indexSessions([E]);
  try {
    const files: Record<string, string> = {
      "/w/app/app.py": "import os\nGREETING = 'howdy'\nprint(GREETING)\n",
      "/w/app/ingress.yaml": "kind: Ingress\ntls:\n  secret: web\nroutes:\n  - kind: Rule\n" +
        "    port: 80\n    name: web\n",
    };
    const read = (p: string) => files[p];
    const mark = (file: string, line: number) =>
      blame(ix.store, file, { cwd: "/", line, readFile: read }).sessions[0]?.line ?? null;
    assertEquals([mark("/w/app/app.py", 2), mark("/w/app/app.py", 3)], ["wrote", null]);
    assertEquals(
      [1, 2, 3, 4, 5, 6, 7].map((n) => mark("/w/app/ingress.yaml", n)),
      [null, "wrote", "wrote", null, null, null, "wrote"],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame calls a bare name a basename match of a relative record, and follows a symlink to the recorded file", async () => {
  const dir = tempDir("deja-blame-link-");
  mkdirSync(join(dir, "proj", "src"), { recursive: true });
  writeFileSync(join(dir, "proj", "src", "app.py"), "x = 1\n");
  symlinkSync(join(dir, "proj"), join(dir, "link"));
  const A: SessionSpec = {
    id: "ffff0009-0000-4000-8000-000000000009",
    cwd: join(dir, "proj"),
    start: "2026-10-04T09:00:00Z",
    turns: [{ user: "set x" }, {
      edit: join(dir, "proj", "src", "app.py"),
      old: "x = 0",
      new: "x = 1",
    }],
  };
  const R: SessionSpec = {
    id: "ffff0010-0000-4000-8000-000000000010",
    cwd: "",
    start: "2026-10-05T09:00:00Z",
    turns: [{ user: "netlify" }, { write: "netlify.toml", content: "[build]\n" }],
  };
  const ix = await indexSessions([A, R]);
  try {
    // Trial 9: typed in an unrelated project, `netlify.toml` was an "exact match".
    const bare = blame(ix.store, "netlify.toml", { cwd: "/w/elsewhere" });
    assertEquals([bare.match, bare.recorded], ["basename", undefined]);
    // Trial 9: through a symlinked directory, the very file was only a "suffix match".
    const linked = blame(ix.store, "link/src/app.py", { cwd: dir });
    assertEquals(linked.match, "exact");
    assertEquals(linked.sessions.map((s) => s.session.native_id), [A.id]);
    // A symlink to the file under another name (trial 10: "no session touched").
    symlinkSync(join(dir, "proj", "src", "app.py"), join(dir, "alias.py"));
    assertEquals(blame(ix.store, "alias.py", { cwd: dir }).match, "exact");
    // Doubled separators and `.` are no part of the path, nor is Unicode's decomposed form.
    const messy = blame(ix.store, `${dir}//proj/./src/app.py`, { cwd: "/" });
    assertEquals([messy.match, messy.target], ["exact", join(dir, "proj", "src", "app.py")]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame matches a file name typed in Unicode's decomposed form to the composed one recorded", async () => {
  const C: SessionSpec = {
    id: "ffff0011-0000-4000-8000-000000000011",
    cwd: "/w/app",
    start: "2026-10-06T09:00:00Z",
    turns: [{ user: "cafe" }, { edit: "/w/app/src/caf\u00e9.py", old: "a = 1", new: "a = 2" }],
  };
  const ix = await indexSessions([C]);
  try {
    // Trial 9: `cafe\u0301.py` (as macOS spells it) found "no session touched".
    assertEquals(blame(ix.store, "/w/app/src/cafe\u0301.py", { cwd: "/" }).match, "exact");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line credits no session when only a file of the same name elsewhere was touched", async () => {
  const E: SessionSpec = {
    id: "ffff0012-0000-4000-8000-000000000012",
    cwd: "/w/app",
    start: "2026-10-07T09:00:00Z",
    turns: [{ user: "timeout" }, {
      edit: "/w/app/calc.py",
      old: "TIMEOUT = 30",
      new: "TIMEOUT = 60",
    }],
  };
  const ix = await indexSessions([E]);
  try {
    // Trial 10: `calc.py:3` in an untouched project said a session that edited /w/app/calc.py
    // "wrote the line".
    const read = (
      p: string,
    ) => (p === "/w/other/calc.py" ? "x = 1\ny = 2\nTIMEOUT = 60\n" : undefined);
    const r = blame(ix.store, "calc.py", { cwd: "/w/other", line: 3, readFile: read });
    assertEquals([r.match, r.line?.text, r.sessions[0].line], ["basename", null, null]);
    assertEquals(r.line?.note, "only files of the same name elsewhere were touched");
  } finally {
    ix.cleanup();
  }
});

Deno.test("blame with a line credits a write with the lines the file keeps of it in their place, not its text elsewhere", async () => {
  const W: SessionSpec = {
    id: "abab0011-0000-4000-8000-000000000011",
    cwd: "/w/app",
    start: "2026-10-02T09:00:00Z",
    turns: [
      { user: "write calc.py" },
      {
        write: "/w/app/calc.py",
        content: "def helper():\n    pass\n\ndef other():\n    return None\n",
      },
    ],
  };
  const E: SessionSpec = {
    id: "cdcd0012-0000-4000-8000-000000000012",
    cwd: "/w/app",
    start: "2026-10-04T09:00:00Z",
    turns: [
      { user: "helper should return None" },
      {
        edit: "/w/app/calc.py",
        old: "def helper():\n    pass",
        new: "def helper():\n    return None",
      },
    ],
  };
  const ix = await indexSessions([W, E]);
  try {
    const body = "def helper():\n    return None\n\ndef other():\n    return None\n";
    const who = (line: number) =>
      blame(ix.store, "/w/app/calc.py", { cwd: "/", line, readFile: () => body }).sessions
        .filter((s) => s.line === "wrote").map((s) => s.session.native_id.slice(0, 4));
    // Trial 10: line 2 came from the edit; the write had `pass` there, its `return None` is line 5.
    assertEquals(who(2), ["cdcd"]);
    assertEquals(who(5), ["abab"]);
    assertEquals(who(1), ["abab"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 47: a file written and then deleted with `rm` was only "1 write" here, where ctx
// said "removed later". (Each session its own file: one written again after another session
// removed or moved it is another file, trial 110 F4.)
Deno.test("blame says a session removed or moved the file after touching it", async () => {
  const spec = (n: number, bash: string): SessionSpec => ({
    id: `b1a30000-0000-4000-8000-00000000000${n}`,
    cwd: "/w/ops",
    start: `2026-11-0${n}T10:00:00Z`,
    turns: [
      { user: "tidy the manifests" },
      { write: `/w/ops/deploy${n}.yaml`, content: "kind: Deployment\n" },
      { bash, out: "", exit: 0 },
      { say: "Done." },
    ],
  });
  const ix = await indexSessions([
    spec(1, "rm deploy1.yaml"),
    spec(2, "mv deploy2.yaml frontend-deploy.yaml"),
    spec(3, "mv deploy3.yaml deploy.old && mv deploy.old deploy3.yaml"),
  ]);
  try {
    const row = (n: number) =>
      blame(ix.store, `/w/ops/deploy${n}.yaml`, { cwd: "/w/ops" }).sessions.map((s) => [
        s.session.native_id,
        s.removed,
        s.moved_to,
      ]);
    assertEquals(row(1), [["b1a30000-0000-4000-8000-000000000001", true, undefined]]);
    assertEquals(row(2), [[
      "b1a30000-0000-4000-8000-000000000002",
      undefined,
      "frontend-deploy.yaml",
    ]]);
    assertEquals(row(3), [["b1a30000-0000-4000-8000-000000000003", undefined, undefined]]);
  } finally {
    ix.cleanup();
  }
});

// Trial 108 F2: S1 wrote `def f():\n    pass\n`, S2 added g with its own `pass`, S3 replaced
// f's `pass` with `return 1`. Blame of g's `pass` (line 5) said S2 and S1 "wrote the line"
// and S3 "replaced the line", all with certainty.
Deno.test("blame of a line whose text repeats says a mark told by the text alone may be another occurrence", async () => {
  const at = (hour: string, id: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: "/w/dup",
    start: `2026-08-01T${hour}:00:00Z`,
    turns,
  });
  const ix = await indexSessions([
    at("08", "a0a0a0a0-0000-4000-8000-000000000108", [
      { user: "write f" },
      { write: "/w/dup/dup.py", content: "def f():\n    pass\n" },
    ]),
    at("09", "b0b0b0b0-0000-4000-8000-000000000108", [
      { user: "add g" },
      {
        edit: "/w/dup/dup.py",
        old: "def f():\n    pass\n",
        new: "def f():\n    pass\n\ndef g():\n    pass\n",
      },
    ]),
    at("10", "c0c0c0c0-0000-4000-8000-000000000108", [
      { user: "f returns 1" },
      { edit: "/w/dup/dup.py", old: "def f():\n    pass\n\n", new: "def f():\n    return 1\n\n" },
    ]),
  ]);
  const body = "def f():\n    return 1\n\ndef g():\n    pass\n";
  try {
    const b = blame(ix.store, "dup.py", { cwd: "/w/dup", line: 5, readFile: () => body });
    assertEquals(
      b.sessions.map((s) => [s.session.native_id.slice(0, 8), s.line, s.lineUnsure]).sort(),
      [
        ["a0a0a0a0", "wrote", true],
        ["b0b0b0b0", "wrote", true],
        // Its edit is in the file, lines 1-3: it did not touch line 5.
        ["c0c0c0c0", null, undefined],
      ],
    );
    // A line placed by its edit stays certain.
    const l2 = blame(ix.store, "dup.py", { cwd: "/w/dup", line: 2, readFile: () => body });
    assertEquals(
      l2.sessions.map((s) => [s.session.native_id.slice(0, 8), s.line, s.lineUnsure]).sort(),
      [["a0a0a0a0", null, undefined], ["b0b0b0b0", null, undefined], [
        "c0c0c0c0",
        "wrote",
        undefined,
      ]],
    );
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F2: a file read only through the shell (`Get-Content f`, `sed -n 1,200p f`) was
// "no session touched" it, though blame lists the sessions that read a file.
Deno.test("blame counts the reads of shell commands, and no command that only names the file", async () => {
  const R: SessionSpec = {
    id: "5e110000-0000-4000-8000-000000000001",
    cwd: "/w/sh",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "look at the config" },
      { bash: "sed -n 1,200p conf/app.toml", out: "[app]\n", exit: 0 },
      { bash: "cd conf && cat app.toml | head -5", out: "[app]\n", exit: 0 },
      { bash: "git add conf/app.toml && echo conf/app.toml", out: "", exit: 0 },
      { read: "/w/sh/conf/app.toml" },
    ],
  };
  const G: SessionSpec = {
    id: "5e110000-0000-4000-8000-000000000002",
    cwd: "/w/sh",
    start: "2026-11-02T10:00:00Z",
    turns: [
      { user: "stage it" },
      {
        bash: "git add conf/app.toml; rm -f conf/app.toml.bak; sed -i s/a/b/ conf/app.toml",
        out: "",
        exit: 0,
      },
    ],
  };
  const W: SessionSpec = {
    id: "5e110000-0000-4000-8000-000000000003",
    cwd: "C:\\Users\\u\\Vault",
    start: "2026-11-03T10:00:00Z",
    turns: [
      { user: "boot it" },
      { bash: "Get-Content src\\vault\\crew.py", out: "import x\n", exit: 0 },
    ],
  };
  const ix = await indexSessions([R, G, W]);
  try {
    const r = blame(ix.store, "/w/sh/conf/app.toml", { cwd: "/" });
    assertEquals(r.match, "exact");
    assertEquals(
      r.sessions.map((s) => [s.session.native_id, s.reads, s.shellReads, s.edits]),
      [[R.id, 3, 2, 0]],
    );
    const w = blame(ix.store, "C:\\Users\\u\\Vault\\src\\vault\\crew.py", { cwd: "/" });
    assertEquals(w.match, "exact");
    assertEquals(w.sessions.map((s) => [s.session.native_id, s.reads, s.shellReads]), [
      [W.id, 1, 1],
    ]);
  } finally {
    ix.cleanup();
  }
});
