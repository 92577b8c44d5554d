import { assert, assertEquals } from "../../tests/_assert.ts";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { findFixes, fixRecord } from "./fix.ts";
import { adapt } from "./fix_adapt.ts";
import { looksOnly, okButSaidError } from "./fix_actions.ts";
import {
  ERROR_LINE_MAX,
  errorSignatures,
  linesWithin,
  otherKind,
  quotedNames,
  reworded,
  sameError,
  signature,
  specificNames,
} from "./signature.ts";

const LODASH = "Error: Cannot find module 'lodash'\nRequire stack:\n- /w/app/index.js";

const fixed = (id: string, day: string, cwd: string): SessionSpec => ({
  id,
  cwd,
  start: `2026-08-${day}T10:00:00Z`,
  turns: [
    { user: "build it" },
    { bash: "npm run build", out: LODASH.replace("/w/app", cwd), exit: 1 },
    { bash: "npm   install lodash", out: "added 1 package", exit: 0 },
    { bash: "npm run build", out: "built in 0.4s", exit: 0 },
  ],
});
const CAME_BACK: SessionSpec = {
  id: "13130003-0000-4000-8000-000000000003",
  cwd: "/w/three",
  start: "2026-08-05T10:00:00Z",
  turns: [
    { bash: "npm run build", out: LODASH, exit: 1 },
    { bash: "npm ci", out: "ok", exit: 0 },
    { bash: "npm run build", out: LODASH, exit: 1 },
    { bash: "npm dedupe", out: "ok", exit: 0 },
  ],
};
const OTHER: SessionSpec = {
  id: "14140004-0000-4000-8000-000000000004",
  cwd: "/w/four",
  start: "2026-08-06T10:00:00Z",
  turns: [
    { bash: "npm run build", out: "Error: Cannot find module 'react'", exit: 1 },
    { bash: "npm install react", out: "ok", exit: 0 },
    { bash: "tsc", out: "TypeError: x.map is not a function at line 12", exit: 2 },
    { edit: "/w/four/src/x.ts", old: "x.map", new: "[...x].map" },
    { bash: "tsc", out: "TypeError: x.map is not a function at line 14", exit: 2 },
  ],
};
const SESSIONS = [
  fixed("11110001-0000-4000-8000-000000000001", "01", "/w/one"),
  fixed("12120002-0000-4000-8000-000000000002", "03", "/home/u/two"),
  CAME_BACK,
  OTHER,
];

Deno.test("signature strips paths, file names, numbers, hex and quote marks", () => {
  assertEquals(
    signature(`Error: ENOENT: no such file or directory, open '/w/app/src/x.ts' (0x1f, 3f9a2b7c)`),
    "error enoent no such file or directory open",
  );
  assertEquals(
    signature(`"kustomize": executable file not found in $PATH`),
    "kustomize executable file not found in path",
  );
  assertEquals(
    signature("cat: missing.txt: No such file or directory"),
    "cat no such file or directory",
  );
  assertEquals(errorSignatures("Exit code 1\nall good\nError: Cannot find module 'lodash'"), [
    "error cannot find module lodash",
  ]);
  assertEquals(sameError("cannot find module lodash", "error cannot find module lodash"), true);
  assertEquals(sameError("cannot find", "error cannot find module lodash"), false);
  // A pasted "Error:" prefix the tool's own output lacks still matches.
  assertEquals(
    sameError("the frobnicator exploded at start", "error frobnicator exploded at"),
    true,
  );
  assertEquals(sameError("frobnicator exploded", "error frobnicator exploded"), false);
});

