import { assertEquals } from "../../tests/_assert.ts";
import { foldFences } from "./_fill.ts";
import {
  errorLine,
  errorLines,
  failureLine,
  outcomeLabel,
  outcomeMix,
  outcomeOf,
  runEnd,
  statusForcedZero,
  statusOwner,
} from "./outcome.ts";

Deno.test("failureLine finds the line that reports a failure, colour codes removed", () => {
  const cases: Array<[string, string | null]> = [
    ["x\ncat: a.txt: No such file or directory", "cat: a.txt: No such file or directory"],
    ["bash: kustomize: command not found", "bash: kustomize: command not found"],
    ["src/a.c:3:5: error: unknown type name 'x'", "src/a.c:3:5: error: unknown type name 'x'"],
    ["fatal: not a git repository", "fatal: not a git repository"],
    // A build's count of errors (trial 15: offered as a fix behind `| tail -3`).
    [
      "webpack 5.88.0 compiled with 1 error in 812 ms",
      "webpack 5.88.0 compiled with 1 error in 812 ms",
    ],
    [
      "Found 2 errors in the same file, starting at: src/a.ts:3",
      "Found 2 errors in the same file, starting at: src/a.ts:3",
    ],
    ["3 errors generated.", "3 errors generated."],
    ["✖ 4 problems (3 errors, 1 warning)", "✖ 4 problems (3 errors, 1 warning)"],
    ["ERROR in ./src/index.js 3:0-28", "ERROR in ./src/index.js 3:0-28"],
    ["webpack compiled successfully", null],
    ["✖ 1 problem (0 errors, 1 warning)", null],
    ["error[E0425]: cannot find value `x`", "error[E0425]: cannot find value `x`"],
    [
      'Error from server (NotFound): pods "web" not found',
      'Error from server (NotFound): pods "web" not found',
    ],
    ["Traceback (most recent call last):\n  File", "Traceback (most recent call last):"],
    ["thread 'main' panicked at src/main.rs:2:5:", "thread 'main' panicked at src/main.rs:2:5:"],
    ["** (ArgumentError) argument error", "** (ArgumentError) argument error"],
    // Crush on Windows: PowerShell 7 output with colour codes.
    [
      "\x1b[31;1mParserError: \x1b[31;1mVariable reference is not valid.\x1b[0m",
      "ParserError: Variable reference is not valid.",
    ],
    [
      "The term 'x' is not recognized as a name of a cmdlet, function",
      "The term 'x' is not recognized as a name of a cmdlet, function",
    ],
    [
      "   | The term 'x' is not recognized as a name of a cmdlet",
      "| The term 'x' is not recognized as a name of a cmdlet",
    ],
    // Localized (trial 27: a Portuguese PowerShell's error read as no error).
    [
      "lint: O termo 'lint' não é reconhecido como nome de cmdlet, função, arquivo de script ou programa operável.",
      "lint: O termo 'lint' não é reconhecido como nome de cmdlet, função, arquivo de script ou programa operável.",
    ],
    [
      "'tsc' não é reconhecido como um comando interno\nou externo, um programa operável ou um arquivo em lotes.",
      "'tsc' não é reconhecido como um comando interno",
    ],
    [
      "El término 'x' no se reconoce como nombre de un cmdlet, función",
      "El término 'x' no se reconoce como nombre de un cmdlet, función",
    ],
    [
      "Le terme «x» n'est pas reconnu comme nom d'applet de commande, fonction",
      "Le terme «x» n'est pas reconnu comme nom d'applet de commande, fonction",
    ],
    [
      'Die Benennung "x" wurde nicht als Name eines Cmdlet, einer Funktion erkannt.',
      'Die Benennung "x" wurde nicht als Name eines Cmdlet, einer Funktion erkannt.',
    ],
    ["bash: tsc: comando não encontrado", "bash: tsc: comando não encontrado"],
    [
      "cat: a.txt: Arquivo ou diretório inexistente",
      "cat: a.txt: Arquivo ou diretório inexistente",
    ],
    ["ls: x: No existe el archivo o el directorio", "ls: x: No existe el archivo o el directorio"],
    ["bash: ./run.sh: Permissão negada", "bash: ./run.sh: Permissão negada"],
    ["O comando foi reconhecido e executado", null],
    [
      "FAILED tests/test_a.py::test_b - assert 1 == 2",
      "FAILED tests/test_a.py::test_b - assert 1 == 2",
    ],
    ["Tests: 2 failed, 5 passed", "Tests: 2 failed, 5 passed"],
    ["out\nExit code 3", "Exit code 3"],
    // Success that mentions failure words is not a failure.
    ["Passed: 4 Failed: 0 Skipped: 0", null],
    ["5 passed, 0 failed", null],
    ["lib/errors.ts\nlib/error_handling.md", null],
    ['{"level":"error","msg":"retrying"}', null],
    ["Exit code 0", null],
    ["", null],
  ];
  for (const [text, want] of cases) assertEquals(failureLine(text), want, text);
});

