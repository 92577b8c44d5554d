/**
 * `deja resume` refuses sessions whose store the harness's command does not
 * read (lib/resume_source.ts): the prompts of a session whose transcript is
 * gone (Claude Code and Codex `history.jsonl`, Gemini CLI `logs.json`), and
 * an editor's chat history the CLI does not read (Cline, Kilo Code, Cursor,
 * Kiro); `deja handoff` still carries them on, and the CLI stores' sessions
 * still resume.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "./_assert.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "./_fixture.ts";
import { tempDir } from "./_tmp.ts";
import { claudeLines, fileSession } from "./_memory.ts";
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
    // Sessions an index made of Kimi CLI's and opencode's histories before they were named
    // `prompt-history-*`: told by the file.
    filed(w.store, null, [
      ["kimi", "history-697a0ebe", "/home/u/.kimi/user-history/697a0ebe.jsonl"],
      ["opencode", "oc-history", "/home/u/.local/state/opencode/prompt-history.jsonl"],
    ]);
    for (const ref of ["kimi:history-697a0ebe", "opencode:oc-history"]) {
      const e = assertThrows(() => resumePlan(w.store, ref), DejaError) as DejaError;
      assertStringIncludes(e.message, "only its prompts remain", ref);
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

/** Sessions filed by hand under `source` paths, as the parsers file them (the rule reads only the path). */
function filed(store: Store, project: string | null, rows: Array<[string, string, string]>): void {
  for (const [harness, native_id, source] of rows) {
    fileSession(store, { harness, native_id, source, project });
  }
}

Deno.test("resume refuses a session that lives in an editor's chat history, naming the editor, and keeps CLI stores", async () => {
  const w = await world();
  try {
    const home = "/home/u";
    const code = `${home}/.config/Code/User/globalStorage`;
    filed(w.store, w.root, [
      [
        "cline",
        "1761000000000",
        `${code}/saoudrizwan.claude-dev/tasks/1761000000000/api_conversation_history.json`,
      ],
      [
        "kilocode",
        "kc-task-1",
        `${code}/kilocode.kilo-code/tasks/kc-task-1/api_conversation_history.json`,
      ],
      ["cursor", "785db00a-32e9", `${home}/.config/Cursor/User/globalStorage/state.vscdb`],
      [
        "kiro",
        "exec-1",
        `${home}/.config/Kiro/User/globalStorage/kiro.kiroagent/d29yaw/exec-1.chat`,
      ],
      ["kiro", "sess_ide1", `${home}/.kiro/sessions/d29yaw/sess_ide1/messages.jsonl`],
      [
        "cline",
        "1762000000000",
        `${home}/.cline/data/sessions/1762000000000/1762000000000.messages.json`,
      ],
      [
        "cursor",
        "c11a9e47-0001",
        `${home}/.cursor/projects/w-app/agent-transcripts/c11a9e47-0001.jsonl`,
      ],
      ["kiro", "cli-sess-1", `${home}/.kiro/sessions/cli/cli-sess-1.jsonl`],
    ]);
    for (
      const [ref, says] of [
        [
          "cline:1761000000000",
          "VS Code's chat history (the Cline extension), which 'cline' does not read",
        ],
        [
          "kilocode:kc-task-1",
          "VS Code's chat history (the Kilo Code extension), which 'kilo' does not read",
        ],
        ["cursor:785db00a-32e9", "Cursor's chat history, which 'cursor-agent' does not read"],
        ["kiro:exec-1", "Kiro's chat history, which 'kiro-cli' does not read"],
        ["kiro:sess_ide1", "Kiro's chat history"],
      ]
    ) {
      const e = assertThrows(() => resumePlan(w.store, ref), DejaError) as DejaError;
      assertEquals(e.exitCode, 2, ref);
      assertStringIncludes(e.message, `this session lives in ${says}`);
      assertStringIncludes(e.message, "reopen it there");
      assertStringIncludes(e.hint ?? "", "deja show");
    }
    assertEquals(resumePlan(w.store, "cline:1762000000000").argv, [
      "cline",
      "--id",
      "1762000000000",
    ]);
    assertEquals(resumePlan(w.store, "cursor:c11a9e47-0001").argv, [
      "cursor-agent",
      "--resume",
      "c11a9e47-0001",
    ]);
    assertEquals(resumePlan(w.store, "kiro:cli-sess-1").argv, [
      "kiro-cli",
      "chat",
      "--resume-id",
      "cli-sess-1",
    ]);
  } finally {
    w.store.close();
  }
});

Deno.test("resume refuses a Copilot CLI session known only from session-store.db, and keeps one with an event log", async () => {
  // Regression (trial on a real store): `resume 3cc3555e` printed `copilot --resume=…`, which
  // reopens only from `session-state/<id>/events.jsonl`.
  const w = await world();
  try {
    const home = "/home/u/.copilot";
    fileSession(w.store, {
      harness: "copilot",
      native_id: "3cc3555e-5462-44f9-95de-c67b1cb220b9",
      source: `${home}/session-store.db`,
      project: null,
    });
    fileSession(w.store, {
      harness: "copilot",
      native_id: "4dd4666f-0000-4000-8000-000000000001",
      source: `${home}/session-state/4dd4666f-0000-4000-8000-000000000001/events.jsonl`,
      project: null,
    });
    const e = assertThrows(() => resumePlan(w.store, "copilot:3cc3555e"), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "only its summary row remains in session-store.db");
    assertStringIncludes(e.message, "session-state/<id>/events.jsonl");
    assertStringIncludes(e.hint ?? "", "deja handoff --to <harness>");
    assertEquals(resumePlan(w.store, "copilot:4dd4666f").argv, [
      "copilot",
      "--resume=4dd4666f-0000-4000-8000-000000000001",
    ]);
  } finally {
    w.store.close();
  }
});

