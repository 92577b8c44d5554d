/**
 * Sessions whose store records no times are dated by a file's modification time, and every
 * command that shows the time marks it as the file's (`--json` says `time_from_file`). Two
 * kinds (lib/session_time.ts): a Kimi `context.jsonl` (found by a fresh-user trial on Kimi CLI
 * 1.17 session b1ea4a04) is the session's own file, so its mtime is the session's last write:
 * `last` and `--since` place it by that time among the dated sessions. A prompt history
 * (Kimi's `user-history`) is a file of many prompts whose mtime is only the newest one's: its
 * session is undated, listed after the dated ones, left out by `--since` and counted. A later
 * read with recorded times clears the mark.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { scopedTempDir } from "./_tmp.ts";
import { testEnv } from "./_fixture.ts";
import { runMain, withVars } from "./_cli_io.ts";
import { claudeLines } from "./_memory.ts";
import type { Env } from "../core/model.ts";
import { indexPath, Store } from "../lib/store.ts";
import { sessionPage } from "../lib/view/session.ts";

const KIMI_ID = "7f1c2a10-0000-4000-8000-0000000000aa";
const CLAUDE_ID = "51510001-0000-4000-8000-0000000000bb";
/** The context file's mtime: 2026-11-20 12:00 UTC. */
const FILE_TIME = Date.UTC(2026, 10, 20, 12);
const MARK = "(file time)";

