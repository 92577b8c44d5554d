import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Env, Event, Session, SourceRef } from "../core/model.ts";
import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import { materialize, parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { fixtureRun, loadRegistry } from "../tests/_registry.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { appUserDir, uriToPath } from "./_vscode.ts";
import { cursor, decodeProject } from "./cursor.ts";
import { tempDir } from "../tests/_tmp.ts";
import { runIndex } from "../lib/indexer.ts";
import { parsers } from "./mod.ts";

const FIXTURE = join(REPO, "fixtures/registry/cursor");
const T = 1795400000000;

async function withFixture(fn: (root: string, env: Env) => Promise<void>): Promise<void> {
  const fx = materialize(FIXTURE);
  try {
    await fn(fx.root, testEnv(join(fx.root, "__home__"), { DEJA_CURSOR_ROOT: fx.root }));
  } finally {
    fx.cleanup();
  }
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir("deja-cursor-");
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function session(list: Session[], id: string): Session {
  const s = list.find((x) => x.id === id);
  assert(s, `session ${id} not found among ${list.map((x) => x.id).join(", ")}`);
  return s;
}

function byCall(events: Event[], id: string): { call: Event; result?: Event } {
  const call = events.find((e) => e.kind === "tool_call" && e.tool?.id === id);
  assert(call, `no call ${id}`);
  return { call, result: events.find((e) => e.kind === "tool_result" && e.result?.callId === id) };
}

const dbSource = (path: string): SourceRef => ({
  harness: "cursor",
  path,
  kind: "sqlite",
  companions: [`${path}-wal`],
});
const jsonlSource = (path: string): SourceRef => ({ harness: "cursor", path, kind: "append" });

/** A global store with the two tables and the given cursorDiskKV rows. */
function miniDb(path: string, rows: Array<[string | null, unknown]>): string {
  mkdirSync(join(path, ".."), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
    CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`);
  const ins = db.prepare("INSERT INTO cursorDiskKV VALUES (?, ?)");
  for (const [k, v] of rows) {
    ins.run(k, v === null ? null : typeof v === "string" ? v : JSON.stringify(v));
  }
  db.close();
  return path;
}

// ---- discovery ---------------------------------------------------------------

Deno.test("discover finds the global state.vscdb, each workspace DB and agent transcripts under DEJA_CURSOR_ROOT", async () => {
  await withFixture(async (root, env) => {
    const d = await cursor.discover({ env, knownProjects: [] });
    assertEquals(d.sources.map((s) => `${s.kind}:${s.path.replace(root, "")}`), [
      "sqlite:/globalStorage/state.vscdb",
      "sqlite:/workspaceStorage/ws01api/state.vscdb",
      "append:/projects/w-cli-app/agent-transcripts/chat-0001/subagents/sub-0001.jsonl",
      "append:/projects/w-cli-app/agent-transcripts/chat-0001.jsonl",
    ]);
    assertEquals(d.sources[0].companions, [join(root, "globalStorage/state.vscdb-wal")]);
  });
});

Deno.test("discover looks in ~/.config/Cursor/User and ${CURSOR_CONFIG_DIR:-~/.cursor} when no override is set", async () => {
  await withTemp(async (home) => {
    miniDb(join(home, ".config", "Cursor", "User", "globalStorage", "state.vscdb"), []);
    const t = join(home, "cc", "projects", "w-x", "agent-transcripts", "a.jsonl");
    mkdirSync(join(t, ".."), { recursive: true });
    writeFileSync(t, "");
    writeFileSync(join(home, "cc", "projects", "w-x", "notes.jsonl"), "");
    const d = await cursor.discover({
      env: testEnv(home, { CURSOR_CONFIG_DIR: join(home, "cc") }),
      knownProjects: [],
    });
    assertEquals(d.sources.map((s) => s.path.replace(home, "~")), [
      "~/.config/Cursor/User/globalStorage/state.vscdb",
      "~/cc/projects/w-x/agent-transcripts/a.jsonl",
    ]);
  });
});

Deno.test("appUserDir follows each platform's convention for an editor's User directory", () => {
  const env = (platform: string, vars: Record<string, string> = {}): Env => ({
    home: "/h",
    platform,
    get: (n) => vars[n],
  });
  assertEquals(appUserDir(env("linux"), "Cursor"), "/h/.config/Cursor/User");
  assertEquals(appUserDir(env("linux", { XDG_CONFIG_HOME: "/x" }), "Cursor"), "/x/Cursor/User");
  assertEquals(appUserDir(env("darwin"), "Cursor"), "/h/Library/Application Support/Cursor/User");
  assertEquals(
    appUserDir(env("win32", { APPDATA: "/h/AppData/Roaming" }), "Cursor"),
    "/h/AppData/Roaming/Cursor/User",
  );
});

Deno.test("uriToPath decodes percent escapes and Windows drive letters in workspace.json folder URIs", () => {
  assertEquals(uriToPath("file:///w/nothing%20here"), "/w/nothing here");
  assertEquals(uriToPath("file:///c%3A/Users/dev/app"), "c:\\Users\\dev\\app");
  assertEquals(uriToPath("vscode-remote://ssh-remote%2Bbox/home/dev/app"), "/home/dev/app");
  assertEquals(uriToPath("not a uri"), undefined);
});

// ---- the IDE store -------------------------------------------------------------

Deno.test("parse orders a composer's bubbles by fullConversationHeadersOnly and maps type 1/2 to user/assistant", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const s = session(sessions, "c1-fix");
    assertEquals(s.title, "Fix the failing test");
    assertEquals(s.started, T);
    assertEquals(s.updated, T + 60000);
    assertEquals(s.model, "claude-4-sonnet");
    const speech = s.events.filter((e) => e.kind === "user" || e.kind === "assistant").map((e) =>
      `${e.kind}:${e.text}`
    );
    assertEquals(speech, [
      "user:npm test fails, fix it please",
      "user:run it again",
      "assistant:Fixed: the off-by-one is gone and npm test passes. Marker: zebrafinch-cursor-fixture",
    ]);
    assert(
      !s.events.some((e) => e.text.includes("SECRET-THOUGHT") || e.text.includes("stale bubble")),
    );
  });
});

Deno.test("parse takes the project from the workspace DB whose composer list names the composer", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    assertEquals(session(sessions, "c1-fix").project, "/w/api");
    assertEquals(session(sessions, "c3-sub").project, "/w/api");
    assertEquals(session(sessions, "c2-inline").project, "/w/other");
  });
});

Deno.test("parse reads run_terminal_cmd's command and exitCodeV2 from the JSON-in-JSON args and result", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const { call, result } = byCall(session(sessions, "c1-fix").events, "call_term1");
    assertEquals(call.tool?.command, "npm test");
    assertEquals(call.time, T + 1000);
    assertEquals(result?.result, { callId: "call_term1", exit: 1, isError: false });
    assertEquals(result?.text, "1 failing\n  expected 3, got 2");
  });
});

Deno.test("parse builds edit_file's edit spans from the result's diff chunks", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const { call } = byCall(session(sessions, "c1-fix").events, "call_edit1");
    assertEquals(call.tool?.edits, [{
      path: "/w/api/src/app.ts",
      old: "const sum = 3;\nconst total = sum - 1;\nexport { total };",
      new: "const sum = 3;\nconst total = sum;\nexport { total };",
    }]);
  });
});

Deno.test("parse maps search_replace to an edit and read_file to a path, and marks a rejected call as an error", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const ev = session(sessions, "c1-fix").events;
    assertEquals(byCall(ev, "call_sr1").call.tool?.edits, [
      { path: "/w/api/README.md", old: "hello world", new: "hello zebrafinch" },
    ]);
    assertEquals(byCall(ev, "call_read1").call.tool?.paths, ["/w/api/src/app.ts"]);
    assertEquals(byCall(ev, "call_term2").result?.result?.isError, true);
  });
});

Deno.test("parse never reads timingInfo.clientStartTime as a date and carries the last time to bubbles without one", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const ev = session(sessions, "c1-fix").events;
    assert(ev.every((e) => e.time === undefined || e.time > 1e12), "a relative time leaked");
    assertEquals(ev[0].time, T);
    assertEquals(ev.find((e) => e.text === "run it again")?.time, T + 1000);
    assertEquals(byCall(ev, "call_term2").call.time, Date.parse("2026-11-23T02:14:00.000Z"));
  });
});

Deno.test("parse places the conversation summary after the bubble it covers", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const ev = session(sessions, "c1-fix").events;
    const i = ev.findIndex((e) => e.kind === "summary");
    assert(i > 0);
    assertEquals(ev[i - 1].result?.callId, "call_edit1");
    assert(ev[i].text.includes("npm test failed"));
  });
});

Deno.test("parse files a sub-composer under the composer whose subComposerIds lists it", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const sub = session(sessions, "c3-sub");
    assertEquals(sub.parent, "c1-fix");
    assertEquals(sub.events.map((e) => e.text), ["Only checkout.ts calls total."]);
  });
});

Deno.test("parse reads an older composer's inline conversation when it has no headers", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    assertEquals(session(sessions, "c2-inline").events.map((e) => `${e.kind}:${e.text}`), [
      "user:what does parse() do?",
      "assistant:It reads the store and yields sessions.",
    ]);
  });
});

Deno.test("parse counts NULL values, non-JSON values, missing bubbles and unknown bubble types without crashing", async () => {
  await withFixture(async (root, env) => {
    const run = await runParser(cursor, env);
    assertEquals(run.errors, {});
    assertEquals(run.skips[join(root, "globalStorage/state.vscdb")], {
      bad_shape: 1,
      malformed_json: 1,
      not_session: 1,
      unknown_record: 1,
    });
    assert(!run.sessions.some((s) => s.id === "c4-empty" || s.id === "c5-null"));
  });
});

Deno.test("parse yields only composers updated at or after the watermark and returns the largest lastUpdatedAt", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "globalStorage/state.vscdb");
    const full = await parseOne(cursor, dbSource(path), env);
    // c4-empty has only createdAt (T + 200000): it moves the watermark but yields no session.
    assertEquals(full.ctx.endWatermark, T + 200000);
    const again = await parseOne(cursor, dbSource(path), env, { since: T + 100000 });
    assertEquals(again.sessions.map((s) => s.id), ["c2-inline"]);
    assertEquals(again.ctx.endWatermark, T + 200000);
    const none = await parseOne(cursor, dbSource(path), env, { since: T + 300000 });
    assertEquals([none.sessions.length, none.ctx.endWatermark], [0, T + 300000]);
  });
});

Deno.test("parse leaves the fixture store byte-identical and creates no -wal or -shm", async () => {
  await withFixture(async (root, env) => {
    const path = join(root, "globalStorage/state.vscdb");
    const sha = () => createHash("sha256").update(readFileSync(path)).digest("hex");
    const before = sha();
    await parseOne(cursor, dbSource(path), env);
    assertEquals(sha(), before);
    assert(!existsSync(`${path}-wal`) && !existsSync(`${path}-shm`));
  });
});

Deno.test("parse counts unknown_schema when the store has no cursorDiskKV table", async () => {
  await withTemp(async (dir) => {
    const p = join(dir, "state.vscdb");
    const db = new DatabaseSync(p);
    db.exec("CREATE TABLE ItemTable (key TEXT, value BLOB)");
    db.close();
    const { sessions, ctx } = await parseOne(cursor, dbSource(p), testEnv(dir));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_schema: 1 });
  });
});

Deno.test("a composer Cursor left NULL is no session, and the store read holding one is no damage", async () => {
  // Trial 104 F1: the real global database (3 NULL composers) was "now empty, kept 1 session
  // as indexed" on a first index, and `show` said its store was empty now.
  await withFixture(async (root, env) => {
    const env2 = testEnv(join(root, "__home__"), {
      DEJA_CURSOR_ROOT: root,
      DEJA_HOME: join(root, "__deja__"),
    });
    const res = await runIndex(env2, parsers, { only: ["cursor"] });
    const h = res.harnesses.find((x) => x.harness === "cursor")!;
    // The fixture's malformed row is damage; its NULL composer is not, nor does it empty it.
    const said = (h.damaged ?? []).join("\n");
    assert(!/now empty|kept \d+ session/.test(said), said);
    assert(/malformed_json/.test(said), said);
    assert(h.sessions > 0);
    void env;
  });
});

Deno.test("parse counts a 0-byte store as empty and throws StoreError corrupt for a file that is not SQLite", async () => {
  await withTemp(async (dir) => {
    const empty = join(dir, "empty.vscdb");
    writeFileSync(empty, "");
    assertEquals((await parseOne(cursor, dbSource(empty), testEnv(dir))).ctx.counts, { empty: 1 });
    const junk = join(dir, "junk.vscdb");
    writeFileSync(junk, "not a database ".repeat(20));
    const err = await assertRejects(() => parseOne(cursor, dbSource(junk), testEnv(dir)));
    assert(err instanceof StoreError && err.reason === "corrupt", String(err));
  });
});

Deno.test("parse survives a row whose key and value are both NULL and a BLOB value", async () => {
  await withTemp(async (dir) => {
    const p = miniDb(join(dir, "globalStorage", "state.vscdb"), [
      [null, null],
      ["composerData:b1", {
        composerId: "b1",
        createdAt: T,
        lastUpdatedAt: T,
        fullConversationHeadersOnly: [{ bubbleId: "x", type: 1 }],
      }],
    ]);
    const db = new DatabaseSync(p);
    db.prepare("INSERT INTO cursorDiskKV VALUES (?, ?)").run(
      "bubbleId:b1:x",
      new TextEncoder().encode(JSON.stringify({ type: 1, bubbleId: "x", text: "from a blob" })),
    );
    db.close();
    const { sessions, ctx } = await parseOne(cursor, dbSource(p), testEnv(dir));
    assertEquals(ctx.counts, {});
    assertEquals(sessions[0].events.map((e) => e.text), ["from a blob"]);
  });
});

Deno.test("parse takes a header's bubble from conversationMap when the bubble has no row of its own", async () => {
  await withTemp(async (dir) => {
    const p = miniDb(join(dir, "globalStorage", "state.vscdb"), [
      ["composerData:m1", {
        composerId: "m1",
        createdAt: T,
        lastUpdatedAt: T,
        fullConversationHeadersOnly: [{ bubbleId: "x", type: 1 }],
        conversationMap: { x: { type: 1, bubbleId: "x", text: "from the map" } },
      }],
    ]);
    const { sessions, ctx } = await parseOne(cursor, dbSource(p), testEnv(dir));
    assertEquals(ctx.counts, {});
    assertEquals(sessions[0].events.map((e) => e.text), ["from the map"]);
  });
});

// ---- CLI transcripts -------------------------------------------------------------

function transcriptAt(dir: string, name = "chat-9.jsonl"): string {
  const p = join(dir, "projects", "w-proj", "agent-transcripts", name);
  mkdirSync(join(p, ".."), { recursive: true });
  return p;
}

const line = (o: unknown) => JSON.stringify(o) + "\n";

Deno.test("parse maps a CLI transcript's Shell, Read, StrReplace, Write and Delete calls and ignores turn_ended", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const s = session(sessions, "chat-0001");
    assertEquals(s.project, "/w/cli/app");
    assertEquals(s.started, undefined);
    const tools = s.events.filter((e) => e.kind === "tool_call").map((e) => e.tool);
    assertEquals(tools.map((t) => t?.name), ["Shell", "Read", "StrReplace", "Write", "Delete"]);
    assertEquals(tools[0]?.command, "go test ./...");
    assertEquals(tools[1]?.paths, ["/w/cli/app/README.md"]);
    assertEquals(tools[2]?.edits, [{
      path: "/w/cli/app/README.md",
      old: "hello world",
      new: "hello zebrafinch",
    }]);
    assertEquals(tools[3]?.writes, [{ path: "/w/cli/app/NOTES.md", content: "notes\n" }]);
    assert(!s.events.some((e) => e.kind === "tool_result"));
  });
});

Deno.test("parse files a transcript under <chatId>/subagents as a subagent of that chat", async () => {
  await withFixture(async (_root, env) => {
    const { sessions } = await runParser(cursor, env);
    const sub = session(sessions, "sub-0001");
    assertEquals(sub.parent, "chat-0001");
  });
});

Deno.test("decodeProject keeps a hyphenated directory that exists and splits every dash when nothing matches", async () => {
  await withTemp((dir) => {
    mkdirSync(join(dir, "work", "my-app"), { recursive: true });
    const enc = (dir + "/work/my-app").slice(1).replaceAll("/", "-");
    assertEquals(decodeProject(enc), join(dir, "work", "my-app"));
    assertEquals(decodeProject("nowhere-at-all"), "/nowhere/at/all");
    return Promise.resolve();
  });
});

Deno.test("parse counts an empty transcript as nothing read and yields an empty session with its id", async () => {
  await withTemp(async (dir) => {
    const p = transcriptAt(dir);
    writeFileSync(p, "");
    const { sessions, ctx } = await parseOne(cursor, jsonlSource(p), testEnv(dir));
    assertEquals(ctx.endOffset, 0);
    assertEquals(sessions.map((s) => [s.id, s.events.length]), [["chat-9", 0]]);
  });
});

Deno.test("parse leaves a truncated last line for the next run and reads it once the append completes it", async () => {
  await withTemp(async (dir) => {
    const p = transcriptAt(dir);
    const first = line({ role: "user", message: { content: "first" } });
    writeFileSync(p, first + '{"role":"assistant","message":{"content":"sec');
    const a = await parseOne(cursor, jsonlSource(p), testEnv(dir));
    assertEquals(a.ctx.endOffset, first.length);
    assertEquals(a.sessions[0].events.map((e) => e.text), ["first"]);
    appendFileSync(p, 'ond"}}\n');
    const b = await parseOne(cursor, jsonlSource(p), testEnv(dir), {
      offset: a.ctx.endOffset,
      state: a.ctx.endState,
    });
    assertEquals(b.sessions[0].id, a.sessions[0].id);
    assertEquals(b.sessions[0].events.map((e) => e.text), ["second"]);
  });
});

Deno.test("parse skips a malformed line and an invalid UTF-8 line mid-file and keeps the rest", async () => {
  await withTemp(async (dir) => {
    const p = transcriptAt(dir);
    const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
    const enc = new TextEncoder();
    writeFileSync(
      p,
      new Uint8Array([
        ...enc.encode(line({ role: "user", message: { content: "one" } })),
        ...enc.encode("{not json\n"),
        ...bad,
        ...enc.encode(
          line({ role: "assistant", message: { content: [{ type: "text", text: "two" }] } }),
        ),
      ]),
    );
    const { sessions, ctx } = await parseOne(cursor, jsonlSource(p), testEnv(dir));
    assertEquals(ctx.counts, { malformed_json: 2 });
    assertEquals(sessions[0].events.map((e) => e.text), ["one", "two"]);
  });
});

Deno.test("parse counts an unknown first record and still reads the lines after it", async () => {
  await withTemp(async (dir) => {
    const p = transcriptAt(dir);
    writeFileSync(
      p,
      line({ type: "session_header", version: 9 }) +
        line({ role: "user", message: { content: "hi" } }),
    );
    const { sessions, ctx } = await parseOne(cursor, jsonlSource(p), testEnv(dir));
    assertEquals(ctx.counts, { unknown_record: 1 });
    assertEquals(sessions[0].events.map((e) => e.text), ["hi"]);
  });
});

Deno.test("parse gives a resumed transcript the same session id, project and parent as a full parse", async () => {
  await withTemp(async (dir) => {
    const p = transcriptAt(dir, join("chat-7", "subagents", "helper.jsonl"));
    writeFileSync(p, line({ role: "user", message: { content: "a" } }));
    const full = await parseOne(cursor, jsonlSource(p), testEnv(dir));
    appendFileSync(p, line({ role: "assistant", message: { content: "b" } }));
    const resumed = await parseOne(cursor, jsonlSource(p), testEnv(dir), {
      offset: full.ctx.endOffset,
    });
    const [f, r] = [full.sessions[0], resumed.sessions[0]];
    assertEquals([r.id, r.parent, r.project], [f.id, f.parent, f.project]);
    assertEquals(r.events.map((e) => e.text), ["b"]);
  });
});

Deno.test("fixture run equals expected.json when DEJA_CURSOR_ROOT points at the fixture", async () => {
  const entry = loadRegistry().find((e) => e.id === "cursor");
  assert(entry);
  const want = JSON.parse(await Deno.readTextFile(join(FIXTURE, "expected.json")));
  assertEquals(await fixtureRun(entry, cursor), want);
});

// ---- the real store ----------------------------------------------------------------

const REAL = join(REPO, "../shared/realdata/cursor");

Deno.test({
  name:
    "the public Cursor 1.1.6 store yields the composer with its bubbles, tools and project without errors",
  ignore: !existsSync(join(REAL, "globalStorage-state.vscdb")),
  async fn() {
    await withTemp(async (user) => {
      const ws = join(user, "workspaceStorage", "d379ebb9138b3d8303a66581e3c1f1ba");
      mkdirSync(join(user, "globalStorage"), { recursive: true });
      mkdirSync(ws, { recursive: true });
      copyFileSync(
        join(REAL, "globalStorage-state.vscdb"),
        join(user, "globalStorage", "state.vscdb"),
      );
      copyFileSync(join(REAL, "workspaceStorage-state.vscdb"), join(ws, "state.vscdb"));
      copyFileSync(join(REAL, "workspace.json"), join(ws, "workspace.json"));
      const run = await runParser(cursor, testEnv(join(user, "home"), { DEJA_CURSOR_ROOT: user }));
      assertEquals(run.errors, {});
      assertEquals(Object.values(run.skips), [{ not_session: 3 }]);
      assertEquals(run.sessions.length, 2);
      const s = session(run.sessions, "785db00a-32e9-4f3d-a175-8a3259267c27");
      assertEquals(s.id, "785db00a-32e9-4f3d-a175-8a3259267c27");
      assertEquals(s.title, "Adjust waybar background and padding");
      assertEquals(s.project, "/home/user/.config/hypr/conf");
      assertEquals(s.started, 1751285953638);
      const kinds = (k: string) => s.events.filter((e) => e.kind === k).length;
      assertEquals(kinds("user"), 14);
      assertEquals(kinds("tool_call"), 15);
      assertEquals(kinds("tool_result"), 15);
      assertEquals(kinds("summary"), 1);
      const edits = s.events.filter((e) => e.tool?.name === "edit_file");
      assertEquals(edits.length, 10);
      assert(
        edits.every((e) => (e.tool?.edits?.length ?? 0) > 0),
        "an edit_file call without spans",
      );
      assert(s.events.every((e) => e.time === undefined || e.time > 1.7e12));
      // The workspace's prompt history: 59 prompts, one of images alone, the rest in no
      // composer the trimmed global store kept but those of the composer above.
      const h = session(run.sessions, "prompt-history-d379ebb9138b3d8303a66581e3c1f1ba");
      assertEquals(h.project, "/home/user/.config/hypr/conf");
      const own = new Set(s.events.filter((e) => e.kind === "user").map((e) => e.text));
      assert(h.events.every((e) => e.kind === "user" && !own.has(e.text)));
      assertEquals(h.events[0].text, "can you blur the program call waybar?");
      assertEquals(h.events[0].time, undefined, "older than the generations kept");
      assert(h.events.filter((e) => e.time !== undefined).length >= 30);
      assertEquals(h.started, Math.min(...h.events.flatMap((e) => e.time ?? [])));
    });
  },
});

Deno.test("a workspace's prompt history keeps the prompts no composer holds, dated by its generations", async () => {
  await withTemp(async (user) => {
    miniDb(join(user, "globalStorage", "state.vscdb"), [
      ["bubbleId:c1:b1", { type: 1, text: "held by a composer" }],
      ["bubbleId:c2:b1", { type: 1, text: "fix the flaky login test" }],
    ]);
    const ws = join(user, "workspaceStorage", "h1");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "workspace.json"), JSON.stringify({ folder: "file:///w/app" }));
    const db = new DatabaseSync(join(ws, "state.vscdb"));
    db.exec("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)");
    const put = db.prepare("INSERT INTO ItemTable VALUES (?, ?)");
    put.run("composer.composerData", JSON.stringify({ allComposers: [{ composerId: "c1" }] }));
    put.run(
      "aiService.prompts",
      JSON.stringify([
        { text: "an old prompt, before the generations kept", commandType: 4 },
        { text: "held by a composer", commandType: 4 },
        { text: "retry it", commandType: 4 },
        { text: "fix the flaky login test", commandType: 4 },
        { text: "retry it", commandType: 4 },
        { text: "", commandType: 4 },
        { commandType: 4 },
      ]),
    );
    put.run(
      "aiService.generations",
      JSON.stringify([
        { unixMs: T + 1000, type: "composer", textDescription: "retry it" },
        { unixMs: T + 1500, type: "apply", textDescription: "app.ts" },
        { unixMs: T + 2000, type: "composer", textDescription: "fix the flaky login test" },
        { unixMs: T + 3000, type: "composer", textDescription: "retry it" },
      ]),
    );
    db.close();
    const run = await runParser(cursor, testEnv(join(user, "home"), { DEJA_CURSOR_ROOT: user }));
    assertEquals(run.errors, {});
    const h = session(run.sessions, "prompt-history-h1");
    assertEquals(h.project, "/w/app");
    assertEquals(h.events.map((e) => [e.text, e.time]), [
      ["an old prompt, before the generations kept", undefined],
      ["retry it", T + 1000],
      // Held by composer c2, which is not this workspace's: kept.
      ["fix the flaky login test", T + 2000],
      ["retry it", T + 3000],
    ]);
    assertEquals([h.started, h.updated, h.timeFromFile], [T + 1000, T + 3000, undefined]);
    const skips = Object.values(run.skips).reduce((n, k) => n + (k.bad_shape ?? 0), 0);
    assertEquals(skips, 1, "the prompt without a text field");
  });
});

Deno.test("a workspace's prompt history with no generation kept is dated by its database, a shared file", async () => {
  await withTemp(async (user) => {
    miniDb(join(user, "globalStorage", "state.vscdb"), []);
    const ws = join(user, "workspaceStorage", "h2");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "workspace.json"), JSON.stringify({ folder: "file:///w/app" }));
    const db = new DatabaseSync(join(ws, "state.vscdb"));
    db.exec("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)");
    db.prepare("INSERT INTO ItemTable VALUES (?, ?)").run(
      "aiService.prompts",
      JSON.stringify([{ text: "a prompt no generation dates", commandType: 4 }]),
    );
    db.close();
    const at = Date.UTC(2026, 10, 20, 12);
    utimesSync(join(ws, "state.vscdb"), at / 1000, at / 1000);
    const run = await runParser(cursor, testEnv(join(user, "home"), { DEJA_CURSOR_ROOT: user }));
    const h = session(run.sessions, "prompt-history-h2");
    // The database's mtime is only its newest write: the session is undated (lib/session_time.ts).
    assertEquals([h.updated, h.timeFromFile], [at, "shared"]);
  });
});
