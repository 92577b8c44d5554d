import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env, Event, ParseCtx, Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { readOpencodeDb } from "./_opencode_db.ts";
import { buildSession, type OcMessage } from "./_opencode_events.ts";
import { opencode } from "./opencode.ts";
import { tempDir } from "../tests/_tmp.ts";

const FIXTURE = join(REPO, "fixtures/registry/opencode");
const MAIN = "ses_fx01main";
const CHILD = "ses_fx02child";
const LEGACY = "ses_fxlegacy01";
const T0 = 1795000000000;

/** A materialised copy of the fixture with an env pointing DEJA_OPENCODE_ROOT at it. */
async function withFixture(fn: (root: string, env: Env) => Promise<void>): Promise<void> {
  const fx = materialize(FIXTURE);
  try {
    await fn(fx.root, testEnv(join(fx.root, "__home__"), { DEJA_OPENCODE_ROOT: fx.root }));
  } finally {
    fx.cleanup();
  }
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-oc-test-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dbSource = (path: string): SourceRef => ({
  harness: "opencode",
  path,
  kind: "sqlite",
  companions: [`${path}-wal`],
});
const docSource = (path: string): SourceRef => ({ harness: "opencode", path, kind: "document" });

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

/** The tool_result answering the tool_call whose command is `command`. */
function resultOf(events: Event[], command: string): Event {
  const call = events.find((e) => e.kind === "tool_call" && e.tool?.command === command);
  assert(call, `no call for ${command}`);
  const res = events.find((e) => e.kind === "tool_result" && e.result?.callId === call.tool?.id);
  assert(res, `no result for ${command}`);
  return res;
}

function sha(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A minimal opencode-schema database with one session. */
function miniDb(path: string, extra = ""): void {
  const db = new DatabaseSync(path);
  db.exec(`
    CREATE TABLE session (id TEXT PRIMARY KEY, directory TEXT, title TEXT, parent_id TEXT,
      time_created INTEGER, time_updated INTEGER);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, data TEXT);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, time_created INTEGER, data TEXT);
    INSERT INTO session VALUES ('ses_mini', '/w/mini', 'Mini', NULL, ${T0}, ${T0 + 10});
    INSERT INTO message VALUES ('msg_1', 'ses_mini', ${T0 + 1},
      '{"role":"user","time":{"created":${T0 + 1}}}');
    INSERT INTO part VALUES ('prt_1', 'msg_1', ${T0 + 2}, '{"type":"text","text":"mini hello"}');
    ${extra}`);
  db.close();
}

// ---- discovery ----

Deno.test("discover lists opencode.db with its -wal and only unmigrated legacy files when both exist", async () => {
  await withFixture(async (root, env) => {
    const d = await opencode.discover({ env, knownProjects: [] });
    const db = join(root, "opencode.db");
    assertEquals(d.sources[0], {
      harness: "opencode",
      path: db,
      kind: "sqlite",
      companions: [`${db}-wal`],
    });
    const docs = d.sources.filter((s) => s.kind === "document").map((s) => s.path);
    assertEquals(docs, [join(root, "storage/session/6a1f0e2b9c", `${LEGACY}.json`)]);
    assert(d.roots.includes(root));
  });
});

Deno.test("discover uses XDG_DATA_HOME/opencode when DEJA_OPENCODE_ROOT is unset", async () => {
  await withTemp(async (dir) => {
    mkdirSync(join(dir, "xdg/opencode"), { recursive: true });
    miniDb(join(dir, "xdg/opencode/opencode.db"));
    const d = await opencode.discover({
      env: testEnv(join(dir, "home"), { XDG_DATA_HOME: join(dir, "xdg") }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path), [join(dir, "xdg/opencode/opencode.db")]);
    const dflt = await opencode.discover({ env: testEnv(join(dir, "home")), knownProjects: [] });
    assertEquals(dflt.roots[0], join(dir, "home/.local/share/opencode"));
    assertEquals(dflt.sources, []);
  });
});

Deno.test("discover adds channel databases and honours OPENCODE_DB when they exist", async () => {
  await withTemp(async (dir) => {
    miniDb(join(dir, "opencode.db"));
    miniDb(join(dir, "opencode-beta.db"));
    miniDb(join(dir, "other.db"));
    const env = testEnv(join(dir, "home"), { DEJA_OPENCODE_ROOT: dir });
    const d = await opencode.discover({ env, knownProjects: [] });
    assertEquals(d.sources.map((s) => s.path), [
      join(dir, "opencode-beta.db"),
      join(dir, "opencode.db"),
    ]);
    const named = await opencode.discover({
      env: testEnv(join(dir, "home"), { DEJA_OPENCODE_ROOT: dir, OPENCODE_DB: "other.db" }),
      knownProjects: [],
    });
    assertEquals(named.sources.map((s) => s.path), [join(dir, "other.db")]);
  });
});

Deno.test("a folder named like the database is reported as no store, not passed over (trial 29)", async () => {
  await withTemp(async (dir) => {
    mkdirSync(join(dir, "opencode.db"));
    mkdirSync(join(dir, "named.db"));
    for (const vars of [{}, { OPENCODE_DB: "named.db" }] as Record<string, string>[]) {
      const problems: string[] = [];
      const d = await opencode.discover({
        env: testEnv(join(dir, "home"), { DEJA_OPENCODE_ROOT: dir, ...vars }),
        knownProjects: [],
        problem: (path, e) => problems.push(`${path}: ${(e as { code?: string }).code}`),
      });
      assertEquals(d.sources, []);
      const name = vars.OPENCODE_DB ?? "opencode.db";
      assertEquals(problems, [`${join(dir, name)}: ENOTREG`]);
    }
  });
});

Deno.test("discover returns no sources without throwing when the data dir is missing", async () => {
  const env = testEnv("/nonexistent-home", { DEJA_OPENCODE_ROOT: "/nonexistent-deja-oc" });
  const d = await opencode.discover({ env, knownProjects: [] });
  assertEquals(d.sources, []);
});

// ---- mapping ----

Deno.test("parse keeps typed text and drops synthetic, reasoning and blank parts when reading the db", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const ev = session(sessions, MAIN).events;
    const speech = ev.filter((e) => e.kind === "user" || e.kind === "assistant");
    assertEquals(speech[0], {
      kind: "user",
      text: "Why does the cart test fail? Please fix it.",
      time: T0 + 1010,
      key: "prt_fx010101",
    });
    // No part time: the row's time_created is used.
    assertEquals(speech[1].time, T0 + 2030);
    const all = JSON.stringify(ev);
    for (
      const gone of [
        "SECRET-THOUGHT",
        "Called the Read tool",
        "following tool was executed",
        "NOT-FROM-EVENT",
      ]
    ) {
      assert(!all.includes(gone), `${gone} leaked`);
    }
    assert(!speech.some((e) => e.text.trim() === ""));
  });
});

