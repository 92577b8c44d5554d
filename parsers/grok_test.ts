import { assert, assertEquals, assertRejects } from "../tests/_assert.ts";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Event, Session, SourceRef } from "../core/model.ts";
import { parseOne, REPO, runParser, testEnv } from "../tests/_fixture.ts";
import { StoreError } from "../core/sqlite_read.ts";
import { grok } from "./grok.ts";
import { tempDir } from "../tests/_tmp.ts";

/** Writes `files` (relative path -> text) under a new temp dir. */
function tree(files: Record<string, string | Uint8Array>): { root: string; cleanup(): void } {
  const root = tempDir("deja-grok-");
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const T0 = 1793527200;
const SID = "0199a000-0000-7000-8000-0000000000aa";
const UPD = `sessions/%2Fw%2Fapp/${SID}/updates.jsonl`;
const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r) + "\n").join("");
const src = (path: string): SourceRef => ({ harness: "grok", path, kind: "append" });
const texts = (s: Session, kind: Event["kind"]) =>
  s.events.filter((e) => e.kind === kind).map((e) => e.text);

/** One ACP `session/update` line. */
function up(update: Record<string, unknown>, meta?: Record<string, unknown>, ts: unknown = T0) {
  const rec: Record<string, unknown> = {
    method: "session/update",
    params: { sessionId: SID, update },
  };
  if (ts !== undefined) rec.timestamp = ts;
  if (meta) (rec.params as Record<string, unknown>)._meta = meta;
  return rec;
}
const say = (text: string, promptId?: string, ts?: number) =>
  up(
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
    promptId ? { promptId } : undefined,
    ts,
  );
const ask = (text: string, promptIndex?: number) =>
  up({
    sessionUpdate: "user_message_chunk",
    content: { type: "text", text },
    ...(promptIndex === undefined ? {} : { _meta: { promptIndex } }),
  });
const call = (id: string, extra: Record<string, unknown>) =>
  up({ sessionUpdate: "tool_call", toolCallId: id, ...extra });
const patch = (id: string, extra: Record<string, unknown>) =>
  up({ sessionUpdate: "tool_call_update", toolCallId: id, ...extra });

async function parseFile(root: string, rel = UPD, opts: { offset?: number; state?: unknown } = {}) {
  return await parseOne(grok, src(join(root, rel)), testEnv(root), opts);
}