/** A Kimi store holding one context-only session and a Claude store with recorded times. */
function world(root: string): { env: Env; kimiDir: string } {
  const kimi = join(root, "kimi");
  const project = "/w/kimi-app";
  const key = createHash("md5").update(project, "utf8").digest("hex");
  const kimiDir = join(kimi, "sessions", key, KIMI_ID);
  mkdirSync(kimiDir, { recursive: true });
  writeFileSync(join(kimi, "kimi.json"), JSON.stringify({ work_dirs: [{ path: project }] }));
  const ctx = join(kimiDir, "context.jsonl");
  writeFileSync(
    ctx,
    [
      { role: "user", content: "Why is the quokkabundler slow?" },
      { role: "assistant", content: [{ type: "text", text: "It rebuilds vendor code." }] },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  utimesSync(ctx, FILE_TIME / 1000, FILE_TIME / 1000);
  const claude = join(root, "claude", "-w-svc");
  mkdirSync(claude, { recursive: true });
  const lines = claudeLines({
    id: CLAUDE_ID,
    cwd: "/w/svc",
    start: "2026-11-10T10:00:00Z",
    turns: [{ user: "the quokkabundler again" }, { say: "Cached it." }],
  });
  writeFileSync(join(claude, `${CLAUDE_ID}.jsonl`), lines.join("\n") + "\n");
  const env = withVars(
    testEnv(join(root, "home"), {
      DEJA_HOME: join(root, "deja"),
      DEJA_KIMI_ROOT: kimi,
      DEJA_CLAUDE_ROOT: join(root, "claude"),
      TZ: "UTC",
    }),
    { DEJA_NO_REFRESH: "1" },
  );
  return { env, kimiDir };
}

const HISTORY_PROMPT = "is the quokkabundler cached yet";
/** The prompt-history session of the Kimi work dir. */
const HISTORY_ID = `prompt-history-${
  createHash("md5").update("/w/kimi-app", "utf8").digest("hex")
}`;

/** Kimi's user-history of the work dir (no ids, no times), its file written at `ms`. */
function history(root: string, ms: number, text = HISTORY_PROMPT): void {
  const key = createHash("md5").update("/w/kimi-app", "utf8").digest("hex");
  const dir = join(root, "kimi", "user-history");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${key}.jsonl`);
  writeFileSync(file, JSON.stringify({ content: text }) + "\n");
  utimesSync(file, ms / 1000, ms / 1000);
}

/** The line that starts with a prefix of `id` (a session's first line, not its description). */
const lineOf = (out: string, id: string) =>
  out.split("\n").find((l) => l.split(" ")[0] && id.startsWith(l.split(" ")[0])) ?? "";

Deno.test("a session dated by its file's mtime is marked in last, show and search, text and JSON", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);

  const last = await runMain(env, ["last"]);
  assertEquals(last.code, 0, last.err);
  assertStringIncludes(lineOf(last.out, KIMI_ID), `2026-11-20 12:00 ${MARK}`);
  assert(!lineOf(last.out, CLAUDE_ID).includes(MARK), last.out);
  const lastJson = JSON.parse((await runMain(env, ["last", "--json"])).out);
  const byId = new Map(lastJson.sessions.map((s: { id: string }) => [s.id, s]));
  assertEquals((byId.get(KIMI_ID) as Record<string, unknown>).time_from_file, true);
  assertEquals((byId.get(CLAUDE_ID) as Record<string, unknown>).time_from_file, false);
  assertEquals((byId.get(KIMI_ID) as Record<string, unknown>).updated, "2026-11-20T12:00:00.000Z");

  const show = await runMain(env, ["show", KIMI_ID]);
  assertEquals(show.code, 0, show.err);
  assertStringIncludes(lineOf(show.out, KIMI_ID), `→ 2026-11-20 12:00 ${MARK}`);
  const showJson = JSON.parse((await runMain(env, ["show", KIMI_ID, "--json"])).out);
  assertEquals(showJson.time_from_file, true);
  const other = await runMain(env, ["show", CLAUDE_ID]);
  assert(lineOf(other.out, CLAUDE_ID) && !other.out.includes(MARK), other.out);

  const search = await runMain(env, ["quokkabundler"]);
  assertEquals(search.code, 0, search.err);
  assertStringIncludes(lineOf(search.out, KIMI_ID), MARK);
  assert(!lineOf(search.out, CLAUDE_ID).includes(MARK), search.out);
  const searchJson = JSON.parse((await runMain(env, ["quokkabundler", "--json"])).out);
  const flags = Object.fromEntries(
    searchJson.results.map((r: { id: string; time_from_file: boolean }) => [
      r.id,
      r.time_from_file,
    ]),
  );
  assertEquals(flags, { [KIMI_ID]: true, [CLAUDE_ID]: false });
});

Deno.test("last lists an own file's session by its time among the dated ones, a prompt history after", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  // The history file is the newest of all (11-28), the context file (11-20) newer than Claude's.
  history(t.path, Date.UTC(2026, 10, 28, 9));
  assertEquals((await runMain(env, ["index"])).code, 0);
  const doc = JSON.parse((await runMain(env, ["last", "--json"])).out);
  assertEquals(doc.sessions.map((s: { id: string }) => s.id), [KIMI_ID, CLAUDE_ID, HISTORY_ID]);
  assertEquals(doc.sessions.map((s: { time_from_file: boolean }) => s.time_from_file), [
    true,
    false,
    true,
  ]);
  assertEquals(doc.undated, 0);
  const text = (await runMain(env, ["last"])).out.split("\n");
  const at = (id: string) =>
    text.findIndex((l) => l.split(" ")[0] && id.startsWith(l.split(" ")[0]));
  assert(at(KIMI_ID) >= 0 && at(KIMI_ID) < at(CLAUDE_ID), text.join("\n"));
  assert(at(CLAUDE_ID) < at(HISTORY_ID), text.join("\n"));
  assertStringIncludes(text[at(KIMI_ID)], MARK);
});

Deno.test("last --since holds an own file's session by its time, leaves a prompt history out and says how many", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  history(t.path, Date.UTC(2026, 10, 28, 9));
  assertEquals((await runMain(env, ["index"])).code, 0);
  // The Kimi context's time (11-20) is inside the window; the history's (11-28) is no session's.
  const after = await runMain(env, ["last", "--since", "2026-11-15", "--json"]);
  assertEquals(after.code, 0, after.err);
  const doc = JSON.parse(after.out);
  assertEquals([doc.sessions.map((s: { id: string }) => s.id), doc.undated], [[KIMI_ID], 1]);
  const both = await runMain(env, ["last", "--since", "2026-11-01"]);
  assertEquals(both.code, 0, both.err);
  assert(lineOf(both.out, CLAUDE_ID) && lineOf(both.out, KIMI_ID), both.out);
  assert(!both.out.includes("prompt-history-"), both.out);
  assertStringIncludes(both.err, "1 undated session (a prompt history");
  assertStringIncludes(
    both.err,
    "is left out by --since, which cannot place it; without --since it is listed",
  );
  // Past the context file's time: only the prompt history's count is left.
  const none = await runMain(env, ["last", "--since", "2026-11-21", "--json"]);
  assertEquals(none.code, 1);
  assertEquals([JSON.parse(none.out).sessions.length, JSON.parse(none.out).undated], [0, 1]);
  const plain = await runMain(env, ["last"]);
  assert(!plain.err.includes("undated"), plain.err);
});

Deno.test("a later read with recorded times clears the file-time mark and its times", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env, kimiDir } = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  // The same session's wire.jsonl appears (Kimi writes it beside the context): it has times.
  const at = Date.UTC(2026, 10, 2, 9) / 1000;
  writeFileSync(
    join(kimiDir, "wire.jsonl"),
    [
      { type: "metadata", protocol_version: "1.3" },
      {
        timestamp: at,
        message: { type: "TurnBegin", payload: { user_input: [{ type: "text", text: "Why?" }] } },
      },
      {
        timestamp: at + 5,
        message: { type: "ContentPart", payload: { type: "text", text: "It rebuilds." } },
      },
      { timestamp: at + 6, message: { type: "TurnEnd", payload: {} } },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  assertEquals((await runMain(env, ["index"])).code, 0);
  const doc = JSON.parse((await runMain(env, ["last", "--harness", "kimi", "--json"])).out);
  assertEquals(doc.sessions.length, 1);
  const s = doc.sessions[0];
  assertEquals([s.time_from_file, s.started, s.updated], [
    false,
    "2026-11-02T09:00:00.000Z",
    "2026-11-02T09:00:06.000Z",
  ]);
});

Deno.test("a store touched without a size change is read again when its file dates a session", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env, kimiDir } = world(t.path);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const later = Date.UTC(2026, 10, 25, 8) / 1000;
  utimesSync(join(kimiDir, "context.jsonl"), later, later);
  const idx = await runMain(env, ["index"]);
  assertEquals(idx.code, 0, idx.err);
  assertStringIncludes(idx.out, "1 session written");
  const doc = JSON.parse((await runMain(env, ["last", "--harness", "kimi", "--json"])).out);
  assertEquals([doc.sessions[0].time_from_file, doc.sessions[0].updated], [
    true,
    "2026-11-25T08:00:00.000Z",
  ]);
});

Deno.test("a prompt history touched without a size change is read again: its file dates its session", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  history(t.path, Date.UTC(2026, 10, 28, 9));
  assertEquals((await runMain(env, ["index"])).code, 0);
  history(t.path, Date.UTC(2026, 10, 29, 9)); // the same bytes, a later mtime
  assertEquals((await runMain(env, ["index"])).code, 0);
  const doc = JSON.parse((await runMain(env, ["last", "--harness", "kimi", "--json"])).out);
  const s = doc.sessions.find((x: { id: string }) => x.id === HISTORY_ID);
  assertEquals([s.time_from_file, s.updated], [true, "2026-11-29T09:00:00.000Z"]);
});

Deno.test("a Continue session is read again when sessions.json beside it changes", async () => {
  using t = scopedTempDir("deja-filetime-");
  const dir = join(t.path, "continue");
  mkdirSync(dir, { recursive: true });
  const id = "c0c0c0c0-0000-4000-8000-0000000000cc";
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      sessionId: id,
      title: "Untitled Session",
      workspaceDirectory: "/w/cont",
      history: [
        { message: { role: "user", content: "list the quokkas" }, contextItems: [] },
        { message: { role: "assistant", content: "Three quokkas." }, contextItems: [] },
      ],
    }),
  );
  const list = (title: string) =>
    writeFileSync(
      join(dir, "sessions.json"),
      JSON.stringify([{ sessionId: id, title, dateCreated: String(Date.UTC(2026, 10, 1)) }]),
    );
  list("Quokka census");
  const env = withVars(
    testEnv(join(t.path, "home"), {
      DEJA_HOME: join(t.path, "deja"),
      DEJA_CONTINUE_ROOT: dir,
      TZ: "UTC",
    }),
    { DEJA_NO_REFRESH: "1" },
  );
  assertEquals((await runMain(env, ["index"])).code, 0);
  list("Quokka headcount");
  assertEquals((await runMain(env, ["index"])).code, 0);
  const doc = JSON.parse((await runMain(env, ["last", "--harness", "continue", "--json"])).out);
  assertEquals(doc.sessions.map((s: { title: string }) => s.title), ["Quokka headcount"]);
});

Deno.test("search --since finds an own file's session by its time, leaves a prompt history out and says how many", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  history(t.path, Date.UTC(2026, 10, 28, 9));
  assertEquals((await runMain(env, ["index"])).code, 0);
  // The Kimi context's time (11-20) is in the window; the Claude session (11-10) is not; the
  // history's file time (11-28) is no session's.
  const doc = JSON.parse(
    (await runMain(env, ["quokkabundler", "--since", "2026-11-15", "--json"])).out,
  );
  assertEquals([doc.results.map((r: { id: string }) => r.id), doc.undated], [[KIMI_ID], 1]);
  const text = await runMain(env, ["quokkabundler", "--since", "2026-11-01"]);
  assertEquals(text.code, 0, text.err);
  assert(lineOf(text.out, CLAUDE_ID) && lineOf(text.out, KIMI_ID), text.out);
  assert(!text.out.includes("prompt-history-"), text.out);
  assertStringIncludes(text.err, "1 undated session (a prompt history");
  const all = JSON.parse((await runMain(env, ["quokkabundler", "--json"])).out);
  assertEquals([all.results.length, all.undated], [3, 0]);
});

Deno.test("a prompt history with no ids is shown as prompt-history-<8 chars> and listed after dated sessions", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  // Kimi's user-history of the work dir: prompts no transcript holds, no id, no time.
  const key = createHash("md5").update("/w/kimi-app", "utf8").digest("hex");
  history(t.path, Date.UTC(2026, 10, 28, 9), "rename the wombat module"); // the newest file time
  assertEquals((await runMain(env, ["index"])).code, 0);
  const doc = JSON.parse((await runMain(env, ["last", "--json"])).out);
  const ph = `prompt-history-${key}`;
  assertEquals(ph, HISTORY_ID);
  assertEquals(doc.sessions.map((s: { id: string }) => s.id), [KIMI_ID, CLAUDE_ID, ph]);
  const short = `prompt-history-${key.slice(0, 8)}`;
  assertEquals(doc.sessions[2].short_id, short);
  const text = (await runMain(env, ["last"])).out;
  assertStringIncludes(text, `${short}  kimi`);
  // The short id names the session.
  const show = await runMain(env, ["show", short, "--json"]);
  assertEquals([show.code, JSON.parse(show.out).id], [0, ph]);
});

// User trial (2026-12, Kimi CLI): `last --harness kimi` listed the own-file session b1ea4a04
// first and the prompt history last, both `2026-12-03 02:46 (file time)`, with no cue why the
// two ends; `--json` said `"undated": 0` with the prompt history listed.
Deno.test("a prompt history is marked undated, not file time, in last, search, show and the view", async () => {
  using t = scopedTempDir("deja-filetime-");
  const { env } = world(t.path);
  history(t.path, FILE_TIME);
  assertEquals((await runMain(env, ["index"])).code, 0);
  const UNDATED = "(undated: prompt history)";

  const last = await runMain(env, ["last", "--harness", "kimi"]);
  assertEquals(last.code, 0, last.err);
  assertStringIncludes(lineOf(last.out, HISTORY_ID), `2026-11-20 12:00 ${UNDATED}`);
  assertStringIncludes(lineOf(last.out, KIMI_ID), `2026-11-20 12:00 ${MARK}`);
  assert(!lineOf(last.out, KIMI_ID).includes(UNDATED), last.out);
  const doc = JSON.parse((await runMain(env, ["last", "--harness", "kimi", "--json"])).out);
  // `undated` stays what --since left out (none here); `undated_listed` counts those shown.
  assertEquals([doc.undated, doc.undated_listed], [0, 1]);
  assertEquals(
    doc.sessions.map((s: { id: string; undated: boolean }) => [s.id, s.undated]),
    [[KIMI_ID, false], [HISTORY_ID, true]],
  );

  const search = await runMain(env, ["quokkabundler"]);
  assertEquals(search.code, 0, search.err);
  assertStringIncludes(lineOf(search.out, HISTORY_ID), UNDATED);
  assertStringIncludes(lineOf(search.out, KIMI_ID), MARK);
  const hits = JSON.parse((await runMain(env, ["quokkabundler", "--json"])).out).results;
  const byId = Object.fromEntries(
    hits.map((r: { id: string; time_from_file: boolean; undated: boolean }) => [
      r.id,
      [r.time_from_file, r.undated],
    ]),
  );
  assertEquals(byId[HISTORY_ID], [true, true]);
  assertEquals(byId[KIMI_ID], [true, false]);

  const show = await runMain(env, ["show", HISTORY_ID]);
  assertEquals(show.code, 0, show.err);
  assertStringIncludes(show.out.split("\n")[1], `→ 2026-11-20 12:00 ${UNDATED}`);
  const showJson = JSON.parse((await runMain(env, ["show", HISTORY_ID, "--json"])).out);
  assertEquals([showJson.time_from_file, showJson.undated], [true, true]);

  const store = Store.open(indexPath(env), { readOnly: true });
  try {
    const page = sessionPage({ base: "/t", store, env, now: 0 }, "kimi", HISTORY_ID) ?? "";
    assertStringIncludes(page, `2026-11-20 12:00 ${UNDATED}`);
    const own = sessionPage({ base: "/t", store, env, now: 0 }, "kimi", KIMI_ID) ?? "";
    assertStringIncludes(own, `2026-11-20 12:00 ${MARK}`);
    assert(!own.includes(UNDATED), own);
  } finally {
    store.close();
  }
});