Deno.test("parse gives bash calls their command and exit when state.metadata.exit is recorded", async () => {
  await withFixture(async (_root, env) => {
    const run = await runParser(opencode, env);
    const ev = session(run.sessions, MAIN).events;
    const failing = resultOf(ev, "go test ./pkg/");
    assertEquals(failing.result, { callId: "call_bash_1", exit: 1, isError: false });
    assertStringIncludes(failing.text, "FAIL: TestCartTotal");
    assertEquals(resultOf(ev, "go build ./...").result?.exit, 0);
    // The person ran this one themselves (! in the TUI): their command, not a call.
    assert(!ev.some((e) => e.tool?.command === "git status --short"));
    const mine = ev.findIndex((e) => e.kind === "user" && e.text === "!git status --short");
    assertEquals(ev[mine + 1], {
      kind: "notice",
      text: " M pkg/cart.go",
      time: 1795000080080,
      key: "prt_fx010901:result",
    });
    assertEquals(resultOf(session(run.sessions, LEGACY).events, "npm ls feed").result?.exit, 1);
  });
});

Deno.test("parse marks the result as an error with its text when state.status is error", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const res = resultOf(session(sessions, MAIN).events, "go test -race ./...");
    assertEquals(res.result, { callId: "call_bash_3", exit: undefined, isError: true });
    assertEquals(res.text, "Tool execution aborted\n=== RUN   TestCartTotal\n");
  });
});

Deno.test("parse resolves a relative read path against the message cwd and strips the read framing", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const ev = session(sessions, MAIN).events;
    const i = ev.findIndex((e) => e.tool?.name === "read");
    assertEquals(ev[i].tool?.paths, ["/home/dev/shop/pkg/cart.go"]);
    assertEquals(ev[i + 1].text, "package pkg\n\nfunc Total(p []int) int { return sum(p) / 100 }");
  });
});

