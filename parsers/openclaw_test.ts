import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { zstdCompressSync } from "node:zlib";
import { openclaw } from "./openclaw.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/openclaw");
const env = testEnv("/nonexistent-home");
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);
const dbSrc = (path: string): SourceRef => ({
  harness: "openclaw",
  path,
  kind: "sqlite",
  companions: [`${path}-wal`],
});

function temp(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-openclaw-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const DDL = `CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, current_session_id TEXT,
    entry_json TEXT, updated_at INTEGER);
  CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT, created_at INTEGER,
    updated_at INTEGER, model TEXT, parent_session_key TEXT, spawned_by TEXT, display_name TEXT);
  CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT, created_at INTEGER,
    event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT, PRIMARY KEY (session_id, seq));`;

const head = (id: string) =>
  JSON.stringify({ type: "session", version: 4, id, timestamp: "2026-07-07T00:00:00Z", cwd: "/w" });
const said = (id: string, role: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    timestamp: "2026-07-07T00:00:01Z",
    message: { role, content: [{ type: "text", text }] },
  });

/** Inserts `event` at `seq` of session `sid`, created at `at` (epoch ms). */
function put(db: DatabaseSync, sid: string, seq: number, event: string, at: number): void {
  db.prepare(
    "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?,?,?,?)",
  )
    .run(sid, seq, event, at);
}

Deno.test("fixture run matches expected.json when the registry fixture is parsed", async () => {
  const entry = loadRegistry().find((e) => e.id === "openclaw")!;
  const want = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));
  assertEquals(await fixtureRun(entry, openclaw), want);
});

Deno.test("discover takes agent databases and live transcripts, not checkpoints, backups or nested files", async () => {
  const fx = materialize(FIXTURE);
  try {
    const d = await openclaw.discover({
      env: testEnv("/nonexistent", { DEJA_OPENCLAW_ROOT: join(fx.root, "state") }),
      knownProjects: [],
    });
    const rel = d.sources.map((s) => [s.kind, s.path.replace(fx.root + "/state/agents/", "")]);
    assertEquals(rel, [
      ["sqlite", "main/agent/openclaw-agent.sqlite"],
      ["append", "main/sessions/7c6a0000-0000-4000-8000-000000000011.jsonl"],
      ["sqlite", "old/agent/openclaw-agent.sqlite"],
      ["append", "work/sessions/7c6a0000-0000-4000-8000-000000000012.jsonl"],
    ]);
    assert(d.sources[0].companions![0].endsWith("openclaw-agent.sqlite-wal"));
    const state = await openclaw.discover({
      env: testEnv("/h", { OPENCLAW_STATE_DIR: "/st" }),
      knownProjects: [],
    });
    assertEquals(state.roots, ["/st"]);
  } finally {
    fx.cleanup();
  }
});

Deno.test("fixture db: zstd row decoded, spawned child linked, reset archive read, credentials unread", async () => {
  const fx = materialize(FIXTURE);
  try {
    const db = join(fx.root, "state/agents/main/agent/openclaw-agent.sqlite");
    const { sessions } = await parseOne(openclaw, dbSrc(db), env);
    const main = sessions.find((s) => s.id === "6b5f0000-0000-4000-8000-000000000001")!;
    assert(texts(main, "assistant").some((t) => t.includes("stored zstd-compressed")));
    const edit = main.events.flatMap((e) => e.tool?.edits ?? [])[0];
    assertEquals(edit, { path: "/w/claw/app.py", old: "return 'bye'", new: "return 'hello'" });
    const child = sessions.find((s) => s.id === "6b5f0000-0000-4000-8000-000000000002")!;
    assertEquals([child.parent, child.title], [main.id, "Reviewer"]);
    const reset = sessions.find((s) => s.id === "6b5f0000-0000-4000-8000-000000000003")!;
    assertEquals(texts(reset, "user"), ["Yesterday's question before the reset"]);
    assertEquals(JSON.stringify(sessions).includes("DECOY"), false);
  } finally {
    fx.cleanup();
  }
});

Deno.test("watermark: a later pass yields only sessions changed at or after it, whole", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "openclaw-agent.sqlite");
    const db = new DatabaseSync(path);
    db.exec(DDL);
    put(db, "A", 0, head("A"), 1000);
    put(db, "A", 1, said("a1", "user", "old question"), 1001);
    put(db, "B", 0, head("B"), 2000);
    put(db, "B", 1, said("b1", "user", "b question"), 2001);
    const first = await parseOne(openclaw, dbSrc(path), env);
    assertEquals(first.sessions.map((s) => s.id), ["A", "B"]);
    assertEquals(first.ctx.endWatermark, 2001);
    put(db, "A", 2, said("a2", "assistant", "late answer"), 3000);
    const second = await parseOne(openclaw, dbSrc(path), env, { since: 2002 });
    assertEquals(second.sessions.map((s) => s.id), ["A"]);
    assertEquals(texts(second.sessions[0], "user"), ["old question"]);
    assertEquals(texts(second.sessions[0], "assistant"), ["late answer"]);
    assertEquals(second.ctx.endWatermark, 3000);
    const none = await parseOne(openclaw, dbSrc(path), env, { since: 3001 });
    assertEquals([none.sessions.length, none.ctx.endWatermark], [0, 3001]);
    db.close();
  } finally {
    t.cleanup();
  }
});