Deno.test("findFixes ranks what ran next by sessions where the error did not come back", async () => {
  const ix = await indexSessions(SESSIONS);
  try {
    const r = findFixes(ix.store, LODASH);
    assertEquals(r.status, "found");
    assertEquals(r.seen, 3);
    // Where it came back (npm ci), only what ran after its last occurrence counts.
    assertEquals(r.fixes.map((x) => x.command), ["npm install lodash", "npm dedupe"]);
    assertEquals(findFixes(ix.store, LODASH, { limit: 1 }).fixes.length, 1);
    const f = r.fixes[0];
    // Claude Code records no status for a run that went well: not counted as succeeded (nor as
    // failed), but apart, as runs of unknown outcome.
    assertEquals([f.command, f.sessions, f.succeeded, f.unknown, f.retry], [
      "npm install lodash",
      2,
      0,
      2,
      false,
    ]);
    assertEquals(fixRecord(f), "2/2 no error seen (exit unknown)");
    assertEquals(
      fixRecord({ sessions: 3, succeeded: 2, unknown: 1 }),
      "succeeded 2/3, 1/3 no error seen (exit unknown)",
    );
    assertEquals(fixRecord({ sessions: 2, succeeded: 2, unknown: 0 }), "succeeded 2/2");
    assertEquals(f.examples[0].session, "12120002-0000-4000-8000-000000000002");
    assertEquals(f.examples[0].then, ["npm   install lodash", "npm run build"]);
    assertEquals(f.examples[0].failed, "npm run build");
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes answers plainly when the error was never seen, came back, or is no error", async () => {
  const ix = await indexSessions(SESSIONS);
  try {
    const unseen = findFixes(ix.store, "Error: ENOSPC: no space left on device, write");
    assertEquals([unseen.status, unseen.seen, unseen.fixes.length], ["unseen", 0, 0]);
    assertEquals(unseen.message.startsWith("that error was never seen"), true);
    const back = findFixes(ix.store, "TypeError: x.map is not a function");
    assertEquals([back.status, back.seen], ["no_fix", 1]);
    assertEquals(back.message.includes("nothing that followed fixed it"), true);
    assertEquals(findFixes(ix.store, "all went well today").status, "not_error");
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes records a retry and the files edited before it", async () => {
  const retry: SessionSpec = {
    id: "15150005-0000-4000-8000-000000000005",
    cwd: "/w/five",
    start: "2026-08-07T10:00:00Z",
    turns: [
      { bash: "go vet ./...", out: "undefined: parseConfig", exit: 1 },
      { edit: "/w/five/config.go", old: "func parseCfg", new: "func parseConfig" },
      { bash: "go vet ./...", out: "", exit: 0 },
    ],
  };
  const ix = await indexSessions([retry]);
  try {
    const r = findFixes(ix.store, "./main.go:12:3: undefined: parseConfig");
    assertEquals(r.status, "found");
    assertEquals(r.fixes[0].retry, true);
    assertEquals(r.fixes[0].examples[0].edited, ["/w/five/config.go"]);
  } finally {
    ix.cleanup();
  }
});

// Claude Code (like Crush) records no exit status for a run that went well, and
// none for a tool that prints an error yet exits 0: the output has to say.
Deno.test("findFixes sees an error in a command whose store records no exit status", async () => {
  const s: SessionSpec = {
    id: "16160006-0000-4000-8000-000000000006",
    cwd: "/w/six",
    start: "2026-08-08T10:00:00Z",
    turns: [
      { bash: "make", out: "src/a.c:3:5: error: unknown type name 'frob_t'" },
      { edit: "/w/six/src/a.c", old: "frob_t x;", new: "int x;" },
      { bash: "make", out: "cc -o app src/a.c" },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, "a.c:3:5: error: unknown type name 'frob_t'");
    assertEquals([r.status, r.seen], ["found", 1]);
    // The edit is the fix, the re-run its check (trial 105 F4).
    assertEquals([r.fixes[0].command, r.fixes[0].rerun, r.fixes[0].retry], [
      "edit /w/six/src/a.c",
      "make",
      true,
    ]);
    assertEquals(r.fixes[0].examples[0].edited, ["/w/six/src/a.c"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes takes a passing re-run after an edit when what ran right after failed too", async () => {
  const s: SessionSpec = {
    id: "17170007-0000-4000-8000-000000000007",
    cwd: "/w/seven",
    start: "2026-08-09T10:00:00Z",
    turns: [
      {
        bash: "pytest",
        out: "E   ImportError: cannot import name 'parse_row' from 'app'",
        exit: 1,
      },
      { bash: "python -c 'import app'", out: "SyntaxError: invalid syntax", exit: 1 },
      { edit: "/w/seven/app.py", old: "def parse_rw(", new: "def parse_row(" },
      { bash: "pytest", out: "3 passed in 0.02s" },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, "ImportError: cannot import name 'parse_row' from 'app'");
    assertEquals(r.status, "found");
    const f = r.fixes[0];
    assertEquals([f.command, f.rerun, f.retry, f.succeeded, f.unknown], [
      "edit /w/seven/app.py",
      "pytest",
      true,
      0,
      1,
    ]);
    assertEquals(f.examples[0].edited, ["/w/seven/app.py"]);
    assertEquals(f.examples[0].then, ["pytest"]);
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, trial 9, Crush): the session ended on a `git stash` call with no
// result at all, and fix called it "succeeded 1/1".
Deno.test("findFixes counts no success for a command that has no result at all", async () => {
  const s: SessionSpec = {
    id: "18180008-0000-4000-8000-000000000008",
    cwd: "/w/eight",
    start: "2026-08-10T10:00:00Z",
    turns: [
      {
        bash: "git pull --rebase origin main",
        out: "error: cannot pull with rebase: You have unstaged changes.",
        exit: 128,
      },
      { say: "Let me stash the changes first." },
      { bash: "git stash", out: null },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, "error: cannot pull with rebase: You have unstaged changes.");
    assertEquals([r.status, r.seen, r.fixes.length], ["no_fix", 1, 0]);
  } finally {
    ix.cleanup();
  }
});

// Regression (2026-12, trial 9, Kimi): a Python exception line was "no line of that text
// reports an error", so `fix` never looked for it.
Deno.test("findFixes reads exception lines of Python and other languages as errors", async () => {
  const trace = [
    "Traceback (most recent call last):",
    '  File "/w/nine/app/db.py", line 3, in <module>',
    "    import motor",
    "ModuleNotFoundError: No module named 'motor'",
  ].join("\n");
  const s: SessionSpec = {
    id: "19190009-0000-4000-8000-000000000009",
    cwd: "/w/nine",
    start: "2026-08-11T10:00:00Z",
    turns: [
      { bash: "python3 -c 'import app.db'", out: trace, exit: 1 },
      { bash: "pip install motor", out: "Successfully installed motor-3.3.2", exit: 0 },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    for (const text of ["ModuleNotFoundError: No module named 'motor'", trace]) {
      const r = findFixes(ix.store, text);
      assertEquals([r.status, r.fixes[0]?.command], ["found", "pip install motor"], text);
    }
  } finally {
    ix.cleanup();
  }
  assertEquals(errorSignatures("thread 'main' panicked at src/main.rs:2:5:"), [
    "thread main panicked at",
  ]);
  assertEquals(errorSignatures("java.lang.NullPointerException: Cannot invoke size()"), [
    "nullpointerexception cannot invoke size",
  ]);
  assertEquals(errorSignatures("** (ArgumentError) argument error"), [
    "argumenterror argument error",
  ]);
  assertEquals(errorSignatures("KeyError: 'user_id'"), ["keyerror user id"]);
  assertEquals(errorSignatures("MyErrorHandler started"), []);
  // An exception's name alone is looked for, however typed (trials 53, 54); `error` alone or
  // a word that only holds it is not.
  assertEquals(errorSignatures("MalformedYAMLError"), ["malformedyamlerror"]);
  assertEquals(errorSignatures("  ModuleNotFoundError "), ["modulenotfounderror"]);
  assertEquals(errorSignatures("MalformedYAMLError:"), ["malformedyamlerror"]);
  assertEquals(errorSignatures("malformedyamlerror"), ["malformedyamlerror"]);
  assertEquals(errorSignatures("KeyError"), ["keyerror"]);
  assertEquals(errorSignatures("java.io.IOException"), ["ioexception"]);
  assertEquals(errorSignatures("error"), []);
  assertEquals(errorSignatures("ErrorBoundary"), []);
});

Deno.test("an error holding a short line of another error is not that error (helm: file not found)", () => {
  const pasted = signature('"helm": executable file not found in $PATH');
  const failedEdit = signature(
    "file not found: /Users/user/Code/k/apps/infra/redis/helm-release.yaml",
  );
  assert(!sameError(failedEdit, pasted), `${failedEdit} | ${pasted}`);
  // A line that is most of the pasted error still is it.
  const enoent = signature("Error: ENOENT: no such file or directory");
  assert(sameError(signature("no such file or directory"), enoent));
});

Deno.test("findFixes reads npm's ERR! as error, and falls back on an error code when the wording changed", async () => {
  // npm 10 and later, as a store recorded it.
  const NEW =
    "npm error code ERESOLVE\nnpm error ERESOLVE could not resolve\nnpm error While resolving: app";
  const ix = await indexSessions([{
    id: "15150005-0000-4000-8000-000000000005",
    cwd: "/w/five",
    start: "2026-08-07T10:00:00Z",
    turns: [
      { bash: "npm install next-auth", out: NEW, exit: 1 },
      { bash: "npm install next-auth --legacy-peer-deps", out: "added 3 packages", exit: 0 },
    ],
  }]);
  try {
    assertEquals(signature("npm ERR! code ERESOLVE"), signature("npm error code ERESOLVE"));
    // Before npm 10 (trial 18b: "never seen"), its first line and its second.
    for (
      const typed of [
        "npm ERR! code ERESOLVE",
        "npm ERR! ERESOLVE unable to resolve dependency tree",
      ]
    ) {
      const r = findFixes(ix.store, typed);
      assertEquals(r.status, "found", typed);
      assertEquals(r.fixes[0].command, "npm install next-auth --legacy-peer-deps");
    }
    const byCode = findFixes(ix.store, "ERESOLVE unable to resolve dependency tree");
    assert(byCode.message.includes("(by its code ERESOLVE: the wording differs)"), byCode.message);
    assert(byCode.lookedFor.endsWith("; then its code: code eresolve"), byCode.lookedFor);
    // The code alone is looked for as its code.
    assertEquals(findFixes(ix.store, "ERESOLVE").status, "found");
    // A code no output holds is still unseen.
    assertEquals(findFixes(ix.store, "npm ERR! code EINTEGRITY").status, "unseen");
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes passes over commands that only look around after the error", async () => {
  const ERR = "ModuleNotFoundError: No module named 'motor'";
  const ix = await indexSessions([{
    id: "16160006-0000-4000-8000-000000000006",
    cwd: "/w/six",
    start: "2026-08-08T10:00:00Z",
    turns: [
      { bash: "python app.py", out: ERR, exit: 1 },
      { bash: "ls -la /w/six/backend", out: "app.py", exit: 0 },
      { bash: "cd /w/six && cat requirements.txt | grep mo", out: "", exit: 1 },
      { bash: "pip install motor", out: "Successfully installed motor", exit: 0 },
    ],
  }]);
  try {
    // Trial 18b: `ls -la …` was offered as the fix.
    const r = findFixes(ix.store, ERR);
    assertEquals(r.fixes.map((f) => f.command), ["pip install motor"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("looksOnly tells a look-around from a change", () => {
  for (
    const c of [
      "ls -la",
      "cat a.txt | head -5",
      "cd /w && git status",
      "grep -rn x . 2>&1",
      "Get-ChildItem C:\\x",
      // Trial 9: offered as the fix for a missing yq.
      'cd /k && for file in apps/*.yaml; do echo "=== $file ==="; head -n 5 $file; echo; done',
      // Trial 100 F3: offered as fixes of a failed `kubectl apply` and a `cat` refused.
      "kubectl get pods -A",
      "sed -n 1,40p notes/other.txt | nl",
      "docker ps -a",
    ]
  ) {
    assert(looksOnly(c), c);
  }
  for (
    const c of [
      "npm install",
      "cat a > b",
      "sed -i s/a/b/ f",
      "sed -ni.bak 1p f",
      "sed --in-place s/a/b/ f",
      "kubectl apply -f deploy.yaml",
      "kubectl delete pod web-1",
      "docker compose up -d",
      "npm ls && npm install",
      "git checkout main",
      "find . -delete",
      "ls && make",
      "for f in *.yaml; do kubectl apply -f $f; done",
    ]
  ) {
    assert(!looksOnly(c), c);
  }
});

Deno.test("findFixes finds a git message wrapped over hint: lines, pasted as one sentence", async () => {
  const OUT = "To github.com:me/k.git\n ! [rejected]        main -> main (fetch first)\n" +
    "error: failed to push some refs to 'github.com:me/k.git'\n" +
    "hint: Updates were rejected because the remote contains work that you do not\n" +
    "hint: have locally. This is usually caused by another repository pushing to\n";
  const ix = await indexSessions([{
    id: "17170007-0000-4000-8000-000000000007",
    cwd: "/w/seven",
    start: "2026-08-09T10:00:00Z",
    turns: [
      { bash: "git push", out: OUT, exit: 1 },
      { bash: "git pull --rebase && git push", out: "Successfully rebased", exit: 0 },
    ],
  }]);
  try {
    // Trial 9: "that error was never seen".
    const r = findFixes(
      ix.store,
      "Updates were rejected because the remote contains work that you do not have locally",
    );
    assertEquals(r.status, "found", r.message);
    assertEquals(r.fixes[0].command, "git pull --rebase && git push");
  } finally {
    ix.cleanup();
  }
});

Deno.test("fix asked of a text whose lines name no error looks for its lines when an output holds them", async () => {
  const ix = await indexSessions([{
    id: "18180008-0000-4000-8000-000000000008",
    cwd: "/w/eight",
    start: "2026-08-10T10:00:00Z",
    turns: [
      { bash: "touch /srv/x", out: "touch: cannot touch '/srv/x': Read-only file system", exit: 1 },
      { bash: "sudo mount -o remount,rw /srv", out: "", exit: 0 },
    ],
  }]);
  try {
    // Trial 9: "no line of that text reports an error".
    const r = findFixes(ix.store, "Read-only file system", { mentions: true });
    assertEquals(r.status, "found", r.message);
    assertEquals(r.fixes[0].command, "sudo mount -o remount,rw /srv");
    // Not asked (a hook), or held by no output: still no error named.
    assertEquals(findFixes(ix.store, "Read-only file system").status, "not_error");
    assertEquals(
      findFixes(ix.store, "all went well today", { mentions: true }).status,
      "not_error",
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("an error reported by a shell matches whichever shell printed it", () => {
  // Trial 10: `bash: gh: command not found` was "never seen" beside `/bin/bash: line 1: gh: …`.
  const want = signature("gh: command not found");
  for (
    const l of [
      "bash: gh: command not found",
      "/bin/bash: line 1: gh: command not found",
      "zsh: gh: command not found",
    ]
  ) {
    assertEquals(signature(l), want, l);
  }
});

Deno.test("findFixes passes over what ran next when its output says the error again in other words", async () => {
  const err = "Unauthorized. Please check that your RAILWAY_TOKEN is valid";
  const run = (id: string, then: string): SessionSpec => ({
    id,
    cwd: "/w/app",
    start: "2026-10-01T10:00:00Z",
    turns: [
      { user: "deploy it" },
      { bash: "railway up", out: err, exit: 1 },
      // Trial 10: exit 0 of head, the error reworded in what it printed.
      { bash: "railway up --detach 2>&1 | head -30", out: then },
      { say: "Done." },
    ],
  });
  const ix = await indexSessions([
    run(
      "7a110001-0000-4000-8000-000000000001",
      "Invalid RAILWAY_TOKEN. Please check that it is valid and has access",
    ),
    run("7a110002-0000-4000-8000-000000000002", "Deploying... done: https://app.up.railway.app"),
  ]);
  try {
    const r = findFixes(ix.store, err);
    assertEquals(r.seen, 2);
    assertEquals(r.fixes.map((f) => [f.command, f.sessions]), [[
      "railway up --detach 2>&1 | head -30",
      1,
    ]]);
    assertEquals(r.fixes[0].examples.map((e) => e.session.slice(0, 8)), ["7a110002"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("reworded needs three of the error's own words, most of them", () => {
  const e = signature("Unauthorized. Please check that your RAILWAY_TOKEN is valid");
  assertEquals(
    reworded(signature("Invalid RAILWAY_TOKEN. Please check that it is valid"), e),
    true,
  );
  assertEquals(reworded(signature("RAILWAY_TOKEN is valid, deploying"), e), false);
  assertEquals(reworded(signature("error: not found"), signature("error: file not found")), false);
});

Deno.test("findFixes takes the corrected attempt when the first try after the error failed too", async () => {
  // Trial 12: the error, then `pip install saltbushh` (a typo, failed), then `pip install
  // saltbush==1.0` (worked): fix offered nothing, the failed attempt being "what ran next".
  const s: SessionSpec = {
    id: "17170017-0000-4000-8000-000000000017",
    cwd: "/w/salt",
    start: "2026-08-09T10:00:00Z",
    turns: [
      { bash: "python app.py", out: "ModuleNotFoundError: No module named 'saltbush'", exit: 1 },
      {
        bash: "pip install saltbushh",
        out: "ERROR: No matching distribution found for saltbushh",
        exit: 1,
      },
      { bash: "ls -la", out: "app.py", exit: 0 },
      { bash: "pip install saltbush==1.0", out: "Successfully installed saltbush-1.0", exit: 0 },
      { bash: "python app.py", out: "ok", exit: 0 },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, "ModuleNotFoundError: No module named 'saltbush'");
    assertEquals(r.status, "found");
    const f = r.fixes[0];
    assertEquals([f.command, f.retry, f.succeeded, f.unknown], [
      "pip install saltbush==1.0",
      false,
      0,
      1,
    ]);
    assertEquals(f.examples[0].then, ["pip install saltbush==1.0", "python app.py"]);
  } finally {
    ix.cleanup();
  }
  // A leading `cd <dir> &&` names no program: another command after it is no corrected attempt.
  const cd: SessionSpec = {
    id: "17170018-0000-4000-8000-000000000018",
    cwd: "/w/k",
    start: "2026-08-10T10:00:00Z",
    turns: [
      {
        bash: "cd /w/k && kustomize build apps",
        out: '"kustomize": executable file not found in $PATH',
        exit: 127,
      },
      { bash: "cd /w/k && yq . apps/x.yaml", out: '"yq": executable file not found', exit: 127 },
      { bash: "cd /w/k && just status", out: "all good", exit: 0 },
    ],
  };
  const ix2 = await indexSessions([cd]);
  try {
    const r = findFixes(ix2.store, '"kustomize": executable file not found in $PATH');
    assertEquals([r.status, r.fixes.length], ["no_fix", 0]);
  } finally {
    ix2.cleanup();
  }
});

Deno.test("an error pasted word for word is named before another name's failure of its form", async () => {
  // Trial 139 H1: `exec: "docker": executable file not found in %PATH%` pasted in a prompt was
  // passed over for an unrelated session where `"kustomize": executable file not found`
  // failed ("seen only with other names"); with a leading `Error: ` the pasted one was named.
  const ix = await indexSessions([
    {
      id: "13913901-0000-4000-8000-000000000001",
      cwd: "/w/k",
      start: "2026-08-10T10:00:00Z",
      turns: [
        {
          bash: "kustomize build apps",
          out: '"kustomize": executable file not found in $PATH',
          exit: 127,
        },
        { bash: "just status", out: "all good", exit: 0 },
      ],
    },
    {
      id: "13913902-0000-4000-8000-000000000002",
      cwd: "/w/win",
      start: "2026-08-11T10:00:00Z",
      turns: [{ user: 'Error: exec: "docker": executable file not found in %PATH%' }],
    },
  ]);
  try {
    for (
      const text of [
        'exec: "docker": executable file not found in %PATH%',
        'exec: "docker": executable file not found in $PATH',
        'exec: "docker": executable file not found in %PATH%\n',
        'Error: exec: "docker": executable file not found in %PATH%',
        "exec: docker: executable file not found in %PATH%",
      ]
    ) {
      const r = findFixes(ix.store, text, { mentions: true });
      assertEquals(
        [r.status, r.mentioned?.map((m) => m.session)],
        ["unseen", ["13913902-0000-4000-8000-000000000002"]],
        `${text}: ${r.message}`,
      );
      assert(r.message.includes("1 session holds it (pasted in a prompt)"), r.message);
    }
    // Unasked (a hook), no prompt is read: the other name's failure is the answer, as before.
    const hook = findFixes(ix.store, 'exec: "docker": executable file not found in %PATH%');
    assertEquals(hook.status, "no_fix");
    assert(hook.message.includes("only with other names"), hook.message);
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes falls back on the error without its names, and says it saw only that", async () => {
  // Trial 13: `Cannot find module 'express'`, fixed in a session, was "never seen" for a
  // pasted `Cannot find module 'left-pad'`, though the README promises the general form.
  const ix = await indexSessions([{
    id: "e1e10001-0000-4000-8000-000000000001",
    cwd: "/w/svc",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { user: "start the server" },
      {
        bash: "node server.js",
        out: "Error: Cannot find module 'express'\nRequire stack:\n- /w/svc/server.js",
        exit: 1,
      },
      { bash: "npm install express", out: "added 60 packages", exit: 0 },
      { bash: "node server.js", out: "listening", exit: 0 },
    ],
  }]);
  try {
    const r = findFixes(ix.store, "Error: Cannot find module 'left-pad'");
    assertEquals([r.status, r.specific, r.fixes[0]?.command], [
      "found",
      false,
      "npm install express",
    ]);
    assert(
      r.message.includes("but only with other names 'Error: Cannot find module express'"),
      r.message,
    );
    assert(r.message.includes("not 'left-pad'"), r.message);
    assert(r.lookedFor.includes("then without its names: error cannot find module"), r.lookedFor);
    // The command is offered for this error's name, with what ran for the other (trial 14).
    assertEquals(r.fixes[0].adapted, {
      command: "npm install left-pad",
      from: "express",
      to: "left-pad",
    });
    // The error as pasted, when some session holds it, is what is followed, as it ran.
    const same = findFixes(ix.store, "Error: Cannot find module 'express'");
    assertEquals([same.specific, same.fixes[0]?.adapted], [true, undefined]);
    // A missing file is another error in the same words (trial 14: the entry script's path
    // matched `'express'` and was offered `npm install express`); the stack trace naming
    // server.js does not make it one.
    for (const file of ["/w/svc/server.js", "./config"]) {
      const f = findFixes(ix.store, `Error: Cannot find module '${file}'`, { mentions: true });
      assertEquals([f.status, f.fixes.length, f.seen], ["unseen", 0, 0], f.message);
      assert(f.lookedFor.includes("lines quoting a bare name, not a path, left out"), f.lookedFor);
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("adapt puts the pasted error's name in a command that names the other as a word", () => {
  const q = (raw: string) => quotedNames(`Error: cannot find '${raw}'`);
  assertEquals(
    adapt("npm install express", q("express"), q("left-pad"))?.command,
    "npm install left-pad",
  );
  // The other name's pin and a `cd` into its project stay behind (trial 15).
  assertEquals(
    adapt("pip install -U requests>=2", q("requests"), q("httpx"))?.command,
    "pip install -U httpx",
  );
  assertEquals(
    adapt("cd /home/dev/chalk-cli && npm install chalk@4", q("chalk"), q("ora"))?.command,
    "npm install ora",
  );
  // A Python module is installed by its package's name, either way.
  assertEquals(
    adapt("pip install requests", q("requests"), q("yaml"))?.command,
    "pip install pyyaml",
  );
  assertEquals(
    adapt("pip install opencv-python", q("cv2"), q("sklearn"))?.command,
    "pip install scikit-learn",
  );
  // No command for a module nothing installs, a flag of the other's, or a submodule's guess
  // (trial 17: `npm install fs`, `pip install app.models`, `cargo add x --features derive`).
  for (
    const [cmd, from, to] of [
      ["npm install express", "express", "fs"],
      ["npm install express", "express", "node:fs"],
      ["pip install requests", "requests", "app.models"],
      ["pip install requests", "requests", "_ctypes"],
      ["pip install requests", "requests", "distutils"],
      ["cargo add serde --features derive", "serde", "regex"],
    ]
  ) assertEquals(adapt(cmd, q(from), q(to)), undefined, `${cmd} for ${to}`);
  // A package's module is its package; extras go with the other's name.
  assertEquals(
    adapt("npm install express", q("express"), q("lodash/fp"))?.command,
    "npm install lodash",
  );
  assertEquals(
    adapt("pip install plotly[kaleido]", q("plotly"), q("sklearn.ensemble"))?.command,
    "pip install scikit-learn",
  );
  // A scoped package is a name, not a path.
  assertEquals(
    adapt("npm install express", q("express"), q("@types/node"))?.command,
    "npm install @types/node",
  );
  // Not part of another name, not a path, not when the command does not name it.
  assertEquals(adapt("npm install express-session", q("express"), q("koa")), undefined);
  assertEquals(adapt("npm ci", q("express"), q("koa")), undefined);
  assertEquals(adapt("npm install express", q("express"), q("./lib/koa")), undefined);
  assertEquals(adapt("npm install express", q("express"), q("koa app")), undefined);
  assertEquals(otherKind(q("/w/a.js"), q("express")), true);
  assertEquals(otherKind(q("express"), q("left-pad")), false);
  assertEquals(otherKind([], q("express")), false);
});

Deno.test("findFixes offers what made the re-run pass, not the re-run, when commands ran between", async () => {
  // Trial 14: two failed installs (a typo, then a different error), a third that worked, then
  // the failed command again, passing: fix offered `python app.py` itself.
  const ix = await indexSessions([{
    id: "b2b22222-0000-4000-8000-000000000022",
    cwd: "/w/req",
    start: "2026-08-11T10:00:00Z",
    turns: [
      { bash: "python app.py", out: "ModuleNotFoundError: No module named 'requests'", exit: 1 },
      {
        bash: "pip install reqeusts",
        out: "ERROR: No matching distribution found for reqeusts",
        exit: 1,
      },
      {
        bash: "pip3 install --user requests",
        out: "error: externally-managed-environment",
        exit: 1,
      },
      {
        bash: "python -m pip install --break-system-packages requests",
        out: "Successfully installed requests-2.32.3",
        exit: 0,
      },
      { bash: "python app.py", out: "200 OK", exit: 0 },
    ],
  }]);
  try {
    const r = findFixes(ix.store, "ModuleNotFoundError: No module named 'requests'");
    assertEquals(r.fixes[0].command, "python -m pip install --break-system-packages requests");
    assertEquals(r.fixes[0].examples[0].then, [
      "python -m pip install --break-system-packages requests",
      "python app.py",
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("error names: an apostrophe is no quote, a scoped package no path, a short name keeps its digits", () => {
  // Trial 15: `Can't resolve './utils'` named `'t resolve '`, `'@types/node'` read as a path,
  // `No module named 'cv2'` looked for as `named cv`, and without its class no error at all.
  assertEquals(
    quotedNames("Module not found: Error: Can't resolve './utils' in '/w/src'").map((q) => q.raw),
    ["./utils", "/w/src"],
  );
  assertEquals(quotedNames("Error: Cannot find module '@types/node'")[0], {
    name: "@types/node",
    raw: "@types/node",
    path: false,
  });
  assertEquals(errorSignatures("No module named 'yaml'"), ["no module named yaml"]);
  // ImportError is the older name of ModuleNotFoundError (trial 17).
  assertEquals(
    signature("ImportError: No module named cv2"),
    "modulenotfounderror no module named cv2",
  );
  assertEquals(
    signature("error[E0425]: cannot find value `x` at line 12"),
    "error e0425 cannot find value x at line",
  );
});

Deno.test("findFixes counts no run sent to the background, and names the other name a fix ran for", async () => {
  const ix = await indexSessions([{
    id: "b6b60001-0000-4000-8000-000000000001",
    cwd: "/w/ml",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "python train.py", out: "ModuleNotFoundError: No module named 'pandas'", exit: 1 },
      { bash: "pip install pandas", out: "Command running in background with ID: bash_1." },
    ],
  }, {
    id: "b6b60002-0000-4000-8000-000000000002",
    cwd: "/w/cam",
    start: "2026-08-02T10:00:00Z",
    turns: [
      { bash: "python cam.py", out: "ModuleNotFoundError: No module named 'cv2'", exit: 1 },
      { bash: "pip install opencv-python", out: "Successfully installed opencv-python", exit: 0 },
      { bash: "python cam.py", out: "ok", exit: 0 },
    ],
  }]);
  try {
    // The background install is no fix of pandas; the cv2 one is offered for it, adapted.
    const pandas = findFixes(ix.store, "ModuleNotFoundError: No module named 'pandas'");
    assert(!pandas.fixes.some((f) => f.command === "pip install pandas"), pandas.message);
    const sk = findFixes(ix.store, "ModuleNotFoundError: No module named 'sklearn'");
    assertEquals(sk.fixes[0]?.adapted?.command, "pip install scikit-learn");
    assertEquals(sk.fixes[0]?.otherNames, ["cv2"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("names errors print unquoted: a Go import path whole, a Python 2 module", () => {
  // Trial 17: `no required module provides package github.com/gorilla/mux` was no error line,
  // and the fix of `github.com/spf13/cobra` was offered for it as specific.
  const go = (p: string) =>
    `main.go:5:2: no required module provides package ${p}; to add it:\n\tgo get ${p}`;
  assertEquals(quotedNames(go("github.com/gorilla/mux")), [
    { name: "github.com/gorilla/mux", raw: "github.com/gorilla/mux", path: false },
  ]);
  assert(errorSignatures(go("github.com/gorilla/mux")).length > 0);
  // Whole, however short its last part (trial 18: `github.com/x/y` was read as `y`).
  assert(specificNames(go("github.com/x/y")).includes("github.com/x/y"));
  assertEquals(
    adapt(
      "go get github.com/spf13/cobra",
      quotedNames(go("github.com/spf13/cobra")),
      quotedNames(go("github.com/gorilla/mux")),
    )?.command,
    "go get github.com/gorilla/mux",
  );
  assertEquals(quotedNames("ImportError: No module named cv2").map((q) => q.raw), ["cv2"]);
  assertEquals(specificNames("ImportError: No module named cv2"), ["cv2"]);
  // Quoted, it is read once.
  assertEquals(quotedNames("No module named 'yaml'").map((q) => q.raw), ["yaml"]);
});

Deno.test("findFixes shows one command once, and names the package a 404's fix ran for", async () => {
  const miss = (id: string, mod: string, fix: string): SessionSpec => ({
    id,
    cwd: "/w/py",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "python app.py", out: `ModuleNotFoundError: No module named '${mod}'`, exit: 1 },
      { bash: fix, out: "Successfully installed", exit: 0 },
    ],
  });
  const ix = await indexSessions([
    miss("c7c70001-0000-4000-8000-000000000001", "pandas", "pip install pandas"),
    miss("c7c70002-0000-4000-8000-000000000002", "requests", "pip install requests"),
    {
      id: "c7c70003-0000-4000-8000-000000000003",
      cwd: "/w/js",
      start: "2026-08-03T10:00:00Z",
      turns: [
        {
          bash: "npm install left-padd",
          out:
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found",
          exit: 1,
        },
        { bash: "npm install left-pad", out: "added 1 package", exit: 0 },
      ],
    },
  ]);
  try {
    // The fixes of `'pandas'` and `'requests'`, each adapted for `'yaml'`, are one command:
    // one candidate of two sessions (trial 17: listed twice as "1 session").
    const y = findFixes(ix.store, "ModuleNotFoundError: No module named 'yaml'");
    const shown = y.fixes.map((f) => f.adapted?.command ?? f.command);
    assertEquals(shown.filter((c) => c === "pip install pyyaml").length, 1, shown.join(" | "));
    assertEquals(y.fixes[0].sessions, 2);
    // A 404 of another name: its fix is said to have run for that name (trial 17).
    const npm = findFixes(
      ix.store,
      "npm ERR! 404 Not Found - GET https://registry.npmjs.org/lodahs - Not found",
    );
    assertEquals(npm.fixes[0]?.command, "npm install left-pad");
    assertEquals(npm.fixes[0]?.otherNames, ["left-padd"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("findFixes ranks a fix the failing command checked before one nothing checked", async () => {
  // Trial 19: `git stash`, in a session that ended "the build error is still there", came
  // first as the fix, the build never run again after it.
  const err = "src/cart.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.";
  const ix = await indexSessions([{
    id: "d8d80001-0000-4000-8000-000000000001",
    cwd: "/w/shop",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "npm run build", out: err, exit: 1 },
      { edit: "/w/shop/src/cart.ts", old: "total = item.price", new: "total = +item.price" },
      { bash: "npm run build", out: "built", exit: 0 },
    ],
  }, {
    id: "d8d80002-0000-4000-8000-000000000002",
    cwd: "/w/shop",
    start: "2026-08-09T10:00:00Z",
    turns: [
      { bash: "npm run build", out: err, exit: 1 },
      { bash: "npm cache clean --force", out: "cleaned", exit: 0 },
      { say: "The build error is still there; I could not fix it." },
    ],
  }, {
    id: "d8d80003-0000-4000-8000-000000000003",
    cwd: "/w/shop",
    start: "2026-08-10T10:00:00Z",
    turns: [
      { bash: "npm run build", out: err, exit: 1 },
      { bash: "git stash", out: "Saved working directory", exit: 0 },
      { say: "Stashed; on to the release notes." },
    ],
  }]);
  try {
    const r = findFixes(ix.store, err);
    // Trial 93: `git stash`, neither about the error nor the build, is other work, no fix.
    assertEquals(r.fixes.map((f) => [f.rerun ?? f.command, f.checked]), [
      ["npm run build", true],
      ["npm cache clean --force", false],
    ]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a fix is checked when what failed ran again without its error, whatever else it said", async () => {
  // Trial 20: `pytest` failed on a missing yaml, `pip install pyyaml`, then `pytest` failed on
  // another error: the fix was "not checked".
  const ix = await indexSessions([{
    id: "e9e90001-0000-4000-8000-000000000001",
    cwd: "/w/py",
    start: "2026-08-01T10:00:00Z",
    turns: [
      { bash: "pytest", out: "ModuleNotFoundError: No module named 'yaml'", exit: 1 },
      { bash: "pip install pyyaml", out: "Successfully installed pyyaml", exit: 0 },
      { bash: "pytest", out: "AssertionError: assert 1 == 2", exit: 1 },
    ],
  }]);
  try {
    const r = findFixes(ix.store, "ModuleNotFoundError: No module named 'yaml'");
    assertEquals(r.fixes.map((f) => [f.command, f.checked]), [["pip install pyyaml", true]]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("a run taken for a success whose output reports an error is not one", () => {
  // Trial 24 (a Crush session): the output as the real run printed it, colour codes and CRLF.
  const output = "\n\x1b[31;1mParserError: \x1b[31;1mVariable reference is not valid. ':' was " +
    "not followed by a valid variable name character.\x1b[0m\r\n\x1b[31;1mImport-Module: " +
    "\x1b[31;1mThe specified module './Tools.psm1' was not loaded because no valid module " +
    "file was found in any module directory.\x1b[0m";
  assertEquals(okButSaidError({ outcome: "ok", output }), true);
  assertEquals(okButSaidError({ outcome: "ok", output: "Tests Passed: 4, Failed: 0" }), false);
  assertEquals(okButSaidError({ outcome: "ok", output: null }), false);
  assertEquals(okButSaidError({ outcome: "failed", output }), false);
});

const ERR = "deploy.sh: line 4: jq: command not found";

Deno.test("after the user's next request only an attempt at the failed action is its fix", async () => {
  // Trial 27: a failed step, the user's next request, then a command for that request,
  // offered as the fix of the error.
  const asked: SessionSpec = {
    id: "16160006-0000-4000-8000-000000000006",
    cwd: "/w/six",
    start: "2026-08-08T10:00:00Z",
    turns: [
      { user: "lint the scripts" },
      { bash: "bash deploy.sh", out: ERR, exit: 127 },
      { user: "1" },
      { bash: "op run -- bash deploy.sh", out: "op 2.30.0", exit: 0 },
    ],
  };
  const retried: SessionSpec = {
    id: "17170007-0000-4000-8000-000000000007",
    cwd: "/w/seven",
    start: "2026-08-09T10:00:00Z",
    turns: [
      { bash: "bash deploy.sh", out: ERR, exit: 127 },
      { user: "use the packaged jq and run it again" },
      { bash: "which jq", out: "/usr/bin/jq", exit: 0 },
      { edit: "/w/seven/deploy.sh", old: "rm $f", new: 'rm "$f"' },
      { bash: "bash deploy.sh", out: "deployed", exit: 0 },
    ],
  };
  const ix = await indexSessions([asked, retried]);
  try {
    const r = findFixes(ix.store, ERR);
    assertEquals(r.fixes.map((f) => f.rerun ?? f.command), ["bash deploy.sh"]);
    assertEquals(r.fixes[0].examples[0].edited, ["/w/seven/deploy.sh"]);
    // Without the rule, the command for the user's next request was a fix too.
    const { ABLATE_FIX } = await import("./fix_actions.ts");
    ABLATE_FIX.askedAfter = true;
    try {
      const all = findFixes(ix.store, ERR);
      assertEquals(all.fixes.map((f) => f.rerun ?? f.command).sort(), [
        "bash deploy.sh",
        "op run -- bash deploy.sh",
      ]);
    } finally {
      ABLATE_FIX.askedAfter = false;
    }
  } finally {
    ix.cleanup();
  }
});

Deno.test("a name before the message that the message quotes again is no part of the error (PowerShell's one-line form)", () => {
  const message =
    "The term 'Invoke-ScriptAnalyzer' is not recognized as a name of a cmdlet, function, script file, or executable program.";
  // The multi-line form prints the name on a line of its own, then `| <message>`.
  assertEquals(signature(`Invoke-ScriptAnalyzer: ${message}`), signature(`     | ${message}`));
  assertEquals(signature(`Invoke-ScriptAnalyzer : ${message}`), signature(message));
  // A prefix the message does not quote stays.
  assertEquals(signature("npm: 'install' failed"), "npm install failed");
});

Deno.test("specificNames takes a dotted name whole, and a count of no errors says no error", () => {
  // Trial 39: `cluster.local` (a piece of the host) was said to be missing from a session
  // holding `redis.infra.svc.cluster.local`, and a test log's "0 errors" PASS lines gave names.
  assertEquals(
    specificNames("Error: getaddrinfo ENOTFOUND redis.infra.svc.cluster.local"),
    ["redis.infra.svc.cluster.local"],
  );
  assertEquals(specificNames("FAIL src/app.test.js\nError: boom in app.config.ts"), [
    "app.test.js",
    "app.config.ts",
  ]);
  assertEquals(
    specificNames(
      "PASS src/mod001.test.js (3 tests; 0 errors)\nError: Cannot find module 'lodash'",
    ),
    ["lodash"],
  );
  assertEquals(specificNames("PASS a.test.js (0 errors, 1 failed)"), ["a.test.js"]);
});

Deno.test("an error no failing command printed is said to be where it is: a tool's output, a prompt, a reply", async () => {
  // Trial 39: the result a harness recorded for a tool was said to be "pasted or quoted".
  const ERR = "Error: frobnicator quota exhausted for tenant";
  const one = (id: string, turns: SessionSpec["turns"]): SessionSpec => ({
    id,
    cwd: "/w/frob",
    start: "2026-08-09T10:00:00Z",
    turns,
  });
  const cases: Array<[SessionSpec["turns"], string]> = [
    [[{ bash: "frob status", out: `${ERR} acme`, exit: 0, clean: true }], "(in a tool's output)"],
    [[{ user: `I keep getting ${ERR} acme, why?` }], "(pasted in a prompt)"],
    [[{ user: "check frob" }, { say: `The log said ${ERR} acme.` }], "(quoted in a reply)"],
  ];
  for (const [turns, how] of cases) {
    const ix = await indexSessions([one("15150005-0000-4000-8000-000000000005", turns)]);
    try {
      const r = findFixes(ix.store, `${ERR} acme`, { mentions: true });
      assertEquals(r.status, "unseen", r.message);
      assert(r.message.includes(`1 session holds it ${how}`), r.message);
    } finally {
      ix.cleanup();
    }
  }
});

Deno.test("an error in Portuguese, Spanish, French or German is read as one; text that reports none is not", () => {
  // Trial 55: `erro: não foi possível abrir o arquivo` was "no line of that text reports an error".
  for (
    const line of [
      "erro: não foi possível abrir o arquivo config.yaml",
      "Error al compilar: no se pudo abrir config.yaml",
      "erreur : impossible de lire config.yaml",
      "Fehler: Datei config.yaml konnte nicht geöffnet werden",
      // Trial 60: PowerShell's "not recognized" in four languages, glibc's French.
      "O termo '=Stop' não é reconhecido como nome de cmdlet, função, arquivo de script",
      "El término 'foo' no se reconoce como nombre de un cmdlet",
      "Le terme « foo » n'est pas reconnu comme nom d'applet de commande",
      "Die Benennung 'foo' wurde nicht als Name eines Cmdlet erkannt",
      "ls: impossible d'accéder à 'x': Aucun fichier ou dossier de ce type",
      "cp: Permission non accordée",
    ]
  ) assertEquals(errorSignatures(line).length, 1, line);
  for (
    const line of [
      "todo bien, terminado en 2 segundos",
      "Arquivo salvo com sucesso",
      "Überfehlerhaft",
    ]
  ) {
    assertEquals(errorSignatures(line), [], line);
  }
});

Deno.test("of the sessions holding an error no command failed with, the one whose output printed it comes first", async () => {
  // Trial 57: `fix MalformedYAMLError` named first a newer session that had only pasted
  // another session's summary of the error, before the session whose tool output printed it.
  const ERR = "Error: frobnicator quota exhausted for tenant acme";
  const ix = await indexSessions([
    {
      id: "15150006-0000-4000-8000-000000000006",
      cwd: "/w/frob",
      start: "2026-08-09T10:00:00Z",
      turns: [{ bash: "frob status", out: ERR, exit: 0, clean: true }, { say: "Noted." }],
    },
    {
      id: "15150007-0000-4000-8000-000000000007",
      cwd: "/w/frob",
      start: "2026-08-10T10:00:00Z",
      turns: [{ user: `Last time I kept getting this:\n${ERR}` }, { say: "Let us see." }],
    },
  ]);
  try {
    const r = findFixes(ix.store, ERR, { mentions: true });
    assertEquals(r.status, "unseen", r.message);
    assertEquals(r.mentioned?.map((m) => m.session.slice(0, 8)), ["15150006", "15150007"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("the name an error is about is read in «», „“ quotes and before a shell's 'command not found'", () => {
  // Trial 61: French PowerShell's «docker», German „docker“ and every `bash: X: command not
  // found` gave no name, so fixes for another command were offered.
  const names = (line: string) => quotedNames(line).map((q) => q.name);
  assertEquals(
    names("Le terme «\u00a0docker\u00a0» n'est pas reconnu comme nom d'applet de commande"),
    ["docker"],
  );
  assertEquals(names("Die Benennung „docker“ wurde nicht als Name eines Cmdlet erkannt"), [
    "docker",
  ]);
  assertEquals(names("bash: docker: command not found"), ["docker"]);
  assertEquals(names("bash: line 1: kubectl: command not found"), ["kubectl"]);
  assertEquals(names("zsh: yq: comando não encontrado"), ["yq"]);
  assertEquals(names("Error: Cannot find module 'express'"), ["express"]);
});

Deno.test("a pasted error of one very long line is read from its start, cut to a line's length", async () => {
  // Trial 62: a 100,000-character line took 17 s (its expressions look back over the run of
  // letters at every place of it), a 2 MB one minutes, and MCP's one server waited behind it.
  assertEquals(linesWithin("short\nlines"), "short\nlines");
  const long = "Error: connection refused " + "x".repeat(200_000);
  assertEquals(linesWithin(`${long}\nnext line`), `${long.slice(0, ERROR_LINE_MAX)}\nnext line`);
  const ix = await indexSessions([]);
  try {
    const r = findFixes(ix.store, long, { mentions: true });
    assert(r.lookedFor.length <= ERROR_LINE_MAX + 200, `${r.lookedFor.length}`);
    assert(r.lookedFor.startsWith("error connection refused"), r.lookedFor.slice(0, 80));
  } finally {
    ix.cleanup();
  }
});

// Trial 66: a refused edit ("you must read the file before editing it") followed by an `mv`
// of another file: the `mv` was offered as its fix, "succeeded 1/1".
Deno.test("after a failed edit only what touches that file is its fix", async () => {
  const REFUSED = "you must read the file before editing it. Use the View tool first";
  const s: SessionSpec = {
    id: "18180008-0000-4000-8000-000000000008",
    cwd: "/w/eight",
    start: "2026-08-10T10:00:00Z",
    turns: [
      { user: "rename the automation file and fix its image" },
      {
        edit: "/w/eight/apps/timer.yaml",
        old: "image: a",
        new: "image: b",
        fail: true,
        out: REFUSED,
      },
      { bash: "mv apps/frontend-auto.yaml apps/auto.yaml", out: "", exit: 0 },
      { read: "/w/eight/apps/timer.yaml" },
      { edit: "/w/eight/apps/timer.yaml", old: "image: a", new: "image: b" },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    const r = findFixes(ix.store, REFUSED, { mentions: true });
    assertEquals(r.fixes.map((f) => f.command), ["read /w/eight/apps/timer.yaml"]);
    const { ABLATE_FIX } = await import("./fix_actions.ts");
    ABLATE_FIX.otherFiles = true;
    try {
      const all = findFixes(ix.store, REFUSED, { mentions: true });
      assertEquals(all.fixes.map((f) => f.command), ["mv apps/frontend-auto.yaml apps/auto.yaml"]);
    } finally {
      ABLATE_FIX.otherFiles = false;
    }
  } finally {
    ix.cleanup();
  }
});

// Trial 75: a test run's tally, its numbers gone, matched the passing run's tally: the error
// "came back" and nothing fixed it, where the last run passed after two edits.
Deno.test("a test run's tally is no error signature, and the error around it is found fixed", async () => {
  const tallyOf = (p: number, f: number) => `Passed: ${p} Failed: ${f} Skipped: 0 Pending: 0`;
  const s: SessionSpec = {
    id: "75750075-0000-4000-8000-000000000075",
    cwd: "/w/pester",
    start: "2026-08-07T10:00:00Z",
    turns: [
      {
        bash: "pwsh -Command Invoke-Pester",
        out: `Expected: {True}\nBut was:  {False}\n${tallyOf(1, 3)}`,
        exit: 1,
      },
      { edit: "/w/pester/WinSetup.psm1", old: "return $false", new: "return $true" },
      { bash: "pwsh -Command Invoke-Pester", out: tallyOf(4, 0), exit: 0 },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    assertEquals(errorSignatures(tallyOf(1, 3)), []);
    const both = findFixes(ix.store, `Expected: {True}\nBut was:  {False}\n${tallyOf(1, 3)}`, {
      mentions: true,
    });
    assertEquals(both.status, "found", both.message);
    const alone = findFixes(ix.store, `Tests completed in 1.12s\n${tallyOf(1, 3)}`, {
      mentions: true,
    });
    assertEquals(alone.status, "not_error");
    assert(alone.message.startsWith("a test run's tally"), alone.message);
    // Trial 77: the framework's own words around any assertion are no signature: another
    // module's failure is not this one.
    assertEquals(errorSignatures("   But was:  {41}\n   at <ScriptBlock>, /b/x.ps1: line 12"), []);
    const other = findFixes(
      ix.store,
      "Describing Billing module\n [-] computes invoice totals 20ms\n   Expected: {42}\n" +
        "   But was:  {41}\n   at <ScriptBlock>, /home/me/Billing.Tests.ps1: line 12",
      { mentions: true },
    );
    assert(other.status !== "found", `${other.status}: ${other.message}`);
    // A passing run's output, lines it shares with the failing one and all, is no error.
    const passed = findFixes(
      ix.store,
      `Describing WinSetup module\n [+] creates logs 310ms\nTests completed in 9.33s\n${
        tallyOf(4, 0)
      }`,
      { mentions: true },
    );
    assertEquals(passed.status, "not_error");
    assert(passed.message.startsWith("that reads as a passing test run"), passed.message);
  } finally {
    ix.cleanup();
  }
});

// Trial 107 F3, trial 108 F3 (a real Crush session): the failed command never ran again, a
// lint run and a probe after it failed on other errors, then the file the failed command
// loaded was edited and the tests passed: the edit is the fix, the test run what ran next.
Deno.test("findFixes takes a later change of what failed, then a command that passed, when what ran next failed on another error", async () => {
  const s: SessionSpec = {
    id: "19190009-0000-4000-8000-000000000009",
    cwd: "/w/nine",
    start: "2026-08-11T10:00:00Z",
    turns: [
      {
        bash: "python tools/loader.py",
        out: "QuokkaConfigError: widget key 'colour' is not allowed here",
        exit: 1,
      },
      { bash: "ruff check .", out: "ruff: command not found", exit: 127 },
      {
        bash: "python -c 'import yaml'",
        out: "ModuleNotFoundError: No module named 'yaml'",
        exit: 1,
      },
      {
        edit: "/w/nine/tools/loader.py",
        old: "ALLOWED = ('color',)",
        new: "ALLOWED = ('color', 'colour')",
      },
      { bash: "pytest -q", out: "4 passed in 0.03s" },
    ],
  };
  // The same, but the change is of another file, which the failure neither named nor loaded.
  const other: SessionSpec = {
    id: "1a1a000a-0000-4000-8000-00000000000a",
    cwd: "/w/ten",
    start: "2026-08-12T10:00:00Z",
    turns: [
      {
        bash: "python tools/reader.py",
        out: "ZorbleConfigError: widget key 'shade' is not allowed here",
        exit: 1,
      },
      { bash: "ruff check .", out: "ruff: command not found", exit: 127 },
      { edit: "/w/ten/README.md", old: "# Ten", new: "# Ten, a tool" },
      { bash: "pytest -q", out: "4 passed in 0.03s" },
    ],
  };
  const ix = await indexSessions([s, other]);
  try {
    const r = findFixes(ix.store, "QuokkaConfigError: widget key 'colour' is not allowed here");
    assertEquals(r.status, "found");
    const f = r.fixes[0];
    assertEquals([f.command, f.ranNext, f.rerun, f.checked, f.succeeded + f.unknown], [
      "edit /w/nine/tools/loader.py",
      "pytest -q",
      undefined,
      false,
      1,
    ]);
    assertEquals(f.examples[0].edited, ["/w/nine/tools/loader.py"]);
    const none = findFixes(ix.store, "ZorbleConfigError: widget key 'shade' is not allowed here");
    assertEquals(none.status, "no_fix");
  } finally {
    ix.cleanup();
  }
});

// Trial 110 F5: an edit of another file, then another command, offered as the fix of an error
// whose command never ran again.
Deno.test("findFixes offers no change of a file the error is not about, when nothing checked it", async () => {
  const s: SessionSpec = {
    id: "1b1b000b-0000-4000-8000-00000000000b",
    cwd: "/w/eleven",
    start: "2026-08-13T10:00:00Z",
    turns: [
      { bash: "python server.py", out: "KeyError: 'ZORBLE_PORT'", exit: 1 },
      { edit: "/w/eleven/README.md", old: "# Eleven", new: "# Eleven\nSee docs." },
      { bash: "pytest -q", out: "2 passed in 0.01s", exit: 0 },
    ],
  };
  const ix = await indexSessions([s]);
  try {
    assertEquals(findFixes(ix.store, "KeyError: 'ZORBLE_PORT'").status, "no_fix");
  } finally {
    ix.cleanup();
  }
});