Deno.test("parse turns edit, multiedit, write and apply_patch input into edits and writes", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const tool = (name: string) =>
      session(sessions, MAIN).events.find((e) => e.tool?.name === name)?.tool;
    assertEquals(tool("edit")?.edits, [{
      path: "/home/dev/shop/pkg/cart.go",
      old: "return sum(p) / 100",
      new: "return (sum(p) + 50) / 100",
    }]);
    assertEquals(tool("multiedit")?.edits?.map((e) => [e.path, e.old]), [
      ["/home/dev/shop/pkg/cart_test.go", "want := 3"],
      ["/home/dev/shop/pkg/cart_test.go", "t.Fatal(got)"],
    ]);
    assertEquals(tool("write")?.writes, [{
      path: "/home/dev/shop/CHANGELOG.md",
      content: "- fix cart rounding\n",
    }]);
    const patch = tool("apply_patch");
    assertEquals(patch?.edits, [{
      path: "/home/dev/shop/pkg/money.go",
      old: "\treturn v",
      new: "\treturn (v + 50) / 100 * 100",
    }]);
    assertEquals(patch?.writes?.map((w) => w.path), ["/home/dev/shop/pkg/money_test.go"]);
  });
});

Deno.test("parse emits a tool_call without a result when the tool is still running", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const ev = session(sessions, MAIN).events;
    assert(ev.some((e) => e.kind === "tool_call" && e.tool?.id === "call_q_1"));
    assert(!ev.some((e) => e.kind === "tool_result" && e.result?.callId === "call_q_1"));
  });
});

Deno.test("parse files an assistant message's text as a summary when the message has summary true", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const sums = session(sessions, MAIN).events.filter((e) => e.kind === "summary");
    assertEquals(sums.length, 1);
    assertStringIncludes(sums[0].text, "fixed rounding in pkg/cart.go");
  });
});

Deno.test("parse takes title, parent, project and ms times from the session row and drops placeholder titles", async () => {
  await withFixture(async (root, env) => {
    const { sessions } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    const main = session(sessions, MAIN);
    assertEquals(
      [main.title, main.project, main.started, main.updated, main.parent, main.model],
      ["Fix the failing cart test", "/home/dev/shop", T0, T0 + 90000, undefined, "claude-sonnet-4"],
    );
    const child = session(sessions, CHILD);
    assertEquals([child.parent, child.title], [MAIN, undefined]);
    assert(child.id !== child.parent);
  });
});

Deno.test("parse yields whole sessions updated at or after since when resuming from a watermark", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "opencode.db");
    const full = await parseOne(opencode, dbSource(path), env);
    assertEquals(full.ctx.endWatermark, T0 + 90000);
    const again = await parseOne(opencode, dbSource(path), env, { since: full.ctx.endWatermark });
    assertEquals(again.sessions.map((s) => s.id), [MAIN]);
    assertEquals(again.sessions[0].events, session(full.sessions, MAIN).events);
    assertEquals(again.ctx.endWatermark, T0 + 90000);
    // The harness touches the child session: it comes back whole, and the watermark moves.
    const w = new DatabaseSync(path);
    w.exec(`UPDATE session SET time_updated = ${T0 + 95000} WHERE id = '${CHILD}'`);
    w.close();
    const next = await parseOne(opencode, dbSource(path), env, { since: T0 + 90001 });
    assertEquals(next.sessions.map((s) => s.id), [CHILD]);
    assertEquals(next.sessions[0].events.length, session(full.sessions, CHILD).events.length);
    assertEquals(next.ctx.endWatermark, T0 + 95000);
    // A session stamped in the future moves the watermark no further than now (trial 91 F2).
    const f = new DatabaseSync(path);
    f.exec(`UPDATE session SET time_updated = ${Date.now() + 86_400_000} WHERE id = '${CHILD}'`);
    f.close();
    const before = Date.now();
    const skewed = await parseOne(opencode, dbSource(path), env, { since: T0 + 95001 });
    assertEquals(skewed.sessions.map((s) => s.id), [CHILD]);
    assert(skewed.ctx.endWatermark! <= Date.now() && skewed.ctx.endWatermark! >= before);
  });
});

