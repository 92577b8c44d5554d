/**
 * `deja hook-tool --crush` over copies of the real Crush stores in
 * ../shared/realdata/crush (Crush 0.7–0.9: bash results ending in `Exit code
 * N` with a `<cwd>` trailer, edit/multiedit, a subagent, a summary). The
 * stores are indexed as they are; then a live session grows in one of them,
 * message by message (a copy of the real "Add Redis" session under a new id),
 * while the hook is called the way Crush calls it before each tool call:
 * the first call's digest, the recall for the newest message the person
 * sent, the fix pair after a failed command, the packet after a summary —
 * each once, one tool call late.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../main.ts";
import type { Env } from "../core/model.ts";
import { makeEnv } from "../core/runtime.ts";
import { frame, FRAME_OPEN } from "../core/frame.ts";
import { BUDGET } from "../lib/hooks/run.ts";
import {
  addMessage,
  LIVE,
  REAL,
  REDIS,
  reveal,
  startLive,
  SUB,
  SUMMARY_MSG,
  type World,
  world,
} from "./_crush_live.ts";

/** Calls the hook as Crush does; returns the context ("" for silence). */
async function call(
  w: World,
  session: string,
  tool: string,
  input: Record<string, unknown>,
  env?: Env,
) {
  const out: string[] = [];
  const code = await main({
    args: ["hook-tool", "--crush"],
    env: env ?? w.env,
    cwd: "/",
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () =>
      Promise.resolve(JSON.stringify({
        event: "PreToolUse",
        session_id: session,
        cwd: w.project,
        tool_name: tool,
        tool_input: input,
      })),
  });
  assertEquals(code, 0);
  if (!out.length) return "";
  const v = JSON.parse(out.join(""));
  assertEquals(Object.keys(v).sort(), ["context", "version"], "flat envelope, no decision");
  assert(new TextEncoder().encode(v.context).length <= BUDGET.crush);
  assertEquals(v.context.split(FRAME_OPEN).length, 2, "one frame");
  return v.context as string;
}

