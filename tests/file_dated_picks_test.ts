/**
 * The "latest" picks of `how`, `fix`, `blame`, `restore`, the hooks and an id prefix, for a
 * session dated by a store file's mtime (lib/session_time.ts). A Kimi `context.jsonl` is the
 * session's own file, rewritten at every turn: its mtime is the session's last write, and it
 * competes with recorded times (a live Kimi session is the newest work). An undated session,
 * dated only by a file many sessions share (a prompt history), loses every pick to a dated
 * one: that mtime is only the newest prompt's (found by a new-user trial on copied stores,
 * where such sessions won every "most recent" choice). The second kind is made here by marking
 * the same Kimi session undated in the index, so both kinds run the same commands.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { scopedTempDir } from "./_tmp.ts";
import { testEnv } from "./_fixture.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { claudeLines } from "./_memory.ts";
import { indexPath, Store } from "../lib/store.ts";
import type { Env } from "../core/model.ts";

const KIMI_ID = "7f1c2a10-0000-4000-8000-0000000000cc";
const CLAUDE_ID = "51510001-0000-4000-8000-0000000000dd";
const PROJECT = "/w/quokka";
const COMMAND = "quokkabundle build --all";
const FILE = `${PROJECT}/src/quokka.ts`;
const ERROR = "ZorbError: flux capacitor jammed in quokka.ts";
/** The Kimi file's mtime, 2026-11-20, after the Claude session of 2026-11-10. */
const FILE_TIME = Date.UTC(2026, 10, 20, 12);

const line = (r: unknown) => JSON.stringify(r);
const call = (id: string, name: string, args: unknown) => ({
  role: "assistant",
  content: "",
  tool_calls: [{ type: "function", id, function: { name, arguments: JSON.stringify(args) } }],
});

/** A Kimi tool result's parts: its `<system>` status line, then the output. */
const status = (line: string, out: string) => [
  { type: "text", text: `<system>${line}</system>` },
  { type: "text", text: out },
];

/** A Kimi session without times and a Claude one with times: each runs COMMAND and edits FILE. */
function world(root: string): Env {
  const kimi = join(root, "kimi");
  const key = createHash("md5").update(PROJECT, "utf8").digest("hex");
  const dir = join(kimi, "sessions", key, KIMI_ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(kimi, "kimi.json"), JSON.stringify({ work_dirs: [{ path: PROJECT }] }));
  const ctx = join(dir, "context.jsonl");
  writeFileSync(
    ctx,
    [
      { role: "user", content: "build the quokka bundle" },
      call("k1", "Shell", { command: COMMAND }),
      { role: "tool", content: "built", tool_call_id: "k1" },
      call("k2", "StrReplaceFile", { path: FILE, edit: { old: "a\n", new: "kimi\n" } }),
      { role: "tool", content: "ok", tool_call_id: "k2" },
      call("k3", "Shell", { command: "quokkatest" }),
      {
        role: "tool",
        content: status("ERROR: Command failed with exit code: 1.", ERROR),
        tool_call_id: "k3",
      },
      call("k4", "Shell", { command: "quokkatest --fresh" }),
      {
        role: "tool",
        content: "passed",
        tool_call_id: "k4",
      },
    ].map(line).join("\n") + "\n",
  );
  utimesSync(ctx, FILE_TIME / 1000, FILE_TIME / 1000);
  const claude = join(root, "claude", "-w-quokka");
  mkdirSync(claude, { recursive: true });
  const lines = claudeLines({
    id: CLAUDE_ID,
    cwd: PROJECT,
    start: "2026-11-10T10:00:00Z",
    turns: [
      { user: "build the quokka bundle" },
      { bash: COMMAND, out: "built", exit: 0 },
      { edit: FILE, old: "a\n", new: "claude\n" },
      { bash: "quokkatest", out: ERROR, exit: 1 },
      { bash: "quokkatest --clean", out: "passed", exit: 0 },
    ],
  });
  writeFileSync(join(claude, `${CLAUDE_ID}.jsonl`), lines.join("\n") + "\n");
  return withVars(
    testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_KIMI_ROOT: kimi,
      DEJA_CLAUDE_ROOT: join(root, "claude"),
      TZ: "UTC",
    }),
    { DEJA_NO_REFRESH: "1" },
  );
}

/**
 * Indexes the world; with `undated`, marks the Kimi session's times as a shared file's
 * (`time_from_file` 2, as a prompt history's), the commands reading the index as they are.
 */
