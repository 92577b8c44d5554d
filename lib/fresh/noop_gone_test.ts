/**
 * A store moved out of a directory that holds no other store is noticed by the
 * next `deja index` (fresh-user trial: a Codex `archived_sessions/` rollout
 * moved away left `deja index` saying "up to date", and moved back and away
 * again it was never told of). The directories a harness's stores appear in,
 * and those of the stores the index holds, are stamped whether or not they
 * hold a store now.
 */
import { assert } from "../../tests/_assert.ts";
import { copyFileSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { claudeLine } from "../../tests/_memory.ts";
import { join } from "node:path";
import { tempDir } from "../../tests/_tmp.ts";
import { testEnv } from "../../tests/_fixture.ts";
import { runMain } from "../../tests/_cli_io.ts";

const NAME = "rollout-2026-07-31T12-05-00-019fb7a2-60e0-7e11-8e11-0000000000e1.jsonl";
const FIXTURE = join(import.meta.dirname!, "../../fixtures/registry/codex/archived_sessions", NAME);

/** Indexes, moves `file` away (told), back (not told), away again (told again). */
async function awayBackAway(dir: string, file: string, vars: Record<string, string>) {
  const env = testEnv(vars.HOME, vars);
  const index = () => runMain(env, ["index"], "", vars.HOME);
  // Stamps from the past: a change now moves them (as it would minutes later for a user).
  const then = new Date(Date.now() - 60_000);
  for (let p = file; p.startsWith(dir + "/"); p = join(p, "..")) utimesSync(p, then, then);
  const first = await index();
  assert(!first.err.includes("gone") && first.code === 0, first.out + first.err);
  mkdirSync(join(dir, "aside"));
  const away = join(dir, "aside", "moved");
  renameSync(file, away);
  let r = await index();
  assert(r.err.includes("1 store gone"), r.out + r.err);
  renameSync(away, file);
  r = await index();
  assert(!r.err.includes("gone"), r.err);
  renameSync(file, away);
  r = await index();
  assert(r.err.includes("1 store gone"), r.out + r.err);
}

const base = (dir: string) => ({
  HOME: join(dir, "home"),
  XDG_CONFIG_HOME: join(dir, "config"),
  XDG_DATA_HOME: join(dir, "data"),
  DEJA_HOME: join(dir, "deja"),
  DEJA_NO_REFRESH: "1",
});

Deno.test("a Codex archived rollout moved away is told of by the next index, and again after it came back", async () => {
  const dir = tempDir("deja-noop-gone-");
  const codex = join(dir, "codex");
  const archived = join(codex, "archived_sessions");
  mkdirSync(archived, { recursive: true });
  const file = join(archived, NAME);
  copyFileSync(FIXTURE, file);
  await awayBackAway(dir, file, { ...base(dir), DEJA_CODEX_ROOT: codex, CODEX_HOME: codex });
});

Deno.test("a Claude session moved out of its project directory is told of again after it came back", async () => {
  const dir = tempDir("deja-noop-gone-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const sid = "31111111-2222-4333-8444-555555555556";
  const file = join(proj, `${sid}.jsonl`);
  writeFileSync(file, claudeLine(0, "the parser crashes", sid) + claudeLine(1, "Fixed.", sid));
  await awayBackAway(dir, file, { ...base(dir), DEJA_CLAUDE_ROOT: join(dir, "claude") });
});

// Trial 72: a search's refresh on use met the deletion first; the `deja index` after it said
// "up to date" and never told of the store gone.
Deno.test("a store deleted and first met by a search's refresh is told of by the next index", async () => {
  const dir = tempDir("deja-noop-gone-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const sid = "41111111-2222-4333-8444-555555555557";
  const file = join(proj, `${sid}.jsonl`);
  const other = join(proj, "51111111-2222-4333-8444-555555555558.jsonl");
  writeFileSync(file, claudeLine(0, "the parser crashes", sid) + claudeLine(1, "Fixed.", sid));
  writeFileSync(other, claudeLine(0, "keep this one", "51111111-2222-4333-8444-555555555558"));
  const vars = { ...base(dir), DEJA_CLAUDE_ROOT: join(dir, "claude") };
  const env = testEnv(vars.HOME, vars);
  const then = new Date(Date.now() - 60_000);
  for (const p of [file, other, proj]) utimesSync(p, then, then);
  assert((await runMain(env, ["index"], "", vars.HOME)).code === 0);
  rmSync(file);
  const search = await runMain(
    testEnv(vars.HOME, { ...vars, DEJA_NO_REFRESH: "" }),
    [
      "parser",
    ],
    "",
    vars.HOME,
  );
  assert(!search.err.includes("gone"), search.err);
  const r = await runMain(env, ["index"], "", vars.HOME);
  assert(r.err.includes("1 store gone"), r.out + r.err);
  const again = await runMain(env, ["index"], "", vars.HOME);
  assert(!again.err.includes("gone"), "told once: " + again.err);
});