Deno.test({
  name:
    "the Crush hook follows a live session: digest, recall, fix pair, packet — each once, one call late",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world({ stashFinished: true });
  try {
    startLive(w.db, REDIS);
    // The person's first message and the assistant's first tool call are stored.
    reveal(w.db, REDIS, 0, 103);
    const first = await call(w, LIVE, "bash", { command: "ls apps/infra" });
    assertStringIncludes(first, "Where the last session in this project left off");
    assertStringIncludes(first, "a4217d5a", `the newest other session of the project: ${first}`);
    assertStringIncludes(first, "Past sessions in this project on", "recall for the first message");
    assert(!first.includes("This error came up before"));
    assertEquals(await call(w, LIVE, "bash", { command: "ls apps/infra" }), "", "nothing twice");

    // Work goes on up to `git pull --rebase` failing (Exit code 128, <cwd> trailer); Crush
    // appended a hook's context to that result after the trailer, as it does.
    reveal(w.db, REDIS, 103, 192);
    const last = w.db.prepare(
      "SELECT parts FROM messages WHERE session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
    ).get(LIVE) as { parts: string };
    const lp = JSON.parse(last.parts);
    lp[0].data.content += "\n" + frame("what deja said at that call");
    w.db.prepare(
      "UPDATE messages SET parts = ? WHERE rowid = (SELECT MAX(rowid) FROM messages WHERE session_id = ?)",
    ).run(JSON.stringify(lp), LIVE);
    const fix = await call(w, LIVE, "bash", { command: "cd /Users/user/Code/k && git stash" });
    assertStringIncludes(fix, "This error came up before");
    assertStringIncludes(fix, "`cd /Users/user/Code/k && git stash`");
    assert(!fix.includes("Where the last session"), "the digest was the first call's");
    assertEquals(
      await call(w, LIVE, "bash", { command: "cd /Users/user/Code/k && git stash" }),
      "",
    );

    // Crush summarises the session.
    const summary = w.db.prepare("SELECT parts FROM messages WHERE id = ?").get(SUMMARY_MSG) as {
      parts: string;
    };
    addMessage(w.db, "L-summary", "assistant", JSON.parse(summary.parts));
    w.db.prepare("UPDATE sessions SET summary_message_id = 'L-summary' WHERE id = ?").run(LIVE);
    const packet = await call(w, LIVE, "bash", {
      command: "cd /Users/user/Code/k && git stash list",
    });
    assertStringIncludes(packet, "The conversation was summarised");
    assertStringIncludes(
      packet,
      "`cd /Users/user/Code/k && git pull --rebase origin main` → **exit 128 ✗**",
    );
    assertStringIncludes(packet, "apps/infra/redis/");
    assertEquals(
      await call(w, LIVE, "bash", { command: "cd /Users/user/Code/k && git stash list" }),
      "",
    );

    // Two messages, the first answered without any tool call: only the newest is recalled.
    const text = (t: string) => [{ type: "text", data: { text: t } }];
    addMessage(w.db, "L-m2", "user", text("Why is forgejo crashing in the k3s cluster?"));
    addMessage(w.db, "L-a2", "assistant", text("Let me think about forgejo."));
    addMessage(w.db, "L-m3", "user", text("Now wire the chex-mix-timer backend pod to REDIS_URL."));
    const recall = await call(w, LIVE, "view", { file_path: "x" });
    assertStringIncludes(recall, "Past sessions in this project on");
    assertStringIncludes(recall, "chex-mix-timer");
    assert(!/forgejo/i.test(recall), "the unanswered message's recall is not delivered");
  } finally {
    w.db.close();
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the Crush hook gives a subagent no digest and no recall (the parent had them)",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world();
  try {
    const r = await call(w, SUB, "bash", { command: "ls" });
    assert(!r.includes("Where the last session"), r);
    assert(!r.includes("Past sessions"), r);
  } finally {
    w.db.close();
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the Crush hook notes a file earlier sessions wrote, from tool_input or the environment",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world();
  try {
    const file = "/Users/user/Code/k/apps/media/radarr/image-repository.yaml";
    const r = await call(w, "fresh-1", "edit", {
      file_path: file,
      old_string: "a",
      new_string: "b",
    });
    assertStringIncludes(r, "image-repository.yaml` was changed in 1 earlier session");
    assertStringIncludes(r, "dc3d92ac");
    // multiedit with the path only in CRUSH_TOOL_INPUT_FILE_PATH (as Crush also sets it).
    const env = makeEnv({
      HOME: w.env.home,
      DEJA_HOME: w.env.get("DEJA_HOME"),
      DEJA_CRUSH_ROOT: w.env.get("DEJA_CRUSH_ROOT"),
      CRUSH_PROJECT_DIR: w.project,
      CRUSH_TOOL_INPUT_FILE_PATH: "/Users/user/Code/k/apps/infra/redis/helm-release.yaml",
    }, w.env.home);
    const m = await call(w, "fresh-2", "multiedit", { edits: [] }, env);
    assertStringIncludes(m, "helm-release.yaml` was changed in 1 earlier session");
    assertStringIncludes(m, "093f9963");
  } finally {
    w.db.close();
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the Crush hook still answers from the index when crush.db is damaged",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world();
  try {
    w.db.close();
    writeFileSync(
      join(w.project, ".crush", "crush.db"),
      "SQLite format 3\u0000" + "garbage".repeat(999),
    );
    const r = await call(w, "damaged-store", "bash", { command: "ls" });
    assertStringIncludes(r, "Where the last session in this project left off");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test({
  name: "the Crush hook still answers when the project has no crush.db (the index alone)",
  ignore: !existsSync(REAL),
}, async () => {
  const w = await world();
  try {
    const env = makeEnv({
      HOME: w.env.home,
      DEJA_HOME: w.env.get("DEJA_HOME"),
      DEJA_CRUSH_ROOT: join(w.root, "nowhere"),
      CRUSH_PROJECT_DIR: w.project,
    }, w.env.home);
    rmSync(join(w.project, ".crush"), { recursive: true, force: true });
    const r = await call(w, "no-store", "bash", { command: "ls" }, env);
    assertStringIncludes(r, "Where the last session in this project left off");
  } finally {
    w.db.close();
    rmSync(w.root, { recursive: true, force: true });
  }
});
