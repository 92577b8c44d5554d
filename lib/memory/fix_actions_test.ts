// Regressions (2026-12, new-user trial of `deja fix` on real Crush stores): a failed `view` or
// `edit` answering `File not found: /apps/…` was no occurrence (only commands were), so
// `fix "File not found: /apps/media/radarr/image-repository.yaml"` answered with the command
// that followed `"yq": executable file not found in $PATH` in another session, quoting as the
// error's "general form" a line of a third session it did not name.
import { assertEquals } from "../../tests/_assert.ts";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { findFixes, fixRecord } from "./fix.ts";
import { aboutFailure, type Action, inputChange } from "./fix_actions.ts";
import { matchShare, specificNames } from "./signature.ts";
import { withMemIndex } from "../../tests/_search_fixture.ts";

const NOT_FOUND = (p: string) => `File not found: ${p}`;

/** A failed view of a path that does not exist, then a view of the right one. */
const VIEWED: SessionSpec = {
  id: "21210001-0000-4000-8000-000000000001",
  cwd: "/w/k",
  start: "2026-08-01T10:00:00Z",
  turns: [
    { user: "fix the radarr yaml" },
    {
      read: "/apps/media/radarr/image-repository.yaml",
      fail: true,
      out: NOT_FOUND("/apps/media/radarr/image-repository.yaml"),
    },
    { read: "/w/k/apps/media/radarr/image-repository.yaml" },
  ],
};

/** A failed edit of a wrong path, then the edit of the right one; later a missing `yq`. */
const EDITED: SessionSpec = {
  id: "22220002-0000-4000-8000-000000000002",
  cwd: "/w/k",
  start: "2026-08-02T10:00:00Z",
  turns: [
    {
      edit: "/apps/infra/kustomization.yaml",
      old: "resources:",
      new: "resources:\n  - redis/",
      fail: true,
      out: "file not found: /apps/infra/kustomization.yaml",
    },
    {
      edit: "/w/k/apps/infra/kustomization.yaml",
      old: "resources:",
      new: "resources:\n  - redis/",
    },
    {
      edit: "/w/k/apps/infra/redis/helm-release.yaml",
      old: "version: 19.x.x",
      new: "version: 19.6.4",
      fail: true,
      out: "file not found: /w/k/apps/infra/redis/helm-release.yaml",
    },
    { write: "/w/k/apps/infra/redis/helm-release.yaml", content: "version: 19.6.4\n" },
    {
      bash: "yq . apps/infra/redis/*.yaml",
      out: '"yq": executable file not found in $PATH',
      exit: 127,
    },
    {
      bash: "for f in apps/infra/redis/*.yaml; do head -n 5 $f; done",
      out: "version: 19.6.4",
      exit: 0,
    },
  ],
};

/** Another error's general form in a file it read (not an occurrence: the read went well). */
const QUOTED: SessionSpec = {
  id: "20200003-0000-4000-8000-000000000003",
  cwd: "/w/notes",
  start: "2026-07-30T10:00:00Z",
  turns: [
    { read: "/w/notes/log.md", out: "1\terror: File not found: C:\\Users\\u\\Fandom, Inc. - wiki" },
  ],
};

const SESSIONS = [QUOTED, VIEWED, EDITED];