Deno.test("outcomeOf trusts a recorded status first, then the output; never ok without a status", () => {
  assertEquals(outcomeOf({ exit: 0, isError: 0, output: "error: ignored" }), "ok");
  assertEquals(outcomeOf({ exit: 2, isError: 0 }), "failed");
  assertEquals(outcomeOf({ exit: null, isError: 1 }), "failed");
  assertEquals(
    outcomeOf({ exit: null, isError: false, output: "npm ERR! missing script" }),
    "failed",
  );
  assertEquals(outcomeOf({ exit: null, isError: 0, output: "built in 0.4s" }), "unknown");
  assertEquals(outcomeOf({ exit: null, isError: 0, output: null }), "unknown");
  assertEquals(outcomeLabel({ exit: 0, isError: 0 }), "exit 0");
  assertEquals(outcomeLabel({ exit: 127, isError: 1 }), "exit 127");
  assertEquals(outcomeLabel({ exit: null, isError: 0, output: "fatal: bad revision" }), "failed");
  assertEquals(outcomeLabel({ exit: null, isError: 0, output: "done" }), "exit unknown");
});

// Regression (2027-01): `how` printed `exit: 1 not recorded`, `exit: 2 ok`, which read like exit codes.
Deno.test("outcomeMix names the outcomes of runs, never as exit codes", () => {
  assertEquals(outcomeMix({ ok: 2, failed: 0, unknown: 0 }), "2 ok");
  assertEquals(outcomeMix({ ok: 0, failed: 1, unknown: 1 }), "1 failed, 1 exit unknown");
  assertEquals(
    outcomeMix({ ok: 1, failed: 1, unknown: 0 }, (t, o) => o === "failed" ? `!${t}` : t),
    "1 ok, !1 failed",
  );
});

Deno.test("a call with no result is unknown and labelled no result; a quiet run without a status exit unknown", () => {
  const none = { exit: null, isError: 0, output: null, noResult: true };
  assertEquals([outcomeOf(none), outcomeLabel(none)], ["unknown", "no result"]);
  const quiet = { exit: null, isError: 0, output: "cc -o app a.c" };
  assertEquals([outcomeOf(quiet), outcomeLabel(quiet)], ["unknown", "exit unknown"]);
});