Deno.test("readOpencodeDb writes the given harness id when another harness reuses it", async () => {
  await withTemp(async (dir) => {
    miniDb(join(dir, "kilo.db"));
    const ctx = new (await import("../lib/parse_ctx.ts")).SourceCtx(testEnv(dir));
    const out: Session[] = [];
    for await (const s of readOpencodeDb("kilocode", join(dir, "kilo.db"), ctx)) out.push(s);
    assertEquals(out.map((s) => [s.harness, s.id, s.project]), [[
      "kilocode",
      "ses_mini",
      "/w/mini",
    ]]);
  });
});

// ---- hostile stores ----

Deno.test("parse counts unknown_schema and yields nothing when the session table lacks time_updated", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "opencode.db");
    const db = new DatabaseSync(path);
    db.exec(`CREATE TABLE session (id TEXT, directory TEXT); CREATE TABLE message (id TEXT);
      INSERT INTO session VALUES ('ses_x', '/w');`);
    db.close();
    const { sessions, ctx } = await parseOne(opencode, dbSource(path), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_schema: 1 });
    assertStringIncludes(ctx.examples[0], "session.time_updated");
  });
});

Deno.test("parse counts the store as empty when opencode.db is 0 bytes", async () => {
  await withTemp(async (dir) => {
    writeFileSync(join(dir, "opencode.db"), "");
    const { sessions, ctx } = await parseOne(
      opencode,
      dbSource(join(dir, "opencode.db")),
      testEnv(dir),
    );
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  });
});

Deno.test("parse throws StoreError corrupt when the file is not a database", async () => {
  await withTemp(async (dir) => {
    writeFileSync(join(dir, "opencode.db"), "this is not sqlite at all, just text\n".repeat(200));
    const e = await assertRejects(
      () => parseOne(opencode, dbSource(join(dir, "opencode.db")), testEnv(dir)),
      StoreError,
    );
    assertEquals((e as StoreError).reason, "corrupt");
  });
});

Deno.test("parse throws StoreError locked when another connection holds an exclusive lock", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "opencode.db");
    miniDb(path);
    const holder = new DatabaseSync(path);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const env = testEnv(dir, { DEJA_SQLITE_TIMEOUT_MS: "50" });
      const e = await assertRejects(() => parseOne(opencode, dbSource(path), env), StoreError);
      assertEquals((e as StoreError).reason, "locked");
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });
});

Deno.test("parse counts a malformed row and an unknown first part, and keeps reading, when the db has them", async () => {
  await withFixture(async (root, env) => {
    const { sessions, ctx } = await parseOne(opencode, dbSource(join(root, "opencode.db")), env);
    assertEquals(ctx.counts, { malformed_json: 1, unknown_record: 1 });
    assert(ctx.examples.some((x) => x.includes("msg_fx0105")));
    assert(ctx.examples.some((x) => x.includes("prt_fx010401") && x.includes("telepathy")));
    // The message holding the unknown part still gives its tool call.
    assert(session(sessions, MAIN).events.some((e) => e.tool?.id === "call_task_1"));
  });
});

Deno.test("parse neither crashes nor drops the session when a part's data is not valid UTF-8", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "opencode.db");
    // {"type":"text","text":"bad \xff byte"} stored as TEXT with a raw 0xFF byte
    const hexOf = (t: string) =>
      [...new TextEncoder().encode(t)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const hex = `${hexOf('{"type":"text","text":"bad ')}ff${hexOf(' byte"}')}`;
    miniDb(path, `INSERT INTO part VALUES ('prt_2', 'msg_1', ${T0 + 3}, CAST(X'${hex}' AS TEXT));`);
    const { sessions, ctx } = await parseOne(opencode, dbSource(path), testEnv(dir));
    const ev = session(sessions, "ses_mini").events;
    assertEquals(ev[0].text, "mini hello");
    // node:sqlite decodes the bad byte as U+FFFD, so the JSON still parses.
    assertEquals([ev.length, ev[1]?.text, ctx.counts], [2, "bad \uFFFD byte", {}]);
  });
});

Deno.test("parse sees rows that live only in the -wal when the writer has not checkpointed", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "opencode.db");
    miniDb(path);
    const writer = new DatabaseSync(path);
    writer.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;");
    writer.exec(
      `INSERT INTO part VALUES ('prt_9', 'msg_1', ${
        T0 + 9
      }, '{"type":"text","text":"only in wal"}')`,
    );
    try {
      assert(existsSync(`${path}-wal`));
      const { sessions } = await parseOne(opencode, dbSource(path), testEnv(dir));
      assert(session(sessions, "ses_mini").events.some((e) => e.text === "only in wal"));
    } finally {
      writer.close();
    }
  });
});

