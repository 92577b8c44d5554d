import { assertEquals } from "../../tests/_assert.ts";
import { indexSessions, type SessionSpec } from "../../tests/_memory.ts";
import { howRuns } from "./how.ts";

const s = (id: string, cwd: string, day: string, turns: SessionSpec["turns"]): SessionSpec => ({
  id,
  cwd,
  start: `2026-07-${day}T10:00:00Z`,
  turns,
});

const SESSIONS = [
  s("21210001-0000-4000-8000-000000000001", "/w/web", "01", [
    { bash: "docker build -t web .", out: "ok", exit: 0 },
    { bash: "docker build -t web .", out: "no space left", exit: 1 },
    { bash: "docker compose up -d", out: "ok", exit: 0 },
  ]),
  s("22220002-0000-4000-8000-000000000002", "/w/api", "02", [
    { bash: "docker  build -t web .", out: "ok", exit: 0 },
    { bash: "docker build -t api --no-cache .", out: "ok", exit: 0 },
  ]),
  s("23230003-0000-4000-8000-000000000003", "/w/api", "03", [
    { bash: "git status", out: "clean", exit: 0 },
    { bash: "Docker BUILD -t api --no-cache .", out: "ok", exit: 0 },
  ]),
];

Deno.test("howRuns ranks commands holding every word by sessions, with runs, last run and exit mix", async () => {
  const ix = await indexSessions(SESSIONS);
  try {
    const r = howRuns(ix.store, "docker build");
    assertEquals(r.words, ["docker", "build"]);
    assertEquals(r.total, 3);
    const [web, upper, api] = r.commands;
    assertEquals([web.command, web.sessions, web.runs, web.failed], [
      "docker build -t web .",
      2,
      3,
      1,
    ]);
    // Claude records no exit for a success: it counts as not recorded, not as ok.
    assertEquals([web.ok, web.unknown], [0, 2]);
    assertEquals(web.last, Date.parse("2026-07-02T10:01:00Z"));
    // One session each: the more recent first; case is kept, so the spellings stay apart.
    assertEquals([upper.command, api.command], [
      "Docker BUILD -t api --no-cache .",
      "docker build -t api --no-cache .",
    ]);
    assertEquals(howRuns(ix.store, "docker", { limit: 1 }).commands.length, 1);
    assertEquals(
      howRuns(ix.store, "docker build", { project: "/w/api" }).commands.map((c) => c.sessions),
      [1, 1, 1],
    );
    assertEquals(howRuns(ix.store, "kubectl").commands, []);
    assertEquals(howRuns(ix.store, "   ").total, 0);
  } finally {
    ix.cleanup();
  }
});

Deno.test("howRuns counts a run with no recorded status as failed when its output reports a failure", async () => {
  const ix = await indexSessions([
    s("24240004-0000-4000-8000-000000000004", "/w/k", "04", [
      {
        bash: "helm upgrade web ./chart",
        out: "Error: UPGRADE FAILED: another operation is in progress",
      },
      { bash: "helm upgrade web ./chart", out: 'Release "web" has been upgraded.' },
    ]),
  ]);
  try {
    const [h] = howRuns(ix.store, "helm upgrade").commands;
    assertEquals([h.runs, h.ok, h.failed, h.unknown], [2, 0, 1, 1]);
  } finally {
    ix.cleanup();
  }
});

// Regression (2027-01, real stores): `deja how git` listed `mkdir -p ~/.dotfiles/.github`, and
// `deja how git log` ranked first a command holding neither word as a word (`GITHUB_TOKEN … gh auth login`).
Deno.test("howRuns matches whole tokens, and a quoted phrase as contiguous words", async () => {
  const ix = await indexSessions([
    s("25250005-0000-4000-8000-000000000005", "/w/d", "05", [
      { bash: "mkdir -p ~/.dotfiles/.github", out: "", exit: 0 },
      { bash: "GITHUB_TOKEN=x gh auth login --with-catalog", out: "", exit: 0 },
      { bash: "git log --oneline", out: "abc", exit: 0 },
      { bash: "git --no-pager log -3", out: "abc", exit: 0 },
    ]),
  ]);
  try {
    const cmds = (q: string) => howRuns(ix.store, q).commands.map((c) => c.command).sort();
    assertEquals(cmds("git"), ["git --no-pager log -3", "git log --oneline"]);
    assertEquals(cmds("git log"), ["git --no-pager log -3", "git log --oneline"]);
    assertEquals(cmds('"git log"'), ["git log --oneline"]);
    assertEquals(howRuns(ix.store, '"git log"').words, ["git log"]);
    assertEquals(cmds("GIT"), cmds("git"), "case-insensitive still");
  } finally {
    ix.cleanup();
  }
});