Deno.test("statusOwner names the filter last in a pipe, whose status is not the command's", () => {
  assertEquals(statusOwner("railway up --detach 2>&1 | head -30"), "head");
  assertEquals(statusOwner("ls |& less"), "less");
  assertEquals(statusOwner("foo | /usr/bin/tail -n 2"), "tail");
  assertEquals(statusOwner("a && b | wc -l"), "wc");
  assertEquals(statusOwner('cd c:\\app && npx tsc --noEmit 2>&1 | findstr /i "error"'), "findstr");
  assertEquals(statusOwner("Get-ChildItem | Select-String foo"), "Select-String");
  // No pipe, a pipe inside quotes, `||`, pipefail, a real program last, or a later statement.
  for (const c of ["npm test", "grep 'x|y' f", "a || b", "set -o pipefail; npm test | tail -5"]) {
    assertEquals(statusOwner(c), null, c);
  }
  for (const c of ["cat x | python3 -", 'echo "a | head"', "cd app; npm test", "echo hi"]) {
    assertEquals(statusOwner(c), null, c);
  }
  // A last statement that only reports after others owns the status (trial 17: `set +e; pip
  // install zeta; echo rc=$?` printed rc=1 and was offered as a fix).
  for (
    const [c, owner] of [
      ["cmd | head -3; echo done", "; echo"],
      ["set +e; pip install zeta; echo rc=$?", "; echo"],
      ["pip install toml; true", "; true"],
      ["make > log 2>&1; cat log", "; cat"],
      ["npm ci\nexit 0", "; exit 0"],
      // In a group's brackets too (trial 17: `(pip install delta; exit 0)`).
      ["(pip install delta; exit 0)", "; exit 0"],
      ["{ npm test; true; }", "; true"],
    ]
  ) assertEquals(statusOwner(c, 0), owner, c);
  const masked = { exit: 0, isError: false, command: "pip install toml; echo done" };
  assertEquals(outcomeOf({ ...masked, output: "ERROR: No matching distribution\ndone" }), "failed");
  assertEquals(outcomeOf({ ...masked, output: "Successfully installed toml\ndone" }), "unknown");
  assertEquals(outcomeLabel({ ...masked, output: "done" }), "exit 0 (; echo)");
  const run = { exit: 0, isError: false, command: "deploy 2>&1 | head -30" };
  assertEquals(outcomeOf({ ...run, output: "Invalid TOKEN. Please check it" }), "unknown");
  assertEquals(outcomeOf({ ...run, output: "error: token rejected" }), "failed");
  assertEquals(outcomeLabel({ ...run, output: "" }), "exit 0 of head");
  assertEquals(
    outcomeLabel({ ...run, output: "error: token rejected" }),
    "failed by its output (exit 0 of head)",
  );
  assertEquals(outcomeOf({ ...run, command: "deploy" }), "ok");
  // A filter's non-zero status (nothing matched), flagged an error by the harness for it alone.
  const none = { exit: 1, isError: true, command: "npx tsc 2>&1 | findstr /i storage", output: "" };
  assertEquals(outcomeOf(none), "unknown");
  assertEquals(outcomeOf({ ...none, command: "npx tsc" }), "failed");
  assertEquals(outcomeOf({ ...none, exit: 0 }), "failed"); // an error flag beside exit 0 is news
  // A search alone that found nothing answered; one that could not read its file failed.
  const miss = { exit: 1, isError: true, command: "grep -n wibblify include/*.h", output: "" };
  assertEquals([statusOwner(miss.command, 1), outcomeOf(miss), outcomeLabel(miss)], [
    "grep",
    "unknown",
    "exit 1 of grep",
  ]);
  assertEquals(statusOwner(miss.command, 2), null);
  // A filter that failed itself: the pipeline failed.
  assertEquals(outcomeOf({ exit: 4, isError: true, command: "curl -s x | jq .status" }), "failed");
  assertEquals(
    outcomeOf({ exit: 1, isError: true, command: "npm test | grep FAIL", output: "" }),
    "unknown",
  );
  assertEquals(
    outcomeOf({ ...miss, output: "grep: include/x.h: No such file or directory" }),
    "failed",
  );
});

Deno.test("a question's 1 is a no, not a failure: diff, cmp, test, and questions joined by &&", () => {
  // Trial 12: `diff`, `test -f` and `grep -q … && …` exiting 1 were counted failed.
  const run = (command: string, exit: number, output = "") =>
    outcomeOf({ exit, isError: exit !== 0, command, output });
  assertEquals(statusOwner("diff -u a.txt b.txt", 1), "diff");
  assertEquals(run("diff -u a.txt b.txt", 1, "--- a.txt\n+++ b.txt\n-x\n+y"), "unknown");
  assertEquals(run("diff -u a.txt b.txt", 2, "diff: b.txt: No such file or directory"), "failed");
  assertEquals(statusOwner("test -f dist/app.js", 1), "test");
  assertEquals(statusOwner("[ -d node_modules ]", 1), "[");
  assertEquals(statusOwner("cmp a.bin b.bin", 1), "cmp");
  assertEquals(statusOwner("which quarkle", 1), "which");
  assertEquals(statusOwner("grep -q TODO src/app.ts && echo found", 1), "grep");
  assertEquals(statusOwner("test -f x && grep -q y x && echo both", 1), "test");
  assertEquals(run("grep -q TODO src/app.ts && echo found", 1), "unknown");
  // The part after `&&` may have failed: the status is not the question's.
  assertEquals(statusOwner("grep -q TODO src/app.ts && npm test", 1), null);
  assertEquals(run("grep -q TODO src/app.ts && npm test", 1), "failed");
  assertEquals(statusOwner("test -f x || touch x && ls", 1), null);
  // Another status of a question is its own failure; a first program that asks nothing owns none.
  assertEquals(statusOwner("test -f dist/app.js", 2), null);
  assertEquals(statusOwner("npm test && echo ok", 1), null);
});