Deno.test("findFixes follows a failed file action with what came next in that session", async () => {
  const ix = await indexSessions(SESSIONS);
  try {
    const r = findFixes(ix.store, NOT_FOUND("/apps/media/radarr/image-repository.yaml"));
    assertEquals([r.status, r.seen, r.specific], ["found", 2, true]);
    const f = r.fixes[0];
    assertEquals(
      [f.command, f.action, f.path, f.examples[0].session, f.examples[0].failed],
      [
        "read /w/k/apps/media/radarr/image-repository.yaml",
        "read",
        "/w/k/apps/media/radarr/image-repository.yaml",
        VIEWED.id,
        "read /apps/media/radarr/image-repository.yaml",
      ],
    );
    // What followed the missing yq is no fix of a missing file.
    assertEquals(r.fixes.some((x) => /yq|for f/.test(x.command)), false, r.fixes[1]?.command);
    assertEquals(r.message.includes("Fandom"), false, r.message);

    // The occurrence holding the pasted path is the one followed, not a later one of another file.
    const k = findFixes(ix.store, "file not found: /apps/infra/kustomization.yaml");
    assertEquals(
      [k.status, k.fixes[0].command, k.fixes[0].action, k.fixes[0].examples[0].session],
      ["found", "edit /w/k/apps/infra/kustomization.yaml", "edit", EDITED.id],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes quotes the general form from the session it names, and only names it lacks", async () => {
  const ix = await indexSessions(SESSIONS);
  try {
    const r = findFixes(ix.store, NOT_FOUND("/srv/other.yaml"));
    assertEquals([r.specific, r.seenIn.length > 0], [false, true]);
    assertEquals(r.message.includes("Fandom"), false, r.message);
    assertEquals(r.message.includes("general form 'file not found:"), true, r.message);
    assertEquals(r.message.includes("not 'other.yaml'"), true, r.message);
  } finally {
    ix.cleanup();
  }
  // A short error inside a longer, different one is a weak match.
  assertEquals(matchShare("yq executable file not found in path", "file not found") < 0.6, true);
  assertEquals(matchShare("file not found", "file not found"), 1);
});

const PUSH: SessionSpec = {
  id: "23230004-0000-4000-8000-000000000004",
  cwd: "/w/k",
  start: "2026-08-03T10:00:00Z",
  turns: [
    {
      bash: "git push",
      out: "error: failed to push some refs to 'github.com:example-user/k.git'",
      exit: 1,
    },
  ],
};

const POD_LOGS: SessionSpec = {
  id: "24240005-0000-4000-8000-000000000005",
  cwd: "/w/k",
  start: "2026-08-04T10:00:00Z",
  turns: [
    {
      bash: "kubectl logs -n forgejo forgejo-5f4d46f74-hwbtn --previous",
      out: 'Error from server (BadRequest): previous terminated container "forgejo" in pod ' +
        '"forgejo-5f4d46f74-hwbtn" not found',
      exit: 1,
    },
    // A change, not a look (`kubectl describe` only looks: trial 100 F3).
    {
      bash: "kubectl rollout restart deployment/forgejo -n forgejo",
      out: "deployment.apps/forgejo restarted",
      exit: 0,
    },
  ],
};

Deno.test("findFixes lists as missing only names the session lacks, and ignores pod names", async () => {
  const ix = await indexSessions([PUSH, POD_LOGS]);
  try {
    const push = findFixes(
      ix.store,
      "error: failed to push some refs to 'github.com:someone/other.git'",
    );
    assertEquals([push.seen, push.specific], [1, false]);
    assertEquals(push.message.includes("not 'other.git'"), true, push.message);
    assertEquals(push.message.includes("'github.com'"), false, push.message);
    for (const pod of ["forgejo-7c9d8b6f5d-x2k4p", "forgejo-abc123"]) {
      const text = 'Error from server (BadRequest): previous terminated container "forgejo" ' +
        `in pod "${pod}" not found`;
      assertEquals(specificNames(text), ["forgejo"]);
      const r = findFixes(ix.store, text);
      assertEquals([r.status, r.seen, r.specific], ["found", 1, true], pod);
      assertEquals(r.message.includes("general form"), false, r.message);
      assertEquals(r.fixes[0].command, "kubectl rollout restart deployment/forgejo -n forgejo");
    }
  } finally {
    ix.cleanup();
  }
});

/** A Read refused as too large, then the same file read with a limit (trial 27). */
const TOO_LARGE =
  "File content (292.4KB) exceeds maximum allowed size (256KB). Please use offset and limit " +
  "parameters to read specific portions of the file, or use the GrepTool to search for specific content.";

Deno.test("a file read again with other input is not called the same command run again: what differed is said", async () => {
  const path = "/w/notes/sort-audit.md";
  const limited: SessionSpec = {
    id: "21210001-0000-4000-8000-000000000009",
    cwd: "/w/notes",
    start: "2026-08-03T10:00:00Z",
    turns: [
      { user: "read the audit" },
      { read: path, fail: true, out: TOO_LARGE },
      { read: path, with: { limit: 20 } },
    ],
  };
  const same: SessionSpec = {
    id: "21210001-0000-4000-8000-00000000000a",
    cwd: "/w/notes",
    start: "2026-08-04T10:00:00Z",
    turns: [
      { user: "read the audit" },
      { read: path, fail: true, out: TOO_LARGE },
      { read: path },
    ],
  };
  for (
    const [spec, retry, changed] of [[limited, false, "limit: 20"], [
      same,
      true,
      undefined,
    ]] as const
  ) {
    const ix = await indexSessions([spec]);
    try {
      const r = findFixes(ix.store, TOO_LARGE, { mentions: true });
      assertEquals(r.fixes.map((f) => [f.command, f.retry, f.changed]), [
        [`read ${path}`, retry, changed],
      ]);
    } finally {
      ix.cleanup();
    }
  }
});

Deno.test("inputChange lists the fields that differ or are new, and those left out; the path is none", () => {
  const act = (input: string | null) => ({
    kind: "read" as const,
    text: "read /a",
    path: "/a",
    seq: 1,
    callId: "c",
    outcome: "ok" as const,
    failed: false,
    noResult: false,
    time: null,
    input,
  });
  assertEquals(
    inputChange(act('{"file_path":"/a","offset":5}'), act('{"file_path":"/a","limit":20}')),
    "limit: 20, without offset",
  );
  assertEquals(inputChange(act('{"file_path":"/a"}'), act('{"file_path":"/a"}')), "");
  assertEquals(inputChange(act(null), act('{"file_path":"/a"}')), null);
});

// Trial 52 (realdata Crush fd7da67c): `Invoke-Pester` failed on `'-BeTrue' is not a valid Should
// operator`; one edit of the tests fixed it, and the re-run after it failed on other errors three
// times before a run passed 12 minutes and six edits later. `fix` offered that last run,
// "succeeded 1/1", with all seven edits.
Deno.test("a re-run after an edit that fails on another error is where this error's fix is said", async () => {
  const run = "pwsh -Command Invoke-Pester -Path tests/Setup.Tests.ps1";
  const s: SessionSpec = {
    id: "23230003-0000-4000-8000-000000000003",
    cwd: "/w/win",
    start: "2026-01-13T20:50:00Z",
    turns: [
      { user: "run the tests and fix what fails" },
      { bash: run, out: "Error: '-BeTrue' is not a valid Should operator.", exit: 4 },
      { edit: "/w/win/tests/Setup.Tests.ps1", old: "Should -BeTrue", new: "Should Be $true" },
      { bash: run, out: "Error: CommandNotFoundException: Invoke-ScriptAnalyzer", exit: 3 },
      { edit: "/w/win/modules/Setup.psm1", old: "Invoke-ScriptAnalyzer", new: "# analyzer" },
      { bash: run, out: "Error: ParserError: missing closing brace", exit: 3 },
      { edit: "/w/win/modules/Setup.psm1", old: "{", new: "{}" },
      { bash: run, out: "Tests Passed: 4, Failed: 0", exit: 0 },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, "'-BeTrue' is not a valid Should operator.");
    assertEquals(r.status, "found");
    const f = r.fixes[0];
    assertEquals([f.retry, f.gone, f.succeeded, f.checked], [true, 1, 0, true]);
    assertEquals(f.examples[0].edited, ["/w/win/tests/Setup.Tests.ps1"]);
    assertEquals(fixRecord(f), "1/1 free of this error, failed on another");
    // The error that the last edit fixed is followed to the run that passed.
    const p = findFixes(ix.store, "ParserError: missing closing brace");
    // (Claude Code records no status for a run that went well: exit unknown.)
    assertEquals([p.fixes[0].gone, p.fixes[0].succeeded + p.fixes[0].unknown], [0, 1]);
    assertEquals(p.fixes[0].examples[0].edited, ["/w/win/modules/Setup.psm1"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 52 (realdata Claude 744827a2): a read of a file that did not exist, then a read of
// another file, was offered "succeeded 1/1" as if the read had been done again right.
Deno.test("a failed file action is checked by one on a file of its name, not on another file", async () => {
  const s: SessionSpec = {
    id: "24240004-0000-4000-8000-000000000004",
    cwd: "/w/v",
    start: "2026-03-31T01:40:00Z",
    turns: [
      { user: "find the secret notes" },
      { read: "/w/v/response_49b8/1", fail: true, out: "File does not exist." },
      { read: "/w/v/.smart-env/multi/1Password_md.ajson" },
    ],
  };
  const ix = await indexSessions([s, VIEWED]);
  try {
    // Trial 93: nor is it a fix unchecked; it is other work.
    const other = findFixes(ix.store, "File does not exist.");
    assertEquals([other.status, other.seen, other.fixes.length], ["no_fix", 1, 0]);
    const right = findFixes(ix.store, NOT_FOUND("/apps/media/radarr/image-repository.yaml"));
    assertEquals(right.fixes[0].checked, true);
  } finally {
    ix.cleanup();
  }
});

// Trial 93 F1: where the failed action never ran again, what ran next was offered as its fix
// however unrelated (`just status` after a missing `yq`).
Deno.test("aboutFailure tells what ran next about the error from the next step of other work", () => {
  const cmd = (text: string): Action => ({
    kind: "command",
    text,
    path: null,
    seq: 1,
    callId: null,
    outcome: "failed",
    failed: true,
    noResult: false,
    time: null,
  });
  const read = (path: string): Action => ({ ...cmd(`read ${path}`), kind: "read", path });
  const yq = cmd("cd /Users/me/k && yq . /Users/me/k/apps/redis/*.yaml > /dev/null");
  assertEquals(aboutFailure(cmd("cd /Users/me/k && just status"), yq, ["yq"]), false);
  assertEquals(aboutFailure(cmd("brew install yq"), yq, ["yq"]), true);
  assertEquals(aboutFailure(cmd("kubectl apply -f apps/redis/"), yq, ["yq"]), true);
  const gc = cmd("Get-Content README\\ 1.md");
  assertEquals(aboutFailure(cmd("Get-Content '.crewai\\TRAINING.md'"), gc, ["1.md"]), false);
  assertEquals(aboutFailure(cmd("Get-Content 'README 1.md'"), gc, ["1.md"]), true);
  const missing = read("/w/v/response_49b8/1");
  assertEquals(aboutFailure(read("/w/v/.smart-env/multi/1Password_md.ajson"), missing, []), false);
  // The project's folder the error's message names is in every path of it (trial 98 F3).
  assertEquals(
    aboutFailure(read("/w/IDAHO-VAULT/.smart-env/1Password_md.ajson"), missing, ["IDAHO-VAULT"]),
    false,
  );
  // The failed program told to do something else, or run otherwise; an error's own name.
  assertEquals(aboutFailure(cmd("npm dedupe"), cmd("npm run build"), []), true);
  assertEquals(aboutFailure(cmd("quokkatest --clean"), cmd("quokkatest"), []), true);
  assertEquals(aboutFailure(cmd("fixup-quuxfeed --all"), cmd("make"), ["quuxfeed"]), true);
  assertEquals(aboutFailure(cmd("git stash"), cmd("npm run build"), ["cart.ts"]), false);
});

// Trial 93 F6: the harness's own errors, worded with no error word ("Prompt is too long"),
// were "no line of that text reports an error" though the search found them as its notices.
Deno.test("findFixes names the sessions where the harness reported a text as its error", () =>
  withMemIndex([
    {
      id: "s-long",
      events: [["user", "summarise the repo"], ["notice", "API error: Prompt is too long"]],
    },
    {
      id: "s-said",
      events: [["user", "why?"], ["assistant", "a prompt is too long when it holds the logs"]],
    },
  ], (store) => {
    const r = findFixes(store, "Prompt is too long", { mentions: true });
    assertEquals([r.status, r.mentioned?.map((m) => m.session)], ["unseen", ["s-long"]]);
    assertEquals(
      r.message,
      "no command deja saw failed with that error; 1 session holds it (reported by the harness)",
    );
    // A reply saying the words is no report of the error (s-said); nor is a hook's call asked.
    assertEquals(findFixes(store, "Prompt is too long").status, "not_error");
  }));

// Trial 98 F2: every `pwsh -Command "…"` was an attempt of every other, so a test run after a
// script that failed to parse was "checked" as its re-run, and offered as its fix.
Deno.test("a program run with a script after its flags is the same attempt only with the same script", async () => {
  const err = "ParserError: Missing closing ')' in expression.";
  const ix = await indexSessions([{
    id: "98980002-0000-4000-8000-000000000002",
    cwd: "/w/win",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: `pwsh -NoProfile -Command "$p='C:/x'; Import-Module $p"`, out: err, exit: 1 },
      { bash: `pwsh -NoProfile -Command "Invoke-Pester -Path tests"`, out: "Passed: 4", exit: 0 },
    ],
  }, {
    id: "98980003-0000-4000-8000-000000000003",
    cwd: "/w/win",
    start: "2026-08-02T10:00:00Z",
    turns: [
      { bash: `pwsh -NoProfile -Command "$p='C:/x'; Import-Module $p"`, out: err, exit: 1 },
      { bash: `pwsh -NoProfile -Command "$p='C:/y'; Import-Module $p"`, out: "loaded", exit: 0 },
    ],
  }]);
  try {
    const r = findFixes(ix.store, err);
    assertEquals(r.fixes.map((f) => [f.command, f.checked, f.sessions]), [
      [`pwsh -NoProfile -Command "$p='C:/y'; Import-Module $p"`, true, 1],
    ]);
  } finally {
    ix.cleanup();
  }
});

// Trial 98 F4: Go's `exec: "kubectl": executable file not found in $PATH` found only a paste of
// another name's error, not the commands that failed with `"kustomize": executable file …`.
Deno.test("an error's program prefix is left out with its names when only its general form is held", async () => {
  const ix = await indexSessions([{
    id: "98980004-0000-4000-8000-000000000004",
    cwd: "/w/k",
    start: "2026-08-01T10:00:00Z",
    turns: [
      {
        bash: "kustomize build .",
        out: '"kustomize": executable file not found in $PATH',
        exit: 127,
      },
    ],
  }]);
  try {
    const r = findFixes(ix.store, 'exec: "kubectl": executable file not found in $PATH');
    assertEquals([r.status, r.seen], ["no_fix", 1]);
  } finally {
    ix.cleanup();
  }
});

// Trial 100 F3: `get`, three letters no dictionary of four or more holds, was read as a name of
// `Get-Content : A positional parameter …`, so a read of another file was "about" it.
Deno.test("a short word of the error is no name a next step can be about", async () => {
  const err = "Get-Content : A positional parameter cannot be found that accepts argument '1.md'.";
  const ix = await indexSessions([{
    id: "10010003-0000-4000-8000-000000000003",
    cwd: "/w/crew",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "Get-Content README\\ 1.md", out: err, exit: 1 },
      { bash: "$i=1; Get-Content '.crewai/TRAINING.md' | nl", out: "1 train", exit: 0 },
    ],
  }]);
  try {
    assertEquals(findFixes(ix.store, err).fixes.length, 0);
  } finally {
    ix.cleanup();
  }
});

Deno.test("runForm reads a launcher's program as the program itself (trial 106 F3)", async () => {
  const { runForm, sameRun } = await import("./fix_actions.ts");
  assertEquals(runForm("python3 -m pytest  tests/test_x.py"), "pytest tests/test_x.py");
  for (
    const c of [
      "python -m pytest tests/test_x.py",
      "uv run pytest tests/test_x.py",
      "poetry run pytest tests/test_x.py",
      "cd /w/calc && pytest tests/test_x.py",
    ]
  ) assertEquals(sameRun(c, "pytest tests/test_x.py"), true, c);
  assertEquals(sameRun("npx tsc --noEmit", "./node_modules/.bin/tsc --noEmit"), true);
  // Another target or another program is no re-run.
  assertEquals(sameRun("python -m pytest tests/test_y.py", "pytest tests/test_x.py"), false);
  assertEquals(sameRun("uv run ruff check", "uv run pytest"), false);
  assertEquals(sameRun("python -m venv .venv", "python app.py"), false);
});