Deno.test("how says a run's status that is not the command's own: exit 1 of grep, exit 0 (|| true)", async () => {
  // Trial 13: `grep -rn quarkle_legacy src/` exited 1 (nothing matched) and `how` said only
  // `runs: 1 exit unknown` beside `last_exit: 1`.
  const ix = await indexSessions([
    s("21210009-0000-4000-8000-000000000009", "/w/q", "09", [
      { bash: "grep -rn quarkle_legacy src/", out: "", exit: 1 },
      { bash: "make quarkle-lint || true", out: "error: 3 problems found", exit: 0 },
    ]),
  ]);
  try {
    const grep = howRuns(ix.store, "quarkle_legacy").commands[0];
    assertEquals([grep.unknown, grep.lastExit, grep.lastStatus], [1, 1, "exit 1 of grep"]);
    const lint = howRuns(ix.store, "quarkle-lint").commands[0];
    // Its output shows the failure its `|| true` hid from the status.
    assertEquals([lint.failed, lint.lastStatus.startsWith("failed")], [1, true]);
  } finally {
    ix.cleanup();
  }
});

// Trial 103 F12: `deja how git status` listed `git diff main...HEAD --name-status`, the word
// `status` matched inside the flag.
Deno.test("howRuns matches no word of the question inside a flag; a flag typed matches that flag", async () => {
  const ix = await indexSessions([
    s("25250012-0000-4000-8000-000000000012", "/w/d", "06", [
      { bash: "git status --short", out: "", exit: 0 },
      { bash: "git diff main...HEAD --name-status 2>&1 | head -60", out: "M a", exit: 0 },
      { bash: "rm -rf build", out: "", exit: 0 },
    ]),
  ]);
  try {
    const cmds = (q: string) => howRuns(ix.store, q).commands.map((c) => c.command).sort();
    assertEquals(cmds("git status"), ["git status --short"]);
    assertEquals(cmds("status"), ["git status --short"]);
    // Typed as a flag, a flag is found; its words are named as before.
    assertEquals(cmds("git --name-status"), [
      "git diff main...HEAD --name-status 2>&1 | head -60",
    ]);
    assertEquals(howRuns(ix.store, "git --name-status").words, ["git", "name status"]);
    assertEquals(cmds("rm -rf"), ["rm -rf build"]);
    assertEquals(cmds("rm build"), ["rm -rf build"]);
    assertEquals(cmds('"diff main head"'), ["git diff main...HEAD --name-status 2>&1 | head -60"]);
  } finally {
    ix.cleanup();
  }
});

// Trial 130 F3: `deja how git commit` listed first `git config --global commit.gpgsign`, the word
// `commit` only inside a dotted config key.
Deno.test("howRuns ranks a command holding a word only inside a dotted key below those holding it as a word", async () => {
  const key = "git config --global user.signingkey && git config --global commit.gpgsign";
  const ix = await indexSessions([
    s("26260013-0000-4000-8000-000000000013", "/w/d", "07", [
      { bash: key, out: "", exit: 1 },
      { bash: "git -c commit.gpgsign=false status", out: "", exit: 0 },
    ]),
    s("26260014-0000-4000-8000-000000000014", "/w/d", "08", [
      { bash: key, out: "", exit: 1 },
      { bash: 'git commit -m "add x"', out: "", exit: 0 },
    ]),
  ]);
  try {
    const cmds = (q: string) => howRuns(ix.store, q).commands.map((c) => c.command);
    // The key's command ran in two sessions, the commit in one: the commit still comes first.
    assertEquals(cmds("git commit"), [
      'git commit -m "add x"',
      key,
      "git -c commit.gpgsign=false status",
    ]);
    // A word of its own elsewhere in the command counts: `status` here is one.
    assertEquals(cmds("git status")[0], "git -c commit.gpgsign=false status");
    // Typed as the key, every command holding it is found, by sessions.
    assertEquals(cmds("commit.gpgsign"), [key, "git -c commit.gpgsign=false status"]);
  } finally {
    ix.cleanup();
  }
});

Deno.test("howRuns counts a ! shell-mode command once when a resumed session copies it (trial 103 F9)", async () => {
  // The same record at the same time in two sessions (a resumed copy): one run. A bare `!` is
  // no command; a word inside a flag is no match, as for the agent's commands.
  const turns: SessionSpec["turns"] = [
    { user: "<bash-input>kubectl rollout restart deploy/web</bash-input>" },
    { user: "<bash-stdout>deployment.apps/web restarted</bash-stdout>" },
    { user: "!" },
  ];
  const ix = await indexSessions([
    s("24240004-0000-4000-8000-000000000004", "/w/k8s", "04", turns),
    s("25250005-0000-4000-8000-000000000005", "/w/k8s", "04", turns),
  ]);
  try {
    const r = howRuns(ix.store, "kubectl rollout");
    assertEquals(
      r.commands.map((c) => [c.command, c.runs, c.sessions, c.person, c.unknown, c.lastByPerson]),
      [["kubectl rollout restart deploy/web", 1, 1, 1, 1, true]],
    );
    assertEquals(howRuns(ix.store, "restarted").total, 0);
  } finally {
    ix.cleanup();
  }
});