const PARENT = "019d9249-e0ee-7020-a305-b6369cd02251";
const FORK = "019d924b-6bc1-7fa2-aa36-5e5a0e068c59";
const SPAWNED = "019d924c-0000-7000-8000-000000000001";

Deno.test("resume refuses a Codex parent read from its fork's copy, and still resumes the fork itself", async () => {
  // Regression (trial on a real store): the parent 019d9249, which deja builds from the copy inside
  // 019d924b's rollout (no rollout of its own), printed `codex resume 019d9249-…`.
  const w = await world();
  try {
    const dir = "/home/u/.codex/sessions/2026/04/15";
    const forkFile = `${dir}/rollout-2026-04-15T11-58-29-${FORK}.jsonl`;
    const spawnFile = `${dir}/rollout-2026-04-15T12-00-00-${SPAWNED}.jsonl.zst`;
    fileSession(w.store, { harness: "codex", native_id: PARENT, source: forkFile, project: null });
    // A plain user fork is its own session (the parser gives it no parent); a spawned subagent
    // resumes through its parent.
    fileSession(w.store, { harness: "codex", native_id: FORK, source: forkFile, project: null });
    fileSession(w.store, {
      harness: "codex",
      native_id: SPAWNED,
      source: spawnFile,
      project: null,
      parent: PARENT,
    });
    const e = assertThrows(() => resumePlan(w.store, "codex:019d9249"), DejaError) as DejaError;
    assertEquals(e.exitCode, 2);
    assertStringIncludes(e.message, "this session's own transcript is not on disk");
    assertStringIncludes(e.message, `another session's file (rollout-2026-04-15T11-58-29-${FORK}`);
    assertEquals(resumePlan(w.store, "codex:019d924b").argv, ["codex", "resume", FORK]);
    const s = assertThrows(() => resumePlan(w.store, "codex:019d924c"), DejaError) as DejaError;
    assertStringIncludes(s.message, `${SPAWNED} is a subagent, resumed through its parent`);
    assertStringIncludes(s.message, "the parent's own transcript is not on disk");
    // A rollout named with its own id, in either case, resumes.
    fileSession(w.store, {
      harness: "codex",
      native_id: "019d9300-0000-7000-8000-00000000000a",
      source: `${dir}/rollout-2026-04-15T13-00-00-019D9300-0000-7000-8000-00000000000A.jsonl`,
      project: null,
    });
    assertEquals(resumePlan(w.store, "codex:019d9300").argv[1], "resume");
  } finally {
    w.store.close();
  }
});

// Trial 71: a fork's rollout whose file name carries no id (copied under another name) let the
// parent read from its copy print `codex resume 019d9249-…`.
Deno.test("resume tells a Codex parent's copy by the rollout's first session_meta when its name has no id", async () => {
  const w = await world();
  try {
    const file = join(w.root, "rollout-desktop-copy.jsonl");
    const meta = (id: string, forked: string | null) =>
      JSON.stringify({ type: "session_meta", payload: { id, forked_from_id: forked } });
    writeFileSync(file, meta(FORK, PARENT) + "\n" + meta(PARENT, null) + "\n");
    fileSession(w.store, { harness: "codex", native_id: PARENT, source: file, project: null });
    fileSession(w.store, { harness: "codex", native_id: FORK, source: file, project: null });
    const e = assertThrows(() => resumePlan(w.store, "codex:019d9249"), DejaError) as DejaError;
    assertStringIncludes(e.message, "this session's own transcript is not on disk");
    assertEquals(resumePlan(w.store, "codex:019d924b").argv, ["codex", "resume", FORK]);
  } finally {
    w.store.close();
  }
});

Deno.test("resume of a subagent whose parent cannot be reopened says it is a subagent, then the parent's reason", async () => {
  // Regression (trial on a real store): `resume twynek`, a Gemini CLI subagent with its own chat
  // file, said it was "known only from Gemini CLI's prompt history": true of its parent only.
  const w = await world();
  try {
    fileSession(w.store, {
      harness: "gemini",
      native_id: "twynek",
      source: `${w.root}/gemini/tmp/app/chats/${GEMINI_GONE}/twynek.json`,
      project: null,
      parent: GEMINI_GONE,
    });
    fileSession(w.store, {
      harness: "claude",
      native_id: `${CLAUDE_GONE}/agent-a1b2c3d`,
      source: `${w.root}/claude/projects/-w-app/${CLAUDE_GONE}/subagents/agent-a1b2c3d.jsonl`,
      project: null,
      parent: CLAUDE_GONE,
    });
    for (
      const [ref, asked, parent, file] of [
        ["gemini:twynek", "twynek", GEMINI_GONE, "logs.json"],
        [
          `claude:${CLAUDE_GONE}/agent-a1`,
          `${CLAUDE_GONE}/agent-a1b2c3d`,
          CLAUDE_GONE,
          "history.jsonl",
        ],
      ]
    ) {
      const e = assertThrows(() => resumePlan(w.store, ref), DejaError) as DejaError;
      assertEquals(e.exitCode, 2, ref);
      assertStringIncludes(
        e.message,
        `${asked} is a subagent, resumed through its parent ${parent}; `,
      );
      assertStringIncludes(e.message, `the parent is known only from`);
      assertStringIncludes(e.message, `prompt history (${file})`);
    }
  } finally {
    w.store.close();
  }
});