Deno.test("a command ending in || true: its 0 says nothing, the output decides, whatever the harness", () => {
  // Trial 12: `rm x || true` was failed for Claude Code (no status; its output says `rm:
  // cannot remove`) and ok for Codex (exit 0). Trial 13: calling it ok hid `make lint || true`
  // printing its errors.
  const out = "rm: cannot remove 'build/x': No such file or directory";
  const claude = { exit: null, isError: false, command: "rm build/x || true", output: out };
  const codex = { ...claude, exit: 0 };
  assertEquals([outcomeOf(claude), outcomeOf(codex)], ["failed", "failed"]);
  assertEquals(outcomeLabel(codex), "failed by its output (exit 0 (|| true))");
  const quiet = { ...codex, output: "" };
  assertEquals([outcomeOf(quiet), outcomeLabel(quiet)], ["unknown", "exit 0 (|| true)"]);
  assertEquals(statusOwner("make lint || true", 0), "|| true");
  assertEquals(statusForcedZero("cd app; rm -rf dist || :"), "|| :");
  assertEquals(statusForcedZero("pkill node || exit 0"), "|| exit 0");
  assertEquals(statusForcedZero('./deploy.sh || echo "deploy failed"'), "|| echo");
  assertEquals(
    outcomeOf({ ...codex, command: './deploy.sh || echo "deploy failed"', output: "error: x" }),
    "failed",
  );
  // Not the last statement's: the status is the last statement's own.
  assertEquals(statusForcedZero("rm x || true; npm test"), null);
  assertEquals(statusForcedZero('echo "a || true"'), null);
  assertEquals(outcomeOf({ ...codex, command: "rm x || true; npm test", output: "ok" }), "ok");
});

Deno.test("a run the harness stopped or moved to the background says so, not failed or exit unknown", () => {
  // Claude Code's words (2.1.332 in the farm, and its bundled source; trial 14).
  assertEquals(runEnd("Exit code 143\nCommand timed out after 1s"), "timed out after 1s");
  assertEquals(
    runEnd("Command timed out after 2m 0.0s\ncollected 3 items"),
    "timed out after 2m 0.0s",
  );
  assertEquals(
    runEnd("Command running in background with ID: bash_1. Output is being written to: /t/o."),
    "in background",
  );
  assertEquals(
    runEnd(
      "Command did not complete within its 2s timeout and was moved to the background (ID: b).",
    ),
    "in background after its 2s timeout",
  );
  assertEquals(
    runEnd("Command was manually backgrounded by user with ID: b3. Output …"),
    "in background",
  );
  // Said by the command itself, later in its output, or of something else: nothing.
  assertEquals(runEnd("tests passed\nthe job timed out after 3 retries"), null);
  assertEquals(runEnd(null), null);
  const timeout = { exit: 143, isError: 1, output: "Exit code 143\nCommand timed out after 1s" };
  assertEquals([outcomeOf(timeout), outcomeLabel(timeout)], [
    "failed",
    "timed out after 1s (exit 143)",
  ]);
  const old = { exit: null, isError: 1, output: "Command timed out after 2m 0.0s" };
  assertEquals(outcomeLabel(old), "timed out after 2m 0.0s");
  const bg = { exit: null, isError: 0, output: "Command running in background with ID: bash_1." };
  assertEquals([outcomeOf(bg), outcomeLabel(bg)], ["unknown", "in background"]);
});

Deno.test("PowerShell's exit 0 beside an error it printed is a failure; a clean one stays ok", () => {
  // Trial 25 (a Crush session): `pwsh -Command "& lint.ps1"` exit 0, offered by `fix` and the
  // hook as what fixed "… is not recognized as a name of a cmdlet", printed that error itself.
  const output = "Running ScriptAnalyzer...\r\n\x1b[31;1m\x1b[36;1m     | \x1b[31;1mThe term " +
    "'Invoke-ScriptAnalyzer' is not recognized as a name of a cmdlet, function, script file, " +
    "or executable program. Check\x1b[0m\r\n";
  const pwsh = { exit: 0, isError: false, output, command: `pwsh -NoLogo -Command "& 'lint.ps1'"` };
  assertEquals(outcomeOf(pwsh), "failed");
  assertEquals(outcomeLabel(pwsh), "failed by its output (exit 0)");
  assertEquals(outcomeOf({ ...pwsh, command: "powershell.exe -Command lint.ps1" }), "failed");
  assertEquals(outcomeOf({ ...pwsh, output: "Running ScriptAnalyzer...\r\n" }), "ok");
  // Another program's 0 is its own, whatever it printed (a log searched for errors).
  assertEquals(outcomeOf({ ...pwsh, command: "cat build.log" }), "ok");
});