Deno.test("rows that live only in the WAL are read, also from a copy without its -shm", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "openclaw-agent.sqlite");
    const db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
    db.exec(DDL);
    put(db, "W", 0, head("W"), 10);
    put(db, "W", 1, said("w1", "assistant", "only in the wal"), 11);
    assert(readFileSync(`${path}-wal`).length > 0);
    const live = await parseOne(openclaw, dbSrc(path), env);
    assertEquals(texts(live.sessions[0], "assistant"), ["only in the wal"]);
    const copy = join(t.dir, "copy");
    mkdirSync(copy);
    copyFileSync(path, join(copy, "openclaw-agent.sqlite"));
    copyFileSync(`${path}-wal`, join(copy, "openclaw-agent.sqlite-wal"));
    const snap = await parseOne(openclaw, dbSrc(join(copy, "openclaw-agent.sqlite")), env);
    assertEquals(texts(snap.sessions[0], "assistant"), ["only in the wal"]);
    assertEquals(readdirSync(copy).sort(), ["openclaw-agent.sqlite", "openclaw-agent.sqlite-wal"]);
    db.close();
  } finally {
    t.cleanup();
  }
});

Deno.test("zstd rows that do not decode or whose length disagrees are counted as corrupt", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "openclaw-agent.sqlite");
    const db = new DatabaseSync(path);
    db.exec(DDL);
    const ok = said("z1", "user", "compressed fine");
    const ins = db.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes) VALUES (?,?,NULL,?,?,?)",
    );
    put(db, "Z", 0, head("Z"), 1);
    ins.run("Z", 1, 2, new Uint8Array(zstdCompressSync(Buffer.from(ok))), ok.length);
    ins.run("Z", 2, 3, new Uint8Array([1, 2, 3, 4]), 10);
    ins.run("Z", 3, 4, new Uint8Array(zstdCompressSync(Buffer.from(ok))), ok.length + 5);
    db.close();
    const { sessions, ctx } = await parseOne(openclaw, dbSrc(path), env);
    assertEquals(texts(sessions[0], "user"), ["compressed fine"]);
    assertEquals(ctx.counts.corrupt, 2);
  } finally {
    t.cleanup();
  }
});

Deno.test("a database without transcript_events is an unknown schema, not an error", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "openclaw-agent.sqlite");
    const db = new DatabaseSync(path);
    db.exec("CREATE TABLE something_else (x)");
    db.close();
    const { sessions, ctx } = await parseOne(openclaw, dbSrc(path), env, { since: 5 });
    assertEquals([sessions.length, ctx.counts.unknown_schema, ctx.endWatermark], [0, 1, 5]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty database file is skipped as empty and a corrupt one stops the source", async () => {
  const t = temp();
  try {
    const empty = join(t.dir, "empty.sqlite");
    writeFileSync(empty, "");
    const e = await parseOne(openclaw, dbSrc(empty), env);
    assertEquals([e.sessions.length, e.ctx.counts.empty], [0, 1]);
    assertEquals(readFileSync(empty).length, 0);
    const bad = join(t.dir, "bad.sqlite");
    writeFileSync(bad, "this is not a database, just bytes ".repeat(200));
    await assertRejects(() => parseOne(openclaw, dbSrc(bad), env));
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed JSONL pass keeps the header id of an OpenClaw transcript", async () => {
  const t = temp();
  try {
    const path = join(t.dir, "agents/main/sessions/s.jsonl");
    mkdirSync(join(t.dir, "agents/main/sessions"), { recursive: true });
    writeFileSync(path, head("H") + "\n" + said("u", "user", "q") + "\n");
    const src: SourceRef = { harness: "openclaw", path, kind: "append" };
    const full = await parseOne(openclaw, src, env);
    writeFileSync(path, readFileSync(path, "utf8") + said("a", "assistant", "r") + "\n");
    const resumed = await parseOne(openclaw, src, env, { offset: full.ctx.endOffset });
    assertEquals([full.sessions[0].id, resumed.sessions[0].id], ["H", "H"]);
    assertEquals(resumed.sessions[0].project, "/w");
  } finally {
    t.cleanup();
  }
});

const FARM = join(REPO, "../shared/realdata/farm/openclaw/home/.openclaw");

Deno.test({
  name:
    "farm store (OpenClaw 2026.9.6, SQLite) yields the marker, cat's exit 1 and the README edit",
  ignore: !existsSync(FARM),
  async fn() {
    const before = readdirSync(join(FARM, "agents/main/agent")).sort();
    const run = await runParser(
      openclaw,
      testEnv("/nonexistent-home", { DEJA_OPENCLAW_ROOT: FARM }),
    );
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(run.discovery.sources.map((s) => s.kind), ["sqlite"]);
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.id, s.project, s.model], [
      "6b5f312c-4c31-4ce6-aeee-176046812b09",
      "/tmp/farm/openclaw/proj",
      "mock-model",
    ]);
    assert(texts(s, "assistant").some((t) => t.includes("zebrafinch-openclaw")));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) => e.result?.callId === cat.tool!.id)!;
    assertEquals([res.result?.exit, res.result?.isError], [1, true]);
    assertEquals(res.text, "cat: missing.txt: No such file or directory");
    const edit = s.events.flatMap((e) => e.tool?.edits ?? [])[0];
    assertEquals(edit, {
      path: "/tmp/farm/openclaw/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    });
    assertEquals(readdirSync(join(FARM, "agents/main/agent")).sort(), before);
  },
});