Deno.test("discovery lists each session's updates.jsonl and grok.db when DEJA_GROK_ROOT is set", async () => {
  const t = tree({
    [UPD]: jsonl(ask("hi")),
    [`sessions/%2Fw%2Fapp/${SID}/chat_history.jsonl`]: "{}\n",
    [`sessions/%2Fw%2Fapp/${SID}/summary.json`]: "{}",
    "sessions/g/s2/subagents/s3/updates.jsonl": "",
    "grok.db": "not really sqlite",
    "user-settings.json": "{}",
  });
  try {
    const d = await grok.discover({
      env: testEnv("/nowhere", { DEJA_GROK_ROOT: t.root }),
      knownProjects: [],
    });
    assertEquals(d.roots, [join(t.root, "sessions"), join(t.root, "grok.db")]);
    assertEquals(d.sources.map((s) => [s.path.slice(t.root.length + 1), s.kind]), [
      [UPD, "append"],
      ["sessions/g/s2/subagents/s3/updates.jsonl", "append"],
      ["grok.db", "sqlite"],
    ]);
    assertEquals(d.sources[0].companions, [
      join(t.root, `sessions/%2Fw%2Fapp/${SID}/summary.json`),
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery reads GROK_HOME for sessions, ~/.grok for grok.db, and DEJA_GROK_DB wins for the db", async () => {
  const t = tree({ [`gh/${UPD}`]: jsonl(ask("a")), "home/.grok/grok.db": "x", "other.db": "x" });
  try {
    const home = join(t.root, "home");
    const a = await grok.discover({
      env: testEnv(home, { GROK_HOME: join(t.root, "gh") }),
      knownProjects: [],
    });
    assertEquals(a.roots, [join(t.root, "gh/sessions"), join(home, ".grok/grok.db")]);
    assertEquals(a.sources.length, 2);
    const b = await grok.discover({
      env: testEnv(home, { DEJA_GROK_DB: join(t.root, "other.db") }),
      knownProjects: [],
    });
    assertEquals(b.roots, [join(home, ".grok/sessions"), join(t.root, "other.db")]);
    assertEquals(b.sources.map((s) => s.kind), ["sqlite"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("discovery finds nothing and still names its roots when the home holds no Grok store", async () => {
  const t = tree({ "proj/.grok/settings.json": '{"model":"grok-code-fast-1"}' });
  try {
    const d = await grok.discover({ env: testEnv(t.root), knownProjects: [join(t.root, "proj")] });
    assertEquals(d.sources, []);
    assertEquals(d.roots, [join(t.root, ".grok/sessions"), join(t.root, ".grok/grok.db")]);
  } finally {
    t.cleanup();
  }
});

Deno.test("assistant chunks join by promptId across tool records when a different promptId starts a new turn", async () => {
  const t = tree({
    [UPD]: jsonl(
      say("I will ", "p1"),
      call("t1", { title: "run_terminal_command", kind: "execute", rawInput: { command: "ls" } }),
      say("look.", "p1"),
      up({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "secret" } }, {
        promptId: "p1",
      }),
      say("Next ", "p2"),
      say("turn.", "p2"),
      say("Back to p1?", "p1"),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(texts(sessions[0], "assistant"), ["I will look.", "Next turn.", "Back to p1?"]);
    assert(!JSON.stringify(sessions).includes("secret"));
    assertEquals(sessions[0].events.map((e) => e.kind), [
      "assistant",
      "tool_call",
      "assistant",
      "assistant",
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("user chunks join by promptIndex and keyless chunks join only while nothing comes between", async () => {
  const t = tree({
    [UPD]: jsonl(
      ask("Run ", 0),
      ask("the tests", 0),
      ask("again", 1),
      say("Glad "),
      say("to help."),
      call("t1", { title: "read_file", kind: "read" }),
      say("After the tool."),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(texts(sessions[0], "user"), ["Run the tests", "again"]);
    assertEquals(texts(sessions[0], "assistant"), ["Glad to help.", "After the tool."]);
  } finally {
    t.cleanup();
  }
});

Deno.test("tool_call_update patches keep earlier output and mark the result an error when the status is failed", async () => {
  const out = (text: string) => [{ type: "content", content: { type: "text", text } }];
  const t = tree({
    [UPD]: jsonl(
      call("t1", {
        title: "run_terminal_command",
        kind: "execute",
        status: "pending",
        rawInput: { command: "go test ./..." },
      }),
      patch("t1", { status: "in_progress", content: out("FAIL: TestAdd") }),
      patch("t1", { status: "failed" }),
      call("t2", {
        title: "run_terminal_command",
        kind: "execute",
        rawInput: '{"command":"go vet ./..."}',
      }),
      patch("t2", { status: "completed", rawOutput: { output: "ok" } }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const ev = sessions[0].events;
    assertEquals(ev.map((e) => e.kind), ["tool_call", "tool_result", "tool_call", "tool_result"]);
    assertEquals(ev[0].tool?.command, "go test ./...");
    assertEquals([ev[1].text, ev[1].result], ["FAIL: TestAdd", { callId: "t1", isError: true }]);
    assertEquals(ev[2].tool?.command, "go vet ./...");
    assertEquals([ev[3].text, ev[3].result?.isError], ["ok", false]);
  } finally {
    t.cleanup();
  }
});

Deno.test("diff content becomes edits, a null oldText a whole-file write, and relative paths join the cwd", async () => {
  const t = tree({
    [`sessions/%2Fw%2Fapp/${SID}/summary.json`]: JSON.stringify({
      info: { id: SID, cwd: "/w/app" },
    }),
    [UPD]: jsonl(
      call("e1", {
        title: "search_replace",
        kind: "edit",
        content: [{ type: "diff", path: "a.go", oldText: "x - y", newText: "x + y" }],
      }),
      call("e2", {
        title: "write",
        kind: "edit",
        content: [{ type: "diff", path: "/w/app/N.md", oldText: null, newText: "new\n" }],
      }),
      call("e3", {
        title: "search_replace",
        rawInput: { file_path: "b.go", old_string: "1", new_string: "2" },
      }),
      call("r1", { title: "read_file", kind: "read", rawInput: { path: "c.go" } }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const tools = sessions[0].events.map((e) => e.tool!);
    assertEquals(tools[0].edits, [{ path: "/w/app/a.go", old: "x - y", new: "x + y" }]);
    assertEquals(tools[1].writes, [{ path: "/w/app/N.md", content: "new\n" }]);
    assertEquals(tools[2].edits, [{ path: "/w/app/b.go", old: "1", new: "2" }]);
    assertEquals(tools[3].paths, ["/w/app/c.go"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a list_dir call names a directory listed, not a file read, even with an ACP read kind and locations", async () => {
  const t = tree({
    [UPD]: jsonl(
      call("l1", {
        title: "list_dir",
        kind: "read",
        rawInput: { path: "src" },
        locations: [{ path: "/w/app/src" }],
      }),
      call("r1", { title: "read_file", kind: "read", locations: [{ path: "/w/app/c.go" }] }),
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    const tools = sessions[0].events.map((e) => e.tool!);
    assertEquals([tools[0].name, tools[0].paths, tools[0].input], ["list_dir", undefined, {
      path: "src",
    }]);
    assertEquals(tools[1].paths, ["/w/app/c.go"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("times read epoch seconds, epoch ms, and _meta.agentTimestampMs when timestamp is missing", async () => {
  const noStamp = up({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: "meta" },
  }, {
    agentTimestampMs: (T0 + 2) * 1000 + 5,
  });
  delete noStamp.timestamp;
  const t = tree({
    [UPD]: jsonl(
      ask("s", 0),
      up(
        {
          sessionUpdate: "user_message_chunk",
          content: { type: "text", text: "ms" },
          _meta: { promptIndex: 1 },
        },
        undefined,
        (T0 + 1) * 1000,
      ),
      noStamp,
    ),
  });
  try {
    const { sessions } = await parseFile(t.root);
    assertEquals(sessions[0].events.map((e) => e.time), [
      T0 * 1000,
      (T0 + 1) * 1000,
      (T0 + 2) * 1000 + 5,
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("summary.json gives id, cwd, title, model and parent when present, else directory name and .cwd", async () => {
  const t = tree({
    [`sessions/%2Fw%2Fapp/dir-a/summary.json`]: JSON.stringify({
      info: { id: "sess-a", cwd: "/w/app" },
      generated_title: "New session",
      session_summary: "Real summary",
      current_model_id: "grok-4.5",
      session_kind: "subagent",
      parent_session_id: "sess-p",
      created_at: "2026-11-01T09:00:00Z",
    }),
    "sessions/%2Fw%2Fapp/dir-a/updates.jsonl": jsonl(ask("a")),
    "sessions/grp/.cwd": "/w/long path\n",
    "sessions/grp/dir-b/updates.jsonl": jsonl(ask("b")),
    "sessions/%2Fw%2Fthird/dir-c/updates.jsonl": jsonl(ask("c")),
    "sessions/%2Fw%2Fapp/same/summary.json": JSON.stringify({
      info: { id: "x" },
      parent_session_id: "x",
    }),
    "sessions/%2Fw%2Fapp/same/updates.jsonl": jsonl(ask("d")),
  });
  try {
    const run = await runParser(grok, testEnv("/nowhere", { DEJA_GROK_ROOT: t.root }));
    const by = (text: string) => run.sessions.find((s) => s.events[0]?.text === text)!;
    const a = by("a");
    assertEquals([a.id, a.project, a.title, a.model, a.parent], [
      "sess-a",
      "/w/app",
      "Real summary",
      "grok-4.5",
      "sess-p",
    ]);
    assertEquals(a.started, Date.parse("2026-11-01T09:00:00Z"));
    assertEquals([by("b").id, by("b").project], ["dir-b", "/w/long path"]);
    assertEquals([by("c").id, by("c").project], ["dir-c", "/w/third"]);
    assertEquals([by("d").id, by("d").parent], ["x/same", "x"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty updates.jsonl yields no session and no error", async () => {
  const t = tree({ [UPD]: "" });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(sessions, []);
    assertEquals(ctx.endOffset, 0);
  } finally {
    t.cleanup();
  }
});

Deno.test("truncated last line is left for the next run and a later append completes it", async () => {
  const head = jsonl(ask("first", 0));
  const tail = JSON.stringify(say("second", "p1"));
  const t = tree({ [UPD]: head + tail.slice(0, 30) });
  try {
    const a = await parseFile(t.root);
    assertEquals(texts(a.sessions[0], "user"), ["first"]);
    assertEquals(a.ctx.endOffset, Buffer.byteLength(head));
    appendFileSync(join(t.root, UPD), tail.slice(30) + "\n");
    const b = await parseFile(t.root, UPD, { offset: a.ctx.endOffset, state: a.ctx.endState });
    assertEquals(b.sessions[0].id, a.sessions[0].id);
    assertEquals(texts(b.sessions[0], "assistant"), ["second"]);
    assertEquals(b.ctx.endOffset, statSync(join(t.root, UPD)).size);
  } finally {
    t.cleanup();
  }
});

Deno.test("malformed, invalid UTF-8, unknown-first and unknown-kind lines are counted while the rest parses", async () => {
  const enc = new TextEncoder();
  const t = tree({
    [UPD]: Buffer.concat([
      enc.encode(jsonl({ role: "user", content: "not ACP" })),
      enc.encode(jsonl(ask("before"))),
      enc.encode("{not json\n"),
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      enc.encode(
        jsonl(up({ sessionUpdate: "brand_new_kind" }), up({ sessionUpdate: "tool_call" })),
      ),
      enc.encode(jsonl(say("after"))),
    ]),
  });
  try {
    const { sessions, ctx } = await parseFile(t.root);
    assertEquals(sessions[0].events.map((e) => e.text), ["before", "after"]);
    assertEquals(ctx.counts, {
      unknown_record: 3, // the repaired line is kept
      malformed_json: 1,
      invalid_utf8: 1,
      bad_shape: 1,
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("a resumed parse keeps the session id and grows the open turn in place when chunks continue", async () => {
  const first = jsonl(
    ask("go", 0),
    say("Part one, ", "p1"),
    call("t1", {
      title: "run_terminal_command",
      kind: "execute",
      status: "pending",
      rawInput: { command: "make" },
    }),
  );
  const t = tree({ [UPD]: first });
  try {
    const a = await parseFile(t.root);
    appendFileSync(
      join(t.root, UPD),
      jsonl(
        say("part two.", "p1"),
        patch("t1", {
          status: "failed",
          content: [{ type: "content", content: { type: "text", text: "boom" } }],
        }),
      ),
    );
    const b = await parseFile(t.root, UPD, {
      offset: a.ctx.endOffset,
      state: JSON.parse(JSON.stringify(a.ctx.endState)),
    });
    const full = await parseFile(t.root);
    assertEquals(b.sessions[0].id, full.sessions[0].id);
    const joined = b.sessions[0].events.find((e) => e.kind === "assistant")!;
    const whole = full.sessions[0].events.find((e) => e.kind === "assistant")!;
    assertEquals([joined.key, joined.text], [whole.key, "Part one, part two."]);
    const res = b.sessions[0].events.find((e) => e.kind === "tool_result")!;
    assertEquals([res.text, res.result?.isError], ["boom", true]);
    const st = b.ctx.endState as { had?: boolean; calls?: unknown; open?: { text: string } };
    assertEquals([st.had, st.calls, st.open?.text], [true, undefined, "Part one, part two."]);
  } finally {
    t.cleanup();
  }
});

// ---- grok.db -------------------------------------------------------------------

const FIXTURE_SQL = join(REPO, "fixtures/registry/grok/home/grok.db.sql");

function makeDb(root: string, sql = readFileSync(FIXTURE_SQL, "utf8")): string {
  const path = join(root, "grok.db");
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
  return path;
}
const dbSrc = (path: string): SourceRef => ({ harness: "grok", path, kind: "sqlite" });

Deno.test("grok.db keeps text, tool calls and results, drops system rows, and sets the watermark in ms", async () => {
  const t = tree({});
  try {
    const path = makeDb(t.root);
    const { sessions, ctx } = await parseOne(grok, dbSrc(path), testEnv(t.root));
    assertEquals(sessions.map((s) => s.id), ["a1b2c3d4e5f6", "0f0e0d0c0b0a"]);
    const s = sessions[0];
    assert(!JSON.stringify(s).includes("You are Grok"));
    assert(!JSON.stringify(s).includes("hidden chain"));
    const cat = s.events.find((e) => e.tool?.command === "cat missing.txt")!;
    const res = s.events.find((e) => e.result?.callId === cat.tool?.id)!;
    assertEquals([res.text, res.result?.isError], [
      "cat: missing.txt: No such file or directory",
      true,
    ]);
    assertEquals(
      s.events.find((e) => e.kind === "summary")?.time,
      Date.parse("2026-11-02T09:02:30Z"),
    );
    assertEquals(ctx.endWatermark, Date.parse("2026-11-02T09:04:32Z"));
    assertEquals(ctx.counts, { unknown_record: 1, malformed_json: 1 });
  } finally {
    t.cleanup();
  }
});

Deno.test("grok.db from a watermark yields only sessions updated since, compared as times not text", async () => {
  const t = tree({});
  try {
    const path = makeDb(t.root);
    const since = Date.parse("2026-11-01T00:00:00Z");
    const { sessions, ctx } = await parseOne(grok, dbSrc(path), testEnv(t.root), { since });
    assertEquals(sessions.map((s) => s.id), ["a1b2c3d4e5f6"]);
    assertEquals(ctx.endWatermark, Date.parse("2026-11-02T09:04:32Z"));
  } finally {
    t.cleanup();
  }
});

Deno.test("grok.db that is empty is counted empty, one with another schema unknown_schema, a corrupt one throws", async () => {
  const t = tree({
    "empty/grok.db": "",
    "bad/grok.db": "SQLite format 3\u0000 but not really a database at all".repeat(40),
  });
  try {
    const e = await parseOne(grok, dbSrc(join(t.root, "empty/grok.db")), testEnv(t.root));
    assertEquals([e.sessions.length, e.ctx.counts.empty], [0, 1]);
    const other = makeDb(join(t.root), "CREATE TABLE notes (id TEXT);");
    const o = await parseOne(grok, dbSrc(other), testEnv(t.root));
    assertEquals([o.sessions.length, o.ctx.counts.unknown_schema], [0, 1]);
    await assertRejects(
      () => parseOne(grok, dbSrc(join(t.root, "bad/grok.db")), testEnv(t.root)),
      StoreError,
    );
    assert(!existsSync(join(t.root, "missing.db")));
  } finally {
    t.cleanup();
  }
});

// ---- real stores -------------------------------------------------------------

const FARM = join(REPO, "../shared/realdata/farm/grok");

Deno.test({
  name:
    "farm home holds no Grok store (grok-cli 0.0.34 keeps none): discovery finds nothing and says where it looked",
  ignore: !existsSync(FARM),
  fn: async () => {
    const home = tempDir("deja-grok-farm-");
    try {
      mkdirSync(join(home, "proj/.grok"), { recursive: true });
      copyFileSync(join(FARM, "proj/.grok/settings.json"), join(home, "proj/.grok/settings.json"));
      const run = await runParser(grok, testEnv(home), [join(home, "proj")]);
      assertEquals(run.discovery.sources, []);
      assertEquals(run.discovery.roots, [
        join(home, ".grok/sessions"),
        join(home, ".grok/grok.db"),
      ]);
      assertEquals([run.sessions, run.errors], [[], {}]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
});

Deno.test({
  name:
    "farm stdout.jsonl is not mistaken for a session store: OpenAI-style lines count as unknown_record",
  ignore: !existsSync(FARM),
  fn: async () => {
    const path = join(FARM, "stdout.jsonl");
    const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).length;
    const { sessions, ctx } = await parseOne(grok, src(path), testEnv("/nowhere"));
    assertEquals(sessions, []);
    assertEquals(ctx.counts, { unknown_record: lines });
    assertEquals(ctx.endOffset, statSync(path).size);
    // The marker, the failing cat and the README edit are in the file, just not in a store shape.
    const text = readFileSync(path, "utf8");
    for (const s of ["zebrafinch-grok", "cat missing.txt", "hello zebrafinch"]) {
      assert(text.includes(s));
    }
  },
});
