/**
 * A session dated only by its store file's mtime (a copied Kimi `context.jsonl`: its file
 * time is the copy's day) loses the "latest" pick to a session with a recorded time in
 * `how`, `fix`, `blame` and `restore` (lib/session_time.ts); found by a new-user trial on
 * copied stores, where the copy won every "most recent" choice.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { scopedTempDir } from "./_tmp.ts";
import { testEnv } from "./_fixture.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { claudeLines } from "./_memory.ts";
import type { Env } from "../core/model.ts";

const KIMI_ID = "7f1c2a10-0000-4000-8000-0000000000cc";
const CLAUDE_ID = "51510001-0000-4000-8000-0000000000dd";
const PROJECT = "/w/quokka";
const COMMAND = "quokkabundle build --all";
const FILE = `${PROJECT}/src/quokka.ts`;
const ERROR = "ZorbError: flux capacitor jammed in quokka.ts";
/** The Kimi file's mtime, 2026-11-20 (a copy), after the Claude session of 2026-11-10. */
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

Deno.test("how names the run with a recorded time as the latest, not a copied store's", async () => {
  using t = scopedTempDir("deja-filedated-");
  const env = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const r = await runMain(env, ["how", "quokkabundle", "--json"]);
  assertEquals(r.code, 0, r.err);
  const [c] = JSON.parse(r.out).commands;
  assertEquals([c.sessions, c.session, c.time_from_file], [2, CLAUDE_ID, false]);
});

Deno.test("blame and restore put the change with a recorded time first, a copied store's after", async () => {
  using t = scopedTempDir("deja-filedated-");
  const env = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const blame = await runMain(env, ["blame", FILE, "--json"]);
  assertEquals(blame.code, 0, blame.err);
  const sessions = JSON.parse(blame.out).sessions.map((s: { id: string }) => s.id);
  assertEquals(sessions, [CLAUDE_ID, KIMI_ID]);
  const restore = await runMain(env, ["restore", FILE, "--json"]);
  assertEquals(restore.code, 0, restore.err);
  const [first] = JSON.parse(restore.out).spans;
  assertEquals([first.session, first.time_from_file], [CLAUDE_ID, false]);
});

Deno.test("fix lists the fix seen at a recorded time before a copied store's, equal otherwise", async () => {
  // Both fixes ran once with no exit status recorded (Claude's result has none, Kimi's has no
  // status line): only the time tells them apart.
  using t = scopedTempDir("deja-filedated-");
  const env = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const r = await runMain(env, ["fix", ERROR, "--json"]);
  assertEquals(r.code, 0, r.err);
  const fixes = JSON.parse(r.out).fixes.map((f: { command: string; time_from_file: boolean }) => [
    f.command,
    f.time_from_file,
  ]);
  assertEquals(fixes, [["quokkatest --clean", false], ["quokkatest --fresh", true]]);
});

Deno.test("hook-context picks the last session with a recorded time, not a copied store's", async () => {
  using t = scopedTempDir("deja-filedated-");
  const env = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const r = await runMain(env, ["hook-context", "--harness", "pi"], "", PROJECT);
  assertEquals(r.code, 0, r.err);
  assertStringIncludes(r.out, `deja ctx ${CLAUDE_ID.slice(0, 8)}`);
});

Deno.test("an id prefix two sessions share lists the one with a recorded time first", async () => {
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
  assertEquals((await runMain(env, ["index"])).code, 0);
  const r = await runMain(env, ["show", KIMI_ID.slice(0, 8), "--json"]);
  assertEquals(r.code, 2, r.out);
  const ids = JSON.parse(r.out).candidates.map((c: { id: string }) => c.id);
  assertEquals(ids, [twin, KIMI_ID]);
});
