/**
 * The tool hook's fix note speaks only of the error itself: another error of its kind (the
 * same message about another module) is not "this error came up before" (trial 13: `fix`
 * now falls back on an error's general form, and says so; a hook has no room to).
 */
import { assert, assertEquals, assertStringIncludes } from "../../tests/_assert.ts";
import { indexSessions } from "../../tests/_memory.ts";
import { fixNote } from "./point.ts";

Deno.test("the fix note cites the error as seen, never only its general form", async () => {
  const ix = await indexSessions([{
    id: "e1e10011-0000-4000-8000-000000000011",
    cwd: "/w/svc",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { user: "start the server" },
      { bash: "node server.js", out: "Error: Cannot find module 'express'", exit: 1 },
      { bash: "npm install express", out: "added 60 packages", exit: 0 },
      { bash: "node server.js", out: "listening", exit: 0 },
    ],
  }]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const same = fixNote(ix.store, "Error: Cannot find module 'express'", current, new Set(), 2000);
    assert(same?.text.includes("npm install express"), same?.text);
    const other = fixNote(
      ix.store,
      "Error: Cannot find module 'left-pad'",
      current,
      new Set(),
      2000,
    );
    assertEquals(other, null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the fix note of a re-run says what was edited before it", async () => {
  // Trial 16: the note said only to run the failing command again; `deja fix` names the edit.
  const ix = await indexSessions([{
    id: "e1e10012-0000-4000-8000-000000000012",
    cwd: "/w/zoo",
    start: "2026-08-02T10:00:00Z",
    turns: [
      {
        bash: "python -m pytest tests/test_quokka.py",
        out: "ImportError: cannot import name 'Quokka' from 'zoo.animals'",
        exit: 1,
      },
      { edit: "/w/zoo/zoo/animals.py", old: "class Quoka:", new: "class Quokka:" },
      { bash: "python -m pytest tests/test_quokka.py", out: "1 passed", exit: 0 },
    ],
  }]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(
      ix.store,
      "ImportError: cannot import name 'Quokka' from 'zoo.animals'",
      current,
      new Set(),
      2000,
    );
    // With the words it replaced (trial 105 F4).
    assertStringIncludes(
      note?.text ?? "",
      "- edit animals.py (class Quoka: → class Quokka:), then run `python -m pytest",
    );
    assertStringIncludes(
      note?.text ?? "",
      "; after `python -m pytest tests/test_quokka.py` failed)",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("the fix note answers a failed command whose lines name no error word, as deja fix does", async () => {
  // Trial 20: `hook-tool-after` said nothing for this output while `deja fix` answered it.
  const out = "ZORB-E42: quux linker exploded at stage 3";
  const ix = await indexSessions([{
    id: "e1e10013-0000-4000-8000-000000000013",
    cwd: "/w/quux",
    start: "2026-08-03T10:00:00Z",
    turns: [
      { bash: "make link", out, exit: 1 },
      { bash: "make clean-stage3", out: "cleaned", exit: 0 },
      { bash: "make link", out: "linked", exit: 0 },
    ],
  }]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(ix.store, `Exit code 1\n${out}`, current, new Set(), 2000);
    assert(note?.text.includes("make clean-stage3"), note?.text);
    // Output that never failed anywhere in the history is still no error.
    assertEquals(fixNote(ix.store, "Exit code 1\nall quiet", current, new Set(), 2000), null);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the fix note leaves out what followed only the error's general form", async () => {
  // Trial 27: a `mv` of another project, after another file's "not found", was offered to the
  // agent as the fix of this one; `deja fix` marks such a run "general form only".
  const ix = await indexSessions([
    {
      id: "e1e10021-0000-4000-8000-000000000021",
      cwd: "/w/app",
      start: "2026-08-01T10:00:00Z",
      turns: [
        { user: "run it" },
        {
          bash: "node app.js",
          out: "Error: ENOENT: no such file or directory, open 'config.yml'",
          exit: 1,
        },
        { bash: "cp config.example.yml config.yml", out: "", exit: 0 },
        { bash: "node app.js", out: "ready", exit: 0 },
      ],
    },
    {
      id: "e1e10022-0000-4000-8000-000000000022",
      cwd: "/w/other",
      start: "2026-08-02T10:00:00Z",
      turns: [
        { user: "start the tool" },
        {
          bash: "node tool.js",
          out: "Error: ENOENT: no such file or directory, open 'settings.json'",
          exit: 1,
        },
        { bash: "mv legacy.json settings.json", out: "", exit: 0 },
        { bash: "node tool.js", out: "done", exit: 0 },
      ],
    },
  ]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(
      ix.store,
      "Error: ENOENT: no such file or directory, open 'config.yml'",
      current,
      new Set(),
      2000,
    );
    assert(note?.text.includes("cp config.example.yml config.yml"), note?.text);
    assert(!note?.text.includes("mv legacy.json"), note?.text);
  } finally {
    ix.cleanup();
  }
});

// Trial 48: "succeeded 1/1, not checked" read as a fix that worked; `deja fix` says why not.
Deno.test("the fix note says why a fix is not checked, as deja fix does", async () => {
  const ix = await indexSessions([{
    id: "e1e10048-0000-4000-8000-000000000048",
    cwd: "/w/k",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { user: "check the cluster" },
      { bash: "yq e .a x.yaml", out: '"yq": executable file not found in $PATH', exit: 127 },
      { bash: "brew install yq", out: "installed yq 4.44", exit: 0 },
      { bash: "just status", out: "all pods running", exit: 0 },
    ],
  }]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(
      ix.store,
      '"yq": executable file not found in $PATH',
      current,
      new Set(),
      2000,
    );
    assertStringIncludes(
      note?.text ?? "",
      "not checked: what failed never ran again after it",
    );
    assertStringIncludes(note?.text ?? "", "brew install yq");
  } finally {
    ix.cleanup();
  }
});

Deno.test("the fix note names the project a fix comes from when it is not the agent's", async () => {
  // Trial 62: a Windows `pwsh` run was offered in a k3s project with no word of where it ran.
  const ix = await indexSessions([{
    id: "e1e10021-0000-4000-8000-000000000021",
    cwd: "/w/svc",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "node server.js", out: "Error: Cannot find module 'express'", exit: 1 },
      { bash: "npm install express", out: "added 60 packages", exit: 0 },
      { bash: "node server.js", out: "listening", exit: 0 },
    ],
  }, {
    id: "e1e10022-0000-4000-8000-000000000022",
    cwd: "/w/other",
    start: "2026-08-03T10:00:00Z",
    turns: [{ user: "hello" }],
  }]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const err = "Error: Cannot find module 'express'";
    const at = (dir?: string) => fixNote(ix.store, err, current, new Set(), 2000, dir)?.text ?? "";
    assertStringIncludes(at("/w/other"), "; in another project, /w/svc)");
    assertStringIncludes(at("/w/other/sub"), "; in another project, /w/svc)");
    // Its own project, a folder inside it, or no folder known: nothing said.
    for (const dir of ["/w/svc", "/w/svc/src", "/w/svc/", undefined]) {
      const text = at(dir);
      assert(text.includes("npm install express"), text);
      assert(!text.includes("another project"), `${dir}: ${text}`);
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 66: a newer session that hit the error at `WinSetup.psm1:148` and stopped held every
// name of the error, the session that fixed it at line 120 only the file's: the hook said
// nothing, while `deja fix` gave the fix.
Deno.test("the fix note offers a fix from a session holding the error's file when those holding its line found none", async () => {
  const err = (line: number) =>
    `ParserError: C:\\x\\modules\\WinSetup.psm1:${line}\nVariable reference is not valid. ':' ` +
    "was not followed by a valid variable name character.";
  const ix = await indexSessions([
    {
      id: "e1e10021-0000-4000-8000-000000000021",
      cwd: "/w/win",
      start: "2026-08-01T10:00:00Z",
      turns: [
        { user: "the module does not import" },
        { bash: "pwsh -Command Import-Module ./WinSetup.psm1", out: err(120), exit: 1 },
        { edit: "/w/win/WinSetup.psm1", old: '"x $Name: $_"', new: '"x ${Name}: $_"' },
        { bash: "pwsh -Command Invoke-Pester", out: "Passed: 4 Failed: 0", exit: 0 },
      ],
    },
    {
      id: "e1e10022-0000-4000-8000-000000000022",
      cwd: "/w/win",
      start: "2026-09-01T10:00:00Z",
      turns: [
        { user: "importing the module fails again" },
        { bash: "pwsh -Command Import-Module ./WinSetup.psm1", out: err(148), exit: 1 },
      ],
    },
  ]);
  try {
    const current = { rows: new Set<number>(), hidden: new Set<number>() };
    const note = fixNote(ix.store, err(148), current, new Set(), 2000);
    assertStringIncludes(
      note?.text ?? "",
      // The edit leads; the test run after it is another command, no check of it (trial 106 F4).
      '- edit WinSetup.psm1 ("x $Name: $_" → "x ${Name}: $_") (1 session; then ran ' +
        "`pwsh -Command Invoke-Pester`, no re-run",
    );
  } finally {
    ix.cleanup();
  }
});
