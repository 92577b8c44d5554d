/**
 * One rule for a command's outcome (lib/memory/outcome.ts), held by every
 * surface: `show`, `view`, `ctx`, `how` and MCP judge the same Crush session
 * alike. Before, `show` read only the store's status (a run whose output
 * reports a failure read as nothing there, `failed` in `ctx`), and Crush's
 * successful runs were `exit unknown` everywhere (Crush writes `Exit code N`
 * only when N is not 0).
 */
import { assert, assertEquals } from "./_assert.ts";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Env } from "../core/model.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { showJson, showSession, showText } from "../lib/cli/cmd_show.ts";
import { sessionDigest } from "../lib/memory/digest.ts";
import { howRuns } from "../lib/memory/how.ts";
import { sessionPage } from "../lib/view/session.ts";
import { activityPage } from "../lib/view/activity.ts";
import { callDeja } from "../lib/mcp/call.ts";
import { Store } from "../lib/store.ts";
import { indexPath } from "../core/paths.ts";
import { crushTables, listProjects } from "./_crush_tiny.ts";

const SID = "7e57a11e-0000-4000-8000-000000000001";

/** Each run: its command, its result (content, is_error; none: no result), the outcome wanted. */
const RUNS: Array<[string, [string, boolean] | null, string]> = [
  ["kit one", ["a\nb", false], "ok"], // no `Exit code` line: exit 0
  ["kit two", ["cat: missing.txt: No such file or directory\nExit code 1", false], "failed"],
  ["kit three", ["boom", true], "failed"], // the error flag, no exit
  // Aborted (no exit), its output reporting a failure.
  ["kit four", ["FAILED tests/a.py::t\nCommand was aborted before completion", false], "failed"],
  ["kit five", ["partial\nCommand was aborted before completion", false], "unknown"],
  ["kit six", null, "unknown"], // never answered: no result
  // Exit 0 from the filter last in the pipe, not from the command: the output decides.
  ["kit eight | head -5", ["Invalid KIT_TOKEN. Please check that it is valid", false], "unknown"],
  ["kit nine | tail -3", ["error: kit nine cannot open its lock", false], "failed"],
];

/** A call the person refused: it never ran, so no surface counts it as a command. */
const DENIED = "kit seven";

/** A session of a throwaway project: `kit two` fails there too, and `kit broken`. */
const SCRATCH_SID = "5c7a7c40-0000-4000-8000-000000000002";
const SCRATCH: typeof RUNS = [
  ["kit two", ["cat: missing.txt: No such file or directory\nExit code 1", false], "failed"],
  ["kit broken", ["Exit code 2", false], "failed"],
];

/** A Crush store of one session `sid` running `runs`. */
function crushStore(path: string, sid: string, runs: typeof RUNS): void {
  const db = new DatabaseSync(path);
  try {
    crushTables(db);
    db.prepare("INSERT INTO sessions VALUES (?, 'kit runs', 1000, 1010)").run(sid);
    const msg = db.prepare("INSERT INTO messages VALUES (?, ?, ?, ?, ?)");
    const rows: Array<[string, unknown[]]> = [
      ["user", [{ type: "text", data: { text: "run the kit commands" } }]],
    ];
    runs.forEach(([command, result], i) => {
      const id = `c${i}`;
      rows.push(["assistant", [{
        type: "tool_call",
        data: { id, name: "bash", input: JSON.stringify({ command }), finished: true },
      }]]);
      if (result) {
        rows.push(["tool", [{
          type: "tool_result",
          data: { tool_call_id: id, name: "bash", content: result[0], is_error: result[1] },
        }]]);
      }
    });
    rows.forEach(([role, parts], i) =>
      msg.run(`${sid}-m${i}`, sid, role, JSON.stringify(parts), 1001 + i)
    );
  } finally {
    db.close();
  }
}

/** The row id of the throwaway project's session. */
function scratchRow(store: Store): number {
  const r = store.db.prepare("SELECT id FROM sessions WHERE native_id = ?").get(SCRATCH_SID);
  return (r as { id: number }).id;
}

/** The failed-commands chart of view's Activity page: each command and its count. */
function failedChart(page: string): Array<[string, number]> {
  const part = page.slice(page.indexOf("Commands that failed most"));
  return [...part.matchAll(/<td><code>([^<]*)<\/code><\/td>\s*<td class="num">(\d+)<\/td>/g)]
    .map((m) => [m[1], Number(m[2])]);
}

/** The outcome a `how` command's counts give its one run. */
function oneOutcome(c: { ok: number; failed: number; unknown: number }): string {
  return c.ok ? "ok" : c.failed ? "failed" : "unknown";
}

async function indexed(root: string): Promise<Env> {
  const home = join(root, "home");
  const project = join(home, "proj"); // inside the home: not a throwaway project
  const scratch = join(home, "tmp.k3j9x2ab"); // a sandbox-looking folder: throwaway
  for (const p of [project, scratch]) mkdirSync(join(p, ".crush"), { recursive: true });
  mkdirSync(join(root, "crush"), { recursive: true });
  listProjects(root, [project, scratch]);
  // Then the call the person refused, after the runs.
  crushStore(join(project, ".crush", "crush.db"), SID, [
    ...RUNS,
    [DENIED, ["User denied permission", true], ""],
  ]);
  crushStore(join(scratch, ".crush", "crush.db"), SCRATCH_SID, SCRATCH);
  const env = testEnv(home, {
    DEJA_HOME: join(root, "deja"),
    DEJA_CRUSH_ROOT: join(root, "crush"),
    DEJA_NO_REFRESH: "1",
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["crush"] });
  return env;
}