// Trial 71: a digest said a failed run's status only, and folded a pasted log with its errors.
Deno.test("errorLine says what went wrong: no bare exit status, a ^C taken off, a logged error", () => {
  assertEquals(
    errorLine("Exit code 128\nhint: advice\nfatal: Need to specify how"),
    "fatal: Need to specify how",
  );
  assertEquals(errorLine("Exit code 1"), null);
  assertEquals(
    errorLine("^Cerror: Recipe `sync` was terminated"),
    "error: Recipe `sync` was terminated",
  );
  const log = [
    `{"level":"info","msg":"Reconciliation finished"}`,
    `{"level":"error","msg":"Reconciliation failed","error":"MalformedYAMLError: yaml: line 1"}`,
    `{"level":"error","msg":"Reconciliation failed","error":"MalformedYAMLError: yaml: line 1"}`,
    `{"level":"error","msg":"apply failed"}`,
  ].join("\n");
  assertEquals(errorLines(log, 3), ["MalformedYAMLError: yaml: line 1", "apply failed"]);
  assertEquals(errorLine(`{"level":"info","error":"none"}`), null);
  const folded = foldFences("Here is the log:\n```\n" + log + "\n```\nplease fix");
  assertEquals(
    folded,
    "Here is the log:\n[a pasted block of 6 lines, left out here; its errors: " +
      "MalformedYAMLError: yaml: line 1 · apply failed]\nplease fix",
  );
});

// Trial 73: PowerShell's errors were said by their `+ FullyQualifiedErrorId` trailer, or not at
// all when PowerShell 7 put the class alone on its line and the message in its `Line |` block.
Deno.test("errorLine says PowerShell's message, in either version and in the system's language", () => {
  assertEquals(
    errorLine(
      "Get-Content : A positional parameter cannot be found that accepts argument '1.md'.\n" +
        "At line:1 char:1\n+ Get-Content README\\ 1.md\n+ ~~~~~~~~~~~\n" +
        "    + CategoryInfo          : InvalidArgument: (:) [Get-Content], ParameterBindingException\n" +
        "    + FullyQualifiedErrorId : PositionalParameterNotFound,Microsoft.PowerShell.Commands",
    ),
    "Get-Content : A positional parameter cannot be found that accepts argument '1.md'.",
  );
  assertEquals(
    errorLine(
      // Written in the console's code page and read as UTF-8 (realdata Crush fd7da67c).
      "\n=Stop : O termo '=Stop' n\ufffdo \ufffd reconhecido como nome de cmdlet. Verifique a grafia\n" +
        "do nome e tente novamente.\nNo linha:1 caractere:1\n+ ='Stop'\n+ ~~~~~~~\n" +
        "    + CategoryInfo          : ObjectNotFound: (=Stop:String) [], CommandNotFoundException\n" +
        "    + FullyQualifiedErrorId : CommandNotFoundException",
    ),
    "=Stop : O termo '=Stop' n\ufffdo \ufffd reconhecido como nome de cmdlet. Verifique a grafia " +
      "do nome e tente novamente.",
  );
  assertEquals(
    errorLine(
      "\x1b[31;1mParserError: \x1b[0m\n\x1b[31;1mLine |\x1b[0m\n   1 |  $path='x'; (\n" +
        "     |             ~\n     | Missing closing ')' in expression.",
    ),
    "ParserError: Missing closing ')' in expression.",
  );
});

// Trial 73: a pasted log's kustomize error was cut before its root cause.
Deno.test("errorLine says a long chained error from its last named error on", () => {
  const chain = "kustomize build failed: accumulating resources: accumulation err='accumulating " +
    "resources from './apps': read /tmp/kustomization-1/apps: is a directory': recursed " +
    "accumulation of path '/tmp/kustomization-1/apps/media': MalformedYAMLError: yaml: line 1: " +
    "did not find expected '-' indicator in File: image-repository.yaml";
  assertEquals(
    errorLine(`{"level":"error","msg":"Reconciliation failed","error":${JSON.stringify(chain)}}`),
    "…MalformedYAMLError: yaml: line 1: did not find expected '-' indicator in File: " +
      "image-repository.yaml",
  );
  assertEquals(errorLine("error: short and plain"), "error: short and plain");
});
