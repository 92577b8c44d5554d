import { assert, assertEquals } from "../tests/_assert.ts";
import { indexSessions } from "../tests/_memory.ts";
import { normalizeProject, projectArg, projectHolds } from "./project_path.ts";
import { Q } from "./schema.ts";
import { lastSessions } from "./memory/last.ts";
import { runIndex } from "./indexer.ts";
import { parsers } from "../parsers/mod.ts";

Deno.test("normalizeProject upper-cases a Windows drive letter and keeps everything else", () => {
  assertEquals(normalizeProject("c:\\Users\\x\\proj"), "C:\\Users\\x\\proj");
  assertEquals(normalizeProject("d:/src/app"), "D:/src/app");
  assertEquals(normalizeProject("C:\\Users\\x"), "C:\\Users\\x");
  assertEquals(normalizeProject("/home/c:/x"), "/home/c:/x");
  assertEquals(normalizeProject("ab:\\x"), "ab:\\x");
  // A remote's project (trial 79: `box:c:\x` and `box:C:\x` were two projects).
  assertEquals(normalizeProject("box:c:\\Users\\x"), "box:C:\\Users\\x");
  assertEquals(normalizeProject("box-2:d:/src"), "box-2:D:/src");
  assertEquals(normalizeProject("box:/home/c:/x"), "box:/home/c:/x");
});

// Regression (2027-01, real Claude Code stores): the VS Code extension wrote `c:\Users\…` and the
// CLI `C:\Users\…` for one folder, and stats, last and --project counted two projects.
Deno.test("sessions of one Windows folder written with either drive-letter case are one project", async () => {
  const ix = await indexSessions([
    {
      id: "61610001-0000-4000-8000-000000000001",
      cwd: "c:\\Users\\x\\proj",
      start: "2026-06-01T10:00:00Z",
      turns: [{ user: "one" }],
    },
    {
      id: "62620002-0000-4000-8000-000000000002",
      cwd: "C:\\Users\\x\\proj",
      start: "2026-06-02T10:00:00Z",
      turns: [{ user: "two" }],
    },
  ]);
  try {
    const projects = Q.projects.all(ix.store, {}).map((r) => r.project);
    assertEquals(projects, ["C:\\Users\\x\\proj"]);
    assertEquals(lastSessions(ix.store, { project: "C:\\Users\\x\\proj" }).sessions.length, 2);
    // An index written before the rule: the next run brings its rows in line.
    ix.store.db.exec("UPDATE sessions SET project = 'c:\\Users\\x\\proj'");
    await runIndex(ix.env, parsers);
    assertEquals(
      Q.projects.all(ix.store, {}).map((r) => r.project),
      ["C:\\Users\\x\\proj"],
    );
    // A remote's, labelled before the rule read its label (trial 79); a Unix one is kept.
    ix.store.db.exec(
      "UPDATE sessions SET project = CASE WHEN rowid % 2 THEN 'box:c:\\Users\\x\\proj' " +
        "ELSE 'box:/home/c:/x' END",
    );
    await runIndex(ix.env, parsers);
    assertEquals(
      Q.projects.all(ix.store, {}).map((r) => r.project).sort(),
      ["box:/home/c:/x", "box:C:\\Users\\x\\proj"],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("projectArg reads a leading ~ as the home directory and keeps anything else", () => {
  assertEquals(projectArg("~/proj/x", "/home/u"), "/home/u/proj/x");
  assertEquals(projectArg("~", "/home/u/"), "/home/u");
  assertEquals(projectArg("~user/x", "/home/u"), "~user/x");
  assertEquals(projectArg("proj/~/x", "/home/u"), "proj/~/x");
});

Deno.test("projectArg drops trailing separators so '~/proj/x/' names the same project as '~/proj/x'", () => {
  assertEquals(projectArg("~/proj/k3s/", "/home/u"), "/home/u/proj/k3s");
  assertEquals(projectArg("/w/app//", "/home/u"), "/w/app");
  assertEquals(projectArg("C:\\Users\\user\\dev\\x\\", ""), "C:\\Users\\user\\dev\\x");
  assertEquals(projectArg("/", "/home/u"), "/");
  assertEquals(projectArg("C:\\", ""), "C:\\");
  assertEquals(projectArg("~/", "/home/u"), "/home/u");
});

Deno.test("projectHolds reads either slash form of a Windows path, case-insensitively", () => {
  assert(projectHolds("C:\\Users\\me\\Vault", "c:/users/me/vault"));
  assert(projectHolds("C:\\Users\\me\\Vault", "me\\Vault"));
  assert(!projectHolds("/w/proj-x", "proj/x"));
});

// Trial 79 F6: `sources --verbose` listed `box:/Users/x/.senpi/agent/sessions` among Senpi's
// roots, a remote's project taken for a folder of this machine.
Deno.test("a remote's projects are looked in for no project-local store of this machine", async () => {
  const { sourcesData } = await import("./cli/cmd_sources.ts");
  const ix = await indexSessions([{
    id: "63630003-0000-4000-8000-000000000003",
    cwd: "/w/local-app",
    start: "2026-06-01T10:00:00Z",
    turns: [{ user: "one" }],
  }, {
    id: "64640004-0000-4000-8000-000000000004",
    cwd: "/w/other",
    start: "2026-06-02T10:00:00Z",
    turns: [{ user: "two" }],
  }]);
  try {
    ix.store.db.exec(
      "UPDATE sessions SET project = 'box:/w/remote-app' WHERE project = '/w/other'",
    );
    const senpi = (await sourcesData(ix.env)).harnesses.find((h) => h.harness === "senpi")!;
    const roots = senpi.roots.map((r) => r.path);
    assert(roots.some((r) => r.startsWith("/w/local-app/")), JSON.stringify(roots));
    assert(!roots.some((r) => r.includes("remote-app")), JSON.stringify(roots));
  } finally {
    ix.cleanup();
  }
});