async function indexed(env: Env, undated: boolean): Promise<void> {
  assertEquals((await runMain(env, ["index"])).code, 0);
  if (!undated) return;
  const store = Store.open(indexPath(env));
  try {
    store.db.exec("UPDATE sessions SET time_from_file = 2 WHERE harness = 'kimi'");
  } finally {
    store.close();
  }
}

Deno.test("how names the newest run: an own file's time competes, an undated session's loses", async () => {
  for (const undated of [false, true]) {
    using t = scopedTempDir("deja-filedated-");
    const env = world(t.path);
    await indexed(env, undated);
    const r = await runMain(env, ["how", "quokkabundle", "--json"]);
    assertEquals(r.code, 0, r.err);
    const [c] = JSON.parse(r.out).commands;
    // Both kinds are marked as the file's time when they are the one shown.
    assertEquals(
      [c.sessions, c.session, c.time_from_file],
      undated ? [2, CLAUDE_ID, false] : [2, KIMI_ID, true],
      `undated: ${undated}`,
    );
  }
});

Deno.test("blame and restore put the newest change first: an own file's time by its date, an undated one after", async () => {
  for (const undated of [false, true]) {
    using t = scopedTempDir("deja-filedated-");
    const env = world(t.path);
    await indexed(env, undated);
    const blame = await runMain(env, ["blame", FILE, "--json"]);
    assertEquals(blame.code, 0, blame.err);
    const sessions = JSON.parse(blame.out).sessions.map((s: { id: string }) => s.id);
    assertEquals(sessions, undated ? [CLAUDE_ID, KIMI_ID] : [KIMI_ID, CLAUDE_ID]);
    const restore = await runMain(env, ["restore", FILE, "--json"]);
    assertEquals(restore.code, 0, restore.err);
    const [first] = JSON.parse(restore.out).spans;
    assertEquals(
      [first.session, first.time_from_file],
      undated ? [CLAUDE_ID, false] : [KIMI_ID, true],
    );
  }
});

Deno.test("fix lists the newest fix first: an own file's time by its date, an undated session's after", async () => {
  // Both fixes ran once with no exit status recorded (Claude's result has none, Kimi's has no
  // status line): only the time tells them apart.
  for (const undated of [false, true]) {
    using t = scopedTempDir("deja-filedated-");
    const env = world(t.path);
    await indexed(env, undated);
    const r = await runMain(env, ["fix", ERROR, "--json"]);
    assertEquals(r.code, 0, r.err);
    const fixes = JSON.parse(r.out).fixes.map((
      f: { command: string; time_from_file: boolean },
    ) => [f.command, f.time_from_file]);
    assertEquals(
      fixes,
      undated
        ? [["quokkatest --clean", false], ["quokkatest --fresh", true]]
        : [["quokkatest --fresh", true], ["quokkatest --clean", false]],
    );
  }
});

Deno.test("hook-context picks the last session: an own file's time counts, an undated session's does not", async () => {
  for (const undated of [false, true]) {
    using t = scopedTempDir("deja-filedated-");
    const env = world(t.path);
    await indexed(env, undated);
    const r = await runMain(env, ["hook-context", "--harness", "pi"], "", PROJECT);
    assertEquals(r.code, 0, r.err);
    const picked = undated ? CLAUDE_ID : KIMI_ID;
    assertStringIncludes(r.out, `deja ctx ${picked.slice(0, 8)}`);
  }
});

Deno.test("an id prefix two sessions share lists the newest first, an undated session after", async () => {
  for (const undated of [false, true]) {
    using t = scopedTempDir("deja-filedated-");
    const env = world(t.path);
    // A Claude session whose id starts as the Kimi one does, older than the Kimi file's time.
    const twin = `${KIMI_ID.slice(0, 8)}-1111-4000-8000-0000000000ee`;
    const lines = claudeLines({
      id: twin,
      cwd: PROJECT,
      start: "2026-11-05T10:00:00Z",
      turns: [{ user: "an older twin" }, { say: "Yes." }],
    });
    writeFileSync(join(t.path, "claude", "-w-quokka", `${twin}.jsonl`), lines.join("\n") + "\n");
    await indexed(env, undated);
    const r = await runMain(env, ["show", KIMI_ID.slice(0, 8), "--json"]);
    assertEquals(r.code, 2, r.out);
    const j = JSON.parse(r.out);
    const ids = j.candidates.map((c: { id: string }) => c.id);
    assertEquals(ids, undated ? [twin, KIMI_ID] : [KIMI_ID, twin]);
    // How many matched, beside those listed (trial 132 F10: 8 listed, "2 more" said in text only).
    assertEquals([j.matched, j.matched_more], [2, false]);
  }
});
