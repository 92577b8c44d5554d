import { assertEquals } from "../../tests/_assert.ts";
import { shellReadPaths } from "./shell_reads.ts";

Deno.test("shellReadPaths reads the files of read verbs, options and sed's script aside", () => {
  const p = "/w/p";
  assertEquals(shellReadPaths("cat a.py", p), ["/w/p/a.py"]);
  assertEquals(shellReadPaths("sed -n 1,200p src/app.py", p), ["/w/p/src/app.py"]);
  assertEquals(shellReadPaths("sed -n -e 5p x.py y.py", p), ["/w/p/x.py", "/w/p/y.py"]);
  assertEquals(shellReadPaths("head -n 50 a.py && tail -20 /etc/hosts", p), [
    "/w/p/a.py",
    "/etc/hosts",
  ]);
  assertEquals(shellReadPaths("nl -ba a.py | sed -n '10,40p'", p), ["/w/p/a.py"]);
  assertEquals(shellReadPaths("bat -r 1:40 --style=plain a.py", p), ["/w/p/a.py"]);
  assertEquals(shellReadPaths("cd src && cat app.py 2>/dev/null", p), ["/w/p/src/app.py"]);
  assertEquals(shellReadPaths("cat a.py", null), ["a.py"]);
  assertEquals(shellReadPaths("cd src && cat app.py", null), ["src/app.py"]);
});

Deno.test("shellReadPaths reads nothing of commands that only name a file, nor of sed -i", () => {
  const p = "/w/p";
  for (
    const line of [
      "git add a.py",
      "rm a.py",
      "echo a.py",
      "grep -n foo a.py",
      "sed -i 's/a/b/' a.py",
      "sed -ni 1p a.py",
      "cat > a.py <<'EOF'\nx\nEOF",
      "cat *.py",
      "cat $F",
      "cd $D && cat a.py",
      "type a.py",
    ]
  ) {
    assertEquals(shellReadPaths(line, p), [], line);
  }
});

Deno.test("shellReadPaths reads PowerShell's Get-Content in a Windows project, backslashes as separators", () => {
  const w = "C:\\Users\\u\\Proj";
  assertEquals(shellReadPaths("Get-Content pyproject.toml", w), [
    "C:\\Users\\u\\Proj\\pyproject.toml",
  ]);
  assertEquals(
    shellReadPaths("$i=1; Get-Content src\\pkg\\crew.py | ForEach-Object { $_ }", w),
    ["C:\\Users\\u\\Proj\\src\\pkg\\crew.py"],
  );
  assertEquals(shellReadPaths("gc -TotalCount 20 -Path 'a b.txt'", w), [
    "C:\\Users\\u\\Proj\\a b.txt",
  ]);
  assertEquals(shellReadPaths("type README.md", w), ["C:\\Users\\u\\Proj\\README.md"]);
  assertEquals(shellReadPaths("Set-Location sub; cat x.ps1", w), [
    "C:\\Users\\u\\Proj\\sub\\x.ps1",
  ]);
});

Deno.test("shellReadPaths reads the command line of a shell wrapper as its own (trial 132 F6)", () => {
  const p = "/w/p";
  assertEquals(shellReadPaths('powershell.exe -Command "Get-Content lib/v6.py"', p), [
    "/w/p/lib/v6.py",
  ]);
  assertEquals(
    shellReadPaths('powershell -NoProfile -Command "Get-Content -Path lib/x.py -TotalCount 5"', p),
    ["/w/p/lib/x.py"],
  );
  assertEquals(shellReadPaths("pwsh -c 'type a.py'", p), ["/w/p/a.py"]);
  assertEquals(shellReadPaths("bash -lc 'cd lib && cat db.py'", p), ["/w/p/lib/db.py"]);
  // The wrapper's `cd` stays inside it.
  assertEquals(shellReadPaths("bash -c 'cd lib' && cat a.py", p), ["/w/p/a.py"]);
  assertEquals(shellReadPaths('sh -c "head -n 5 a.py"', p), ["/w/p/a.py"]);
  assertEquals(
    shellReadPaths(
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -Command "gc src\\a.py"',
      "C:\\w\\p",
    ),
    ["C:\\w\\p\\src\\a.py"],
  );
  // Narrowly: a script file, an unknown option, or a third wrapper read nothing.
  for (
    const line of [
      "bash run.sh",
      "pwsh -File read.ps1",
      "bash --rcfile x -c 'cat a.py'",
      `bash -c "sh -c 'bash -c \\"cat a.py\\"'"`,
      "bash -c 'rm a.py'",
    ]
  ) {
    assertEquals(shellReadPaths(line, p), [], line);
  }
});

Deno.test("shellReadPaths keeps a PowerShell or cmd wrapper's backslashes, even in a POSIX project (trial 133 F8)", () => {
  const p = "/srv/acme/wrap";
  assertEquals(
    shellReadPaths(
      "powershell.exe -NoProfile -Command \"Get-Content -Path 'C:\\Users\\me\\wrap\\a04.txt'\"",
      p,
    ),
    ["C:\\Users\\me\\wrap\\a04.txt"],
  );
  // Unquoted, and behind a `cd`: the PowerShell command is split with its backslashes kept.
  assertEquals(shellReadPaths("cd /tmp && pwsh -c gc C:\\w\\b.txt", p), ["C:\\w\\b.txt"]);
  // A bash wrapper's command follows bash: in double quotes `\\` is one `\`, `\b` is kept.
  assertEquals(shellReadPaths(String.raw`bash -c "cat 'a\b.txt' c\\\\d.txt"`, p), [
    "/srv/acme/wrap/a\\b.txt",
    "/srv/acme/wrap/c\\d.txt",
  ]);
  assertEquals(shellReadPaths("cat a\\ b.txt", p), ["/srv/acme/wrap/a b.txt"]);
});

Deno.test("shellReadPaths reads behind timeout, nice, env, sudo, command, time, cmd /c and a wrapper in a wrapper (trial 133 F11)", () => {
  const p = "/w/p";
  for (
    const line of [
      "timeout 5 cat a.py",
      "timeout -s KILL 10s head -n 3 a.py",
      "nice -n 10 cat a.py",
      "env X=1 Y=2 cat a.py",
      "env -i cat a.py",
      "sudo -u root cat a.py",
      "command cat a.py",
      "time -p cat a.py",
      "sudo timeout 5 nice cat a.py",
      "timeout 5 bash -c 'cat a.py'",
      "bash -c \"bash -c 'cat a.py'\"",
      "sh -c \"powershell -Command 'gc a.py'\"",
      "cmd /c type a.py",
      'cmd.exe /s /c "type a.py"',
    ]
  ) {
    assertEquals(shellReadPaths(line, p), ["/w/p/a.py"], line);
  }
  assertEquals(shellReadPaths("cmd /c type C:\\Users\\me\\a05.txt", p), [
    "C:\\Users\\me\\a05.txt",
  ]);
  for (const line of ["command -v cat a.py", "env -C sub cat a.py", "timeout 5", "cmd /x type a"]) {
    assertEquals(shellReadPaths(line, p), [], line);
  }
});
