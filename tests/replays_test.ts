/**
 * Calls one session replays from another are counted once (lib/replays.ts; trial 19: a
 * Claude Code compaction subagent replays its parent's records, a resumed session copies the
 * one it resumed, and `how`, `blame` and `fix` counted each call two or three times).
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeLines, indexSessions, type SessionSpec } from "./_memory.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "../parsers/mod.ts";
import { runMain } from "./_cli_io.ts";

const PARENT: SessionSpec = {
  id: "b6a0b148-db15-4f6a-a926-bc51df315ca8",
  cwd: "/w/shop",
  start: "2026-11-20T10:00:00Z",
  turns: [
    { user: "The production build is broken, can you fix it?" },
    {
      bash: "npm run build",
      out: "src/cart.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      exit: 1,
    },
    { edit: "/w/shop/src/cart.ts", old: "total = item.price", new: "total = Number(item.price)" },
    { bash: "npm run build", out: "built", exit: 0 },
    { say: "Fixed: the price is parsed before it is added." },
  ],
};

/** Writes a JSONL store of `lines`. */
function writeLines(path: string, lines: string[]): void {
  writeFileSync(path, lines.join("\n") + "\n");
}

/** `lines` as another session's: the same records, another session id (and subagent). */
function copied(lines: string[], sid: string, agent?: string): string[] {
  return lines.map((l) => {
    const r = JSON.parse(l);
    r.sessionId = sid;
    if (agent) Object.assign(r, { isSidechain: true, agentId: agent });
    return JSON.stringify(r);
  });
}

Deno.test("a compaction subagent's and a resumed session's copies of calls are counted once", async () => {
  const ix = await indexSessions([PARENT]);
  try {
    const project = join(ix.root, "claude", "-w-shop");
    const lines = claudeLines(PARENT);
    // The compaction subagent beside the parent replays its records, then summarises.
    const sub = join(project, PARENT.id, "subagents");
    mkdirSync(sub, { recursive: true });
    writeLines(
      join(sub, "agent-acompact-1234abcd5678ef90.jsonl"),
      copied(lines, PARENT.id, "acompact-1234abcd5678ef90"),
    );
    // A resumed session: the same records under a new id, then work of its own.
    const resumed = "9cdc4510-53e6-4496-a8a7-59d7795fb01e";
    const own = claudeLines({
      id: resumed,
      cwd: "/w/shop",
      start: "2026-11-21T10:00:00Z",
      turns: [{ user: "Push it." }, { bash: "git push origin main", out: "ok", exit: 0 }],
    });
    writeLines(join(project, `${resumed}.jsonl`), [...copied(lines, resumed), ...own]);
    await runIndex(ix.env, parsers, { only: ["claude"] });
    const replays = ix.store.db.prepare("SELECT COUNT(*) AS n FROM replays").get() as { n: number };
    assertEquals(replays.n, 6, "3 calls replayed twice each");

    const how = await runMain(ix.env, ["how", "npm run build", "--json", "--no-refresh"]);
    const c = JSON.parse(how.out).commands[0];
    assertEquals([c.command, c.sessions, c.runs, c.session], ["npm run build", 1, 2, PARENT.id]);
    const blame = JSON.parse(
      (await runMain(ix.env, ["blame", "/w/shop/src/cart.ts", "--json", "--no-refresh"])).out,
    );
    assertEquals(blame.sessions.map((s: { id: string }) => s.id), [PARENT.id]);
    const fix = JSON.parse(
      (await runMain(ix.env, [
        "fix",
        "--json",
        "--no-refresh",
        "error TS2322: Type 'string' is not assignable to type 'number'.",
      ])).out,
    );
    assertEquals([fix.seen, fix.fixes[0].sessions], [1, 1]);
    // The copy still shows its own calls, the replayed ones with their status.
    const show = await runMain(ix.env, ["show", resumed, "--no-refresh"]);
    assertStringIncludes(show.out, "npm run build");
    assertStringIncludes(show.out, "exit 1");
    assert(show.out.includes("git push origin main"));
    // `how` of the copy's own work counts it.
    const push = await runMain(ix.env, ["how", "git push", "--no-refresh"]);
    assertStringIncludes(push.out, "1 time");
  } finally {
    ix.cleanup();
  }
});

Deno.test("calls of one id at other times are other calls; a resumed copy's new re-run is its fix", async () => {
  // Trial 20: Kimi K2 names the first call of every session `functions.Bash:0`: three
  // unrelated sessions running `npm test` were counted as one run. And a resumed session
  // whose re-run passed (a new call) was "nothing that followed fixed it".
  const ix = await indexSessions([PARENT]);
  try {
    const project = join(ix.root, "claude", "-w-shop");
    const same = (sid: string, day: string) =>
      claudeLines({
        id: sid,
        cwd: "/w/shop",
        start: `2026-11-${day}T10:00:00Z`,
        turns: [{ user: "run the tests" }, { bash: "npm test", out: "ok", exit: 0 }],
      }).map((l) => l.replaceAll(/toolu_[0-9a-z]+_(\d+)/g, "functions.Bash:$1"));
    writeLines(
      join(project, "aaaa0001-0000-4000-8000-000000000001.jsonl"),
      same("aaaa0001-0000-4000-8000-000000000001", "01"),
    );
    writeLines(
      join(project, "aaaa0002-0000-4000-8000-000000000002.jsonl"),
      same("aaaa0002-0000-4000-8000-000000000002", "02"),
    );
    // The original ends on the error, edited; its resumed copy runs the build again, passing.
    const broken: SessionSpec = {
      ...PARENT,
      id: "cccc0003-0000-4000-8000-000000000003",
      turns: PARENT.turns.slice(0, 3),
    };
    const lines = claudeLines(broken);
    writeLines(join(project, `${broken.id}.jsonl`), lines);
    const resumed = "dddd0004-0000-4000-8000-000000000004";
    const again = claudeLines({
      id: resumed,
      cwd: "/w/shop",
      start: "2026-11-22T10:00:00Z",
      turns: [{ user: "try again" }, { bash: "npm run build", out: "built", exit: 0 }],
    });
    writeLines(join(project, `${resumed}.jsonl`), [...copied(lines, resumed), ...again]);
    await runIndex(ix.env, parsers, { only: ["claude"] });
    const how = JSON.parse(
      (await runMain(ix.env, ["how", "npm test", "--json", "--no-refresh"])).out,
    );
    assertEquals([how.commands[0].sessions, how.commands[0].runs], [2, 2]);
    const fix = JSON.parse(
      (await runMain(ix.env, [
        "fix",
        "--json",
        "--no-refresh",
        "error TS2322: Type 'string' is not assignable to type 'number'.",
      ])).out,
    );
    const resumedFix = fix.fixes.find((f: { examples: Array<{ session: string }> }) =>
      f.examples.some((e) => e.session === resumed)
    );
    assert(resumedFix, JSON.stringify(fix.fixes));
    // The edit is the fix, the build run again its check (trial 105 F4).
    assertEquals([resumedFix.command, resumedFix.rerun, resumedFix.checked], [
      "edit /w/shop/src/cart.ts",
      "npm run build",
      true,
    ]);
  } finally {
    ix.cleanup();
  }
});
