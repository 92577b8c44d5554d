/**
 * `deja resume` refuses sessions whose store the harness's command does not
 * read (lib/resume_source.ts): the prompts of a session whose transcript is
 * gone (Claude Code and Codex `history.jsonl`, Gemini CLI `logs.json`), while
 * `deja handoff` still carries them on and sessions with a transcript still resume.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { claudeLines } from "./_memory.ts";
import { parsers } from "../parsers/mod.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { DejaError } from "../core/errors.ts";
import { resumePlan } from "../lib/resume.ts";
import { handoffPlan } from "../lib/handoff.ts";
import type { Env } from "../core/model.ts";

const KEPT = "c1a0de00-0000-4000-8000-000000000001";
const CLAUDE_GONE = "c1a0de00-0000-4000-8000-0000000000ff";
const CODEX_GONE = "019da910-1d2d-7883-b552-6e3adf8a4ed9";
const GEMINI_GONE = "9e3101a0-0000-4000-8000-000000000007";

/** Claude Code, Codex and Gemini CLI stores whose histories name sessions with no transcript. */
async function world(): Promise<{ env: Env; root: string; store: Store }> {
  const root = tempDir("deja-resume-src-");
  const project = join(root, "work", "app");
  mkdirSync(project, { recursive: true });
  const claude = join(root, "claude");
  const folder = join(claude, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
  mkdirSync(folder, { recursive: true });
  const kept = { id: KEPT, cwd: project, start: "2026-11-01T10:00:00Z" };
  writeFileSync(
    join(folder, `${KEPT}.jsonl`),
    claudeLines({ ...kept, turns: [{ user: "kept transcript" }, { say: "ok" }] }).join("\n") + "\n",
  );
  writeFileSync(
    join(claude, "history.jsonl"),
    [
      { display: "kept transcript", timestamp: 1761991200000, project, sessionId: KEPT },
      {
        display: "wire the ledger export",
        timestamp: 1761991260000,
        project,
        sessionId: CLAUDE_GONE,
      },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  const codex = join(root, "codex");
  mkdirSync(codex, { recursive: true });
  writeFileSync(
    join(codex, "history.jsonl"),
    JSON.stringify({ session_id: CODEX_GONE, ts: 1761991300, text: "rename the billing module" }) +
      "\n",
  );
  const gemini = join(root, "gemini", "tmp", "app");
  mkdirSync(gemini, { recursive: true });
  writeFileSync(
    join(gemini, "logs.json"),
    JSON.stringify([{
      sessionId: GEMINI_GONE,
      messageId: 0,
      type: "user",
      message: "draft the release notes",
      timestamp: "2026-11-01T10:05:00.000Z",
    }]),
  );
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CLAUDE_ROOT: join(claude, "projects"),
    DEJA_CODEX_ROOT: codex,
    DEJA_GEMINI_ROOT: join(root, "gemini"),
    TZ: "UTC",
  });
  await runIndex(env, parsers, { only: ["claude", "codex", "gemini"] });
  return { env, root, store: Store.open(indexPath(env)) };
}

Deno.test("resume refuses a session known only from a prompt history, and handoff still carries it on", async () => {
  const w = await world();
  try {
    for (
      const [ref, file] of [
        [`claude:${CLAUDE_GONE}`, "history.jsonl"],
        [`codex:${CODEX_GONE.slice(0, 8)}`, "history.jsonl"],
        [`gemini:${GEMINI_GONE.slice(0, 8)}`, "logs.json"],
      ]
    ) {
      const e = assertThrows(() => resumePlan(w.store, ref), DejaError) as DejaError;
      assertEquals(e.exitCode, 2, ref);
      assertStringIncludes(e.message, `prompt history (${file})`);
      assertStringIncludes(e.message, "only its prompts remain; its transcript is gone");
      assertStringIncludes(e.hint ?? "", "deja show");
      assertStringIncludes(e.hint ?? "", "deja handoff --to <harness>");
    }
    const h = handoffPlan(w.store, "crush", `codex:${CODEX_GONE.slice(0, 8)}`, w.root);
    assertEquals(h.from.native_id, CODEX_GONE);
    assertStringIncludes(h.packet, "rename the billing module");
  } finally {
    w.store.close();
  }
});

Deno.test("resume still reopens a session whose transcript the harness keeps", async () => {
  const w = await world();
  try {
    const p = resumePlan(w.store, `claude:${KEPT}`);
    assertEquals(p.argv, ["claude", "--resume", KEPT]);
    assert(p.cwd?.endsWith(join("work", "app")));
  } finally {
    w.store.close();
  }
});