Deno.test("parse leaves the store byte-identical and creates no -wal or -shm when reading the fixture db", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "opencode.db");
    const before = sha(path);
    await parseOne(opencode, dbSource(path), env);
    assertEquals(sha(path), before);
    assert(!existsSync(`${path}-wal`) && !existsSync(`${path}-shm`));
  });
});

// ---- legacy JSON tree ----

Deno.test("parse reads a legacy session with its message and part files when the tree is complete", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "storage/session/6a1f0e2b9c", `${LEGACY}.json`);
    const { sessions } = await parseOne(opencode, docSource(path), env);
    const s = session(sessions, LEGACY);
    assertEquals([s.title, s.project, s.started, s.updated, s.model], [
      "Add an RSS feed",
      "/home/dev/blog",
      1760000000000,
      1760000030000,
      "gpt-5",
    ]);
    assertEquals(s.events.map((e) => e.kind), [
      "user",
      "assistant",
      "tool_call",
      "tool_result",
      "assistant",
    ]);
  });
});

Deno.test("parse counts a half-written legacy part file and reads it once it is complete", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "storage/session/6a1f0e2b9c", `${LEGACY}.json`);
    const first = await parseOne(opencode, docSource(path), env);
    assertEquals(first.ctx.counts, { malformed_json: 1 });
    writeFileSync(
      join(root, "storage/part/msg_fxl0002/prt_fxl000203.json"),
      JSON.stringify({ id: "prt_fxl000203", type: "text", text: "half written, now whole" }),
    );
    const second = await parseOne(opencode, docSource(path), env);
    assertEquals(second.ctx.counts, {});
    const ids = session(second.sessions, LEGACY).events.map((e) => e.key);
    assertEquals(ids.indexOf("prt_fxl000203"), ids.indexOf("prt_fxl000202:result") + 1);
  });
});

Deno.test("parse counts an empty legacy session file as empty and yields nothing", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "storage/session/6a1f0e2b9c", `${LEGACY}.json`);
    writeFileSync(path, "");
    const { sessions, ctx } = await parseOne(opencode, docSource(path), env);
    assertEquals([sessions, ctx.counts], [[], { empty: 1 }]);
  });
});

// ---- golden ----