Deno.test("show, view, ctx, how and MCP give every command of one session the same outcome", async () => {
  const root = tempDir("deja-outcome-rule-");
  try {
    const env = await indexed(root);
    const want = RUNS.map(([command, , o]) => [command, o]);
    const store = Store.open(indexPath(env));
    try {
      const show = showJson(showSession(store, SID.slice(0, 8)));
      const events = show.events as Array<
        { kind: string; text: string; outcome?: string; not_run?: boolean; exit_of?: string }
      >;
      const calls = events.filter((e) => e.kind === "tool_call");
      assertEquals(
        calls.filter((e) => e.outcome).map((e) => [e.text.slice(2), e.outcome]),
        want,
        "show --json",
      );
      // A command's result says what its call says (trial 12: a filter's status made them differ).
      const byCall = new Map(
        (show.events as Array<{ kind: string; call_id: string | null; outcome?: string }>)
          .filter((e) => e.kind === "tool_call" && e.outcome).map((e) => [e.call_id, e.outcome]),
      );
      for (const e of show.events as Array<{ kind: string; call_id: string; outcome?: string }>) {
        if (e.kind === "tool_result" && e.outcome) assertEquals(e.outcome, byCall.get(e.call_id));
      }
      // A status the pipe's last program returned is named as its, in JSON and in text.
      assertEquals(
        calls.filter((e) => "exit_of" in e).map((e) => [e.text.slice(2), e.exit_of]),
        [["kit eight | head -5", "head"], ["kit nine | tail -3", "tail"]],
      );
      const text = showText(showSession(store, SID.slice(0, 8)), { isTTY: false, env }, false);
      assert(text.includes("tool_call bash exit 0 of head"), text);
      // The refused call: not run, with no outcome, and no command row behind it.
      assertEquals(calls.filter((e) => !e.outcome).map((e) => [e.text.slice(2), e.not_run]), [
        [DENIED, true],
      ]);
      assertEquals(
        store.db.prepare("SELECT COUNT(*) AS n FROM commands WHERE command = ?").get(DENIED),
        { n: 0 },
      );

      const row = store.db.prepare("SELECT id FROM sessions WHERE native_id = ?").get(SID) as {
        id: number;
      };
      assertEquals(
        sessionDigest(store, row.id).commands.map((c) => [c.command, c.outcome]),
        want,
        "ctx",
      );

      const page = sessionPage({ base: "/t", store, env, now: 0 }, "crush", SID) ?? "";
      const drawn = [
        ...page.matchAll(/<pre class="cmd">\$ ([^<]*)<\/pre><span class="st st-(\w+)">/g),
      ]
        .map((m) => [m[1], m[2]]);
      // The refused call is drawn as its command marked not run (trial 126 F5), never as a run.
      assertEquals(
        drawn.filter(([c]) => c === DENIED),
        [[DENIED, "not_run"]],
        "view's refused call",
      );
      assertEquals(drawn.filter(([c]) => c !== DENIED), want, "view");

      const how = howRuns(store, "kit", { limit: 10, hidden: new Set([scratchRow(store)]) })
        .commands;
      const byHow = new Map(how.map((c) => [c.command, oneOutcome(c)]));
      assertEquals(RUNS.map(([command]) => [command, byHow.get(command)]), want, "how");
    } finally {
      store.close();
    }

    const mcp = await callDeja({ mode: "how", query: "kit", limit: 10 }, {
      env,
      cwd: join(env.home, "proj"),
      log: () => {},
    });
    const text = mcp.content[0].text;
    const label: Record<string, string> = {
      ok: "1 ok",
      failed: "1 failed",
      unknown: "1 exit unknown",
    };
    const byMcp = new Map(
      [...text.matchAll(/^- (.+)\n .*runs: (.+)$/gm)].map((m) => [m[1], m[2]]),
    );
    assertEquals(
      RUNS.map(([command]) => [command, byMcp.get(command)]),
      // A call never answered is `unknown`, said as ctx says it (trial 103 F7); a lone run whose
      // status is a filter's (unknown all the same) says that status, as `deja how` does (trial
      // 109 F4).
      RUNS.map(([command, result, o]) => [
        command,
        !result ? "1 no result" : command.endsWith("| head -5") ? "exit 0 of head" : label[o],
      ]),
      text,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Regression (2026-12, new-user trial): the Activity page left throwaway projects' sessions out
// of every chart but the commands that failed most, which listed and counted them all the same.
Deno.test("view's Activity counts failed commands of throwaway projects only when they are shown", async () => {
  const root = tempDir("deja-outcome-activity-");
  try {
    const env = await indexed(root);
    const store = Store.open(indexPath(env));
    try {
      const ctx = { base: "/t", store, env, now: Date.parse("2026-12-01T00:00:00Z") };
      assertEquals(failedChart(activityPage(ctx, false)).sort(), [
        ["kit four", 1],
        ["kit nine | tail -3", 1],
        ["kit three", 1],
        ["kit two", 1],
      ]);
      assertEquals(failedChart(activityPage(ctx, true)).sort(), [
        ["kit broken", 1],
        ["kit four", 1],
        ["kit nine | tail -3", 1],
        ["kit three", 1],
        ["kit two", 2],
      ]);
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
