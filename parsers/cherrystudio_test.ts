import { assert, assertEquals } from "../tests/_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cherrystudio } from "./cherrystudio.ts";
import { materialize, parseOne, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { jsonlHostileTests } from "../tests/_hostile.ts";
import type { SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const env = testEnv("/nonexistent-home");
const SID = "c5000000-0000-4000-8000-0000000000aa";
const FIXTURE = loadRegistry().find((e) => e.id === "cherrystudio")!;

let n = 0;
const user = (text: string) => ({
  type: "user",
  uuid: `u${++n}`,
  sessionId: SID,
  cwd: "/w/cs",
  timestamp: new Date(Date.UTC(2026, 5, 4, 8, 0, n)).toISOString(),
  message: { role: "user", content: text },
});
const copy = (requestId: string, text: string, id?: string) => ({
  type: "assistant",
  uuid: `a${++n}`,
  requestId,
  sessionId: SID,
  cwd: "/w/cs",
  timestamp: new Date(Date.UTC(2026, 5, 4, 8, 0, n)).toISOString(),
  message: {
    ...(id ? { id } : {}),
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text }],
  },
});

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const want = JSON.parse(readFileSync(join(FIXTURE.fixtureDir, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(FIXTURE, cherrystudio), want);
});

Deno.test("streamed copies of one response become one turn with the longest text, across passes", async () => {
  const dir = tempDir("deja-cherry-");
  try {
    const path = join(dir, `${SID}.jsonl`);
    const src: SourceRef = { harness: "cherrystudio", path, kind: "append" };
    const head = [user("why?"), copy("req1", "Because"), copy("req1", "Because the")];
    writeFileSync(path, head.map((r) => JSON.stringify(r) + "\n").join(""));
    const first = await parseOne(cherrystudio, src, env);
    const tail = [copy("req1", "Because the test is wrong."), copy("req1", "Because")];
    writeFileSync(path, [...head, ...tail].map((r) => JSON.stringify(r) + "\n").join(""));
    const next = await parseOne(cherrystudio, src, env, {
      offset: first.ctx.endOffset,
      state: first.ctx.endState,
    });
    const key = first.sessions[0].events[1].key;
    assertEquals(next.sessions[0].events.map((e) => [e.key, e.text]), [[
      key,
      "Because the test is wrong.",
    ]]);
    const whole = await parseOne(cherrystudio, src, env);
    assertEquals(whole.sessions[0].events.map((e) => e.text), [
      "why?",
      "Because the test is wrong.",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("two different texts of one message both stay when neither extends the other", async () => {
  const dir = tempDir("deja-cherry-");
  try {
    const path = join(dir, `${SID}.jsonl`);
    const recs = [copy("r", "First block.", "msg_1"), copy("r", "Second block.", "msg_1")];
    writeFileSync(path, recs.map((r) => JSON.stringify(r) + "\n").join(""));
    const { sessions } = await parseOne(cherrystudio, {
      harness: "cherrystudio",
      path,
      kind: "append",
    }, env);
    assertEquals(sessions[0].events.map((e) => e.text), ["First block.", "Second block."]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("the chat database yields nothing new on a pass from its own watermark, then a changed topic", async () => {
  const fx = materialize(FIXTURE.fixtureDir);
  try {
    const path = join(fx.root, "cherrystudio.sqlite");
    const src: SourceRef = { harness: "cherrystudio", path, kind: "sqlite" };
    const first = await parseOne(cherrystudio, src, env);
    assertEquals(
      first.sessions.map((s) => s.id),
      ["topic-1", "topic-2"],
      "the deleted topic is left out",
    );
    const mark = first.ctx.endWatermark!;
    assertEquals(mark, 1780560201000, "deleted topics count toward the watermark");
    const again = await parseOne(cherrystudio, src, env, { since: mark + 1 });
    assertEquals(again.sessions.length, 0);
    const db = new DatabaseSync(path);
    db.exec("UPDATE message SET updated_at = 1780570000000 WHERE id = 'm3'");
    db.close();
    const changed = await parseOne(cherrystudio, src, env, { since: mark + 1 });
    assertEquals(changed.sessions.map((s) => s.id), ["topic-1"]);
    assertEquals(changed.ctx.endWatermark, 1780570000000);
  } finally {
    fx.cleanup();
  }
});

Deno.test("a database without the topic and message columns is counted unknown_schema", async () => {
  const dir = tempDir("deja-cherry-");
  try {
    const path = join(dir, "cherrystudio.sqlite");
    const db = new DatabaseSync(path);
    db.exec("CREATE TABLE topic (id text); INSERT INTO topic VALUES ('x');");
    db.close();
    const { sessions, ctx } = await parseOne(cherrystudio, {
      harness: "cherrystudio",
      path,
      kind: "sqlite",
    }, env);
    assertEquals([sessions.length, ctx.counts.unknown_schema], [0, 1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("v1 IndexedDB chats are reported unsupported once when no v2 database exists", async () => {
  const app = tempDir("deja-cherry-app-");
  try {
    mkdirSync(join(app, "IndexedDB", "file__0.indexeddb.leveldb"), { recursive: true });
    const e = testEnv("/h", { DEJA_CHERRYSTUDIO_ROOT: app });
    const run = await runParser(cherrystudio, e);
    assertEquals(run.skips, { [join(app, "IndexedDB")]: { unsupported: 1 } });
    writeFileSync(join(app, "cherrystudio.sqlite"), "");
    const d = await cherrystudio.discover({ env: e, knownProjects: [] });
    assertEquals(d.sources.map((s) => s.kind), ["sqlite"], "a v2 database replaces the marker");
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});

Deno.test("the app data directory follows the platform when no override is set", async () => {
  const mac = await cherrystudio.discover({
    env: { home: "/Users/u", platform: "darwin", get: () => undefined },
    knownProjects: [],
  });
  assert(mac.roots[0] === "/Users/u/Library/Application Support/CherryStudio");
  const linux = await cherrystudio.discover({ env: testEnv("/home/u"), knownProjects: [] });
  assertEquals(linux.roots.slice(0, 2), [
    "/home/u/.config/CherryStudio",
    "/home/u/.config/CherryStudio/Data/Agents/.claude/projects",
  ]);
});

jsonlHostileTests(cherrystudio, {
  file: `-w-cs/${SID}.jsonl`,
  id: SID,
  record: (i) => [user("one"), copy("q1", "answer one"), user("two"), copy("q2", "answer two")][i],
});