Deno.test("fixture run equals expected.json when DEJA_OPENCODE_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "opencode");
  assert(entry);
  const got = JSON.parse(
    JSON.stringify(await fixtureRun(entry, opencode)).replace(/\/tmp\/deja-fx-[^/"]+/g, "<root>"),
  );
  assertEquals(got, JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")));
});

// ---- real stores ----

const REAL = join(REPO, "../shared/realdata");
const FARM = join(REAL, "farm/opencode/home/.local/share/opencode");
const PUBLIC = join(REAL, "opencode");

Deno.test({
  name:
    "realdata farm store gives the marker, the failing command and the README edit without errors",
  ignore: !existsSync(join(FARM, "opencode.db")),
  async fn() {
    const files = ["opencode.db", "opencode.db-wal", "opencode.db-shm"].map((f) => join(FARM, f));
    const before = files.map(sha);
    const run = await runParser(
      opencode,
      testEnv("/nonexistent-home", { DEJA_OPENCODE_ROOT: FARM }),
    );
    assertEquals([run.errors, run.skips], [{}, {}]);
    assertEquals(files.map(sha), before, "the farm store changed while being read");
    assertEquals(run.sessions.length, 1);
    const s = run.sessions[0];
    assertEquals([s.title, s.project, s.model], [
      "Farm session zebrafinch-opencode",
      "/tmp/farm/opencode/proj",
      "mock-model",
    ]);
    assert(s.events.some((e) => e.kind === "assistant" && e.text.includes("zebrafinch-opencode")));
    const cat = resultOf(s.events, "cat missing.txt");
    assertEquals(cat.result?.exit, 1);
    assertStringIncludes(cat.text, "No such file or directory");
    const edits = s.events.flatMap((e) => e.tool?.edits ?? []);
    assertEquals(edits, [{
      path: "/tmp/farm/opencode/proj/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
  },
});

Deno.test({
  name:
    "realdata public opencode.db yields its session with title and project when read from a copy",
  ignore: !existsSync(join(PUBLIC, "opencode.db")),
  async fn() {
    await withTemp(async (dir) => {
      copyFileSync(join(PUBLIC, "opencode.db"), join(dir, "opencode.db"));
      const run = await runParser(opencode, testEnv(dir, { DEJA_OPENCODE_ROOT: dir }));
      assertEquals(run.errors, {});
      assertEquals(run.skips, {});
      const s = session(run.sessions, "ses_1279fce82ffeZOJhNwml1w1Fu4");
      assertEquals([s.title, s.project], [
        "Flask server for static portfolio PaaS deployment",
        "/home/build",
      ]);
      assertEquals(resultOf(s.events, "git status").result?.exit, 128);
      assertEquals(s.events.filter((e) => e.tool?.writes).length, 3);
      assert(!s.events.some((e) => e.text.includes("The following tool was executed by the user")));
    });
  },
});

Deno.test("prompt history prompts no session holds become one session when prompt-history.jsonl sits in the state dir", async () => {
  // Issue 15 (opencode 1.17.3, realdata): the TUI's prompt-history.jsonl was not read, so prompts
  // whose session is gone ("how do i change the photo") could not be found.
  await withTemp(async (dir) => {
    mkdirSync(join(dir, "data/opencode"), { recursive: true });
    mkdirSync(join(dir, "state/opencode"), { recursive: true });
    miniDb(join(dir, "data/opencode/opencode.db"));
    const line = (input: string) => JSON.stringify({ input, parts: [], mode: "normal" }) + "\n";
    const hist = join(dir, "state/opencode/prompt-history.jsonl");
    writeFileSync(hist, line("mini hello") + line("how do i change the photo ") + "{}\n");
    const env = testEnv(join(dir, "home"), {
      XDG_DATA_HOME: join(dir, "data"),
      XDG_STATE_HOME: join(dir, "state"),
    });
    const d = await opencode.discover({ env, knownProjects: [] });
    const src = d.sources.find((s) => s.path === hist);
    assert(src, "prompt-history.jsonl not discovered");
    const { sessions, ctx } = await parseOne(opencode, src, env);
    assertEquals(sessions.map((s) => s.id), ["prompt-history"]);
    assertEquals(sessions[0].events.map((e) => [e.kind, e.text]), [
      ["user", "how do i change the photo"],
    ]);
    // Dated by the file's mtime, which many prompts share: undated (lib/session_time.ts).
    assertEquals(sessions[0].timeFromFile, "shared");
    assertEquals(typeof sessions[0].updated, "number");
    assertEquals(ctx.counts, { bad_shape: 1 });
  });
});

Deno.test("a command the person ran with ! is their own: a user event !cmd and a notice with its output, not an agent call (realdata opencode 1.17.3)", () => {
  const env = testEnv("/nonexistent-home");
  const ctx: ParseCtx = { env, offset: 0, state: undefined, since: 0, skip() {} };
  const marker = (id: string): OcMessage => ({
    id,
    data: { role: "user", time: { created: T0 } },
    parts: [{
      id: `${id}p`,
      data: { type: "text", text: "The following tool was executed by the user", synthetic: true },
    }],
  });
  const bash = (id: string, command: string, output: string, parentID?: string): OcMessage => ({
    id,
    data: { role: "assistant", time: { created: T0 + 1 }, ...(parentID ? { parentID } : {}) },
    parts: [{
      id: `${id}p`,
      data: {
        type: "tool",
        tool: "bash",
        callID: `c-${id}`,
        state: { status: "completed", input: { command }, output, time: { start: T0 + 2 } },
      },
    }],
  });
  const s = buildSession("opencode", "/db", { id: "ses_x", directory: "/work/app" }, [
    marker("msg_1"),
    bash("msg_2", "ls", "a.txt\nb.txt\n", "msg_1"),
    marker("msg_3"),
    bash("msg_4", "pwd", "/work/app\n"), // older opencode: no parentID, the message just follows
    {
      id: "msg_5",
      data: { role: "user" },
      parts: [{ id: "p5", data: { type: "text", text: "go" } }],
    },
    bash("msg_6", "git status", "clean\n", "msg_5"), // the agent's own call
  ], ctx);
  assertEquals(s.events.map((e) => [e.kind, e.text]), [
    ["user", "!ls"],
    ["notice", "a.txt\nb.txt"],
    ["user", "!pwd"],
    ["notice", "/work/app"],
    ["user", "go"],
    ["tool_call", ""],
    ["tool_result", "clean\n"],
  ]);
  assertEquals(s.events[5].tool?.command, "git status");
});
